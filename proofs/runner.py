"""Collect the obligations of every family and run them.

:func:`all_obligations` lists them in a fixed order. :func:`run` runs a selection, in
worker processes when ``jobs > 1`` (obligations of one ruleset share a worker, so the Z3
contexts of that ruleset are built once), and returns one :class:`Line` per obligation.
An obligation passes when its result is the one it expects and every obligation it
assumes (:attr:`Obligation.needs`, same ruleset) passes too.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType

from palast.spec import Spec, load_spec
from proofs.obligation import Obligation, Options, Outcome, Unknown

#: The families of obligations, in the order they are listed.
FAMILIES = ("conservation", "king", "hand_display", "displays", "invariant", "scores", "termination",
            "can_act", "cupbearer", "reachability", "differential", "nonvacuous")


def _module(family: str) -> ModuleType:
    import importlib

    return importlib.import_module(f"proofs.{family}")


def all_obligations(spec: Spec) -> list[Obligation]:
    """Every obligation, family by family."""
    out: list[Obligation] = []
    for family in FAMILIES:
        out.extend(_module(family).obligations(spec))
    return out


@dataclass
class Line:
    """The outcome of one obligation, as ``palast prove`` reports it (``seconds``: wall
    time, ``cpu``: processor time of the process that ran it)."""

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


def run_one(spec: Spec, ob: Obligation, opts: Options) -> Line:
    """Run one obligation; a solver ``unknown`` or an exception is a failing result."""
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        out = ob.run(spec, opts)
    except Unknown as exc:
        out = Outcome("unknown", f"the solver could not decide: {exc}")
    except Exception as exc:  # an obligation that crashes fails, it does not stop the run
        out = Outcome("error", f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - start
    return Line(ob.name, ob.ruleset, out.result, ob.expect, round(seconds, 2), round(time.process_time() - cpu, 2),
                out.detail, out.files, ob.invariants, out.result == ob.expect)


_SPEC: Spec | None = None


def _init(spec: Spec | str) -> None:
    global _SPEC
    # a forked worker takes the parent's spec as it is (house rulesets included, palast.house)
    _SPEC = spec if isinstance(spec, Spec) else load_spec(spec)


def _run_group(keys: list[str], opts: Options) -> list[Line]:
    assert _SPEC is not None
    by_key = {ob.key: ob for ob in all_obligations(_SPEC)}
    return [run_one(_SPEC, by_key[k], opts) for k in keys]


#: Families whose obligations run in a group of their own per ruleset (they build their own
#: card-level encodings).
SEPARATE = ("conservation", "differential")


def _groups(selected: Sequence[Obligation]) -> list[list[str]]:
    """Obligations grouped by ruleset (the :data:`SEPARATE` families apart), costliest first."""
    groups: dict[str, list[Obligation]] = {}
    for ob in selected:
        key = f"{ob.ruleset}/{ob.family}" if ob.family in SEPARATE else ob.ruleset
        groups.setdefault(key, []).append(ob)
    ordered = sorted(groups.values(), key=lambda g: -sum(ob.cost for ob in g))
    return [[ob.key for ob in g] for g in ordered]


def run(spec: Spec, selected: Sequence[Obligation], opts: Options, jobs: int = 2) -> list[Line]:
    """Run ``selected`` and return their lines in the order given.

    :param jobs: worker processes (1: run here).
    """
    groups = _groups(selected)
    lines: dict[str, Line] = {}
    if jobs <= 1 or len(groups) <= 1:
        by_key = {ob.key: ob for ob in selected}
        for g in groups:
            for k in g:
                lines[k] = run_one(spec, by_key[k], opts)
    else:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init,
                                 initargs=(spec,)) as pool:
            for g, result in zip(groups, pool.map(_run_group, groups, [opts] * len(groups)), strict=True):
                for k, line in zip(g, result, strict=True):
                    lines[k] = line
    ordered = [lines[ob.key] for ob in selected]
    _apply_needs(selected, ordered)
    return ordered


def _apply_needs(selected: Sequence[Obligation], lines: list[Line]) -> None:
    by_key = {f"{line.name}@{line.ruleset}": line for line in lines}
    for ob, line in zip(selected, lines, strict=True):
        failed = [n for n in ob.needs if n != ob.name and f"{n}@{ob.ruleset}" in by_key
                  and by_key[f"{n}@{ob.ruleset}"].result != by_key[f"{n}@{ob.ruleset}"].expected]
        if failed and line.passed:
            line.passed = False
            line.detail += f"; rests on {', '.join(failed)}, which failed"


def as_dict(line: Line) -> dict[str, object]:
    """A line as a JSON-ready dict."""
    d = asdict(line)
    d["files"] = list(line.files)
    d["invariants"] = list(line.invariants)
    return d


def default_out_dir() -> Path:
    """``proofs/witnesses``."""
    return Path(__file__).parent / "witnesses"
