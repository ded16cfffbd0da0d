"""Action notation: the text form of every action, as ``palast ask`` prints it and
scenario files and records use it.

=================  ==========================================  =======================
decision           notation                                    example
=================  ==========================================  =======================
play               ``play ROLE/COLOUR``                        ``play maid/grey``
exchange-partner   ``partner COLOUR``                          ``partner blue``
exchange-count     ``count N``                                 ``count 2``
exchange-give      ``give CARD[,CARD...]``                     ``give maid/red,guard/grey``
exchange-answer    ``give CARD[,CARD...]``                     ``give jester/blue``
discard            ``discard CARD``                            ``discard jester/grey``
swap               ``swap COLOUR:CARD COLOUR:CARD``            ``swap red:maid/grey blue:guard/blue``
take-back          ``take-back CARD``                          ``take-back maid/grey``
next-player        ``next COLOUR``                             ``next green``
deal (chance)      ``deal COLOUR:CARDS ... [deck:CARDS]``      ``deal red:maid/red,... blue:...``
draw (chance)      ``draw CARD``                               ``draw wizard/grey``
reveal (chance)    ``reveal ROLE``                             ``reveal jester``
marks (chance)     ``marks COLOUR:COLOUR ...`` (seat: mark)    ``marks red:purple blue:red green:blue``
choice             ``choose CARD`` or ``choose none``          ``choose jester/red``
=================  ==========================================  =======================

``give`` with no cards (``give``) is not legal; a zero-card exchange is ``count 0``.
"""

from __future__ import annotations

from palast.engine.actions import (
    Action,
    Choice,
    Count,
    Deal,
    Discard,
    Draw,
    Give,
    Marks,
    NextPlayer,
    Partner,
    Play,
    Reveal,
    Swap,
    TakeBack,
)
from palast.engine.game import Game
from palast.errors import InputError, NotationError

VERBS = ("play", "partner", "count", "give", "discard", "swap", "take-back", "next", "deal", "draw", "reveal", "marks",
         "choose")


def format_action(game: Game, action: Action) -> str:
    """Write ``action`` in palast notation, naming players by colour."""
    fc = game.cards.format_card
    if isinstance(action, Play):
        return f"play {fc(action.card)}"
    if isinstance(action, Partner):
        return f"partner {game.colour_name(action.seat)}"
    if isinstance(action, Count):
        return f"count {action.n}"
    if isinstance(action, Give):
        return f"give {game.cards.format_cards(action.cards)}"
    if isinstance(action, Discard):
        return f"discard {fc(action.card)}"
    if isinstance(action, Swap):
        return (f"swap {game.colour_name(action.seat_a)}:{fc(action.card_a)} "
                f"{game.colour_name(action.seat_b)}:{fc(action.card_b)}")
    if isinstance(action, TakeBack):
        return f"take-back {fc(action.card)}"
    if isinstance(action, NextPlayer):
        return f"next {game.colour_name(action.seat)}"
    if isinstance(action, Deal):
        parts = [f"{game.colour_name(s)}:{game.cards.format_cards(h)}" for s, h in enumerate(action.hands)]
        if action.deck is not None:
            parts.append(f"deck:{game.cards.format_cards(action.deck)}")
        return "deal " + " ".join(parts)
    if isinstance(action, Draw):
        return f"draw {fc(action.card)}"
    if isinstance(action, Reveal):
        return f"reveal {game.cards.roles[action.role]}"
    if isinstance(action, Marks):
        return "marks " + " ".join(f"{game.colour_name(s)}:{game.cards.colours[c]}"
                                   for s, c in enumerate(action.colours))
    if isinstance(action, Choice):
        return f"choose {fc(action.card) if action.card >= 0 else 'none'}"
    raise TypeError(f"not an action: {action!r}")


def _cards(game: Game, text: str) -> tuple[int, ...]:
    items = [t for t in text.split(",") if t.strip()]
    return tuple(game.cards.parse_card(t) for t in items)


def _marks(game: Game, text: str) -> tuple[int, ...]:
    """Every seat's mark from ``COLOUR:COLOUR`` pairs (seat colour, then mark colour)."""
    given: dict[int, int] = {}
    for part in text.split():
        seat, sep, mark = part.partition(":")
        if not sep:
            raise NotationError("write the marks as: marks COLOUR:COLOUR ... (each seat's colour, then its mark)")
        s = _seat(game, seat)
        if s in given:
            raise NotationError(f"{seat} is given a mark twice")
        given[s] = game.cards.parse_colour(mark, neutral_ok=False)
    if sorted(given) != list(range(game.n)):
        raise NotationError("the marks must name every seated player once")
    return tuple(given[s] for s in range(game.n))


def _seat(game: Game, text: str) -> int:
    try:
        return game.seat_of(text)
    except InputError as exc:
        raise NotationError(exc.message) from None


def parse_action(game: Game, text: str) -> Action:
    """Read an action written in palast notation.

    :param game: the game (for colours, seats and cards).
    :param text: e.g. ``"play maid/grey"``; case and extra spaces do not matter.
    :returns: the action (not yet checked for legality).
    :raises NotationError: if the text is not an action of the notation, naming what is
        wrong and showing the expected form.
    """
    s = " ".join(str(text).strip().split())
    verb, _, rest = s.partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    try:
        if verb == "play":
            return Play(game.cards.parse_card(rest))
        if verb == "partner":
            return Partner(_seat(game, rest))
        if verb == "count":
            if not rest.isdigit():
                raise NotationError(f"count needs a whole number, not {rest!r}")
            return Count(int(rest))
        if verb == "give":
            cards = _cards(game, rest)
            if not cards:
                raise NotationError("give needs at least one card")
            return Give(tuple(sorted(cards)))
        if verb == "discard":
            return Discard(game.cards.parse_card(rest))
        if verb == "take-back":
            return TakeBack(game.cards.parse_card(rest))
        if verb == "next":
            return NextPlayer(_seat(game, rest))
        if verb == "draw":
            return Draw(game.cards.parse_card(rest))
        if verb == "reveal":
            return Reveal(game.cards.parse_role(rest))
        if verb == "choose":
            if rest.lower() == "none":
                return Choice(-1)
            try:
                return Choice(game.cards.parse_card(rest))
            except NotationError as exc:
                raise NotationError(f"{exc.message}; write choose CARD (role/colour), or choose none "
                                    "to take none") from None
        if verb == "marks":
            return Marks(_marks(game, rest))
        if verb == "swap":
            parts = rest.split()
            if len(parts) != 2 or not all(":" in p for p in parts):
                raise NotationError("write a swap as: swap COLOUR:CARD COLOUR:CARD")
            (sa, ca), (sb, cb) = (p.split(":", 1) for p in parts)
            a, b = _seat(game, sa), _seat(game, sb)
            card_a, card_b = game.cards.parse_card(ca), game.cards.parse_card(cb)
            if a == b:
                raise NotationError("a swap is between two different players' displays")
            return Swap(a, card_a, b, card_b) if a < b else Swap(b, card_b, a, card_a)
        if verb == "deal":
            hands: dict[int, tuple[int, ...]] = {}
            deck: tuple[int, ...] | None = None
            for part in rest.split():
                if ":" not in part:
                    raise NotationError("write a deal as: deal COLOUR:CARD,CARD,... for every player [deck:CARDS]")
                who, _, listed = part.partition(":")
                if who.lower() == "deck":
                    deck = _cards(game, listed)
                else:
                    seat = _seat(game, who)
                    if seat in hands:
                        raise NotationError(f"the deal names {who} twice")
                    hands[seat] = tuple(sorted(_cards(game, listed)))
            if set(hands) != set(range(game.n)):
                missing = ", ".join(game.colour_name(s) for s in range(game.n) if s not in hands)
                raise NotationError(f"a deal must give a hand to every seated player; it gives none to {missing}")
            return Deal(tuple(hands[s] for s in range(game.n)), deck)
    except NotationError as exc:
        raise NotationError(f"in action {s!r}: {exc.message}") from None
    verbs = ", ".join(VERBS)
    if _is_cards(game, s):
        raise NotationError(f"{s!r} is a card, not an action; an action starts with one of: {verbs} "
                            f"(e.g. 'play {s.split(',')[0]}'); if it belongs to a give or deal before it, "
                            "write that whole action as one entry (in a YAML [...] list, put it in quotes)")
    raise NotationError(f"unknown action {s!r}; an action starts with one of: {verbs}")


def _is_cards(game: Game, text: str) -> bool:
    """True if ``text`` is a card or a comma-separated list of cards (the rest of a
    ``give`` cut off at a comma)."""
    try:
        return bool(_cards(game, text))
    except NotationError:
        return False
