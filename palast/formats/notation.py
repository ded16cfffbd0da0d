"""Action notation: the text form of every action, as ``palast ask`` prints it and
scenario files and records use it.

An action is written as its decision's verb and the value it gives, in the form the
decision's ``answer`` takes (spec/flow.yaml, the roles' choices in spec/roles.yaml); the
verbs below are those the spec declares today:

=================  ==========================================  =======================
answer             notation                                    example
=================  ==========================================  =======================
card               ``VERB CARD`` (play, discard, take-back,    ``discard jester/grey``
                   draw)
card-or-none       ``VERB CARD`` or ``VERB none`` (choose)     ``choose jester/red``
king-card          ``VERB ROLE`` (reveal)                      ``reveal jester``
seat               ``VERB COLOUR`` (partner, next)             ``partner blue``
number             ``VERB N`` (count)                          ``count 2``
cards              ``VERB CARD[,CARD...]`` (give)              ``give maid/red,guard/grey``
two-display-cards  ``VERB COLOUR:CARD COLOUR:CARD`` (swap)     ``swap red:maid/grey blue:guard/blue``
colours            ``VERB COLOUR:COLOUR ...`` (marks; each     ``marks red:purple blue:red green:blue``
                   seat, then its mark)
deal               ``VERB COLOUR:CARDS ... [deck:CARDS]``      ``deal red:maid/red,... blue:...``
                   (deal)
=================  ==========================================  =======================

``give`` with no cards (``give``) is not legal; a zero-card exchange is ``count 0``.
"""

from __future__ import annotations

from palast.engine.actions import Action, Choice, Deal, Marks, NextPlayer, PickCards, PickPair, Play
from palast.engine.game import Game
from palast.errors import InputError, NotationError

#: How the notation writes the value of each shape of answer (spec/flow.yaml ``answer``).
ANSWER_FORMS: dict[str, str] = {
    "card": "CARD", "card-or-none": "CARD|none", "king-card": "ROLE", "seat": "COLOUR", "number": "N",
    "cards": "CARD,CARD,...", "two-display-cards": "COLOUR:CARD COLOUR:CARD", "colours": "COLOUR:COLOUR ...",
    "deal": "COLOUR:CARDS ... [deck:CARDS]",
}


def verbs(game: Game) -> tuple[str, ...]:
    """The verbs an action may start with: every declared decision's, a player's first
    (:meth:`palast.spec.flow.Flow.verbs`)."""
    return game.spec.flow.verbs()


def format_action(game: Game, action: Action) -> str:
    """Write ``action`` in palast notation, naming players by colour.

    :raises TypeError: for an object that is no action, or whose verb no decision declares.
    """
    try:
        verb, shape = game.answers.verb_of(action), game.answers.shape_of(action)
    except KeyError:
        raise TypeError(f"not an action: {action!r}") from None
    return f"{verb} {_format_value(game, shape, action)}"


def _format_value(game: Game, shape: str, action: Action) -> str:
    """The value ``action`` gives, written as its ``shape`` of answer is."""
    fc = game.cards.format_card
    if isinstance(action, PickPair):
        return (f"{game.colour_name(action.seat_a)}:{fc(action.card_a)} "
                f"{game.colour_name(action.seat_b)}:{fc(action.card_b)}")
    if isinstance(action, PickCards):
        return game.cards.format_cards(action.cards)
    if isinstance(action, Deal):
        parts = [f"{game.colour_name(s)}:{game.cards.format_cards(h)}" for s, h in enumerate(action.hands)]
        if action.deck is not None:
            parts.append(f"deck:{game.cards.format_cards(action.deck)}")
        return " ".join(parts)
    if isinstance(action, Marks):
        return " ".join(f"{game.colour_name(s)}:{game.cards.colours[c]}" for s, c in enumerate(action.colours))
    value = action.card if isinstance(action, Play | Choice) else (
        action.seat if isinstance(action, NextPlayer) else action.value)
    if shape == "seat":
        return game.colour_name(value)
    if shape == "number":
        return str(value)
    if shape == "king-card":
        return game.cards.roles[value]
    if shape == "card-or-none" and value < 0:
        return "none"
    return fc(value)


def _cards(game: Game, text: str) -> tuple[int, ...]:
    items = [t for t in text.split(",") if t.strip()]
    return tuple(game.cards.parse_card(t) for t in items)


def _marks(game: Game, text: str, verb: str) -> tuple[int, ...]:
    """Every seat's mark from ``COLOUR:COLOUR`` pairs (seat colour, then mark colour)."""
    given: dict[int, int] = {}
    for part in text.split():
        seat, sep, mark = part.partition(":")
        if not sep:
            raise NotationError(f"write the marks as: {verb} COLOUR:COLOUR ... (each seat's colour, then its mark)")
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

    :param game: the game (for colours, seats, cards and the declared verbs).
    :param text: e.g. ``"play maid/grey"``; case and extra spaces do not matter.
    :returns: the action (not yet checked for legality).
    :raises NotationError: if the text is not an action of the notation, naming what is
        wrong and showing the expected form.
    """
    s = " ".join(str(text).strip().split())
    verb, _, rest = s.partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    known = game.answers.verbs.get(verb)
    if known is not None:
        try:
            return game.answers.by_verb(verb, _parse_value(game, verb, known[1], rest))
        except NotationError as exc:
            raise NotationError(f"in action {s!r}: {exc.message}") from None
    listed = ", ".join(verbs(game))
    if _is_cards(game, s):
        raise NotationError(f"{s!r} is a card, not an action; an action starts with one of: {listed} "
                            f"(e.g. '{verbs(game)[0]} {s.split(',')[0]}'); if it belongs to "
                            f"{' or '.join(game.spec.flow.verbs('cards', 'deal'))} before it, "
                            "write that whole action as one entry (in a YAML [...] list, put it in quotes)")
    raise NotationError(f"unknown action {s!r}; an action starts with one of: {listed}")


def _parse_value(game: Game, verb: str, shape: str, rest: str) -> object:
    """The value ``rest`` gives, read as its ``shape`` of answer is written (for messages:
    the action's ``verb``).

    :raises NotationError: naming what is wrong and the expected form.
    """
    if shape == "card":
        return game.cards.parse_card(rest)
    if shape == "card-or-none":
        if rest.lower() == "none":
            return -1
        try:
            return game.cards.parse_card(rest)
        except NotationError as exc:
            raise NotationError(f"{exc.message}; write {verb} CARD (role/colour), or {verb} none "
                                "to take none") from None
    if shape == "king-card":
        return game.cards.parse_role(rest)
    if shape == "seat":
        return _seat(game, rest)
    if shape == "number":
        if not rest.isdigit():
            raise NotationError(f"{verb} needs a whole number, not {rest!r}")
        return int(rest)
    if shape == "cards":
        cards = _cards(game, rest)
        if not cards:
            raise NotationError(f"{verb} needs at least one card")
        return tuple(sorted(cards))
    if shape == "colours":
        return _marks(game, rest, verb)
    if shape == "two-display-cards":
        parts = rest.split()
        if len(parts) != 2 or not all(":" in p for p in parts):
            raise NotationError(f"write a {verb} as: {verb} COLOUR:CARD COLOUR:CARD")
        (sa, ca), (sb, cb) = (p.split(":", 1) for p in parts)
        a, b = _seat(game, sa), _seat(game, sb)
        card_a, card_b = game.cards.parse_card(ca), game.cards.parse_card(cb)
        if a == b:
            raise NotationError(f"a {verb} is between two different players' displays")
        return (a, b, card_a, card_b) if a < b else (b, a, card_b, card_a)
    return _deal(game, verb, rest)


def _deal(game: Game, verb: str, rest: str) -> Deal:
    """A deal: every seated player's hand, and maybe the draw deck (top first)."""
    hands: dict[int, tuple[int, ...]] = {}
    deck: tuple[int, ...] | None = None
    for part in rest.split():
        if ":" not in part:
            raise NotationError(f"write a deal as: {verb} COLOUR:CARD,CARD,... for every player [deck:CARDS]")
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


def _is_cards(game: Game, text: str) -> bool:
    """True if ``text`` is a card or a comma-separated list of cards (the rest of a
    ``give`` cut off at a comma)."""
    try:
        return bool(_cards(game, text))
    except NotationError:
        return False
