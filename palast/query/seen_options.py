"""The options of another player's decision that a player can know: ``palast ask --as``.

A player sees another's options when the options are public: no field of the pending
decision is hidden from them (``decisions`` in ``spec/visibility.yaml``), and the options
are the same in every position they cannot tell from this one, that is, whichever way the
cards hidden from them (``zones`` in ``spec/visibility.yaml``, as
:func:`palast.engine.views.observation` applies it: another player's closed hand, the draw
deck, the discard pile) lie among the places hidden from them, as far as what they
remember allows (``placed``, :func:`palast.engine.knowledge.holds`). The Cupbearer's swaps
and a rule module's choice among displayed cards are public so; a Maid's discard, which
depends on the hand, is not. No role or rule is named here: what a decision offers is
whatever the declared rules compute, tried on those positions.

Which positions are tried: the position itself with every two cards of two hidden slots
exchanged (a card of a hand, the draw deck, the unknown pool or the discard pile for a
different card of another; in an ordered zone also two cards of the same zone). Options
that depend on the hidden cards differ in one such position; the positions differ only
where the player does not look.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from palast.engine.actions import Action
from palast.engine.game import Game
from palast.engine.knowledge import holds
from palast.engine.state import State
from palast.engine.views import Observation

#: A place cards lie in: its cards in a position, a position with its cards replaced, and
#: whether their order is part of the position (a hand and the unknown pool are sorted).
Slot = tuple[Callable[[State], tuple[int, ...]], Callable[[State, tuple[int, ...]], State], bool]


def _hand(seat: int) -> Slot:
    def put(s: State, cards: tuple[int, ...]) -> State:
        return replace(s, hands=s.hands[:seat] + (tuple(sorted(cards)),) + s.hands[seat + 1:])
    return (lambda s: s.hands[seat]), put, False


def _display(seat: int) -> Slot:
    def put(s: State, cards: tuple[int, ...]) -> State:
        return replace(s, displays=s.displays[:seat] + (cards,) + s.displays[seat + 1:])
    return (lambda s: s.displays[seat]), put, True


#: The places of the table zones that hold role cards, by zone of ``spec/visibility.yaml``
#: (the draw deck: its known cards, those under it, and the cards of unknown place).
_TABLE: dict[str, tuple[Slot, ...]] = {
    "draw-deck": (
        ((lambda s: s.deck), (lambda s, c: replace(s, deck=c)), True),
        ((lambda s: s.deck_bottom), (lambda s, c: replace(s, deck_bottom=c)), True),
        ((lambda s: s.unseen), (lambda s, c: replace(s, unseen=tuple(sorted(c)))), False),
    ),
    "discard-pile": (((lambda s: s.discard), (lambda s, c: replace(s, discard=c)), True),),
}
_HELD: dict[str, Callable[[int], Slot]] = {"hand": _hand, "display": _display}


def hidden_slots(game: Game, obs: Observation) -> list[Slot]:
    """The places holding role cards whose cards ``obs``'s player does not see: each
    zone view the observation leaves without cards (hands open to the player excepted)."""
    opened = {s for s, _ in obs.open_hands}
    out: list[Slot] = []
    for z in obs.zones:
        if z.cards is not None:
            continue
        if z.zone in _HELD and z.seat not in opened:
            out.append(_HELD[z.zone](z.seat))
        out.extend(_TABLE.get(z.zone, ()))
    return out


def _exchanged(state: State, slots: list[Slot], fixed: set[int] | frozenset[int] = frozenset()) -> Iterator[State]:
    """``state`` with two different cards of two hidden slots exchanged, every way once;
    cards of ``fixed`` are not moved."""
    cells = [(k, i) for k, (get, _, _) in enumerate(slots) for i in range(len(get(state)))]
    done: set[tuple[int, int, int, int]] = set()
    for a, (ka, ia) in enumerate(cells):
        for kb, ib in cells[a + 1:]:
            if ka == kb and not slots[ka][2]:
                continue  # two cards of an unordered place: the same position
            ca, cb = slots[ka][0](state)[ia], slots[kb][0](state)[ib]
            # in an unordered place a card's copies are alike: exchanged once
            key = (ka, ia if slots[ka][2] else ca, kb, ib if slots[kb][2] else cb)
            if ca == cb or key in done or ca in fixed or cb in fixed:
                continue
            done.add(key)
            first = slots[ka][0](state)
            moved = slots[ka][1](state, first[:ia] + (cb,) + first[ia + 1:])
            second = slots[kb][0](moved)
            yield slots[kb][1](moved, second[:ib] + (ca,) + second[ib + 1:])


def exchanged_worlds(game: Game, state: State, obs: Observation) -> Iterator[State]:
    """The positions ``obs``'s player cannot tell from ``state`` that differ in two hidden
    cards exchanged (see the module's description), as far as what they remember allows;
    the cards the pending decision holds (a Wizard's picks, ``given``) stay where they are,
    as the decision was opened for them."""
    held = set(state.decision.given)
    for world in _exchanged(state, hidden_slots(game, obs), held):
        if holds(world, obs.placed, game.spec.state.by_zone):
            yield world


def seen_options(game: Game, state: State, obs: Observation) -> tuple[Action, ...] | None:
    """The legal actions of the player who decides in ``state``, when ``obs``'s player (who
    does not decide) can know them, else ``None``: a chance or terminal decision, a field of
    the decision hidden from them, or options that differ in a position they cannot tell
    from ``state`` (see the module's description)."""
    d = state.decision
    if d.player < 0 or d.player == obs.player or d.is_chance or d.is_terminal or obs.decision.hidden:
        return None
    legal = tuple(game.legal_actions(state))
    want = set(legal)
    fresh = replace(d, choices=())  # options the engine kept when it opened the decision: computed again
    for world in _exchanged(state, hidden_slots(game, obs)):
        if (holds(world, obs.placed, game.spec.state.by_zone)
                and set(game.legal_actions(replace(world, decision=fresh))) != want):
            return None
    return legal
