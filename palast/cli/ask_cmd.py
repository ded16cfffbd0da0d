"""``palast ask SCENARIO [--json]``."""

from __future__ import annotations

import json

import click

from palast.cli.context import get_spec
from palast.cli.house_options import apply_house_rules, house_options


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (its fields: README, section 'Reading palast ask').")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Ask only these rulesets (repeatable).")
@click.option("--no-clauses", is_flag=True, help="Leave clause ids out of the text output.")
@house_options
@click.pass_context
def ask(ctx: click.Context, scenario: str, as_json: bool, rulesets: tuple[str, ...], no_clauses: bool,
        readings: tuple[str, ...], ruleset_file: str | None) -> None:
    """What happens in SCENARIO (a YAML file, - to read it from standard input, or a
    position in one line, e.g. 'red* 0 jester/grey; blue 2; green 1; deck 15', read as one
    when it is no file and holds * or ;): per ruleset, who must decide what, the legal
    actions, what each leads to (events with clause ids) and where the rulesets disagree.

    The scenario's actions are applied first, under each ruleset as far as they go; where
    one is illegal or play stops at a variation point the ruleset leaves open, that
    ruleset's answer names the action and why. Exit 2 when the actions are illegal under
    every ruleset asked, or the file is malformed."""
    from palast.ask import ask as run_ask
    from palast.ask import render_text
    from palast.position_notation import looks_like_position, parse_position
    from palast.scenario import load_scenario

    spec = get_spec(ctx, rulings=False)  # ask reads no ruling
    house = apply_house_rules(spec, rulesets, readings, ruleset_file)  # checks -r too
    sc = parse_position(scenario, spec) if looks_like_position(scenario) else load_scenario(scenario, spec)
    answer = run_ask(house.spec, sc, list(house.rulesets) or None)
    if as_json:
        click.echo(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(answer, clauses=not no_clauses))
