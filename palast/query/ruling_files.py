"""Ruling files (``spec/rulings/<id>.yaml``): reading and validating them, finding those
that name a variation point, and a ruling as the scenario ``palast ask`` answers. What a
ruling states and how the engine's outcome is compared with it: :mod:`palast.query.rulings`."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from palast.engine.game import Game
from palast.engine.state import DecisionKind
from palast.errors import InputError, NotationError, ScenarioError, SpecError
from palast.formats.scenario import Scenario, join_problems, scenario_from_document
from palast.query.ruling_views import view_problems
from palast.query.rulings import Ruling
from palast.spec.load import Spec
from palast.spec.schemas import schema_errors
from palast.spec.yamlio import Document, read_yaml

K = DecisionKind


def rulings_dir(spec: Spec) -> Path:
    """The folder holding the rulings: ``rulings/`` in the spec directory."""
    return spec.root / "rulings"


def load_rulings(spec: Spec, ids: Sequence[str] | None = None) -> list[Ruling]:
    """Read and validate the rulings in ``spec/rulings/``.

    :param spec: the loaded spec (clauses, variation points, rulesets, cards).
    :param ids: only these ruling ids (default: all), in the order given.
    :returns: the rulings, sorted by id unless ``ids`` is given.
    :raises SpecError: listing every problem in every file at once, each with file, place
        and problem (schema violations, an id that is not the file name, unknown clauses,
        variation points, rulesets, colours, cards or event kinds, a bad ``same_as``, an
        unreadable action, an impossible position); or naming the unknown ``ids``.
    """
    folder = rulings_dir(spec)
    paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if ids is not None:
        known = {p.stem: p for p in paths}
        missing = [i for i in ids if i not in known]
        if missing:
            raise SpecError(f"no ruling {', '.join(map(repr, missing))} (known: {', '.join(sorted(known))})",
                            str(folder))
        paths = [known[i] for i in ids]
    out: list[Ruling] = []
    problems: list[str] = []
    for p in paths:
        try:
            out.append(load_ruling(p, spec))
        except InputError as exc:
            problems.append(exc.render().replace("\n", "\n    "))  # a file's own problems indented under it
    if problems:
        n = len(problems)
        raise SpecError(f"{n} malformed ruling file{'s' if n != 1 else ''}:\n  - " + "\n  - ".join(problems))
    return out


def load_ruling(path: Path | str, spec: Spec) -> Ruling:
    """Read and validate one ruling file (see the module docstring for the format).

    :returns: the :class:`palast.query.rulings.Ruling`.
    :raises InputError: (a :class:`SpecError` or :class:`~palast.errors.ScenarioError`)
        naming the file, the place and every problem found.
    """
    doc = read_yaml(path)
    if not isinstance(doc.data, dict):
        raise SpecError("a ruling must be a mapping", doc.file, "top level")
    problems = [p.removeprefix(f"{doc.file}: ") for p in schema_errors(doc, spec.root / "schema", "ruling.schema.json")]
    if problems:  # the file apart from the places, as a scenario's (palast ask --json gives it apart)
        raise SpecError(join_problems(problems), doc.file)
    data: dict[str, Any] = doc.data
    scenario = scenario_from_document(doc, spec, base=("scenario",))
    bad: list[str] = []

    def err(where: list[str | int], message: str) -> None:
        bad.append(f"{doc.place(where)}: {message}")

    stem = Path(doc.file).stem
    if data["id"] != stem:
        err(["id"], f"the id must be the file name, {stem!r}")
    for i, c in enumerate(data["clauses"]):
        if c not in spec.clauses:
            err(["clauses", i], f"cites clause {c!r}, which is not in the clause registry")
    for i, vp in enumerate(data.get("variation_points") or []):
        if vp not in spec.variation_points:
            err(["variation_points", i], f"names unknown variation point {vp!r}")
    if "rulesets" in data["scenario"]:
        err(["scenario", "rulesets"], "a ruling's rulesets are the keys of expect; leave rulesets out of the scenario")
    game = Game(spec, spec.default_ruleset, scenario.players)
    action = data.get("action")
    if action is not None:
        from palast.formats.notation import parse_action

        try:
            parse_action(game, action)
        except NotationError as exc:
            err(["action"], exc.message)
    expect, same_as = _expectations(doc, spec, game, err)
    if not bad:
        try:
            scenario.start(game)
        except InputError as exc:
            err(["scenario"], exc.message)
    if not bad:
        _suspended_violations(spec, scenario, expect, same_as, err)
    if not bad and scenario.marks:
        from palast.query.scenario_marks import dealing_modules, marks_warnings

        try:  # character cards that no ruleset of the ruling deals would be asked about in vain
            marks_warnings(spec, scenario, list(expect))
        except ScenarioError:
            modules = ", ".join(m.id for m in dealing_modules(spec)) or "none in this spec"
            err(["scenario", "marks"], "the scenario gives character cards, but no ruleset the ruling states a "
                                       f"result for switches on a rule module that deals them ({modules}): state "
                                       "a result under one that does, or leave the marks out")
    if bad:
        raise SpecError(join_problems(bad), doc.file)
    return Ruling(
        id=data["id"], file=doc.file, title=data["title"], question=data["question"], answer=data["answer"],
        clauses=tuple(data["clauses"]), variation_points=tuple(data.get("variation_points") or ()),
        scenario=scenario, action=action, expect=expect, same_as=same_as,
    )


def _suspended_violations(spec: Spec, scenario: Scenario, expect: dict[str, dict[str, Any]], same_as: dict[str, str],
                          err: Any) -> None:
    """Refuse a ``violates`` expectation naming an invariant that check mode does not check
    under its ruleset (a rule module in play or a reading taken declares it broken, or the
    prove list of its house ruleset expects it refuted): it could never hold. Reported at
    ``violates``, or at the ``same_as`` that copies it."""
    from palast.formats.house import resolve
    from palast.invariants.declared import checks

    for rs, exp in expect.items():
        if "violates" not in exp:
            continue
        game = Game(resolve(spec, rs, None), rs, scenario.players)
        if exp["violates"] in checks(game).suspended:
            err(["expect", rs, "same_as" if rs in same_as else "violates"],
                f"under {rs} check mode does not check {exp['violates']} (a rule module in play or a reading "
                "declares it broken, or a house ruleset's prove list expects it refuted), so the action "
                "cannot be found to violate it")


def _expectations(doc: Document, spec: Spec, game: Game, err: Any) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Validate ``expect`` beyond its schema and resolve ``same_as``."""
    from palast.formats.notation import format_action, parse_action

    raw = {rs: _written(game, exp) for rs, exp in doc.data["expect"].items()}
    colours = {game.colour_name(s) for s in range(game.n)}
    cards = game.cards
    for rs, exp in raw.items():
        base: list[str | int] = ["expect", rs]
        if rs not in spec.rulesets and rs not in spec.house_rulesets:
            from palast.formats.house import parse_name

            try:  # an unknown ruleset, with the closest name, or a house ruleset BASE+POINT=READING
                parse_name(spec, rs, None)
            except InputError as exc:
                err(base, exc.message)
        if "same_as" in exp:
            other = exp["same_as"]
            if set(exp) - {"same_as", "note"}:
                err(base, "an expectation with same_as holds nothing else but a note")
            if other not in raw or "same_as" in raw.get(other, {}):
                err(base + ["same_as"], f"same_as must name a ruleset of this ruling that states its own result, "
                                        f"not {other!r}")
        for i, kind in enumerate(exp.get("events", [])):
            if kind not in spec.visibility.effects:
                close = difflib.get_close_matches(kind, sorted(spec.visibility.effects), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                err(base + ["events", i],
                    f"unknown event kind {kind!r}{hint} (known: {', '.join(sorted(spec.visibility.effects))})")
        for key in ("player", "next_to_move"):
            if exp.get(key) is not None and exp[key] not in colours:
                err(base + [key], f"{exp[key]!r} is not a seated player ({', '.join(sorted(colours))})")
        for key in ("scores", "hands", "displays"):
            for who in exp.get(key, {}):
                if who not in colours:
                    err(base + [key, who], f"{who!r} is not a seated player")
        for who in exp.get("winners") or []:
            if who not in colours:
                err(base + ["winners"], f"{who!r} is not a seated player")
        for key in ("hands", "displays"):
            for who, items in exp.get(key, {}).items():
                for i, text in enumerate(items):
                    try:
                        cards.parse_card(text)
                    except NotationError as exc:
                        err(base + [key, who, i], exc.message)
        for key in ("legal_actions", "probabilities"):
            seen: dict[str, str] = {}  # each action as palast writes it -> as the ruling writes it
            for i, text in enumerate(doc.data["expect"][rs].get(key) or []):  # as written: read alike, two merge
                where = base + [key, i if key == "legal_actions" else text]
                try:
                    written = format_action(game, parse_action(game, text))
                except NotationError as exc:
                    err(where, exc.message)
                    continue
                if written in seen:
                    err(where, f"{text!r} is the action {seen[written]!r} given before ({written})")
                seen[written] = text
        if "views" in exp:
            view_problems(game, exp["views"], base + ["views"], err)
        if "decision" in exp and exp["decision"] not in spec.flow.decisions:
            err(base + ["decision"], f"unknown decision {exp['decision']!r} (declared: "
                                     f"{', '.join(spec.flow.decisions)})")
        if exp.get("gap") is not None and exp["gap"] not in spec.variation_points:
            err(base + ["gap"], f"unknown variation point {exp['gap']!r}")
        if exp.get("banned") is not None:
            try:
                cards.parse_role(exp["banned"])
            except NotationError as exc:
                err(base + ["banned"], exc.message)
        if "violates" in exp and exp["violates"] not in spec.invariants:
            err(base + ["violates"], f"unknown invariant {exp['violates']!r} (declared: "
                                     f"{', '.join(spec.invariants)}; a lemma is no invariant check mode checks)")
        for key, what in (("illegal", "of an illegal action"), ("violates", "that the action violates an invariant")):
            if not exp.get(key):
                continue
            if set(exp) - {key, "note"}:
                err(base, f"an expectation {what} holds nothing else but a note (found "
                          f"{', '.join(sorted(set(exp) - {key, 'note'}))})")
            if doc.data.get("action") is None:
                err(base + [key], f"{'illegal: true' if key == 'illegal' else key} needs an action")
    resolved: dict[str, dict[str, Any]] = {}
    same_as: dict[str, str] = {}
    for rs, exp in raw.items():
        if "same_as" in exp and exp["same_as"] in raw:
            same_as[rs] = exp["same_as"]
            resolved[rs] = {k: v for k, v in raw[exp["same_as"]].items() if k != "note"}
        else:
            resolved[rs] = {k: v for k, v in exp.items() if k != "note"}
    return resolved, same_as


def _written(game: Game, exp: Any) -> Any:
    """The expectation ``exp`` with each colour, card, role and action as palast writes it,
    for comparing with an outcome as text: names are read in any case (``Red``, ``PLAY
    Maid/Grey``), as everywhere (see :mod:`palast.spec.cards`). A name that cannot be read is
    left as written, to be reported as such."""
    from palast.formats.notation import format_action, parse_action

    if not isinstance(exp, dict):
        return exp
    cards = game.cards

    def colour(text: Any) -> Any:
        return cards.colour_id(text, text) if isinstance(text, str) else text

    def name(read: Any, text: Any) -> Any:
        try:
            return read(text) if isinstance(text, str) else text
        except NotationError:
            return text

    def action(text: Any) -> Any:
        return name(lambda t: format_action(game, parse_action(game, t)), text)

    out = dict(exp)
    for key in ("player", "next_to_move"):
        if key in out:
            out[key] = colour(out[key])
    if isinstance(out.get("winners"), list):
        out["winners"] = [colour(w) for w in out["winners"]]
    if isinstance(out.get("scores"), dict):
        out["scores"] = {colour(k): v for k, v in out["scores"].items()}
    for key in ("hands", "displays"):
        if isinstance(out.get(key), dict):
            out[key] = {colour(k): [name(cards.card_id, c) for c in v] if isinstance(v, list) else v
                        for k, v in out[key].items()}
    if "banned" in out:
        out["banned"] = name(cards.role_id, out["banned"])
    if isinstance(out.get("legal_actions"), list):
        out["legal_actions"] = [action(a) for a in out["legal_actions"]]
    if isinstance(out.get("probabilities"), dict):
        out["probabilities"] = {action(a): p for a, p in out["probabilities"].items()}
    return out


def is_ruling_file(path: str) -> bool:
    """Whether ``path`` names a readable YAML file holding a ruling (a mapping with the keys
    ``scenario`` and ``expect``) rather than a scenario; ``-`` and a file that cannot be read
    as YAML are not (reading the scenario reports those)."""
    if path == "-" or not Path(path).is_file():
        return False
    try:
        data = read_yaml(path).data
    except InputError:
        return False
    return isinstance(data, dict) and "scenario" in data and "expect" in data


def ruling_scenario(path: Path | str, spec: Spec) -> Scenario:
    """The scenario ``palast ask`` answers for the ruling at ``path``: its position, its
    actions and then its action, its title and question, asked under the rulesets it
    states a result for (house rulesets among them are resolved by the caller, as for a
    scenario's ``rulesets``).

    :raises InputError: as :func:`load_ruling` does, for a malformed ruling; the ruling is
        checked against the spec with the house rulesets it names.
    """
    from palast.formats.house import resolve

    data = read_yaml(path).data
    names = [str(r) for r in (data.get("expect") or {}) if isinstance(data.get("expect"), dict)]
    for name in names:
        if name not in spec.rulesets:
            with contextlib.suppress(InputError):  # load_ruling reports it at its place, with the file's other problems
                spec = resolve(spec, name, None)
    ruling = load_ruling(path, spec)
    actions = ruling.scenario.actions
    if ruling.action is not None:
        doc = ruling.scenario.document
        actions = (*actions, (ruling.action, doc.place(["action"]) if doc is not None else "action"))
    return replace(ruling.scenario, rulesets=ruling.rulesets, actions=actions, title=ruling.title,
                   question=ruling.question)


def rulings_naming(spec: Spec, point: str) -> list[str]:
    """The ids of the rulings whose ``variation_points`` name ``point`` (read cheaply,
    without validating the files)."""
    out = []
    folder = rulings_dir(spec)
    for p in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            data = read_yaml(p).data
        except InputError:
            continue
        if isinstance(data, dict) and point in (data.get("variation_points") or []):
            out.append(p.stem)
    return out
