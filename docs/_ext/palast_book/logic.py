"""Directives for the rule language: the table of primitives, and a rule's declared
logic rendered in words beside its statement (read from ``spec/``, never typed here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docutils import nodes

from palast.lang.logic import READING_BLOCKS, declarations
from palast.lang.primitives import ALONE, PRIMITIVES
from palast.lang.syntax import parse, show
from palast.lang.usage import primitive_uses
from palast.spec import Spec

from .specdata import Cell, SpecDirective, literal, table

#: How each key of a logic block reads in the book.
KEY_WORDS: Mapping[str, str] = {
    "step": "step of play", "exception_of": "exception of", "let": "where", "when": "applies when",
    "next": "the next player is", "decide": "a decision", "round_end": "the round ends as",
    "no_action": "the card does not act, by", "scorers": "who scores", "points": "points each",
    "end_game": "the game ends", "options": "what may be chosen", "winners": "the winners are",
    "by": "most of", "try_others": "then the other tie-breaks in order",
    "carry_out": "the role's action is carried out",
}


def _expr(text: str) -> nodes.literal:
    return literal(show(parse(text)))


def logic_items(raw: Mapping[str, Any]) -> nodes.field_list:
    """A rule's logic block as a field list: one field per key, expressions as code,
    each reading of a readings block as a nested list."""
    fl = nodes.field_list(classes=["pal-logic"])

    def field(name: str, body: nodes.Node) -> None:
        f = nodes.field()
        f += nodes.field_name(name, name)
        f += nodes.field_body("", body if isinstance(body, nodes.paragraph) else nodes.paragraph("", "", body))
        fl.append(f)

    for key, value in raw.items():
        words = KEY_WORDS.get(key, key)
        if key == "let":
            for name, text in value.items():
                field(f"where {name}", _expr(text))
        elif key in READING_BLOCKS:
            items = nodes.bullet_list()
            for reading, eff in value.items():
                if reading == "point":
                    continue
                para = nodes.paragraph("", "", literal(reading), nodes.Text(": "))
                para += _effect_text(eff)
                items += nodes.list_item("", para)
            head = nodes.paragraph("", "", nodes.Text("as variation point "), literal(value["point"]),
                                   nodes.Text(" is read:"))
            box = nodes.container()
            box += head
            box += items
            f = nodes.field()
            f += nodes.field_name(key.replace("_", " "), key.replace("_", " "))
            f += nodes.field_body("", box)
            fl.append(f)
        elif key in ("when", "next", "scorers", "options", "winners"):
            field(words, _expr(value))
        else:
            field(words, _effect_text({key: value}))
    return fl


def _effect_text(eff: Mapping[str, Any]) -> nodes.inline:
    out = nodes.inline()
    parts = []
    for key, value in eff.items():
        words = KEY_WORDS.get(key, key)
        if key == "decide":
            node = nodes.inline("", "", nodes.Text(f"a {value['decision']} decision by "), _expr(value["by"]),
                                nodes.Text(" among "), _expr(value["options"]))
        elif isinstance(value, str) and key not in ("round_end", "no_action", "step", "exception_of"):
            node = nodes.inline("", "", nodes.Text(words + " "), _expr(value))
        else:
            node = nodes.inline("", "", nodes.Text(f"{words} "), literal(str(value).lower()))
        parts.append(node)
    for i, p in enumerate(parts):
        if i:
            out += nodes.Text("; ")
        out += p
    return out


def logic_of(spec: Spec) -> dict[str, Mapping[str, Any]]:
    """Rule id -> its logic block, for every rule that declares one."""
    return {d.rule: d.raw for d in declarations(spec)}


class PrimitivesDirective(SpecDirective):
    """``palast-primitives``: every primitive of the rule language, from
    :data:`palast.lang.primitives.PRIMITIVES`."""

    def run(self) -> list[nodes.Node]:
        uses = primitive_uses(self.spec())
        rows: list[list[Cell]] = []
        for p in PRIMITIVES.values():
            if p.binder:
                form = f"{p.name}(x in COLLECTION{', ' + ', '.join(p.args) if p.args else ''})"
            elif p.args:
                form = f"{p.name}({', '.join(p.args)})"
            else:
                form = p.name
            result = {"=": "as the collection", "-": "an element"}.get(p.result, p.result)
            rows.append([literal(form), result, p.meaning, str(len(uses[p.name]))])
        alone: list[list[Cell]] = [[literal(name), ", ".join(uses[name]) or "none yet", ALONE[name]]
                                   for name in PRIMITIVES if len(uses[name]) <= 1]
        intro = nodes.paragraph("", "A primitive that one declaration uses, or none, could be logic hidden in code "
                                    "rather than composed in the language. These are the ones, with why each is "
                                    "a primitive of its own:")
        return [table(["primitive", "value", "meaning", "declarations using it"], rows), intro,
                table(["primitive", "used by", "why it is a primitive of its own"], alone)]


class DeclaredRulesDirective(SpecDirective):
    """``palast-declared-rules``: every rule with a logic block, by step, with links to
    the rule's page."""

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        rows: list[list[Cell]] = []
        for d in declarations(spec):
            rows.append([literal(d.rule), d.step, d.exception_of or "", spec.rules[d.rule].title])
        return [table(["rule", "step", "exception of", "title"], rows)]
