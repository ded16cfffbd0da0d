"""``palast ask SCENARIO [--json] [--full]``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from palast.cli import get_spec, main, usage_message
from palast.errors import InputError


def _print_error(doc: dict[str, Any], text: str) -> None:
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    click.echo(f"palast: error: {text}", err=True)


class AskCommand(click.Command):
    """``palast ask``: with ``--json``, a usage error (an unknown option, a missing
    scenario) is printed as the JSON error document too (see
    :func:`palast.ask.error_document`), exit code 2."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        wants_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if not wants_json or type(exc).__name__ == "NoArgsIsHelpError":
                raise
            from palast.ask import error_document

            _print_error(error_document(usage_message(exc)), usage_message(exc))
            raise click.exceptions.Exit(2) from None


@contextmanager
def _json_errors(as_json: bool) -> Iterator[None]:
    """With ``--json``, bad input is printed as one JSON document (and on standard error as
    usual), exit code 2; without, it goes on to the CLI's own handler."""
    try:
        yield
    except InputError as exc:
        if not as_json:
            raise
        from palast.ask import error_document

        _print_error(error_document(exc), exc.render())
        sys.exit(2)


@main.command(cls=AskCommand)
@click.argument("scenario", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document, also for bad input (its fields: README, section 'Reading palast ask').")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Ask only these rulesets (repeatable).")
@click.option("--no-clauses", is_flag=True, help="Leave clause ids out of the text output.")
@click.option("--full", is_flag=True, help="Print every ruleset's answer in full, unwrapped, instead of grouped.")
@click.pass_context
def ask(ctx: click.Context, scenario: str, as_json: bool, rulesets: tuple[str, ...], no_clauses: bool,
        full: bool) -> None:
    """What happens in SCENARIO (a YAML file, or - to read it from standard input): per
    ruleset, who must decide what, the legal actions, what each leads to (events with
    clause ids) and where the rulesets disagree. The text shows what the rulesets agree
    on once, then what differs, by group of rulesets that answer alike; --full shows
    every ruleset in full.

    The scenario's actions are applied first, under each ruleset as far as they go; where
    one is illegal or play stops at a variation point the ruleset leaves open, that
    ruleset's answer names the action and why. Exit 1 when the actions are illegal under
    every ruleset asked (the answer says why, per ruleset); exit 2 when the file is
    malformed (with --json: a JSON document with an "error" object)."""
    from palast.ask import ask as run_ask
    from palast.ask import render_text
    from palast.scenario import load_scenario

    with _json_errors(as_json):
        spec = get_spec(ctx, rulings=False)  # ask reads no ruling
        for r in rulesets:
            if r not in spec.rulesets:
                raise InputError(f"unknown ruleset {r!r} (known: {', '.join(spec.rulesets)})", None, "--ruleset")
        sc = load_scenario(scenario, spec)
        answer = run_ask(spec, sc, list(rulesets) or None)
    if as_json:
        click.echo(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(answer, clauses=not no_clauses, full=full))
    if answer["not_legal"]:
        ctx.exit(1)
