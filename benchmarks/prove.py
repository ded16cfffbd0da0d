"""Benchmark: the wall time of the whole ``palast prove`` run, and where it goes.

Runs every obligation as ``palast prove`` does (same worker processes) and prints the
total wall time, the machine's cores and load, and per family the summed obligation
seconds. With ``--search`` it first times the Z3 witness searches (``palast prove
--search``), writing the witnesses to a temporary directory so the stored ones stay.

    python benchmarks/prove.py [--jobs N] [--search]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from palast.spec import load_spec
from proofs.cupbearer import actor_whisper_question
from proofs.obligation import Options
from proofs.reachability import questions
from proofs.runner import all_obligations, run
from proofs.witness import search


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (as palast prove --jobs)")
    ap.add_argument("--search", action="store_true", help="also time the witness searches")
    args = ap.parse_args()
    spec = load_spec()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"palast prove benchmark: {os.cpu_count()} cores, load average {load:.2f} before the run, "
          f"Python {platform.python_version()} on {platform.machine()}, {args.jobs} jobs")
    with tempfile.TemporaryDirectory() as tmp:
        if args.search:
            for q in [*questions(), actor_whisper_question()]:
                start = time.perf_counter()
                out = search(spec, q, Path(tmp))
                print(f"search {q.file_stem:42} {out.result:10} {time.perf_counter() - start:7.1f} s")
        obligations = all_obligations(spec)
        families = {ob.key: ob.family for ob in obligations}
        start = time.perf_counter()
        lines = run(spec, obligations, Options(out_dir=Path(tmp), search=args.search), jobs=args.jobs)
        wall = time.perf_counter() - start
    per_family: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for line in lines:
        fam = per_family[families[f"{line.name}@{line.ruleset}"]]
        fam[0] += line.seconds
        fam[1] += line.cpu
    print(f"{'family':>14} {'wall s':>8} {'cpu s':>8}")
    for family, (seconds, cpu) in per_family.items():
        print(f"{family:>14} {seconds:8.1f} {cpu:8.1f}")
    for line in lines:
        if not line.passed:
            print(f"FAILED {line.name} {line.ruleset}: {line.result} (expected {line.expected}) {line.detail}")
    failed = sum(not line.passed for line in lines)
    print(f"{len(lines)} obligations, {failed} failed; wall time {wall:.1f} s; processor time of the obligations "
          f"{sum(c for _, c in per_family.values()):.1f} s")


if __name__ == "__main__":
    main()
