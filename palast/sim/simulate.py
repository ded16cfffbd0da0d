"""Monte Carlo statistics over seeded games: how games go, and how much each variation
point matters in play.

Game ``i`` of a run with seed ``S`` is played with seed ``S + i`` under each ruleset of
the run, exactly as ``palast play --seed S+i`` plays it when the policy is ``uniform``.
Each game is stepped through the engine's own rule code; after each action the simulator
knows which engine parameters (variation-point readings) the engine consulted to list the
legal actions and to carry the action out. Only such an action can come out differently
under another reading (``palast/engine/params.py``: the engine branches on these values and
on nothing else that differs between rulesets), so the other readings and rulesets are
evaluated at exactly those actions, on the same state (a :class:`State` does not depend on
the ruleset).

Definitions (per ruleset played, ``R``):

* a variation point is **consulted** at an action when the engine reads its reading while
  listing the legal actions or carrying out the action;
* it is **reached** at an action when it is consulted there and, for a point whose readings
  can change an outcome (``changes_outcome: yes``), some other reading of it (any reading
  the spec lists or a ruleset picks, ``open`` included) would give different legal actions
  or a different position after the chosen action; other points count when consulted;
* a game **diverges** from another ruleset ``R'`` when at some state along it ``R'`` gives
  different legal actions, rejects the chosen action, or reaches a different position
  with it (hands, displays, decks, scores, who decides what next, or a gap; a different
  tie-break naming the same winners does not count). Its **outcome diverges** when the
  chosen action itself is rejected or reaches a different position (so a choice that only
  one ruleset offers, but nobody took, does not count). A divergence is **attributed** to
  the points whose reading, changed alone from ``R``'s to ``R'``'s, makes a difference (to
  all consulted points that differ between ``R`` and ``R'`` when none does alone).

All counts are integers (win shares exact fractions), merged by addition, so the numbers
do not depend on how games are split among worker processes.
"""

from __future__ import annotations

import os
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from fractions import Fraction

from palast.engine import advance
from palast.engine.actions import Action
from palast.engine.game import Game
from palast.engine.params import ConsultLog, Setting
from palast.engine.state import State
from palast.errors import IllegalActionError, InputError
from palast.lang.logic import parameter_table
from palast.sim.policies import POLICIES
from palast.spec.load import Spec, load_spec

#: Games per unit of work handed to a worker process.
CHUNK = 100

#: How a state differs under another reading: not at all, in the legal actions only, or
#: in the outcome of the chosen action.
SAME, OPTIONS, OUTCOME = 0, 1, 2


class WatchedGame(Game):
    """A :class:`Game` whose parameter table is a :class:`ConsultLog` from the start of its
    construction, so that readings the constructor reads (and may keep) are known too."""

    _log: ConsultLog

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str]) -> None:
        super().__init__(spec, ruleset, list(players))
        self._log.always = frozenset(self._log.seen)
        self._log.seen = set()

    @property
    def params(self) -> ConsultLog:
        """The parameter table (a :class:`ConsultLog`)."""
        return self._log

    @params.setter
    def params(self, value: dict[str, Setting]) -> None:
        self._log = value if isinstance(value, ConsultLog) else ConsultLog(value)


def variant_spec(spec: Spec, base: str, point: str, value: str) -> tuple[Spec, str]:
    """A copy of ``spec`` with one more ruleset: ``base`` with variation point ``point``
    read as ``value`` (a reading id or ``open``).

    :returns: the new spec and the new ruleset's id.
    """
    name = f"{base}+{point}={value}"
    vps = {vid: replace(vp, choices={**vp.choices, name: value if vid == point else vp.choices[base]})
           for vid, vp in spec.variation_points.items()}
    return replace(spec, variation_points=vps, rulesets={**spec.rulesets, name: spec.rulesets[base]}), name


@dataclass(frozen=True)
class SimConfig:
    """What to simulate.

    :ivar games: games per ruleset.
    :ivar players: the seated colours.
    :ivar rulesets: the rulesets to play under.
    :ivar seed: game ``i`` is played with seed ``seed + i``.
    :ivar policy: a name from :data:`palast.sim.policies.POLICIES`.
    """

    games: int
    players: tuple[str, ...]
    rulesets: tuple[str, ...]
    seed: int = 0
    policy: str = "uniform"


@dataclass
class Tally:
    """Integer counts for the games played under one ruleset; :meth:`merge` adds two.

    :ivar games: games played.
    :ivar over: games that ended with a winner.
    :ivar gaps: games that stopped at an open variation point, by point.
    :ivar rounds: games that ended, by number of rounds.
    :ivar round_actions: finished rounds, by the number of player actions in them (chance actions not counted).
    :ivar round_ends: finished rounds by kind: ``whisper``, ``forced-whisper``, ``six``.
    :ivar wins: per seat, games won (a shared win split evenly).
    :ivar shared: games whose win was shared.
    :ivar consulted: per point, actions at which its reading was consulted.
    :ivar reached: per point, actions at which it was reached (see the module docstring).
    :ivar games_reached: per point, games in which it was reached.
    :ivar diverged: per other ruleset, games that diverged from it (legal actions or outcome).
    :ivar outcome_diverged: per other ruleset, games where a chosen action's outcome differed.
    :ivar diverged_any: games that diverged from at least one other ruleset.
    :ivar outcome_diverged_any: games where a chosen action's outcome differed under another ruleset.
    :ivar point_diverged: per point, games with a divergence attributed to it.
    :ivar point_outcome_diverged: per point, games with an outcome divergence attributed to it.
    :ivar example: per point, the lowest seed of a game with a divergence attributed to it.
    :ivar example_outcome: per point, the lowest seed of a game with an outcome divergence attributed to it.
    :ivar example_reached: per point, the lowest seed of a game that reached it.
    :ivar win_share: per seat, games won, a shared win split evenly (exact).
    """

    games: int = 0
    over: int = 0
    gaps: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    round_actions: Counter[int] = field(default_factory=Counter)
    round_ends: Counter[str] = field(default_factory=Counter)
    wins: Counter[int] = field(default_factory=Counter)
    shared: int = 0
    consulted: Counter[str] = field(default_factory=Counter)
    reached: Counter[str] = field(default_factory=Counter)
    games_reached: Counter[str] = field(default_factory=Counter)
    diverged: Counter[str] = field(default_factory=Counter)
    outcome_diverged: Counter[str] = field(default_factory=Counter)
    diverged_any: int = 0
    outcome_diverged_any: int = 0
    point_diverged: Counter[str] = field(default_factory=Counter)
    point_outcome_diverged: Counter[str] = field(default_factory=Counter)
    example: MutableMapping[str, int] = field(default_factory=dict)
    example_outcome: MutableMapping[str, int] = field(default_factory=dict)
    example_reached: MutableMapping[str, int] = field(default_factory=dict)
    win_share: MutableMapping[int, Fraction] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts to these (commutative and associative)."""
        self.games += other.games
        self.over += other.over
        self.shared += other.shared
        self.diverged_any += other.diverged_any
        self.outcome_diverged_any += other.outcome_diverged_any
        for name in ("gaps", "rounds", "round_actions", "round_ends", "wins", "consulted", "reached",
                     "games_reached", "diverged", "outcome_diverged", "point_diverged", "point_outcome_diverged"):
            getattr(self, name).update(getattr(other, name))
        for seat, share in other.win_share.items():
            self.win_share[seat] = self.win_share.get(seat, Fraction(0)) + share
        for mine, theirs in ((self.example, other.example), (self.example_outcome, other.example_outcome),
                             (self.example_reached, other.example_reached)):
            for point, seed in theirs.items():
                mine[point] = min(seed, mine.get(point, seed))


def _same_position(a: State, b: State) -> bool:
    """Equal positions, not counting which points a decision names (annotation only) nor
    the tie-break reading recorded with the same winners."""
    if a == b:
        return True
    if a.result is not None and b.result is not None:
        if a.result.winners != b.result.winners or a.result.shared != b.result.shared:
            return False
        a, b = replace(a, result=None), replace(b, result=None)
    elif a.result is not None or b.result is not None:
        return False
    return replace(a, decision=replace(a.decision, points=())) == replace(b, decision=replace(b.decision, points=()))


class Simulator:
    """Plays and measures games for one seating and policy under any ruleset of the spec.

    :param spec: the loaded spec.
    :param players: the seated colours.
    :param policy: a name from :data:`palast.sim.policies.POLICIES`.
    :raises InputError: for an unknown policy or a bad seating.
    """

    def __init__(self, spec: Spec, players: Sequence[str], policy: str = "uniform") -> None:
        if policy not in POLICIES:
            raise InputError(f"unknown policy {policy!r} (known: {', '.join(POLICIES)})", None, "--policy")
        self.spec = spec
        self.players = tuple(players)
        self.policy = POLICIES[policy]
        self.point_of: dict[str, str] = {}
        self.changes_outcome: dict[str, str] = {}
        for vp in spec.variation_points.values():
            self.changes_outcome[vp.id] = vp.changes_outcome
        table = parameter_table(spec)
        for param, (point, _) in table.items():
            self.point_of[param] = point
        self.rulesets = tuple(spec.rulesets)
        self.games: dict[str, WatchedGame] = {}   # played
        self.plain: dict[str, WatchedGame] = {}   # evaluating a state under a ruleset
        for rs in self.rulesets:
            self.games[rs] = WatchedGame(spec, rs, self.players)
            self.plain[rs] = WatchedGame(spec, rs, self.players)
        self._variants: dict[tuple[str, str, str], WatchedGame] = {}
        self.alternatives: dict[tuple[str, str], tuple[str, ...]] = {}
        for rs in self.rulesets:
            for param, point in self.point_of.items():
                vp = spec.variation_points[point]
                values = {r.id for r in vp.readings if r.id in table[param][1]}
                values |= set(vp.choices.values())
                values.discard(self.plain[rs].params.reading(param))
                self.alternatives[rs, param] = tuple(sorted(values))

    # ------------------------------------------------------------------ other readings
    def variant(self, ruleset: str, param: str, value: str) -> WatchedGame:
        """A game of ``ruleset`` with engine parameter ``param`` set to ``value`` (a reading
        id or ``open``) and every other parameter as the ruleset reads it (built from a spec
        with one more ruleset, :func:`variant_spec`)."""
        key = (ruleset, param, value)
        found = self._variants.get(key)
        if found is None:
            vspec, name = variant_spec(self.spec, ruleset, self.point_of[param], value)
            found = self._variants[key] = WatchedGame(vspec, name, self.players)
        return found

    @staticmethod
    def differs(g: Game, state: State, action: Action, legal: list[Action] | None, after: State) -> int:
        """How game ``g`` at ``state`` differs from what was played: :data:`SAME`,
        :data:`OPTIONS` (other legal actions than ``legal``, when given, but ``action``
        leads to the same position) or :data:`OUTCOME` (``action`` is rejected or reaches
        a different position than ``after``)."""
        try:
            reached = advance(g, state, action)
        except IllegalActionError:
            return OUTCOME
        if not _same_position(reached, after):
            return OUTCOME
        if legal is not None and g.legal_actions(state) != legal:
            return OPTIONS
        return SAME

    # ------------------------------------------------------------------ one game
    def play(self, ruleset: str, seed: int, tally: Tally) -> State:
        """Play the game ``seed`` under ``ruleset`` and add what happened to ``tally``.

        :returns: the final state (game over or gap).
        """
        game = self.games[ruleset]
        log = game.params
        policy = self.policy
        rng = random.Random(seed)
        s = game.initial_state()
        actions_this_round = 0
        seen = _GameSeen()
        while not s.decision.is_terminal:
            dec = s.decision
            log.seen.clear()
            legal: list[Action] | None
            if dec.is_chance:
                legal = None
                action = game.sample_chance(s, rng)
            else:
                legal = game.legal_actions(s)
                action = policy(game, s, legal, rng)
                actions_this_round += 1
            after = advance(game, s, action)
            if log.seen or log.always:
                self._examine(ruleset, _Comparison(s, action, legal, after, log), tally, seen)
            if s.round_end is None and after.round_end is not None:
                re = after.round_end
                tally.round_ends["forced-whisper" if re.forced else re.kind] += 1
                tally.round_actions[actions_this_round] += 1
                actions_this_round = 0
            s = after
        tally.games += 1
        if s.result is not None:
            tally.over += 1
            tally.rounds[s.round] += 1
            share = Fraction(1, len(s.result.winners))
            for w in s.result.winners:
                tally.win_share[w] = tally.win_share.get(w, Fraction(0)) + share
                tally.wins[w] += 1
            tally.shared += len(s.result.winners) > 1
        else:
            tally.gaps[s.decision.point] += 1
        for p in seen.reached:
            tally.games_reached[p] += 1
            tally.example_reached[p] = min(seed, tally.example_reached.get(p, seed))
        for r, level in seen.diverged.items():
            tally.diverged[r] += 1
            tally.outcome_diverged[r] += level == OUTCOME
        tally.diverged_any += bool(seen.diverged)
        tally.outcome_diverged_any += OUTCOME in seen.diverged.values()
        for p, level in seen.points.items():
            tally.point_diverged[p] += 1
            tally.example[p] = min(seed, tally.example.get(p, seed))
            if level == OUTCOME:
                tally.point_outcome_diverged[p] += 1
                tally.example_outcome[p] = min(seed, tally.example_outcome.get(p, seed))
        return s

    def _examine(self, rs: str, cmp: _Comparison, tally: Tally, seen: _GameSeen) -> None:
        consulted = cmp.consulted
        mine = self.plain[rs].params
        for param in consulted:
            point = self.point_of[param]
            tally.consulted[point] += 1
            if self.changes_outcome[point] != "yes" or any(
                    cmp.level(self.variant(rs, param, v)) for v in self.alternatives[rs, param]):
                tally.reached[point] += 1
                seen.reached.add(point)
        for other in self.rulesets:
            if other == rs:
                continue
            theirs = self.plain[other].params
            candidates = sorted(p for p in consulted if theirs.reading(p) != mine.reading(p))
            if not candidates:
                continue
            level = cmp.level(self.plain[other])
            if level == SAME:
                continue
            seen.diverged[other] = max(level, seen.diverged.get(other, SAME))
            if len(candidates) == 1:
                blamed = {candidates[0]: level}
            else:
                alone = {p: cmp.level(self.variant(rs, p, theirs.reading(p))) for p in candidates}
                blamed = {p: lv for p, lv in alone.items() if lv} or dict.fromkeys(candidates, level)
            for p, lv in blamed.items():
                point = self.point_of[p]
                seen.points[point] = max(lv, seen.points.get(point, SAME))


class _Comparison:
    """One played action, evaluated under other readings.

    An evaluation's result depends only on the readings the engine consulted during it
    (the engine branches on nothing else that differs between rulesets), so each result is
    kept with those readings and reused for any game that reads them the same way. The
    played game's own readings give :data:`SAME`.
    """

    def __init__(self, state: State, action: Action, legal: list[Action] | None, after: State,
                 log: ConsultLog) -> None:
        self.state, self.action, self.legal, self.after = state, action, legal, after
        self.consulted = sorted(log.consulted())
        self.memo: list[tuple[dict[str, str], int]] = [({p: log.reading(p) for p in self.consulted}, SAME)]

    def level(self, game: WatchedGame) -> int:
        """:meth:`Simulator.differs` for ``game``, memoised."""
        log = game.params
        for readings, level in self.memo:
            if all(log.reading(p) == v for p, v in readings.items()):
                return level
        log.seen.clear()
        level = Simulator.differs(game, self.state, self.action, self.legal, self.after)
        self.memo.append(({p: log.reading(p) for p in log.consulted()}, level))
        return level


@dataclass
class _GameSeen:
    """What one game showed: points reached, divergence level per other ruleset and per point."""

    reached: set[str] = field(default_factory=set)
    diverged: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------------- running many games
def chunks(config: SimConfig, size: int = CHUNK) -> Iterator[tuple[str, int, int]]:
    """The units of work: ``(ruleset, first game index, number of games)``, rulesets interleaved."""
    for start in range(0, config.games, size):
        for rs in config.rulesets:
            yield rs, start, min(size, config.games - start)


def run_chunk(sim: Simulator, config: SimConfig, ruleset: str, start: int, count: int) -> tuple[str, Tally]:
    """Play games ``start .. start+count-1`` under ``ruleset``; returns the ruleset and its tally."""
    t = Tally()
    for i in range(start, start + count):
        sim.play(ruleset, config.seed + i, t)
    return ruleset, t


_WORKER: tuple[Simulator, SimConfig] | None = None


def _init_worker(spec_root: str, config: SimConfig) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if _WORKER is not None and _WORKER[1] == config:
        return  # inherited from the parent process (fork): nothing to load
    _WORKER = (Simulator(load_spec(spec_root), config.players, config.policy), config)


def _work(task: tuple[str, int, int]) -> tuple[str, Tally]:
    assert _WORKER is not None
    sim, config = _WORKER
    return run_chunk(sim, config, *task)


def simulate(spec: Spec, config: SimConfig, *, workers: int = 1, chunk: int = CHUNK,
             progress: Callable[[int], None] | None = None) -> dict[str, Tally]:
    """Play ``config.games`` seeded games under each ruleset of ``config``.

    :param workers: processes to use; 1 plays in this process. The result is the same for
        any number of workers.
    :param chunk: games per unit of work (the result does not depend on it either).
    :param progress: called with the number of games just finished, after each chunk.
    :returns: ruleset -> :class:`Tally`, in the order of ``config.rulesets``.
    :raises InputError: for an unknown ruleset or policy, or a bad seating.
    """
    for rs in config.rulesets:
        if rs not in spec.rulesets:
            raise InputError(f"unknown ruleset {rs!r} (known: {', '.join(spec.rulesets)})", None, "--ruleset")
    sim = Simulator(spec, config.players, config.policy)
    totals = {rs: Tally() for rs in config.rulesets}
    tasks = list(chunks(config, chunk))
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            rs, t = run_chunk(sim, config, *task)
            totals[rs].merge(t)
            if progress:
                progress(t.games)
        return totals
    global _WORKER
    _WORKER = (sim, config)  # a forked worker starts with it; a spawned one loads the spec itself
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), initializer=_init_worker,
                             initargs=(os.fspath(spec.root), config)) as pool:
        futures = [pool.submit(_work, task) for task in tasks]
        try:
            for fut in as_completed(futures):
                rs, t = fut.result()
                totals[rs].merge(t)
                if progress:
                    progress(t.games)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    return totals


__all__ = ["CHUNK", "ConsultLog", "SimConfig", "Simulator", "Tally", "chunks", "run_chunk", "simulate"]
