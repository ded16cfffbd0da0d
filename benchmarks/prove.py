"""Benchmark: the wall time of the whole ``palast prove`` run, per family, with 1 and 2 jobs.

For each number of jobs asked for (default: 1, then 2) it runs every obligation as
``palast prove --jobs N`` does, in a fresh Python process (so no Z3 context is left over
from the run before), and prints the machine's cores and load, then per family the summed
wall and processor seconds of its obligations, the run's total wall time, and how much of
the obligations' time went into building the proof contexts (:class:`proofs.invariant.Context`,
each charged to the first obligation that needs it), per level. With
``--search`` it first times the Z3 witness searches (``palast prove --search``), writing the
witnesses to a temporary directory so the stored ones stay. It prints figures; it asserts
nothing (the 45 s target of issue 14 is read off the "total" lines).

The same code has run at very different speeds on different days of the same kind of
machine (65 s one day, 110 to 116 s another), so the benchmark first times two fixed pieces
of work that do not depend on palast (:func:`_machine_speed`): figures of two days compare
only after scaling by those.

    python benchmarks/prove.py [--jobs N ...] [--search]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any


def _time_contexts(log: Path) -> None:
    """Make every :class:`proofs.invariant.Context` built from now on, in this process or a
    worker forked from it, append one JSON line to ``log``: its ruleset, players, level and
    wall and processor seconds (a build the compiler refuses too: the role level is then
    built again with more roles told apart by colour, or the card level is used)."""
    from proofs import invariant

    build = invariant.Context.__init__

    def timed(self: Any, game: Any, level: str, coloured: frozenset[int] = frozenset()) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            build(self, game, level, coloured)
        finally:
            with log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({"ruleset": game.ruleset, "n": game.n, "level": level,
                                     "seconds": time.perf_counter() - wall,
                                     "cpu": time.process_time() - cpu}) + "\n")

    invariant.Context.__init__ = timed  # type: ignore[method-assign]


def _one_run(jobs: int) -> None:
    """Run every obligation with ``jobs`` workers; print one JSON document on stdout.

    The output directory is a copy of ``proofs/witnesses``, so the run finds the stored
    counterexamples as ``palast prove`` does (each obligation whose stored file still shows
    its failure keeps it instead of searching anew: cupbearer-actor-repeat under source B
    took 9.3 cpu s with an empty directory, 0.4 s with the stored file), and writes nothing
    into the checkout."""
    from palast.spec.load import load_spec
    from proofs.obligation import Options
    from proofs.runner import all_obligations, default_out_dir, run

    spec = load_spec()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "contexts.jsonl"
        _time_contexts(log)
        out = Path(tmp) / "witnesses"
        shutil.copytree(default_out_dir(), out)
        obligations = all_obligations(spec)
        start = time.perf_counter()
        lines = run(spec, obligations, Options(out_dir=out), jobs=jobs)
        wall = time.perf_counter() - start
        contexts = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    print(json.dumps({"wall": wall, "contexts": contexts, "lines": [
        {"family": ob.family, "name": line.name, "ruleset": line.ruleset, "seconds": line.seconds, "cpu": line.cpu,
         "passed": line.passed, "result": line.result, "expected": line.expected}
        for ob, line in zip(obligations, lines, strict=True)]}))


def _machine_speed() -> tuple[float, float]:
    """Processor seconds of two fixed pieces of work, the best of three runs each: a Python
    loop (the sum of the squares below ten million) and a Z3 check (nine pigeons in eight
    holes, unsatisfiable, as clauses, with a fixed seed). Neither depends on palast."""
    import z3

    def loop() -> None:
        sum(i * i for i in range(10_000_000))

    def pigeons() -> None:
        holes = 8
        x = [[z3.Bool(f"x{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
        sv = z3.SimpleSolver()
        sv.set("random_seed", 0)
        sv.add(*[z3.Or(row) for row in x])
        sv.add(*[z3.Or(z3.Not(x[a][j]), z3.Not(x[b][j]))
                 for j in range(holes) for a in range(holes + 1) for b in range(a + 1, holes + 1)])
        if sv.check() != z3.unsat:
            raise AssertionError("nine pigeons fit in eight holes")

    def best(work: Any) -> float:
        times = []
        for _ in range(3):
            start = time.process_time()
            work()
            times.append(time.process_time() - start)
        return min(times)

    return best(loop), best(pigeons)


def _search() -> None:
    from palast.spec.load import load_spec
    from proofs.reachability import witness_questions
    from proofs.witness import search

    spec = load_spec()
    with tempfile.TemporaryDirectory() as tmp:
        for q in witness_questions(spec):
            start = time.perf_counter()
            out = search(spec, q, Path(tmp))
            print(f"search {q.file_stem:42} {out.result:10} {time.perf_counter() - start:7.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="worker processes, one run each")
    ap.add_argument("--search", action="store_true", help="also time the witness searches")
    ap.add_argument("--one-run", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one_run is not None:
        _one_run(args.one_run)
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"palast prove benchmark: {os.cpu_count()} cores, load average {load:.2f} before the run, "
          f"Python {platform.python_version()} on {platform.machine()}")
    py, solver = _machine_speed()
    print(f"machine speed: a fixed Python loop {py:.2f} cpu s, a fixed Z3 check {solver:.2f} cpu s "
          "(runs of other days compare after scaling by these)")
    if args.search:
        _search()
    results: dict[int, dict[str, Any]] = {}
    for jobs in args.jobs:
        got = subprocess.run([sys.executable, __file__, "--one-run", str(jobs)], capture_output=True, text=True,
                             check=False)
        if got.returncode != 0:
            sys.exit(f"the run with {jobs} jobs failed:\n{got.stderr}")
        results[jobs] = json.loads(got.stdout.strip().splitlines()[-1])
    header = "".join(f" {f'{j} job(s) wall s':>16} {'cpu s':>8}" for j in results)
    print(f"{'family':>14}{header}")
    per: dict[int, dict[str, list[float]]] = {}
    for jobs, res in results.items():
        fam: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for line in res["lines"]:
            fam[line["family"]][0] += line["seconds"]
            fam[line["family"]][1] += line["cpu"]
        per[jobs] = fam
    families = list(next(iter(per.values())))
    for family in families:
        print(f"{family:>14}" + "".join(f" {per[j][family][0]:16.1f} {per[j][family][1]:8.1f}" for j in per))
    for jobs, res in results.items():
        lines = res["lines"]
        failed = [x for x in lines if not x["passed"]]
        for x in failed:
            print(f"FAILED {x['name']} {x['ruleset']}: {x['result']} (expected {x['expected']})")
        print(f"total with {jobs} job(s): {len(lines)} obligations, {len(failed)} failed; "
              f"wall time {res['wall']:.1f} s")
        built: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        for c in res["contexts"]:
            built[c["level"]][0] += 1
            built[c["level"]][1] += c["cpu"]
        parts = [f"{level} level {int(k)} builds {cpu:.1f} cpu s" for level, (k, cpu) in sorted(built.items())]
        print(f"  of which building proof contexts with {jobs} job(s): {', '.join(parts)} "
              f"(of {sum(x['cpu'] for x in lines):.1f} cpu s in all)")


if __name__ == "__main__":
    main()
