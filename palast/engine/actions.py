"""Actions: every decision is one action (the decisions of ``spec/flow.yaml`` and of the roles).

Actions are small frozen dataclasses. Chance outcomes (a :class:`Deal`, a card drawn from a
deck of unknown order, a King card revealed) are actions too, so a record can give every
deal and draw explicitly. Their notation is in :mod:`palast.formats.notation`.

The turn's own decisions (spec/flow.yaml: the play, the next player after a tie, a rule
module's choice, the marks and the deal) have an action type each. Every other decision,
above all those of the roles' actions (spec/roles.yaml ``choices``), is answered by an
action of the shape its declaration gives (``answer``), named by its ``verb``: a
:class:`Pick` (one card, King card, seat or number), :class:`PickCards` (some cards) or
:class:`PickPair` (one display card of each of two players). :class:`Answers` reads which
from the declarations, so a new role's decision needs no code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand into the player's display (turn.play)."""

    card: int


@dataclass(frozen=True, slots=True)
class NextPlayer:
    """After a neutral card and a tie: seat ``seat`` takes the next turn (turn.next.neutral-tie)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the deal of a round (round.deal).

    :ivar hands: each seat's six cards, sorted.
    :ivar deck: the draw deck top first, or ``None`` when its order is left unknown (each
        draw is then a chance action of its own).
    """

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Marks:
    """Chance: each seat's mark, a colour index in seat order (a rule module's character
    cards dealt at random; spec/modules/)."""

    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """Choose ``card`` among the options a rule module's rule offers, or none (``card == -1``)."""

    card: int


@dataclass(frozen=True, slots=True)
class Pick:
    """Answer the decision whose verb is ``verb`` with one whole number: a card, a King
    card (the role it shows), a seat or a number, as the decision declares (``answer``).
    ``Pick("discard", card)`` discards ``card`` (role.maid); ``Pick("count", 2)`` exchanges two
    cards each way (role.wizard)."""

    verb: str
    value: int


@dataclass(frozen=True, slots=True)
class PickCards:
    """Answer the decision whose verb is ``verb`` with some cards, sorted (``give``: the
    cards a player of an exchange hands over, role.wizard)."""

    verb: str
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PickPair:
    """Answer the decision whose verb is ``verb`` with one display card of each of two
    players: ``card_a`` of seat ``seat_a`` and ``card_b`` of seat ``seat_b``, always written
    with ``seat_a < seat_b`` (``swap``, role.cupbearer)."""

    verb: str
    seat_a: int
    card_a: int
    seat_b: int
    card_b: int


Action = Play | NextPlayer | Choice | Deal | Marks | Pick | PickCards | PickPair

#: The action type of each turn decision that has one of its own (spec/flow.yaml), with the
#: answer it gives (its declaration must say the same: palast.engine.conformance checks).
TURN_ACTIONS: dict[str, tuple[type, str]] = {
    "play": (Play, "card"), "next-player": (NextPlayer, "seat"), "choice": (Choice, "card-or-none"),
}
#: The action type of each shape of answer (spec/flow.yaml ``answer``) for every other decision.
SHAPES: dict[str, type] = {
    "card": Pick, "card-or-none": Pick, "king-card": Pick, "seat": Pick, "number": Pick, "cards": PickCards,
    "two-display-cards": PickPair, "colours": Marks, "deal": Deal,
}


def action_value(action: object) -> object:
    """The value an action chooses: a card, a seat, a number or a King card's role (``int``);
    the cards given (sorted tuple); a pair of display cards as ``(seat_a, seat_b, card_a,
    card_b)`` with the lower seat first; the marks dealt (colours in seat order); for a deal,
    the action itself.

    :raises TypeError: for an object that is no action.
    """
    if isinstance(action, Play | Choice):
        return action.card
    if isinstance(action, Pick):
        return action.value
    if isinstance(action, NextPlayer):
        return action.seat
    if isinstance(action, PickCards):
        return tuple(sorted(action.cards))
    if isinstance(action, PickPair):
        if action.seat_a > action.seat_b:
            return (action.seat_b, action.seat_a, action.card_b, action.card_a)
        return (action.seat_a, action.seat_b, action.card_a, action.card_b)
    if isinstance(action, Marks):
        return action.colours
    if isinstance(action, Deal):
        return action
    raise TypeError(f"{action!r} is not an action")


class Declared(Protocol):
    """What :class:`Answers` reads of a declared decision (:class:`palast.spec.flow.FlowDecision`)."""

    @property
    def name(self) -> str: ...
    @property
    def answer(self) -> str: ...
    @property
    def verb(self) -> str: ...


class Answers:
    """Which action answers each decision, read from the declarations.

    :param decisions: every declared decision by name (``spec.flow.decisions``); a terminal
        one (no ``answer``) is answered by none.
    :raises ValueError: for a declared answer no action type gives (the schema allows none).
    """

    def __init__(self, decisions: Mapping[str, Declared]) -> None:
        #: decision -> (action type, verb)
        self.types: dict[str, tuple[type, str]] = {}
        #: verb -> (decision, shape of answer)
        self.verbs: dict[str, tuple[str, str]] = {}
        self._makers: dict[str, Callable[[Any], Action]] = {}
        for name, d in decisions.items():
            if not d.answer:
                continue
            kind = TURN_ACTIONS[name][0] if name in TURN_ACTIONS else SHAPES.get(d.answer)
            if kind is None:
                raise ValueError(f"no action gives an answer of shape {d.answer!r} (decision {name!r})")
            self.types[name] = (kind, d.verb)
            self.verbs.setdefault(d.verb, (name, d.answer))
            self._makers[name] = _maker(kind, d.verb)

    def make(self, decision: str, value: object) -> Action:
        """The action answering ``decision`` with ``value`` (the inverse of :func:`action_value`).

        :raises KeyError: for a decision no action answers (a terminal one, or none declared).
        """
        return self._makers[decision](value)

    def by_verb(self, verb: str, value: object) -> Action:
        """The action of notation verb ``verb`` giving ``value``.

        :raises KeyError: for a verb no decision declares.
        """
        return self.make(self.verbs[verb][0], value)

    def accepts(self, decision: str, action: object) -> bool:
        """True if ``action`` is of the type (and verb) that answers ``decision``."""
        got = self.types.get(decision)
        if got is None or not isinstance(action, got[0]):
            return False
        verb = getattr(action, "verb", None)
        return verb is None or verb == got[1]

    def verb_of(self, action: object) -> str:
        """The notation verb of ``action`` (its own, or its decision's), else its type's name."""
        verb = getattr(action, "verb", None)
        if isinstance(verb, str):
            return verb
        return next((v for k, v in self.types.values() if isinstance(action, k)), type(action).__name__)

    def shape_of(self, action: object) -> str:
        """The declared shape of the answer ``action`` gives (``card``, ``seat``, ...).

        :raises KeyError: for an action whose verb or type no decision declares.
        """
        return self.verbs[self.verb_of(action)][1]


def _maker(kind: type, verb: str) -> Callable[[Any], Action]:
    """The function making an action of type ``kind`` (and verb ``verb``) from its value."""
    if kind is Pick:
        return lambda v: Pick(verb, v)
    if kind is PickCards:
        return lambda v: PickCards(verb, tuple(v))
    if kind is PickPair:  # the value as action_value gives it: (seat_a, seat_b, card_a, card_b)
        return lambda v: _pair(verb, *v)
    if kind is Marks:
        return lambda v: Marks(tuple(v))
    if kind is Deal:
        return lambda v: v
    return kind


def _pair(verb: str, seat_a: int, seat_b: int, card_a: int, card_b: int) -> PickPair:
    """The :class:`PickPair` of a value ``(seat_a, seat_b, card_a, card_b)``."""
    return PickPair(verb, seat_a, card_a, seat_b, card_b)
