"""Options built from parts (``each``) in Z3, without listing every combination.

An ``each`` expression (the rule language's options built from parts, e.g. a swap's two
seats and two cards) has as many combinations as the product of its parts' sizes: two
displays of a card-level position give every pair of card kinds. Listing them all and
joining their conditions makes a term that grows with that product. Two questions need
less, and :mod:`proofs.lang_z3` asks them here:

* **is this tuple an option** (:func:`holds`): each part's value is tested against its
  collection, computed with the values before it, and every ``where`` condition on the
  values: one term, of the size of the conditions, made once per seat for a part of seats
  whose value is not known (so that what follows reads a known seat's zones);
* **is there an option** (:func:`some`): the parts are enumerated, but each condition is
  tested at the part that binds the last name it reads (so a combination fails as soon as
  it can), and a part of card kinds whose later conditions and collections read it only
  through ``role(...)`` is enumerated by role (:class:`RoleOnly`): for each role, whether
  some card kind of that role is there and passes the conditions that need the card itself.
  The two are the same existence question, since nothing after the part can tell two
  card kinds of one role apart.

Neither depends on a rule: they are the meaning of ``each`` for any declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from palast.lang.primitives import ELEMENT
from palast.lang.syntax import Node, each_conditions, each_parts, names
from proofs.z3_values import Coll, NotCompiled, _and, _eq, _or, _positive

if TYPE_CHECKING:
    from proofs.lang_z3 import Z3Back


class RoleOnly:
    """A card part enumerated by role (see the module docstring): only ``role(...)`` of it
    has a value, the role."""

    __slots__ = ("role",)

    def __init__(self, role: int) -> None:
        self.role = role


#: one per role, so that the compiler's memo (keyed by the values' ids) finds them again
_ROLES: dict[int, RoleOnly] = {}


def role_only(role: int) -> RoleOnly:
    """The :class:`RoleOnly` of ``role`` (one object per role)."""
    got = _ROLES.get(role)
    if got is None:
        got = _ROLES[role] = RoleOnly(role)
    return got


def only_through_role(node: Node, name: str) -> bool:
    """True if every use of ``name`` in ``node`` is the argument of ``role(...)``."""
    if node.op == "name":
        return str(node.value) != name
    if node.op == "call" and node.value == "role" and len(node.args) == 1 and node.args[0].op == "name":
        return True
    return all(only_through_role(a, name) for a in node.args)


def _collection(back: Z3Back, coll: Node, env: Mapping[str, Any], kinds: Mapping[str, str]) -> Coll:
    c = back._value(coll, env, kinds)
    if not isinstance(c, Coll):
        raise NotCompiled("each over a range or over picks")
    return c


def holds(back: Z3Back, n: Node, env: Mapping[str, Any], kinds: Mapping[str, str], values: tuple[Any, ...]) -> Any:
    """The condition that ``values`` (one Z3 term or known number per part of the ``each``
    node ``n``) is one of its options, in the names ``env`` (of kinds ``kinds``).

    :raises NotCompiled: for a part over a range or over picks.
    :raises ValueError: when ``values`` has not one value per part.
    """
    parts = each_parts(n)
    conds = [c for c, _ in each_conditions(n)]

    def go(i: int, env: dict[str, Any], kinds: dict[str, str]) -> Any:
        if i == len(parts):
            return _and([back._value(c, env, kinds) for c in conds])
        (name, coll), v = parts[i], values[i]
        c = _collection(back, coll, env, kinds)
        inner = {**kinds, name: ELEMENT.get(c.kind, "any")}
        if c.kind == "seats" and not isinstance(v, int):  # few: one case per seat, the rest on a known seat
            return _or([_and([_eq(v, e), _positive(m), go(i + 1, {**env, name: e}, inner)]) for e, m in c.items])
        return _and([back.member(v, c), go(i + 1, {**env, name: v}, inner)])

    if len(values) != len(parts):
        raise ValueError(f"{len(values)} values for the {len(parts)} parts of an each")
    return go(0, dict(env), dict(kinds))


def some(back: Z3Back, n: Node, env: Mapping[str, Any], kinds: Mapping[str, str]) -> Any:
    """The condition that the ``each`` node ``n`` has an option, in the names ``env``.

    :raises NotCompiled: for a part over a range or over picks.
    """
    parts = each_parts(n)
    order = {name: i for i, (name, _) in enumerate(parts)}
    at: list[list[Node]] = [[] for _ in parts]  # each condition at the last part it reads
    free: list[Node] = []
    for c, _ in each_conditions(n):
        read = [order[x] for x in names(c) if x in order]
        (at[max(read)] if read else free).append(c)
    later = [[*(coll for _, coll in parts[i + 1:]), *(c for cs in at[i + 1:] for c in cs)] for i in range(len(parts))]
    by_role = [all(only_through_role(x, name) for x in later[i]) for i, (name, _) in enumerate(parts)]

    def go(i: int, env: dict[str, Any], kinds: dict[str, str]) -> Any:
        if i == len(parts):
            return True
        name, coll = parts[i]
        c = _collection(back, coll, env, kinds)
        inner = {**kinds, name: ELEMENT.get(c.kind, "any")}
        if by_role[i] and c.kind == "cards":
            card_conds = [x for x in at[i] if not only_through_role(x, name)]
            role_conds = [x for x in at[i] if only_through_role(x, name)]
            there: dict[int, list[Any]] = {}
            for e, m in c.items:
                ok = _and([_positive(m), *(back._value(x, {**env, name: e}, inner) for x in card_conds)])
                if ok is not False:
                    there.setdefault(back.lay.kinds[e].role, []).append(ok)
            out = []
            for r, oks in there.items():
                r_env = {**env, name: role_only(r)}
                here = _and([_or(oks), *(back._value(x, r_env, inner) for x in role_conds)])
                if here is not False:
                    out.append(_and([here, go(i + 1, r_env, inner)]))
            return _or(out)
        out = []
        for e, m in c.items:
            e_env = {**env, name: e}
            here = _and([_positive(m), *(back._value(x, e_env, inner) for x in at[i])])
            if here is not False:
                out.append(_and([here, go(i + 1, e_env, inner)]))
        return _or(out)

    return _and([*(back._value(x, env, kinds) for x in free), go(0, dict(env), dict(kinds))])
