"""``palast prove [--json] [--only NAME] [--ruleset R] [--jobs N] [--search] [--out DIR]
[--list] [--explain NAME] [--verbose]``.

Runs the Z3 obligations of ``proofs/`` (README, "Proofs: palast prove") and prints one line per
obligation (name, ruleset, result, seconds, what it states), the differential check's
coverage per rule, and a summary line. Exit 0 when every obligation has its expected
result, 1 otherwise (or when a worker process died), 2 for bad options, 130 on Ctrl-C.
z3 is imported only when the command runs.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from palast.cli.context import OnceOption, get_spec, json_errors
from palast.cli.house_options import apply_house_rules, house_options
from palast.spec.event_text import counted


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of lines.")
@click.option("--only", "only", multiple=True,
              help="Run only the obligations of this name (repeatable); what they rest on and is not run is named "
                   "before the summary.")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Run only under this ruleset (repeatable).")
@click.option("--jobs", "-j", cls=OnceOption, default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (2 uses both cores of a two-core machine); results print in the same order.")
@click.option("--search", is_flag=True, help="Find every witness anew with Z3 and rewrite its file (slow).")
@click.option("--out", "out_dir", cls=OnceOption, type=click.Path(file_okay=False), default=None,
              help="Directory for witness and counterexample scenarios (default: proofs/witnesses).")
@click.option("--list", "list_only", is_flag=True, help="List the obligations without running them.")
@click.option("--explain", "explain_name", cls=OnceOption, once="prove --explain explains one obligation",
              metavar="NAME", default=None,
              help="Run the obligation NAME (every ruleset, or those of -r) and say what it states, what it "
                   "assumes (directly, then through what that assumes), its result and its scenario file.")
@click.option("--verbose", "-v", is_flag=True, help="Also print each obligation's detail and files.")
@house_options
@click.pass_context
def prove(ctx: click.Context, as_json: bool, only: tuple[str, ...], rulesets: tuple[str, ...], jobs: int,
          search: bool, out_dir: str | None, list_only: bool, explain_name: str | None, verbose: bool,
          readings: tuple[str, ...], ruleset_file: str | None) -> None:
    """Run the Z3 proof obligations; exit 1 unless each has its expected result.

    With house rules (--reading, --ruleset-file) the obligations stated for every
    ruleset run under the house rulesets only; a reachability question whose stored
    games name the rulesets they answer under is not asked of them."""
    from palast.errors import InputError
    from palast.spec.load import default_spec_dir
    from proofs.explain import explain, find
    from proofs.obligation import Options
    from proofs.runner import Interrupted, WorkerDied, all_obligations, as_dict, assumed_not_run, run

    with json_errors(as_json):  # bad input: with --json, a JSON document too (as palast ask)
        base_spec = get_spec(ctx)
        house = apply_house_rules(base_spec, rulesets, readings, ruleset_file)  # checks -r too
        spec = house.spec
        chosen = house.rulesets
        if house.house:
            _refuse_readings_the_proofs_do_not_model(base_spec, spec, chosen, readings, ruleset_file)
        obligations = all_obligations(spec)
        names = {ob.name for ob in obligations}
        for name in only:
            if name not in names:
                raise InputError(f"no obligation {name!r} (known: {', '.join(sorted(names))})", None, "--only")
        if explain_name is not None and only:
            # it printed the explanation alone, while the exit code also told of the others
            raise InputError("--explain runs and explains the one obligation it names (under each ruleset, or "
                             "those of -r): leave out --only (or run the others without --explain)", None, "--only")
        asked = only
        if explain_name is not None:
            only = (*only, *{ob.name for ob in find(obligations, explain_name)})
        selected = [ob for ob in obligations if (not only or ob.name in only) and (not chosen or ob.ruleset in chosen)]
        # a name stated under other rulesets only (a module's, fan's) would run nothing
        missing = [name for name in asked if name not in {ob.name for ob in selected}]
        if not selected or missing:
            what = f"named {missing[0]!r} " if missing else "named so " if only else ""
            raise InputError(f"no obligation {what}is stated for {', '.join(chosen) or 'any ruleset'}", None,
                             "--only" if asked else "--explain" if explain_name is not None
                             else "--reading" if house.house else "--ruleset")
    if list_only:
        if as_json:
            click.echo(json.dumps({"obligations": [{"name": ob.name, "ruleset": ob.ruleset, "expect": ob.expect,
                                                     "statement": ob.statement, "because": ob.because}
                                                    for ob in selected]}, indent=2, ensure_ascii=False))
            return
        wn, wr = columns(selected)
        for ob in selected:
            click.echo(f"{ob.name:{wn}} {ob.ruleset:{wr}} expects {ob.expect:15} {ob.statement}")
        return
    outside = [r for r in chosen if r not in base_spec.rulesets and r not in base_spec.house_rulesets]
    spec_dir = (ctx.obj or {}).get("spec_dir")
    other_spec = spec_dir is not None and Path(spec_dir).resolve() != default_spec_dir().resolve()
    made = out_dir is None and bool(outside or other_spec)
    if made:
        # scenarios of house rules given on the command line, or of another spec than the
        # checkout's (--spec), stay out of the checkout: a file of a ruleset or a position
        # spec/ does not have would break every later run's replay of proofs/witnesses/
        out_dir = tempfile.mkdtemp(prefix="palast-prove-")
        whose = f"the spec in {spec_dir}" if other_spec else ", ".join(outside)
        click.echo(f"palast: note: witnesses and counterexamples of {whose} go to {out_dir} "
                   "(--out DIR to choose)", err=True)
    # what --only left out (--explain, which also selects, says what its obligation assumes)
    unrun = assumed_not_run(obligations, selected) if explain_name is None else {}
    opts = Options(out_dir=Path(out_dir) if out_dir else None, search=search)
    start = time.perf_counter()
    try:
        if search:
            _search(spec, only, chosen, opts, as_json)
        lines = run(spec, selected, opts, jobs=jobs)
    except Interrupted:
        click.echo("palast prove: interrupted; no result", err=True)
        ctx.exit(130)
    except WorkerDied as exc:
        click.echo(f"palast prove: a worker process died ({exc}); no result", err=True)
        ctx.exit(1)
    finally:
        if made and out_dir is not None:
            with contextlib.suppress(OSError):  # gone already, or written to meanwhile: leave it
                if not any(Path(out_dir).iterdir()):
                    Path(out_dir).rmdir()  # nothing was written there: leave no empty directory behind
    seconds = time.perf_counter() - start
    failed = [line for line in lines if not line.passed]
    if as_json:
        doc: dict[str, Any] = {"obligations": [as_dict(line) for line in lines], "passed": not failed,
                               "seconds": round(seconds, 1)}
        if any(ob.family == "modules" for ob in selected):  # a module's breaks were checked
            doc["modules"] = module_facts(spec, _module_rulesets(selected))
        if unrun:  # what the run's proofs assume and --only left out
            doc["assumed_not_run"] = [{"name": n, "ruleset": r, "by": by} for (n, r), by in unrun.items()]
        if explain_name is not None:  # the explanation's lines, per ruleset, as printed without --json
            doc["explanations"] = [{"name": ob.name, "ruleset": ob.ruleset,
                                    "lines": explain(spec, obligations, ob, line)}
                                   for ob, line in zip(selected, lines, strict=True) if ob.name == explain_name]
        click.echo(json.dumps(doc, indent=2))
    elif explain_name is not None:
        for ob, line in zip(selected, lines, strict=True):
            if ob.name == explain_name:
                click.echo("\n".join(explain(spec, obligations, ob, line)))
    else:
        statements = {ob.key: ob.statement for ob in selected}
        wn, wr = columns(selected)
        indent = " " * (wn + wr + 2)
        for line in lines:
            click.echo(obligation_line(line, statements[f"{line.name}@{line.ruleset}"], (wn, wr)))
            if verbose or not line.passed:
                if line.because:
                    click.echo(f"{indent}expects {line.expected}: {line.because}")
                click.echo(f"{indent}{line.detail}")
                for f in line.files:
                    click.echo(f"{indent}file: {f}")
        for row in coverage_table(lines, spec):
            click.echo(row)
        if any(ob.family == "modules" for ob in selected):  # a module's breaks were checked
            for row in module_summary(spec, _module_rulesets(selected)):
                click.echo(row)
        for row in assumed_lines(unrun):
            click.echo(row)
        click.echo(f"palast prove: {counted(len(lines), 'obligation', 'obligations')}, "
                   f"{len(lines) - len(failed)} passed, {len(failed)} failed "
                   f"in {seconds:.1f} s")
    ctx.exit(1 if failed else 0)


def assumed_lines(unrun: dict[tuple[str, str], list[str]]) -> list[str]:
    """What ``proofs.runner.assumed_not_run`` returns, as lines: a heading, then one line per
    ruleset (none when nothing is left out; ``--json`` says which obligation rests on which)."""
    by_ruleset: dict[str, list[str]] = {}
    for (name, ruleset) in unrun:
        by_ruleset.setdefault(ruleset, []).append(name)
    if not by_ruleset:
        return []
    return ["not run here, and assumed by obligations run above, directly or through what they assume (those pass "
            "only where these pass; --json says which rests on which):",
            *(f"  {ruleset}: {', '.join(names)}" for ruleset, names in by_ruleset.items())]


def _module_rulesets(selected: Sequence[Any]) -> list[str]:
    """The rulesets of the rule modules' obligations among ``selected``, in order."""
    return list(dict.fromkeys(ob.ruleset for ob in selected if ob.family == "modules"))


def module_facts(spec: Any, rulesets: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """For each rule module of ``spec`` and each ruleset its checks ran under (of
    ``rulesets``, the rulesets of the module obligations run; default: the first ruleset
    switching it on, or None): ``module`` (its id), ``ruleset``, ``breaks`` (the invariants
    it declares broken, each an obligation of family ``modules``) and ``not_proved`` (those
    it leaves standing that the prove list of that ruleset does not list,
    ``proofs.modules.not_proved``)."""
    from proofs.modules import not_proved, ruleset_of, rulesets_of

    out = []
    for m in spec.modules.values():
        under = ([ruleset_of(spec, m)] if rulesets is None
                 else [r for r in rulesets_of(spec, m) if r in rulesets])
        out += [{"module": m.id, "ruleset": r, "breaks": [b.invariant for b in m.breaks],
                 "not_proved": not_proved(spec, m, r)} for r in under]
    return out


def module_summary(spec: Any, rulesets: Sequence[str] | None = None) -> list[str]:
    """:func:`module_facts` as one line per module and ruleset."""
    out = []
    for m in module_facts(spec, rulesets):
        unproved = m["not_proved"]
        rest = (f"not proved with the module (its ruleset's prove list does not list them): {', '.join(unproved)}"
                if unproved else "every other invariant is on its ruleset's prove list, with the obligations "
                                 "that prove it")
        out.append(f"module {m['module']} ({m['ruleset'] or 'no ruleset'}): breaks "
                   f"{', '.join(m['breaks']) or 'nothing'} (counterexamples above); {rest}")
    return out


def columns(obligations: Sequence[Any]) -> tuple[int, int]:
    """The widths of the name and ruleset columns for ``obligations``: at least 28 and 10
    characters, and as wide as the longest name and ruleset (``module:fan:...``,
    ``house-guard``, a ruleset derived by ``--reading``), so the later columns line up."""
    return (max([28, *(len(ob.name) for ob in obligations)]), max([10, *(len(ob.ruleset) for ob in obligations)]))


def obligation_line(line: Any, statement: str, widths: tuple[int, int] = (28, 10)) -> str:
    """One obligation in one line, mypyvy style: name, ruleset, result, seconds, what it
    states (and ``FAILED (expected ...)`` when it does not pass), the name and ruleset
    padded to ``widths`` (:func:`columns`)."""
    mark = "" if line.passed else f"  FAILED (expected {line.expected})"
    wn, wr = widths
    return f"{line.name:{wn}} {line.ruleset:{wr}} {line.result:14} {line.seconds:6.2f}s  {statement}{mark}"


def coverage_table(lines: Sequence[Any], spec: Any = None) -> list[str]:
    """The differential check's coverage: per rule id, the compared positions it fires in
    under each ruleset checked (``-``: none), and for a rule that fires nowhere under some
    ruleset why, per ruleset (said once when it is the same for each): ``never reached
    (OBLIGATION)`` where that ruleset's check names the obligation that excuses it
    (its line's ``excused``), with ``not run here`` when the obligation did not
    run in ``lines``; ``not applying (POINT: READING)`` where the ruleset's reading
    withdraws it (with ``spec``); else ``FIRES IN NO POSITION`` (also when the excusing
    obligation failed). Empty when no differential check ran.

    :param lines: the run's lines (``proofs.runner.Line``); those with a coverage are
        the differential checks, one per ruleset.
    """
    runs = [line for line in lines if line.coverage]
    if not runs:
        return []
    ran = {(line.name, line.ruleset): line for line in lines}
    rules = [r for r, _ in runs[0].coverage]
    counts = {line.ruleset: dict(line.coverage) for line in runs}
    excused = {line.ruleset: dict(line.excused) for line in runs}
    width = {rs: max(10, len(rs)) for rs in counts}  # a long ruleset name widens its column
    out = ["differential coverage: compared positions each rule fires in", f"  {'rule':28}"
           + "".join(f" {rs:>{width[rs]}}" for rs in counts)]
    gone = {rs: _withdrawn(spec, rs) for rs in counts}

    def why(r: str, rs: str) -> str:
        ob = excused[rs].get(r)
        if ob is not None:
            line = ran.get((ob, rs))
            if line is None:
                return f"never reached ({ob}, not run here)"
            return f"never reached ({ob})" if line.passed else f"FIRES IN NO POSITION ({ob} failed)"
        if r in gone[rs]:
            return f"not applying ({gone[rs][r]})"
        return "FIRES IN NO POSITION"

    for r in rules:
        row = f"  {r:28}" + "".join(f" {c.get(r, 0) or '-':>{width[rs]}}" for rs, c in counts.items())
        whys = {rs: why(r, rs) for rs, c in counts.items() if not c.get(r, 0)}
        if whys:
            said = list(dict.fromkeys(whys.values()))
            row += "  - " + (said[0] if len(said) == 1 else "; ".join(f"{rs}: {w}" for rs, w in whys.items()))
        out.append(row)
    return out


def _withdrawn(spec: Any, ruleset: str) -> dict[str, str]:
    """Rule → why it does not apply under ``ruleset`` (:func:`palast.lang.blocks.withdrawn`),
    a named house ruleset that ``spec`` does not have yet added first (its checks run on the
    spec with it, :mod:`proofs.house_rulesets`); empty without ``spec`` or for a ruleset it
    does not know."""
    from palast.formats.house import resolve
    from palast.lang.blocks import withdrawn

    if spec is None or (ruleset not in spec.rulesets and ruleset not in spec.house_rulesets):
        return {}
    return withdrawn(resolve(spec, ruleset), ruleset)


def _search(spec: Any, only: tuple[str, ...], rulesets: tuple[str, ...], opts: Any, quiet: bool) -> None:
    """Find the witnesses of the selected questions anew (before checking them)."""
    from proofs.reachability import witness_questions
    from proofs.witness import search

    for q in witness_questions(spec):
        if (only and q.name not in only) or (rulesets and not set(q.rulesets) & set(rulesets)):
            continue
        start = time.perf_counter()
        out = search(spec, q, opts.out_dir)
        if not quiet:
            click.echo(f"search {q.file_stem:40} {out.result:15} {time.perf_counter() - start:7.2f}s  {out.detail}",
                       err=True)


def _list_reads(spec: Any, ruleset: str, point: str) -> str | None:
    """How the named house ruleset whose prove list ``ruleset`` takes (itself, or the
    nearest one it derives from, :func:`palast.spec.house_rulesets.listing_house`) reads ``point``."""
    from palast.spec.house_rulesets import listing_house

    owner = listing_house(spec, ruleset)
    return None if owner is None or owner not in spec.rulesets else str(spec.reading(owner, point))


def _refuse_readings_the_proofs_do_not_model(base: Any, spec: Any, chosen: Sequence[str],
                                              given: Sequence[str] = (), ruleset_file: str | None = None) -> None:
    """The Z3 model in proofs/ is still written by hand for the readings that engine
    parameters implement; a reading that only a rule's declared logic gives (a point with no
    ``parameter:``, read otherwise than every ruleset of the spec reads it) is not in it, so
    nothing could be proved about it, unless the model compiles that rule's declaration
    (:func:`proofs.legality.modelled_points`: the Guard's, the Wizard's and the Maid's choices,
    guard-other-card and wizard-minimum). Nor is the order of a deck: a reading that puts
    cards at a place the model keeps without order (:func:`proofs.places_z3.unordered_readings`:
    under the draw deck) is refused too.

    :param given: the ``--reading`` options (``POINT=READING``); :param ruleset_file: the
        ``--ruleset-file`` path: the error names where the refused reading was given
        (``--reading``, the file, else ``--ruleset``).
    :raises InputError: naming the point and the reading.
    """
    from palast.errors import InputError
    from palast.lang.logic import parameter_table
    from palast.spec.house_rulesets import listing_house
    from proofs.legality import modelled_points, module_points
    from proofs.obligation import house_prove_lists
    from proofs.places_z3 import unordered_readings

    modelled = modelled_points(spec)
    # a named house ruleset's list (or the one a ruleset derived from it takes) says what runs
    listed = set(house_prove_lists(spec))
    of_modules = module_points(spec)
    declared_only = [point for name, (point, _) in parameter_table(spec).items()
                     if name == point and point not in modelled]
    unordered = unordered_readings(spec)
    for rs in chosen:
        for point in declared_only:
            reading = spec.reading(rs, point)
            if any(base.reading(own, point) == reading for own in base.rulesets):
                continue  # a reading the spec's own rulesets take
            if rs in listed and (point not in of_modules or _list_reads(spec, rs, point) == reading):
                continue  # its prove list says what runs, and a module it switches on is the list's own
            if point in of_modules:
                owner = listing_house(spec, rs)
                whose = (f"; {owner}'s prove list, which {rs} takes, is for {point}={_list_reads(spec, rs, point)}"
                         if owner is not None else "")
                raise InputError(f"{rs} reads {point} as {reading}, a reading of a rule module's; palast prove "
                                 "checks a rule module only under a named house ruleset that lists what to prove "
                                 "with it (prove: in spec/rulesets.yaml, e.g. -r fan), or one derived from it"
                                 + whose, *_given_at(point, given, ruleset_file))
            raise InputError(f"{rs} reads {point} as {reading}, which only the rule language declares; the "
                             "proofs' model of the rules (proofs/) does not have it yet, so palast prove "
                             "cannot check it (palast play, replay, ask and simulate can)",
                             *_given_at(point, given, ruleset_file))
        for (point, reading), place in unordered.items():
            if spec.reading(rs, point) == reading:
                raise InputError(f"{rs} reads {point} as {reading}, which moves cards to {place}; "
                                 "the proofs' model (proofs/) keeps which cards a deck holds, not their order, so "
                                 "palast prove cannot check it (palast play, replay, ask and simulate can)",
                                 *_given_at(point, given, ruleset_file))


def _given_at(point: str, given: Sequence[str], ruleset_file: str | None) -> tuple[str | None, str]:
    """Where the reading of ``point`` was given: ``(file, place)`` of an :class:`InputError`."""
    if any(g.partition("=")[0].strip() == point for g in given):
        return None, "--reading"
    if ruleset_file is not None:
        return ruleset_file, f"readings.{point}"
    return None, "--ruleset"
