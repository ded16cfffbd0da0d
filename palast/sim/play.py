"""Seeded games: play a whole game with a policy and report every action and event.

A game depends only on the seed: chance actions and the policy's choices both draw from
one ``random.Random(seed)``, so the same seed and ruleset give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from palast.engine.actions import Action
from palast.engine.game import Game, Step
from palast.engine.state import State

#: A policy: given the game, the position, its legal actions and the random source,
#: return one of the legal actions.
Policy = Callable[[Game, State, list[Action], random.Random], Action]


def uniform_policy(game: Game, state: State, actions: list[Action], rng: random.Random) -> Action:
    """Choose uniformly at random among the legal actions."""
    return actions[int(rng.random() * len(actions))]


@dataclass(frozen=True)
class Move:
    """One action of a played game: the state before it, the action and its step."""

    before: State
    action: Action
    step: Step
    chance: bool


def play_moves(game: Game, seed: int, policy: Policy = uniform_policy, *,
               max_actions: int = 100_000, deck_order: bool = True) -> Iterator[Move]:
    """Play a game from the first deal until it ends or stops at a rule gap.

    :param game: the game (ruleset, seats; check mode as configured).
    :param seed: the seed of the only random source used.
    :param policy: chooses every non-chance action.
    :param max_actions: a safety bound; :raises RuntimeError: if it is reached.
    :param deck_order: deals fix the draw deck's order (default); with ``False`` the order
        stays unknown and every Maid's draw is a chance action of its own.
    :returns: an iterator of :class:`Move`, in order.
    """
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(max_actions):
        if state.is_terminal:
            return
        chance = state.decision.is_chance
        action = (game.sample_chance(state, rng, deck_order=deck_order) if chance
                  else policy(game, state, game.legal_actions(state), rng))
        step = game.apply(state, action)
        yield Move(state, action, step, chance)
        state = step.state
    raise RuntimeError(f"the game did not end within {max_actions} actions")


def play_game(game: Game, seed: int, policy: Policy = uniform_policy) -> State:
    """Play a whole seeded game and return its final state."""
    state = game.initial_state()
    for move in play_moves(game, seed, policy):
        state = move.step.state
    return state
