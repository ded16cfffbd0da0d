"""Resuming play at a decision, for the rules' statements compiled to Z3
(:mod:`proofs.statements_z3`).

A statement that waits for a decision (``choose``, ``draw``) opens it and ends the term
there. The action that answers it resumes after that statement (:meth:`Resuming.resume`):
the rule that declares the statement is found in the spec (:meth:`Resuming.waiting`), the
names in scope there are computed again on the position (:meth:`Resuming.choice_env`) and
the names the decision keeps are read from its fields, as the engine does for a decision
that names no statement; then the rest of the statement lists it is nested in is carried
out, up to the end of the rule and on into the step that called it
(:meth:`Resuming.continuation`). Nothing here names a rule, a role or a reading.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import z3

from palast.engine.chains import Chain, effective, kept_names
from palast.engine.state import DecisionKind
from palast.lang.blocks import DoRule, each_of
from palast.lang.statements import Stmt, Zone, expressions, waits_for, walk
from palast.lang.syntax import Node, each_parts, names, parse
from proofs.encoding import ZState, merge
from proofs.statements_z3 import COMPILED_STEPS, Cont, Statements
from proofs.z3_values import Coll, NotCompiled, Tuples

if TYPE_CHECKING:
    from proofs.transition import Label

K = DecisionKind


@dataclass(frozen=True)
class Frame:
    """Where a statement list is inside the rule: the list, and the position in it."""

    block: tuple[Stmt, ...]
    index: int


@dataclass(frozen=True)
class Waiting:
    """The statement a decision waits at: the rule that declares it (``owner``), the
    rules it bends, outermost first (``chain``), the statement, the lists it is nested in
    (outermost first), and the part it is in (``None``: the rule's ``do``)."""

    owner: DoRule
    chain: tuple[DoRule, ...]
    stmt: Stmt
    frames: tuple[Frame, ...]
    part: str | None
    reading: tuple[str, str] | None


class Resuming(Statements):
    """:class:`~proofs.statements_z3.Statements` that also resume play at the decisions
    their statements open. Mixed into :class:`proofs.legality.Legality` (which reads the
    options of a waiting decision) and so into :class:`proofs.transition.Transition`."""

    def sites(self, kind: str, *, any_step: bool = False) -> list[tuple[int, Waiting]]:
        """Every statement of a compiled step that waits for ``kind`` under the ruleset's
        readings (the ``do`` and parts a reading taken gives, else the rule's own), each
        with its number among the layout's sites of ``kind`` (the value of field ``site``
        where it opened the pending decision; ``-1`` where ``kind`` has one site).
        ``any_step``: of any step, compiled or not (where only the decision's options are
        wanted, not where play resumes).

        :raises NotCompiled: where play after one cannot be told from the position (see
            :meth:`continuation`).
        """
        memo: dict[tuple[str, bool], list[tuple[int, Waiting]]] = self.__dict__.setdefault("_sites_memo", {})
        key = (kind, any_step)
        if key not in memo:  # the declarations and the layout's readings (Layout.readings) are fixed
            memo[key] = self._sites(kind, any_step)
        return list(memo[key])

    def _sites(self, kind: str, any_step: bool) -> list[tuple[int, Waiting]]:
        """:meth:`sites`, found anew (it keeps them)."""
        found_all: list[Waiting] = []
        for r in self.prog.rules.values():
            if (r.step not in COMPILED_STEPS and not any_step) or self._off(r):
                continue
            do: tuple[tuple[Stmt, ...], tuple[str, str] | None] = (r.do or (), None)
            parts: dict[str, tuple[tuple[Stmt, ...], tuple[str, str] | None]] = {
                name: (body, None) for name, body in r.parts.items()}
            for rb in r.readings:
                value = self._reading(rb.point)
                br = rb.branches.get(value)
                if br is None:
                    continue
                if br.do is not None:
                    do = (br.do, (rb.point, value))
                parts.update({name: (body, (rb.point, value)) for name, body in br.parts.items()})
            blocks = [(do[0], None, do[1]), *((body, name, at) for name, (body, at) in parts.items())]
            for block, part, reading in blocks:
                for stmt, frames in _find(block, kind):
                    chain = [r]
                    while chain[0].exception_of:
                        chain.insert(0, self.prog.rules[chain[0].exception_of])
                    found_all.append(Waiting(r, tuple(chain), stmt, frames, part, reading))
        if not any_step:
            for w in found_all:
                self.continuation(w.owner.step, lambda d: d)  # refuses where it cannot say
        return [(self.site_of(w.stmt), w) for w in found_all]

    def waiting(self, kind: str, *, any_step: bool = False) -> Waiting | None:
        """The one statement that waits for ``kind`` (see :meth:`sites`), or ``None`` when
        none does.

        :raises NotCompiled: where two statements wait for ``kind`` (a caller that tells
            them apart by the position's ``site`` uses :meth:`sites`), or play after it
            cannot be told from the position.
        """
        found = self.sites(kind, any_step=any_step)
        if len(found) > 1:
            raise NotCompiled(f"two statements wait for a {kind} decision: the position does not say which")
        return found[0][1] if found else None

    def declares(self, kind: str) -> bool:
        """Whether any rule declares a statement that waits for ``kind`` (under any reading)."""
        return any(any(_find(b, kind) for b in r.all_blocks()) for r in self.prog.rules.values())

    def _step_sites(self, step: str) -> list[tuple[DoRule, tuple[Frame, ...], str | None]]:
        """Every ``step: STEP`` statement of the compiled rules under the ruleset's readings
        (a rule's own ``do`` and parts, or those a reading taken gives), with its rule, the
        lists it is nested in and the part it is in (``None``: the rule's ``do``); found once
        per step."""
        memo: dict[str, list[tuple[DoRule, tuple[Frame, ...], str | None]]] = \
            self.__dict__.setdefault("_step_sites_memo", {})
        if step not in memo:
            memo[step] = self._find_step_sites(step)
        return list(memo[step])

    def _find_step_sites(self, step: str) -> list[tuple[DoRule, tuple[Frame, ...], str | None]]:
        """:meth:`_step_sites`, found anew (it keeps them)."""
        out: list[tuple[DoRule, tuple[Frame, ...], str | None]] = []
        for r in self.prog.rules.values():
            if r.step not in COMPILED_STEPS or self._off(r):
                continue
            took = tuple(self._reading(rb.point) for rb in r.readings)
            if any(t not in rb.branches for rb, t in zip(r.readings, took, strict=True)):
                continue  # open: play stops at its gap before any statement of the rule
            do, _, parts = effective(Chain(((r, took),)))
            for block, part in [(do, None), *((body, name) for name, (body, _) in parts.items())]:
                for frames in _step_calls(block, step):
                    out.append((r, frames, part))
        return out

    def continuation(self, step: str, k: Callable[[ZState], ZState]) -> Callable[[ZState], ZState]:
        """Where play goes on when the statements of ``step`` end, for a decision resumed
        inside it: the engine keeps the way back in the decision (its frames), the encoding
        does not, so it is read off the declarations: after the one ``step: STEP`` statement
        of the compiled rules, out of the lists and the part it is in, then where that
        rule's own step goes on; ``k`` when no compiled rule runs ``step``. The statements
        there read only the position's names: ``palast spec check`` refuses a rule's name
        read past a step.

        :raises NotCompiled: when two statements run ``step`` (the position does not say
            which one play came from), or a part holding one is run from two places.
        """
        sites = self._step_sites(step)
        if not sites:
            return k
        if len(sites) > 1:
            raise NotCompiled(f"{len(sites)} statements run step {step}, where a decision inside it resumes")
        r, frames, part = sites[0]
        took = tuple(self._reading(rb.point) for rb in r.readings)
        do, _, parts = effective(Chain(((r, took),)))
        bodies = {name: body for name, (body, _) in parts.items()}
        self._no_bent_part_after(r, frames, part, do, bodies)
        after = self._out_of(do, bodies, part, self.continuation(r.step, k))
        return lambda d: self._out(frames, d, {}, bodies, after)

    def _no_bent_part_after(self, r: DoRule, frames: tuple[Frame, ...], part: str | None,
                            do: tuple[Stmt, ...], bodies: Mapping[str, tuple[Stmt, ...]]) -> None:
        """Check that no exception of ``r`` gives a part that the statements after its
        ``step:`` (at ``frames``, in ``part``) run: which exceptions applied when the step
        was run is in the engine's frames, not in the position, so :meth:`continuation`
        carries on with ``r``'s own parts.

        :raises NotCompiled: otherwise.
        """
        rest: list[Stmt] = [st for f in frames for st in f.block[f.index + 1:]]
        where = part
        while where is not None:  # out of the part: after the statement that runs it
            calls = _calls(do, bodies, where)
            rest.extend(st for cf, _ in calls for f in cf for st in f.block[f.index + 1:])
            where = calls[0][1] if len(calls) == 1 else None
        run: set[str] = set()
        todo = rest
        while todo:
            called = {str(st.arg) for st in walk(todo) if st.head == "part"} - run
            run |= called
            todo = [st for name in called for st in bodies.get(name, ())]
        bent = {name for x in self._live_exceptions(r) for name in self._given_parts(x)}
        if run & bent:
            raise NotCompiled(f"an exception of {r.rule} gives part {', '.join(sorted(run & bent))}, run after a "
                              "step a decision inside resumes in: the position does not say whether it applied")

    def choice_env(self, s: ZState, kind: str, *, options: bool = False, any_step: bool = False,
                   reads: tuple[Node, ...] = (), at: Waiting | None = None
                   ) -> tuple[Waiting, dict[str, Any], list[tuple[DoRule, tuple[str, ...]]]] | None:
        """Where the decision ``kind`` pending in ``s`` waits, and the names in scope there:
        those of its rule and the rules it bends, computed on ``s``, and those the decision
        keeps, read from its fields. ``options``: also the names its options read;
        ``reads``: also the names these expressions read; ``any_step``: as in :meth:`waiting`;
        ``at``: the statement it waits at, one of :meth:`sites` (by default the only one).

        :returns: ``(statement, names, chain)``, or ``None`` when the ruleset never opens
            the decision (it lies under a reading not taken, or behind an open point).
        :raises ValueError: when no compiled step waits for ``kind``.
        """
        w = at if at is not None else self.waiting(kind, any_step=any_step)
        if w is None:
            raise ValueError(f"no compiled step waits for a {kind} decision")
        if w.reading is not None and self._reading(w.reading[0]) != w.reading[1]:
            return None
        fields = {"player": s["dp"], "partner": s["partner"], "count": s["count"], "forced": s["forced"],
                  "given": Coll("cards", [(kk, s[f"g{kk}"]) for kk in range(self.nk)])}
        kept = {name: fields[slot] for name, slot in kept_names(w.stmt, position_names=True) if slot in fields}
        # the names the decision keeps are known before the rules' names are computed, and
        # win over a name a rule gives, as in the engine; a name the engine reads from the
        # position instead (the actor: the player who decides, or the Wizard whose partner
        # answers) is read from the decision too, which holds it in every position of a game
        env: dict[str, Any] = dict(kept)
        links: list[tuple[DoRule, tuple[str, ...]]] = []
        lets: list[tuple[str, Node]] = []
        for r in w.chain:
            took = []
            for rb in r.readings:
                reading = self._reading(rb.point)
                br = rb.branches.get(reading)
                if br is None:
                    return None
                took.append(reading)
                lets.extend(br.lets)
            lets.extend(r.lets)
            links.append((r, tuple(took)))
        also = (_what_it_offers(w.stmt),) if options else ()
        needed = self._needed(w, lets, (*also, *reads))
        for name, node in lets:  # only the names play needs from here on (the options are chosen)
            if name in needed:
                env[name] = self._value(s, node, env)
        env.update(kept)
        return w, env, links

    def _parts_only(self, x: DoRule) -> bool:
        """Whether exception ``x`` changes only parts or names under the ruleset's readings
        (it gives no ``do`` of its own, nor does a reading it takes, and none it reads is
        open): only such an exception can apply where play resumes at a decision its rule
        opened (one that stops at a gap would have stopped play before the decision)."""
        if x.do is not None:
            return False
        for rb in x.readings:
            br = rb.branches.get(self._reading(rb.point))
            if br is None or br.do is not None:  # open: it would have stopped play before the decision
                return False
        return True

    def _needed(self, w: Waiting, lets: list[tuple[str, Node]], also: tuple[Node, ...] = ()) -> set[str]:
        """The names the statements after ``w`` read (those of its lists after it, every
        part and exception of its rules) and the expressions ``also`` read, with the let
        values they need, transitively."""
        nodes: list[Node] = list(also)
        blocks = [f.block[f.index + 1:] for f in w.frames]
        tested = self._live_exceptions(w.owner, self._parts_only)  # those resume may test
        for x in tested:
            nodes.extend(n for _, n in x.lets)
        rules = [*w.chain, *tested]
        for r in rules:
            blocks.extend(r.parts.values())
            for rb in r.readings:
                for br in rb.branches.values():
                    blocks.extend(br.parts.values())
                    nodes.extend(n for _, n in br.lets)
                    if br.when is not None:
                        nodes.append(br.when)
            if r.when is not None and r is not w.owner and r not in w.chain:
                nodes.append(r.when)
        for block in blocks:
            for st in walk(list(block)):
                nodes.extend(n for _, n in expressions(st))
        out: set[str] = set()
        for n in nodes:
            out |= names(n)
        for name, node in reversed(lets):
            if name in out:
                out |= names(node)
        return out

    def at_site(self, s: ZState, site: int) -> Any:
        """The condition that the pending decision of ``s`` waits at site ``site`` (true
        where its decision has one site: ``-1``)."""
        return z3.BoolVal(True) if site < 0 else s["site"] == site

    def offered(self, s: ZState, kind: str, value: tuple[Any, ...]) -> Any:
        """The condition that ``value`` (one term per part) is one of the options, built
        from parts (``each``), of the decision ``kind`` pending in ``s``.

        :raises NotCompiled: when the options are not built from parts.
        """
        conds = []
        for site, w in self.sites(kind):
            opts = self._parts_options(s, kind, w)
            if opts is None:
                continue
            if not isinstance(opts, Tuples):
                raise NotCompiled(f"the options of {kind} are not built from parts")
            conds.append(z3.And(self.at_site(s, site), opts.holds(value)))
        return z3.Or(conds) if conds else z3.BoolVal(False)

    def some_offered(self, s: ZState, kind: str) -> Any:
        """Where the options of the decision ``kind`` pending in ``s`` are built from parts
        (``each``), the condition that there is one (:func:`proofs.each_z3.some`, asked
        without listing them); ``None`` where they are not built from parts."""
        conds = []
        for site, w in self.sites(kind):
            if "options" not in w.stmt.keys:  # a draw's cards are those of a place
                return None
            opts = self._parts_options(s, kind, w)
            if opts is None:
                continue
            if not isinstance(opts, Tuples):
                return None
            conds.append(z3.And(self.at_site(s, site), opts.some()))
        return z3.Or(conds) if conds else z3.BoolVal(False)

    def _parts_options(self, s: ZState, kind: str, w: Waiting) -> Any:
        """The declared options of ``kind`` compiled on ``s`` where it waits at ``w`` (``None``
        where the ruleset never opens it there)."""
        got = self.choice_env(s, kind, options=True, at=w)
        if got is None:
            return None
        w, env, _ = got
        return self._value(s, w.stmt.keys["options"], env)

    def resume(self, s: ZState, label: Label, kind: str, value: Any,
               k: Callable[[ZState], ZState]) -> ZState:
        """The position after the action of ``kind`` with ``value`` from ``s`` (the value
        chosen: a number, a collection of cards, or for options built from parts a tuple,
        one term per part): the statements after the one that waits for it, with the
        names of :meth:`choice_env`, the chosen value under the statement's ``as`` name
        (and each part's value under the part's name); ``k`` when the rule's statements end.

        :raises ValueError: when no compiled step waits for ``kind``.
        """
        found = self.sites(kind)
        if not found:
            raise ValueError(f"no compiled step waits for a {kind} decision")
        out = self._resume_at(s, kind, value, k, found[-1][1])
        for site, w in reversed(found[:-1]):  # each site where the position names it
            out = merge(self.at_site(s, site), self._resume_at(s, kind, value, k, w), out)
        return out

    def _resume_at(self, s: ZState, kind: str, value: Any, k: Callable[[ZState], ZState],
                   at: Waiting) -> ZState:
        """As :meth:`resume`, where the decision waits at statement ``at``."""
        got = self.choice_env(s, kind, at=at)
        d = s.copy()
        if got is None:
            return self.decide(d, K.GAP, -1)  # the ruleset never opens this decision
        w, env, links = got
        st = w.stmt

        def chosen(d: ZState, env: dict[str, Any], links: list[tuple[DoRule, tuple[str, ...]]]) -> ZState:
            if st.head == "deal":  # the hands dealt: value holds each seat's cards per kind
                self.place_deal(d, value)
            elif st.head == "draw":
                if "to" in st.keys:
                    self._move(d, value, Zone(str(st.arg)), st.keys["to"], env)
                elif str(st.arg) in self.lay.king_places:  # the card drawn is in no place until a move puts it
                    self._take_kings(d, str(st.arg), lambda r: value == r)
                else:
                    raise NotCompiled(f"a card drawn from {st.arg} and put nowhere")
                if "as" in st.keys:
                    env[str(st.keys["as"])] = value
            else:
                each = each_of(st.keys["options"], {n: node for r in w.chain for n, node in r.lets})
                if isinstance(value, tuple) and each is not None:  # each part's value under its name
                    env.update(zip((name for name, _ in each_parts(each)), value, strict=True))
                env[str(st.keys["as"])] = value
            return self._after(d, env, links, w, k)

        # exceptions of the waiting rule that change only its parts apply where their
        # condition holds on the position where the decision waits, as when the engine chose
        # the rules (one that gives a do of its own would not have opened this decision);
        # one that changes no part and no name read from here on is not tested at all
        # the names the statements after the waiting one read, and those of every part
        blocks: list[tuple[Stmt, ...]] = [f.block[f.index + 1:] for f in w.frames]
        todo = [*w.chain, *w.owner.exceptions]
        while todo:
            r = todo.pop()
            todo.extend(r.exceptions)
            blocks.extend(r.parts.values())
            blocks.extend(b for rb in r.readings for br in rb.branches.values() for b in br.parts.values())
        read = {n for b in blocks for st in walk(list(b)) for _, node in expressions(st) for n in names(node)}

        def matters(x: DoRule) -> bool:  # it may change the parts, or a name read from here on
            if self._off(x) or not self._parts_only(x):
                return False
            names_given = {n for n, _ in x.lets} | {n for rb in x.readings
                                                     for n, _ in rb.branches[self._reading(rb.point)].lets}
            return bool(self._given_parts(x) or names_given & read or any(matters(y) for y in x.exceptions))

        return self._exceptions(w.owner, d, dict(env), links, chosen, only=matters)

    def _after(self, d: ZState, env: dict[str, Any], links: list[tuple[DoRule, tuple[str, ...]]], w: Waiting,
               k: Callable[[ZState], ZState]) -> ZState:
        """Carry on after the waiting statement, out of each list it is nested in."""
        do, _, parts = effective(Chain(tuple(links)))
        bodies = {name: body for name, (body, _) in parts.items()}

        after = self._out_of(do, bodies, w.part, self.continuation(w.owner.step, k))
        return self._out(w.frames, d, env, bodies, after)

    def _out_of(self, do: tuple[Stmt, ...], bodies: Mapping[str, tuple[Stmt, ...]], part: str | None,
                then: Callable[[ZState], ZState]) -> Cont:
        """What follows the end of ``part`` (``None``: of the rule's ``do``): the rest of the
        lists after the statement that runs the part (it must be the only one), out of the
        part that holds it in turn, then ``then``.

        :raises NotCompiled: for a part run from two places or none."""
        if part is None:
            return lambda d, env: then(d)
        calls = _calls(do, bodies, part)
        if len(calls) != 1:
            raise NotCompiled(f"part {part} is run from {len(calls)} places")
        frames, caller = calls[0]
        outer = self._out_of(do, bodies, caller, then)
        return lambda d, env: self._out(frames, d, env, bodies, outer)

    def _out(self, frames: tuple[Frame, ...], d: ZState, env: dict[str, Any],
             parts: Mapping[str, tuple[Stmt, ...]], k: Cont) -> ZState:
        """Carry out the rest of each list of ``frames``, innermost first, then ``k``."""
        if not frames:
            return k(d, env)
        inner = frames[-1]
        return self.run(inner.block, inner.index + 1, d, env, parts,
                        lambda d, env: self._out(frames[:-1], d, env, parts, k))


def _what_it_offers(stmt: Stmt) -> Node:
    """What a decision statement offers: a ``choose``'s ``options``, the place a ``draw``
    takes from (any card there)."""
    offered: Node = stmt.keys["options"] if stmt.head == "choose" else parse(str(stmt.arg))
    return offered


def _find(block: tuple[Stmt, ...], kind: str) -> list[tuple[Stmt, tuple[Frame, ...]]]:
    """Every statement of ``block`` (or nested in it) waiting for ``kind``, with its frames,
    in the order declared."""
    out: list[tuple[Stmt, tuple[Frame, ...]]] = []
    for i, s in enumerate(block):
        if waits_for(s) == kind:
            out.append((s, (Frame(block, i),)))
        for inner in s.blocks.values():
            out.extend((st, (Frame(block, i), *frames)) for st, frames in _find(inner, kind))
    return out


def _step_calls(block: tuple[Stmt, ...], step: str) -> list[tuple[Frame, ...]]:
    """The frames of every ``step: STEP`` statement in ``block`` (nested lists included)."""
    out: list[tuple[Frame, ...]] = []
    for i, s in enumerate(block):
        if s.head == "step" and s.arg == step:
            out.append((Frame(block, i),))
        for inner in s.blocks.values():
            out.extend((Frame(block, i), *f) for f in _step_calls(inner, step))
    return out


def _calls(do: tuple[Stmt, ...], parts: Mapping[str, tuple[Stmt, ...]],
           name: str) -> list[tuple[tuple[Frame, ...], str | None]]:
    """The frames of every ``part: NAME`` statement in ``do`` and in the parts, each with
    the part it is in (``None``: in ``do``)."""
    out: list[tuple[tuple[Frame, ...], str | None]] = []

    def look(block: tuple[Stmt, ...], outer: tuple[Frame, ...], where: str | None) -> None:
        for i, s in enumerate(block):
            if s.head == "part" and s.arg == name:
                out.append(((*outer, Frame(block, i)), where))
            for inner in s.blocks.values():
                look(inner, (*outer, Frame(block, i)), where)

    look(do, (), None)
    for part, body in parts.items():
        look(body, (), part)
    return out
