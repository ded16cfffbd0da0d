"""Positions: the immutable :class:`State`, the pending :class:`Decision`, and how a round
and a game ended (:class:`RoundEnd`, :class:`GameResult`).

Seats are numbered 0..n-1 in seat order; a card is an ``int`` (:mod:`palast.spec.cards`); a
role is its index in the spec's role list; ``-1`` means "none".
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum


class DecisionKind(StrEnum):
    """The decisions the turn's machinery itself names (spec/flow.yaml): the deal, the play,
    the next player after a tie, the end of the game and a stop at an open point, and what a
    rule module may add at the start of the game and at the end of a turn. A decision's kind
    is its declared name (a ``str``): every other one, above all those of the roles' actions
    (spec/roles.yaml ``choices``), is known from the declarations alone."""

    DEAL = "deal"                          #: chance: the deal of a new round
    PLAY = "play"                          #: a player plays a hand card
    NEXT_PLAYER = "next-player"            #: after a neutral card: which tied player moves
    GAME_OVER = "game-over"                #: terminal: the game has ended
    GAP = "gap"                            #: terminal: play reached a variation point the ruleset leaves open
    MARKS = "marks"                        #: chance: the mark each player gets (a module's character cards)
    CHOICE = "choice"                      #: a player chooses one card of some, or none, as a module's rule allows


TERMINAL_KINDS = frozenset({DecisionKind.GAME_OVER, DecisionKind.GAP})


@dataclass(frozen=True, slots=True)
class Decision:
    """The decision a position waits for.

    :ivar kind: what must be decided: the decision's declared name (spec/flow.yaml, the
        roles' ``choices``; :class:`DecisionKind` names the turn's own).
    :ivar player: the seat that decides (``-1`` for terminal decisions and a deal; for a
        draw by chance, the player who draws).
    :ivar partner: Wizard: the other player of the exchange (the actor, for the answer).
    :ivar count: Wizard: the number of cards exchanged.
    :ivar given: Wizard: the cards the actor gives (hidden from the partner).
    :ivar options: seats to choose among (exchange partners, tied players).
    :ivar forced: a play forced on a hand of banned Jesters (counts as a whisper).
    :ivar point: for :attr:`DecisionKind.GAP`: the open variation point.
    :ivar points: variation points this decision's legal actions depend on.
    :ivar choices: the legal actions, where the engine computed them when it opened the
        decision (Cupbearer swaps); empty otherwise.
    :ivar rule: for a decision a rule's statements wait for: where play resumes (the
        statement, in the rules applied; see :mod:`palast.engine.blocks`); else ``""``.
    :ivar frames: where play goes on after each step the waiting statement is inside,
        innermost last.
    :ivar chance: chance takes the decision (declared ``by: chance``): a deal, a draw from a
        deck of unknown order, a King card revealed, marks dealt.
    """

    kind: str
    player: int = -1
    partner: int = -1
    count: int = -1
    given: tuple[int, ...] = ()
    options: tuple[int, ...] = ()
    forced: bool = False
    point: str = ""
    points: tuple[str, ...] = ()
    choices: tuple[object, ...] = ()
    rule: str = ""
    frames: tuple[str, ...] = ()
    chance: bool = False

    @property
    def is_chance(self) -> bool:
        """True for a chance decision (deal, draw, King card reveal, marks)."""
        return self.chance

    @property
    def is_terminal(self) -> bool:
        """True when nothing more can happen: game over or a rule gap."""
        return self.kind in TERMINAL_KINDS


#: The fields of a :class:`Decision`, in order, and how each is set on a new one (its slot).
DECISION_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Decision))
_new = object.__new__
(_kind, _player, _partner, _count, _given, _options, _forced, _point, _points, _choices, _rule,
 _frames, _chance) = (getattr(Decision, name).__set__ for name in DECISION_FIELDS)


def new_decision(kind: str, player: int, partner: int, count: int, given: tuple[int, ...],
                 options: tuple[int, ...], forced: bool, point: str, points: tuple[str, ...],
                 choices: tuple[object, ...], rule: str, frames: tuple[str, ...], chance: bool) -> Decision:
    """The :class:`Decision` of these fields (every field, in order): equal to
    ``Decision(kind, player, ...)``, made without the frozen dataclass's ``__init__``
    (which sets each field through ``object.__setattr__``) by setting its slots directly,
    in half the time. The generated rules make the decisions they open anew with it."""
    d = _new(Decision)
    _kind(d, kind)
    _player(d, player)
    _partner(d, partner)
    _count(d, count)
    _given(d, given)
    _options(d, options)
    _forced(d, forced)
    _point(d, point)
    _points(d, points)
    _choices(d, choices)
    _rule(d, rule)
    _frames(d, frames)
    _chance(d, chance)
    return d


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended.

    :ivar kind: ``"whisper"`` or ``"six"``.
    :ivar player: the seat that ended it (the whisperer, or the player with six roles).
    :ivar scorers: the seats that scored 1.
    :ivar forced: a whisper forced by a hand of banned Jesters.
    :ivar rules: the rule ids it rests on.
    """

    kind: str
    player: int
    scorers: tuple[int, ...]
    forced: bool
    rules: tuple[str, ...]


#: What joins the tie-breaks of a :class:`GameResult` tried in turn (``"most-displayed, then
#: most-played-last-round"``).
THEN = ", then "


@dataclass(frozen=True, slots=True)
class GameResult:
    """How the game ended: the winning seats and whether a tie-break decided it.

    :ivar winners: one seat, or several sharing the win.
    :ivar tied: the seats tied on score before any tie-break (one seat: no tie).
    :ivar tiebreak: the tie-break reading used (a reading of the game's
        ``tiebreak_point``), several joined by :data:`THEN` where the final tie tried
        others in turn, or ``""``.
    :ivar shared: True when the win is shared after the tie-break.
    """

    winners: tuple[int, ...]
    tied: tuple[int, ...]
    tiebreak: str
    shared: bool


@dataclass(frozen=True, slots=True)
class State:
    """A position. Immutable; :meth:`palast.engine.Game.apply` returns a new one.

    Zones (cards are ints, hands sorted, displays in the order laid):

    :ivar hands: each seat's hand.
    :ivar displays: each seat's display (German *Auslage*).
    :ivar deck: the known top part of the draw deck, top first.
    :ivar deck_hidden: how many cards of unknown identity lie below :attr:`deck`; each is
        a uniformly random card of :attr:`unseen`.
    :ivar deck_bottom: known cards under the hidden part (a Maid's discard under the deck).
    :ivar unseen: cards whose place the position does not fix (the hidden deck part, and
        in a constructed position cards it leaves out), sorted.
    :ivar discard: the discard pile.

    King cards (as role indices):

    :ivar king_deck: the known top part of the King deck.
    :ivar king_hidden: King cards of unknown identity below it, drawn from :attr:`king_unseen`.
    :ivar king_unseen: King cards whose place is not fixed, sorted.
    :ivar king_in_force: the role of the King card in force (the banned role), or -1.
    :ivar king_spent: King cards revealed earlier and no longer in force.

    Play:

    :ivar scores: each seat's score.
    :ivar played: cards each seat played this round.
    :ivar tally: cards played in the rounds each seat scored in (B's optional tally).
    :ivar round: the round number (0 before the first deal).
    :ivar actor: the seat whose turn it is; at a deal, the seat who will start the round.
    :ivar last_card: the card played this turn, or -1.
    :ivar decision: what must be decided next.
    :ivar round_end: how the last round ended, while waiting for the next deal or at game end.
    :ivar result: the game's result once it is over.
    :ivar marks: each seat's mark, a colour index (a rule module's character card, known to
        everyone), or ``()`` when no mark has been dealt.
    """

    hands: tuple[tuple[int, ...], ...]
    displays: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    deck_hidden: int
    deck_bottom: tuple[int, ...]
    unseen: tuple[int, ...]
    discard: tuple[int, ...]
    king_deck: tuple[int, ...]
    king_hidden: int
    king_unseen: tuple[int, ...]
    king_in_force: int
    king_spent: tuple[int, ...]
    scores: tuple[int, ...]
    played: tuple[int, ...]
    tally: tuple[int, ...]
    round: int
    actor: int
    last_card: int
    decision: Decision
    round_end: RoundEnd | None = None
    result: GameResult | None = None
    marks: tuple[int, ...] = ()

    @property
    def deck_size(self) -> int:
        """Cards in the draw deck, known or not."""
        return len(self.deck) + self.deck_hidden + len(self.deck_bottom)

    @property
    def king_deck_size(self) -> int:
        """Cards in the King deck, known or not."""
        return len(self.king_deck) + self.king_hidden

    @property
    def is_terminal(self) -> bool:
        """True when the game is over or stopped at an open variation point."""
        return self.decision.is_terminal


STATE_FIELDS: tuple[str, ...] = tuple(State.__dataclass_fields__)


class InvariantViolation(AssertionError):
    """An invariant from ``spec/invariants.yaml`` failed after an action (an engine bug).

    :ivar invariant: the invariant id.
    :ivar detail: what is false, in words (the message without the invariant's id).
    """

    def __init__(self, invariant: str, message: str) -> None:
        self.invariant = invariant
        self.detail = message
        super().__init__(f"invariant {invariant} violated: {message}")
