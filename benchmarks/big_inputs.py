"""Benchmark: how long palast takes to answer very large or hostile input files.

Issue 8 asks that a 5 MB scenario or record is accepted or rejected within 3 s without
exhausting memory. palast refuses files over ``palast.spec.yamlio.MAX_BYTES`` (1 MiB) before
parsing them (``tests/test_bad_inputs.py`` checks that as behaviour); this script prints
how long the whole CLI run takes, wall clock and peak memory of the child process, for
files of 5 MB and for the worst files just under the limit that palast does parse.

    python benchmarks/big_inputs.py [--keep DIR]

Each case runs ``python -m palast ...`` in a fresh process, as a user would, so the times
include interpreter start-up and loading the spec (about 0.5 s on two cores).
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from palast.spec.yamlio import MAX_BYTES

ROOT = Path(__file__).resolve().parent.parent
HEADER = {"format": "palast-record", "version": 1, "players": ["red", "blue", "green"]}
MB = 1_000_000


def _fill(prefix: str, item: str, suffix: str, size: int) -> str:
    """``prefix`` + ``item`` repeated + ``suffix``, about ``size`` bytes in all."""
    n = max(1, (size - len(prefix) - len(suffix)) // len(item))
    return prefix + item * n + suffix


def _under(size: int = MAX_BYTES) -> int:
    return size - 4096


CASES: list[tuple[str, str, Callable[[], str]]] = [
    ("5 MB scenario (long note)", "ask",
     lambda: _fill("players: [red, blue, green]\nto_move: red\nnote: ", "x", "\n", 5 * MB)),
    ("5 MB scenario (100k+ hand cards)", "ask",
     lambda: _fill("players: [red, blue, green]\nto_move: red\nhands:\n  red: [", "maid/red, ", "maid/red]\n", 5 * MB)),
    ("5 MB record (action lines)", "replay",
     lambda: _fill(json.dumps(HEADER) + "\n", json.dumps({"action": "play maid/red", "by": "red"}) + "\n", "", 5 * MB)),
    ("1 MB scenario: long note (accepted)", "ask",
     lambda: _fill("players: [red, blue, green]\nto_move: red\nnote: ", "x", "\n", _under())),
    ("1 MB scenario: ~100k valid cards in one hand", "ask",
     lambda: _fill("players: [red, blue, green]\nto_move: red\nhands:\n  red: [", "maid/red, ", "maid/red]\n",
                   _under())),
    ("1 MB scenario: ~100k unknown cards", "ask",
     lambda: _fill("players: [red, blue, green]\nto_move: red\nhands:\n  red: [", "mad/rd, ", "mad/rd]\n", _under())),
    ("1 MB scenario: ~60k unknown keys", "ask",
     lambda: "players: [red, blue, green]\nto_move: red\n"
             + "".join(f"k{i}: 1\n" for i in range(_under() // 9))[: _under() - 40]),
    ("scenario: 49,000 unknown cards (under the value limit)", "ask",
     lambda: "players: [red, blue, green]\nto_move: red\nhands:\n  red: ["
             + ", ".join(f"mad{i}/rd" for i in range(49_000)) + "]\n"),
    ("scenario: 49,000 unknown keys (under the value limit)", "ask",
     lambda: "players: [red, blue, green]\nto_move: red\n" + "".join(f"k{i}: 1\n" for i in range(49_000))),
    ("1 MB scenario: ~60k actions", "ask",
     lambda: _fill("players: [red, blue, green]\nto_move: red\nhands:\n  red: [maid/red]\nactions:\n",
                   "- play maid/red\n", "", _under())),
    ("1 MB scenario: ~250k list items", "ask", lambda: _fill("", "- a\n", "", _under())),
    ("1 MB scenario: deep flow nesting", "ask", lambda: "players: " + "[" * (_under() // 2) + "]" * (_under() // 2)),
    ("scenario: alias bomb (a billion values)", "ask",
     lambda: "a0: &a0 [" + ", ".join(["x"] * 10) + "]\n"
             + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9))
             + "players: [red, blue, green]\nto_move: red\n"),
    ("1 MB record: note on the header (accepted)", "replay",
     lambda: json.dumps({**HEADER, "note": "x" * (_under() - 100)}) + "\n"),
    ("1 MB record: ~20k action lines", "replay",
     lambda: _fill(json.dumps(HEADER) + "\n", json.dumps({"action": "play maid/red", "by": "red"}) + "\n", "",
                   _under())),
    ("1 MB record: one line nested 500k deep", "replay",
     lambda: json.dumps(HEADER) + "\n" + "[" * (_under() // 2 - 100) + "]" * (_under() // 2 - 100) + "\n"),
]


def run(command: str, path: Path) -> tuple[float, int, int, str]:
    """Run ``python -m palast COMMAND PATH``; return (seconds, exit code, peak RSS in MB, last stderr line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "palast", command, str(path)], capture_output=True, text=True, cwd=ROOT)
    dt = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if "Traceback" in r.stdout + r.stderr:
        raise SystemExit(f"a traceback for {path}:\n{r.stderr}")
    last = (r.stderr.strip().splitlines() or [r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""])[-1]
    return dt, r.returncode, max(peak, before) // 1024, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", type=Path, default=None, help="Write the files here and keep them.")
    args = parser.parse_args()
    print(f"palast big inputs: Python {platform.python_version()} on {platform.machine()}, "
          f"size limit {MAX_BYTES} bytes")
    print(f"{'case':<56} {'bytes':>9} {'exit':>4} {'seconds':>8} {'peak MB':>8}  answer")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for i, (name, command, make) in enumerate(CASES):
            path = folder / f"case{i:02d}{'.yaml' if command == 'ask' else '.jsonl'}"
            path.write_text(make(), encoding="utf-8")
            dt, code, peak, last = run(command, path)
            print(f"{name:<56} {path.stat().st_size:>9} {code:>4} {dt:>8.2f} {peak:>8}  {last[:110]}")
    print("peak MB is the largest resident set of any child so far (ru_maxrss), so it never falls")


if __name__ == "__main__":
    main()
