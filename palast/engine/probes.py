"""Facts about a ruleset read off its declared rules by asking the engine, not declared again.

A probe builds a small position, lets the declared rules of a step act on it, and reads what
they allow. What it finds is a summary of the rules for other tools (the proofs' role-level
model, the book, the example records); the rules themselves stay the only statement of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from palast.engine.actions import Play
from palast.engine.draft import Draft

if TYPE_CHECKING:
    from palast.engine.game import Game


def playable_when_banned(game: Game) -> tuple[bool, ...]:
    """For each role (by index): whether the declared rules of step ``turn`` let a player
    play a card of that role while it is banned (the rule that refuses it: king.jester).

    The probe: the first player holds one card of every role, nobody displays a card, the
    role is banned, and step ``turn`` is applied; the role counts as playable when a card of
    it is among the legal plays. A role no King card names is never banned and counts as
    playable. A turn that does not open a play decision under the ruleset (it stops at an
    open variation point, so no card is playable) tells nothing, and the role counts as playable.
    The answer is about this one position and the first card of the role: a rule that
    refuses the role's cards only in some positions or only some of its cards is not seen
    (the proofs, which take the answer as a summary, then find their model and the engine
    disagree; the differential check and decisions-well-formed say so).

    :param game: the game (spec, ruleset, seats) whose rules are asked.
    :returns: one flag per role of ``game.spec.roles``, in that order.
    """
    roles = range(len(game.spec.roles))
    first = {r: next(c for c in game.all_cards if game.cards.role_of(c) == r) for r in roles}
    hand = tuple(sorted(first.values()))
    start = game.initial_state()
    empty: tuple[tuple[int, ...], ...] = tuple(() for _ in range(game.n))
    out: list[bool] = []
    for r in roles:
        if r not in game.king_roles:
            out.append(True)
            continue
        d = Draft(replace(start, hands=(hand, *empty[1:]), displays=empty, king_in_force=r, round=1), record=False)
        game.begin_turn(d, 0)
        plays = {a.card for a in game.legal_actions(d.freeze()) if isinstance(a, Play)}
        out.append(first[r] in plays or not plays)
    return tuple(out)
