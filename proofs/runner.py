"""Collect the obligations of every family and run them.

:func:`all_obligations` lists them in a fixed order. :func:`run` runs a selection, in
worker processes when ``jobs > 1`` (obligations of one ruleset and encoding level share a
worker, so the Z3 contexts they use are built once; all of a ruleset's share one where its
role-level proofs run at the card level), and returns one :class:`Line` per
obligation, in the order given whatever the number of jobs. Ctrl-C stops the workers
(:class:`Interrupted`); a worker that dies is :class:`WorkerDied`.
An obligation passes when its result is the one it expects and every obligation it
assumes (:attr:`Obligation.needs`, same ruleset) passes too.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Self

from palast.spec.load import Spec, load_spec
from proofs.obligation import Obligation, Options, Outcome, Unknown, apply_breaks, check_breaks, rests_on

#: The families of obligations, in the order they are listed.
FAMILIES = ("conservation", "king", "hand_display", "displays", "invariant", "scores", "termination", "turn",
            "can_act", "cupbearer", "reachability", "differential", "nonvacuous", "modules")


def _module(family: str) -> ModuleType:
    import importlib

    return importlib.import_module(f"proofs.{family}")


def stated_obligations(spec: Spec) -> list[Obligation]:
    """The obligations of the families (:data:`FAMILIES`), family by family, under every
    ruleset of ``spec``, each expecting a counterexample where a reading of its ruleset
    declares that it breaks it (:func:`~proofs.obligation.apply_breaks`).

    :raises SpecError: for a ``breaks`` entry palast prove cannot honour
        (:func:`~proofs.obligation.check_breaks`).
    """
    out: list[Obligation] = []
    for family in FAMILIES:
        out.extend(_module(family).obligations(spec))
    check_breaks(spec, out)
    _check_reachability_names(spec, out)
    return apply_breaks(spec, out)


def _check_reachability_names(spec: Spec, stated: list[Obligation]) -> None:
    """Refuse a reachability question of spec/invariants.yaml named like an obligation of
    another kind: both would run under one name and one result would hide the other.

    :raises SpecError: naming each such question, at its place in the file.
    """
    from palast.errors import SpecError

    count = Counter((ob.name, ob.ruleset) for ob in stated)
    mine = [(i, r) for i, r in enumerate(spec.reachability.values())
            if any(count[r.id, rs] > 1 for rs in spec.rulesets)]
    if mine:
        doc = spec.documents["invariants.yaml"]
        i, r = mine[0]
        raise SpecError(f"the reachability question {r.id!r} has the name of another obligation (palast prove "
                        "--list lists them)" + (f"; so do {', '.join(x.id for _, x in mine[1:])}" if mine[1:] else ""),
                        doc.file, doc.place(["reachability", i, "id"]))


def all_obligations(spec: Spec) -> list[Obligation]:
    """Every obligation, family by family, then those the named house rulesets list
    (:mod:`proofs.house_rulesets`). Under a named house ruleset that lists obligations
    (when a command has added it to ``spec``) only those run, and the rule modules' checks of
    their declared breaks (:mod:`proofs.modules`)."""
    from proofs import house_rulesets
    from proofs.modules import FAMILY as MODULES

    listed = house_rulesets.declared(spec)
    # the rule modules' obligations (each declared break replayed) run under the ruleset
    # that switches the module on, whether or not it lists others
    out = [ob for ob in stated_obligations(spec) if ob.ruleset not in listed or ob.family == MODULES]
    # a house ruleset's list says what runs; a reading it takes still says what breaks
    return out + apply_breaks(spec, house_rulesets.obligations(spec, stated_obligations))


@dataclass
class Line:
    """The outcome of one obligation, as ``palast prove`` reports it (``seconds``: wall
    time, ``cpu``: processor time of the process that ran it; ``coverage`` and ``excused``
    as in :class:`~proofs.obligation.Outcome`)."""

    name: str
    ruleset: str
    result: str
    expected: str
    seconds: float
    cpu: float
    detail: str
    files: tuple[str, ...]
    invariants: tuple[str, ...]
    passed: bool
    coverage: tuple[tuple[str, int], ...] = ()
    excused: tuple[tuple[str, str], ...] = ()
    pending: tuple[tuple[str, str], ...] = ()
    settled: str = ""
    #: why it expects what it does, where a reading of its ruleset breaks it (``""`` otherwise)
    because: str = ""


def run_one(spec: Spec, ob: Obligation, opts: Options) -> Line:
    """Run one obligation; a solver ``unknown`` or an exception is a failing result."""
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        out = ob.run(spec, opts)
    except Unknown as exc:
        out = Outcome("unknown", f"the solver could not decide: {exc}")
    except Exception as exc:  # an obligation that crashes fails, it does not stop the run
        if _is_interrupt(exc):
            raise KeyboardInterrupt from None
        out = Outcome("error", f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - start
    passed = out.result == ob.expect
    if passed and ob.because and not out.files:  # a declared break is shown by a game the engine replays
        passed = False
        out = replace(out, detail=f"{out.detail}; but no scenario replayed by the engine shows it, and a reading "
                                  "that declares it breaks an obligation needs one")
    return Line(ob.name, ob.ruleset, out.result, ob.expect, round(seconds, 2), round(time.process_time() - cpu, 2),
                out.detail, out.files, ob.invariants, passed, out.coverage, out.excused,
                out.pending, out.settled, ob.because)


def _is_interrupt(exc: BaseException) -> bool:
    """Ctrl-C that arrived inside a z3 call: ctypes turns it into an ``ArgumentError``
    ("argument 1: KeyboardInterrupt"), which must stop the run, not fail one obligation."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt) or (isinstance(seen, ctypes.ArgumentError)
                                                   and "KeyboardInterrupt" in str(seen)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


_SPEC: Spec | None = None


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C); the worker processes are stopped."""


class WorkerDied(Exception):
    """A worker process ended abruptly (killed, out of memory)."""


def _init(spec: Spec | str) -> None:
    global _SPEC
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers
    # a forked worker takes the parent's spec as it is (house rulesets included, palast.formats.house)
    _SPEC = spec if isinstance(spec, Spec) else load_spec(spec)


def _run_group(keys: list[str], opts: Options) -> list[Line]:
    assert _SPEC is not None
    by_key = {ob.key: ob for ob in all_obligations(_SPEC)}
    return [run_one(_SPEC, by_key[k], opts) for k in keys]


def _runs_at_card_level(spec: Spec, ruleset: str) -> bool:
    """Whether the role-level proofs under ``ruleset`` run at the card level
    (:func:`proofs.invariant.proof_level`: a rule reads the colour of a card whose role
    the compiler cannot tell; none of the spec's rulesets today, the fan module's Jesters
    being told apart by colour at the role level). Its card-level and role-level
    obligations then share one group, so its card-level contexts are built once, not once
    in each worker (banned-role under fan spent 12 s building them again when fan's proofs
    ran at the card level). A named house ruleset's proofs run on the spec it resolves to
    (:func:`proofs.house_rulesets.spec_of`)."""
    from proofs.house_rulesets import spec_of
    from proofs.invariant import proof_level

    try:
        return proof_level(spec_of(spec, ruleset), ruleset, "role") == "card"
    except Exception as exc:  # a context that cannot be built: its obligations report it (run_one)
        if _is_interrupt(exc):
            raise KeyboardInterrupt from None
        return False


#: Families whose obligations use the card-level encoding: per ruleset they run in a group
#: of their own, which builds that ruleset's card-level contexts once (next-player, of
#: family turn, reads colours; run with the role-level obligations it built those contexts
#: a second time, in the other worker).
CARD_LEVEL = ("conservation", "differential", "turn")


def _groups(spec: Spec, selected: Sequence[Obligation]) -> list[list[str]]:
    """Obligations grouped by ruleset and level (:data:`CARD_LEVEL`), costliest first; a
    ruleset whose role-level proofs run at the card level (:func:`_runs_at_card_level`)
    has one group."""
    card = {ob.ruleset for ob in selected if (ob.runs_as or ob.family) in CARD_LEVEL}
    both = {ob.ruleset for ob in selected if ob.ruleset in card and (ob.runs_as or ob.family) not in CARD_LEVEL}
    merged = {r for r in sorted(both) if _runs_at_card_level(spec, r)}
    groups: dict[str, list[Obligation]] = {}
    for ob in selected:
        key = f"{ob.ruleset}/card" if (ob.runs_as or ob.family) in CARD_LEVEL or ob.ruleset in merged else ob.ruleset
        groups.setdefault(key, []).append(ob)
    ordered = sorted(groups.values(), key=lambda g: -sum(ob.cost for ob in g))
    return [[ob.key for ob in g] for g in ordered]


def run(spec: Spec, selected: Sequence[Obligation], opts: Options, jobs: int = 1) -> list[Line]:
    """Run ``selected`` and return their lines in the order given.

    :param jobs: worker processes (1: run here, in this process).
    :raises Interrupted: on Ctrl-C (the workers are stopped first).
    :raises WorkerDied: when a worker process ends abruptly.
    """
    import z3

    # Z3 otherwise takes Ctrl-C over during a check and quietly ends only that check: with
    # this off Python raises KeyboardInterrupt as soon as the running check returns
    z3.set_param("ctrl_c", False)
    try:
        groups = _groups(spec, selected)
    except KeyboardInterrupt:
        raise Interrupted() from None
    lines: dict[str, Line] = {}
    if jobs <= 1 or len(groups) <= 1:
        by_key = {ob.key: ob for ob in selected}
        with _StopBetweenObligations() as stop:
            try:
                for g in groups:
                    for k in g:
                        lines[k] = run_one(spec, by_key[k], opts)
                        if stop.asked:
                            raise Interrupted()
            except KeyboardInterrupt:
                raise Interrupted() from None
    else:
        lines = _run_pool(spec, groups, opts, jobs)
    ordered = [lines[ob.key] for ob in selected]
    settle(ordered)
    _apply_needs(selected, ordered)
    return ordered


class _OnCtrlC:
    """A context in which Ctrl-C calls :meth:`_handle` (the previous handler is put back
    on leaving). Outside the main thread nothing changes."""

    _old: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


class _StopBetweenObligations(_OnCtrlC):
    """While running in this process: the first Ctrl-C asks to stop once the running
    obligation ends (a KeyboardInterrupt inside a z3 call can be lost in a finaliser), a
    second one stops at once."""

    def __init__(self) -> None:
        self.asked = False

    def _handle(self, signum: int, frame: Any) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True
        print("palast prove: stopping after the obligation that is running (Ctrl-C again: at once)",
              file=sys.stderr, flush=True)


class _CtrlCFlag(_OnCtrlC):
    """While the workers run: Ctrl-C only sets :attr:`seen`, which the parent polls. A
    handler that raises ``KeyboardInterrupt`` may run inside a finaliser (the garbage of
    many z3 terms), which swallows the exception: the run then went on to its end."""

    def __init__(self) -> None:
        self.seen = False

    def _handle(self, signum: int, frame: Any) -> None:
        self.seen = True


def _run_pool(spec: Spec, groups: list[list[str]], opts: Options, jobs: int) -> dict[str, Line]:
    ctx = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(groups)), mp_context=ctx, initializer=_init,
                               initargs=(spec,))
    lines: dict[str, Line] = {}
    with _CtrlCFlag() as ctrl_c:
        try:
            futures = [pool.submit(_run_group, g, opts) for g in groups]
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=0.2)
                if ctrl_c.seen:
                    raise KeyboardInterrupt
                for f in done:
                    f.result()  # a worker that died raises here, before the others end
            for g, f in zip(groups, futures, strict=True):
                for k, line in zip(g, f.result(), strict=True):
                    lines[k] = line
        except KeyboardInterrupt:
            _stop(pool)
            raise Interrupted() from None
        except BrokenProcessPool as exc:
            _stop(pool)
            raise WorkerDied(str(exc)) from None
    pool.shutdown()
    return lines


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (an obligation can run for a
    minute; the executor would wait for it)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.join(timeout=5)


def settle(lines: Sequence[Line]) -> None:
    """Settle the pending excuses of ``unknown`` lines (:attr:`Outcome.pending`): a line
    whose every pending ``(rule, obligation)`` has that obligation end in no-such-state
    under the same ruleset in this run becomes ``proved``, with those excuses and its
    settled detail; it rests on those results, whether or not they were the expected ones
    (under house rules a Guard that may take itself back is never void: guard-void ends
    in no-such-state, not in the reference's witness). Otherwise the detail says which
    obligation did not show its rule never reached."""
    result = {(line.name, line.ruleset): line.result for line in lines}
    for line in lines:
        if line.result != "unknown" or not line.pending:
            continue
        short = [f"{ob} ({result.get((ob, line.ruleset), 'not run here')})" for _, ob in line.pending
                 if result.get((ob, line.ruleset)) != "no-such-state"]
        if short:
            line.detail += f"; not shown never reached by {', '.join(dict.fromkeys(short))}"
            continue
        line.result, line.detail = "proved", line.settled
        line.excused = (*line.excused, *line.pending)
        line.passed = line.result == line.expected


def _apply_needs(selected: Sequence[Obligation], lines: list[Line]) -> None:
    """Fail every line whose obligation assumes one (:attr:`Obligation.needs`, same ruleset,
    run in this selection) that did not pass, through chains of assumptions (an obligation
    that rests on one that itself rests on a failure fails too)."""
    by_key = {f"{line.name}@{line.ruleset}": line for line in lines}
    changed = True
    while changed:
        changed = False
        for ob, line in zip(selected, lines, strict=True):
            failed = [n for n in ob.needs if n != ob.name and f"{n}@{ob.ruleset}" in by_key
                      and not by_key[f"{n}@{ob.ruleset}"].passed]
            if failed and line.passed:
                line.passed = False
                line.detail += f"; rests on {', '.join(failed)}, which failed"
                changed = True


def assumed_not_run(stated: Sequence[Obligation], selected: Sequence[Obligation]) -> dict[tuple[str, str], list[str]]:
    """What the proofs of ``selected`` assume (each obligation's ``needs``, same ruleset,
    and what those assume in turn) that is stated in ``stated`` but not selected (left out
    by ``--only``): ``(name, ruleset)`` -> the names of the selected obligations resting on
    it, directly or through others, in the order stated. An obligation fails where one it
    assumes fails in the same run (:func:`_apply_needs`); what was not run has no result
    here, so a pass of those resting on it holds only where it passes."""
    chosen = {ob.key for ob in selected}
    rests: dict[str, list[str]] = {}
    for ob in selected:
        for need in rests_on(stated, ob):
            if need.key not in chosen:
                rests.setdefault(need.key, []).append(ob.name)
    return {(ob.name, ob.ruleset): rests[ob.key] for ob in stated if ob.key in rests}


def as_dict(line: Line) -> dict[str, object]:
    """A line as a JSON-ready dict."""
    d = asdict(line)
    d["files"] = list(line.files)
    d["invariants"] = list(line.invariants)
    d["coverage"] = dict(line.coverage)
    d["excused"] = dict(line.excused)
    del d["pending"], d["settled"]  # settled by the run (:func:`settle`)
    return d


def default_out_dir() -> Path:
    """``proofs/witnesses``."""
    return Path(__file__).parent / "witnesses"
