"""``{palast-knowledge}``: the page "What each player knows", rendered from ``spec/visibility.yaml``.

Who sees each zone; per role, what each player learns when its card is played (the effects
whose rules belong to the role), reading by reading where a variation point decides it;
the pending decisions with hidden fields; and, for each variation point that changes only
knowledge, its readings with each ruleset's choice and the rulings that show it from a
player's side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from docutils import nodes

from palast.lang.syntax import show
from palast.spec.load import OPEN, Spec
from palast.spec.visibility import VIEWER, Audience, Effect, audience_node

from .rulings import rulings_naming
from .specdata import Cell, SpecDirective, joined, literal, section, strong, table, text

#: A seat an audience names, in words, as the page says who sees something.
SEAT_WORDS: dict[str, str] = {"holder": "its holder", "player": "the player it concerns", "other": "the other player",
                              "partner": "the player who picked them"}


def audience_words(audience: Audience) -> str:
    """Who ``audience`` (a condition on ``viewer``, see :mod:`palast.spec.visibility`) lets see,
    in words: ``true`` is every player, ``viewer == holder`` its holder, an ``or`` of such
    seats the seats joined; any other condition is printed as written."""
    node = audience_node(audience)
    if node.op == "bool":
        return "every player" if node.value else "nobody"
    parts = node.args if node.op == "or" else (node,)
    seats = [p.args[1] if p.args[0].value == VIEWER else p.args[0] for p in parts
             if p.op == "==" and VIEWER in (p.args[0].value, p.args[1].value)]
    if len(seats) == len(parts) and all(s.op == "name" and s.value in SEAT_WORDS for s in seats):
        return " and ".join(SEAT_WORDS[str(s.value)] for s in seats)
    return f"every player for whom {show(node)}"

#: An event field in words.
FIELD_WORDS: dict[str, str] = {"card": "the card", "cards": "the cards", "role": "the role", "count": "the number",
                               "given": "the picks", "player": "the player", "other": "the other player"}


def _sees_text(sees: Mapping[str, Audience], lasts: str) -> str:
    parts = [f"{FIELD_WORDS.get(f, f)}: {audience_words(a)}" for f, a in sees.items()]
    said = "; ".join(parts) if parts else "everything: every player"
    return said + ("; the hand stays open to them until the round ends" if lasts == "round" else "")


class KnowledgeDirective(SpecDirective):
    """``{palast-knowledge}``: the whole body of the page "What each player knows"."""

    reads: ClassVar[tuple[str, ...]] = ("visibility.yaml", "roles.yaml", "rules.yaml", "variation_points.yaml",
                                        "rulesets.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        vis = spec.visibility
        out: list[nodes.Node] = []
        rows: list[list[Cell]] = []
        for z in vis.zones:
            how = ""
            if z.point:
                how = "; ".join(f"{r}: cards seen by {audience_words(v.get('cards', z.cards))}"
                                for r, v in (z.readings or {}).items())
            rows.append([strong(z.zone), audience_words(z.cards), audience_words(z.count),
                         [self.ref("vp", z.point, z.point), nodes.Text(" — " + how)] if z.point else
                         text("—", "pal-muted"), self.cite(spec, z.clauses)])
        out.append(section("The zones", "knowledge-zones",
                           nodes.paragraph("", "Who sees the cards of each zone, and who can count them."),
                           table(["zone", "cards seen by", "counted by", "depends on", "clauses"], rows,
                                 widths=[2, 3, 2, 4, 4])))
        by_role: dict[str, list[Effect]] = {r: [] for r in spec.roles}
        for eff in vis.effects.values():
            for rule in eff.rules:
                role = spec.rules[rule].role if rule in spec.rules else None
                if role in by_role and eff not in by_role[role]:
                    by_role[role].append(eff)
        played = vis.effects.get("card_played")
        for role in spec.roles:
            body: list[nodes.Node] = []
            if played is not None:
                body.append(self.cited(spec, "The card played is seen by every player.", played.clauses))
            effects = by_role[role]
            if not effects:
                body.append(nodes.paragraph("", "Its action shows and hides no card: what happens is seen by every "
                                                "player."))
            for eff in effects:
                body.append(self.effect(spec, eff))
            out.append(section(f"The {role.capitalize()}", f"knowledge-{role}", *body))
        if vis.decisions:
            items = nodes.bullet_list()
            for pending in vis.decisions.values():
                if not pending.sees:
                    continue  # nothing of it is hidden from anyone
                said = "; ".join(f"{FIELD_WORDS.get(f, f)}: seen only by {audience_words(a)}"
                                 for f, a in pending.sees.items())
                items += nodes.list_item("", self.cited(spec, [literal(pending.decision),
                                                               nodes.Text(f" — {pending.says} ({said}).")],
                                                        pending.clauses))
            out.append(section("While a decision is pending", "knowledge-decisions", items))
        out.append(section("Readings that change only what players know", "knowledge-readings",
                           *self.readings(spec)))
        return out

    def effect(self, spec: Spec, eff: Effect) -> nodes.Node:
        """One effect: what it says, who sees which field, reading by reading."""
        box = nodes.container(classes=["pal-knowledge"])
        box += self.cited(spec, [literal(eff.event), nodes.Text(f" — {eff.says} ") if eff.says else nodes.Text(" ")],
                          eff.clauses)
        items = nodes.bullet_list()
        if eff.point is None:
            items += nodes.list_item("", nodes.paragraph("", _sees_text(eff.sees, eff.lasts)))
        else:
            vp = spec.variation_points[eff.point]
            for r in vp.readings:
                sees, lasts = eff.under(r.id)
                taken = [rs for rs in spec.rulesets if vp.choices.get(rs) == r.id]
                para = nodes.paragraph("", "", self.ref("vp", vp.id, vp.id), nodes.Text(f" = {r.id}: "),
                                       nodes.Text(_sees_text(sees, lasts)))
                if taken:
                    para += nodes.Text(" (" + ", ".join(taken) + ")")
                items += nodes.list_item("", para)
            open_in = [rs for rs in spec.rulesets if vp.choices.get(rs) == OPEN]
            if open_in:
                items += nodes.list_item("", nodes.paragraph("", f"left open by {', '.join(open_in)}: what every "
                                                                 f"reading shows — {_sees_text(eff.sees, eff.lasts)}"))
        box += items
        return box

    def readings(self, spec: Spec) -> list[nodes.Node]:
        """Each knowledge variation point: its readings, who takes them, and its rulings."""
        out: list[nodes.Node] = []
        for point in spec.visibility.points():
            vp = spec.variation_points[point]
            stop = "" if vp.topic.endswith(("?", ".", "!")) else "."
            para = nodes.paragraph("", "", self.ref("vp", vp.id, vp.id), nodes.Text(f" — {vp.topic}{stop} Readings: "))
            para.extend(joined([nodes.inline("", "", literal(r.id), nodes.Text(f" ({r.statement.rstrip('.')})"))
                                for r in vp.readings]))
            out.append(para)
            shown = rulings_naming(spec, point)
            ruled = nodes.paragraph("", "", text("Rulings that name it: ", "pal-muted"))
            ruled.extend(joined([self.ref("ruling", r.id, r.title) for r in shown]) or [text("none yet", "pal-muted")])
            out.append(ruled)
        return out
