"""Directives for the rule chapters: the components, the rules of a topic, one role, the
rulesets. Everything shown is read from ``spec/``; every rule sentence carries its clause
citations.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from palast.engine import Game
from palast.lang.logic import declarations
from palast.spec.load import OPEN, Rule, Spec

from .logic import block_text, logic_items, logic_of
from .rulings import ruling_files, rulings_citing
from .specdata import SpecDirective, joined, literal, rubric, rulesets_by_reading, strong, table, text
from .statements import Words, do_program


class RuleBlocks(SpecDirective):
    """Shared rendering of rules and of the variation points a rule depends on."""

    def rule_section(self, spec: Spec, rule: Rule, *, level_title: str | None = None) -> nodes.section:
        """A rule as a section: its title, its statement with citations, the readings of
        each variation point it depends on."""
        title = level_title or rule.title
        sec = nodes.section(ids=[])
        target = self.target("rule", rule.id, title)
        sec["ids"] = target["ids"]
        sec += nodes.title(title, title)
        sec += self.cited(spec, rule.statement, rule.clauses)
        sec += nodes.paragraph("", "", text("rule ", "pal-muted"), literal(rule.id), classes=["pal-rule-id"])
        decl = self.declaration(spec, rule.id)
        if decl is not None:
            sec += decl
        for vp in rule.variation_points:
            sec += self.point_readings(spec, vp)
        return sec

    def declaration(self, spec: Spec, rid: str) -> nodes.container | None:
        """Rule ``rid``'s declaration in words (either style of logic block), in a box headed
        "As declared"; ``None`` for a rule with no logic block."""
        prog = do_program(spec)
        words = Words(spec, prog, self.ref)
        if rid in prog.rules:
            fl = words.fields(prog.rules[rid])
        else:
            raw = logic_of(spec).get(rid)
            if raw is None:
                return None
            fl = logic_items(raw, words)
            words.exceptions(fl, rid)
        box = nodes.container(classes=["pal-decl"])
        box += nodes.paragraph("", "As declared", classes=["pal-decl-title"])
        box += fl
        return box

    def point_readings(self, spec: Spec, vp_id: str) -> nodes.container:
        """What each ruleset reads at variation point ``vp_id``, rulesets with the same
        reading grouped, with a link to the point's page."""
        vp = spec.variation_points[vp_id]
        box = nodes.container(classes=["pal-point", "admonition", "note"])
        head = nodes.paragraph("", "", classes=["admonition-title"])
        head += nodes.Text("Variation point: ")
        head += self.ref("vp", vp.id, vp.topic)
        box += head
        groups = rulesets_by_reading(spec, vp_id)
        items = nodes.bullet_list()
        for reading, rulesets in groups.items():
            item = nodes.paragraph()
            item += joined([strong(r) for r in rulesets])
            item += nodes.Text(": ")
            if reading == OPEN:
                item += text("open", "pal-open")
                item += nodes.Text(" — the source is silent or the ruleset does not decide; the engine stops "
                                   "with a gap instead of guessing.")
            else:
                item += literal(reading)
                item += nodes.Text(" — " + vp.reading(reading).statement)
            items += nodes.list_item("", item)
        box += items
        return box


class RulesDirective(RuleBlocks):
    """``{palast-rules} TOPIC``: every rule of ``spec/rules.yaml`` with that topic, in file
    order, each as a section."""

    required_arguments = 1
    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "variation_points.yaml", "rulesets.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        topic = self.arguments[0]
        rules = [r for r in spec.rules.values() if r.topic == topic and r.role is None]
        if not rules:
            raise self.error(f"spec/rules.yaml has no rule with topic {topic!r}")
        return [self.rule_section(spec, r) for r in rules]


class ComponentsDirective(SpecDirective):
    """``{palast-components}``: players, colours, roles and their names, card counts, hand
    size, the six-roles round end, targets and King cards, from ``spec/game.yaml``."""

    reads: ClassVar[tuple[str, ...]] = ("game.yaml", "roles.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        g: Any = spec.game
        out: list[nodes.Node] = []

        out.append(rubric("Players"))
        out.append(self.cited(spec, f"The game is for {spec.min_players} to {spec.max_players} players.",
                              g["players"]["clauses"]))

        out.append(rubric("Colours"))
        colours = g["colours"]
        out.append(self.cited(
            spec, f"Each player takes one of the {len(spec.player_colours)} player colours and is named by it "
                  "in this book and in palast's notation; a further, neutral colour belongs to nobody.",
            colours["player_clauses"]))
        rows: list[list[Any]] = [[literal(c["id"]), "player colour", c.get("zh", "")] for c in colours["player"]]
        neutral = colours["neutral"]
        also = ", ".join(neutral.get("aliases", []))
        rows.append([literal(neutral["id"]), "neutral" + (f" (also called {also})" if also else ""),
                     neutral.get("zh", "")])
        out.append(table(["colour", "kind", "Chinese"], rows, widths=[2, 5, 2], classes=["pal-narrow"]))
        if neutral.get("note"):
            out.append(self.cited(spec, neutral["note"], neutral["clauses"]))

        out.append(rubric("Roles"))
        out.append(nodes.paragraph(
            "", f"There are {len(spec.roles)} roles. The sources name them differently; this book uses the "
                "English name in the first column (palast's notation accepts the German one too)."))
        role_rows: list[list[Any]] = []
        for r in spec.roles:
            names = spec.role_names[r]
            act = spec.role_actions[r]
            role_rows.append([
                self.ref("role", r, r.capitalize()), names["german"], names["name_a"], names["name_b"],
                "yes" if r in spec.king_roles else "no",
                self.cite(spec, spec.rules[act.rules[0]].clauses),
            ])
        out.append(table(["role", "German", "name in A", "name in B", "King card", "clauses"], role_rows,
                         widths=[2, 3, 2, 2, 2, 6]))

        out.append(rubric("Cards"))
        per, neu, nroles = spec.per_colour, spec.neutral_per_role, len(spec.roles)
        out.append(self.cited(
            spec, f"Every seated colour brings {per} card of each role ({per * nroles} cards); the neutral colour "
                  f"adds {neu} of each role ({neu * nroles} cards). Cards of colours nobody plays stay in the box.",
            g["cards"]["clauses"]))
        out.append(self.cited(spec, f"Each player is dealt a hand of {spec.hand_size} cards every round.",
                              g["hand_size"]["clauses"]))
        card_rows: list[list[Any]] = []
        for n in range(spec.min_players, spec.max_players + 1):
            total = n * per * nroles + neu * nroles
            card_rows.append([str(n), str(total), str(n * spec.hand_size), str(total - n * spec.hand_size),
                              str(spec.target(n))])
        out.append(table(["players", "role cards", "dealt", "left in the draw deck", "target score"], card_rows,
                         classes=["pal-narrow", "pal-numbers"]))
        out.append(self.cited(spec, "The target score for each number of players is in the last column; the "
                                    "first player to reach it ends the game.", g["targets"]["clauses"]))
        out.append(self.cited(spec, f"{spec.six} different roles in one display end the round.",
                              g["six"]["clauses"]))

        out.append(rubric("King cards"))
        kings = spec.king_roles
        missing = [r for r in spec.roles if r not in kings]
        sentence = (f"There are {len(kings)} King cards, one for each role except "
                    + (", ".join(r.capitalize() for r in missing) or "none")
                    + ". A revealed King card bans the role it names.")
        para = self.cited(spec, sentence, g["king_cards"]["clauses"])
        out.append(para)
        out.append(nodes.paragraph("", "", text("King cards: ", "pal-muted"),
                                   *joined([self.ref("role", r, r.capitalize()) for r in kings])))
        tp = g["king_cards"].get("third_party", [])
        if tp:
            out.append(nodes.paragraph(
                "", "", text("Neither source lists the King cards' roles; they come from third-party "
                             "descriptions of the components: ", "pal-muted"),
                *joined([literal(t) for t in tp]), nodes.Text(".")))
        return out


class RoleDirective(RuleBlocks):
    """``{palast-role} ROLE``: one role's page body: names, King card, action kind, the
    decisions it asks for, its rules with citations and the variation points they depend on."""

    required_arguments = 1
    reads: ClassVar[tuple[str, ...]] = ("game.yaml", "roles.yaml", "variation_points.yaml", "rulesets.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        role = self.arguments[0]
        if role not in spec.role_actions:
            raise self.error(f"spec/roles.yaml has no role {role!r}")
        names = spec.role_names[role]
        act = spec.role_actions[role]
        out: list[nodes.Node] = [self.target("role", role, role.capitalize())]
        facts = nodes.field_list(classes=["pal-facts"])

        def field(name: str, *body: nodes.Node) -> None:
            facts.append(nodes.field("", nodes.field_name(name, name), nodes.field_body("", nodes.paragraph("", "",
                                                                                                            *body))))

        field("German", nodes.Text(names["german"]))
        field("name in source A", nodes.Text(names["name_a"]))
        field("name in source B", nodes.Text(names["name_b"]))
        field("also accepted as", *joined([literal(a) for a in names.get("aliases", [])]))
        field("action kind", literal(act.action))
        king = role in spec.king_roles
        field("King card", nodes.Text("yes: a King card can ban this role" if king
                                      else "no: no King card names this role, so it is never banned"))
        if king:
            field("playable while banned", nodes.Text(_playable_when_banned(spec, role)))
        out.append(facts)
        if act.choices:
            out.append(rubric("Decisions"))
            out.append(nodes.paragraph("", "Carrying out the action asks for these decisions, one action each, "
                                           "in this order:"))
            rows: list[list[Any]] = []
            for c in act.choices:
                rows.append([literal(c["decision"]), "the player" if c["by"] == "actor" else "the partner", c["what"]])
            out.append(table(["decision", "by", "what is decided"], rows, widths=[3, 2, 6]))
        else:
            out.append(nodes.paragraph("", "Its action asks for no decision."))
        for rid in act.rules:
            out.append(self.rule_section(spec, spec.rules[rid]))
        clauses = [c for rid in act.rules for c in spec.rules[rid].clauses]
        about = rulings_citing(spec, clauses)
        if about:
            sec = nodes.section(ids=[nodes.make_id(f"rulings-{role}")])
            sec += nodes.title("Rulings", "Rulings")
            sec += nodes.paragraph("", "Rulings that rest on this role's clauses, each with its outcome computed "
                                       "by the engine:")
            items = nodes.bullet_list()
            for r in about:
                items += nodes.list_item("", nodes.paragraph("", "", self.ref("ruling", r.id, r.title),
                                                             nodes.Text(" — " + r.question)))
            sec += items
            out.append(sec)
        for f in ruling_files(spec):
            self.note(f)
        return out


class RulesetsDirective(SpecDirective):
    """``{palast-rulesets}``: the rulesets of ``spec/rulesets.yaml`` and how many variation
    points each leaves open."""

    reads: ClassVar[tuple[str, ...]] = ("rulesets.yaml", "variation_points.yaml")
    option_spec: ClassVar[dict[str, Any]] = {"class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        rows: list[list[Any]] = []
        for rid, rs in spec.rulesets.items():
            opened = [vp for vp in spec.variation_points.values() if vp.choices.get(rid, OPEN) == OPEN]
            default = " (default)" if rid == spec.default_ruleset else ""
            rows.append([[literal(rid), nodes.Text(default)], rs["title"], rs["description"],
                         joined([self.ref("vp", vp.id, vp.id) for vp in opened]) or "none"])
        out: list[nodes.Node] = [table(["ruleset", "title", "what it is", "points left open"], rows,
                                       widths=[2, 3, 7, 4])]
        if spec.house_rulesets:
            out.append(rubric("House rulesets"))
            out.append(nodes.paragraph(text=(
                "Declared in spec/rulesets.yaml under house: a ruleset above with some variation points read "
                "otherwise. Any command takes one by name (-r NAME, a scenario's rulesets, a ruling's expect); "
                "none is asked by default.")))
            house_rows: list[list[Any]] = []
            for hid, h in spec.house_rulesets.items():
                reads = joined([nodes.inline("", "", self.ref("vp", str(p), str(p)), nodes.Text(f" = {r}"))
                                for p, r in h["readings"].items()])
                house_rows.append([[literal(hid)], [literal(str(h["base"]))], reads, h["title"], h["description"]])
            out.append(table(["house ruleset", "base", "reads otherwise", "title", "what it is"], house_rows,
                             widths=[2, 2, 4, 3, 6]))
        return out


class DeclarationDirective(RuleBlocks):
    """``{palast-declaration} RULE``: an example for the chapter on the rule language: the
    rule's logic block as written in ``spec/`` and the same declaration in words, with a
    link to the rule's page."""

    required_arguments = 1
    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "roles.yaml", "variation_points.yaml", "rulesets.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        rid = self.arguments[0]
        prog = do_program(spec)
        if rid in prog.rules:
            file, path = prog.rules[rid].file, prog.rules[rid].path
        else:
            found = next((d for d in declarations(spec) if d.rule == rid), None)
            if found is None:
                raise self.error(f"rule {rid!r} declares no logic block")
            file, path = found.place.file, found.place.path
        source, first, last = block_text(spec, file, path)
        head = nodes.paragraph("", "", nodes.Text("Rule "), self.ref("rule", rid, rid),
                               nodes.Text(f" ({spec.rules[rid].title}), "), literal(f"spec/{file}"),
                               nodes.Text(f", lines {first}–{last}:"))
        block = nodes.literal_block(source, source, language="yaml")
        box = self.declaration(spec, rid)
        return [head, block, *([box] if box is not None else [])]


def _playable_when_banned(spec: Spec, role: str) -> str:
    """Whether a card of ``role`` may be played while it is banned, as the rules of each
    ruleset say (:attr:`palast.engine.Game.playable_when_banned`, asked of a game of the
    fewest players): "yes (...)" or "no", with the rulesets where that holds when they differ."""
    index = spec.roles.index(role)
    answer: dict[str, list[str]] = {"yes (its action is not carried out)": [], "no": []}
    for r in spec.rulesets:
        game = Game(spec, r, list(spec.player_colours[:spec.min_players]))
        answer["yes (its action is not carried out)" if game.playable_when_banned[index] else "no"].append(r)
    said = {a: rs for a, rs in answer.items() if rs}
    probe = (" (as the rules answer for a player holding a card of every role, nothing displayed; a rule that "
             "refuses it only in some positions or for some of its cards is not seen here)")
    if len(said) == 1:
        return next(iter(said)) + probe
    return "; ".join(f"{a} under {', '.join(rs)}" for a, rs in said.items()) + probe
