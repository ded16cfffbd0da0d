"""Benchmark: uniformly random complete games, check mode off.

Prints games per second and actions per second for 3, 4 and 5 players under a ruleset
(default: reference). Each game is played by ``Game.playout`` — the engine's own rule code
on one working copy, without recording events — from the first deal to the end.

    python benchmarks/playouts.py [--games N] [--ruleset R] [--repeat K] [--also-apply]
                                  [--baseline REV]

``--also-apply`` also times the same games through ``Game.apply`` (a new immutable state
and the events for every action), the path ``palast play`` and the tests use.

``--baseline REV`` also times git revision ``REV`` (a commit, tag or branch, e.g.
``a8ce233``) side by side with the working tree: ``REV``'s ``palast/`` and ``spec/`` are
extracted (``git archive``) into a temporary directory, removed at exit, and the same games
are timed in two worker processes, one importing ``REV``'s palast (reading its own spec)
and one the working tree's, their runs alternating every 50 games so that a change of the
host's speed falls on both. Printed for each player count: the best games per second of
each over the repeats, the ratio new/old of the two bests and the median of the ratios of
each repeat. The workers use
only what ``REV`` offers (``load_spec``, ``Game``, ``Game.playout``). An unknown ``REV`` is
an error (exit 2).
"""

from __future__ import annotations

import argparse
import io
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import palast
from palast.engine import Game
from palast.sim.play import play_moves
from palast.spec.load import load_spec

#: The timing loop of a worker process: ``python -c WORKER ROOT RULESET`` imports the palast
#: in ROOT (first on sys.path), says ``ready``, then for each line ``PLAYERS FIRST COUNT`` on
#: its input plays the games with seeds FIRST..FIRST+COUNT-1 by ``Game.playout`` and prints
#: the seconds they took. It uses only names every revision since ``playout`` was added has
#: (``load_spec`` in ``palast.spec`` before the layout of palast/ into packages, in
#: ``palast.spec.load`` after it).
WORKER = r"""
import random, sys, time
from pathlib import Path
root, ruleset = Path(sys.argv[1]).resolve(), sys.argv[2]
sys.path.insert(0, str(root))
try:
    import palast
    from palast.engine import Game
    try:
        from palast.spec.load import load_spec
    except ModuleNotFoundError:  # a revision from before palast/ had a package per layer
        from palast.spec import load_spec
    if not Path(palast.__file__).resolve().is_relative_to(root):
        raise ImportError(f"palast was imported from {palast.__file__}, not from {root}")
    if not hasattr(Game, "playout"):
        raise ImportError("this revision's Game has no playout")
    spec = load_spec()
except Exception as exc:
    print(f"error: {exc}", flush=True)
    sys.exit(2)
games = {}
print("ready", flush=True)
for line in sys.stdin:
    n, first, count = map(int, line.split())
    if n not in games:
        games[n] = Game(spec, ruleset, list(spec.player_colours[:n]))
    game = games[n]
    t = time.perf_counter()
    for seed in range(first, first + count):
        game.playout(game.initial_state(), random.Random(seed))
    print(time.perf_counter() - t, flush=True)
"""


#: Games per run of one side: the two sides' runs alternate (old, new, new, old, ...) every
#: CHUNK games, a fraction of a second, so that a change of the host's speed falls on both.
CHUNK = 50


class BaselineError(Exception):
    """A baseline that cannot be timed: an unknown revision, no git, a worker that fails."""


def count_actions(game: Game, seed: int) -> tuple[int, int]:
    """Actions and rounds of the game ``seed`` (played through ``apply`` by
    :func:`palast.sim.play.play_moves`, the same seeded uniform play as :meth:`Game.playout`)."""
    moves = list(play_moves(game, seed))
    return len(moves), moves[-1].step.state.round


class Worker:
    """A worker process timing the palast found in ``root`` (see :data:`WORKER`).

    :raises BaselineError: if it cannot import palast from ``root`` or load its spec.
    """

    def __init__(self, root: Path, ruleset: str) -> None:
        self.root = root
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(root), ruleset], cwd=root, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        first = self._line()
        if first != "ready":
            self.close()
            raise BaselineError(f"the worker for {root} failed: {first.removeprefix('error: ') or 'no answer'}")

    def _line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def seconds(self, players: int, first: int, count: int) -> float:
        """The time the games with seeds ``first``..``first+count-1`` with ``players``
        players take.

        :raises BaselineError: if the worker stops."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{players} {first} {count}\n")
        self.proc.stdin.flush()
        answer = self._line()
        try:
            return float(answer)
        except ValueError:
            raise BaselineError(f"the worker for {self.root} stopped: {answer or 'no answer'}") from None

    def close(self) -> None:
        """End the worker process."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run ``git -C root ARGS``; its output as bytes.

    :raises BaselineError: if git is not installed."""
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except OSError as exc:
        raise BaselineError(f"cannot run git: {exc}") from None


def extract(root: Path, rev: str, into: Path) -> str:
    """Extract revision ``rev``'s ``palast/`` and ``spec/`` of the repository at ``root``
    into the directory ``into``.

    :returns: the full commit id.
    :raises BaselineError: if ``rev`` names no commit of the repository or has no palast/.
    """
    found = git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if found.returncode != 0:
        raise BaselineError(f"unknown git revision {rev!r} (in the repository at {root})")
    commit = found.stdout.decode().strip()
    archive = git(root, "archive", "--format=tar", commit, "palast", "spec")
    if archive.returncode != 0:
        raise BaselineError(f"revision {rev} has no palast/ and spec/ to time: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:  # Python before 3.11.4: git's own archive of its own tree
            tar.extractall(into)
    return commit


def working_tree_label(root: Path) -> str:
    """``HEAD``'s short id, with ``+ changes`` when palast/ or spec/ differ from it."""
    head = git(root, "rev-parse", "--short", "HEAD").stdout.decode().strip() or "?"
    dirty = git(root, "status", "--porcelain", "--", "palast", "spec").stdout.strip()
    return f"{head} + changes" if dirty else head


def compare(root: Path, rev: str, ruleset: str, games: int, repeat: int) -> None:
    """Time revision ``rev`` against the working tree at ``root`` and print the table
    (module docstring).

    :raises BaselineError: for an unknown revision or a worker that fails.
    """
    with tempfile.TemporaryDirectory(prefix="palast-baseline-") as tmp:
        commit = extract(root, rev, Path(tmp))
        old = Worker(Path(tmp), ruleset)
        try:
            new = Worker(root, ruleset)
        except BaselineError:
            old.close()
            raise
        try:
            print()
            print(f"baseline {rev} ({commit[:12]}) against the working tree ({working_tree_label(root)}): "
                  f"{games} games x {repeat} repeats each, old and new runs alternating")
            print(f"{'players':>7} {'old games/s':>12} {'new games/s':>12} {'new/old':>8} {'paired median':>14}")
            rates: dict[int, tuple[list[float], list[float]]] = {n: ([], []) for n in (3, 4, 5)}
            for _ in range(repeat):
                for n in (3, 4, 5):
                    spent = [0.0, 0.0]
                    for i, first in enumerate(range(0, games, CHUNK)):
                        count = min(CHUNK, games - first)
                        for side in ((0, 1) if i % 2 == 0 else (1, 0)):
                            spent[side] += (old, new)[side].seconds(n, first, count)
                    rates[n][0].append(games / spent[0])
                    rates[n][1].append(games / spent[1])
            for n, (o, w) in rates.items():
                paired = statistics.median(b / a for a, b in zip(o, w, strict=True))
                print(f"{n:>7} {max(o):>12.0f} {max(w):>12.0f} {max(w) / max(o):>8.2f} {paired:>14.2f}")
            o4, w4 = rates[4]
            print(f"four-player uniformly random games per second: {max(w4):.0f} new, {max(o4):.0f} at {rev}, "
                  f"new/old {max(w4) / max(o4):.2f}")
        finally:
            old.close()
            new.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per player count and repeat")
    ap.add_argument("--ruleset", default="reference")
    ap.add_argument("--repeat", type=int, default=3, help="repeats; the best is reported")
    ap.add_argument("--also-apply", action="store_true", help="also time the apply() path")
    ap.add_argument("--baseline", metavar="REV",
                    help="also time git revision REV (e.g. a8ce233) side by side with the working tree")
    args = ap.parse_args()
    root = Path(palast.__file__).resolve().parent.parent
    if args.baseline is not None:  # an unknown revision is reported before anything is timed
        found = git(root, "rev-parse", "--verify", "--quiet", f"{args.baseline}^{{commit}}")
        if found.returncode != 0:
            ap.exit(2, f"{ap.prog}: error: unknown git revision {args.baseline!r} (in the repository at {root})\n")
    spec = load_spec()
    print(f"palast playouts: ruleset {args.ruleset}, {args.games} games x {args.repeat} repeats, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{'players':>7} {'games/s':>9} {'actions/s':>10} {'actions/game':>13} {'rounds/game':>12}")
    for n in (3, 4, 5):
        game = Game(spec, args.ruleset, list(spec.player_colours[:n]))
        # actions per game, measured once on a sample through apply (playout records none)
        sample = [count_actions(game, seed) for seed in range(200)]
        per_game = sum(a for a, _ in sample) / len(sample)
        rounds = sum(r for _, r in sample) / len(sample)
        best = 0.0
        for _ in range(args.repeat):
            t = time.perf_counter()
            for seed in range(args.games):
                game.playout(game.initial_state(), random.Random(seed))
            best = max(best, args.games / (time.perf_counter() - t))
        print(f"{n:>7} {best:>9.0f} {best * per_game:>10.0f} {per_game:>13.1f} {rounds:>12.2f}")
        if args.also_apply:
            t = time.perf_counter()
            k = max(args.games // 5, 50)
            for seed in range(k):
                count_actions(game, seed)
            rate = k / (time.perf_counter() - t)
            print(f"{'':>7} {rate:>9.0f} {rate * per_game:>10.0f}   (through apply: new state and events per action)")
    if args.baseline is not None:
        try:
            compare(root, args.baseline, args.ruleset, args.games, args.repeat)
        except BaselineError as exc:
            ap.exit(2, f"{ap.prog}: error: {exc}\n")


if __name__ == "__main__":
    main()
