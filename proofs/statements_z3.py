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
The action that answers it resumes after that statement: :mod:`proofs.resume_z3` finds
the rule that declares the statement, computes its names again on the position and reads
the names the decision keeps from its fields, as the engine does for a decision that names
no statement.

Which steps this compiles is :data:`COMPILED_STEPS` (every step of the base game), every
rule of them from its start. Nothing here names a
rule, a role or a reading: those are all in ``spec/``. Each rule applied sets the flag ``rule:RULE`` of the
path it is on, and each rule entered whose readings concern a variation point the flag
``point:POINT`` (an obligation asks whether a path is reachable by those flags).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import z3

from palast.engine.chains import Chain, effective
from palast.engine.state import DecisionKind
from palast.lang.blocks import DoRule, Program, program
from palast.lang.statements import Stmt, waits_for, walk
from palast.lang.syntax import ExpressionError, Node, parse, show
from palast.spec.yamlio import data_at
from proofs.encoding import PER_SEAT_KINDS, ZState, branch, decided
from proofs.lang_z3 import Z3Back
from proofs.places_z3 import Places, _bool, _int
from proofs.z3_values import Coll, ColoursForgotten, NotCompiled, _n, _positive, identity

if TYPE_CHECKING:
    pass

K = DecisionKind
#: A continuation: carry on from the draft with the names in scope.
Cont = Callable[[ZState, dict[str, Any]], ZState]

#: The steps whose rules the model carries out from their declarations (every step of the
#: base game; a rule module's steps are not in the model, :mod:`proofs.modules`).
COMPILED_STEPS = ("deal", "setup", "round-start", "starter", "action", "role-action", "reveal-king", "turn",
                  "turn-end", "next-player")

def _key_path(raw: Any, node: Node) -> list[str | int] | None:
    """The key path, inside a rule's block ``raw`` as written, of the expression text that
    holds ``node`` (as itself or as a part): ``[]`` for ``raw`` itself, ``None`` where no
    text does."""
    if isinstance(raw, str):
        try:
            got = parse(raw)
        except ExpressionError:
            return None

        def has(x: Node) -> bool:
            return x == node or any(has(a) for a in x.args)
        return [] if has(got) else None
    items: Iterable[tuple[Any, Any]] = (raw.items() if isinstance(raw, Mapping)
                                        else enumerate(raw) if isinstance(raw, list) else ())
    for k, v in items:
        inner = _key_path(v, node)
        if inner is not None:
            return [k, *inner]
    return None


class Statements(Places):
    """The statements of the do-style rules of one layout's game, carried out on symbolic
    positions. Mixed into :class:`proofs.legality.Legality`, which gives :meth:`decide` and
    :meth:`gap`, and :class:`proofs.transition.Transition`, which gives the other shared
    steps (:meth:`enter_play`, :meth:`after_action`, :meth:`end_round`).
    """

    lay: Any
    n: int
    nk: int
    #: the expression back-ends by the field terms they read (:meth:`_back`)
    _backs: dict[tuple[Any, ...], tuple[tuple[Any, ...], Z3Back]]

    # the hooks the transition gives
    def decide(self, d: ZState, kind: str, player: Any, *, partner: Any = -1, count: Any = -1,
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

    # ------------------------------------------------------------------ the spec
    @property
    def prog(self) -> Program:
        """The spec's do-style rules, parsed."""
        return program(self.lay.game.spec)

    def _parameter(self, point: str) -> str:
        """The engine parameter a variation point sets."""
        for name, st in self.lay.readings.items():
            if st.point == point:
                return str(name)
        raise KeyError(point)

    def _reading(self, point: str) -> str:
        return str(self.lay.reading(self._parameter(point)))

    def _back(self, d: ZState) -> Z3Back:
        """The expression back-end for ``d`` as it is now: one per set of field terms (and
        colour of the card played), so that its memo of calls and binders serves every
        expression read on the same position, on any draft whose terms are the same Z3
        terms (a rule's statements reached by two paths read drafts that are distinct
        Python objects of the same terms). Looked up first by the terms' Python ids (cheap),
        then by their Z3 ids (:func:`~proofs.z3_values.identity`); the terms are kept alive
        with it, so neither id is reused."""
        colour = self.last_colour()
        terms = (*d.f.values(), colour)
        key = tuple(map(id, terms))
        cache: dict[tuple[Any, ...], tuple[tuple[Any, ...], Z3Back]] | None = getattr(self, "_backs", None)
        if cache is None:
            cache = {}
            self._backs = cache
        got = cache.get(key)
        if got is None:
            same = tuple(map(identity, terms))
            got = cache.get(same)
            if got is None:  # on a copy of the fields: ``d`` is a draft that changes later
                got = cache[same] = (terms, Z3Back(ZState(d.lay, dict(d.f)), last_colour=colour))
            cache[key] = (terms, got[1])
        return got[1]

    def _value(self, d: ZState, node: Node, env: Mapping[str, Any]) -> Any:
        try:
            return self._back(d)._value(node, dict(env), {})
        except NotCompiled as exc:
            if exc.args and str(exc.args[0]).startswith("rule "):  # named where it was first caught
                raise
            if isinstance(exc, ColoursForgotten):
                raise ColoursForgotten(f"{self._where(node)}{exc}", exc.role) from None
            raise type(exc)(f"{self._where(node)}{exc}") from None

    def _where(self, node: Node) -> str:
        """``rule RULE (FILE, KEY PATH), `EXPRESSION`: `` for the declared rule whose block
        holds ``node`` (looked for by identity; only the expression where none does)."""
        def holds(x: object) -> bool:
            if x is node:
                return True
            if isinstance(x, Node):
                return any(holds(a) for a in x.args)
            if isinstance(x, tuple | list):
                return any(holds(a) for a in x)
            if isinstance(x, Mapping):
                return any(holds(a) for a in x.values())
            fields = getattr(x, "__dataclass_fields__", None)
            return fields is not None and any(holds(getattr(x, f)) for f in fields if f != "exceptions")

        spec = self.lay.game.spec
        for r in self.prog.rules.values():
            if holds(r):
                doc = spec.documents.get(r.file)
                block = data_at(doc.data, r.path) if doc is not None else None
                path = [*r.path, *(_key_path(block, node) or [])]
                where = doc.place(path) if doc is not None and doc.root is not None else ".".join(map(str, path))
                return f"rule {r.rule} ({spec.root / r.file}: {where}), `{show(node)}`: "
        return f"`{show(node)}`: "

    def last_colour(self) -> Any:
        """At the role level, the colour of the card played this turn (the transition's
        label gives it); ``None`` where colours are known from the cards."""
        return None

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
        if self._contained(step):  # the rest is built once, after the step's paths merge
            return self._then_unless_stopped(self._first_rule(d, step, rules, lambda d: d, given), k)
        return self._first_rule(d, step, rules, k, given)

    def _first_rule(self, d: ZState, step: str, rules: list[DoRule], k: Callable[[ZState], ZState],
                    given: Mapping[str, Any] | None) -> ZState:
        """Apply the first rule of ``rules`` (those of ``step``) that applies, with its
        exceptions, then ``k``; a gap where none does."""
        def attempt(i: int, d: ZState) -> ZState:
            if i == len(rules):  # no rule applies: the engine stops with an error; so does the model
                d.flags[f"no-rule:{step}"] = z3.BoolVal(True)
                return self.decide(d, K.GAP, -1)
            r = rules[i]
            if self._off(r):
                return attempt(i + 1, d)

            def here(d: ZState) -> ZState:
                return self._enter(r, d, dict(given or {}), lambda d, env, took: self._exceptions(
                    r, d, env, [(r, took)], lambda d, env, links: self._carry_out(d, env, links, k)),
                    lambda d: attempt(i + 1, d))

            return branch(d, self._applies(d, r, given), here, lambda d: attempt(i + 1, d))

        return attempt(0, d)

    def every_step(self, d: ZState, step: str, k: Callable[[ZState], ZState],
                   given: Mapping[str, Any] | None = None) -> ZState:
        """Apply every rule of ``step`` whose condition holds, in order, with the exceptions
        of each that hold (a statement ``every: STEP``; none of them waits), then ``k``. An
        open reading stops play at its gap, as in the engine."""
        if step not in COMPILED_STEPS:
            raise NotCompiled(f"the Z3 back-end does not carry out step {step}")
        if not self._contained(step):
            raise NotCompiled(f"a rule of step {step}, applied with every, waits or moves play on")
        for r in self.prog.steps.get(step, []):
            if self._off(r):
                continue

            def here(d: ZState, r: DoRule = r) -> ZState:
                return self._enter(r, d, dict(given or {}), lambda d, env, took: self._exceptions(
                    r, d, env, [(r, took)], lambda d, env, links: self._carry_out(d, env, links, lambda d: d)),
                    lambda d: d)

            # each rule's paths merge before the next rule: the rest is not built per path
            d = self._then_unless_stopped(branch(d, self._applies(d, r, given), here, lambda d: d), lambda d: d)
        return self._then_unless_stopped(d, k)

    #: the statements after which play does not go on where the step was applied
    _MOVES_ON = frozenset({"choose", "draw", "deal", "turn", "goto", "end_round", "step", "every"})

    def _applies(self, d: ZState, r: DoRule, given: Mapping[str, Any] | None) -> Any:
        """The condition under which rule ``r`` applies on ``d``: the card played has its role
        (a role's rule) and its ``when`` holds (``given``: names the caller knows)."""
        cond = z3.BoolVal(True) if r.role is None else d.role_is(d["card"], self._role_number(r.role))
        if r.when is not None:
            cond = z3.And(cond, _bool(self._value(d, r.when, given or {})))
        return decided(cond)

    def _contained(self, step: str) -> bool:
        """Whether no rule of ``step`` (with its exceptions and readings) waits for a
        decision, ends the round, moves play on or applies a step: its statements end where
        the step was applied, on every path, or stop at a gap."""
        for r in self.prog.steps.get(step, []):
            todo = [r]
            while todo:
                x = todo.pop()
                todo.extend(x.exceptions)
                if any(st.head in self._MOVES_ON for b in x.all_blocks() for st in walk(list(b))):
                    return False
        return True

    def _then_unless_stopped(self, d: ZState, k: Callable[[ZState], ZState]) -> ZState:
        """``k(d)``, except where ``d`` stopped at a gap (a path of the step just applied
        met an open reading, or no rule of it applied), which stays as it is."""
        if not any(name.startswith(("gap:", "no-rule:")) for name in d.flags):
            return k(d)
        return branch(d, d["dk"] == self.lay.code(K.GAP), lambda d: d, k)

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
            return branch(d, decided(cond), lambda d: self.end_round(d, c.rule, given.get("actor", d["actor"])),
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
            for target, seat, node, _ in s.arg:  # in order, each on the position the one before left
                counter = self.lay.counters.get(target)  # its field in the encoding is its name
                if counter is None:
                    raise NotCompiled(f"the Z3 back-end does not encode the counter {target}")
                field, per_seat = counter.name, counter.per_player
                if not per_seat and counter.kind in PER_SEAT_KINDS:  # a value per seat, set at once
                    values = self._value(d, node, env)
                    if not isinstance(values, tuple) or len(values) != self.n:
                        raise NotCompiled(f"the {target} set to something other than one value per player")
                    for q, v in enumerate(values):
                        d[f"{field}{q}"] = _n(v)
                    continue
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
        if h == "every":
            known = {"actor": env["actor"]} if "actor" in env else None
            return self.every_step(d, str(s.arg), lambda d: nxt(d, env), known)
        if h == "deal":  # the chance deal: nobody decides
            return self.decide(d, str(s.keys["decision"]), -1)
        if h == "step":
            known = {"actor": env["actor"]} if "actor" in env else None
            if str(s.arg) in self.lay.game.effect_steps:
                return self.effect_step(d, str(s.arg), lambda d: nxt(d, env), known or {})
            return self.run_step(d, str(s.arg), lambda d: nxt(d, env), known)
        if h == "shuffle":
            self._shuffle(d, s.arg, str(s.keys["into"]))
            return nxt(d, env)
        if h == "choose":
            return self._open(d, str(s.arg), s, env)
        if h == "draw":
            return self._open(d, str(s.keys["decision"]), s, env)
        if h == "end_round":
            return self.end_round(d, str(s.arg), env.get("actor", d["actor"]), forced=bool(s.keys["forced"]))
        if h == "goto" and s.arg == "turn-over":
            return self.after_action(d)
        if h == "turn":
            return self.enter_play(d, self._value(d, s.arg, env))
        raise NotCompiled(f"the Z3 back-end does not carry out the statement {h!r}")

    def site_of(self, stmt: Stmt) -> int:
        """The number of the waiting statement ``stmt`` among the layout's sites of its
        decision (:attr:`proofs.encoding.Layout.sites`), or ``-1`` where its decision has
        one (the encoding then keeps no site for it)."""
        table = self.__dict__.get("_site_table")
        if table is None:
            table = {}
            for r in self.prog.rules.values():
                for block in r.all_blocks():
                    for st in walk(list(block)):
                        kind = waits_for(st)
                        listed = self.lay.sites.get(kind or "", ())
                        key = (r.rule, ".".join(map(str, st.path)))
                        if len(listed) > 1 and key in listed:
                            table[id(st)] = listed.index(key)
            self.__dict__["_site_table"] = table
        return int(table.get(id(stmt), -1))

    def _open(self, d: ZState, kind: str, s: Stmt, env: Mapping[str, Any]) -> ZState:
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
        d = self.decide(d, kind, self._value(d, s.keys["by"], env), **fields)
        if self.lay.site_field:
            d["site"] = z3.IntVal(self.site_of(s))
        return d


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
