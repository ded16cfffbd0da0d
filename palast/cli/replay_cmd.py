"""``palast replay RECORD``: re-play a game record and confirm it or name the first illegal action."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from palast.cli.context import OnceOption, get_spec, json_errors
from palast.cli.house_options import apply_house_rules, house_options, one_ruleset


@click.command()
@click.argument("record")
@click.option("--ruleset", "-r", cls=OnceOption, default=None, once="replay re-plays the record under one ruleset",
              help="Replay under this one ruleset (default: the record's, with the readings its header stores, "
                   "else the spec's default).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--verbose", "-v", is_flag=True, help="Print every action and its events with clause ids.")
@click.option("--no-clauses", is_flag=True, help="Leave clause ids out of --verbose output.")
@click.option("--as", "as_player", cls=OnceOption, once="replay --as prints what one player saw",
              metavar="COLOUR", default=None,
              help="Print only what this player saw: their own actions, every event as they saw it, their view "
                   "at the end.")
@house_options
@click.pass_context
def replay(ctx: click.Context, record: str, ruleset: str | None, as_json: bool, verbose: bool,
           no_clauses: bool, as_player: str | None, readings: tuple[str, ...], ruleset_file: str | None) -> None:
    """Re-play RECORD (JSON Lines) action by action.

    \b
    Exit 0: every action is legal and the result line (if any) matches; the record
            may stop before the game ends if it has no result line; a record that
            ends at a variation point the ruleset leaves open (a gap) is confirmed
            when its result line says so ("end": "gap").
    Exit 1: the first illegal action (its number, line, why and the clause ids); a
            gap the result line does not state (reached before the last action, or
            at the end of a record whose result line is missing or says otherwise);
            a result line that differs from the replay; an action after which an
            invariant of spec/invariants.yaml is false (check mode; --json names
            it under "check_failure").
    Exit 2: a malformed record (file, line and problem).

    \b
    House rules: a record played with them names its base ruleset and readings,
    and is replayed under them. --reading applies on top of the record's
    ruleset (a point the record reads otherwise is read as --reading says, and
    noted); --ruleset or --ruleset-file replaces the record's ruleset."""
    from palast.query.replay import render_text, report_dict
    from palast.query.replay import replay as run_replay
    from palast.query.replay_view import render_as, replay_as

    with json_errors(as_json):  # bad input: with --json, a JSON document too (as palast ask)
        spec, house, rec = _read(ctx, record, ruleset, readings, ruleset_file)
        chosen = house.rulesets[0] if house.rulesets else None
        report = run_replay(house.spec, rec, chosen)
        if as_player is not None:
            seen = replay_as(report, as_player)  # a colour not seated: bad input, exit 2
    if as_player is not None:
        click.echo(json.dumps(seen, indent=2, ensure_ascii=False) if as_json else "\n".join(render_as(seen)))
        sys.exit(report.status.exit_code)
    if as_json:
        click.echo(json.dumps(report_dict(spec, report), indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(render_text(spec, report, verbose=verbose, clauses=not no_clauses)))
    sys.exit(report.status.exit_code)


def _read(ctx: click.Context, record: str, ruleset: str | None, readings: tuple[str, ...],
          ruleset_file: str | None) -> tuple[Any, Any, Any]:
    """The spec, the house rules asked and the record read, as ``palast replay`` takes them.

    :raises InputError: for a broken spec, bad house rules or a malformed record."""
    from palast.formats.record import read_record
    from palast.query.replay import record_ruleset

    spec = get_spec(ctx)
    asked = one_ruleset(ruleset, ruleset_file)
    if asked or ruleset_file is not None:
        house = apply_house_rules(spec, asked, readings, ruleset_file)  # checks -r before the record is read
        rec = read_record(record)
        if rec.base is not None:
            click.echo(f"palast: note: the record was played with house rules ({rec.ruleset or rec.base}: "
                       f"{rec.base} with {', '.join(f'{p}={r}' for p, r in rec.readings)}); it is replayed "
                       f"under {house.rulesets[0]}, as asked", err=True)
    else:  # the record's ruleset, with the readings it stores; --reading on top of it
        rec = read_record(record)
        base_spec, name = record_ruleset(spec, rec)
        house = apply_house_rules(base_spec, [name] if readings else [], readings, None)
    return spec, house, rec
