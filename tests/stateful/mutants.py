"""Deliberately broken engines, each naming the invariant of ``spec/invariants.yaml`` that
must catch it. tests/test_live_invariants.py runs the state machine against each and expects
Hypothesis to find the failure.

Wherever the rule language can say the broken rule, the engine is a **data-only variant**
(:class:`DataVariant`): the unchanged engine plays a copy of the spec with one declaration
changed in memory (:mod:`proofs.variant`). The rest subclass :class:`Game` and override one
method, because the rule they break is not declared in the rule language yet (the Cupbearer's
swap, the Maid's draw), or because the invariant reads the same declaration the variant would
change (whether a banned role may be played), so a variant would move the invariant with it.
The engine itself is never edited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from palast.engine import Game, Swap
from palast.engine.draft import Draft, remove_one
from palast.spec import Spec
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
              "value": {"next": "first(lowest)"}},)


class ColourIgnored(DataVariant):
    """After a coloured card the turn passes to the first other seat instead of the card's
    colour (turn.next.colour)."""

    catches = "next-player"
    edits = ({"logic": "turn.next.colour", "key": "next", "value": "first(others(actor))"},)


class MutedRoleActs(DataVariant):
    """A banned role's card carries out its action (king.mute carries out)."""

    catches = "muted-card-does-nothing"
    edits = ({"logic": "king.mute", "key": "carry_out", "value": True},)


class MarshalCanBeBanned(DataVariant):
    """A King card names the Marshal (spec/game.yaml king_cards, for the Treasurer), so a
    Marshal's reveal can ban the Marshal itself (king.reveal, B.role.hofmarschall)."""

    catches = "banned-role"
    edits = ({"game": ["king_cards", "roles"], "value": ["marshal", "wizard", "maid", "cupbearer", "guard",
                                                           "jester"]},)


class SwapIgnoresDuplicates(Game):
    """A Cupbearer swap may give another player a repeated role (role.cupbearer forbids it).
    Code: the Cupbearer's swap is not declared in the rule language yet."""

    catches = "no-repeated-role"

    def legal_swaps(self, displays: Sequence[tuple[int, ...]], p: int, last_card: int) -> list[Swap]:
        pairs = self._pairs_any if self.params["cupbearer.scope"].value == "any-two" else self._pairs_with[p]
        cand = [sorted(set(remove_one(d, last_card) if s == p and last_card in d else d))
                for s, d in enumerate(displays)]
        return [Swap(a, ca, b, cb) for a, b in pairs for ca in cand[a] for cb in cand[b]]


class MaidDoesNotDraw(Game):
    """The Maid discards but draws nothing although the draw deck holds cards (role.maid).
    Code: the Maid's draw is not declared in the rule language yet."""

    catches = "hand-plus-display"

    def _discard_and_draw(self, d: Draft, p: int, card: int) -> None:
        d.hands[p] = remove_one(d.hands[p], card)
        d.discard = d.discard + (card,)
        self.emit(d, "card_discarded", "role.maid", player=p, card=card)
        self.after_action(d)


class BannedJesterPlayable(Game):
    """A banned Jester may be played like any other card (king.jester). Code, not data:
    muted-card-does-nothing reads the spec's playable_when_banned flag itself, so a variant
    of that flag would change the invariant along with the rule."""

    catches = "muted-card-does-nothing"

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        super().__init__(spec, ruleset, players, check=check)
        self.playable_when_banned = tuple(True for _ in self.playable_when_banned)


MUTANTS: tuple[type[Game], ...] = (
    GuardTakesItselfBack, SwapIgnoresDuplicates, MaidDoesNotDraw, WhispererScores, GreyIgnoresTies,
    ColourIgnored, MutedRoleActs, BannedJesterPlayable, MarshalCanBeBanned,
)
