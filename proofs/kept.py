"""What a pending decision keeps, as the declarations say it must be: a part of the lemma
decisions-well-formed derived from the rules' ``choose`` statements instead of written per role.

A decision keeps values in its fields (``player``, ``partner``, ``count``, ``given``): the
``by`` and ``keep`` of the statement that opened it (spec/roles.yaml, spec/rules.yaml). Three
facts follow from the declarations alone, for every decision of the ruleset:

* a field the pending decision's statement keeps nothing in holds its "none" value (``-1``,
  or no card given);
* a kept name that is also read from the position (``actor``) equals it there: the
  decision was opened on this position's turn;
* a kept value that an earlier ``choose`` of the same rule chose (its ``as`` name) is one of
  that choice's options, computed on the position now, and every ``if`` on the way from it
  to the waiting statement took the branch that leads there; both only where no statement
  on the way changes the position (only ``emit`` and ``choose`` lie between), so the
  options are the same as when they were offered.

For the Wizard this says what was written by hand before (role.wizard, wizard-minimum): the
partner is an opponent holding at least the ruleset's least number of cards, the count is at
least one and at most either hand, the cards given are that many of the actor's hand, the
answering partner's ``partner`` field names the actor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import z3

from palast.engine.chains import kept_names
from palast.lang.primitives import PRIMITIVES
from palast.lang.statements import Stmt
from palast.lang.syntax import Node, parse
from proofs.encoding import Layout, ZState
from proofs.z3_values import Coll, NotCompiled, Picks, _b

if TYPE_CHECKING:
    from proofs.legality import Legality
    from proofs.resume_z3 import Waiting

#: Statements that leave the position as it was (a decision opened, an event told).
UNCHANGING = frozenset({"emit", "choose"})
#: The fields a decision keeps values in (besides its player), with their "none" value.
FIELDS = ("partner", "count", "given")


_LEGALITY: dict[int, tuple[Layout, Legality]] = {}


def legality_of(lay: Layout) -> Legality:
    """The :class:`~proofs.legality.Legality` of ``lay``, made once per layout."""
    from proofs.legality import Legality

    got = _LEGALITY.get(id(lay))
    if got is None or got[0] is not lay:
        got = _LEGALITY[id(lay)] = (lay, Legality(lay))
    return got[1]


def _unchanging(st: Stmt) -> bool:
    return st.head in UNCHANGING or (st.head == "if" and all(_unchanging(x) for b in st.blocks.values() for x in b))


def earlier(w: Waiting) -> tuple[list[Stmt], list[tuple[Node, bool]]]:
    """The ``choose`` statements carried out before the one ``w`` waits at, and the ``if``
    conditions on the way to it (each with the truth value of the branch taken), since the
    last statement that may change the position. A ``readings`` statement on the way adds
    no condition: the ruleset's reading is the branch that leads there.

    :raises NotCompiled: when the way passes through another statement (the branch taken
        is not known), rather than leave the lemma without the facts of this decision."""
    choices: list[Stmt] = []
    conds: list[tuple[Node, bool]] = []
    for i, f in enumerate(w.frames):
        for st in f.block[:f.index]:
            if st.head == "choose":
                choices.append(st)
            elif not _unchanging(st):
                choices.clear()
                conds.clear()
        if i + 1 == len(w.frames):
            break
        outer = f.block[f.index]
        inner = w.frames[i + 1].block
        branch = next((k for k, b in outer.blocks.items() if b is inner), None)
        if outer.head == "readings" and branch is not None:
            continue
        if outer.head != "if" or branch not in ("then", "else") or not isinstance(outer.arg, Node):
            raise NotCompiled(f"what the decision {w.stmt.arg} keeps: the way to it passes through a "
                              f"{outer.head} statement")
        conds.append((outer.arg, branch == "then"))
    return choices, conds


def _member(legality: Legality, options: Any, value: Any, nk: int) -> Any:
    if isinstance(options, Picks):
        if not isinstance(value, Coll):
            raise NotCompiled("a pick of cards kept as something other than cards")
        mult = dict(value.items)
        return options.holds([mult.get(k, 0) for k in range(nk)])
    return legality._member(options, value)


def kept_facts(legality: Legality, s: ZState, slots: tuple[str, ...] | None = None) -> list[Any]:
    """The conditions above for position ``s``, one ``Implies(decision pending, fact)`` per
    fact, over every decision kind a compiled statement waits for under the ruleset.

    :param legality: the legality conditions of ``s``'s layout (for its compiled statements).
    :param slots: only the facts about values kept in these fields (say ``("given",)``: the
        cards a decision holds), without the path conditions and "none" values of the
        others; ``None``: all of them.
    :raises NotCompiled: where an option or a condition has no Z3 meaning.
    """
    from proofs.resume_z3 import _what_it_offers

    nk = len(s.lay.kinds)
    dk = s["dk"]
    values = {"player": s["dp"], "partner": s["partner"], "count": s["count"]}
    keeps: dict[str, list[Any]] = {f: [] for f in FIELDS}
    out: list[Any] = []
    for kind, site, w in ((k, site, w) for k in s.lay.decisions for site, w in legality.sites(k)):
        if w.reading is not None and legality._reading(w.reading[0]) != w.reading[1]:
            continue
        code = s.lay.code(kind)
        pending = z3.And(dk == code, legality.at_site(s, site)) if site >= 0 else dk == code
        kept = kept_names(w.stmt, position_names=True)
        for _, slot in kept:
            if slot in keeps:
                keeps[slot].append(pending)
        chosen = set(dict(kept_names(w.stmt)))
        wanted = {name for name, slot in kept if slots is None or slot in slots}
        for name, slot in kept:  # a name read from the position: the decision keeps its value there
            if name in PRIMITIVES and name not in chosen and slot in values and name in wanted:
                out.append(z3.Implies(pending, values[slot] == legality._value(s, parse(name), {})))
        choices, conds = earlier(w)
        choices = [c for c in choices if str(c.keys.get("as", "")) in wanted]
        if slots is not None:
            conds = []
        if not choices and not conds:
            continue
        got = legality.choice_env(s, kind, reads=(*(_what_it_offers(c) for c in choices), *(c for c, _ in conds)),
                                  at=w)
        if got is None:
            continue
        _, env, _ = got
        facts = [_member(legality, legality._value(s, _what_it_offers(c), env), env[str(c.keys["as"])], nk)
                 for c in choices]
        for cond, holds in conds:
            term = _b(legality._value(s, cond, env))
            facts.append(term if holds else z3.Not(term))
        out.append(z3.Implies(pending, z3.And(facts)))
    for field, kinds in keeps.items():
        if slots is not None and field not in slots:
            continue
        none = (z3.And([s[f"g{k}"] == 0 for k in range(nk)]) if field == "given" else s[field] == -1)
        out.append(z3.Or(*kinds, none))
    return out
