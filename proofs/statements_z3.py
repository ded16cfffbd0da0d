"""The rules' statements compiled to Z3: the steps declared with ``do:`` lists
(:mod:`palast.lang.blocks`) carried out on a symbolic position.

This is the Z3 counterpart of the engine's :class:`palast.engine.blocks.Runner`, reading
the same parsed rules: which rules of a step apply (a rule whose condition holds, with
every exception of it whose condition holds, under the ruleset's readings) and what their
statements do. A condition on the position becomes a symbolic branch
(:func:`proofs.encoding.branch`); a reading is looked up while the term is built (the
encoding is built for one ruleset); an open point stops play (a gap). Expressions are
compiled by :mod:`proofs.lang_z3`.

A statement that waits for a decision (``choose``, ``draw``) opens it and ends the term.
The action that answers it resumes after that statement (:meth:`Statements.resume`): the
rule that declares the statement is found in the spec, its names are computed again on
the position and the names the decision keeps are read from its fields, as the engine
does for a decision that names no statement.

Which steps this compiles is :data:`COMPILED_STEPS`; the others (the turn, the next
player, the deal) are still hand-written in :mod:`proofs.transition`, and so is the start
of a rule that chooses one of the transition's ``HAND_DECISIONS``. Nothing here names a
rule, a role or a reading: those are all in ``spec/``. Each rule applied sets the flag ``rule:RULE`` of the
path it is on, and each rule entered whose readings concern a variation point the flag
``point:POINT`` (an obligation asks whether a path is reachable by those flags).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import z3

from palast.engine.chains import Chain, effective, kept_names
from palast.engine.state import DecisionKind
from palast.lang.blocks import DoRule, Program, each_of, program
from palast.lang.statements import Stmt, Zone, expressions, walk
from palast.lang.syntax import Node, each_parts, names, parse
from proofs.encoding import ZState, branch
from proofs.lang_z3 import Z3Back
from proofs.places_z3 import KING_PLACES, Places, _bool, _int
from proofs.z3_values import Coll, NotCompiled, Tuples, _n, _positive

if TYPE_CHECKING:
    from proofs.transition import Label

K = DecisionKind
#: A continuation: carry on from the draft with the names in scope.
Cont = Callable[[ZState, dict[str, Any]], ZState]

#: The steps whose rules the model carries out from their declarations (the others are
#: hand-written in :mod:`proofs.transition`).
COMPILED_STEPS = ("action", "role-action", "reveal-king", "turn", "turn-end")

#: The field of the encoding (:class:`proofs.encoding.ZState`) that holds each counter a
#: ``set`` statement may change (:data:`palast.lang.statements.TARGETS`), and whether it is
#: kept per seat (``pl0``, ``pl1``, ...); the colour marks of rule modules are not encoded.
SET_FIELDS: dict[str, tuple[str, bool]] = {"card": ("last", False), "played": ("pl", True)}


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


class Statements(Places):
    """The statements of the do-style rules of one layout's game, carried out on symbolic
    positions. Mixed into :class:`proofs.transition.Transition`, which gives the shared
    steps (:meth:`decide`, :meth:`gap`, :meth:`enter_play`, :meth:`after_action`,
    :meth:`end_round`) and the start of the rules it still writes by hand (:meth:`hand_rule`).
    """

    lay: Any
    n: int
    nk: int

    # the hooks the transition gives
    def decide(self, d: ZState, kind: DecisionKind, player: Any, *, partner: Any = -1, count: Any = -1,
               given: list[Any] | None = None, forced: Any = False) -> ZState:
        raise NotImplementedError

    def gap(self, d: ZState, parameter: str, seat: Any) -> ZState:
        raise NotImplementedError

    def enter_play(self, d: ZState, seat: Any) -> ZState:
        raise NotImplementedError

    def after_action(self, d: ZState) -> ZState:
        raise NotImplementedError

    def end_round(self, d: ZState, rule: str, p: Any, *, forced: bool = False) -> ZState:
        raise NotImplementedError

    #: decisions whose rules the transition still starts by hand (:meth:`hand_rule`): a
    #: rule that chooses one of them is not compiled up to its choice
    HAND_DECISIONS: frozenset[DecisionKind] = frozenset()

    def hand_rule(self, kind: DecisionKind, d: ZState, actor: Any, k: Callable[[ZState], ZState]) -> ZState:
        raise NotImplementedError

    # ------------------------------------------------------------------ the spec
    @property
    def prog(self) -> Program:
        """The spec's do-style rules, parsed."""
        return program(self.lay.game.spec)

    def _parameter(self, point: str) -> str:
        """The engine parameter a variation point sets."""
        for name, st in self.lay.game.params.items():
            if st.point == point:
                return str(name)
        raise KeyError(point)

    def _reading(self, point: str) -> str:
        return str(self.lay.reading(self._parameter(point)))

    def _value(self, d: ZState, node: Node, env: Mapping[str, Any]) -> Any:
        return Z3Back(d)._value(node, dict(env), {})

    def _role_number(self, role: str) -> int:
        return list(self.lay.game.spec.roles).index(role)

    # ------------------------------------------------------------------ which rules apply
    def run_step(self, d: ZState, step: str, k: Callable[[ZState], ZState],
                 given: Mapping[str, Any] | None = None) -> ZState:
        """Apply ``step`` to ``d`` and go on with ``k`` when its statements end. ``given``: names
        whose value the caller knows (the transition gives ``actor``, the player who decided)."""
        if step not in COMPILED_STEPS:
            raise NotCompiled(f"the Z3 back-end does not carry out step {step}")
        rules = self.prog.steps.get(step, [])

        def attempt(i: int, d: ZState) -> ZState:
            if i == len(rules):  # no rule applies: the engine stops with an error; so does the model
                d.flags[f"no-rule:{step}"] = z3.BoolVal(True)
                return self.decide(d, K.GAP, -1)
            r = rules[i]
            if self._off(r):
                return attempt(i + 1, d)

            def here(d: ZState) -> ZState:
                hand = self._hand_decision(r)
                if hand is not None:
                    return self.hand_rule(hand, d, (given or {}).get("actor", d["actor"]), k)
                return self._enter(r, d, dict(given or {}), lambda d, env, took: self._exceptions(
                    r, d, env, [(r, took)], lambda d, env, links: self._carry_out(d, env, links, k)),
                    lambda d: attempt(i + 1, d))

            cond = z3.BoolVal(True) if r.role is None else d.role_is(d["last"], self._role_number(r.role))
            if r.when is not None:
                cond = z3.And(cond, _bool(self._value(d, r.when, given or {})))
            return branch(d, z3.simplify(cond), here, lambda d: attempt(i + 1, d))

        return attempt(0, d)

    def effect_step(self, d: ZState, step: str, k: Callable[[ZState], ZState], given: Mapping[str, Any]) -> ZState:
        """Apply the effect step ``step`` (``round-end``: rules declared with effect keys,
        :mod:`palast.lang.logic`): the first of its rules whose ``when`` holds ends the round
        as its effect says (:meth:`end_round`); where none does, go on with ``k``.

        :raises NotCompiled: for a rule of the step with names, readings or exceptions (none
            has them), or an effect that does not end the round.
        """
        rules = self.lay.game.logic.steps.get(step, [])

        def attempt(i: int, d: ZState) -> ZState:
            if i == len(rules):
                return k(d)
            c = rules[i]
            if c.exceptions or c.blocks or "let" in c.raw or "round_end" not in c.raw:
                raise NotCompiled(f"the Z3 back-end does not carry out rule {c.rule} of step {step}")
            if "when" not in c.raw:
                return self.end_round(d, c.rule, given.get("actor", d["actor"]))
            cond = _bool(self._value(d, parse(str(c.raw["when"])), given))
            return branch(d, z3.simplify(cond), lambda d: self.end_round(d, c.rule, given.get("actor", d["actor"])),
                          lambda d: attempt(i + 1, d))

        return attempt(0, d)

    def scorers(self, d: ZState, rule: str, p: Any) -> tuple[list[Any], int]:
        """Who scores when round-end rule ``rule`` ends the round by ``p``, as its declared
        ``scorers`` say (one condition per seat), and the ``points`` each scores."""
        c = self.lay.game.logic.rules[rule]
        got = self._value(d, parse(str(c.raw["scorers"])), {"actor": p})
        if not isinstance(got, Coll):
            raise NotCompiled(f"the scorers of {rule} are not a collection of players")
        points = c.raw["points"]
        if not isinstance(points, int):
            raise NotCompiled(f"the points of {rule} are not a number")
        mult = dict(got.items)
        return [_bool(_positive(mult.get(q, 0))) for q in range(self.n)], points

    def _off(self, r: DoRule) -> bool:
        """Whether a reading the ruleset takes says ``r`` does not apply (known before its
        condition is looked at: a rule module switched off is never compiled)."""
        for rb in r.readings:
            br = rb.branches.get(self._reading(rb.point))
            if br is not None and not br.applies:
                return True
        return False

    def _hand_decision(self, r: DoRule) -> DecisionKind | None:
        """The decision of :data:`HAND_DECISIONS` that ``r``'s statements choose, if any."""
        for st in walk(list(r.do or ())):
            if st.head == "choose" and K(str(st.arg)) in self.HAND_DECISIONS:
                return K(str(st.arg))
        return None

    def _enter(self, r: DoRule, d: ZState, env: dict[str, Any],
               applies: Callable[[ZState, dict[str, Any], tuple[str, ...]], ZState],
               skip: Callable[[ZState], ZState]) -> ZState:
        """Resolve ``r``'s readings (a gap at an open one; ``skip`` where a reading says it
        does not apply or its condition fails) and compute its names, then ``applies``."""
        took: list[str] = []
        env = dict(env)
        conds: list[Any] = []
        for rb in r.readings:
            d.flags[f"point:{rb.point}"] = z3.BoolVal(True)
            value = self._reading(rb.point)
            br = rb.branches.get(value)
            if br is None:  # open: the rule applies as far as the sources say, and play stops
                d.flags[f"rule:{r.rule}"] = z3.BoolVal(True)
                return self.gap(d, self._parameter(rb.point), env.get("actor", d["actor"]))
            if not br.applies:
                return skip(d)
            took.append(value)
            for name, node in br.lets:
                env[name] = self._value(d, node, env)
            if br.when is not None:
                conds.append(_bool(self._value(d, br.when, env)))
        for name, node in r.lets:
            env[name] = self._value(d, node, env)

        def go(d: ZState) -> ZState:
            d.flags[f"rule:{r.rule}"] = z3.BoolVal(True)
            return applies(d, env, tuple(took))

        if not conds:
            return go(d)
        return branch(d, z3.And(conds), go, skip)

    def _exceptions(self, r: DoRule, d: ZState, env: dict[str, Any], links: list[tuple[DoRule, tuple[str, ...]]],
                    done: Callable[[ZState, dict[str, Any], list[tuple[DoRule, tuple[str, ...]]]], ZState],
                    only: Callable[[DoRule], bool] = lambda x: True) -> ZState:
        """Apply every exception of ``r`` (and of those) whose condition holds, in order,
        then ``done`` with the names and the chain."""
        xs = [x for x in r.exceptions if not self._off(x) and only(x)]

        def nxt(i: int, d: ZState, env: dict[str, Any], links: list[tuple[DoRule, tuple[str, ...]]]) -> ZState:
            if i == len(xs):
                return done(d, env, links)
            x = xs[i]
            if self._inert(x):  # it changes nothing under the readings: its flags, no branch
                cond = z3.BoolVal(True) if x.when is None else _bool(self._value(d, x.when, env))
                self._flag_inert(x, d, env, cond)
                return nxt(i + 1, d, env, links)

            def taken(d: ZState) -> ZState:
                return self._enter(x, d, env, lambda d, env2, took: self._exceptions(
                    x, d, env2, [*links, (x, took)], lambda d, env3, links3: nxt(i + 1, d, env3, links3), only),
                    lambda d: nxt(i + 1, d, env, links))

            if x.when is None:
                return taken(d)
            return branch(d, _bool(self._value(d, x.when, env)), taken, lambda d: nxt(i + 1, d, env, links))

        return nxt(0, d, env, links)

    def _live_exceptions(self, r: DoRule, keep: Callable[[DoRule], bool] = lambda x: True) -> list[DoRule]:
        """The exceptions of ``r``, and theirs, that the ruleset does not switch off and
        ``keep`` keeps (an exception not kept hides its own)."""
        out: list[DoRule] = []
        todo = list(r.exceptions)
        while todo:
            x = todo.pop()
            if not self._off(x) and keep(x):
                out.append(x)
                todo.extend(x.exceptions)
        return out

    def _given_parts(self, x: DoRule) -> set[str]:
        """The parts ``x`` gives under the ruleset's readings (its own and a taken reading's)."""
        out = set(x.parts)
        for rb in x.readings:
            br = rb.branches.get(self._reading(rb.point))
            if br is not None:
                out |= set(br.parts)
        return out

    def _inert(self, x: DoRule) -> bool:
        """Whether exception ``x`` changes nothing under the ruleset's readings (no
        statements, parts or names of its own or of a reading it takes, no reading open,
        and the same for its exceptions): where it applies, only its flag is set."""
        if x.do is not None or x.parts or x.lets:
            return False
        for rb in x.readings:
            br = rb.branches.get(self._reading(rb.point))
            if br is None or (br.applies and (br.do is not None or br.parts or br.lets or br.when is not None)):
                return False
        return all(self._off(y) or self._inert(y) for y in x.exceptions)

    def _flag_inert(self, x: DoRule, d: ZState, env: Mapping[str, Any], cond: Any) -> None:
        """Set the flags of the inert exception ``x`` (see :meth:`_inert`) and of its own
        exceptions where they apply (``cond``: where ``x`` would), as :meth:`_enter` would."""
        if self._off(x):
            return
        for rb in x.readings:
            d.flags[f"point:{rb.point}"] = z3.BoolVal(True)
        if any(not rb.branches[self._reading(rb.point)].applies for rb in x.readings):
            return

        def flag(name: str, c: Any) -> None:
            d.flags[name] = z3.Or(d.flags[name], c) if name in d.flags else c

        flag(f"rule:{x.rule}", cond)
        for y in x.exceptions:
            inner = cond if y.when is None else z3.And(cond, _bool(self._value(d, y.when, env)))
            self._flag_inert(y, d, env, inner)

    # ------------------------------------------------------------------ statements
    def _carry_out(self, d: ZState, env: dict[str, Any], links: list[tuple[DoRule, tuple[str, ...]]],
                   k: Callable[[ZState], ZState]) -> ZState:
        """The statements the chain ``links`` carries out (its last ``do``, its last parts)."""
        do, _, parts = effective(Chain(tuple(links)))
        bodies = {name: body for name, (body, _) in parts.items()}
        return self.run(do, 0, d, env, bodies, lambda d, env: k(d))

    def run(self, block: tuple[Stmt, ...], i: int, d: ZState, env: dict[str, Any],
            parts: Mapping[str, tuple[Stmt, ...]], k: Cont) -> ZState:
        """Carry out ``block`` from statement ``i`` on ``d``, then ``k``.

        :raises NotCompiled: for a statement this back-end does not carry out.
        """
        if i == len(block):
            return k(d, env)
        s = block[i]

        def nxt(d: ZState, env: dict[str, Any]) -> ZState:
            return self.run(block, i + 1, d, env, parts, k)

        h = s.head
        if h == "emit":
            return nxt(d, env)
        if h == "move":
            self._move(d, self._value(d, s.arg, env), s.keys.get("from"), s.keys["to"], env)
            return nxt(d, env)
        if h == "set":
            for target, seat, node in s.arg:  # in order, each on the position the one before left
                if target not in SET_FIELDS:
                    raise NotCompiled(f"the Z3 back-end does not encode the counter {target}")
                field, per_seat = SET_FIELDS[target]
                value = _n(self._value(d, node, env))
                if not per_seat:
                    d[field] = value
                    continue
                at = _n(self._value(d, seat, env))
                for q in range(self.n):
                    d[f"{field}{q}"] = z3.If(at == q, value, d[f"{field}{q}"])
            return nxt(d, env)
        if h == "if":
            cond = _bool(self._value(d, s.arg, env))
            return branch(d, cond, lambda d: self.run(s.blocks["then"], 0, d, dict(env), parts, nxt),
                          lambda d: self.run(s.blocks["else"], 0, d, dict(env), parts, nxt))
        if h == "readings":
            value = self._reading(str(s.arg))
            if value not in s.blocks:
                return self.gap(d, self._parameter(str(s.arg)), env.get("actor", d["actor"]))
            return self.run(s.blocks[value], 0, d, env, parts, nxt)
        if h == "part":
            return self.run(parts.get(str(s.arg), ()), 0, d, env, parts, nxt)
        if h == "step":
            known = {"actor": env["actor"]} if "actor" in env else None
            if str(s.arg) in self.lay.game.effect_steps:
                return self.effect_step(d, str(s.arg), lambda d: nxt(d, env), known or {})
            return self.run_step(d, str(s.arg), lambda d: nxt(d, env), known)
        if h == "shuffle":
            self._shuffle(d, s.arg, str(s.keys["into"]))
            return nxt(d, env)
        if h == "choose":
            return self._open(d, K(str(s.arg)), s, env)
        if h == "draw":
            return self._open(d, K(str(s.keys["decision"])), s, env)
        if h == "end_round":
            return self.end_round(d, str(s.arg), env.get("actor", d["actor"]), forced=bool(s.keys["forced"]))
        if h == "goto" and s.arg == "turn-over":
            return self.after_action(d)
        if h == "turn":
            return self.enter_play(d, self._value(d, s.arg, env))
        raise NotCompiled(f"the Z3 back-end does not carry out the statement {h!r}")

    def _open(self, d: ZState, kind: DecisionKind, s: Stmt, env: Mapping[str, Any]) -> ZState:
        """Open the decision statement ``s`` waits for, with the fields it keeps."""
        fields: dict[str, Any] = {}
        for slot, node in (s.keys.get("keep") or {}).items():
            if slot == "options":  # computed again where play resumes
                continue
            value = self._value(d, node, env)
            if slot == "given":
                if not isinstance(value, Coll):
                    raise NotCompiled("a decision keeps given cards as a collection")
                mult = dict(value.items)
                value = [_int(mult.get(kk, 0)) for kk in range(self.nk)]
            fields[slot] = value
        return self.decide(d, kind, self._value(d, s.keys["by"], env), **fields)

    # ------------------------------------------------------------------ resuming at a decision
    def waiting(self, kind: DecisionKind, *, any_step: bool = False) -> Waiting | None:
        """The statement of a compiled step that waits for ``kind`` under the ruleset's
        readings (the ``do`` and parts a reading taken gives, else the rule's own), or
        ``None`` when no compiled step waits for it. ``any_step``: of any step, compiled or
        not (where only the decision's options are wanted, not where play resumes).

        :raises NotCompiled: where the position cannot tell where play resumes (the engine
            records it in the decision, the encoding does not): two statements waiting for
            ``kind``, or statements after the ``step:`` that runs the waiting rule's step.
        """
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
                found = _find(block, kind)
                if found is None:
                    continue
                chain = [r]
                while chain[0].exception_of:
                    chain.insert(0, self.prog.rules[chain[0].exception_of])
                found_all.append(Waiting(r, tuple(chain), found[0], found[1], part, reading))
        if len(found_all) > 1 or any(_find(f.frames[-1].block[f.frames[-1].index + 1:], kind) for f in found_all):
            raise NotCompiled(f"two statements wait for a {kind.value} decision: the position does not say which")
        if not found_all:
            return None
        if not any_step:
            self.continuation(found_all[0].owner.step, lambda d: d)  # refuses where it cannot say
        return found_all[0]

    def declares(self, kind: DecisionKind) -> bool:
        """Whether any rule declares a statement that waits for ``kind`` (under any reading)."""
        for r in self.prog.rules.values():
            blocks = [r.do or (), *r.parts.values(), *(b for rb in r.readings for br in rb.branches.values()
                                                        for b in (br.do or (), *br.parts.values()))]
            if any(_find(tuple(b), kind) is not None for b in blocks):
                return True
        return False

    def _step_sites(self, step: str) -> list[tuple[DoRule, tuple[Frame, ...], str | None]]:
        """Every ``step: STEP`` statement of the compiled rules under the ruleset's readings
        (a rule's own ``do`` and parts, or those a reading taken gives), with its rule, the
        lists it is nested in and the part it is in (``None``: the rule's ``do``)."""
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

    def choice_env(self, s: ZState, kind: DecisionKind, *, options: bool = False, any_step: bool = False
                   ) -> tuple[Waiting, dict[str, Any], list[tuple[DoRule, tuple[str, ...]]]] | None:
        """Where the decision ``kind`` pending in ``s`` waits, and the names in scope there:
        those of its rule and the rules it bends, computed on ``s``, and those the decision
        keeps, read from its fields. ``options``: also the names its options read;
        ``any_step``: as in :meth:`waiting`.

        :returns: ``(statement, names, chain)``, or ``None`` when the ruleset never opens
            the decision (it lies under a reading not taken, or behind an open point).
        :raises ValueError: when no compiled step waits for ``kind``.
        """
        w = self.waiting(kind, any_step=any_step)
        if w is None:
            raise ValueError(f"no compiled step waits for a {kind.value} decision")
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
        needed = self._needed(w, lets, w.stmt.keys["options"] if options else None)
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

    def _needed(self, w: Waiting, lets: list[tuple[str, Node]], also: Node | None = None) -> set[str]:
        """The names the statements after ``w`` read (those of its lists after it, every
        part and exception of its rules) and ``also`` reads, with the let values they
        need, transitively."""
        nodes: list[Node] = [] if also is None else [also]
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

    def offered(self, s: ZState, kind: DecisionKind, value: tuple[Any, ...]) -> Any:
        """The condition that ``value`` (one term per part) is one of the options, built
        from parts (``each``), of the decision ``kind`` pending in ``s``.

        :raises NotCompiled: when the options are not built from parts.
        """
        got = self.choice_env(s, kind, options=True)
        if got is None:
            return z3.BoolVal(False)
        w, env, _ = got
        opts = self._value(s, w.stmt.keys["options"], env)
        if not isinstance(opts, Tuples):
            raise NotCompiled(f"the options of {kind.value} are not built from parts")
        return opts.holds(value)

    def resume(self, s: ZState, label: Label, kind: DecisionKind, value: Any,
               k: Callable[[ZState], ZState]) -> ZState:
        """The position after the action of ``kind`` with ``value`` from ``s`` (the value
        chosen: a number, a collection of cards, or for options built from parts a tuple,
        one term per part): the statements after the one that waits for it, with the
        names of :meth:`choice_env`, the chosen value under the statement's ``as`` name
        (and each part's value under the part's name); ``k`` when the rule's statements end.

        :raises ValueError: when no compiled step waits for ``kind``.
        """
        got = self.choice_env(s, kind)
        d = s.copy()
        if got is None:
            return self.decide(d, K.GAP, -1)  # the ruleset never opens this decision
        w, env, links = got
        st = w.stmt

        def chosen(d: ZState, env: dict[str, Any], links: list[tuple[DoRule, tuple[str, ...]]]) -> ZState:
            if st.head == "draw":
                if "to" in st.keys:
                    self._move(d, value, Zone(str(st.arg)), st.keys["to"], env)
                elif str(st.arg) in KING_PLACES:  # the card drawn is in no place until a move puts it
                    self._take_kings(d, str(st.arg), lambda r: value == r)
                else:
                    raise NotCompiled(f"a card drawn from {st.arg} and put nowhere")
                if "as" in st.keys:
                    env[str(st.keys["as"])] = value
            else:
                if isinstance(value, tuple):
                    each = each_of(st.keys["options"], {n: node for r in w.chain for n, node in r.lets})
                    if each is None:
                        raise NotCompiled(f"a tuple chosen from options of {kind.value} not built from parts")
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


def check_flag(spec: Any, name: str) -> None:
    """Refuse a flag that names a rule or a variation point the spec does not have (a rule
    renamed in spec/ would otherwise leave an obligation asking about a flag never set,
    which holds vacuously).

    :raises KeyError: for ``rule:RULE`` or ``point:POINT`` naming none of the spec's.
    """
    kind, _, what = name.partition(":")
    if kind == "rule" and what not in spec.rules:
        raise KeyError(f"flag {name}: the spec has no rule {what!r}")
    if kind == "point" and what not in spec.variation_points:
        raise KeyError(f"flag {name}: the spec has no variation point {what!r}")


def _find(block: tuple[Stmt, ...], kind: DecisionKind) -> tuple[Stmt, tuple[Frame, ...]] | None:
    """The statement of ``block`` (or nested in it) waiting for ``kind``, with its frames."""
    for i, s in enumerate(block):
        if (s.head == "choose" and s.arg == kind.value) or (s.head == "draw" and s.keys["decision"] == kind.value):
            return s, (Frame(block, i),)
        for inner in s.blocks.values():
            got = _find(inner, kind)
            if got is not None:
                return got[0], (Frame(block, i), *got[1])
    return None


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
