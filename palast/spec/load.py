"""Reading ``spec/``: the single source of truth about the game.

:func:`load_spec` reads every spec file safely, validates each against its JSON Schema in
``spec/schema/`` and then checks the references between them (every cited clause exists,
every variation point has a reading or ``open`` in every ruleset, ...). It reports *all*
problems it finds at once. The result, :class:`Spec`, is what the engine, the proofs and
the rulebook read; none of them restates a number or a rule.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from palast.errors import SpecError
from palast.spec.flow import parse_flow
from palast.spec.house_rulesets import read_house_rulesets
from palast.spec.model import (
    OPEN,
    Clause,
    Invariant,
    Lemma,
    Reachability,
    ReachWitness,
    Reading,
    RoleAction,
    RoundsBefore,
    Rule,
    Spec,
    VariationPoint,
)
from palast.spec.modules import FOLDER as MODULES
from palast.spec.modules import module_files, read_modules, rule_entries
from palast.spec.schemas import schema_errors
from palast.spec.state import parse_state
from palast.spec.visibility import parse_visibility
from palast.spec.yamlio import Document, read_yaml

#: What other modules import from here: the loading functions, and the spec's records
#: (defined in :mod:`palast.spec.model`).
__all__ = ["OPEN", "SPEC_FILES", "Clause", "Invariant", "Lemma", "Reading", "RoleAction", "Rule", "Spec",
           "VariationPoint", "cached_spec", "default_sources_dir", "default_spec_dir", "load_spec",
           "sources_candidates"]

#: Spec files, in load order, with the schema each must satisfy.
SPEC_FILES: tuple[tuple[str, str], ...] = (
    ("clauses.yaml", "clauses.schema.json"),
    ("game.yaml", "game.schema.json"),
    ("rules.yaml", "rules.schema.json"),
    ("roles.yaml", "roles.schema.json"),
    ("variation_points.yaml", "variation_points.schema.json"),
    ("rulesets.yaml", "rulesets.schema.json"),
    ("invariants.yaml", "invariants.schema.json"),
    ("visibility.yaml", "visibility.schema.json"),
    ("flow.yaml", "flow.schema.json"),
    ("state.yaml", "state.schema.json"),
)



def default_spec_dir() -> Path:
    """Return the spec directory: ``$PALAST_SPEC`` if set, else ``spec/`` beside the package
    (a checkout or an editable install), else the copy an installed palast keeps in
    ``<prefix>/share/palast/spec`` (``pyproject.toml``'s data files)."""
    env = os.environ.get("PALAST_SPEC")
    if env:
        return Path(env)
    beside = Path(__file__).resolve().parents[2] / "spec"
    installed = Path(sys.prefix) / "share" / "palast" / "spec"
    return installed if not beside.is_dir() and installed.is_dir() else beside


def default_sources_dir() -> Path | None:
    """Return the directory holding the rule source texts, or ``None`` if it is not present.

    ``$PALAST_SOURCES`` wins; otherwise ``../shared/sources`` beside the checkout is tried.
    """
    for c in sources_candidates():
        if c.is_dir():
            return c
    return None


def sources_candidates() -> list[Path]:
    """Where :func:`default_sources_dir` looks: ``$PALAST_SOURCES`` alone when it is set,
    else ``../shared/sources`` beside the checkout."""
    env = os.environ.get("PALAST_SOURCES")
    return [Path(env)] if env else [Path(__file__).resolve().parents[3] / "shared" / "sources"]


def load_spec(root: Path | str | None = None, *, sources_dir: Path | None = None, rulings: bool = True) -> Spec:
    """Load, validate and cross-check the spec.

    :param root: the spec directory (default :func:`default_spec_dir`).
    :param sources_dir: where the rule source texts are; when given (or found), each
        source's SHA-256 and line count are checked against ``clauses.yaml``.
    :param rulings: also check what the files in ``spec/rulings/`` refer to (``False``
        for commands that never read a ruling, such as ``palast ask``).
    :returns: the :class:`Spec`.
    :raises SpecError: listing every problem found (schema violations with file, line and
        key path; unknown clause ids; variation points without a reading for a ruleset; ...).
    """
    from palast.spec import stamp as spec_stamp

    root_path = Path(root) if root is not None else default_spec_dir()
    if not root_path.is_dir():
        raise SpecError("the spec directory does not exist", str(root_path))
    schema_dir = root_path / "schema"
    sources = sources_dir if sources_dir is not None else default_sources_dir()
    # without the rulings (palast ask), a spec validated before byte for byte is not
    # validated again (palast.spec.stamp); palast spec check always validates
    key = None
    spec_files = [*SPEC_FILES, *module_files(root_path)]
    if not rulings:
        try:
            files = [root_path / f for f, _ in spec_files] + sorted(schema_dir.glob("*.json"))
            key = spec_stamp.spec_key(files, sources, "without rulings")
        except OSError:
            key = None
    trusted = key is not None and spec_stamp.is_stamped(key)
    kept = spec_stamp.load_documents(key) if trusted and key is not None else None
    if kept is not None and set(kept) == {f for f, _ in spec_files}:
        # the very bytes validated before, parsed before: no YAML to read
        return _build(root_path, {f: Document(kept[f], str(root_path / f), None) for f, _ in spec_files})
    docs: dict[str, Document] = {}
    problems: list[str] = []
    for fname, schema in spec_files:
        path = root_path / fname
        doc = read_yaml(path)
        if not isinstance(doc.data, dict):
            problems.append(f"{doc.file}: top level: expected a mapping")
            continue
        if not trusted:
            problems.extend(schema_errors(doc, schema_dir, schema))
        docs[fname] = doc
    if problems:
        raise SpecError(join_problems(problems), str(root_path))
    spec = _build(root_path, docs)
    if trusted:
        if key is not None:
            spec_stamp.save_documents(key, {f: d.data for f, d in docs.items()})
        return spec
    from palast.spec.cross_check import cross_check

    problems = cross_check(spec, sources, rulings=rulings)
    if problems:
        raise SpecError(join_problems(problems), str(root_path))
    if key is not None:
        spec_stamp.stamp(key)
        spec_stamp.save_documents(key, {f: d.data for f, d in docs.items()})
    return spec


@lru_cache(maxsize=4)
def cached_spec(root: str | None = None, rulings: bool = True) -> Spec:
    """Return :func:`load_spec` of ``root`` (``rulings`` as there), loaded once per process."""
    return load_spec(root, rulings=rulings)


def join_problems(problems: list[str]) -> str:
    """The message listing ``problems`` (at most 30 of them, then how many more)."""
    n = len(problems)
    head = f"{n} problem{'s' if n != 1 else ''} in the spec:"
    more = f"\n  ... and {n - 30} more" if n > 30 else ""
    return head + "\n  - " + "\n  - ".join(problems[:30]) + more


def _build(root: Path, docs: Mapping[str, Document]) -> Spec:
    cl = docs["clauses.yaml"].data
    sources = {s["id"]: s for s in cl["sources"]}
    clauses = {
        c["id"]: Clause(c["id"], c["source"], sources.get(c["source"], {}).get("file", "?"),
                        c["lines"][0], c["lines"][1], c["paraphrase"])
        for c in cl["clauses"]
    }
    third_party = {t["id"]: t for t in cl["third_party"]}
    game = docs["game.yaml"].data
    roles = tuple(r["id"] for r in game["roles"])
    role_names = {r["id"]: r for r in game["roles"]}
    role_aliases: dict[str, str] = {}
    for r in game["roles"]:
        role_aliases[r["id"]] = r["id"]
        for a in r.get("aliases", []):
            role_aliases[a] = r["id"]
    player_colours = tuple(c["id"] for c in game["colours"]["player"])
    neutral = game["colours"]["neutral"]["id"]
    colour_aliases = {c: c for c in player_colours + (neutral,)}
    for a in game["colours"]["neutral"].get("aliases", []):
        colour_aliases[a] = neutral

    rules: dict[str, Rule] = {}
    role_rules: dict[str, list[str]] = {}
    for r, _, _, role in rule_entries(docs):
        rules[r["id"]] = Rule(r["id"], r["title"], r["statement"], tuple(r["clauses"]),
                              r.get("topic", "") if role is None else "role", tuple(r.get("variation_points", ())),
                              role=role)
        if role is not None:
            role_rules.setdefault(role, []).append(r["id"])
    role_actions: dict[str, RoleAction] = {}
    for ra in docs["roles.yaml"].data["roles"]:
        role_actions[ra["role"]] = RoleAction(ra["role"], ra["action"], tuple(ra["choices"]),
                                              tuple(role_rules.get(ra["role"], ())))
    vps: dict[str, VariationPoint] = {}
    for v in docs["variation_points.yaml"].data["variation_points"]:
        vps[v["id"]] = VariationPoint(
            v["id"], v["topic"], v["kind"], v.get("parameter"), v["changes_outcome"], v["sides"],
            tuple(Reading(r["id"], r["statement"], tuple(r.get("third_party", ())), str(r.get("words", "")),
                          tuple((b["obligation"], b["because"]) for b in r.get("breaks", ())))
                  for r in v["readings"]),
            v["rulesets"], v["reason"], v.get("witness"), v,
            tuple((t["source"], t["says"]) for t in v.get("third_party", ())), bool(v.get("component", False)),
            str(v.get("note", "")),
        )
    rs = docs["rulesets.yaml"].data
    rulesets = {r["id"]: r for r in rs["rulesets"]}
    invariants = {
        i["id"]: Invariant(i["id"], i["kind"], i["statement"], tuple(i["clauses"]), i.get("established_by", {}),
                           i.get("holds"), tuple(Lemma(x["id"], x["statement"], x["holds"], x.get("colours"))
                                                 for x in i.get("lemmas", ())), dict(i.get("let", {})),
                           dict(i.get("readings", {})))
        for i in docs["invariants.yaml"].data["invariants"]
    }
    return Spec(root, sources, clauses, third_party, game, roles, role_names, role_aliases, player_colours,
                neutral, colour_aliases, role_actions, rules, vps, rulesets, rs["default"], invariants, docs,
                parse_visibility(docs["visibility.yaml"].data), read_house_rulesets(rs),
                parse_flow(docs["flow.yaml"].data, docs["roles.yaml"].data,
                           [(n, d.data) for n, d in sorted(docs.items()) if n.startswith(MODULES + "/")]),
                read_modules(docs), parse_state(docs["state.yaml"].data),
                _reachability(docs["invariants.yaml"].data.get("reachability", ()), tuple(rulesets)))


def _reachability(entries: Any, rulesets: tuple[str, ...]) -> dict[str, Reachability]:
    """The ``reachability`` questions of ``spec/invariants.yaml`` (schema-valid), by id; a
    witness without ``rulesets`` covers ``rulesets`` (every ruleset of the spec)."""
    out = {}
    for r in entries:
        witnesses = []
        for w in r.get("witnesses", ()):
            rb = w.get("rounds_before")
            witnesses.append(ReachWitness(
                w["title"], w["ruleset"], tuple(w.get("rulesets", rulesets)), int(w["players"]),
                int(w["max_steps"]), str(w.get("file", f"{r['id']}.yaml")), int(w.get("min_steps", 1)),
                bool(w.get("deep", False)), bool(w.get("alike", False)), tuple(w.get("sketch", ())),
                RoundsBefore(rb["reaches"], rb["until"], int(rb["max_steps"])) if rb else None, "rulesets" not in w))
        out[r["id"]] = Reachability(
            r["id"], r["question"], r["statement"], tuple(r["clauses"]), tuple(r.get("fires", ())), r["expect"],
            r.get("reaches"), tuple(witnesses))
    return out
