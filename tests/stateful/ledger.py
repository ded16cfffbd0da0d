"""What the state machines did in this test session: how many examples, rule steps and
engine actions they checked, and which readings of which variation points the engine
consulted. One :data:`LEDGER` per session; :class:`SummaryPlugin` prints it at the end of
the pytest run whether or not output is captured. Under pytest-xdist each worker process
keeps its own ledger and hands it to the controlling process when it ends
(:class:`WorkerLedgers`), which adds them up and prints one summary, as a run in one process
does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from palast.engine.params import Setting

Pair = tuple[str, str]
"""A (variation point id, reading id) pair; the reading is ``"open"`` for a gap."""


@dataclass
class Ledger:
    """Counters and the consulted readings, filled by every machine run of the session.

    :ivar read: (point, reading) pairs whose engine parameter the engine looked up.
    :ivar named: (point, reading) pairs named in the ``points`` of an event or decision.
    :ivar runs: machine runs (one per test function that ran a machine), by label.
    :ivar longest_round: by player count, the most plays and the most actions (deal
        included) seen in one round that started with a deal.
    """

    examples: int = 0
    steps: int = 0
    actions: int = 0
    rounds: int = 0
    games: int = 0
    seconds: float = 0.0
    longest_round: dict[int, tuple[int, int]] = field(default_factory=dict)
    read: set[Pair] = field(default_factory=set)
    named: set[Pair] = field(default_factory=set)
    runs: dict[str, int] = field(default_factory=dict)
    recording: bool = True

    @contextmanager
    def not_recording(self) -> Iterator[None]:
        """Do not count parameter lookups in this block (the invariants read readings too,
        but only the engine's lookups show that play reached a variation point)."""
        was, self.recording = self.recording, False
        try:
            yield
        finally:
            self.recording = was

    @contextmanager
    def timed(self, label: str) -> Iterator[None]:
        """Count one machine run under ``label`` and add its wall time."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds += time.perf_counter() - start
            self.runs[label] = self.runs.get(label, 0) + 1

    def note_round(self, players: int, plays: int, actions: int) -> None:
        """Remember a finished round's plays and actions if it is the longest so far."""
        old = self.longest_round.get(players, (0, 0))
        self.longest_round[players] = (max(old[0], plays), max(old[1], actions))

    def to_data(self) -> dict[str, Any]:
        """The ledger as plain values (lists for sets), to send from a worker process."""
        return {"examples": self.examples, "steps": self.steps, "actions": self.actions, "rounds": self.rounds,
                "games": self.games, "seconds": self.seconds,
                "longest_round": [[n, p, a] for n, (p, a) in self.longest_round.items()],
                "read": sorted(self.read), "named": sorted(self.named), "runs": dict(self.runs)}

    def add(self, data: dict[str, Any]) -> None:
        """Add a ledger given as :meth:`to_data` (another process's) to this one."""
        self.examples += data["examples"]
        self.steps += data["steps"]
        self.actions += data["actions"]
        self.rounds += data["rounds"]
        self.games += data["games"]
        self.seconds += data["seconds"]
        for n, plays, actions in data["longest_round"]:
            self.note_round(n, plays, actions)
        self.read |= {(p, r) for p, r in data["read"]}
        self.named |= {(p, r) for p, r in data["named"]}
        for label, count in data["runs"].items():
            self.runs[label] = self.runs.get(label, 0) + count

    def summary(self) -> str:
        """A few lines: what the machines checked and how long it took."""
        longest = ", ".join(f"{n} players {p} plays / {a} actions"
                            for n, (p, a) in sorted(self.longest_round.items()))
        return (f"{len(self.runs)} machine runs, {self.examples} examples, {self.steps} state-machine steps, "
                f"{self.actions} engine actions each checked against every invariant, "
                f"{self.rounds} rounds and {self.games} games played to the end, "
                f"{len(self.read)} (variation point, reading) pairs consulted, in {self.seconds:.1f} s\n"
                f"longest rounds from a deal: {longest or 'none'}")


LEDGER = Ledger()


class RecordingParams(dict[str, Setting]):
    """``game.params`` that notes every lookup in :data:`LEDGER` as a consulted reading.

    The engine reads a parameter exactly where its variation point decides something, so a
    lookup is the moment a reading is exercised (events and decisions name the point too,
    but not every reading leaves a ``points`` entry; see :meth:`Ledger.named`).
    """

    def __getitem__(self, key: str) -> Setting:
        s = dict.__getitem__(self, key)
        if LEDGER.recording:
            LEDGER.read.add((s.point, s.value))
        return s


class SummaryPlugin:
    """A pytest plugin object registered by the stateful tests; prints the ledger."""

    name = "palast-stateful-summary"

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not LEDGER.runs:
            return
        terminalreporter.section("palast stateful verification")
        terminalreporter.write_line(LEDGER.summary())


class WorkerLedgers:
    """A pytest plugin (tests/conftest.py registers it): in a pytest-xdist worker it hands
    the worker's ledger, and whether the stateful tests ran there, to the controlling
    process; in the controlling process it adds up what the workers handed over, and
    prints the summary as :class:`SummaryPlugin` does in a run without workers."""

    name = "palast-stateful-ledgers"
    KEY = "palast_stateful_ledger"

    def __init__(self) -> None:
        self.wanted = False

    def pytest_sessionfinish(self, session: Any) -> None:
        out = getattr(session.config, "workeroutput", None)
        if out is not None and LEDGER.runs:  # a worker process
            out[self.KEY] = {"ledger": LEDGER.to_data(),
                             "wanted": session.config.pluginmanager.has_plugin(SummaryPlugin.name)}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        got = getattr(node, "workeroutput", {}).get(self.KEY)
        if got:
            LEDGER.add(got["ledger"])
            self.wanted = self.wanted or got["wanted"]
            if self.wanted and not node.config.pluginmanager.has_plugin(SummaryPlugin.name):
                node.config.pluginmanager.register(SummaryPlugin(), SummaryPlugin.name)
