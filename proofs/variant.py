"""Data-only rule variants: a copy of the spec with some declarations changed in memory.

A variant changes data, never code: a key of a rule's ``logic:`` block (``spec/rules.yaml``
or ``spec/roles.yaml``), a value of ``spec/game.yaml``, or the readings of a ruleset (a house ruleset,
:func:`palast.formats.house.derive`). The unchanged engine and the unchanged proofs then run the
broken rules. The stored violations of ``proofs/violations/`` and the broken engines of
``tests/stateful/mutants.py`` are written this way wherever the rule language can say it.

An edit is a mapping, as in a violation file (``proofs/violations/README.md``):

- ``{logic: RULE, key: KEY, value: V}``: the logic block of rule ``RULE`` gets ``KEY``
  (a key, or a list of keys into nested mappings) set to ``V``;
- ``{game: [KEY, ...], value: V}``: that value of ``spec/game.yaml`` becomes ``V``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from palast.errors import InputError
from palast.spec.load import SPEC_FILES, Spec
from palast.spec.schemas import schema_errors
from palast.spec.yamlio import Document

#: The keys of each kind of edit (the first key names the kind).
EDIT_KEYS: Mapping[str, frozenset[str]] = {
    "logic": frozenset({"logic", "key", "value"}),
    "game": frozenset({"game", "value"}),
}


def _keys(key: object) -> list[str]:
    if isinstance(key, str):
        return [key]
    if isinstance(key, list) and key and all(isinstance(k, str) for k in key):
        return list(key)
    raise InputError(f"a key must be a word or a list of words, not {key!r}")


def _set(tree: Any, keys: Sequence[str], value: object, what: str) -> None:
    for k in keys[:-1]:
        if not isinstance(tree, dict) or k not in tree:
            raise InputError(f"{what} has no key {k!r}")
        tree = tree[k]
    if not isinstance(tree, dict):
        raise InputError(f"{what} holds no mapping at {'.'.join(keys[:-1])}")
    tree[keys[-1]] = value


def _edit_logic(spec: Spec, rule_id: str, keys: Sequence[str], value: object) -> Spec:
    docs = dict(spec.documents)
    for name, top in (("rules.yaml", "rules"), ("roles.yaml", "roles")):
        data = copy.deepcopy(docs[name].data)
        rules = data[top] if top == "rules" else [r for role in data["roles"] for r in role["rules"]]
        for rule in rules:
            if rule["id"] == rule_id:
                if "logic" not in rule:
                    raise InputError(f"rule {rule_id!r} declares no logic block")
                _set(rule["logic"], keys, copy.deepcopy(value), f"the logic of rule {rule_id!r}")
                doc = Document(data, docs[name].file, None)
                # the edited file must still be a declaration (an unknown key would be ignored)
                problems = schema_errors(doc, spec.root / "schema", dict(SPEC_FILES)[name])
                if problems:
                    raise InputError(f"the edit of rule {rule_id!r} breaks {name}: {problems[0]}")
                docs[name] = doc
                return replace(spec, documents=docs)
    raise InputError(f"no rule {rule_id!r} in spec/rules.yaml or spec/roles.yaml")


def _edit_game(spec: Spec, keys: Sequence[str], value: object) -> Spec:
    game = copy.deepcopy(dict(spec.game))
    _set(game, keys, copy.deepcopy(value), "spec/game.yaml")
    docs = dict(spec.documents)
    if "game.yaml" in docs:
        data = copy.deepcopy(docs["game.yaml"].data)
        _set(data, keys, copy.deepcopy(value), "spec/game.yaml")
        docs["game.yaml"] = Document(data, docs["game.yaml"].file, None)
    return replace(spec, game=game, documents=docs)


def apply_edit(spec: Spec, edit: Mapping[str, Any]) -> Spec:
    """A copy of ``spec`` with one data-only ``edit`` (see the module description).

    :returns: the changed copy; ``spec`` itself is unchanged.
    :raises InputError: for an edit of no known kind, with unknown keys, or naming a rule
        or key the spec does not have.
    """
    kinds = [k for k in EDIT_KEYS if k in edit]
    if len(kinds) != 1:
        raise InputError(f"an edit names exactly one of {', '.join(EDIT_KEYS)}; this one names "
                         f"{', '.join(kinds) or 'none'}")
    kind = kinds[0]
    extra = set(edit) - EDIT_KEYS[kind]
    missing = EDIT_KEYS[kind] - set(edit)
    if extra or missing:
        raise InputError(f"a {kind} edit has the keys {', '.join(sorted(EDIT_KEYS[kind]))}"
                         + (f"; unknown: {', '.join(sorted(extra))}" if extra else "")
                         + (f"; missing: {', '.join(sorted(missing))}" if missing else ""))
    if kind == "logic":
        return _edit_logic(spec, str(edit["logic"]), _keys(edit["key"]), edit["value"])
    return _edit_game(spec, _keys(edit["game"]), edit["value"])


def spec_variant(spec: Spec, edits: Sequence[Mapping[str, Any]], base: str, readings: Mapping[str, str],
                 name: str = "variant") -> tuple[Spec, str]:
    """``spec`` with ``edits`` applied and, when ``readings`` are given, a ruleset ``name``
    reading as ``base`` does but for ``readings``.

    :returns: the variant spec and the ruleset to play it under (``base`` when there are no
        readings).
    :raises InputError: for a bad edit, an unknown ruleset, point or reading.
    """
    for edit in edits:
        spec = apply_edit(spec, edit)
    if not readings:
        if base not in spec.rulesets:
            raise InputError(f"unknown ruleset {base!r} (known: {', '.join(spec.rulesets)})")
        return spec, base
    from palast.formats.house import derive

    return derive(spec, name, base, readings), name
