"""The directive for a rule module's chapter (``spec/modules/*.yaml``): what the module
adds, the reading that switches it on, the rulesets that take that reading, the base
game's invariants it breaks with the ruling that shows each, and its rules."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes

from palast.spec.load import Spec

from .rules import RuleBlocks
from .specdata import joined, literal, rubric, text


class ModuleDirective(RuleBlocks):
    """``{palast-module} [ID]``: module ``ID`` of ``spec/modules/`` (without an argument:
    every module, each as a section): its statement with citations, its switch, the
    invariants it breaks, then each of its rules as a section (a role's rule is on that
    role's page)."""

    optional_arguments = 1
    reads: ClassVar[tuple[str, ...]] = ("rules.yaml", "roles.yaml", "variation_points.yaml", "rulesets.yaml",
                                        "invariants.yaml")

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        if not self.arguments:
            if not spec.modules:
                return [nodes.paragraph("", "", text("The spec declares no rule module."))]
            out: list[nodes.Node] = []
            for m in spec.modules.values():
                sec = nodes.section(ids=[f"module-{m.id}"])
                sec += nodes.title(m.title, m.title)
                sec.extend(self.module(spec, m.id))
                out.append(sec)
            return out
        return self.module(spec, self.arguments[0])

    def module(self, spec: Spec, mid: str) -> list[nodes.Node]:
        """Module ``mid`` as a list of nodes. :raises: a directive error for an unknown module."""
        m = spec.modules.get(mid)
        if m is None:
            raise self.error(f"spec/modules/ has no module {mid!r} (modules: {', '.join(spec.modules) or 'none'})")
        out: list[nodes.Node] = [self.cited(spec, m.statement, m.clauses)]
        taking = [rs for rs in spec.rulesets if spec.reading(rs, m.point) == m.reading]
        taking += [h for h, entry in spec.house_rulesets.items()
                   if dict(entry.get("readings") or {}).get(m.point) == m.reading]
        out.append(nodes.paragraph(
            "", "", text("Switched on by "), self.ref("vp", m.point, m.point), text(" read as "), literal(m.reading),
            text(" (declared in "), literal(f"spec/{m.file}"), text("); rulesets that take that reading: "),
            *(joined([literal(r) for r in taking]) or [text("none")]), text(".")))
        if m.breaks:
            out.append(rubric("Invariants of the base game that do not hold with the module"))
            items = nodes.bullet_list()
            for b in m.breaks:
                para = nodes.paragraph("", "", self.ref("invariant", b.invariant, b.invariant),
                                       text(": " + b.because + " "), text("Shown by the ruling "),
                                       self.ref("ruling", b.witness, b.witness),
                                       text("; check mode does not check it in a game with the module."))
                items += nodes.list_item("", para)
            out.append(items)
        for rid in m.rules:
            rule = spec.rules[rid]
            if rule.role is None:
                out.append(self.rule_section(spec, rule))
            else:
                out.append(nodes.paragraph("", "", text(f"The {rule.role}'s rule "), self.ref("rule", rid, rule.title),
                                           text(" is on the role's page.")))
        return out
