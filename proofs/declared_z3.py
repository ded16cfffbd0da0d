"""The Z3 terms of the properties declared in ``spec/invariants.yaml`` (an invariant's
``holds``, a lemma, a lemma's ``colours`` part) on a symbolic position, compiled by
:class:`proofs.lang_z3.Z3Back` from the same parsed expressions the engine's check mode
evaluates, and kept per position so a proof that asks for one several times compiles it
once.
"""

from __future__ import annotations

import weakref
from typing import Any

from palast.lang.syntax import Node
from proofs.encoding import ZState
from proofs.lang_z3 import Z3Back
from proofs.z3_values import NotCompiled, _b

_PARSED: dict[tuple[int, tuple[str, ...], bool], tuple[Any, dict[str, Node]]] = {}
#: compiled terms per symbolic position, by property and the position's field terms (a
#: proof asks for the same property of the same position once per case it checks)
_TERMS: weakref.WeakKeyDictionary[ZState, dict[tuple[str, tuple[int, ...], tuple[int, ...]], Any]] = (
    weakref.WeakKeyDictionary())


def colours_part(s: ZState, prop_id: str) -> Any:
    """The Z3 term of the ``colours`` part alone of the lemma ``prop_id`` on ``s`` (a
    card-level position: only the card level knows colours), ``True`` for a lemma without
    one.

    :raises KeyError: when the spec declares no such lemma.
    :raises NotCompiled: at the role level, or for a primitive without a Z3 meaning.
    """
    from palast.lang.invariant_exprs import declared as all_declared

    if s.lay.level == "role":
        raise NotCompiled("colours are forgotten at the role level: a colours part is proved at the card level")
    prop = next(p for p in all_declared(s.lay.game.spec) if p.id == prop_id)
    if prop.colourless is None:
        return True
    return _b(Z3Back(s).compile(prop.node.args[1]))


def declared(s: ZState, prop_id: str, before: ZState | None = None) -> Any:
    """The Z3 term of the declared property ``prop_id`` (an invariant's ``holds`` or a
    lemma of ``spec/invariants.yaml``) on ``s`` (for a step invariant: of the action from
    ``before`` to ``s``). At the role level, which forgets colours, a lemma's ``colours``
    part is left out: its ``holds`` alone is compiled.

    :raises KeyError: when the spec declares no such property.
    :raises NotCompiled: when it uses a primitive without a Z3 meaning.
    """
    from palast.lang.invariant_exprs import declared as all_declared

    lay = s.lay
    spec = lay.game.spec
    branches = tuple(lay.point_reading(str(inv.readings["point"])) for inv in spec.invariants.values()
                     if inv.readings)
    got = _PARSED.get((id(spec), branches, s.lay.level == "role"))
    if got is None or got[0] is not spec:
        # the role-level model forgets colours: a lemma's colours part is left to the card level
        role = s.lay.level == "role"
        got = _PARSED[id(spec), branches, role] = (spec, {
            p.id: p.colourless if role and p.colourless is not None else p.node
            for p in all_declared(spec, lay.point_reading)})
    key = (prop_id, tuple(map(id, s.f.values())), tuple(map(id, before.f.values())) if before is not None else ())
    terms = _TERMS.get(s)
    if terms is None:
        terms = _TERMS[s] = {}
    term = terms.get(key)
    if term is None:
        term = terms[key] = _b(Z3Back(s, before).compile(got[1][prop_id]))
    return term
