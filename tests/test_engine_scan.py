"""The engine restates no rule: a scan of palast/engine/ for the spec's rule ids, role
names, reading ids, the decisions of the roles' actions and their verbs, and card-count
literals (issue "The rules as data", point 2); and the same scan of proofs/ (issue "Proofs
about the spec itself", point 1).

The engine holds none: :data:`COINCIDENCES` lists, per engine module, the few words that are
a role's decision only by coincidence (a statement's head, a field's name), each with why.
The scan of proofs/ is a ratchet: :data:`PROOFS_NOT_YET_DECLARED` lists, per module, the
literals still there. Either test fails when a literal appears that is not listed (a rule
written again in code) and when a listed one is gone (shrink the list).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from palast.engine.state import DECISION_FIELDS
from palast.spec.load import Spec

ENGINE = Path(__file__).resolve().parent.parent / "palast" / "engine"
PROOFS = Path(__file__).resolve().parent.parent / "proofs"

#: Numbers the generic machinery may write: none, zero, one, and the ``-1`` of "none".
PLAIN_NUMBERS = frozenset({-1, 0, 1})

#: module -> the words of it that are the decision of a role's action by coincidence:
#:
#: - ``draw``: the head of the rule language's statement that draws a card (which the Maid's
#:   and the King card's rules use, and which opens a chance decision of the name the
#:   statement gives, here the Maid's);
#: - ``discard``: the field of a position that holds the discard pile.
COINCIDENCES: dict[str, list[str]] = {
    "blocks.py": ["role decision draw"],
    "codegen_stmts.py": ["role decision draw"],
    "draft.py": ["role decision discard"],
}

#: The same for proofs/, whose Z3 model is not yet compiled from the declarations alone.
#: What the literals are, by kind:
#:
#: - names that are reading ids, roles or decisions of a role by coincidence: ``shared``
#:   (a result field), ``whisper`` (a round end's kind), ``turn-end`` (a step), ``all`` (a
#:   primitive), ``cupbearer`` (the name of an obligation family and of the invariant ids
#:   it proves, cupbearer.py and runner.py), ``draw`` (a statement's head);
#: - numbers that are not card counts: player counts 3-5, solver limits in milliseconds,
#:   seeds, sample sizes, a memo's size, the few positions' sizes an obligation asks about,
#:   and the 2 of pairs of values (z3_values.py).
PROOFS_NOT_YET_DECLARED: dict[str, list[str]] = {
    "concrete.py": ["number 100", "reading id shared"],
    "cupbearer.py": ["role cupbearer"],
    "differential.py": ["number 100", "number 2", "number 3", "number 5", "number 510", "number 6"],
    "encoding.py": ["number 2", "reading id shared", "reading id whisper"],
    "explain.py": ["number 5"],
    "invariant.py": ["number 4096"],
    "lang_z3.py": ["number 2", "number 3", "reading id all", "reading id whisper"],
    "mutation.py": ["number 160"],
    "obligation.py": ["number 10", "number 20070101", "number 300000", "number 500000000"],
    "reachability.py": ["number 2"],
    "resume_z3.py": ["role decision draw"],
    "runner.py": ["number 2", "number 5", "role cupbearer"],
    "search.py": ["number 1200000", "number 3"],
    "statements_z3.py": ["reading id turn-end", "role decision draw"],
    "terms.py": ["number 2", "number 20000"],
    "transition.py": ["reading id shared"],
    "well_formed.py": ["number 2", "reading id shared"],
    "witness.py": ["number 8"],
    "z3_values.py": ["number 2"],
}


def findings(source: str, spec: Spec) -> list[str]:
    """The rule-bearing literals of ``source``: string constants that are a rule id, a role
    name (or alias), a reading id, a variation point id, an engine parameter of the spec
    (also as a ``rule:``/``point:`` flag) or the decision of a role's action (spec/flow.yaml),
    such a decision named as a member of ``DecisionKind`` (``K.SWAP``), the notation verb of
    such a decision (``take-back``), and whole numbers
    other than -1, 0, 1. Each literal counts once per source, however often it occurs.

    :returns: one entry per different literal, sorted, e.g. ``"rule id role.maid"``.
    """
    rules = set(spec.rules)
    # the decisions of a role's action (spec/flow.yaml ``role``), as strings and as members
    # of the engine's DecisionKind would be named (``K.SWAP``), and their verbs
    decisions = {d.name for d in spec.flow.decisions.values() if d.role}
    members = {d.upper().replace("-", "_"): d for d in decisions}
    # (``count`` and ``partner`` are also fields of every decision: not counted)
    verbs = {d.verb for d in spec.flow.decisions.values() if d.role} - decisions - set(DECISION_FIELDS)
    roles = set(spec.role_aliases)
    readings = {r.id for vp in spec.variation_points.values() for r in vp.readings}
    points = set(spec.variation_points)
    parameters = {vp.parameter for vp in spec.variation_points.values() if vp.parameter}
    found: set[str] = set()
    tree = ast.parse(source)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in members:
            found.add(f"role decision {members[node.attr]}")
        if not isinstance(node, ast.Constant) or id(node) in docstrings:
            continue
        v = node.value
        if isinstance(v, str):
            kind, _, rest = v.partition(":")
            if kind in ("rule", "point") and rest:  # a flag naming a rule or a point
                v = rest
            if v in rules:
                found.add(f"rule id {v}")
            elif v in roles:
                found.add(f"role {v}")
            elif v in readings:
                found.add(f"reading id {v}")
            elif v in points:
                found.add(f"point id {v}")
            elif v in parameters:
                found.add(f"parameter {v}")
            elif v in decisions:
                found.add(f"role decision {v}")
            elif v in verbs:
                found.add(f"role verb {v}")
        elif isinstance(v, int) and not isinstance(v, bool) and v not in PLAIN_NUMBERS:
            found.add(f"number {v}")
    return sorted(found)


def _ratchet(spec: Spec, folder: Path, listed: dict[str, list[str]], module: str, listing: str) -> None:
    """Fail on a rule-bearing literal of ``folder/module`` that ``listed`` does not list (a
    rule written again in code), and on a listed one that is gone (shrink ``listing``)."""
    got = findings((folder / module).read_text(encoding="utf-8"), spec)
    want = sorted(listed.get(module, []))
    new = sorted(set(got) - set(want))
    gone = sorted(set(want) - set(got))
    where = f"{folder.parent.name}/{folder.name}" if folder == ENGINE else folder.name
    assert not new, f"{where}/{module} restates rules of spec/: {new} (take them from spec/ instead)"
    assert not gone, f"{where}/{module} no longer holds {gone}: remove them from {listing}"


@pytest.mark.parametrize("module", sorted(p.name for p in ENGINE.glob("*.py")))
def test_engine_module_restates_no_more_rules_than_listed(spec: Spec, module: str) -> None:
    _ratchet(spec, ENGINE, COINCIDENCES, module, "COINCIDENCES")


@pytest.mark.parametrize("module", sorted(p.name for p in PROOFS.glob("*.py")))
def test_proofs_module_restates_no_more_rules_than_listed(spec: Spec, module: str) -> None:
    """A ratchet like the engine's over proofs/ (:data:`PROOFS_NOT_YET_DECLARED`)."""
    _ratchet(spec, PROOFS, PROOFS_NOT_YET_DECLARED, module, "PROOFS_NOT_YET_DECLARED")


def test_scan_finds_a_rule_written_in_code(spec: Spec) -> None:
    """The scan is not blind: code that names a rule id, a role, a reading and a card count
    is reported for each."""
    code = 'def f(x):\n    """role.maid in a docstring is fine"""\n    return ("role.maid", "jester", "any-two", 14)\n'
    assert findings(code, spec) == ["number 14", "reading id any-two", "role jester", "rule id role.maid"]
    # a variation point, an engine parameter, and flags naming a rule or a point
    code = 'x = ("voluntary-whisper", "neutral.tie", "rule:role.guard.void", "point:maid-empty-deck")\n'
    assert findings(code, spec) == ["parameter neutral.tie", "point id maid-empty-deck", "point id voluntary-whisper",
                                    "rule id role.guard.void"]
    # the decision of a role's action: as a string, as a DecisionKind member would name it,
    # and by its notation verb
    code = 'x = ("exchange-count", K.TAKE_BACK, "swap", "give")\n'
    assert findings(code, spec) == ["role decision exchange-count", "role decision swap", "role decision take-back",
                                    "role verb give"]
