"""A rule declared with statements (a do-style ``logic:`` block, :mod:`palast.lang.blocks`)
written in words, from its parsed declaration: its condition, named values, readings, its
statements as a nested list, its parts, its refusal, the rule it bends and its exceptions.

The words come from the statement heads and block keys (:data:`HEAD_WORDS` names every head
of :data:`palast.lang.statements.KEYS`); nothing here names a rule, a role or a reading.
Expressions are shown as code, written back with :func:`palast.lang.syntax.show`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from docutils import nodes

from palast.lang.blocks import Branch, DoRule, Program, Readings, program
from palast.lang.logic import declarations
from palast.lang.statements import JUNCTIONS, KEYS, Stmt, Zone, placeholders
from palast.lang.syntax import ExpressionError, Node, each_conditions, each_parts, parse, show
from palast.spec.load import Spec

from .specdata import literal, rulesets_by_reading, text

#: A link to a spec item: ``(kind, id, text)`` -> the link node (``SpecDirective.ref``).
Ref = Callable[[str, str, str], nodes.Node]
#: Inline pieces: text, an expression (shown as code) or a node.
Piece = str | Node | nodes.Node

#: What each statement head does, in a few words (the book's grammar table; every head of
#: :data:`palast.lang.statements.KEYS` must have an entry, see :func:`check_words`).
HEAD_WORDS: Mapping[str, str] = {
    "emit": "report an event",
    "move": "move cards between places",
    "draw": "draw the top card of a deck",
    "shuffle": "shuffle places into a deck",
    "deal": "deal a new round",
    "choose": "wait for a player's decision",
    "if": "carry out one list or the other",
    "readings": "carry out the list of the ruleset's reading",
    "set": "give counters new values",
    "step": "apply a step",
    "every": "apply every rule of a step",
    "part": "carry out a part",
    "end_round": "end the round",
    "goto": "end the turn or the round",
    "turn": "hand the next turn to a player",
}
#: What each junction of ``goto`` means.
JUNCTION_WORDS: Mapping[str, str] = {"turn-over": "the turn is over", "round-over": "the round is over"}
#: Enumeration styles of nested statement lists, by depth.
_ENUM = ("arabic", "loweralpha", "lowerroman")


_PROGRAMS: dict[int, tuple[Spec, Program]] = {}


def do_program(spec: Spec) -> Program:
    """The do-style rules of ``spec`` (:func:`palast.lang.blocks.program`), parsed once per
    loaded spec."""
    hit = _PROGRAMS.get(id(spec))
    if hit is None or hit[0] is not spec:
        hit = _PROGRAMS[id(spec)] = (spec, program(spec))
    return hit[1]


def check_words() -> list[str]:
    """The statement heads and junctions of the language that have no words here (empty
    when the book can write every statement)."""
    return [h for h in KEYS if h not in HEAD_WORDS] + [j for j in JUNCTIONS if j not in JUNCTION_WORDS]


def inline(*pieces: Piece) -> list[nodes.Node]:
    """``pieces`` as inline nodes: text as text, an expression as code."""
    out: list[nodes.Node] = []
    for p in pieces:
        if isinstance(p, str):
            out.append(nodes.Text(p))
        elif isinstance(p, Node):
            out.append(literal(show(p)))
        else:
            out.append(p)
    return out


def para(*pieces: Piece) -> nodes.paragraph:
    """A paragraph of ``pieces`` (see :func:`inline`)."""
    return nodes.paragraph("", "", *inline(*pieces))


def refusal(words: str) -> list[nodes.Node]:
    """A refusal's text in quotes, each ``{EXPR}`` placeholder shown as the expression (code)."""
    out: list[nodes.Node] = [nodes.Text("“")]
    rest = words
    for expr in placeholders(words):
        before, _, rest = rest.partition("{" + expr + "}")
        if before:
            out.append(nodes.Text(before))
        try:
            out.append(literal(show(parse(expr))))
        except ExpressionError:  # palast spec check reports a placeholder that does not parse
            out.append(literal(expr))
    if rest:
        out.append(nodes.Text(rest))
    out.append(nodes.Text("”"))
    return out


def place(z: Zone) -> nodes.literal:
    """A place as code: ``hand(actor)``, ``discard_pile``."""
    return literal(f"{z.zone}({show(z.seat)})" if z.seat is not None else z.zone)


def _field(fl: nodes.field_list, name: str | list[nodes.Node], *body: nodes.Node) -> None:
    """Add a field to ``fl``: its name (text, or inline nodes) and its body (block nodes, or
    inline nodes each put in a paragraph)."""
    fb = nodes.field_body()
    for b in body:
        fb += b if isinstance(b, nodes.Element) and not isinstance(b, nodes.Inline) else nodes.paragraph("", "", b)
    fname = nodes.field_name(name, name) if isinstance(name, str) else nodes.field_name("", "", *name)
    fl += nodes.field("", fname, fb)


def exceptions_of(spec: Spec, prog: Program, rule: str) -> list[tuple[str, Node | str | None]]:
    """The exceptions of ``rule`` (declared with statements or with effect keys), in the
    order they apply, each with its condition (a node, an expression's text, or ``None``)."""
    if rule in prog.rules:
        return [(x.rule, x.when) for x in prog.rules[rule].exceptions]
    return [(d.rule, d.raw.get("when")) for d in declarations(spec) if d.exception_of == rule]


class Words:
    """Writes a do-style rule in words.

    :param spec: the spec; :param prog: its do-style rules (:func:`palast.lang.blocks.program`);
    :param ref: makes a link to a spec item (``rule``, ``vp``, ``role``, ``step``).
    """

    def __init__(self, spec: Spec, prog: Program, ref: Ref) -> None:
        self.spec = spec
        self.prog = prog
        self.ref = ref

    # ------------------------------------------------------------------ links
    def rule_link(self, rid: str, *, with_id: bool = True) -> list[nodes.Node]:
        """A link to rule ``rid`` (its title), with its id as code after it."""
        out: list[nodes.Node] = [self.ref("rule", rid, self.spec.rules[rid].title)]
        if with_id:
            out += [nodes.Text(" ("), literal(rid), nodes.Text(")")]
        return out

    def rulesets(self, point: str, reading: str) -> list[nodes.Node]:
        """The rulesets (and house rulesets reading the point otherwise than their base)
        that take ``reading`` of ``point``, or "no ruleset"."""
        names = rulesets_by_reading(self.spec, point).get(reading, [])
        out: list[nodes.Node] = [nodes.Text(", ".join(names))] if names else []
        house = [h for h, rs in self.spec.house_rulesets.items() if rs["readings"].get(point) == reading]
        if house:
            out.append(nodes.Text(("; " if out else "") + "house ruleset " + ", ".join(house)))
        return out or [text("no ruleset", "pal-muted")]

    # ------------------------------------------------------------------ the block
    def fields(self, r: DoRule) -> nodes.field_list:
        """Rule ``r``'s declaration as a field list: what it bends, its step and condition,
        its readings, named values, statements, parts, refusal and exceptions."""
        fl = nodes.field_list(classes=["pal-logic"])
        bends = self._bent(r)
        if r.exception_of is not None:
            body = nodes.paragraph("", "", *self.rule_link(r.exception_of))
            for word, names in (("after", r.after), ("before", r.before)):
                if not names:
                    continue
                body += nodes.Text(f"; applied {word} its exception")
                body += nodes.Text("s " if len(names) > 1 else " ")
                for i, a in enumerate(names):
                    if i:
                        body += nodes.Text(", ")
                    body.extend(self.rule_link(a))
            _field(fl, "exception of", body)
        else:
            _field(fl, "step", nodes.paragraph("", "", self.ref("step", r.step, r.step)))
        _field(fl, "applies when", self.condition(r))
        for rb in r.readings:
            _field(fl, "readings", *self.readings_block(r, rb, bends))
        if r.lets:
            _field(fl, "named values", self.lets(r.lets, bends))
        if r.do is not None:
            intro = []
            if bends:
                intro = [para("in place of what ", *self.rule_link(bends[-1].rule, with_id=False), " does:")]
            _field(fl, "does", *intro, self.block(r.do, r, 0))
        for name, stmts in r.parts.items():
            _field(fl, [nodes.Text("part "), literal(name)], *self.part_body(name, stmts, r, bends))
        if r.refuse:
            _field(fl, "refusal", para("an option it takes away is refused with ", *refusal(r.refuse)))
        self.exceptions(fl, r.rule)
        return fl

    def exceptions(self, fl: nodes.field_list, rule: str) -> None:
        """Add to ``fl`` the exceptions of ``rule`` (either style), if it has any."""
        excs = exceptions_of(self.spec, self.prog, rule)
        if excs:
            _field(fl, "exceptions", *self.exception_list(excs))

    def _bent(self, r: DoRule) -> list[DoRule]:
        """The rules ``r`` bends, the rule of the step first."""
        out: list[DoRule] = []
        x = self.prog.rules.get(r.exception_of) if r.exception_of else None
        while x is not None:
            out.insert(0, x)
            x = self.prog.rules.get(x.exception_of) if x.exception_of else None
        return out

    def condition(self, r: DoRule) -> nodes.paragraph:
        """When ``r`` applies: the role of the card played (a role's rule), its ``when``."""
        p = nodes.paragraph()
        if r.exception_of is None and r.role is not None:
            role = r.role.capitalize()
            p += nodes.Text("the card played is an " if role[0] in "AEIOU" else "the card played is a ")
            p += self.ref("role", r.role, role)
            if r.when is not None:
                p += nodes.Text(", and ")
        if r.when is not None:
            p += literal(show(r.when))
        elif r.exception_of is not None:
            p += nodes.Text("whenever the rule it bends applies")
        elif r.role is None:
            p += nodes.Text("always")
        return p

    def exception_list(self, excs: Sequence[tuple[str, Node | str | None]]) -> list[nodes.Node]:
        """The exceptions of a rule as a list of links, each with its condition."""
        items = nodes.bullet_list(classes=["pal-exceptions"])
        for rid, when in excs:
            p = nodes.paragraph("", "", *self.rule_link(rid))
            if when is not None:
                p += nodes.Text(", when ")
                p += literal(show(when) if isinstance(when, Node) else show(parse(when)))
            items += nodes.list_item("", p)
        out: list[nodes.Node] = []
        if len(excs) > 1:
            out.append(para("each whose condition holds applies, in this order, a later one seeing the values an "
                            "earlier one gave:"))
        out.append(items)
        return out

    # ------------------------------------------------------------------ values and readings
    def lets(self, lets: Sequence[tuple[str, Node]], bends: Sequence[DoRule]) -> nodes.bullet_list:
        """Named values, one item each; a value built with ``each`` as a nested list, and a
        name a bent rule gives marked as given in its place."""
        items = nodes.bullet_list(classes=["pal-lets"])
        for name, node in lets:
            if node.op == "each":
                first = para(literal(name), " is every choice of ",
                             *self._names_tuple([n for n, _ in each_parts(node)]), ":")
            else:
                first = para(literal(name), " = ", node)
            owner = self._giver(name, bends)
            if owner is not None:
                first += nodes.Text(" — in place of the value from ")
                first.extend(self.rule_link(owner.rule, with_id=False))
            item = nodes.list_item("", first)
            if node.op == "each":
                item += self.each_list(node)
            items += item
        return items

    @staticmethod
    def _giver(name: str, bends: Sequence[DoRule]) -> DoRule | None:
        """The last of the rules ``bends`` (rule of the step first) that gives ``name`` a value."""
        return next((b for b in reversed(bends) if name in b.chain_names()), None)

    @staticmethod
    def _names_tuple(names: Sequence[str]) -> list[Piece]:
        return ["(", *[p for i, n in enumerate(names) for p in ((", " if i else ""), literal(n))], ")"]

    def each_list(self, node: Node) -> nodes.bullet_list:
        """The parts of an ``each`` options value and its conditions, each with the words a
        refusal gives."""
        info = node.value
        items = nodes.bullet_list(classes=["pal-each"])
        for (name, coll), why in zip(each_parts(node), info.part_else, strict=True):  # type: ignore[attr-defined]
            p = para(literal(name), " in ", coll)
            if why:
                p += nodes.Text(" — else refused: ")
                p.extend(refusal(why))
            items += nodes.list_item("", p)
        conds = [(c, why) for c, why in each_conditions(node) if not (c.op == "bool" and c.value is True)]
        if conds:
            sub = nodes.bullet_list()
            for c, why in conds:
                p = para(c)
                if why:
                    p += nodes.Text(" — else refused: ")
                    p.extend(refusal(why))
                sub += nodes.list_item("", p)
            items += nodes.list_item("", para("where every one of these holds:"), sub)
        return items

    def readings_block(self, r: DoRule, rb: Readings, bends: Sequence[DoRule]) -> list[nodes.Node]:
        """A readings block: per reading, the rulesets that take it and what it gives; a
        reading no branch covers (open) stops play with a gap."""
        head = para("as variation point ", self.ref("vp", rb.point, rb.point), " is read:")
        items = nodes.bullet_list(classes=["pal-readings"])
        for reading, br in rb.branches.items():
            p = para(literal(reading), " (", *self.rulesets(rb.point, reading), "): ")
            item = nodes.list_item("", p)
            self.branch(item, p, br, r, bends)
            items += item
        self.open_item(items, rb.point, set(rb.branches))
        return [head, items]

    def open_item(self, items: nodes.bullet_list, point: str, covered: set[str]) -> None:
        """Add to ``items`` the rulesets that take no reading ``covered`` (those that leave
        ``point`` open): play stops there with a gap."""
        groups = rulesets_by_reading(self.spec, point)
        left = [rs for reading, rss in groups.items() if reading not in covered for rs in rss]
        if left:
            items += nodes.list_item("", para(text("open", "pal-open"), f" ({', '.join(left)}): play stops here "
                                                                        "with a gap"))

    def branch(self, item: nodes.list_item, p: nodes.paragraph, br: Branch, r: DoRule,
               bends: Sequence[DoRule]) -> None:
        """What one reading gives, written into ``item`` (``p`` is its first paragraph)."""
        if not br.applies:
            p += nodes.Text("the exception does not apply" if r.exception_of else "the rule does not apply")
            return
        if not br.lets and not br.parts and br.do is None and br.when is None:
            p += nodes.Text("nothing changes")
            return
        for i, (name, node) in enumerate(br.lets):
            p.extend(inline("; " if i else "", literal(name), " = ", node))
            owner = self._giver(name, bends)
            if owner is not None:
                p += nodes.Text(" (in place of the value from ")
                p.extend(self.rule_link(owner.rule, with_id=False))
                p += nodes.Text(")")
        if br.when is not None:
            p.extend(inline("; " if br.lets else "", "the " + ("exception" if r.exception_of else "rule")
                            + " applies only where ", br.when))
        if br.do is not None:
            item += para("it does instead:" if not br.lets else "and does instead:")
            item += self.block(br.do, r, 1)
        for name, body in br.parts.items():
            item.extend(self.part_body(name, body, r, bends, head=True))

    def part_body(self, name: str, body: Sequence[Stmt], r: DoRule, bends: Sequence[DoRule], *,
                  head: bool = False) -> list[nodes.Node]:
        """Part ``name``'s statements (or "nothing"), marked as given in place of a bent
        rule's part of that name."""
        owner = next((b for b in reversed(bends) if name in b.parts
                      or any(name in br.parts for rb in b.readings for br in rb.branches.values())), None)
        first = nodes.paragraph()
        if head:
            first += nodes.Text("part ")
            first += literal(name)
        if owner is not None:
            first += nodes.Text(", in place of " if head else "in place of ")
            first += nodes.Text("the part of ")
            first.extend(self.rule_link(owner.rule, with_id=False))
        if head or owner is not None:
            first += nodes.Text(":" if body else ": nothing")
        elif not body:
            first += nodes.Text("nothing")
        out: list[nodes.Node] = [first] if first.astext() else []
        if body:
            out.append(self.block(body, r, 1 if head else 0))
        return out

    # ------------------------------------------------------------------ statements
    def block(self, body: Sequence[Stmt], r: DoRule, depth: int) -> nodes.Element:
        """A list of statements as a numbered list (nested lists for ``if`` and ``readings``)."""
        lst = nodes.enumerated_list(enumtype=_ENUM[depth % len(_ENUM)], prefix="", suffix=".",
                                    classes=["pal-do"])
        for s in body:
            lst += self.statement(s, r, depth)
        return lst

    def _parts_of(self, r: DoRule) -> set[str]:
        own = set(r.parts)
        for rb in r.readings:
            for br in rb.branches.values():
                own |= set(br.parts)
        return own

    def statement(self, s: Stmt, r: DoRule, depth: int) -> nodes.list_item:
        """One statement in words, as a list item."""
        item = nodes.list_item(classes=[f"pal-stmt-{s.head.replace('_', '-')}"])
        h, k = s.head, s.keys
        if h == "emit":
            p = para("report ", literal(str(s.arg)))
            if k:
                p.extend(inline(" (", *[x for i, (f, n) in enumerate(k.items())
                                        for x in ((", " if i else ""), f"{f} ", n)], ")"))
            item += p
        elif h == "move":
            if "from" in k:
                item += para("move ", s.arg, " from ", place(k["from"]), " to ", place(k["to"]))
            else:
                item += para("put ", s.arg, " into ", place(k["to"]))
        elif h == "draw":
            p = para(k["by"], " draws the top card of ", literal(str(s.arg)))
            if "to" in k:
                p.extend(inline(" into ", place(k["to"])))
            if "as" in k:
                p.extend(inline(", named ", literal(k["as"])))
            p.extend(inline(" (chance decision ", literal(k["decision"]), " where the deck's order is unknown)"))
            item += p
        elif h == "shuffle":
            where = [x for i, z in enumerate(s.arg) for x in ((" and " if i else ""), place(z))]
            item += para("shuffle the cards of ", *where, " face down into ", literal(k["into"]))
        elif h == "deal":
            item += para("gather every card and shuffle; deal ", s.arg, " to each player (chance decision ",
                         literal(k["decision"]), "); the rest is the draw deck",
                         *((" (the game's cards: rule ", literal(k["cards_of"]), ")") if "cards_of" in k else ()))
        elif h == "choose":
            self._choose(item, s)
        elif h == "if":
            item += para("if ", s.arg, ":")
            then, other = s.blocks["then"], s.blocks["else"]
            item += self.block(then, r, depth + 1) if then else para("nothing")
            if other:
                item += para("otherwise:")
                item += self.block(other, r, depth + 1)
        elif h == "readings":
            item += para("as variation point ", self.ref("vp", str(s.arg), str(s.arg)), " is read:")
            items = nodes.bullet_list(classes=["pal-readings"])
            for reading, body in s.blocks.items():
                sub = nodes.list_item("", para(literal(reading), " (", *self.rulesets(str(s.arg), reading), "):"))
                sub += self.block(body, r, depth + 1) if body else para("nothing")
                items += sub
            self.open_item(items, str(s.arg), set(s.blocks))
            item += items
        elif h == "set":
            pieces: list[Piece] = ["set "]
            for i, (target, seat, value, _) in enumerate(s.arg):
                shown = f"{target}({show(seat)})" if seat is not None else target
                pieces += [", " if i else "", literal(shown), " to ", value]
            item += para(*pieces)
        elif h == "step":
            item += para("apply step ", self.ref("step", str(s.arg), str(s.arg)))
        elif h == "every":
            item += para("apply every rule of step ", self.ref("step", str(s.arg), str(s.arg)),
                         " whose condition holds, in order")
        elif h == "part":
            part = str(s.arg)
            said = " (below)" if part in self._parts_of(r) else " (as the rule that applies gives it)"
            item += para("part ", literal(part), said)
        elif h == "end_round":
            p = para("the round ends as ", *self.rule_link(str(s.arg), with_id=False), " (", literal(str(s.arg)),
                     ") says")
            if k.get("forced"):
                p += nodes.Text(", forced: the player could play nothing else")
            item += p
        elif h == "goto":
            item += para(JUNCTION_WORDS.get(str(s.arg), str(s.arg)))
        elif h == "turn":
            item += para(s.arg, " takes the next turn")
        else:  # pragma: no cover - check_words guards every head
            item += para(HEAD_WORDS.get(h, h))
        return item

    def _choose(self, item: nodes.list_item, s: Stmt) -> None:
        k = s.keys
        opts: Node = k["options"]
        p = para(k["by"], " chooses ", literal(k["as"]), " (decision ", literal(str(s.arg)), ") among ")
        item += p
        if opts.op == "each":
            p.extend(inline("every choice of ", *self._names_tuple([n for n, _ in each_parts(opts)]), ":"))
            item += self.each_list(opts)
        else:
            p += literal(show(opts))
        if k.get("keep"):
            keep = [x for i, (slot, n) in enumerate(k["keep"].items()) for x in ((", " if i else ""), f"{slot} = ", n)]
            item += para("the decision keeps: ", *keep)
        if k.get("refuse"):
            item += para("anything else is refused: ", *refusal(k["refuse"]))

