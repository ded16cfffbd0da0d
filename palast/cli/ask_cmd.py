"""``palast ask SCENARIO [--json] [--full]``."""

from __future__ import annotations

import json

import click

from palast.cli.context import OnceOption, get_spec, json_errors, print_json_error, usage_message
from palast.cli.house_options import apply_house_rules, house_options
from palast.errors import InputError


class AskCommand(click.Command):
    """``palast ask``: with ``--json``, a usage error (an unknown option, a missing
    scenario) is printed as the JSON error document too (see
    :func:`palast.query.ask.error_document`), exit code 2."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        wants_json = "--json" in args[: args.index("--")] if "--" in args else "--json" in args
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if not wants_json or type(exc).__name__ == "NoArgsIsHelpError":
                raise
            from palast.query.ask import error_document

            print_json_error(error_document(usage_message(exc)), usage_message(exc))
            raise click.exceptions.Exit(2) from None


@click.command(cls=AskCommand)
@click.argument("scenario", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document, also for bad input (its fields: README, section 'Reading palast ask').")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Ask only these rulesets (repeatable).")
@click.option("--no-clauses", is_flag=True, help="Leave clause ids out of the text output.")
@click.option("--full", is_flag=True, help="Print every ruleset's answer in full, unwrapped, instead of grouped.")
@click.option("--as", "as_player", cls=OnceOption, once="ask --as answers from one player's side",
              metavar="COLOUR", default=None,
              help="Answer from this player's side: what they know, their legal actions, and what they see happen "
                   "(with exact probabilities where it depends on cards they cannot see).")
@house_options
@click.pass_context
def ask(ctx: click.Context, scenario: str, as_json: bool, rulesets: tuple[str, ...], no_clauses: bool,
        full: bool, as_player: str | None, readings: tuple[str, ...], ruleset_file: str | None) -> None:
    """What happens in SCENARIO (a YAML file, - to read it from standard input, or a
    position in one line, e.g. 'red* 0 jester/grey; blue 2; green 1; deck 15', read as one
    when it is no file and holds * or ;): per ruleset, who must decide what, the legal
    actions, what each leads to (events with clause ids) and where the rulesets disagree.
    The text shows what the rulesets agree on once, then what differs, by group of
    rulesets that answer alike; --full shows every ruleset in full.

    The scenario's actions are applied first, under each ruleset as far as they go; where
    one is illegal or play stops at a variation point the ruleset leaves open, that
    ruleset's answer names the action and why. Exit 1 when the actions are illegal under
    every ruleset asked (the answer says why, per ruleset); exit 2 when the file is
    malformed (with --json: a JSON document with an "error" object).

    \b
    Scenario keys (players and to_move are required):
      title, question   a heading and a question, printed with the answer
      note, source      text for readers, not printed
      players           seat order, 3-5 colours: [red, blue, green]
      rulesets          the rulesets to ask (default: all): [source-a, reference]
      banned            the role the King card in force bans, or null: jester
      king_deck         face-down King cards: a count, or roles top first
      king_spent        roles of King cards revealed earlier: [maid]
      to_move           the colour of the player to move: red
      round             the round number (default 1)
      scores            colour -> score: {red: 0, blue: 2}
      played            colour -> cards played this round (default: display size)
      tally             colour -> cards played in the rounds they scored in
      marks             colour -> character card (a colour), for a ruleset that deals them (fan)
      hands, displays   colour -> cards: {red: [maid/grey, guard/red]}
      deck              the draw deck: a count (order unknown) or cards top first
      discard           the discard pile: [maid/grey]
      actions           actions to apply first: [play maid/grey, discard jester/red]

    SCENARIO may also be a ruling (spec/rulings/ID.yaml): its position is asked, with its
    action applied, under the rulesets it states a result for.

    The full format, with an example: the README, section "Scenario files", and the
    rulebook's page "Scenario files"."""
    from dataclasses import replace

    from palast.formats.house import resolve_all
    from palast.formats.position import looks_like_position, parse_position
    from palast.formats.scenario import load_scenario
    from palast.query.ask import ask as run_ask
    from palast.query.ask import render_text
    from palast.query.ruling_files import is_ruling_file, ruling_scenario

    with json_errors(as_json):
        spec = get_spec(ctx, rulings=False)  # ask reads no ruling
        house = apply_house_rules(spec, rulesets, readings, ruleset_file)  # checks -r too
        if looks_like_position(scenario):
            sc = parse_position(scenario, spec)
        elif is_ruling_file(scenario):
            sc = ruling_scenario(scenario, spec)
        else:
            sc = load_scenario(scenario, spec)
        if not house.rulesets:  # the scenario's rulesets: named house rulesets among them are added
            house = replace(house, spec=resolve_all(house.spec, sc.rulesets))
        if as_player is not None:
            from palast.query.ask_view import ask_as, render_as

            try:
                viewed = ask_as(house.spec, sc, as_player, list(house.rulesets) or None)
            except InputError as exc:
                if exc.file is None and exc.place is None:  # a colour of --as the game does not seat
                    raise InputError(exc.message, None, "--as") from None
                raise
    if as_player is not None:
        click.echo(json.dumps(viewed, indent=2, ensure_ascii=False) if as_json else render_as(viewed))
        if viewed["not_legal"]:
            ctx.exit(1)
        return
    with json_errors(as_json):
        answer = run_ask(house.spec, sc, list(house.rulesets) or None)
    if as_json:
        click.echo(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(answer, clauses=not no_clauses, full=full))
    if answer["not_legal"]:
        ctx.exit(1)
