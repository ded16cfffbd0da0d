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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from palast.errors import SpecError
from palast.spec.flow import Flow, flow_problems, parse_flow
from palast.spec.house_rulesets import house_problems, read_house_rulesets
from palast.spec.modules import FOLDER as MODULES
from palast.spec.modules import Module, module_files, module_problems, read_modules, rule_entries
from palast.spec.schemas import schema_errors
from palast.spec.visibility import Visibility, parse_visibility, visibility_problems
from palast.spec.yamlio import Document, read_yaml

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
)

#: The word a ruleset uses for a variation point it leaves undecided.
OPEN = "open"


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


@dataclass(frozen=True)
class Clause:
    """One rule passage of a source: id, source id and file, line range, our paraphrase."""

    id: str
    source: str
    file: str
    first_line: int
    last_line: int
    paraphrase: str

    @property
    def lines(self) -> str:
        """The line range, ``"75–78"`` (en dash), or one line, ``"32"``."""
        return str(self.first_line) if self.first_line == self.last_line else f"{self.first_line}–{self.last_line}"

    @property
    def where(self) -> str:
        """The source letter and line range, ``"A 75–78"``; the sources are named by
        :func:`palast.spec.sources.source_notes` (the file names stay in ``clauses.yaml``)."""
        return f"{self.source} {self.lines}"

    @property
    def cite(self) -> str:
        """``"A.role.wizard (A 75–78)"``: the clause id with :attr:`where`."""
        return f"{self.id} ({self.where})"


@dataclass(frozen=True)
class Rule:
    """A rule of play or of a role: id, title, statement, clause ids, variation points."""

    id: str
    title: str
    statement: str
    clauses: tuple[str, ...]
    topic: str
    variation_points: tuple[str, ...] = ()
    role: str | None = None


@dataclass(frozen=True)
class Reading:
    """One reading of a variation point."""

    id: str
    statement: str
    third_party: tuple[str, ...] = ()


@dataclass(frozen=True)
class VariationPoint:
    """A place where the sources differ or are silent; see ``spec/variation_points.yaml``."""

    id: str
    topic: str
    kind: str
    parameter: str | None
    changes_outcome: str
    sides: Mapping[str, Mapping[str, Any]]
    readings: tuple[Reading, ...]
    choices: Mapping[str, str]
    reason: str
    witness: str | None
    raw: Mapping[str, Any]
    third_party: tuple[tuple[str, str], ...] = ()
    component: bool = False
    note: str = ""

    @property
    def rulesets_differ(self) -> bool:
        """True if the rulesets do not all take the same reading (``open`` counts as one)."""
        return len(set(self.choices.values())) > 1

    def reading(self, reading_id: str) -> Reading:
        """Return the reading ``reading_id``; :raises KeyError: if there is none."""
        for r in self.readings:
            if r.id == reading_id:
                return r
        raise KeyError(reading_id)

    def clauses(self) -> tuple[str, ...]:
        """All clause ids either side cites, A's first."""
        out: list[str] = []
        for side in ("A", "B"):
            for c in self.sides[side]["clauses"]:
                if c not in out:
                    out.append(c)
        return tuple(out)


@dataclass(frozen=True)
class RoleAction:
    """What a role does: its action kind, whether it may be played while banned, its choices."""

    role: str
    action: str
    playable_when_banned: bool
    choices: tuple[Mapping[str, str], ...]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Lemma:
    """A strengthening lemma declared beside an invariant whose proof needs it.

    :ivar id: its id (unique among invariants and lemmas).
    :ivar statement: what it says, in words.
    :ivar holds: the rule-language expression that is true in every position.
    """

    id: str
    statement: str
    holds: str


@dataclass(frozen=True)
class Invariant:
    """A declared invariant: id, kind (``state`` or ``step``), statement, clauses, and for a
    state invariant the expression ``holds`` (rule language) and its ``lemmas``."""

    id: str
    kind: str
    statement: str
    clauses: tuple[str, ...]
    established_by: Mapping[str, Any]
    holds: str | None = None
    lemmas: tuple[Lemma, ...] = ()
    let: Mapping[str, str] = field(default_factory=dict)
    #: names that depend on a variation point's reading: ``point`` and, per reading (and
    #: ``open``), ``{"let": {name: expression}}``
    readings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    """Everything in ``spec/``, validated and cross-checked.

    Sequences keep file order: the engine numbers roles and colours by it.
    """

    root: Path
    sources: Mapping[str, Mapping[str, Any]]
    clauses: Mapping[str, Clause]
    third_party: Mapping[str, Mapping[str, Any]]
    game: Mapping[str, Any]
    roles: tuple[str, ...]
    role_names: Mapping[str, Mapping[str, Any]]
    role_aliases: Mapping[str, str]
    player_colours: tuple[str, ...]
    neutral_colour: str
    colour_aliases: Mapping[str, str]
    role_actions: Mapping[str, RoleAction]
    rules: Mapping[str, Rule]
    variation_points: Mapping[str, VariationPoint]
    rulesets: Mapping[str, Mapping[str, Any]]
    default_ruleset: str
    invariants: Mapping[str, Invariant]
    documents: Mapping[str, Document] = field(repr=False)
    #: who sees what (``spec/visibility.yaml``)
    visibility: Visibility = field(repr=False, default=Visibility((), {}, {}))
    #: the named house rulesets of ``spec/rulesets.yaml`` (``house``), by id; none of them is
    #: in ``rulesets`` until :func:`palast.formats.house.resolve` adds it (:mod:`palast.spec.house_rulesets`)
    house_rulesets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: the turn and the round as a state machine over decisions (``spec/flow.yaml`` and the
    #: roles' choices; :mod:`palast.spec.flow`)
    flow: Flow = field(repr=False, default_factory=Flow)
    #: the rule modules of ``spec/modules/`` by id (:mod:`palast.spec.modules`)
    modules: Mapping[str, Module] = field(default_factory=dict)

    # -- numbers -----------------------------------------------------------------
    @property
    def min_players(self) -> int:
        """Fewest players the game allows (A.meta, B.meta)."""
        return int(self.game["players"]["min"])

    @property
    def max_players(self) -> int:
        """Most players the game allows (A.meta, B.meta)."""
        return int(self.game["players"]["max"])

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player every round."""
        return int(self.game["hand_size"]["value"])

    @property
    def six(self) -> int:
        """Different roles in one display that end a round."""
        return int(self.game["six"]["distinct_roles"])

    @property
    def per_colour(self) -> int:
        """Cards of each role a seated colour brings."""
        return int(self.game["cards"]["per_player_colour_per_role"])

    @property
    def neutral_per_role(self) -> int:
        """Neutral cards of each role."""
        return int(self.game["cards"]["neutral_per_role"])

    @property
    def king_roles(self) -> tuple[str, ...]:
        """The roles named by the King cards, one card each."""
        return tuple(self.game["king_cards"]["roles"])

    def target(self, players: int) -> int:
        """The score that ends a game of ``players`` players; :raises KeyError: otherwise."""
        return int(self.game["targets"]["by_players"][players])

    def reading(self, ruleset: str, point: str) -> str:
        """The reading id ``ruleset`` takes for variation point ``point`` (or ``"open"``)."""
        return self.variation_points[point].choices[ruleset]

    def rule_clauses(self, rule_id: str, ruleset: str) -> tuple[str, ...]:
        """The clause ids rule ``rule_id`` rests on under ``ruleset``.

        A rule that depends on variation points cites, under a ruleset, only the clauses of
        the sources that read those points as the ruleset does: a source side whose reading
        differs (or that is silent) while the ruleset takes a reading loses its clauses for
        that rule, so an event never cites a passage that says otherwise. Where the ruleset
        leaves a point open every clause stays. If nothing would remain, all are kept.

        A rule of a rule module (``spec/modules/``) keeps the module's own clauses under a
        ruleset that switches the module on: they are the passage that declares what the
        rule carries out, not one that says otherwise, though the module's switch reads
        ``off`` on the source's side (the module is optional there) and its gaps are silent
        there.

        :raises KeyError: for an unknown rule or ruleset.
        """
        rule = self.rules[rule_id]
        keep = {c for m in self.modules.values() if rule_id in m.rules
                and self.variation_points[m.point].choices[ruleset] == m.reading for c in m.clauses}
        drop: set[str] = set()
        for point in rule.variation_points:
            vp = self.variation_points[point]
            choice = vp.choices[ruleset]
            if choice == OPEN:
                continue
            for side in ("A", "B"):
                if vp.sides[side]["reading"] != choice:
                    drop.update(vp.sides[side]["clauses"])
        kept = tuple(c for c in rule.clauses if c not in drop - keep)
        return kept or rule.clauses

    def cite(self, clause_ids: tuple[str, ...] | list[str]) -> str:
        """Render clause ids with source letter and line range (``A.play.turn (A 38–39)``),
        separated by ``"; "``."""
        return "; ".join(self.clauses[c].cite for c in clause_ids)


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
        raise SpecError(_join(problems), str(root_path))
    spec = _build(root_path, docs)
    if trusted:
        if key is not None:
            spec_stamp.save_documents(key, {f: d.data for f, d in docs.items()})
        return spec
    problems = cross_check(spec, sources, rulings=rulings)
    if problems:
        raise SpecError(_join(problems), str(root_path))
    if key is not None:
        spec_stamp.stamp(key)
        spec_stamp.save_documents(key, {f: d.data for f, d in docs.items()})
    return spec


@lru_cache(maxsize=4)
def cached_spec(root: str | None = None, rulings: bool = True) -> Spec:
    """Return :func:`load_spec` of ``root`` (``rulings`` as there), loaded once per process."""
    return load_spec(root, rulings=rulings)


def _join(problems: list[str]) -> str:
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
        role_actions[ra["role"]] = RoleAction(ra["role"], ra["action"], ra.get("playable_when_banned", True),
                                              tuple(ra["choices"]), tuple(role_rules.get(ra["role"], ())))
    vps: dict[str, VariationPoint] = {}
    for v in docs["variation_points.yaml"].data["variation_points"]:
        vps[v["id"]] = VariationPoint(
            v["id"], v["topic"], v["kind"], v.get("parameter"), v["changes_outcome"], v["sides"],
            tuple(Reading(r["id"], r["statement"], tuple(r.get("third_party", ()))) for r in v["readings"]),
            v["rulesets"], v["reason"], v.get("witness"), v,
            tuple((t["source"], t["says"]) for t in v.get("third_party", ())), bool(v.get("component", False)),
            str(v.get("note", "")),
        )
    rs = docs["rulesets.yaml"].data
    rulesets = {r["id"]: r for r in rs["rulesets"]}
    invariants = {
        i["id"]: Invariant(i["id"], i["kind"], i["statement"], tuple(i["clauses"]), i.get("established_by", {}),
                           i.get("holds"), tuple(Lemma(x["id"], x["statement"], x["holds"])
                                                 for x in i.get("lemmas", ())), dict(i.get("let", {})),
                           dict(i.get("readings", {})))
        for i in docs["invariants.yaml"].data["invariants"]
    }
    return Spec(root, sources, clauses, third_party, game, roles, role_names, role_aliases, player_colours,
                neutral, colour_aliases, role_actions, rules, vps, rulesets, rs["default"], invariants, docs,
                parse_visibility(docs["visibility.yaml"].data), read_house_rulesets(rs),
                parse_flow(docs["flow.yaml"].data, docs["roles.yaml"].data,
                           [(n, d.data) for n, d in sorted(docs.items()) if n.startswith(MODULES + "/")]),
                read_modules(docs))


def _third_party_refs(data: Any, path: list[str | int]) -> list[tuple[list[str | int], str]]:
    out: list[tuple[list[str | int], str]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "third_party" and isinstance(v, list):
                for i, t in enumerate(v):
                    name = t if isinstance(t, str) else t.get("source") if isinstance(t, dict) else None
                    if name:
                        out.append((path + [k, i], name))
            else:
                out.extend(_third_party_refs(v, path + [k]))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_third_party_refs(v, path + [i]))
    return out


def cross_check(spec: Spec, sources_dir: Path | None, *, rulings: bool = True) -> list[str]:
    """Check references between spec files; return one message per problem (empty: fine).

    Checks: clause ids exist and their line ranges lie inside their source; third-party
    names exist; roles agree between files; King roles are roles; a target for every
    player count; every variation point's readings, sides and ruleset choices are
    consistent and every engine parameter is set by exactly one variation point with
    readings the engine implements; the discrepancy register's own rules and the
    rulings' references (:mod:`palast.spec.register`); every invariant declares its expression.
    """
    from palast.engine.params import PARAMETERS
    from palast.spec.register import clause_refs, register_problems, ruling_reference_problems
    from palast.spec.sources import check_sources

    problems: list[str] = []
    docs = spec.documents

    def at(fname: str, path: list[str | int], msg: str) -> None:
        problems.append(f"{docs[fname].file}: {docs[fname].place(path)}: {msg}")

    # clauses and sources
    seen_clauses: set[str] = set()
    for i, raw in enumerate(docs["clauses.yaml"].data["clauses"]):
        cid = raw["id"]
        c = Clause(cid, raw["source"], "?", raw["lines"][0], raw["lines"][1], raw["paraphrase"])
        if cid in seen_clauses:
            at("clauses.yaml", ["clauses", i, "id"], f"clause {cid} is listed twice")
        seen_clauses.add(cid)
        src = spec.sources.get(c.source)
        if src is None:
            at("clauses.yaml", ["clauses", i, "source"], f"clause {cid} names unknown source {c.source!r}")
            continue
        if not cid.startswith(c.source + "."):
            at("clauses.yaml", ["clauses", i, "id"], f"clause {cid} does not start with its source id {c.source}")
        if not (1 <= c.first_line <= c.last_line <= int(src["line_count"])):
            at("clauses.yaml", ["clauses", i, "lines"], f"clause {cid} lines {c.first_line}-{c.last_line} "
                                                         f"lie outside {src['file']} (1-{src['line_count']})")
    # a missing folder or file is no problem here; palast spec check says what was verified
    problems.extend(f"clauses.yaml: {p}" for p in check_sources(spec, sources_dir).problems)
    for fname, doc in docs.items():
        if fname == "clauses.yaml":
            continue
        for path, cid in clause_refs(doc.data, []):
            if cid not in spec.clauses:
                at(fname, path, f"cites clause {cid!r}, which is not in the clause registry")
        for path, tp in _third_party_refs(doc.data, []):
            if tp not in spec.third_party:
                at(fname, path, f"names third-party source {tp!r}, which clauses.yaml does not list")

    # game
    _game_problems(spec, at)
    if set(spec.role_actions) != set(spec.roles):
        missing = sorted(set(spec.roles) - set(spec.role_actions))
        extra = sorted(set(spec.role_actions) - set(spec.roles))
        problems.append(f"roles.yaml: roles without an action: {missing}; actions for unknown roles: {extra}")
    if spec.neutral_per_role * len(spec.roles) != int(spec.game["cards"]["neutral_total"]):
        at("game.yaml", ["cards", "neutral_per_role"],
           f"{spec.neutral_per_role} neutral cards for each of {len(spec.roles)} roles do not make the "
           f"{spec.game['cards']['neutral_total']} neutral cards the sources give")
    for i, k in enumerate(spec.king_roles):
        if k not in spec.roles:
            at("game.yaml", ["king_cards", "roles", i], f"King card names unknown role {k!r}")
    for n in range(spec.min_players, spec.max_players + 1):
        if n not in spec.game["targets"]["by_players"]:
            at("game.yaml", ["targets", "by_players"], f"no target for {n} players")
    if spec.max_players > len(spec.player_colours):
        at("game.yaml", ["colours", "player"], "fewer player colours than the most players")
    if spec.six > len(spec.roles) or spec.six >= spec.hand_size + 1:
        at("game.yaml", ["six"], "six different roles must be possible within one hand")
    seen_alias: dict[str, str] = {}
    for r in spec.game["roles"]:
        for a in [r["id"], *r.get("aliases", [])]:
            if a in seen_alias and seen_alias[a] != r["id"]:
                at("game.yaml", ["roles"], f"alias {a!r} names two roles")
            seen_alias[a] = r["id"]

    # rules
    for rid, rule in spec.rules.items():
        for vp in rule.variation_points:
            if vp not in spec.variation_points:
                problems.append(f"rule {rid} names unknown variation point {vp!r}")

    # variation points and rulesets
    from palast.lang.logic import declared_readings
    declared = declared_readings(spec)
    params_seen: dict[str, str] = {}
    for i, (vid, point) in enumerate(spec.variation_points.items()):
        base: list[str | int] = ["variation_points", i]
        reading_ids = [r.id for r in point.readings]
        if len(set(reading_ids)) != len(reading_ids):
            at("variation_points.yaml", base + ["readings"], f"{vid}: a reading id is repeated")
        for side in ("A", "B"):
            r = point.sides[side]["reading"]
            if r is not None and r not in reading_ids:
                at("variation_points.yaml", base + ["sides", side, "reading"],
                   f"{vid}: side {side} reads {r!r}, which is not one of its readings {reading_ids}")
        for rs in spec.rulesets:
            choice = point.choices.get(rs)
            if choice is None:
                at("variation_points.yaml", base + ["rulesets"],
                   f"{vid}: ruleset {rs!r} has no reading (name one of {reading_ids} or 'open')")
            elif choice != OPEN and choice not in reading_ids:
                at("variation_points.yaml", base + ["rulesets", rs],
                   f"{vid}: ruleset {rs!r} takes {choice!r}, which is not one of its readings {reading_ids}")
        for rs in point.choices:
            if rs not in spec.rulesets:
                at("variation_points.yaml", base + ["rulesets", rs], f"{vid}: unknown ruleset {rs!r}")
        # a source ruleset follows its side (a component fact is read alike by every ruleset)
        for side, rs in (("A", "source-a"), ("B", "source-b")):
            if rs in point.choices and rs in spec.rulesets and not point.component:
                want = point.sides[side]["reading"] or OPEN
                if point.choices[rs] != want:
                    at("variation_points.yaml", base + ["rulesets", rs],
                       f"{vid}: {rs} must take source {side}'s reading {want!r}, not {point.choices[rs]!r}")
        if point.parameter is not None:
            if point.parameter in params_seen:
                at("variation_points.yaml", base + ["parameter"],
                   f"{vid}: parameter {point.parameter} is already set by {params_seen[point.parameter]}")
            params_seen[point.parameter] = vid
            if point.parameter not in PARAMETERS and vid not in declared:
                at("variation_points.yaml", base + ["parameter"],
                   f"{vid}: the engine has no parameter {point.parameter!r} (it has {sorted(PARAMETERS)}) and no "
                   "rule's declaration reads the point")
            else:
                supported = PARAMETERS.get(point.parameter, frozenset()) | declared.get(vid, frozenset())
                for r in reading_ids:
                    if r not in supported:
                        at("variation_points.yaml", base + ["readings"],
                           f"{vid}: the engine does not implement reading {r!r} of {point.parameter} and no "
                           f"rule declares what it does (implemented: {sorted(supported)})")
    for p in PARAMETERS:
        if p not in params_seen:
            problems.append(f"variation_points.yaml: engine parameter {p!r} is set by no variation point")
    problems.extend(house_problems(spec))
    if spec.default_ruleset not in spec.rulesets:
        at("rulesets.yaml", ["default"], f"default ruleset {spec.default_ruleset!r} is not defined "
                                         f"(rulesets: {', '.join(spec.rulesets)})")

    problems.extend(register_problems(spec))
    # rule ids are listed once, across rules.yaml, roles.yaml and the modules
    seen_rules: set[str] = set()
    for raw_rule, fname, rpath, _ in rule_entries(docs):
        if raw_rule["id"] in seen_rules:
            at(fname, [*rpath, "id"], f"rule {raw_rule['id']} is listed twice")
        seen_rules.add(raw_rule["id"])
    problems.extend(module_problems(spec))
    seen_points: set[str] = set()
    for i, raw_vp in enumerate(docs["variation_points.yaml"].data["variation_points"]):
        if raw_vp["id"] in seen_points:
            at("variation_points.yaml", ["variation_points", i, "id"],
               f"variation point {raw_vp['id']} is listed twice")
        seen_points.add(raw_vp["id"])
    # the rules' logic blocks (the rule language)
    from palast.lang.logic import declarations
    from palast.lang.logic import problems as logic_problems
    for place, inner, msg in logic_problems(spec):
        at(place.file, [*place.path, *inner], msg)
    if rulings:
        problems.extend(ruling_reference_problems(spec))
    # who sees what (spec/visibility.yaml)
    from palast.engine.events import EVENT_KINDS
    from palast.engine.state import DecisionKind
    visibility_problems(spec, EVENT_KINDS, frozenset(k.value for k in DecisionKind), at)
    # the rules declared with statements (do blocks)
    from palast.lang.blocks import problems as block_problems
    effect_rules = {d.rule: d.step for d in declarations(spec)}
    for fname, where, msg in block_problems(spec, frozenset(spec.flow.decisions), frozenset(EVENT_KINDS),
                                            effect_rules):
        at(fname, list(where), msg)
    flow_problems(spec, frozenset(k.value for k in DecisionKind), at)

    # invariants
    from palast.invariants.declared import problems as invariant_problems
    for where, msg in invariant_problems(spec):
        at("invariants.yaml", list(where), msg)
    for i, inv in enumerate(spec.invariants.values()):
        if inv.holds is None:
            at("invariants.yaml", ["invariants", i, "id"],
               f"invariant {inv.id!r} declares no expression (holds): say what it claims, in the rule language")
    return problems


def _game_problems(spec: Spec, at: Any) -> None:
    """Checks of ``game.yaml`` that its schema cannot state: ids listed once, the player
    range, enough cards for every player count, aliases that name one thing, and no King
    card for a role whose action reveals King cards (banned-role). Each problem is
    reported through ``at(file, path, message)``."""
    game = spec.game
    for key, ids in (("roles", spec.roles), ("colours.player", spec.player_colours)):
        for i, x in enumerate(ids):
            if x in ids[:i]:
                at("game.yaml", [*key.split("."), i, "id"], f"{x!r} is listed twice")
    if spec.neutral_colour in spec.player_colours:
        at("game.yaml", ["colours", "neutral", "id"], f"the neutral colour {spec.neutral_colour!r} is also a player "
                                                      "colour")
    for i, a in enumerate(game["colours"]["neutral"].get("aliases", [])):
        if a in spec.player_colours:
            at("game.yaml", ["colours", "neutral", "aliases", i], f"alias {a!r} is already a player colour")
    if spec.max_players < spec.min_players:
        at("game.yaml", ["players"], f"max ({spec.max_players}) is below min ({spec.min_players})")
    short = []
    for n in range(spec.min_players, spec.max_players + 1):
        cards = len(spec.roles) * (n * spec.per_colour + spec.neutral_per_role)
        if n * spec.hand_size > cards:
            short.append(f"{n} players need {n * spec.hand_size} and have {cards}")
    if short:
        at("game.yaml", ["hand_size", "value"], f"a deal of {spec.hand_size} cards to every player needs more cards "
                                                f"than the game has: {'; '.join(short)}")
    for i, k in enumerate(spec.king_roles):
        ra = spec.role_actions.get(k)
        if ra is not None and ra.action == "reveal-king":
            at("game.yaml", ["king_cards", "roles", i], f"a King card names the {k}, whose action reveals King "
                                                        "cards; that role can never be banned (banned-role)")
