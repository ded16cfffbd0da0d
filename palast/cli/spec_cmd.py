"""``palast spec check``: validate the spec."""

from __future__ import annotations

import sys

import click


@click.group()
def spec() -> None:
    """Work with the spec in spec/."""


@spec.command()
@click.pass_context
def check(ctx: click.Context) -> None:
    """Validate every spec file against its schema, every schema against the JSON Schema
    meta-schema, and every reference between them (clause ids, third-party names,
    variation points, rulesets, engine parameters, invariants). Exit 1 with the reasons
    when anything is wrong, a spec file that is not valid YAML included."""
    from palast.errors import InputError, SpecError
    from palast.schemas import schema_file_problems
    from palast.spec import load_spec

    root = ctx.find_root().obj.get("spec_dir")
    try:
        s = load_spec(root)
        broken = schema_file_problems(s.root / "schema")
        if broken:
            raise SpecError("\n  - ".join(["schema files that are not JSON Schemas:", *(b.render() for b in broken)]))
    except InputError as exc:  # a SpecError, or a spec file the YAML reader refuses
        click.echo(f"spec check failed: {exc.render()}", err=True)
        sys.exit(1)
    click.echo(f"spec ok: {s.root}")
    click.echo(f"  {len(s.clauses)} clauses, {len(s.rules)} rules, {len(s.role_actions)} roles, "
               f"{len(s.variation_points)} variation points, {len(s.rulesets)} rulesets, "
               f"{len(s.invariants)} invariants")
