"""The rules engine: :class:`Game`, :class:`State`, actions and events.

Code outside the engine uses the names exported here and never the engine's working copy
of a state (``palast.engine.draft``; ``tests/test_layering.py`` checks this).
:func:`advance` and :func:`start_turn` are what that code needs beyond :class:`Game`'s own
methods.
"""

from palast.engine.actions import Action, Answers, Choice, Deal, Marks, NextPlayer, Pick, PickCards, PickPair, Play
from palast.engine.draft import Draft
from palast.engine.events import Event
from palast.engine.game import Game, Step
from palast.engine.state import Decision, DecisionKind, GameResult, InvariantViolation, RoundEnd, State


def advance(game: Game, state: State, action: Action) -> State:
    """Carry out ``action`` in ``state`` like :meth:`Game.apply`, but record no events and
    run no invariant check: the fast path for code that steps one action at a time and
    needs only the positions (:mod:`palast.sim.simulate`).

    :returns: the new state, equal to ``game.apply(state, action).state``.
    :raises IllegalActionError: if ``action`` is not legal in ``state``, as :meth:`Game.apply`.
    """
    d = Draft(state, record=False)
    game.step(d, action)
    return d.freeze()


def start_turn(game: Game, state: State, seat: int) -> State:
    """``state`` with ``seat`` to move at the start of a turn: the actor set, no card played
    yet this turn, and the decision the rules give there (a play, a forced play, or a gap
    where the ruleset leaves a point open), as after any turn that passes to ``seat``.
    Used to build a scenario's position (:mod:`palast.formats.scenario`).

    :returns: the new state; every other field is ``state``'s.
    """
    d = Draft(state, record=False)
    game.begin_turn(d, seat)
    return d.freeze()


__all__ = [
    "Action", "Answers", "Choice", "Deal", "Decision", "DecisionKind", "Event", "Game", "GameResult",
    "InvariantViolation", "Marks", "NextPlayer", "Pick", "PickCards", "PickPair", "Play", "RoundEnd", "State", "Step",
    "advance", "start_turn",
]
