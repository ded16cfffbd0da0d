"""No vacuous invariant (obligations ``non-vacuous:<invariant>``, one per invariant of
``spec/invariants.yaml``).

An invariant that nothing can violate proves nothing. For each invariant,
``proofs/violations/<invariant>.yaml`` stores a case that breaks it (:mod:`proofs.violation`):
a scenario, a data-only rule variant or a broken state. Its obligation passes, with the
result ``counterexample``, only when

1. the engine's check mode rejects the case's last action for exactly that invariant
   (:func:`proofs.violation.engine_verdict`), and
2. the Z3 predicate that the invariant's proof obligation proves (:data:`Z3_FORMS`) is
   false on the encoded position after that action (:func:`proofs.concrete.abstract`),
   and, for a state predicate, true on the position before it, so the action (or the
   tamper) is what breaks it; a step claim is evaluated on the pair.

Where a checker accepts the stored case the result is ``no-such-state`` (no stored state
violates the invariant) and the obligation fails; a missing or unreadable file is an
``error``. An invariant with no Z3 predicate in proofs/ yet (:func:`z3_form` gives
``None``) is checked by the engine alone, and the detail line says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import z3

import proofs.can_act_meaning  # noqa: F401  (gives can_act its Z3 meaning, proofs.lang_z3.PROVIDED)
from palast.errors import InputError
from palast.spec.load import Spec
from proofs.concrete import abstract
from proofs.encoding import Layout, ZState, field_names
from proofs.obligation import Obligation, Options, Outcome
from proofs.violation import Replay, engine_verdict, load_violation, replay, violation_path

FAMILY = "nonvacuous"
PREFIX = "non-vacuous:"
StatePredicate = Callable[[ZState], Any]
StepClaim = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Pair:
    """The two positions of one action as a step claim reads them (the attributes of
    :class:`proofs.invariant.Context` a claim uses): ``s`` before, ``t`` after."""

    lay: Layout
    s: ZState
    t: ZState


def z3_forms(spec: Any = None) -> dict[str, tuple[str, Callable[..., Any]]]:
    """The Z3 form of each invariant that has one: ``("state", predicate)`` or ``("step",
    claim)``, the formula the invariant's obligation proves. A state invariant's is its
    declaration (``holds`` in spec/invariants.yaml, with its lemmas) compiled by
    :mod:`proofs.lang_z3`, and so is every step invariant's (issue 14, point 2)."""
    from palast.spec.load import cached_spec
    from proofs.declared_z3 import declared

    spec = spec if spec is not None else cached_spec()
    forms: dict[str, tuple[str, Callable[..., Any]]] = {}
    for inv in spec.invariants.values():
        if inv.holds is None:
            continue
        ids = [inv.id, *(lem.id for lem in inv.lemmas)]
        if inv.kind == "step":
            def step_form(pair: Any, kind: Any, name: str = inv.id) -> Any:
                return declared(pair.t, name, pair.s)

            step_form.__module__, step_form.__name__ = "spec/invariants.yaml", f"holds of {inv.id}"
            forms[inv.id] = ("step", step_form)
            continue

        def form(s: ZState, ids: list[str] = ids) -> Any:
            return z3.And([declared(s, i) for i in ids])

        form.__module__, form.__name__ = "spec/invariants.yaml", f"holds of {' and '.join(ids)}"
        forms[inv.id] = ("state", form)
    return forms


#: The encoding level each invariant is proved at where it is not the role level.
LEVELS = {"card-conservation": "card", "next-player": "card"}
#: Overrides of :func:`z3_forms` (tests replace a form in memory here).
Z3_FORMS: dict[str, tuple[str, Callable[..., Any]] | None] = {}


def z3_form(invariant: str, spec: Any = None) -> tuple[str, Callable[..., Any]] | None:
    """The Z3 form of ``invariant`` in ``spec`` (default: the installed spec) —
    :data:`Z3_FORMS` first, then :func:`z3_forms` — or ``None`` when proofs/ has none yet."""
    if invariant in Z3_FORMS:
        return Z3_FORMS[invariant]
    return z3_forms(spec).get(invariant)


def constant_state(lay: Layout, values: dict[str, int | bool]) -> ZState:
    """A position of Z3 constants with the field ``values`` (see :func:`proofs.concrete.abstract`)."""
    f = {name: (z3.BoolVal(bool(values[name])) if sort == "bool" else z3.IntVal(int(values[name])))
         for name, sort in field_names(lay)}
    return ZState(lay, f)


def truth(formula: Any) -> bool:
    """The value of a closed Z3 ``formula`` (simplified; else decided by a solver)."""
    e = z3.simplify(formula)
    if z3.is_true(e):
        return True
    if z3.is_false(e):
        return False
    from proofs.obligation import check, solver

    return check(solver(), e)


def z3_verdict(invariant: str, r: Replay) -> tuple[bool | None, str]:
    """Whether the Z3 form of ``invariant`` refutes the replayed case.

    :returns: ``(True, ...)`` when the form is false after the last action (and a state
        predicate true before it), ``(False, why not)`` otherwise, ``(None, ...)`` when the
        invariant has no Z3 form.
    """
    form = z3_form(invariant, r.game.spec)
    if form is None:
        return None, "Z3: proofs/ has no predicate of this invariant yet, so the engine alone checked it"
    kind, fn = form
    lay = Layout(r.game, LEVELS.get(invariant, "role"))
    s = constant_state(lay, abstract(lay, r.before))
    t = constant_state(lay, abstract(lay, r.after))
    name = f"{getattr(fn, '__module__', '')}.{getattr(fn, '__name__', 'predicate')}".lstrip(".")
    if kind == "step":
        if truth(fn(Pair(lay, s, t), r.before.decision.kind)):
            return False, f"Z3: {name} holds on the stored action"
        return True, f"Z3: {name} is false on the stored action"
    if not truth(fn(s)):
        return False, f"Z3: {name} is false already before the last action"
    if truth(fn(t)):
        return False, f"Z3: {name} holds after the last action"
    return True, f"Z3: {name} holds before the last action and is false after it"


def check_invariant(spec: Spec, invariant: str, directory: Path | None = None) -> Outcome:
    """Run ``invariant``'s non-vacuity check on its stored violation.

    :param directory: where the violation files are (default ``proofs/violations``).
    :returns: ``counterexample`` when both checkers reject the case, ``no-such-state``
        when one accepts it, ``error`` for a missing or bad file (or a case the engine
        rejects for its invariant and for others the file does not list under ``also``).
    """
    path = violation_path(invariant, directory)
    if not path.exists():
        return Outcome("error", f"no stored violation: {path.name} is missing")
    try:
        v = load_violation(path, spec)
        if v.invariant != invariant:
            return Outcome("error", f"{path.name} names the invariant {v.invariant}")
        r = replay(v, spec)
    except InputError as exc:
        return Outcome("error", exc.render())
    rel = f"proofs/violations/{path.name}"
    ok, said = engine_verdict(v, r)
    if not ok:
        if any(i == invariant or i in _lemmas(spec, invariant) for i, _ in r.problems):
            # the engine rejects the case for its invariant, and for others than the file says
            return Outcome("error", f"the engine rejects the stored violation for other invariants than the file "
                                    f"names (its also): {said}", (rel,))
        return Outcome("no-such-state", f"the engine accepts the stored violation: {said}", (rel,))
    z_ok, z_said = z3_verdict(invariant, r)
    if z_ok is False:
        return Outcome("no-such-state", f"Z3 accepts the stored violation: {z_said}; {said}", (rel,))
    return Outcome("counterexample", f"{said}; {z_said}", (rel,))


def _lemmas(spec: Spec, invariant: str) -> set[str]:
    inv = spec.invariants.get(invariant)
    return {lem.id for lem in inv.lemmas} if inv is not None else set()


def _run(spec: Spec, opts: Options, invariant: str) -> Outcome:
    return check_invariant(spec, invariant)


def _ruleset(spec: Spec, invariant: str) -> str:
    try:
        return load_violation(violation_path(invariant), spec).ruleset
    except InputError:
        return spec.default_ruleset


def obligations(spec: Spec) -> list[Obligation]:
    """One obligation per invariant of the spec, under the ruleset its violation names."""
    return [Obligation(f"{PREFIX}{inv}", _ruleset(spec, inv), "counterexample",
                       f"the stored violation of {inv} is rejected by the engine's check mode and by Z3",
                       partial(_run, invariant=inv), FAMILY, (), cost=0.1)
            for inv in spec.invariants]
