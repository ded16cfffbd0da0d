"""Directives for the rule language: the tables of primitives, steps, statements and
declared rules, and a rule's logic block declared with effect keys rendered in words beside
its statement (read from ``spec/``, never typed here; blocks of statements are written by
:mod:`.statements`)."""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

import yaml
from docutils import nodes

from palast.lang.blocks import DO_STEPS, Program
from palast.lang.logic import READING_BLOCKS, declarations
from palast.lang.primitives import ALONE, PRIMITIVES
from palast.lang.statements import DECKS, EMIT_FIELDS, JUNCTIONS, KEEP, KEYS, PLACES, TARGETS, walk
from palast.lang.syntax import parse, show
from palast.lang.usage import primitive_uses
from palast.spec.load import Spec

from .specdata import Cell, SpecDirective, joined, literal, table
from .statements import JUNCTION_WORDS, Words, check_words, do_program

#: How each key of a logic block reads in the book.
KEY_WORDS: Mapping[str, str] = {
    "step": "step of play", "exception_of": "exception of", "let": "where", "when": "applies when",
    "next": "the next player is", "decide": "a decision", "round_end": "the round ends as",
    "no_action": "the card does not act, by", "scorers": "who scores", "points": "points each",
    "end_game": "the game ends", "options": "what may be chosen", "winners": "the winners are",
    "by": "most of", "try_others": "then the other tie-breaks in order",
    "carry_out": "the role's action is carried out",
}
#: How an effect key whose value is ``false`` reads (one whose value is ``true`` reads as its
#: words in :data:`KEY_WORDS`).
FALSE_WORDS: Mapping[str, str] = {
    "end_game": "the game goes on", "try_others": "no other tie-break: the tied players share the win",
    "carry_out": "the role's action is not carried out",
}


def _expr(text: str) -> nodes.literal:
    return literal(show(parse(text)))


def logic_items(raw: Mapping[str, Any], words: Words | None = None) -> nodes.field_list:
    """A rule's logic block declared with effect keys as a field list: one field per key,
    expressions as code, each reading of a readings block as a nested list. With ``words``
    the step, the rule it bends, variation points and rules named are links, and each
    reading names the rulesets that take it, and the rule's exceptions are listed."""
    fl = nodes.field_list(classes=["pal-logic"])

    def field(name: str, *body: nodes.Node) -> None:
        f = nodes.field()
        f += nodes.field_name(name, name)
        fb = nodes.field_body()
        for b in body:
            fb += b if isinstance(b, nodes.Element) and not isinstance(b, nodes.Inline) else nodes.paragraph("", "", b)
        f += fb
        fl.append(f)

    for key, value in raw.items():
        name = KEY_WORDS.get(key, key)
        if key == "let":
            for let, text in value.items():
                field(f"where {let}", _expr(text))
        elif key in READING_BLOCKS:
            items = nodes.bullet_list(classes=["pal-readings"])
            for reading, eff in value.items():
                if reading == "point":
                    continue
                para = nodes.paragraph("", "", literal(reading))
                if words is not None:
                    para += nodes.Text(" (")
                    para.extend(words.rulesets(value["point"], reading))
                    para += nodes.Text(")")
                para += nodes.Text(": ")
                para += _effect_text(eff)
                items += nodes.list_item("", para)
            if words is not None:
                words.open_item(items, value["point"], {r for r in value if r != "point"})
            point: nodes.Node = (words.ref("vp", value["point"], value["point"]) if words is not None
                                 else literal(value["point"]))
            head = nodes.paragraph("", "", nodes.Text("as variation point "), point, nodes.Text(" is read:"))
            field(key.replace("_", " "), head, items)
        elif key in ("when", "next", "scorers", "options", "winners"):
            field(name, _expr(value))
        elif key == "step" and words is not None:
            field("step", words.ref("step", str(value), str(value)))
        elif key == "exception_of" and words is not None and value in words.spec.rules:
            field(name, nodes.paragraph("", "", *words.rule_link(str(value))))
        elif isinstance(value, str) and words is not None and value in words.spec.rules:
            field(name, nodes.paragraph("", "", *words.rule_link(value)))
        elif isinstance(value, Mapping):
            field(name, _effect_text(value))
        elif isinstance(value, bool):
            field(name, nodes.Text("yes" if value else "no"))
        else:
            field(name, literal(str(value).lower()))
    return fl


def _effect_text(eff: Mapping[str, Any]) -> nodes.inline:
    out = nodes.inline()
    parts = []
    for key, value in eff.items():
        words = KEY_WORDS.get(key, key)
        if key == "decide":
            node = nodes.inline("", "", nodes.Text(f"a {value['decision']} decision by "), _expr(value["by"]),
                                nodes.Text(" among "), _expr(value["options"]))
        elif isinstance(value, bool):
            node = nodes.inline("", words if value else FALSE_WORDS.get(key, f"not: {words}"))
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
    """``palast-declared-rules``: every rule with a logic block (with statements or with
    effect keys), grouped by step in the order the steps first come in the spec, each with
    how it is declared, its step (a link to the table of steps), the rule it bends and a
    link to its page."""

    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "roles.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        prog = do_program(spec)
        effect = {d.rule: d for d in declarations(spec)}
        by_step: dict[str, list[tuple[str, str, str | None]]] = {}
        for rid in spec.rules:
            if rid in prog.rules:
                r = prog.rules[rid]
                by_step.setdefault(r.step, []).append((rid, "statements", r.exception_of))
            elif rid in effect:
                d = effect[rid]
                by_step.setdefault(d.step, []).append((rid, "effect keys", d.exception_of))
        rows: list[list[Cell]] = []
        for step, rules in by_step.items():
            for rid, style, bends in rules:
                rows.append([[self.ref("rule", rid, rid)], [self.ref("step", step, step)], style,
                             [self.ref("rule", bends, bends)] if bends else "", spec.rules[rid].title])
        return [table(["rule", "step", "declared with", "exception of", "title"], rows, widths=[3, 2, 2, 3, 4])]


# ---------------------------------------------------------------------------- statements
#: Each statement form: the head with what its value is, each other key with its value, and
#: what it does. The book's grammar table is built from these and
#: :data:`palast.lang.statements.KEYS`; a head or key missing here fails the build.
FORMS: Mapping[str, tuple[str, Mapping[str, str], str]] = {
    "emit": ("EVENT", {k: "EXPR" for k in EMIT_FIELDS},
             "Report an event of that kind (`spec/visibility.yaml`'s effects), with the fields given. The event "
             "cites the rule whose declaration holds the statement, or an exception that gave a value it reads."),
    "move": ("CARDS", {"from": "PLACE", "to": "PLACE (required)"},
             "Move a card, or a collection of cards, from one place to another; without `from`, a card just drawn "
             "(in no place yet). A place is `hand(P)`, `display(P)` or one of the game's other places: "
             + ", ".join(f"`{z}`" for z, takes in PLACES.items() if not takes) + "."),
    "draw": ("DECK", {"to": "PLACE", "as": "NAME", "decision": "DECISION (required)", "by": "EXPR (required)"},
             "Take the top card of " + " or ".join(f"`{d}`" for d in DECKS) + ", name it (`as`) and put it in the "
             "place (`to`); one of the two is required. Where the deck's order is unknown play waits for the "
             "chance decision named."),
    "shuffle": ("[PLACE, ...]", {"into": "DECK (required)"},
                "Gather the cards of the places face down into the deck; its order is unknown."),
    "deal": ("EXPR", {"decision": "DECISION (required)", "cards_of": "RULE"},
             "Gather every card of the game, shuffle, and deal each player that many cards; the rest is the "
             "draw deck. Play waits for the chance decision named. cards_of names the rule that says which "
             "cards the game has: a deal of other cards is refused citing that rule."),
    "choose": ("DECISION", {"by": "EXPR (required)", "options": "EXPR", "each": "[{NAME: EXPR, else: TEXT}, ...]",
                            "where": "CONDITIONS",
                            "as": "NAME (required)", "keep": "{FIELD: EXPR, ...}", "refuse": "TEXT"},
               "Wait for player `by` to take the decision: one of the options, named `as`. The options are given "
               "(`options`) or built from parts (`each`: each part ranges over a collection that may use the parts "
               "before it; `where`: a condition, or a list of `{holds: CONDITION, else: TEXT}`, that every option "
               "meets). `keep` stores values in the decision (its fields: " + ", ".join(KEEP) + "); `refuse` says "
               "why an action outside the options is refused."),
    "if": ("CONDITION", {"then": "[STATEMENT, ...]", "else": "[STATEMENT, ...]"},
           "Carry out `then` where the condition holds, else the statements of `else`."),
    "readings": ("POINT", {"READING": "[STATEMENT, ...] (one per reading)"},
                 "Carry out the statements of the reading the ruleset takes; a ruleset that leaves the point open "
                 "stops play there with a gap."),
    "set": ("{COUNTER: EXPR, ...}", {},
            "Give counters new values, every value computed before any is set. Counters: "
            + ", ".join(f"`{t}(P)`" if takes else f"`{t}`" for t, (takes, _) in TARGETS.items()) + "."),
    "step": ("STEP", {}, "Apply the step: its first rule whose condition holds, with its exceptions. Play goes "
                         "on after the statement when the step's statements end; no name survives it."),
    "every": ("STEP", {}, "Apply every rule of the step whose condition holds, in order, each with its "
                          "exceptions; none of them may wait for a decision. No name survives it."),
    "part": ("NAME", {}, "Carry out the statements of the rule's part of that name, as the rules applied last "
                         "give it."),
    "end_round": ("RULE", {"forced": "true or false"},
                  "End the round as the round-end rule named says (its kind, who scores, the points); `forced` marks "
                  "a whisper the player could not avoid."),
    "goto": ("JUNCTION", {}, "Go to a junction of the turn's state machine: "
                             + "; ".join(f"`{j}`: {JUNCTION_WORDS[j]}" for j in JUNCTIONS)
                             + ". Nothing after it is carried out."),
    "turn": ("EXPR", {}, "That player takes the next turn. Nothing after it is carried out."),
}


def code_text(words: str) -> nodes.paragraph:
    """``words`` as a paragraph, each part between backquotes as code."""
    para = nodes.paragraph()
    for i, piece in enumerate(words.split("`")):
        if piece:
            para += literal(piece) if i % 2 else nodes.Text(piece)
    return para


def forms_problems() -> list[str]:
    """Statement heads and keys of the language that :data:`FORMS` (or the words of
    :mod:`.statements`) do not describe."""
    out = [f"no words for statement or junction {h!r}" for h in check_words()]
    for head, keys in KEYS.items():
        if head not in FORMS:
            out.append(f"no grammar for statement {head!r}")
            continue
        out += [f"no grammar for key {k!r} of {head}" for k in keys if k not in FORMS[head][1]]
    return out


def statement_uses(prog: Program) -> Counter[str]:
    """Statement head -> how many rules use it (nested statements, parts and readings included)."""
    uses: Counter[str] = Counter()
    for r in prog.rules.values():
        blocks = [r.do or (), *r.parts.values()]
        for rb in r.readings:
            for br in rb.branches.values():
                blocks += [br.do or (), *br.parts.values()]
        uses.update({s.head for b in blocks for s in walk(list(b))})
    return uses


class StatementsDirective(SpecDirective):
    """``palast-statements``: the grammar of every statement: its form, its other keys, what
    it does, and how many declared rules use it (:data:`FORMS`, checked against
    :data:`palast.lang.statements.KEYS`)."""

    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "roles.yaml")

    def run(self) -> list[nodes.Node]:
        problems = forms_problems()
        if problems:
            raise self.error("the book cannot describe every statement: " + "; ".join(problems))
        uses = statement_uses(do_program(self.spec()))
        rows: list[list[Cell]] = []
        for head in KEYS:
            value, keys, meaning = FORMS[head]
            groups: list[tuple[list[str], str]] = []  # keys with the same value share a line
            for k, v in keys.items():
                if groups and groups[-1][1] == v:
                    groups[-1][0].append(k)
                else:
                    groups.append(([k], v))
            key_cells: list[nodes.Node] = []
            for names, v in groups:
                form, _, note = v.partition(" (")
                line = nodes.paragraph("", "", literal(f"{', '.join(names)}: {form}"))
                if note:
                    line += nodes.Text(f" ({note}")
                key_cells.append(line)
            rows.append([[literal(f"{head}: {value}")], key_cells or "none", [code_text(meaning)], str(uses[head])])
        return [table(["statement", "other keys", "what it does", "rules using it"], rows, widths=[3, 4, 8, 1],
                      classes=["pal-grammar"])]


class StepsDirective(SpecDirective):
    """``palast-steps``: every step of play that has declared rules: how its rules are
    declared, whether they may wait for a decision, and its rules in the order they are
    tried. Each row holds the step's anchor (``step-NAME``), which rule pages link to."""

    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "roles.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        prog = do_program(spec)
        effect: dict[str, list[str]] = {}
        for d in declarations(spec):
            if d.exception_of is None:
                effect.setdefault(d.step, []).append(d.rule)
        rows: list[list[Cell]] = []
        for step, rules in [*((s, [r.rule for r in rs]) for s, rs in prog.steps.items()), *effect.items()]:
            waits = ("yes" if DO_STEPS[step] else "no") if step in DO_STEPS else "no"
            style = "statements" if step in DO_STEPS else "effect keys"
            rows.append([[self.target("step", step, f"step {step}"), literal(step)], style, waits,
                         joined([self.ref("rule", r, r) for r in rules])])
        return [table(["step", "declared with", "may wait for a decision", "its rules, tried in this order"],
                      rows, widths=[2, 2, 2, 8])]


def block_text(spec: Spec, file: str, path: tuple[str | int, ...]) -> tuple[str, int, int]:
    """The text of the logic block at ``path`` in spec file ``file`` as written (its
    ``logic:`` line and what follows), dedented, with its first and last line numbers."""
    doc = spec.documents[file]
    node: Any = doc.root
    key_node: Any = None
    for part in path:
        if isinstance(node, yaml.MappingNode):
            key_node, node = next((k, v) for k, v in node.value if k.value == part)
        else:
            node = node.value[int(part)]
    lines = (spec.root / file).read_text(encoding="utf-8").splitlines()
    first = key_node.start_mark.line
    mark = node.end_mark  # where the next token starts: the block ends before it
    end = mark.line + (1 if mark.line < len(lines) and lines[mark.line][:mark.column].strip() else 0)
    while end > first and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return textwrap.dedent("\n".join(lines[first:end])), first + 1, end
