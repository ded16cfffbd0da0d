"""Policies: how a simulated player chooses among the legal actions.

A policy takes the game, the position, its legal actions (never empty) and the random
source, and returns one of the actions; it draws exactly one number from the random
source, so a seed fixes the whole game. :func:`palast.sim.play.uniform_policy` chooses
uniformly; :func:`careful_policy` avoids whispering whenever it can.
"""

from __future__ import annotations

import random

from palast.engine.actions import Action, PickPair, Play
from palast.engine.game import Game
from palast.engine.state import DecisionKind, State
from palast.sim.play import Policy, uniform_policy


def _whispers_after_swap(game: Game, seat: int, display: tuple[int, ...], swap: PickPair) -> bool:
    """True if ``swap`` leaves a role twice in ``seat``'s display (the actor's own
    whisper, possible under cupbearer-actor-duplicate ``whisper``)."""
    nr = len(game.cards.roles)
    if swap.seat_a == seat:
        given, taken = swap.card_a, swap.card_b
    elif swap.seat_b == seat:
        given, taken = swap.card_b, swap.card_a
    else:
        return False
    mine = list(display)
    mine.remove(given)
    mine.append(taken)
    return len({c % nr for c in mine}) < len(mine)


def careful_policy(game: Game, state: State, actions: list[Action], rng: random.Random) -> Action:
    """Avoid whispering when possible, otherwise choose uniformly.

    At a play decision it prefers the cards whose role is not yet in the player's display
    (round.end.whisper); at an exchange of display cards between players (a Cupbearer's
    swap) it prefers those that leave the actor's display without a repeated role
    (role.cupbearer). Among the preferred actions (or all actions, when none is preferred)
    it chooses uniformly at random.

    :returns: one of ``actions``.
    """
    d = state.decision
    pool: list[Action] = actions
    if d.kind == DecisionKind.PLAY and not d.forced:
        nr = len(game.cards.roles)
        shown = {c % nr for c in state.displays[d.player]}
        safe: list[Action] = [a for a in actions if isinstance(a, Play) and a.card % nr not in shown]
        pool = safe or actions
    elif any(isinstance(a, PickPair) for a in actions):  # display cards exchanged between players
        display = state.displays[d.player]
        safe = [a for a in actions if isinstance(a, PickPair) and not _whispers_after_swap(game, d.player, display, a)]
        pool = safe or actions
    return pool[int(rng.random() * len(pool))]


#: The policies ``palast simulate --policy`` offers, by name.
POLICIES: dict[str, Policy] = {"uniform": uniform_policy, "careful": careful_policy}
