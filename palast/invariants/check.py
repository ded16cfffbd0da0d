"""Checking the invariants of ``spec/invariants.yaml`` on positions and actions.

Every invariant, state or step, and every strengthening lemma is declared as a
rule-language expression in the spec (``holds``) and compiled by
:mod:`palast.invariants.declared`; nothing here restates one. This module evaluates them on a
position or an action for the engine's check mode and the tests, and holds the bounds the
stateful tests derive from them (:func:`round_action_bound`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from palast.engine.actions import Action
from palast.engine.events import Event
from palast.engine.state import DecisionKind, InvariantViolation, State
from palast.invariants.declared import checks

if TYPE_CHECKING:
    from palast.engine.game import Game

K = DecisionKind



def round_play_bound(game: Game) -> int:
    """The most plays a round can have (round-is-bounded): ``(six - 1 + 1) x players + 1``.

    A display holds at most ``six - 1`` cards and at most one Guard while the round runs, and
    every play that does not end the round raises cards displayed plus Guards displayed
    (round-progress), which start at zero; the play after that ends the round.
    """
    return (game.six - 1 + 1) * game.n + 1


def round_action_bound(game: Game) -> int:
    """The most actions a round can have, its deal included: ``1 + T x
    round_play_bound(game)``, where ``T`` is the most actions one turn can take by the
    declared flow (:meth:`palast.spec.flow.Flow.turn_actions_max`; turn-is-bounded and
    round-is-bounded together)."""
    return 1 + game.spec.flow.turn_actions_max() * round_play_bound(game)


def representation_problem(game: Game, s: State) -> str | None:
    """What is wrong with how ``s`` records cards whose place it does not fix (the engine's
    own bookkeeping, not a rule of the game): more hidden draw-deck or King-deck cards than
    unseen cards to draw them from. Reported under card-conservation."""
    if s.deck_hidden > len(s.unseen) or s.deck_hidden < 0:
        return f"{s.deck_hidden} hidden deck cards but only {len(s.unseen)} unseen cards"
    if s.king_hidden > len(s.king_unseen) or s.king_hidden < 0:
        return f"{s.king_hidden} hidden King cards but only {len(s.king_unseen)} unseen"
    return None


def state_problems(game: Game, s: State, *, lemmas: bool = False, refuted: bool = False) -> list[tuple[str, str]]:
    """Evaluate every declared state invariant on ``s`` (and, with ``lemmas``, every
    strengthening lemma after them), but those a rule module in play or a reading the game
    takes declares it breaks, and those the prove list of the game's house ruleset expects
    refuted (:func:`palast.invariants.declared.refuted_by_house`). Lemmas are not checked
    by default: a lemma holds in every position reachable from a deal (the proofs show it),
    but a constructed position need satisfy only the invariants (a scenario may say a
    player played more cards this round than their display shows).

    :param refuted: evaluate also what the house ruleset's prove list expects refuted, to
        replay a stored counterexample that shows one broken
        (``proofs.house_rulesets.replay_counterexample``).
    :returns: ``(id, message)`` for each failure; an invariant's id, or a lemma's.
    """
    out = []
    rep = representation_problem(game, s)
    if rep:
        out.append(("card-conservation", rep))
    c = checks(game)
    suspended = c.broken if refuted else c.suspended
    for prop in c.props:
        if prop.invariant in suspended or prop.id in suspended:
            continue
        if not prop.step and (lemmas or not prop.lemma) and not c.fns[prop.id](s):
            out.append((prop.id, c.why(prop, s)))
    return out


def step_problems(game: Game, before: State, action: Action, after: State,
                  events: Sequence[Event], *, refuted: bool = False) -> list[tuple[str, str]]:
    """Evaluate every invariant on one action: the state invariants on ``after``, then the
    step invariants; return ``(id, message)`` for each failure. (Lemmas and ``refuted``:
    see :func:`state_problems`.)"""
    out = state_problems(game, after, refuted=refuted)
    c = checks(game)
    suspended = c.broken if refuted else c.suspended
    for prop in c.props:
        if prop.step and prop.invariant not in suspended and prop.id not in suspended \
                and not c.fns[prop.id](after, before):
            out.append((prop.id, c.why(prop, after, before)))
    return out


def check_step(game: Game, before: State, action: Action, after: State, events: Sequence[Event]) -> None:
    """Raise :class:`~palast.engine.state.InvariantViolation` for the first failing invariant."""
    problems = step_problems(game, before, action, after, events)
    if problems:
        name, msg = problems[0]
        raise InvariantViolation(name, msg)
