"""Wall time of ``palast ask`` from a cold start: a new process per call, as a rules
lawyer runs it. Prints, for every scenario in ``examples/``, the median and the worst of
``--repeat`` runs, and the import time of ``palast.ask`` alone (z3 and sphinx must stay off
that path).

    python benchmarks/ask_cold_start.py [--repeat K] [--json]

Issue 2 asks for under 0.5 s per call on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall(args: list[str]) -> float:
    """Seconds of wall time for one run of ``args`` (a failing run is an error)."""
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per scenario (default 5)")
    ap.add_argument("--json", action="store_true", help="also run `palast ask --json`")
    args = ap.parse_args()
    examples = sorted((ROOT / "examples").glob("*.yaml"))
    flags = ["--json"] if args.json else []
    print(f"palast ask cold start: {len(examples)} scenarios x {args.repeat} runs, Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    imports = [wall([sys.executable, "-c", "import palast.ask, palast.cli"]) for _ in range(args.repeat)]
    mods = subprocess.run([sys.executable, "-c", "import sys, palast.cli, palast.ask; "
                           "print(' '.join(m for m in ('z3', 'sphinx', 'matplotlib') if m in sys.modules))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    print(f"{'import palast.ask':36} median {statistics.median(imports):.3f} s   "
          f"heavy modules imported: {mods or 'none'}")
    worst_all = 0.0
    for path in examples:
        times = [wall([sys.executable, "-m", "palast", "ask", str(path), *flags]) for _ in range(args.repeat)]
        worst_all = max(worst_all, max(times))
        print(f"{path.name:36} median {statistics.median(times):.3f} s   worst {max(times):.3f} s")
    print(f"worst of all runs: {worst_all:.3f} s")


if __name__ == "__main__":
    main()
