"""One chain's statements compiled to Python source (:class:`StatementCompiler`), for
:class:`palast.engine.codegen.BlockCompiler`: straight Python for each statement, an ``if``
or a reading as branches, a decision as the end of the function with the statements after
it compiled into a resume function (and its options into an options function), and the
statements after a ``step`` into a continuation."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from palast.engine.chains import Chain, chain_lets, citing, kept_names
from palast.engine.codegen_source import FRESH_FIELDS, CompiledChain, GeneratedSource, Item
from palast.engine.state import DECISION_FIELDS, Decision
from palast.lang.primitives import PRIMITIVES
from palast.lang.statements import TARGET_FIELDS, Stmt, Zone, expressions
from palast.lang.syntax import Node, each_parts, names

if TYPE_CHECKING:
    from palast.engine.codegen import BlockCompiler


class StatementCompiler:
    """Compiling one chain's statements."""

    def __init__(self, comp: BlockCompiler, chain: Chain, parts: Mapping[str, tuple[tuple[Stmt, ...], str]],
                 lets: Mapping[str, Node], src: GeneratedSource, out: CompiledChain, every: bool) -> None:
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
                if self.comp.known(point) is None:  # noted as consulted where lookups are noted
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
                    src.add(ind, "_k = D.frames[-1]")
                    src.add(ind, "D.frames = D.frames[:-1]")
                    src.add(ind, "try:")
                    src.add(ind + 1, "_n = CONTS[_k]")
                    src.add(ind, "except KeyError:")
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
                for tname, seat, value, _ in s.arg:
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
                more = pts if s.arg in pts else (*pts, str(s.arg))
                known = self.comp.known(str(s.arg))
                if known is not None:  # a constant reading: only its statements
                    if known in s.blocks:
                        self.seq([*((x, owner) for x in s.blocks[known]), *rest], dict(scope), more, ind)
                    else:
                        src.add(ind, f"G.stop_at_gap(D, {str(s.arg)!r}, {owner!r})")
                        src.add(ind, "return")
                    return
                var = f"_q{self.comp._uid('')}"
                src.add(ind, f"{var} = G.params[{self.comp._param(str(s.arg))}].value")
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
                src.add(ind, "D.frames = ()")
                self.dispatch(self.runner.junction_steps[str(s.arg)], ind)
                return
            elif h == "turn":
                src.add(ind, f"D.actor = {self.expr(s.arg, scope)}")
                src.add(ind, "D.last_card = -1")
                src.add(ind, "D.frames = ()")
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

    def _take_code(self, name: str, seat: str) -> str:
        """The code that takes card ``_c`` out of the place named ``name`` (of seat ``seat``):
        a sorted or laid zone inline, any other through the runner (:mod:`palast.engine.places`)."""
        z, under = self.comp.runner.places.named[name]
        f = z.fields[0]
        if under or z.order not in ("sorted", "laid"):
            return f"R.take(D, {name!r}, {seat}, _c)"
        if z.per_player:
            return f"_s = {seat}; _z = D.{f}[_s]; _i = _z.index(_c); D.{f}[_s] = _z[:_i] + _z[_i + 1:]"
        return f"D.{f} = _rm(D.{f}, _c)"

    def _put_code(self, name: str, seat: str) -> str:
        """The code that puts card ``_c`` into the place named ``name`` (of seat ``seat``)."""
        z, under = self.comp.runner.places.named[name]
        f = z.fields[0]
        if under or z.order not in ("sorted", "laid"):
            return f"R.put(D, {name!r}, {seat}, _c)"
        where = f"D.{f}[{seat}]" if z.per_player else f"D.{f}"
        if z.order != "sorted":
            return f"{where} = {where} + (_c,)"
        # insert_sorted written out (no call): before any equal card, as bisect_left finds it
        if z.per_player:
            return f"_s = {seat}; _z = D.{f}[_s]; _i = _bl(_z, _c); D.{f}[_s] = _z[:_i] + (_c,) + _z[_i:]"
        return f"_z = D.{f}; _i = _bl(_z, _c); D.{f} = _z[:_i] + (_c,) + _z[_i:]"

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
            src.add(ind + 1 + 1, self._take_code(frm.zone, frm_seat))
        src.add(ind + 1, f"for _c in {value}:")
        src.add(ind + 1 + 1, self._put_code(to.zone, to_seat))
        src.add(ind, "else:")  # one card
        src.add(ind + 1, f"_c = {value}")
        if frm is not None:
            src.add(ind + 1, self._take_code(frm.zone, frm_seat))
        src.add(ind + 1, self._put_code(to.zone, to_seat))

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
        if s.head == "every":  # its rules cannot wait: the statements after it go on here
            sel = self.ref(self.runner.every_selector(step))
            src.add(ind, f"_g = {sel}(D)")
            src.add(ind, "if _g is not True:")
            src.add(ind + 1, f"R.not_applied(D, {step!r}, _g)")
            src.add(ind + 1, "return")
            self.fresh = False  # its rules may have changed the position
            return
        key = self.runner.key(self.chain, owner, s)
        if rest == [None] and not self.every:
            # a step at the end of the statements: its own end is theirs (no continuation)
            self.dispatch(step, ind)
            return
        fname = self.comp._uid("cont_")
        self.pending_conts[key] = fname
        src.add(ind, f"D.frames = D.frames + ({key!r},)")
        self.dispatch(step, ind)
        self.fresh = False
        src.begin(f"def {fname}(D):")
        self.seq(rest, {}, (), 1)
        src.finish()

    def dispatch(self, step: str, ind: int) -> None:
        """Apply do-step ``step`` inline: its selector, then the chain's compiled entry."""
        src = self.src
        inline = self.comp.inline_selector(step, ind)
        if inline is not None:  # its selector's body in place of a call to it
            src.lines.extend(inline)
            return
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
        kind = sys.intern(str(s.arg) if s.head == "choose" else str(s.keys["decision"]))
        kref = self.ref(kind)
        chance = kind in self.runner.game.chance_kinds
        kept = dict(kept_names(s))
        # the options the rules just computed are kept for legal_actions where they were built
        # by an each (the Cupbearer's swaps); other options are cheaper computed again than kept
        keep_choices = (s.head == "choose" and self.fresh and s.keys["options"].op == "name"
                        and str(s.keys["options"].value) in self.lets
                        and each_of(s.keys["options"], chain_lets(self.chain)) is not None)
        if s.head == "choose":
            kept_values = [(slot, self.expr(node, scope)) for slot, node in s.keys["keep"].items()]
            fields = "".join(f"({slot!r}, {value}), " for slot, value in kept_values)
            if keep_choices:  # the options the rules just computed, kept for legal_actions
                fields += f"('choices', tuple({self.expr(s.keys['options'], scope)})), "
            by = self.expr(s.keys["by"], scope)
            # a decision that keeps a collection is made anew, any other is shared
            if keep_choices or any(slot in FRESH_FIELDS for slot in s.keys["keep"]):
                given = dict(kept_values)
                if keep_choices:
                    given["choices"] = f"tuple({self.expr(s.keys['options'], scope)})"
                made = _made_anew(kref, by, pts, key, given, chance)
                src.add(ind, f"D.decision = {made}" if made is not None else
                        f"D.decision = G.open_decision({kref}, {by}, {pts!r}, {key!r}, D.frames, ({fields}))")
            else:
                varying = [by, "D.frames", *(value for _, value in kept_values)]
                self._shared(f"G.shared_decision({kref}, {by}, {pts!r}, {key!r}, D.frames, ({fields}))",
                             varying, ind)
            opt = s.keys["options"]
            if self.fresh and opt.op == "name" and str(opt.value) in scope:
                # the options as the rules just computed them, for playouts (Draft.options)
                src.add(ind, f"D.options = {scope[str(opt.value)]}")
        else:
            self._shared(f"G.shared_decision({kref}, -1, {pts!r}, {key!r}, D.frames, ())",
                         ["D.frames"], ind)
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
        src.add(1, "D.frames = _dec.frames")
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

    def _shared(self, make: str, varying: list[str], ind: int) -> None:
        """Set ``D.decision`` to the shared decision the source ``make`` opens, looked up
        first in a table of this statement's own, by the sources ``varying`` (the values
        that differ between the positions that reach it): the same object, found without
        a call (a fast path; by subscript, made on the first miss only)."""
        table = self.ref({})
        src = self.src
        src.add(ind, f"_k = ({', '.join(varying)},)")
        src.add(ind, "try:")
        src.add(ind + 1, f"_d = {table}[_k]")
        src.add(ind, "except KeyError:")
        src.add(ind + 1, f"_d = {table}[_k] = {make}")
        src.add(ind, "D.decision = _d")

    def draw(self, s: Stmt, owner: str, rest: list[Item], scope: dict[str, str], pts: tuple[str, ...],
             ind: int) -> None:
        """A draw: the known top card at once, else a chance decision resumed with the card."""
        src = self.src
        key = self.runner.key(self.chain, owner, s)
        deck = str(s.arg)
        to: Zone | None = s.keys.get("to")
        name = s.keys.get("as")
        kref = self.ref(sys.intern(str(s.keys["decision"])))
        top = f"_t{self.comp._uid('')}"
        src.add(ind, f"{top} = R.draw_known(D, {deck!r})")
        src.add(ind, f"if {top} is None:")
        src.add(ind + 1, f"if not R.hidden(D, {deck!r}):")
        src.add(ind + 1 + 1,
                f"raise RulesError('a draw from an empty {deck}: the rules must not draw from it', 'spec/')")
        src.add(ind + 1, f"D.decision = G.shared_decision({kref}, {self.expr(s.keys['by'], scope)}, {pts!r}, "
                         f"{key!r}, D.frames, ())")
        src.add(ind + 1, "return")
        inner = dict(scope)
        if to is not None:
            seat = self.expr(to.seat, scope) if to.seat is not None else "-1"
            src.add(ind, f"_c = {top}")
            src.add(ind, self._put_code(to.zone, seat))
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
            src.add(1, self._put_code(to.zone, seat))
        if name:
            src.add(1, f"v_{name} = value")
            rscope[name] = f"v_{name}"
        src.add(1, "D.frames = _dec.frames")
        self.seq(rest, rscope, pts, 1)
        src.finish()
        self.pending_resumes[key] = (res, None)


#: the fields of a decision a statement may keep, with the value a decision has that does not
#: keep it (as :class:`~palast.engine.state.Decision` declares them)
_KEPT_DEFAULTS = {f.name: repr(f.default) for f in dataclasses.fields(Decision)
                  if f.name not in ("kind", "player", "points", "rule", "frames", "chance")}


def _made_anew(kind: str, by: str, pts: tuple[str, ...], key: str, kept: Mapping[str, str],
               chance: bool) -> str | None:
    """The source that makes a decision anew with :func:`~palast.engine.state.new_decision`
    (every field given in order): ``kind`` and ``by`` (sources), the variation points
    ``pts``, the resume key ``key``, the sources of the fields ``kept`` and whether chance
    takes it; ``None`` when it keeps a field that is not one of those (then
    ``G.open_decision`` makes it)."""
    if any(slot not in _KEPT_DEFAULTS for slot in kept):
        return None
    values = {**_KEPT_DEFAULTS, **kept, "kind": kind, "player": by, "points": repr(pts), "rule": repr(key),
              "frames": "D.frames", "chance": repr(chance)}
    return f"NEW_DECISION({', '.join(values[name] for name in DECISION_FIELDS)})"


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
