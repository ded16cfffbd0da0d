"""Deliberately broken engines, each naming the invariant of ``spec/invariants.yaml`` that
must catch it. tests/test_live_invariants.py runs the state machine against each and expects
Hypothesis to find the failure.

Wherever the rule language can say the broken rule, the engine is a **data-only variant**
(:class:`DataVariant`): the unchanged engine plays a copy of the spec with one declaration
changed in memory (:mod:`proofs.variant`). The one left subclasses :class:`Game` and overrides one
attribute, because the invariant reads the same declaration the variant would change (whether
a banned role may be played), so a variant would move the invariant with it.
The engine itself is never edited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from palast.engine import Game
from palast.spec.load import Spec
from proofs.variant import apply_edit, spec_variant


def spec_with_logic(spec: Spec, rule_id: str, key: str, value: object) -> Spec:
    """A copy of ``spec`` whose rule ``rule_id`` declares ``key`` of its logic block as
    ``value``: a broken rule written as data, run by the unchanged engine."""
    return apply_edit(spec, {"logic": rule_id, "key": key, "value": value})


class DataVariant(Game):
    """A game of the spec with :attr:`edits` applied and :attr:`readings` read otherwise
    (a data-only variant). :attr:`base_spec` and :attr:`base_ruleset` are the spec and
    ruleset it was asked for: what palast itself plays (tests/stateful/failures.py prints a
    failure for them)."""

    catches: ClassVar[str]
    edits: ClassVar[tuple[Mapping[str, Any], ...]] = ()
    readings: ClassVar[Mapping[str, str]] = {}

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        self.base_spec, self.base_ruleset = spec, ruleset
        variant, rs = spec_variant(spec, self.edits, ruleset, self.readings, name=f"{ruleset}-broken")
        super().__init__(variant, rs, players, check=check)


class GuardTakesItselfBack(DataVariant):
    """The Guard may take back the Guard just played (role.guard says another card): the
    house reading itself-too of guard-other-card."""

    catches = "round-progress"
    readings: ClassVar[Mapping[str, str]] = {"guard-other-card": "itself-too"}


class WhispererScores(DataVariant):
    """After a whisper the whisperer scores too (round.end.whisper: everyone else scores)."""

    catches = "scores-rise-slowly"
    edits = ({"logic": "round.end.whisper", "key": "scorers", "value": "players"},)


class GreyIgnoresTies(DataVariant):
    """After a neutral card, a tie for fewest cards goes to the first tied seat without the
    player who played choosing (turn.next.neutral-tie: the reading player-who-played is
    declared as the seat-order one)."""

    catches = "next-player"
    edits = ({"logic": "turn.next.neutral-tie", "key": ["readings", "player-who-played"],
              "value": {"let": {"next": "first(lowest)"}}},)


class ColourIgnored(DataVariant):
    """After a coloured card the turn passes to the first other seat instead of the card's
    colour (turn.next.colour)."""

    catches = "next-player"
    edits = ({"logic": "turn.next.colour", "key": ["let", "next"], "value": "first(others(actor))"},)


class MutedRoleActs(DataVariant):
    """A banned role's card carries out its action (king.mute's statements apply the role's
    action)."""

    catches = "muted-card-does-nothing"
    edits = ({"logic": "king.mute", "key": "do", "value": [{"step": "role-action"}]},)


class MarshalCanBeBanned(DataVariant):
    """A King card names the Marshal (spec/game.yaml king_cards, for the Treasurer), so a
    Marshal's reveal can ban the Marshal itself (king.reveal, B.role.hofmarschall)."""

    catches = "banned-role"
    edits = ({"game": ["king_cards", "roles"], "value": ["marshal", "wizard", "maid", "cupbearer", "guard",
                                                           "jester"]},)


class SwapIgnoresDuplicates(DataVariant):
    """A Cupbearer swap may give another player a repeated role (role.cupbearer forbids it):
    the swaps' condition keeps all but its two conditions on the other player's display (the
    Cupbearer just played stays put, the scope holds, the actor's own display is as the
    reading says)."""

    catches = "no-repeated-role"
    edits = ({"logic": "role.cupbearer", "key": ["let", "swaps", "where"],
              "value": "not (a == actor and x == card and occurrences(display(a), x) == 1)"
                       " and not (b == actor and y == card and occurrences(display(b), y) == 1)"
                       " and (any_two or a == actor or b == actor)"
                       " and (role(x) == role(y) or role(y) not in roles(display(a)) or a != actor"
                       " or actor_may_repeat)"
                       " and (role(x) == role(y) or role(x) not in roles(display(b)) or b != actor"
                       " or actor_may_repeat)"},)


class MaidDoesNotDraw(DataVariant):
    """The Maid discards but draws nothing although the draw deck holds cards (role.maid:
    its part draw is empty)."""

    catches = "hand-plus-display"
    edits = ({"logic": "role.maid", "key": ["parts", "draw"], "value": []},)


class BannedJesterPlayable(DataVariant):
    """A banned Jester may be played like any other card: king.jester, the exception of
    turn.play that keeps a banned Jester out of the cards a player may play, never applies."""

    catches = "muted-card-does-nothing"
    edits = ({"logic": "king.jester", "key": "when", "value": "false"},)


MUTANTS: tuple[type[Game], ...] = (
    GuardTakesItselfBack, SwapIgnoresDuplicates, MaidDoesNotDraw, WhispererScores, GreyIgnoresTies,
    ColourIgnored, MutedRoleActs, BannedJesterPlayable, MarshalCanBeBanned,
)
