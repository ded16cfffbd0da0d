"""Benchmark: ``palast simulate`` with 1 worker and with K worker processes.

Times the same run (default: 20,000 games per ruleset, 4 players, every ruleset of the
spec, seed 0, uniform policy) in this process (``--workers 1``) and with ``--workers 4``,
checks that both give the same figures, and prints both wall times and the speed-up. The
issue asks for a speed-up of at least 1.7 with 4 workers on 2 cores.

On a shared machine the load can change during a long run, so the games are timed in
``--segments`` consecutive blocks of seeds, each block once with 1 worker and then with K
workers; the times of the blocks are added up (a parallel run pays its process start-up
once per block). The figures of the blocks, merged, are those of the whole run.

    python benchmarks/simulate_workers.py [--games N] [--players P] [--workers K] [--ruleset R ...]
                                          [--segments M] [--save FILE]

``--save FILE`` also writes the run's figures (the ``palast simulate --json`` document).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
from dataclasses import replace

from palast.sim.report import command_line, summary
from palast.sim.simulate import SimConfig, Tally, simulate
from palast.spec.load import load_spec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per ruleset")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=4, help="worker processes of the parallel run")
    ap.add_argument("--ruleset", action="append", default=None, help="repeatable; default: every ruleset")
    ap.add_argument("--policy", default="uniform")
    ap.add_argument("--save", default=None, help="write the figures (palast simulate --json) to this file")
    ap.add_argument("--segments", type=int, default=5, help="blocks of seeds, timed alternately")
    args = ap.parse_args()
    spec = load_spec()
    rulesets = tuple(args.ruleset or spec.rulesets)
    config = SimConfig(args.games, tuple(spec.player_colours[:args.players]), rulesets, 0, args.policy)
    print(f"palast simulate benchmark: {command_line(config)}")
    print(f"{args.games * len(rulesets)} games in all; Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs")
    print(f"  load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    counts = [args.games // args.segments + (k < args.games % args.segments) for k in range(args.segments)]
    times = {1: 0.0, args.workers: 0.0}
    cpu = {1: 0.0, args.workers: 0.0}
    totals: dict[int, dict[str, Tally]] = {w: {r: Tally() for r in rulesets} for w in times}
    first = 0
    for count in counts:
        block = replace(config, games=count, seed=config.seed + first)
        first += count
        for workers in times:
            t = time.perf_counter()
            c = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            tallies = simulate(spec, block, workers=workers)
            times[workers] += time.perf_counter() - t
            cpu[workers] += time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c
            for r, tally in tallies.items():
                totals[workers][r].merge(tally)
    docs = {w: summary(spec, config, totals[w]) for w in times}
    for workers in times:
        rate = args.games * len(rulesets) / times[workers]
        print(f"  --workers {workers}: {times[workers]:8.1f} s wall  ({rate:,.0f} games/s), "
              f"{cpu[workers]:8.1f} s CPU in all processes")
    same = docs[1] == docs[args.workers]
    print(f"  speed-up with {args.workers} workers: {times[1] / times[args.workers]:.2f}x; "
          f"same figures: {'yes' if same else 'NO'}")
    print(f"  CPU spent with {args.workers} workers / with 1: {cpu[args.workers] / cpu[1]:.2f}; "
          f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not same:
        raise SystemExit("the figures differ between worker counts")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            json.dump(docs[1], fh, indent=2)
        print(f"  figures written to {args.save}")


if __name__ == "__main__":
    main()
