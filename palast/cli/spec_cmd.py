"""``palast spec check``: validate the spec."""

from __future__ import annotations

import sys

import click


@click.group()
def spec() -> None:
    """Work with the spec in spec/."""


@spec.command()
@click.option("--require-sources", is_flag=True,
              help="Exit 1 unless the rule source texts were found and match the registry (CI sets it).")
@click.pass_context
def check(ctx: click.Context, require_sources: bool) -> None:
    """Validate every spec file against its schema, every schema against the JSON Schema
    meta-schema, and every reference between them (clause ids, third-party names,
    variation points, rulesets, engine parameters, invariants), read every ruling as
    ``palast rulings`` does (its position, action and expectations), and compare the rule
    source texts with the checksums and line counts of spec/clauses.yaml.

    The source texts are looked for in $PALAST_SOURCES, else ../shared/sources beside the
    checkout. The last line says whether they were verified; when they are not found the
    check still passes (exit 0) and says so, unless --require-sources is given. Exit 1 with
    the reasons when anything is wrong, a spec file that is not valid YAML or a source text
    that differs from the registry included."""
    from palast.errors import InputError, SpecError
    from palast.spec.load import default_sources_dir, load_spec, sources_candidates
    from palast.spec.schemas import schema_file_problems
    from palast.spec.sources import check_sources

    root = ctx.find_root().obj.get("spec_dir")
    directory = default_sources_dir()
    try:
        s = load_spec(root, sources_dir=directory)
        # the decisions and events the engine's machinery takes for granted
        from palast.engine.conformance import problems as engine_problems
        from palast.spec.load import join_problems

        found = engine_problems(s)
        if found:
            raise SpecError(join_problems(found), str(s.root))
        broken = schema_file_problems(s.root / "schema")
        if broken:
            raise SpecError("\n  - ".join(["schema files that are not JSON Schemas:", *(b.render() for b in broken)]))
        # every ruling read as palast rulings reads it: its position, action and expectations
        from palast.query.ruling_files import load_rulings

        rulings = load_rulings(s)
    except InputError as exc:  # a SpecError, or a spec file the YAML reader refuses
        click.echo(f"spec check failed: {exc.render()}", err=True)
        sys.exit(1)
    sources = check_sources(s, directory, tuple(sources_candidates()))
    click.echo(f"spec ok: {s.root}")
    click.echo(f"  {len(s.clauses)} clauses, {len(s.rules)} rules, {len(s.role_actions)} roles, "
               f"{len(s.variation_points)} variation points, {len(s.rulesets)} rulesets, "
               f"{len(s.invariants)} invariants, {len(rulings)} rulings"
               + (f", {len(s.house_rulesets)} house ruleset{'s' if len(s.house_rulesets) != 1 else ''} "
                  f"({', '.join(s.house_rulesets)})" if s.house_rulesets else ""))
    click.echo(sources.render())
    if not sources.verified:
        if require_sources:
            click.echo("spec check failed: --require-sources is given and the rule sources were not verified",
                       err=True)
            sys.exit(1)
        click.echo("warning: the clause line ranges were checked against the registry only, not against the "
                   "source texts", err=True)
