"""``palast prove [--json] [--only NAME] [--ruleset R] [--jobs N] [--search] [--out DIR]``.

Runs the Z3 obligations of ``proofs/`` (DESIGN.md, "Proofs") and prints one line per
obligation: name, ruleset, result, seconds. Exit 0 when every obligation has its expected
result, 1 otherwise, 2 for bad options. z3 is imported only when the command runs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from palast.cli.context import get_spec
from palast.cli.house_options import apply_house_rules, house_options


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of lines.")
@click.option("--only", "only", multiple=True, help="Run only the obligations of this name (repeatable).")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Run only under this ruleset (repeatable).")
@click.option("--jobs", "-j", default=2, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes.")
@click.option("--search", is_flag=True, help="Find every witness anew with Z3 and rewrite its file (slow).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Directory for witness and counterexample scenarios (default: proofs/witnesses).")
@click.option("--list", "list_only", is_flag=True, help="List the obligations without running them.")
@house_options
@click.pass_context
def prove(ctx: click.Context, as_json: bool, only: tuple[str, ...], rulesets: tuple[str, ...], jobs: int,
          search: bool, out_dir: str | None, list_only: bool, readings: tuple[str, ...],
          ruleset_file: str | None) -> None:
    """Run the Z3 proof obligations; exit 1 unless each has its expected result.

    With house rules (--reading, --ruleset-file) the obligations stated for every
    ruleset run under the house rulesets only; the witness questions, which name the
    rulesets they are about, are not asked of them."""
    from palast.errors import InputError
    from proofs.obligation import Options
    from proofs.runner import all_obligations, as_dict, run

    base_spec = get_spec(ctx)
    house = apply_house_rules(base_spec, rulesets, readings, ruleset_file)  # checks -r too
    spec = house.spec
    chosen = house.rulesets
    if house.house:
        _refuse_readings_the_proofs_do_not_model(base_spec, spec, chosen)
    obligations = all_obligations(spec)
    names = {ob.name for ob in obligations}
    for name in only:
        if name not in names:
            raise InputError(f"no obligation {name!r} (known: {', '.join(sorted(names))})", None, "--only")
    selected = [ob for ob in obligations if (not only or ob.name in only) and (not chosen or ob.ruleset in chosen)]
    if house.house and not selected:
        raise InputError(f"no obligation {'named so ' if only else ''}is stated for {', '.join(chosen)}", None,
                         "--only" if only else "--reading")
    if list_only:
        for ob in selected:
            click.echo(f"{ob.name:28} {ob.ruleset:10} expects {ob.expect:15} {ob.statement}")
        return
    opts = Options(out_dir=Path(out_dir) if out_dir else None, search=search)
    start = time.perf_counter()
    if search:
        _search(spec, only, chosen, opts, as_json)
    lines = run(spec, selected, opts, jobs=jobs)
    seconds = time.perf_counter() - start
    failed = [line for line in lines if not line.passed]
    if as_json:
        click.echo(json.dumps({"obligations": [as_dict(line) for line in lines], "passed": not failed,
                               "seconds": round(seconds, 1)}, indent=2))
    else:
        for line in lines:
            mark = "" if line.passed else f"  FAILED (expected {line.expected})"
            click.echo(f"{line.name:28} {line.ruleset:10} {line.result:15} {line.seconds:7.2f}s  {line.detail}{mark}")
            for f in line.files:
                click.echo(f"{'':28} {'':10} {'':15} {'':8}  file: {f}")
        click.echo(f"palast prove: {len(lines)} obligations, {len(lines) - len(failed)} passed, {len(failed)} failed "
                   f"in {seconds:.1f} s")
    ctx.exit(1 if failed else 0)


def _search(spec: Any, only: tuple[str, ...], rulesets: tuple[str, ...], opts: Any, quiet: bool) -> None:
    """Find the witnesses of the selected questions anew (before checking them)."""
    from proofs.cupbearer import actor_whisper_question
    from proofs.reachability import questions
    from proofs.witness import search

    for q in [*questions(), actor_whisper_question()]:
        if (only and q.name not in only) or (rulesets and not set(q.rulesets) & set(rulesets)):
            continue
        start = time.perf_counter()
        out = search(spec, q, opts.out_dir)
        if not quiet:
            click.echo(f"search {q.file_stem:40} {out.result:15} {time.perf_counter() - start:7.2f}s  {out.detail}",
                       err=True)


def _refuse_readings_the_proofs_do_not_model(base: Any, spec: Any, chosen: Sequence[str]) -> None:
    """The Z3 model in proofs/ is still written by hand for the readings that engine
    parameters implement; a reading that only a rule's declared logic gives (a point with no
    ``parameter:``, read otherwise than every ruleset of the spec reads it) is not in it, so
    nothing could be proved about it.

    :raises InputError: naming the point and the reading.
    """
    from palast.engine.params import parameter_table
    from palast.errors import InputError

    declared_only = [point for name, (point, _) in parameter_table(spec).items() if name == point]
    for rs in chosen:
        for point in declared_only:
            reading = spec.reading(rs, point)
            if all(base.reading(own, point) != reading for own in base.rulesets):
                raise InputError(f"{rs} reads {point} as {reading}, which only the rule language declares; the "
                                 "proofs' model of the rules (proofs/) does not have it yet, so palast prove "
                                 "cannot check it (palast play, replay, ask and simulate can)", None, "--reading")
