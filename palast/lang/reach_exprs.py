"""The conditions of the reachability questions of ``spec/invariants.yaml`` (``reaches``,
and a witness search's ``rounds_before``): rule-language expressions about the position an
action reaches, checked by ``palast spec check``, evaluated by the engine on a stored
witness (:mod:`palast.invariants.reach`) and compiled to Z3 as the search's goal
(``proofs.lang_z3``). Clauses: those of each question.
"""

from __future__ import annotations

from typing import Any

from palast.lang.compiler import check
from palast.lang.invariant_exprs import (
    Problem,
    constant_kinds,
    expression_problem,
    old_in_old,
    order_problem,
    uses_old,
)
from palast.lang.kinds import infer
from palast.lang.syntax import ExpressionError, parse


def condition_problem(spec: Any, path: tuple[str | int, ...], text: str, *, step: bool,
                      z3: bool = True) -> Problem | None:
    """What is wrong with the condition ``text`` at ``path``: it does not parse, uses an
    unknown name, is not a condition, reads ``old(...)`` where ``step`` is false (a
    condition on one position) or inside another ``old``, or, where ``z3`` (Z3 compiles it
    too), reads the order cards lie in (:func:`order_problem`); ``None`` when nothing is."""
    try:
        node = parse(text)
        kinds = constant_kinds(spec)
        check(node, kinds)
        if not step:
            at = uses_old(node)
            if at is not None:
                raise ExpressionError("old(...) reads the position before an action: a condition on one "
                                      "position has none", at)
        order = order_problem(node, kinds) if z3 else None
        if order is not None:
            raise order
        inner = old_in_old(node)
        if inner is not None:
            raise ExpressionError("old(...) inside old(...): the position before an action has no before", inner)
        got = infer(node, {}, kinds)
        if got not in ("bool", "any"):
            raise ExpressionError(f"must be a condition, not {got}", 1)
    except ExpressionError as exc:
        return expression_problem(path, exc, text)
    return None


def reach_problems(spec: Any) -> list[Problem]:
    """The problems of the conditions of ``spec``'s reachability questions, as the file
    lists them: ``reaches`` and a witness's ``rounds_before`` (about an action: ``old(...)``
    allowed) and its ``until`` (about one position).

    :returns: one :class:`Problem` per condition that is wrong, with the key path in
        ``spec/invariants.yaml``.
    """
    out: list[Problem] = []
    for i, entry in enumerate(spec.documents["invariants.yaml"].data.get("reachability") or []):
        texts: list[tuple[tuple[str | int, ...], str, bool]] = []
        if "reaches" in entry:
            texts.append((("reachability", i, "reaches"), entry["reaches"], True))
        for j, w in enumerate(entry.get("witnesses") or []):
            rb = w.get("rounds_before")
            if rb:
                where: tuple[str | int, ...] = ("reachability", i, "witnesses", j, "rounds_before")
                texts += [((*where, "reaches"), rb["reaches"], True), ((*where, "until"), rb["until"], False)]
        for path, text, step in texts:
            # a search's until is only evaluated by the engine, on the position it reached
            problem = condition_problem(spec, path, text, step=step, z3=path[-1] != "until")
            if problem is not None:
                out.append(problem)
    return out
