"""``palast replay RECORD``: re-play a game record and confirm it or name the first illegal action."""

from __future__ import annotations

import json
import sys

import click

from palast.cli.context import get_spec


@click.command()
@click.argument("record")
@click.option("--ruleset", "-r", default=None,
              help="Replay under this ruleset (default: the record's, else the spec's default).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--verbose", "-v", is_flag=True, help="Print every action and its events with clause ids.")
@click.option("--no-clauses", is_flag=True, help="Leave clause ids out of --verbose output.")
@click.pass_context
def replay(ctx: click.Context, record: str, ruleset: str | None, as_json: bool, verbose: bool,
           no_clauses: bool) -> None:
    """Re-play RECORD (JSON Lines) action by action.

    \b
    Exit 0: every action is legal and the result line (if any) matches; the record
            may stop before the game ends if it has no result line; a record that
            ends at a variation point the ruleset leaves open (a gap) is confirmed
            when its result line says so ("end": "gap").
    Exit 1: the first illegal action (its number, line, why and the clause ids); a
            gap the result line does not state (reached before the last action, or
            at the end of a record whose result line is missing or says otherwise);
            a result line that differs from the replay.
    Exit 2: a malformed record (file, line and problem)."""
    from palast.errors import InputError
    from palast.record import read_record
    from palast.replay import render_text, report_dict
    from palast.replay import replay as run_replay

    spec = get_spec(ctx)
    if ruleset is not None and ruleset not in spec.rulesets:
        raise InputError(f"unknown ruleset {ruleset!r} (known: {', '.join(spec.rulesets)})", None, "--ruleset")
    rec = read_record(record)
    report = run_replay(spec, rec, ruleset)
    if as_json:
        click.echo(json.dumps(report_dict(spec, report), indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(render_text(spec, report, verbose=verbose, clauses=not no_clauses)))
    sys.exit(report.status.exit_code)
