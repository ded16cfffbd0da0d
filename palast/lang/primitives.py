"""Every primitive of the rule language: its name, the kinds of its arguments and result,
what it means (the book prints its ``meaning``), and how it is computed on a
position (its ``python``, a template of Python code used by
:mod:`palast.lang.compiler`).

Kinds of value: ``seat`` (a player), ``card``, ``role``, ``colour``, ``int``, ``bool``,
``decision`` (what a position waits for), and
collections ``seats``, ``cards``, ``roles``, ``ints`` (ordered, repeats kept). ``-1`` stands
for "none" (no card played yet, no role banned, a colour nobody plays).

In a template ``{0}``, ``{1}`` are the arguments; for a binder ``{v}`` is the bound variable,
``{c}`` the collection and ``{0}``, ``{1}`` the expressions after it. Names in capitals are
the game's constants, bound when a game is compiled: ``P`` (the seats), ``NR`` (number of
roles), ``NEUTRAL`` (the neutral colour), ``OWNER`` (colour -> seat, or -1), ``OTHERS``
(seat -> the other seats), ``TARGET``, ``SIX``, ``HS`` (hand size), ``ALL_CARDS``,
``ROLES``, ``KINGS`` (the King cards' roles, sorted), ``PLAYER_COLOURS``, ``K_DEAL``, ``K_OVER``, ``K_GAP``
(decision kinds), ``DKI`` (decision kind -> its number), ``FLOW`` (the pairs of decision
numbers the declared flow allows, :meth:`palast.spec.flow.Flow.pairs`), ``ROLE_DECISIONS`` (the
numbers of the decisions of the roles' actions) and ``GAME``; ``D`` is
the position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations, permutations

from palast.errors import RulesError, SpecError

COLLECTION = {"seat": "seats", "card": "cards", "role": "roles", "int": "ints", "cards": "cardsets",
              "tuple": "tuples", "colour": "colours", "colours": "colourlists"}
ELEMENT = {v: k for k, v in COLLECTION.items()}


@dataclass(frozen=True)
class Primitive:
    """One primitive.

    :ivar name: how an expression calls it.
    :ivar args: the kinds of its arguments (for a binder: the kinds of the expressions after
        the ``x in COLLECTION`` part; ``"*"`` for any kind).
    :ivar result: the kind of its value (``"="`` for the kind of the collection bound, ``"+"``
        for the kind of the (collection) expression after it).
    :ivar meaning: what it means, for the book.
    :ivar python: the code template (see the module's description).
    :ivar binder: True when the first argument is ``x in COLLECTION``.
    """

    name: str
    args: tuple[str, ...]
    result: str
    meaning: str
    python: str
    binder: bool = False


_P = Primitive
PRIMITIVES: Mapping[str, Primitive] = {p.name: p for p in (
    # ---------------------------------------------------------------- the position
    _P("players", (), "seats", "every player, in seat order", "P"),
    _P("actor", (), "seat", "the player whose turn it is", "D.actor"),
    _P("decider", (), "seat", "the player the pending decision is for (for a draw, the player who draws; nobody "
       "for a deal or once the game is over)", "D.decision.player"),
    _P("card", (), "card", "the card played this turn", "D.last_card"),
    _P("forced_play", (), "bool", "whether the pending decision is a play forced on the player (a hand of banned "
       "Jesters, king.jester-forced)", "D.decision.forced"),
    _P("banned", (), "role", "the role banned by the King card in force (none: -1)", "D.king_in_force"),
    _P("nobody", (), "seat", "no player (-1)", "-1"),
    _P("target", (), "int", "the score that ends the game for this number of players", "TARGET"),
    _P("six", (), "int", "how many different roles in one display end the round", "SIX"),
    _P("hand_size", (), "int", "the cards dealt to each player", "HS"),
    _P("deck_size", (), "int", "the cards in the draw deck",
       "(len(D.deck) + D.deck_hidden + len(D.deck_bottom))"),
    _P("king_deck_size", (), "int", "the King cards that can still be revealed from the King deck",
       "(len(D.king_deck) + D.king_hidden)"),
    _P("hand", ("seat",), "cards", "the cards in a player's hand", "D.hands[{0}]"),
    _P("display", ("seat",), "cards", "the cards in a player's display, in the order laid", "D.displays[{0}]"),
    _P("round", (), "int", "the number of the round being played or last played (0 before the first deal)",
       "D.round"),
    _P("score", ("seat",), "int", "a player's score", "D.scores[{0}]"),
    _P("played", ("seat",), "int", "the cards a player has played this round", "D.played[{0}]"),
    _P("tally", ("seat",), "int", "the cards a player played in the rounds they scored in", "D.tally[{0}]"),
    _P("seat", ("seat",), "int", "a player's place in seat order, from 0 (compare two players with seat(p) < seat(q))",
       "{0}"),
    _P("mark", ("seat",), "colour", "a player's mark: the colour of the character card a rule module dealt them "
       "(none: -1)", "(D.marks[{0}] if D.marks else -1)"),
    _P("others", ("seat",), "seats", "every player but the one given, in seat order", "OTHERS[{0}]"),
    _P("old", ("*",), "=", "the value of the expression in the position before the action (only in a step "
       "invariant)", "{0}"),
    _P("draw_deck", (), "cards", "the cards of the draw deck, its face-down part included (and the cards a "
       "constructed position leaves unplaced)", "(D.deck + D.deck_bottom + D.unseen)"),
    _P("discard_pile", (), "cards", "the cards of the discard pile", "D.discard"),
    _P("king_deck", (), "roles", "the King cards in the King deck (a King card is named by the role it bans)",
       "(D.king_deck + D.king_unseen)"),
    _P("in_force", (), "roles", "the King card in force, if any (a collection of one or none)",
       "((D.king_in_force,) if D.king_in_force >= 0 else ())"),
    _P("spent_kings", (), "roles", "the King cards revealed earlier and no longer in force", "D.king_spent"),
    _P("running", (), "bool", "a round has been dealt and has not ended (a stop at a gap inside it included)",
       "(D.round >= 1 and D.round_end is None and D.decision.kind != K_DEAL "
       "and D.decision.kind != K_OVER)"),
    _P("ended", (), "bool", "the round has ended (by a whisper or by six)", "(D.round_end is not None)"),
    _P("whisper_ended", (), "bool", "the round ended by a whisper",
       "(D.round_end is not None and D.round_end.kind == 'whisper')"),
    _P("six_ended", (), "bool", "the round ended by six different roles",
       "(D.round_end is not None and D.round_end.kind == 'six')"),
    _P("forced_whisper", (), "bool", "the round ended by a whisper forced by a hand of banned Jesters",
       "(D.round_end is not None and D.round_end.forced)"),
    _P("ender", (), "seat", "the player who ended the round (nobody while it runs)",
       "(D.round_end.player if D.round_end is not None else -1)"),
    _P("decision", (), "decision", "what the position waits for (a play, a take-back, ...: the decision names "
       "of spec/roles.yaml, written with _ for -)", "DKI[D.decision.kind]"),
    _P("follows", ("decision", "decision"), "bool", "whether the second decision may come right after the first: "
       "the turn's state machine (spec/flow.yaml and the roles' choices) declares it", "(({0}, {1}) in FLOW)"),
    _P("in_action", ("decision",), "bool", "whether the decision is one a role's action asks for (its choices in "
       "spec/roles.yaml)", "({0} in ROLE_DECISIONS)"),
    _P("dealing", (), "bool", "the next action is a deal (chance)", "(D.decision.kind == K_DEAL)"),
    _P("game_over", (), "bool", "the game is over", "(D.decision.kind == K_OVER)"),
    _P("stopped", (), "bool", "play stopped at an open variation point (a gap)", "(D.decision.kind == K_GAP)"),
    _P("can_act", (), "bool", "whoever must decide has at least one legal action",
       "(len(GAME.legal_actions(D)) > 0)"),
    # ---------------------------------------------------------------- the game's cards
    _P("all_cards", (), "cards", "every card of the game, in the engine's card order", "ALL_CARDS"),
    _P("all_roles", (), "roles", "every role, once each", "ROLES"),
    _P("king_cards", (), "roles", "every King card of the game", "KINGS"),
    _P("player_colours", (), "colours", "every player colour of the box, seated or not, in spec order",
       "PLAYER_COLOURS"),
    _P("no_card", (), "card", "no card (-1): among a choice's options, the choice of none", "-1"),
    # ---------------------------------------------------------------- cards
    _P("role", ("card",), "role", "the role a card shows", "({0} % NR)"),
    _P("colour", ("card",), "colour", "the colour of a card", "({0} // NR)"),
    _P("neutral", ("card",), "bool", "whether a card is of the neutral colour", "({0} // NR == NEUTRAL)"),
    _P("owner", ("colour",), "seat", "the player of a colour (nobody for the neutral colour)", "OWNER[{0}]"),
    _P("roles", ("cards",), "roles", "the roles of some cards, one per card", "tuple([_c % NR for _c in {0}])"),
    # ---------------------------------------------------------------- collections
    _P("count", ("*",), "int", "how many elements a collection has", "len({0})"),
    _P("distinct", ("*",), "=", "a collection without repeats (first ones kept)", "_distinct({0})"),
    _P("without", ("*", "*"), "=", "a collection less one copy of an element (unchanged if absent)",
       "_without({0}, {1})"),
    _P("minus", ("*", "*"), "=", "the first collection less the elements of the second, one copy each (what an "
       "action took out of a zone: minus(old(hand(p)), hand(p)))", "_minus({0}, {1})"),
    _P("in_order", ("*",), "=", "a collection sorted in the engine's card order (colour, then role)",
       "tuple(sorted({0}))"),
    _P("occurrences", ("*", "*"), "int", "how many times an element is in a collection", "{0}.count({1})"),
    _P("first", ("*",), "-", "the first element of a collection (an error where it has none)",
       "_first({0}, {text})"),
    _P("empty", ("*",), "bool", "whether a collection has no element", "(not {0})"),
    _P("upto", ("int", "int"), "ints", "the whole numbers from the first to the second, both included",
       "tuple(range({0}, {1} + 1))"),
    _P("smaller", ("int", "int"), "int", "the smaller of two numbers", "min({0}, {1})"),
    _P("arrangements", ("*", "int"), "colourlists", "every way to give that many players one element each, "
       "no element twice, in seat order (the marks a chance deal may give)", "_arrangements({0}, {1})"),
    _P("subsets", ("cards", "int"), "cardsets", "every way to pick that many of the cards (each pick in card "
       "order, no pick twice)", "_subsets({0}, {1})"),
    _P("filter", ("bool",), "=", "the elements for which the condition holds",
       "tuple([{v} for {v} in {c} if {0}])", binder=True),
    _P("number", ("bool",), "int", "how many elements satisfy the condition",
       "sum([1 for {v} in {c} if {0}])", binder=True),
    _P("any", ("bool",), "bool", "whether some element satisfies the condition",
       "any([{0} for {v} in {c}])", binder=True),
    _P("all", ("bool",), "bool", "whether every element satisfies the condition",
       "all([{0} for {v} in {c}])", binder=True),
    _P("fewest", ("int",), "=", "the elements with the smallest value of the expression",
       "_fewest({c}, [{0} for {v} in {c}])", binder=True),
    _P("most", ("int",), "=", "the elements with the largest value of the expression",
       "_most({c}, [{0} for {v} in {c}])", binder=True),
    _P("gather", ("*",), "+", "every element of the collections the expression gives, joined in order",
       "tuple([_x for {v} in {c} for _x in {0}])", binder=True),
    _P("sum", ("int",), "int", "the sum of the expression over the collection",
       "sum([{0} for {v} in {c}])", binder=True),
    _P("highest", ("int",), "int", "the largest value of the expression over the collection",
       "max([{0} for {v} in {c}])", binder=True),
)}


#: Why a primitive that one declaration (or none) uses is a primitive of its own rather than
#: composed from others (the book lists these; ``tests/test_rule_language.py`` fails for a
#: primitive used once without a reason here).
ALONE: Mapping[str, str] = {
    "nobody": "the word for no player; a value, not logic",
    "forced_whisper": "reads how the position records the round's end (a whisper forced by banned Jesters)",
    "forced_play": "reads what the position records of the pending play (forced on a hand of banned Jesters)",
    "follows": "looks up the declared flow of spec/flow.yaml, which is data; the primitive adds no logic",
    "can_act": "asks the engine for the legal actions of the position, that is every rule of legality as "
               "declared; composing it here would write those rules a second time",
    "without": "a general operation on collections",
    "upto": "a general operation on numbers",
    "subsets": "a general operation on collections (every way to pick some of them)",
    "arrangements": "a general operation on collections (every way to deal one element to each of some "
                    "players)",
    "no_card": "the word for no card; a value, not logic",
    "mark": "reads what the position records (the character card a rule module dealt each player)",
    "player_colours": "reads the box's colours, which are data",
    "smaller": "a general operation on numbers",
    "fewest": "a general operation on collections (the elements with the least of a value)",
    "most": "a general operation on collections (the elements with the most of a value)",
}


def _without(items: tuple[object, ...], x: object) -> tuple[object, ...]:
    if x not in items:
        return items
    i = items.index(x)
    return items[:i] + items[i + 1:]


def _distinct(items: tuple[object, ...]) -> tuple[object, ...]:
    """``items`` without repeats, the first of each kept: ``items`` itself when it has none
    (a set is cheaper to build than the dict that keeps the order)."""
    if len(set(items)) == len(items):
        return items if items.__class__ is tuple else tuple(items)
    return tuple(dict.fromkeys(items))


def _first(items: tuple[object, ...], text: str) -> object:
    """The first element of ``items``; ``text`` is the expression, for the error.

    :raises SpecError: when ``items`` is empty: the declarations read the first element of
        a collection that has none there (``palast spec check`` cannot see it).
    """
    if not items:
        raise SpecError(f"the expression {text} took the first element of an empty collection: the rule that "
                        "reads it must keep the collection non-empty there (or test it with empty(...) first)")
    return items[0]


def _minus(items: tuple[object, ...], less: tuple[object, ...]) -> tuple[object, ...]:
    """``items`` without one copy of each element of ``less`` (in ``items``' order)."""
    rest = list(less)
    out = []
    for x in items:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return tuple(out)


def _subsets(cards: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every pick of ``k`` of ``cards``, each sorted, none twice, in order.

    :raises RulesError: for a negative ``k`` (the declared rules asked for a pick of fewer
        than no cards)."""
    if k < 0:
        raise RulesError(f"the rules ask for the picks of {k} cards (subsets of a negative number)")
    items = tuple(sorted(cards))
    if len(set(items)) == len(items):  # different cards: the combinations come distinct and in order
        return tuple(combinations(items, k))
    return tuple(sorted(set(combinations(items, k))))


def _arrangements(items: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every ordered pick of ``k`` different elements of ``items``, in order.

    :raises RulesError: for a negative ``k``."""
    if k < 0:
        raise RulesError(f"the rules ask for the ordered picks of {k} elements (a negative number)")
    return tuple(permutations(items, k))


def _fewest(items: tuple[int, ...], keys: list[int]) -> tuple[int, ...]:
    """The elements of ``items`` whose key (``keys``, in the same order) is smallest."""
    low = min(keys)
    if keys.count(low) == 1 and len(keys) == len(items) and items.__class__ is tuple:
        return (items[keys.index(low)],)  # one element has it: a fast path
    return tuple([x for x, k in zip(items, keys, strict=True) if k == low])


def _most(items: tuple[int, ...], keys: list[int]) -> tuple[int, ...]:
    """The elements of ``items`` whose key (``keys``, in the same order) is largest."""
    high = max(keys)
    if keys.count(high) == 1 and len(keys) == len(items) and items.__class__ is tuple:
        return (items[keys.index(high)],)  # one element has it: a fast path
    return tuple([x for x, k in zip(items, keys, strict=True) if k == high])


#: Helper functions the templates call.
RUNTIME: Mapping[str, object] = {"_distinct": _distinct, "_without": _without, "_minus": _minus, "_first": _first,
                                 "_fewest": _fewest, "_most": _most, "_subsets": _subsets,
                                 "_arrangements": _arrangements}
