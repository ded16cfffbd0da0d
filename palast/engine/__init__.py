"""The rules engine: :class:`Game`, :class:`State`, actions and events."""

from palast.engine.actions import (
    Action,
    Count,
    Deal,
    Discard,
    Draw,
    Give,
    NextPlayer,
    Partner,
    Play,
    Reveal,
    Swap,
    TakeBack,
)
from palast.engine.events import Event
from palast.engine.game import Game, InvariantViolation, Step
from palast.engine.state import Decision, DecisionKind, GameResult, RoundEnd, State

__all__ = [
    "Action", "Count", "Deal", "Decision", "DecisionKind", "Discard", "Draw", "Event", "Game", "GameResult",
    "Give", "InvariantViolation", "NextPlayer", "Partner", "Play", "Reveal", "RoundEnd", "State", "Step",
    "Swap", "TakeBack",
]
