"""``palast rulings [--json] [ID ...]``: check the rulings in ``spec/rulings/``."""

from __future__ import annotations

import difflib
import json
import sys

import click

from palast.cli.context import get_spec, json_errors
from palast.cli.house_options import apply_house_rules, house_options
from palast.spec.event_text import counted


@click.command()
@click.argument("ids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of lines.")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Check only these rulesets (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="Print only disagreements and the summary.")
@house_options
@click.pass_context
def rulings(ctx: click.Context, ids: tuple[str, ...], as_json: bool, rulesets: tuple[str, ...], quiet: bool,
            readings: tuple[str, ...], ruleset_file: str | None) -> None:
    """Run every ruling (or the rulings IDS) in the engine under every ruleset it names and
    print one line per ruling and ruleset: agrees, or disagrees with the difference.

    A ruling may state a result for a house ruleset, named BASE+POINT=READING. With
    --reading or --ruleset-file only the house rulesets they make are checked, in the
    rulings that state a result for a ruleset with the same base and readings (whatever
    its name).

    Exit 0 when every ruling agrees, 1 on any disagreement, 2 on a malformed ruling file
    (its file, place and problem are printed; with --json also as a JSON document with an
    "error" object, as palast ask prints it)."""
    from palast.errors import InputError
    from palast.formats.house import house_readings
    from palast.query.ruling_files import load_rulings, rulings_dir
    from palast.query.rulings import check_rulings, spec_with_house_rulesets

    with json_errors(as_json):  # bad input: with --json, a JSON document too (as palast ask)
        spec = get_spec(ctx)
        house = apply_house_rules(spec, rulesets, readings, ruleset_file)  # checks -r too
        known = {p.stem for p in rulings_dir(spec).glob("*.yaml")}
        unknown = [i for i in ids if i not in known]
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(f"no ruling {', '.join(map(repr, unknown))} in {rulings_dir(spec)}{hint} "
                             f"(known: {', '.join(sorted(known))})", None, "ID")
        loaded = load_rulings(spec, list(dict.fromkeys(ids)) or None)  # a ruling named twice is checked once
        full = spec_with_house_rulesets(house.spec, loaded)
        chosen = list(house.rulesets)
        if house.house:  # a house ruleset is checked where a ruling states a result for the same readings
            def key(rs: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
                base, taken = house_readings(full, rs)
                return base, tuple(sorted(taken.items()))

            same = {key(h) for h in house.house}
            chosen = [r for r in chosen if r not in house.house]
            chosen += list(dict.fromkeys(rs for r in loaded for rs in r.rulesets if key(rs) in same))
            loaded = [r for r in loaded if set(r.rulesets) & set(chosen)]
            if not loaded:
                click.echo(f"palast: note: no ruling states a result for {', '.join(house.house)} (a ruling names a "
                           "house ruleset as a key of expect, BASE+POINT=READING)", err=True)
        checks = check_rulings(full, loaded, chosen or None)
        bad = [c for c in checks if not c.agrees]
        if as_json:
            by_id: dict[str, dict[str, object]] = {}
            for ruling in loaded:
                by_id[ruling.id] = {"id": ruling.id, "file": ruling.file, "title": ruling.title,
                                    "question": ruling.question, "clauses": list(ruling.clauses),
                                    "variation_points": list(ruling.variation_points), "results": []}
            for c in checks:
                results = by_id[c.ruling.id]["results"]
                assert isinstance(results, list)
                results.append(c.to_dict())
            doc = {"rulings": list(by_id.values()),
                   "summary": {"rulings": len(loaded), "checks": len(checks), "agree": len(checks) - len(bad),
                               "disagree": len(bad)}}
            click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        else:
            wid = max((len(r.id) for r in loaded), default=10)
            wrs = max((len(c.ruleset) for c in checks), default=9)
            for c in checks:
                if c.agrees and not quiet:
                    click.echo(f"{c.ruling.id:<{wid}}  {c.ruleset:<{wrs}}  agrees     {c.outcome.summary}")
                elif not c.agrees:
                    diff = "; ".join(d.text() for d in c.differences)
                    click.echo(f"{c.ruling.id:<{wid}}  {c.ruleset:<{wrs}}  DISAGREES  {diff}")
            click.echo(f"{counted(len(loaded), 'ruling', 'rulings')}, {counted(len(checks), 'check', 'checks')}: "
                       f"{len(checks) - len(bad)} agree, "
                       f"{len(bad)} disagree")
        if bad:
            sys.exit(1)
