"""Refusing an action: which action each decision waits for, and the error that says so.

:class:`RoleActions` is mixed into :class:`palast.engine.game.Game`.
"""

from __future__ import annotations

from palast.engine.core import GameCore
from palast.engine.state import Decision
from palast.errors import IllegalActionError


class RoleActions(GameCore):
    """What :class:`~palast.engine.game.Game` adds to the core for decisions: why an action
    is refused. The roles' actions themselves are declared in ``spec/roles.yaml`` and carried
    out by :class:`~palast.engine.blocks.Runner`.

    Takes the arguments of :class:`~palast.engine.core.GameCore`.
    """

    # ------------------------------------------------------------------ refusals
    def refusal(self, dec: Decision, action: object, state: object = None) -> IllegalActionError:
        """The error for an ``action`` of a kind ``dec`` does not wait for: it says which
        action is due, by the verbs of the notation (``"a 'draw' action is due, not a 'play'
        action: ..."``), and what the decision is about (``spec/flow.yaml``, the roles'
        choices), with the clause ids of the rule that waits
        for the decision (whose statements opened it; for a decision that names none, as in a
        position built from a scenario, the rule of ``state`` that waits for it), never of
        the action refused or of the role played last."""
        got = self.answers.verb_of(action)
        declared = self.spec.flow.decisions.get(dec.kind)
        what = (declared.what or declared.statement) if declared is not None else dec.kind
        who = self.colour_name(dec.player) if dec.player >= 0 else ""
        if dec.is_chance:
            what = f"{who} waits for {what}" if who else f"chance gives {what}"
        else:
            what = f"{who} chooses {what}"
        r = self.runner.resume_of(dec, state)
        clauses = self.rule_clauses(r.rule) if r is not None else ()
        verb = declared.verb if declared is not None and declared.verb else dec.kind
        return IllegalActionError(f"a {verb!r} action is due, not a {got!r} action: {what}", clauses)
