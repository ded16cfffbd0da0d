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
for reading. The statements of a chain are compiled by :mod:`palast.engine.codegen_stmts`;
:mod:`palast.engine.codegen_source` holds the text and its compiled code.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from palast.engine.chains import Chain, chain_lets
from palast.engine.codegen_source import CompiledChain, GeneratedSource, Item, code_of
from palast.engine.codegen_stmts import StatementCompiler
from palast.engine.draft import remove_one
from palast.engine.events import Event
from palast.engine.params import Readings
from palast.engine.state import new_decision
from palast.errors import RulesError
from palast.lang.blocks import DoRule
from palast.lang.compiler import shared_source
from palast.lang.primitives import RUNTIME
from palast.lang.syntax import Node, names

if TYPE_CHECKING:
    from palast.engine.blocks import Runner


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
        #: the readings as constants, when the game's are fixed (see :meth:`known`)
        self.fixed = type(self.game.params) is Readings
        #: generated source per chain key (and ``step:NAME`` for selectors), for reading
        self.sources: dict[str, str] = {}
        #: per do-step, the body of its selector (lines at indent 0) as a block applying the
        #: step writes it in place of a call (:meth:`inline_selector`)
        self._bodies: dict[str, list[str]] = {}
        self.namespace: dict[str, Any] = {
            "__builtins__": {f.__name__: f for f in (len, tuple, dict, sum, any, all, max, min, range, sorted, set,
                                                      list, isinstance, KeyError)},
            **RUNTIME, **self.game.lang_constants,
            "G": self.game, "R": runner, "Event": Event, "_rm": remove_one, "_bl": bisect_left,
            "RulesError": RulesError, "NEW_DECISION": new_decision,
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

    def never(self, r: DoRule) -> bool:
        """True when ``r``'s readings, as constants, say it does not apply (the first of
        them that is not taken as read is one under which it does not); its code is then
        left out, conditions and all (they have no effects)."""
        for rb in r.readings:
            known = self.known(rb.point)
            if known is None or known not in rb.branches:
                return False
            if not rb.branches[known].applies:
                return True
        return False

    def known(self, point: str) -> str | None:
        """The ruleset's reading of ``point`` when the game's readings are fixed (a
        :class:`~palast.engine.params.Readings` table), to be compiled as a constant;
        ``None`` when the generated code must look it up as it runs."""
        if not self.fixed:
            return None
        return str(self.game.params[self.runner.parameter_of.get(point, point)].value)

    def build(self, src: GeneratedSource, label: str) -> None:
        """Compile ``src`` into the shared namespace, keeping its text under ``label``."""
        text = src.text()
        self.sources[label] = text
        self.namespace.update(src.refs)
        exec(code_of(text, label), self.namespace)  # generated from checked parts only

    # ------------------------------------------------------------------ selectors
    def selector(self, step: str, rules: Sequence[DoRule], *, every: bool = False) -> Callable[..., Any]:
        """The generated function of ``step``: ``f(D)`` finds the chain of rules that
        applies and carries out its compiled statements with their named values, returning
        ``True``; it returns ``None`` when no rule applies and ``("gap", point, rule)`` at an
        open point. The chain is found as a whole number, one bit per rule applied and a few
        per reading taken (:meth:`decode` turns it back into rule ids and readings).

        With ``every`` (a step applied by an ``every`` statement), ``f(D)`` carries out, in
        order, every rule whose condition holds (with its exceptions), none of which may
        wait, and returns ``True`` (also when none applies), or the gap it met first."""
        src = GeneratedSource({}, self._uid("S"))
        name = self._uid("sel_")
        table: list[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]] = []
        entries: dict[int, Callable[..., None]] = {}
        body = 1
        inside = body + 1
        src.add(body - 1, f"def {name}(D):")
        if any(r.role is not None for r in rules):
            src.add(body, "_role = D.last_card % NR if D.last_card >= 0 else -1")
        for r in rules:
            if self.never(r):
                continue
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
            # looked up by subscript (no method call), made on the first miss only
            src.add(inside, "try:")
            src.add(inside + 1, f"_e = {ent}[_b]")
            src.add(inside, "except KeyError:")
            src.add(inside + 1, f"_e = {ent}[_b] = R.entry_for(R.decode({src.ref(table)}, _b), "
                                f"{src.ref(tuple(tree))}{', True' if every else ''})")
            src.add(inside, "if R.trace is not None:")
            src.add(inside + 1, f"R.note({src.ref(table)}, _b)")
            src.add(inside, "_e(D, " + "".join(f"v_{n}, " for n in tree) + ")")
            src.add(inside, "break" if every else "return True")
        src.add(body, "return True" if every else "return None")
        if not every:
            self._bodies[step] = [line[len("    "):] for line in src.lines[1:]]
        self.build(src, f"{'every' if every else 'step'}:{step}")
        return self.namespace[name]  # type: ignore[no-any-return]

    def inline_selector(self, step: str, ind: int) -> list[str] | None:
        """The lines (indented ``ind`` levels) that apply do-step ``step`` in a block, in
        place of ``_g = SELECTOR(D)`` followed by ``R.not_applied`` when ``_g`` is not
        ``True`` and ``return``: the selector's own body, each ``return`` of it ending the
        block instead (after ``R.not_applied`` for a gap or no rule). The same work with one
        call fewer (a fast path); ``None`` for a step that has no selector body kept."""
        body = self._bodies.get(step)
        if body is None:
            return None
        out: list[str] = []
        for line in body:
            text = line.lstrip(" ")
            pad = "    " * ind + line[:len(line) - len(text)]
            if text.startswith("return"):
                value = text[len("return"):].strip()
                if value not in ("True", "None") and not value.startswith("('gap', "):
                    raise ValueError(f"a selector returns {value!r}")  # pragma: no cover - written above
                if value != "True":
                    out.append(f"{pad}R.not_applied(D, {step!r}, {value})")
                out.append(f"{pad}return")
            else:
                out.append(pad + text)
        return out

    def _enter(self, src: GeneratedSource, r: DoRule, scope: dict[str, str], ind: int, skip: str,
               table: list[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]]) -> None:
        """Look up ``r``'s readings (a gap where open, ``skip`` where one says the rule does
        not apply), then compute its names into ``scope`` and set its bits in ``_b``: one for
        the rule, and per readings block the number of the reading taken (from 1)."""
        offset = sum(1 + sum(w for _, w, _ in blocks) for _, _, blocks in table)
        blocks: list[tuple[int, int, tuple[str, ...]]] = []
        took: list[tuple[str, str]] = []  # per block: (the variable holding its reading, "") or ("", the reading)
        shift = offset + 1
        for rb in r.readings:
            known = self.known(rb.point)
            off = tuple(x for x, br in rb.branches.items() if not br.applies)
            if known is not None:  # a constant: the gap or the skip is certain, or nothing
                if known not in rb.branches:
                    src.add(ind, f"return ('gap', {rb.point!r}, {r.rule!r})")
                elif known in off:
                    src.add(ind, skip)
                took.append(("", known))
            else:
                var = f"_r{self._uid('')}"
                src.add(ind, f"{var} = G.params[{self._param(rb.point)}].value")
                src.add(ind, f"if {var} not in {tuple(rb.branches)!r}:")
                src.add(ind + 1, f"return ('gap', {rb.point!r}, {r.rule!r})")
                if off:
                    src.add(ind, f"if {var} in {off!r}:")
                    src.add(ind + 1, skip)
                took.append((var, ""))
            width = len(rb.branches).bit_length()
            blocks.append((shift, width, tuple(rb.branches)))
            shift += width
        table.append((r.rule, offset, tuple(blocks)))
        for rb, (var, value) in zip(r.readings, took, strict=True):
            first = True
            for reading, br in rb.branches.items():
                if not br.applies or not (br.lets or br.when is not None):
                    continue
                if not var:  # a constant reading: only its branch
                    if value != reading:
                        continue
                    at = ind
                else:
                    src.add(ind, f"{'if' if first else 'elif'} {var} == {reading!r}:")
                    first = False
                    at = ind + 1
                inner = dict(scope)
                for name, node in br.lets:
                    src.add(at, f"v_{name} = {self.expr(node, inner)}")
                    inner[name] = (not var and _literal(node)) or f"v_{name}"
                if br.when is not None:  # under this reading the rule applies only where it holds
                    src.add(at, f"if not ({self.expr(br.when, inner)}):")
                    src.add(at + 1, skip)
            for br in rb.branches.values():
                for name, _ in br.lets:
                    scope[name] = f"v_{name}"
            if not var and value in rb.branches:  # a constant reading: its constant names as written
                for name, node in rb.branches[value].lets:
                    scope[name] = _literal(node) or scope[name]
        for name, node in r.lets:
            src.add(ind, f"v_{name} = {self.expr(node, scope)}")
            scope[name] = _literal(node) or f"v_{name}"
        bit = 1 << offset
        bits = []
        for (at, _, branches), (var, value) in zip(blocks, took, strict=True):
            index = {b: i + 1 for i, b in enumerate(branches)}
            if not var:
                bit |= index.get(value, 0) << at
            else:
                bits.append(f"({src.ref(index)}[{var}] << {at})")
        bits.insert(0, str(bit))
        src.add(ind, f"_b |= {' | '.join(bits)}")

    def _exceptions(self, src: GeneratedSource, r: DoRule, scope: dict[str, str], ind: int,
                    table: list[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]]) -> None:
        for x in r.exceptions:
            if self.never(x):
                continue
            cond = self.expr(x.when, scope) if x.when is not None else "True"
            src.add(ind, f"if {cond}:")
            src.add(ind + 1, "while True:")
            inner = dict(scope)
            deeper = ind + 1 + 1
            self._enter(src, x, inner, deeper, "break", table)
            self._exceptions(src, x, inner, deeper, table)
            src.add(deeper, "break")
            # after it, a name the exception may have given is its variable (a literal holds
            # only where the exception applied, or only where it did not)
            for name, value in inner.items():
                if scope.get(name) != value:
                    scope[name] = f"v_{name}"

    # ------------------------------------------------------------------ blocks
    def block(self, chain: Chain, args: tuple[str, ...], *, every: bool = False) -> CompiledChain:
        """Compile the statements ``chain`` carries out; its entry takes the position and
        the names ``args`` in order (every name the chain's rules may give). ``every``: the
        block of a rule applied by ``every`` (it cannot wait; its end returns instead of
        going on where the step was applied)."""
        runner = self.runner
        do, owner, parts = runner.effective(chain)
        src = GeneratedSource({}, self._uid("B"))
        out = CompiledChain(lambda D, E: None)
        lets = chain_lets(chain)
        entry = self._uid("blk_")
        ctx = StatementCompiler(self, chain, parts, lets, src, out, every)
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


def _literal(node: Node) -> str:
    """The Python literal of a name given a number or ``true``/``false`` (written in its
    place in the expressions after it, where Python folds what it decides: the same values,
    fewer steps), or ``""`` for a name given anything else."""
    if node.op == "bool" or (node.op == "int" and isinstance(node.value, int) and node.value >= 0):
        return repr(node.value)
    return ""


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
