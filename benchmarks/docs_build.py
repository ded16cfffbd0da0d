"""Benchmark: a clean build of the rulebook with the command CI uses.

Runs ``sphinx-build -W --keep-going -n -b html docs OUT`` into a fresh temporary folder
(no doctree cache) and prints the wall time, the CPU time of the build process and its
children (the ``dot`` renders), the number of pages written and the machine's load
average, which shows how much other work shared the cores.

    python benchmarks/docs_build.py [--repeat K]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_once() -> tuple[float, float, int]:
    """One clean build: (wall seconds, CPU seconds, HTML pages). :raises SystemExit: if
    the build fails."""
    with tempfile.TemporaryDirectory(prefix="palast-book-") as tmp:
        out = Path(tmp) / "html"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
                            "-d", str(Path(tmp) / "doctrees"), str(ROOT / "docs"), str(out)],
                           capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            sys.exit(f"the build failed:\n{r.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, len(list(out.rglob("*.html")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1, help="clean builds to run; each is reported")
    args = ap.parse_args()
    print(f"palast rulebook build: Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores")
    for i in range(args.repeat):
        load = os.getloadavg()[0]
        wall, cpu, pages = build_once()
        print(f"build {i + 1}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, {pages} pages "
              f"(load average {load:.1f} before the build)")


if __name__ == "__main__":
    main()
