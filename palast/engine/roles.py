"""Refusing an action: which action each decision waits for, and the error that says so.

:class:`RoleActions` is mixed into :class:`palast.engine.game.Game`.
"""

from __future__ import annotations

from collections.abc import Sequence

from palast.engine.actions import (
    ANSWERS,
    Choice,
    Count,
    Deal,
    Discard,
    Draw,
    Give,
    Marks,
    NextPlayer,
    Partner,
    Play,
    Reveal,
    Swap,
    TakeBack,
)
from palast.engine.core import GameCore
from palast.engine.state import Decision
from palast.errors import IllegalActionError
from palast.spec.load import Spec

#: The notation verb of each action type (for messages).
VERB: dict[type, str] = {
    Play: "play", Partner: "partner", Count: "count", Give: "give", Discard: "discard", Swap: "swap",
    TakeBack: "take-back", NextPlayer: "next", Deal: "deal", Draw: "draw", Reveal: "reveal", Marks: "marks",
    Choice: "choice",
}


class RoleActions(GameCore):
    """What :class:`~palast.engine.game.Game` adds to the core for decisions: why an action
    is refused. The roles' actions themselves are declared in ``spec/roles.yaml`` and carried
    out by :class:`~palast.engine.blocks.Runner`.

    Takes the arguments of :class:`~palast.engine.core.GameCore`.
    """

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        super().__init__(spec, ruleset, players, check=check)
        ids = range(len(self.cards.colours) * self._nr)  # every card id, seated or not
        self._next_actions: tuple[NextPlayer, ...] = tuple(NextPlayer(s) for s in range(self.n))
        self._draw_actions: tuple[Draw, ...] = tuple(Draw(c) for c in ids)
        self._reveal_actions: tuple[Reveal, ...] = tuple(Reveal(r) for r in range(self._nr))

    # ------------------------------------------------------------------ refusals
    def refusal(self, dec: Decision, action: object, state: object = None) -> IllegalActionError:
        """The error for an ``action`` of a kind ``dec`` does not wait for: it says which
        action is due (``"a draw is due, not a play: ..."``) and what the decision is about
        (``spec/flow.yaml``, the roles' choices), with the clause ids of the rule that waits
        for the decision (whose statements opened it; for a decision that names none, as in a
        position built from a scenario, the rule of ``state`` that waits for it), never of
        the action refused or of the role played last."""
        expected = ANSWERS.get(dec.kind.value)
        got = VERB.get(type(action), type(action).__name__)
        declared = self.spec.flow.decisions.get(dec.kind.value)
        what = (declared.what or declared.statement) if declared is not None else dec.kind.value
        who = self.colour_name(dec.player) if dec.player >= 0 else ""
        if dec.is_chance:
            what = f"{who} waits for {what}" if who else f"chance gives {what}"
        else:
            what = f"{who} chooses {what}"
        r = self.runner.resume_of(dec, state)
        clauses = self.rule_clauses(r.rule) if r is not None else ()
        verb = VERB.get(expected, dec.kind.value) if expected is not None else dec.kind.value
        return IllegalActionError(f"a {verb} is due, not a {got}: {what}", clauses)
