"""The engine restates no rule: a scan of palast/engine/ for the spec's rule ids, role
names, reading ids and card-count literals (issue "The rules as data", point 2).

The engine is being moved onto the rule language (palast/lang) rule by rule. Until every
rule is declared, :data:`NOT_YET_DECLARED` lists, per engine module, the rule-bearing
literals that are still there. The test is a ratchet: it fails when a literal appears that
is not listed (a rule written again in code) and when a listed one is gone (shrink the list:
that rule now lives in spec/ alone). When the list is empty the engine holds none.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from palast.spec.load import Spec

ENGINE = Path(__file__).resolve().parent.parent / "palast" / "engine"

#: Numbers the generic machinery may write: none, zero, one, and the ``-1`` of "none".
PLAIN_NUMBERS = frozenset({-1, 0, 1})

#: module -> the rule-bearing literals still in it, sorted (see the module docstring).
NOT_YET_DECLARED: dict[str, list[str]] = {}


def findings(source: str, spec: Spec) -> list[str]:
    """The rule-bearing literals of ``source``: string constants that are a rule id, a role
    name (or alias) or a reading id of the spec, and whole numbers other than -1, 0, 1.

    :returns: one entry per different literal, sorted, e.g. ``"rule id role.maid"``.
    """
    rules = set(spec.rules)
    roles = set(spec.role_aliases)
    readings = {r.id for vp in spec.variation_points.values() for r in vp.readings}
    found: set[str] = set()
    tree = ast.parse(source)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or id(node) in docstrings:
            continue
        v = node.value
        if isinstance(v, str):
            if v in rules:
                found.add(f"rule id {v}")
            elif v in roles:
                found.add(f"role {v}")
            elif v in readings:
                found.add(f"reading id {v}")
        elif isinstance(v, int) and not isinstance(v, bool) and v not in PLAIN_NUMBERS:
            found.add(f"number {v}")
    return sorted(found)


@pytest.mark.parametrize("module", sorted(p.name for p in ENGINE.glob("*.py")))
def test_engine_module_restates_no_more_rules_than_listed(spec: Spec, module: str) -> None:
    got = findings((ENGINE / module).read_text(encoding="utf-8"), spec)
    want = sorted(NOT_YET_DECLARED.get(module, []))
    new = sorted(set(got) - set(want))
    gone = sorted(set(want) - set(got))
    assert not new, f"palast/engine/{module} restates rules of spec/: {new} (declare them in spec/ instead)"
    assert not gone, f"palast/engine/{module} no longer holds {gone}: remove them from NOT_YET_DECLARED"


def test_scan_finds_a_rule_written_in_code(spec: Spec) -> None:
    """The scan is not blind: code that names a rule id, a role, a reading and a card count
    is reported for each."""
    code = 'def f(x):\n    """role.maid in a docstring is fine"""\n    return ("role.maid", "jester", "any-two", 14)\n'
    assert findings(code, spec) == ["number 14", "reading id any-two", "role jester", "rule id role.maid"]
