"""Deliberately broken engines: each subclasses :class:`Game` and overrides one method so
that one rule is broken, and names the invariant of ``spec/invariants.yaml`` that must
catch it. The engine itself is never edited. tests/test_live_invariants.py runs the state
machine against each and expects Hypothesis to find the failure.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace

from palast.engine import Action, Game, Play, Swap
from palast.engine.draft import Draft, remove_one
from palast.engine.state import Decision, State
from palast.spec import Spec
from palast.yamlio import Document


def spec_with_logic(spec: Spec, rule_id: str, key: str, value: object) -> Spec:
    """A copy of ``spec`` whose rule ``rule_id`` (in spec/rules.yaml) declares ``key`` of its
    logic block as ``value``: a broken rule written as data, run by the unchanged engine."""
    docs = dict(spec.documents)
    data = copy.deepcopy(docs["rules.yaml"].data)
    for rule in data["rules"]:
        if rule["id"] == rule_id:
            rule["logic"][key] = value
    docs["rules.yaml"] = Document(data, docs["rules.yaml"].file, None)
    return replace(spec, documents=docs)


class GuardTakesItselfBack(Game):
    """The Guard may take back the Guard just played (role.guard says another card)."""

    catches = "round-progress"

    def _take_back_options(self, state: State | Draft) -> list[int]:
        return sorted(set(state.displays[state.actor]))


class SwapIgnoresDuplicates(Game):
    """A Cupbearer swap may give another player a repeated role (role.cupbearer forbids it)."""

    catches = "no-repeated-role"

    def legal_swaps(self, displays: Sequence[tuple[int, ...]], p: int, last_card: int) -> list[Swap]:
        pairs = self._pairs_any if self.params["cupbearer.scope"].value == "any-two" else self._pairs_with[p]
        cand = [sorted(set(remove_one(d, last_card) if s == p and last_card in d else d))
                for s, d in enumerate(displays)]
        return [Swap(a, ca, b, cb) for a, b in pairs for ca in cand[a] for cb in cand[b]]


class MaidDoesNotDraw(Game):
    """The Maid discards but draws nothing although the draw deck holds cards (role.maid)."""

    catches = "hand-plus-display"

    def _discard_and_draw(self, d: Draft, p: int, card: int) -> None:
        d.hands[p] = remove_one(d.hands[p], card)
        d.discard = d.discard + (card,)
        self.emit(d, "card_discarded", "role.maid", player=p, card=card)
        self.after_action(d)


class WhispererScores(Game):
    """After a whisper the whisperer scores too (round.end.whisper: everyone else scores)."""

    catches = "scores-rise-slowly"

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        # a rule variant in data only: the whisper's scorers are every player
        super().__init__(spec_with_logic(spec, "round.end.whisper", "scorers", "players"), ruleset, players,
                         check=check)


class GreyIgnoresTies(Game):
    """After a neutral card, a tie for fewest cards goes to the first tied seat without the
    player who played choosing (turn.next.neutral-tie, under player-who-played)."""

    catches = "next-player"

    def after_action(self, d: Draft) -> None:
        super().after_action(d)
        dec = d.decision
        if dec.kind.value == "next-player":
            self.enter_play(d, dec.options[0])


class ColourIgnored(Game):
    """After a coloured card the turn passes to the next seat instead of the card's colour
    (turn.next.colour)."""

    catches = "next-player"

    def after_action(self, d: Draft) -> None:
        if d.last_card // self._nr != self._neutral:
            self.enter_play(d, (d.actor + 1) % self.n)
            return
        super().after_action(d)


class MutedRoleActs(Game):
    """A banned role's card carries out its action (king.mute)."""

    catches = "muted-card-does-nothing"

    def _apply_play(self, d: Draft, dec: Decision, action: Action) -> None:
        banned = d.king_in_force
        if isinstance(action, Play) and banned >= 0 and action.card % self._nr == banned \
                and self.playable_when_banned[banned]:
            d.king_in_force = -1
            try:
                super()._apply_play(d, dec, action)
            finally:
                d.king_in_force = banned
            return
        super()._apply_play(d, dec, action)


class BannedJesterPlayable(Game):
    """A banned Jester may be played like any other card (king.jester)."""

    catches = "muted-card-does-nothing"

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        super().__init__(spec, ruleset, players, check=check)
        self.playable_when_banned = tuple(True for _ in self.playable_when_banned)


class MarshalCanBeBanned(Game):
    """A King card revealed by a Marshal bans the Marshal itself (king.reveal, B.role.hofmarschall)."""

    catches = "banned-role"

    def set_king(self, d: Draft, p: int, role: int) -> None:
        super().set_king(d, p, role)
        d.king_in_force = self.action_kind.index("reveal-king")


MUTANTS: tuple[type[Game], ...] = (
    GuardTakesItselfBack, SwapIgnoresDuplicates, MaidDoesNotDraw, WhispererScores, GreyIgnoresTies,
    ColourIgnored, MutedRoleActs, BannedJesterPlayable, MarshalCanBeBanned,
)
