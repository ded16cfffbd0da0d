"""The Hypothesis state machine that plays palast games.

A run starts from a real deal (a seeded deal of the game's cards), a generated position or a
scenario file, and then plays: each step either takes one decision among
``game.legal_actions(state)`` (Hypothesis picks which, by its notation), one chance outcome
among ``game.chance_outcomes(state)``, deals the next round from a seed, plays on for a drawn
number of actions with a seeded ``random.Random`` (and checks that the fast path
``game.playout`` with the same seed reaches the same state), or, once a game is over,
replays its whole history (the same actions must give the same states) and deals a new
game; the history is replayed at the end of every run too.

Every action is checked at once against every invariant of ``spec/invariants.yaml``
(:func:`palast.invariants.check.step_problems`: state and step invariants) and against the
per-round bounds (scores rise by at most one per player per round; at most
:func:`palast.invariants.check.round_action_bound` actions per round); the ``@invariant`` checks
the state invariants again after every step. A failure raises :class:`InvariantFailure`
carrying the position as a scenario file. Every check made here is listed in
tests/stateful/checks.py with the tests that show a broken engine or state trips it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from palast.engine import Action, Deal, Game, State, Step
from palast.engine.state import DecisionKind
from palast.formats.notation import format_action, parse_action
from palast.invariants.check import round_action_bound, state_problems, step_problems
from tests.stateful.configs import MachineConfig, scenario
from tests.stateful.failures import InvariantFailure, Problem, failure_scenario
from tests.stateful.ledger import LEDGER
from tests.stateful.positions import positions

K = DecisionKind
SEEDS = st.integers(0, 2**32 - 1)


class ReplayMismatch(AssertionError):
    """The same seed or the same actions did not give the same state."""


def _is_player_decision(m: PalastMachine) -> bool:
    d = m.state.decision
    return not d.is_chance and not d.is_terminal


def _is_enumerable_chance(m: PalastMachine) -> bool:
    return m.state.decision.kind in ("draw", "reveal")


def _is_deal(m: PalastMachine) -> bool:
    return m.state.decision.kind == K.DEAL


def _is_running(m: PalastMachine) -> bool:
    return not m.state.is_terminal


def _is_over(m: PalastMachine) -> bool:
    return m.state.is_terminal


class PalastMachine(RuleBasedStateMachine):
    """Plays the game of :attr:`config`; use :func:`machine_for` to make one."""

    config: ClassVar[MachineConfig]

    def __init__(self) -> None:
        super().__init__()
        self.game: Game = self.config.game()
        self.origin: State = self.game.initial_state()
        self.state: State = self.origin
        self.states: list[State] = []
        self.actions: list[Action] = []
        self.round_actions = 0
        self.round_scores: tuple[int, ...] = self.origin.scores
        self.round_dealt = False
        self.bound = round_action_bound(self.game)
        self.failed = False
        LEDGER.examples += 1

    # ------------------------------------------------------------------ starting
    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """Start from a real deal, a generated position or the configured scenario file."""
        cfg = self.config
        if cfg.start == "deal":
            self._begin(self.game.initial_state())
            self._deal(data.draw(SEEDS, label="deal seed"), data.draw(st.booleans(), label="deck order known"))
        elif cfg.start == "generated":
            sc = data.draw(positions(cfg.ruleset), label="position")
            self.game = cfg.game(sc.players)
            self.bound = round_action_bound(self.game)
            self._begin(sc.start(self.game))
        else:
            sc = scenario(cfg.start)
            self.game = cfg.game(sc.players)
            self.bound = round_action_bound(self.game)
            self._begin(sc.start(self.game))
            for text, _place in sc.actions:
                self._apply(parse_action(self.game, text))

    def _begin(self, state: State) -> None:
        with LEDGER.not_recording():
            problems = state_problems(self.game, state)
        if problems:
            raise InvariantFailure(problems)
        self.origin = self.state = state
        self.states, self.actions = [], []
        self.round_actions, self.round_scores, self.round_dealt = 0, state.scores, False

    def _deal(self, seed: int, known_order: bool) -> None:
        deal = self.game.sample_chance(self.state, random.Random(seed), deck_order=known_order)
        if deal != self.game.sample_chance(self.state, random.Random(seed), deck_order=known_order):
            raise ReplayMismatch("the same seed dealt two different deals")
        self._apply(deal)

    # ------------------------------------------------------------------ rules
    @precondition(_is_player_decision)
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """The player to decide takes one of the legal actions."""
        acts = self.game.legal_actions(self.state)
        texts = [format_action(self.game, a) for a in acts]
        chosen = data.draw(st.sampled_from(texts), label="action")
        self._apply(acts[texts.index(chosen)])

    @precondition(_is_enumerable_chance)
    @rule(data=st.data())
    def chance(self, data: st.DataObject) -> None:
        """A draw from a deck of unknown order or a King card reveal: one possible outcome."""
        outcomes = self.game.chance_outcomes(self.state)
        assert sum(p for _, p in outcomes) == 1, "chance outcome probabilities do not add up to 1"
        texts = [format_action(self.game, a) for a, _ in outcomes]
        chosen = data.draw(st.sampled_from(texts), label="outcome")
        self._apply(outcomes[texts.index(chosen)][0])

    @precondition(_is_deal)
    @rule(seed=SEEDS, known_order=st.booleans())
    def deal(self, seed: int, known_order: bool) -> None:
        """Deal the next round from a seed, with the draw deck's order fixed or left to chance."""
        self._deal(seed, known_order)

    @precondition(_is_running)
    @rule(seed=SEEDS, limit=st.integers(1, 300))
    def play_on(self, seed: int, limit: int) -> None:
        """Play up to ``limit`` actions chosen by ``random.Random(seed)`` (as
        :meth:`Game.playout` chooses them), then check the playout reaches the same state."""
        rng = random.Random(seed)
        start = self.state
        done = 0
        while done < limit and not self.state.is_terminal:
            s = self.state
            if s.decision.is_chance:
                a = self.game.sample_chance(s, rng)
            else:
                acts = self.game.legal_actions(s)
                a = acts[int(rng.random() * len(acts))]
            self._apply(a)
            done += 1
        if self.game.playout(start, random.Random(seed), max_actions=done) != self.state:
            raise ReplayMismatch(f"playout with seed {seed} for {done} actions reached another state")

    @precondition(_is_over)
    @rule(seed=SEEDS)
    def new_game(self, seed: int) -> None:
        """The game is over (or stopped at a gap): check its replay, then deal a new game."""
        self._check_replay()
        self._begin(self.game.initial_state())
        self._deal(seed, True)

    # ------------------------------------------------------------------ checks
    @invariant()
    def every_invariant_holds(self) -> None:
        """After every step: every state invariant (step invariants were checked per action)."""
        LEDGER.steps += 1
        with LEDGER.not_recording():
            problems = state_problems(self.game, self.state)
        if problems:
            raise InvariantFailure(problems)

    def teardown(self) -> None:
        if not self.failed and self.actions:
            self._check_replay()

    def _check_replay(self) -> None:
        s = self.origin
        for i, a in enumerate(self.actions):
            if s != self.states[i]:
                raise ReplayMismatch(f"replaying the history gave another state before action {i + 1}")
            s = self.game.apply(s, a).state
        if s != self.state:
            raise ReplayMismatch("replaying the history gave another final state")

    def _apply(self, action: Action) -> Step:
        game, before = self.game, self.state
        step = game.apply(before, action)
        after = step.state
        with LEDGER.not_recording():
            problems: list[Problem] = step_problems(game, before, action, after, step.events)
        if isinstance(action, Deal):
            self.round_actions, self.round_scores, self.round_dealt = 1, before.scores, True
        else:
            self.round_actions += 1
        if self.round_actions > self.bound:
            problems.append(("turn-is-bounded", f"{self.round_actions} actions in round {after.round}, "
                                                f"more than the bound {self.bound}"))
        for s in range(game.n):
            if after.scores[s] - self.round_scores[s] > 1:
                problems.append(("scores-rise-slowly", f"{game.colour_name(s)} scored more than once "
                                                       f"in round {after.round}"))
        self.states.append(before)
        self.actions.append(action)
        self.state = after
        LEDGER.actions += 1
        if after.round_end is not None and before.round_end is None:
            LEDGER.rounds += 1
            if self.round_dealt:
                LEDGER.note_round(game.n, sum(after.played), self.round_actions)
        if after.decision.kind == K.GAME_OVER:
            LEDGER.games += 1
        self._note_points(step)
        if problems:
            self.failed = True
            about, states, actions = self.config.describe(), list(self.states), list(self.actions)
            raise InvariantFailure(problems, lambda: failure_scenario(game, about, states, actions, problems))
        return step

    def _note_points(self, step: Step) -> None:
        points = [p for e in step.events for p in e.points] + list(step.state.decision.points)
        if points:
            by_point = {s.point: s.value for s in dict.values(self.game.params)}
            LEDGER.named.update((p, by_point[p]) for p in points)


def machine_for(config: MachineConfig) -> type[PalastMachine]:
    """A state machine class playing ``config``."""
    attrs: dict[str, Any] = {"config": config}
    name = "Palast_" + "".join(ch if ch.isalnum() else "_" for ch in config.label)
    return type(name, (PalastMachine,), attrs)
