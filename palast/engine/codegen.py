"""The rules' statements compiled to Python source: the engine's fast form of the
declarations of :mod:`palast.lang.blocks`.

For each step a **selector** is generated: one function that tries the step's rules and
their exceptions as :meth:`palast.engine.blocks.Runner.select` does (conditions, readings
looked up in the game's parameters, named values as local variables) and hands the chain of
rules that applies, with its names, to that chain's compiled statements. For each chain
(compiled the first time it is met) a **block** is generated: its statements as straight
Python, an ``if`` or a reading as Python branches, a decision as the end of the function,
with the statements after it compiled into a **resume** function (and the decision's
options into an **options** function), and the statements after a ``step`` into a
**continuation**. Nothing in the generated text comes from the spec but the templates of
:mod:`palast.lang.primitives`, names, numbers and constants passed by reference, as in
:mod:`palast.lang.compiler`; the source of a chain is kept (:attr:`BlockCompiler.sources`)
for reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import CodeType
from typing import TYPE_CHECKING, Any

from palast.engine.chains import Chain, chain_lets, citing, kept_names
from palast.engine.draft import insert_sorted, remove_one
from palast.engine.events import Event
from palast.engine.state import DecisionKind
from palast.lang.blocks import DoRule
from palast.lang.compiler import shared_source
from palast.lang.primitives import PRIMITIVES, RUNTIME
from palast.lang.statements import TARGET_FIELDS, Stmt, Zone, expressions
from palast.lang.syntax import Node, each_parts, names
from palast.spec.code_cache import compiled


@cache
def _code(text: str, label: str) -> CodeType:
    """The code object of generated ``text``, compiled once per text (the games of one spec
    generate the same text for a step or a chain compiled in the same order), and kept on
    disk between runs (:mod:`palast.spec.code_cache`)."""
    return compiled(text, f"<palast rules: {label}>")


#: the fields of a decision that hold cards or actions: their values are too many to keep a
#: decision of each, so a decision keeping one is made anew (others are shared)
FRESH_FIELDS = frozenset({"given", "choices"})

if TYPE_CHECKING:
    from palast.engine.blocks import Runner

#: A statement with the rule whose declaration holds it; ``None`` ends the list.
Item = tuple[Stmt, str] | None


@dataclass
class Compiled:
    """What compiling one chain gives: its entry, and per key its resumes and continuations."""

    entry: Callable[..., None]
    resumes: dict[str, tuple[Callable[..., None], Callable[..., Any] | None]] = field(default_factory=dict)
    conts: dict[str, Callable[..., None]] = field(default_factory=dict)


class _Source:
    """Lines of generated Python and the objects they refer to by name."""

    def __init__(self, refs: dict[str, Any], prefix: str = "K") -> None:
        self.lines: list[str] = []
        self.refs = refs
        self.prefix = prefix
        self._ids: dict[int, str] = {}
        #: finished functions' lines, and the buffers of the functions being written
        self.done: list[list[str]] = []
        self._stack: list[list[str]] = []

    def begin(self, head: str) -> None:
        """Start writing another function (``head`` is its ``def`` line) inside the current one."""
        self._stack.append(self.lines)
        self.lines = [head]

    def finish(self) -> None:
        """The function begun last is written: keep it, and go on with the one before."""
        self.done.append(self.lines)
        self.lines = self._stack.pop()

    def text(self) -> str:
        """Every function written, the current one last."""
        return "\n\n".join("\n".join(f) for f in [*self.done, self.lines]) + "\n"

    def ref(self, obj: Any) -> str:
        """A name for ``obj`` in the generated code."""
        key = id(obj)
        name = self._ids.get(key)
        if name is None:
            name = self._ids[key] = f"{self.prefix}_{len(self.refs)}"
            self.refs[name] = obj
        return name

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)


class BlockCompiler:
    """Generates and compiles the selectors and blocks of one game's do-style rules.

    :param runner: the game's :class:`~palast.engine.blocks.Runner` (its program, game and
        parameter names).
    """

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.game = runner.game
        self.roles = runner.roles
        self._n = 0
        #: generated source per chain key (and ``step:NAME`` for selectors), for reading
        self.sources: dict[str, str] = {}
        self.namespace: dict[str, Any] = {
            "__builtins__": {f.__name__: f for f in (len, tuple, dict, sum, any, all, max, min, range, sorted, set,
                                                      list, isinstance, RuntimeError)},
            **RUNTIME, **self.game.lang_constants,
            "G": self.game, "R": runner, "Event": Event, "_rm": remove_one, "_ins": insert_sorted,
        }

    # ------------------------------------------------------------------ helpers
    def _uid(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def expr(self, node: Node, scope: Mapping[str, str]) -> str:
        """The Python source of ``node``; names in ``scope`` are local variables."""
        params = {n: scope[n] for n in names(node) if n in scope}
        return shared_source(node, params, self.roles)

    def _param(self, point: str) -> str:
        return repr(self.runner.parameter_of.get(point, point))

    def build(self, src: _Source, label: str) -> None:
        """Compile ``src`` into the shared namespace, keeping its text under ``label``."""
        text = src.text()
        self.sources[label] = text
        self.namespace.update(src.refs)
        exec(_code(text, label), self.namespace)  # generated from checked parts only

    # ------------------------------------------------------------------ selectors
    def selector(self, step: str, rules: Sequence[DoRule]) -> Callable[..., Any]:
        """The generated function of ``step``: ``f(D)`` finds the chain of rules that
        applies and carries out its compiled statements with their named values, returning
        ``True``; it returns ``None`` when no rule applies and ``("gap", point, rule)`` at an
        open point. The chain is found as a whole number, one bit per rule applied and a few
        per reading taken (:meth:`decode` turns it back into rule ids and readings)."""
        src = _Source({}, self._uid("S"))
        name = self._uid("sel_")
        table: list[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]] = []
        entries: dict[int, Callable[..., None]] = {}
        body = 1
        inside = body + 1
        src.add(body - 1, f"def {name}(D):")
        if any(r.role is not None for r in rules):
            src.add(body, "_role = D.last_card % NR if D.last_card >= 0 else -1")
        for r in rules:
            tree = _tree_names(r)
            for n in tree:
                src.add(body, f"v_{n} = None")
            src.add(body, "while True:")
            if r.role is not None:
                src.add(inside, f"if _role != {self.roles[r.role]}:")
                src.add(inside + 1, "break")
            scope: dict[str, str] = {}
            if r.when is not None:
                src.add(inside, f"if not ({self.expr(r.when, scope)}):")
                src.add(inside + 1, "break")
            src.add(inside, "_b = 0")
            self._enter(src, r, scope, inside, "break", table)
            self._exceptions(src, r, scope, inside, table)
            ent = src.ref(entries)
            src.add(inside, f"_e = {ent}.get(_b)")
            src.add(inside, "if _e is None:")
            src.add(inside + 1, f"_e = {ent}[_b] = R.entry_for(R.decode({src.ref(table)}, _b), "
                                f"{src.ref(tuple(tree))})")
            src.add(inside, "if R.trace is not None:")
            src.add(inside + 1, f"R.note({src.ref(table)}, _b)")
            src.add(inside, "_e(D, " + "".join(f"v_{n}, " for n in tree) + ")")
            src.add(inside, "return True")
        src.add(body, "return None")
        self.build(src, f"step:{step}")
        return self.namespace[name]  # type: ignore[no-any-return]

    def _enter(self, src: _Source, r: DoRule, scope: dict[str, str], ind: int, skip: str,
               table: list[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]]) -> None:
        """Look up ``r``'s readings (a gap where open, ``skip`` where one says the rule does
        not apply), then compute its names into ``scope`` and set its bits in ``_b``: one for
        the rule, and per readings block the number of the reading taken (from 1)."""
        offset = sum(1 + sum(w for _, w, _ in blocks) for _, _, blocks in table)
        blocks: list[tuple[int, int, tuple[str, ...]]] = []
        took: list[str] = []
        shift = offset + 1
        for rb in r.readings:
            var = f"_r{self._uid('')}"
            src.add(ind, f"{var} = G.params[{self._param(rb.point)}].value")
            src.add(ind, f"if {var} not in {tuple(rb.branches)!r}:")
            src.add(ind + 1, f"return ('gap', {rb.point!r}, {r.rule!r})")
            off = tuple(x for x, br in rb.branches.items() if not br.applies)
            if off:
                src.add(ind, f"if {var} in {off!r}:")
                src.add(ind + 1, skip)
            took.append(var)
            width = len(rb.branches).bit_length()
            blocks.append((shift, width, tuple(rb.branches)))
            shift += width
        table.append((r.rule, offset, tuple(blocks)))
        for rb, var in zip(r.readings, took, strict=True):
            first = True
            for reading, br in rb.branches.items():
                if not br.applies or not br.lets:
                    continue
                src.add(ind, f"{'if' if first else 'elif'} {var} == {reading!r}:")
                first = False
                inner = dict(scope)
                for name, node in br.lets:
                    src.add(ind + 1, f"v_{name} = {self.expr(node, inner)}")
                    inner[name] = f"v_{name}"
            for br in rb.branches.values():
                for name, _ in br.lets:
                    scope[name] = f"v_{name}"
        for name, node in r.lets:
            src.add(ind, f"v_{name} = {self.expr(node, scope)}")
            scope[name] = f"v_{name}"
        bits = [str(1 << offset)]
        for (at, _, branches), var in zip(blocks, took, strict=True):
            index = {b: i + 1 for i, b in enumerate(branches)}
            bits.append(f"({src.ref(index)}[{var}] << {at})")
        src.add(ind, f"_b |= {' | '.join(bits)}")

    def _exceptions(self, src: _Source, r: DoRule, scope: dict[str, str], ind: int,
                    table: list[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]]) -> None:
        for x in r.exceptions:
            cond = self.expr(x.when, scope) if x.when is not None else "True"
            src.add(ind, f"if {cond}:")
            src.add(ind + 1, "while True:")
            inner = dict(scope)
            deeper = ind + 1 + 1
            self._enter(src, x, inner, deeper, "break", table)
            self._exceptions(src, x, inner, deeper, table)
            src.add(deeper, "break")
            scope.update(inner)

    # ------------------------------------------------------------------ blocks
    def block(self, chain: Chain, args: tuple[str, ...], *, every: bool = False) -> Compiled:
        """Compile the statements ``chain`` carries out; its entry takes the position and
        the names ``args`` in order (every name the chain's rules may give). ``every``: the
        block of a rule applied by ``every`` (it cannot wait; its end returns instead of
        going on where the step was applied)."""
        runner = self.runner
        do, owner, parts = runner.effective(chain)
        src = _Source({}, self._uid("B"))
        out = Compiled(lambda D, E: None)
        lets = chain_lets(chain)
        entry = self._uid("blk_")
        ctx = _Ctx(self, chain, parts, lets, src, out, every)
        params = "".join(f", v_{n}" for n in args)
        src.add(0, f"def {entry}(D{params}):")
        scope = {name: f"v_{name}" for name in lets}
        items: list[Item] = [(s, owner) for s in do]
        ctx.seq([*items, None], scope, ctx.points0, 1)
        self.build(src, chain.key)
        out.entry = self.namespace[entry]
        for key, (res, opts) in list(ctx.pending_resumes.items()):
            out.resumes[key] = (self.namespace[res], self.namespace[opts] if opts else None)
        for key, fname in ctx.pending_conts.items():
            out.conts[key] = self.namespace[fname]
        return out


def _tree_names(r: DoRule) -> list[str]:
    """Every name ``r`` and its exceptions (and theirs) give, in order, once each."""
    out: list[str] = []
    for n in r.chain_names():
        if n not in out:
            out.append(n)
    for x in r.exceptions:
        for n in _tree_names(x):
            if n not in out:
                out.append(n)
    return out


class _Ctx:
    """Compiling one chain's statements."""

    def __init__(self, comp: BlockCompiler, chain: Chain, parts: Mapping[str, tuple[tuple[Stmt, ...], str]],
                 lets: Mapping[str, Node], src: _Source, out: Compiled, every: bool) -> None:
        self.comp = comp
        self.chain = chain
        self.parts = parts
        self.lets = lets
        self.src = src
        self.out = out
        self.every = every
        self.pending_resumes: dict[str, tuple[str, str | None]] = {}
        self.pending_conts: dict[str, str] = {}
        runner = comp.runner
        self.runner = runner
        pts: list[str] = []
        for r, took in chain.links:
            pts.extend(rb.point for rb, _ in zip(r.readings, took, strict=True))
        self.points0 = tuple(pts)
        self.took = {r.rule: took for r, took in chain.links}
        #: nothing has changed the position since the rules were applied (on the path being
        #: written; False once anything may have): a choice of a value the rules computed
        #: then can keep that value in the decision
        self.fresh = True

    # names ----------------------------------------------------------------
    def expr(self, node: Node, scope: Mapping[str, str]) -> str:
        return self.comp.expr(node, scope)

    def ref(self, obj: Any) -> str:
        return self.src.ref(obj)

    def restore(self, ind: int, needed: set[str], kept: Mapping[str, str]) -> dict[str, str]:
        """Code that computes, at a resume, the names ``needed`` (lets, computed again from
        the position, the readings looked up again) and the names the decision keeps."""
        scope: dict[str, str] = {}
        for name, src_field in kept.items():
            if name in needed or any(name in names(n) for _, n in self.lets.items() if _ in needed):
                self.src.add(ind, f"v_{name} = _dec.{src_field}")
                scope[name] = f"v_{name}"
        want = set(needed) - set(kept)
        # lets in chain order, only those needed (and what they need)
        order: list[tuple[str, Node, str | None]] = []
        for r, took in self.chain.links:
            for rb, value in zip(r.readings, took, strict=True):
                order.append(("", Node("bool", True), rb.point))
                order.extend((n, node, None) for n, node in rb.branches[value].lets)
            order.extend((n, node, None) for n, node in r.lets)
        closure = set(want)
        for name, node, _ in reversed(order):
            if name in closure:
                closure |= names(node)
        for name, node, point in order:
            if point is not None:
                self.src.add(ind, f"G.params[{self.comp._param(point)}]")
                continue
            if name in closure and name not in kept:
                self.src.add(ind, f"v_{name} = {self.expr(node, scope)}")
                scope[name] = f"v_{name}"
        return scope

    # statements --------------------------------------------------------------
    def seq(self, items: list[Item], scope: dict[str, str], pts: tuple[str, ...], ind: int) -> None:
        """Write ``items`` (statements, then ``None`` for the end) at indent ``ind``."""
        src = self.src
        i = 0
        while i < len(items):
            item = items[i]
            rest = items[i + 1:]
            if item is None:
                if self.every:
                    src.add(ind, "return")
                else:  # go on where the innermost step was applied
                    src.add(ind, "if not D.frames:")
                    src.add(ind + 1, "R.end(D)")
                    src.add(ind, "_k = D.frames.pop()")
                    src.add(ind, "_n = CONTS.get(_k)")
                    src.add(ind, "if _n is None:")
                    src.add(ind + 1, "_n = R.cont_for(_k)")
                    src.add(ind, "_n(D)")
                return
            s, owner = item
            h = s.head
            if h == "emit":
                self.emit(s, owner, scope, pts, ind)
            elif h == "move":
                self.move(s, scope, ind)
                self.fresh = False
            elif h == "set":
                self.fresh = False
                for tname, seat, value in s.arg:
                    v = self.expr(value, scope)
                    fname = TARGET_FIELDS[tname]
                    if seat is None:
                        src.add(ind, f"D.{fname} = {v}")
                    else:
                        src.add(ind, f"D.{fname}[{self.expr(seat, scope)}] = {v}")
            elif h == "if":
                src.add(ind, f"if {self.expr(s.arg, scope)}:")
                self.seq([*((x, owner) for x in s.blocks['then']), *rest], dict(scope), pts, ind + 1)
                src.add(ind, "else:")
                self.seq([*((x, owner) for x in s.blocks['else']), *rest], dict(scope), pts, ind + 1)
                return
            elif h == "readings":
                var = f"_q{self.comp._uid('')}"
                src.add(ind, f"{var} = G.params[{self.comp._param(str(s.arg))}].value")
                more = pts if s.arg in pts else (*pts, str(s.arg))
                first = True
                for reading, body in s.blocks.items():
                    src.add(ind, f"{'if' if first else 'elif'} {var} == {reading!r}:")
                    first = False
                    self.seq([*((x, owner) for x in body), *rest], dict(scope), more, ind + 1)
                src.add(ind, "else:" if not first else "if True:")
                src.add(ind + 1, f"G.stop_at_gap(D, {str(s.arg)!r}, {owner!r})")
                src.add(ind + 1, "return")
                return
            elif h == "part":
                body, part_owner = self.parts[str(s.arg)]
                items = [*((x, part_owner) for x in body), *rest]
                i = 0
                continue
            elif h in ("step", "every"):
                self.call(s, owner, rest, pts, ind)
                if h == "step" and str(s.arg) not in self.comp.game.effect_steps:
                    return
            elif h == "goto":
                src.add(ind, "D.frames = []")
                self.dispatch(self.runner.junction_steps[str(s.arg)], ind)
                return
            elif h == "turn":
                src.add(ind, f"D.actor = {self.expr(s.arg, scope)}")
                src.add(ind, "D.last_card = -1")
                src.add(ind, "D.frames = []")
                self.dispatch(self.runner.turn_step, ind)
                return
            elif h == "end_round":
                src.add(ind, f"G.end_round_by(D, {str(s.arg)!r}, {owner!r}, {pts!r}, {bool(s.keys['forced'])})")
                src.add(ind, "return")
                return
            elif h == "shuffle":
                self.fresh = False
                pool = f"_p{self.comp._uid('')}"
                src.add(ind, f"{pool} = ()")
                for pl in s.arg:
                    src.add(ind, f"{pool} = {pool} + R.empty_place(D, {pl.zone!r})")
                src.add(ind, f"R.shuffle_into(D, {str(s.keys['into'])!r}, {pool})")
            elif h in ("choose", "deal"):
                self.wait(s, owner, rest, scope, pts, ind)
                return
            elif h == "draw":
                self.draw(s, owner, rest, scope, pts, ind)
                return
            else:  # pragma: no cover - the checker knows every head
                raise ValueError(f"cannot compile a {h} statement")
            i += 1

    def emit(self, s: Stmt, owner: str, scope: Mapping[str, str], pts: tuple[str, ...], ind: int) -> None:
        cite = citing(self.chain, owner, s)
        clauses = self.ref(self.comp.game.chain_clauses(cite, tuple(r.rule for r, _ in self.chain.links)))
        fields = []
        for key, node in s.keys.items():
            v = self.expr(node, scope)
            fields.append(f"{key}=tuple({v})" if key in ("cards", "seats") else f"{key}={v}")
        self.src.add(ind, "if D.events is not None:")
        self.src.add(ind + 1, f"D.events.append(Event({str(s.arg)!r}, {cite!r}, {clauses}, "
                              + "".join(f"{f}, " for f in fields) + f"points={pts!r}))")

    def move(self, s: Stmt, scope: Mapping[str, str], ind: int) -> None:
        src = self.src
        value = f"_m{self.comp._uid('')}"
        src.add(ind, f"{value} = {self.expr(s.arg, scope)}")
        frm: Zone | None = s.keys.get("from")
        to: Zone = s.keys["to"]
        frm_seat = self.expr(frm.seat, scope) if frm is not None and frm.seat is not None else "-1"
        to_seat = self.expr(to.seat, scope) if to.seat is not None else "-1"
        src.add(ind, f"if {value}.__class__ is tuple:")  # cards
        if frm is not None:
            src.add(ind + 1, f"for _c in {value}:")
            src.add(ind + 1 + 1, _take_code(frm.zone, frm_seat))
        src.add(ind + 1, f"for _c in {value}:")
        src.add(ind + 1 + 1, _put_code(to.zone, to_seat))
        src.add(ind, "else:")  # one card
        src.add(ind + 1, f"_c = {value}")
        if frm is not None:
            src.add(ind + 1, _take_code(frm.zone, frm_seat))
        src.add(ind + 1, _put_code(to.zone, to_seat))

    def call(self, s: Stmt, owner: str, rest: list[Item], pts: tuple[str, ...], ind: int) -> None:
        """``step``/``every``: an effect step inline, an ``every`` step inline, a do-step
        with what follows it as a continuation (names do not live past a step)."""
        step = str(s.arg)
        src = self.src
        if step in self.comp.game.effect_steps:
            sel = self.ref(self.comp.game.logic.select(step))
            src.add(ind, f"_f = {sel}(D)")
            src.add(ind, "if _f is not None:")
            src.add(ind + 1, f"G.apply_effect(D, {step!r}, _f)")
            src.add(ind + 1, "return")
            return
        if s.head == "every":
            src.add(ind, f"R.every(D, {step!r})")
            return
        key = self.runner.key(self.chain, owner, s)
        if rest == [None] and not self.every:
            # a step at the end of the statements: its own end is theirs (no continuation)
            self.dispatch(step, ind)
            return
        fname = self.comp._uid("cont_")
        self.pending_conts[key] = fname
        src.add(ind, f"D.frames.append({key!r})")
        self.dispatch(step, ind)
        self.fresh = False
        src.begin(f"def {fname}(D):")
        self.seq(rest, {}, (), 1)
        src.finish()

    def dispatch(self, step: str, ind: int) -> None:
        """Apply do-step ``step`` inline: its selector, then the chain's compiled entry."""
        src = self.src
        sel = self.ref(self.runner.selectors[step])
        src.add(ind, f"_g = {sel}(D)")
        src.add(ind, "if _g is not True:")
        src.add(ind + 1, f"R.not_applied(D, {step!r}, _g)")
        src.add(ind, "return")

    def wait(self, s: Stmt, owner: str, rest: list[Item], scope: dict[str, str], pts: tuple[str, ...],
             ind: int) -> None:
        """A choose or deal: open the decision, and compile the resume and the options."""
        from palast.lang.blocks import each_of

        src = self.src
        key = self.runner.key(self.chain, owner, s)
        kind = DecisionKind(str(s.arg) if s.head == "choose" else str(s.keys["decision"]))
        kref = self.ref(kind)
        kept = dict(kept_names(s))
        # the options the rules just computed are kept for legal_actions where they were built
        # by an each (the Cupbearer's swaps); other options are cheaper computed again than kept
        keep_choices = (s.head == "choose" and self.fresh and s.keys["options"].op == "name"
                        and str(s.keys["options"].value) in self.lets
                        and each_of(s.keys["options"], chain_lets(self.chain)) is not None)
        if s.head == "choose":
            fields = "".join(f"({slot!r}, {self.expr(node, scope)}), " for slot, node in s.keys["keep"].items())
            if keep_choices:  # the options the rules just computed, kept for legal_actions
                fields += f"('choices', tuple({self.expr(s.keys['options'], scope)})), "
            # a decision that keeps a collection is made anew, any other is shared
            how = ("open_decision" if keep_choices or any(slot in FRESH_FIELDS for slot in s.keys["keep"])
                   else "shared_decision")
            src.add(ind, f"D.decision = G.{how}({kref}, {self.expr(s.keys['by'], scope)}, {pts!r}, {key!r}, "
                         f"tuple(D.frames), ({fields}))")
        else:
            src.add(ind, f"D.decision = G.shared_decision({kref}, -1, {pts!r}, {key!r}, tuple(D.frames), ())")
        src.add(ind, "return")
        # the resume: names kept and needed computed again, the value bound, then the rest
        binds: list[str] = []
        if s.head == "choose":
            binds.append(s.keys["as"])
            each = each_of(s.keys["options"], chain_lets(self.chain))
            parts = [p for p, _ in each_parts(each)] if each is not None else []
        else:
            parts = []
        needed: set[str] = set()
        for it in rest:
            if it is not None:
                needed |= _used(it[0], self.parts)
        res = self.comp._uid("res_")
        self.fresh = False
        src.begin(f"def {res}(D, value):")
        src.add(1, "_dec = D.decision")
        inner = self.restore(1, needed - set(binds) - set(parts), kept)
        if s.head == "deal":
            src.add(1, "G.place_deal(D, value)")
        for b in binds:
            src.add(1, f"v_{b} = value")
            inner[b] = f"v_{b}"
        for j, p in enumerate(parts):
            src.add(1, f"v_{p} = value[{j}]")
            inner[p] = f"v_{p}"
        src.add(1, "D.frames = list(_dec.frames)")
        self.seq(rest, inner, pts, 1)
        src.finish()
        opts: str | None = None
        if s.head == "choose":
            opts = self.comp._uid("opt_")
            src.begin(f"def {opts}(D):")
            src.add(1, "_dec = D.decision")
            if keep_choices:
                src.add(1, "if _dec.choices:")
                src.add(1 + 1, "return list(_dec.choices)")
            oscope = self.restore(1, names(s.keys["options"]), kept)
            src.add(1, f"return list({self.expr(s.keys['options'], oscope)})")
            src.finish()
        self.pending_resumes[key] = (res, opts)

    def draw(self, s: Stmt, owner: str, rest: list[Item], scope: dict[str, str], pts: tuple[str, ...],
             ind: int) -> None:
        """A draw: the known top card at once, else a chance decision resumed with the card."""
        src = self.src
        key = self.runner.key(self.chain, owner, s)
        deck = str(s.arg)
        to: Zone | None = s.keys.get("to")
        name = s.keys.get("as")
        kref = self.ref(DecisionKind(str(s.keys["decision"])))
        top = f"_t{self.comp._uid('')}"
        src.add(ind, f"{top} = R.draw_known(D, {deck!r})")
        src.add(ind, f"if {top} is None:")
        src.add(ind + 1, f"if not R.hidden(D, {deck!r}):")
        src.add(ind + 1 + 1, f"raise RuntimeError('a draw from an empty {deck}: the rules must not draw from it')")
        src.add(ind + 1, f"D.decision = G.shared_decision({kref}, {self.expr(s.keys['by'], scope)}, {pts!r}, "
                         f"{key!r}, tuple(D.frames), ())")
        src.add(ind + 1, "return")
        inner = dict(scope)
        if to is not None:
            seat = self.expr(to.seat, scope) if to.seat is not None else "-1"
            src.add(ind, f"_c = {top}")
            src.add(ind, _put_code(to.zone, seat))
        if name:
            src.add(ind, f"v_{name} = {top}")
            inner[name] = f"v_{name}"
        self.seq(rest, inner, pts, ind)
        # the resume with the card drawn from the unknown part (taken off by the runner)
        needed: set[str] = set()
        for it in rest:
            if it is not None:
                needed |= _used(it[0], self.parts)
        needed |= names(to.seat) if to is not None and to.seat is not None else set()
        res = self.comp._uid("res_")
        self.fresh = False
        src.begin(f"def {res}(D, value):")
        src.add(1, "_dec = D.decision")
        rscope = self.restore(1, needed - ({name} if name else set()), {})
        if to is not None:
            seat = self.expr(to.seat, rscope) if to.seat is not None else "-1"
            src.add(1, "_c = value")
            src.add(1, _put_code(to.zone, seat))
        if name:
            src.add(1, f"v_{name} = value")
            rscope[name] = f"v_{name}"
        src.add(1, "D.frames = list(_dec.frames)")
        self.seq(rest, rscope, pts, 1)
        src.finish()
        self.pending_resumes[key] = (res, None)


def _used(s: Stmt, parts: Mapping[str, tuple[tuple[Stmt, ...], str]], seen: Iterable[str] = ()) -> set[str]:
    """Every name statement ``s`` (and the statements nested in it, parts included) reads."""
    out: set[str] = set()
    for _, node in expressions(s):
        out |= names(node)
    for body in s.blocks.values():
        for x in body:
            out |= _used(x, parts, seen)
    if s.head == "part" and str(s.arg) not in seen and str(s.arg) in parts:
        for x in parts[str(s.arg)][0]:
            out |= _used(x, parts, (*seen, str(s.arg)))
    return {n for n in out if n not in PRIMITIVES}


def _take_code(zone: str, seat: str) -> str:
    if zone in ("hand", "display"):
        field = "hands" if zone == "hand" else "displays"
        return (f"_s = {seat}; _z = D.{field}[_s]; _i = _z.index(_c); "
                f"D.{field}[_s] = _z[:_i] + _z[_i + 1:]")
    if zone == "discard_pile":
        return "D.discard = _rm(D.discard, _c)"
    return f"R.take(D, {zone!r}, {seat}, _c)"


def _put_code(zone: str, seat: str) -> str:
    if zone == "hand":
        return f"D.hands[{seat}] = _ins(D.hands[{seat}], _c)"
    if zone == "display":
        return f"D.displays[{seat}] = D.displays[{seat}] + (_c,)"
    if zone == "discard_pile":
        return "D.discard = D.discard + (_c,)"
    return f"R.put(D, {zone!r}, {seat}, _c)"
