"""A scenario's character cards (its ``marks``) and the rulesets it is asked under.

Character cards exist only where a rule module deals them (source B's fan expansion,
``spec/modules/fan.yaml``); every rule of such a module reads the module's switch, so under
a ruleset that does not switch it on, marks given by a scenario change nothing. ``palast
ask`` therefore refuses a scenario that gives marks when no ruleset asked switches on such
a module (the question would be about cards that are not in the game), and, when only some
do, answers with a warning that names the rulesets under which the marks are ignored (the
comparison with and without the module is a fair question).
"""

from __future__ import annotations

from collections.abc import Sequence

from palast.errors import ScenarioError
from palast.formats.house import known, resolve_all
from palast.formats.scenario import Scenario
from palast.lang.blocks import program
from palast.lang.statements import Stmt, walk
from palast.spec.event_text import listed
from palast.spec.load import Spec
from palast.spec.modules import Module

#: The counter a statement sets to deal every player a character card (``set: {marks: ...}``).
MARKS = "marks"


def dealing_modules(spec: Spec) -> tuple[Module, ...]:
    """The rule modules of ``spec`` that deal character cards: those with a rule whose
    statements set the marks (``set: {marks: ...}``, under any reading)."""
    rules = program(spec).rules

    def statements(rule_id: str) -> list[Stmt]:
        r = rules.get(rule_id)
        if r is None:
            return []
        return [s for b in r.all_blocks() for s in walk(b)]

    def deals(m: Module) -> bool:
        return any(s.head == "set" and any(target.name == MARKS for target in s.arg)
                   for rid in m.rules for s in statements(rid))

    return tuple(m for m in spec.modules.values() if deals(m))


def marks_warnings(spec: Spec, scenario: Scenario, rulesets: Sequence[str]) -> list[str]:
    """Check a scenario's character cards against the rulesets it is asked under.

    :param rulesets: the rulesets asked (house rulesets that ``spec`` lacks are added).
    :returns: no warning when the scenario gives no marks or every ruleset asked switches
        on a module that deals them; else one warning that names the rulesets under which
        the marks are ignored and those under which they are in play.
    :raises ScenarioError: if the scenario gives marks and no ruleset asked switches on a
        module that deals them, naming the file, the ``marks`` key and the rulesets (and
        modes of asking) that do.
    """
    if not scenario.marks or not rulesets:
        return []
    modules = dealing_modules(spec)
    full = resolve_all(spec, [r for r in rulesets if r not in spec.rulesets])

    def deals(ruleset: str) -> bool:
        return any(full.variation_points[m.point].choices.get(ruleset) == m.reading for m in modules)

    ignored = [r for r in rulesets if not deals(r)]
    if not ignored:
        return []
    place = scenario.document.place([*scenario.base, MARKS]) if scenario.document is not None else MARKS
    which = f"({', '.join(m.id for m in modules)})" if modules else "(the spec has none)"
    if len(ignored) < len(rulesets):
        in_play = [r for r in rulesets if r not in ignored]
        return [f"{place}: the character cards are ignored under {listed(ignored)}, which switch"
                f"{'es' if len(ignored) == 1 else ''} on no rule module that deals them {which}; they are in play "
                f"under {listed(in_play)}"]
    verb = "does" if len(ignored) == 1 else "do"
    names = [n for n in known(spec) if n not in rulesets]
    others = resolve_all(spec, [n for n in names if n not in spec.rulesets])
    dealing = [n for n in names if any(others.variation_points[m.point].choices.get(n) == m.reading
                                       for m in modules)]
    ways = [f"-r {n}" for n in dealing] + [f"--reading {m.point}={m.reading}" for m in modules]
    hint = f"ask under one that does ({listed(ways, 'or')}) or leave the marks out" if ways else "leave them out"
    raise ScenarioError(f"no ruleset asked switches on a rule module that deals character cards {which}; "
                        f"{listed(ignored)} {verb} not, so the marks would be ignored: {hint}", scenario.file, place)
