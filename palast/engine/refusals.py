"""Why a value is refused at a decision, in the words the declarations give: the first part
or condition of a choice's options that leaves it out, or the rule of the chain whose value
leaves it out, with its ``refuse`` text (each ``{EXPR}`` filled in) and the readings that
rule took. Used by :meth:`palast.engine.blocks.Runner.resume`; the clauses are those of the
rule named."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from palast.engine.chains import Chain, chain_lets, reading_names
from palast.engine.draft import Draft
from palast.lang.blocks import infer_or_any
from palast.lang.compiler import Compiler
from palast.lang.primitives import ELEMENT, PRIMITIVES
from palast.lang.statements import placeholders
from palast.lang.syntax import Each, each_conditions, each_parts, names, parse

if TYPE_CHECKING:
    from palast.engine.blocks import Resume, Runner


class Refusals:
    """The refusal texts of one game's rules.

    :param runner: the game's compiled rules (their expressions, role names and game).
    """

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        #: compiled ``{EXPR}`` of refusal texts
        self._texts: dict[str, Callable[[Draft, dict[str, Any]], Any]] = {}

    def why_refused(self, r: Resume, d: Draft, env: dict[str, Any], value: Any) -> tuple[str, str]:
        """Why ``value`` is not an option of ``r``, and the rule that says so.

        For options built from parts: the first part not among its collection or the first
        condition that does not hold, in the words the declaration gives (its ``{EXPR}``
        filled in, and the variation points whose readings the condition reads named). For
        options a rule's name holds: the first rule of the chain whose value of that name
        leaves ``value`` out (its ``refuse``, and the readings it took named). Else the
        choose's ``refuse``, citing the rule that declares it.
        """
        each = r.each
        if each is not None and isinstance(value, tuple) and len(value) == len(each_parts(each)):
            e = dict(env)
            fn = self.runner.fn
            info: Each = each.value  # type: ignore[assignment]
            for (name, coll), v, why in zip(each_parts(each), value, info.part_else, strict=True):
                if v not in fn(coll)(d, e):
                    return self.fill(why or r.refuse, d, {**e, name: v}, r.chain), r.rule
                e[name] = v
            given = reading_names(r.chain)
            for cond, why in each_conditions(each):
                if not fn(cond)(d, e):
                    used = sorted({given[n] for n in names(cond) if n in given})
                    tail = "".join(f" (variation point {p}: {v})" for p, v in used)
                    return self.fill(why or r.refuse, d, e, r.chain) + tail, r.rule
        elif r.option_name:
            step: dict[str, Any] = {}
            for link, took in r.chain.links:
                given_here = {n for n, _ in link.lets}
                for rb, reading in zip(link.readings, took, strict=True):
                    for name, node in rb.branches[reading].lets:
                        step[name] = self.runner.fn(node)(d, step)
                        given_here.add(name)
                for name, node in link.lets:
                    step[name] = self.runner.fn(node)(d, step)
                if r.option_name in given_here and value not in step[r.option_name]:
                    if link is r.chain.links[0][0] or not link.refuse:
                        break  # left out where the options are first given: the choose's reason
                    tail = "".join(f" (variation point {rb.point}: {reading})"
                                   for rb, reading in zip(link.readings, took, strict=True))
                    return self.fill(link.refuse, d, env, r.chain) + tail, link.rule
        return self.fill(r.refuse, d, env, r.chain), r.rule

    def fill(self, text: str, d: Draft, env: dict[str, Any], chain: Chain) -> str:
        """``text`` with each ``{EXPR}`` replaced by its value in words."""
        out = text
        for expr in placeholders(text):
            node = parse(expr)
            value = self._compiled_text(expr)(d, env)
            kind = infer_or_any(node, self._kinds(chain, env), self.runner.role_kinds)
            out = out.replace("{" + expr + "}", self.runner.game.describe_value(kind, value), 1)
        return out

    def _compiled_text(self, expr: str) -> Callable[[Draft, dict[str, Any]], Any]:
        got = self._texts.get(expr)
        if got is None:
            comp = Compiler(self.runner.game.lang_constants, self.runner.roles)
            node = parse(expr)
            params = {n: f"E[{n!r}]" for n in sorted(names(node)) if n not in PRIMITIVES and n not in self.runner.roles}
            slot = comp.add_function("_t", f"def _t(D, E):\n    return {comp.expression(node, params)}\n", {})
            comp.build()
            got = self._texts[expr] = slot[0]
        return got

    def _kinds(self, chain: Chain, env: dict[str, Any]) -> dict[str, str]:
        """The kinds of the names of ``chain`` (its lets, and the parts of its options)."""
        kinds: dict[str, str] = {}
        for name, node in chain_lets(chain).items():
            kinds[name] = infer_or_any(node, kinds, self.runner.role_kinds)
            if node.op == "each":
                inner = dict(kinds)
                for part, coll in each_parts(node):
                    inner[part] = ELEMENT.get(infer_or_any(coll, inner, self.runner.role_kinds), "any")
                kinds.update({k: v for k, v in inner.items() if k not in kinds})
        return kinds

