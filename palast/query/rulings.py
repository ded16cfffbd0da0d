"""Rulings: questions about a position with the result each ruleset must give, checked
against the engine.

A ruling is a file ``spec/rulings/<id>.yaml`` (schema ``spec/schema/ruling.schema.json``):

* ``id`` (the file's stem), ``title``, ``question`` (one sentence), ``answer`` (why, in
  prose, citing clause ids), ``clauses`` (the clause ids it rests on) and, optionally,
  ``variation_points`` (the points it shows; a register entry's ``witness`` must be named
  here);
* ``scenario``: a position in the scenario format of DESIGN.md, with optional
  ``actions`` applied first;
* ``action`` (optional): the action whose outcome is asked. Without it the question is
  about the position itself (its decision and legal actions; the events are those of the
  scenario's actions);
* ``expect``: per ruleset, the expected result. A ruleset may say ``same_as: <ruleset>``.
  A key may name a house ruleset by its derived name, ``BASE+POINT=READING`` (see
  :mod:`palast.formats.house`), e.g. ``reference+game-end-tiebreak=most-played-total``;
  :func:`spec_with_house_rulesets` adds those rulesets to a spec.
  Fields (each optional; only those given are checked): ``illegal: true`` (the action is
  not legal), ``decision`` (the kind of decision that follows), ``player`` (who makes
  it), ``forced``, ``legal_actions`` (the exact set, in notation), ``probabilities``
  (chance outcome -> fraction), ``events`` (event kinds, in order), ``round_end``
  (``null``, ``whisper``, ``six``), ``scores`` (colour -> score), ``next_to_move``,
  ``winners``, ``gap`` (the open variation point play stops at, or ``null``),
  ``banned`` (the role banned afterwards), ``hands`` and ``displays`` (colour -> cards, as
  multisets), ``views`` (colour -> what that player learns and what stays hidden from
  them, :mod:`palast.query.ruling_views`), ``note``.

The rulesets a ruling is checked under are the keys of ``expect``. The public API, also
used by the Sphinx rulebook: :func:`load_rulings`, :func:`check_ruling` /
:func:`check_rulings` (each returning :class:`Check` values) and :func:`compute_outcome`.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from palast.engine.events import EVENT_KINDS, Event
from palast.engine.game import Game, InvariantViolation
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, InputError, NotationError, SpecError
from palast.formats.scenario import Scenario, scenario_from_document
from palast.query.event_words import event_words
from palast.query.ruling_views import view_problems, view_values, views_agree
from palast.spec.load import Spec
from palast.spec.schemas import schema_errors
from palast.spec.yamlio import Document, read_yaml

K = DecisionKind

#: The fields an expectation may check, in the order they are reported.
FIELDS: tuple[str, ...] = ("illegal", "decision", "player", "forced", "legal_actions", "probabilities", "events",
                           "round_end", "scores", "next_to_move", "winners", "gap", "banned", "hands", "displays",
                           "views")


@dataclass(frozen=True)
class Ruling:
    """One ruling file, validated.

    :ivar id: the ruling id (the file's stem).
    :ivar file: the file it was read from.
    :ivar title: a short title.
    :ivar question: the question, in one sentence.
    :ivar answer: the answer in prose, with the clauses it rests on.
    :ivar clauses: the clause ids the ruling rests on.
    :ivar variation_points: the variation points the ruling shows.
    :ivar scenario: the position (and actions applied first).
    :ivar action: the action whose outcome is asked, in notation, or ``None``.
    :ivar expect: ruleset -> expected fields, with ``same_as`` already followed.
    :ivar same_as: ruleset -> the ruleset its expectation was copied from (if any).
    """

    id: str
    file: str
    title: str
    question: str
    answer: str
    clauses: tuple[str, ...]
    variation_points: tuple[str, ...]
    scenario: Scenario
    action: str | None
    expect: Mapping[str, Mapping[str, Any]]
    same_as: Mapping[str, str] = field(default_factory=dict)

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The rulesets the ruling states a result for, in file order."""
        return tuple(self.expect)


@dataclass(frozen=True)
class Outcome:
    """What the engine computes for a ruling under one ruleset.

    :ivar ruleset: the ruleset.
    :ivar values: the checkable fields (see :data:`FIELDS`), each as plain data.
    :ivar summary: a one-line description for people.
    :ivar variation_points: the variation points whose readings decided it.
    :ivar error: set when the position could not be reached under this ruleset (an
        illegal scenario action or a broken invariant); ``values`` is then empty.
    """

    ruleset: str
    values: Mapping[str, Any]
    summary: str
    variation_points: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class Difference:
    """One field where the engine's outcome differs from the ruling's expectation."""

    field: str
    expected: Any
    actual: Any

    def text(self) -> str:
        """``"events: expected [...], engine [...]"``."""
        return f"{self.field}: expected {_show(self.expected)}, engine {_show(self.actual)}"


@dataclass(frozen=True)
class Check:
    """A ruling checked under one ruleset.

    :ivar ruling: the ruling.
    :ivar ruleset: the ruleset.
    :ivar outcome: what the engine computed.
    :ivar differences: every field that differs from the expectation (empty: agrees).
    """

    ruling: Ruling
    ruleset: str
    outcome: Outcome
    differences: tuple[Difference, ...]

    @property
    def agrees(self) -> bool:
        """True if the engine gives exactly what the ruling expects under this ruleset."""
        return not self.differences

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ruleset, agrees, expected, outcome, differences, variation points."""
        return {
            "ruleset": self.ruleset,
            "agrees": self.agrees,
            "same_as": self.ruling.same_as.get(self.ruleset),
            "expected": dict(self.ruling.expect[self.ruleset]),
            "outcome": dict(self.outcome.values),
            "summary": self.outcome.summary,
            "error": self.outcome.error,
            "variation_points": list(self.outcome.variation_points),
            "differences": [{"field": d.field, "expected": d.expected, "actual": d.actual, "text": d.text()}
                            for d in self.differences],
        }


# ---------------------------------------------------------------------------------- loading
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
            problems.append(exc.render())
    if problems:
        n = len(problems)
        raise SpecError(f"{n} malformed ruling file{'s' if n != 1 else ''}:\n  - " + "\n  - ".join(problems))
    return out


def load_ruling(path: Path | str, spec: Spec) -> Ruling:
    """Read and validate one ruling file (see the module docstring for the format).

    :returns: the :class:`Ruling`.
    :raises InputError: (a :class:`SpecError` or :class:`~palast.errors.ScenarioError`)
        naming the file, the place and every problem found.
    """
    doc = read_yaml(path)
    if not isinstance(doc.data, dict):
        raise SpecError("a ruling must be a mapping", doc.file, "top level")
    problems = schema_errors(doc, spec.root / "schema", "ruling.schema.json")
    if problems:
        raise SpecError(_join(problems))
    data: dict[str, Any] = doc.data
    scenario = scenario_from_document(doc, spec, base=("scenario",))
    bad: list[str] = []

    def err(where: list[str | int], message: str) -> None:
        bad.append(f"{doc.file}: {doc.place(where)}: {message}")

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
    if bad:
        raise SpecError(_join(bad))
    return Ruling(
        id=data["id"], file=doc.file, title=data["title"], question=data["question"], answer=data["answer"],
        clauses=tuple(data["clauses"]), variation_points=tuple(data.get("variation_points") or ()),
        scenario=scenario, action=action, expect=expect, same_as=same_as,
    )


def _expectations(doc: Document, spec: Spec, game: Game, err: Any) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Validate ``expect`` beyond its schema and resolve ``same_as``."""
    raw = {rs: _written(game, exp) for rs, exp in doc.data["expect"].items()}
    colours = {game.colour_name(s) for s in range(game.n)}
    cards = game.cards
    for rs, exp in raw.items():
        base: list[str | int] = ["expect", rs]
        if rs not in spec.rulesets and rs not in spec.house_rulesets:
            from palast.formats.house import JOIN, parse_name

            if JOIN not in rs:
                err(base, f"unknown ruleset {rs!r} (known: {', '.join(spec.rulesets)}; or a house ruleset "
                          "BASE+POINT=READING)")
            else:
                try:
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
            if kind not in EVENT_KINDS:
                close = difflib.get_close_matches(kind, sorted(EVENT_KINDS), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                err(base + ["events", i],
                    f"unknown event kind {kind!r}{hint} (known: {', '.join(sorted(EVENT_KINDS))})")
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
        if "views" in exp:
            view_problems(game, exp["views"], base + ["views"], err)
        if exp.get("gap") is not None and exp["gap"] not in spec.variation_points:
            err(base + ["gap"], f"unknown variation point {exp['gap']!r}")
        if exp.get("banned") is not None:
            try:
                cards.parse_role(exp["banned"])
            except NotationError as exc:
                err(base + ["banned"], exc.message)
        if exp.get("illegal") and set(exp) - {"illegal", "note"}:
            err(base, "an expectation of an illegal action holds nothing else but a note")
        if exp.get("illegal") and doc.data.get("action") is None:
            err(base + ["illegal"], "illegal: true needs an action")
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


def _join(problems: list[str]) -> str:
    return problems[0] if len(problems) == 1 else f"{len(problems)} problems:\n    " + "\n    ".join(problems)


# ---------------------------------------------------------------------------------- outcomes
def compute_outcome(spec: Spec, ruling: Ruling, ruleset: str) -> Outcome:
    """Run ``ruling`` under ``ruleset`` in the engine (invariants checked after every action).

    The position is built from the scenario and its actions applied; then, if the ruling
    has an ``action``, that action is applied and the outcome is the state and events it
    leads to; otherwise the outcome is the position reached and the events of the
    scenario's actions. If play stops at an open variation point before the action, the
    action is not taken and the outcome is that gap.

    :returns: the :class:`Outcome`; ``values`` holds every field of :data:`FIELDS`
        (``illegal`` True alone when the asked action is illegal). An illegal scenario
        action or a broken invariant is returned as ``error``, not raised.
    """
    from palast.formats.house import resolve
    from palast.formats.notation import format_action, parse_action

    spec = resolve(spec, ruleset, None)  # a house ruleset (BASE+POINT=READING) a ruling names
    game = Game(spec, ruleset, ruling.scenario.players, check=True)
    try:
        state, steps = ruling.scenario.position(game)
    except (InputError, InvariantViolation) as exc:
        return Outcome(ruleset, {}, f"error: {exc}", error=str(exc))
    events: list[Event] = [e for _, st in steps for e in st.events]
    history = list(events)
    if ruling.action is not None and state.decision.kind is not K.GAP:
        try:
            step = game.apply(state, parse_action(game, ruling.action))
        except IllegalActionError as exc:
            return Outcome(ruleset, {"illegal": True}, f"{ruling.action} is illegal: {exc}")
        except InvariantViolation as exc:
            return Outcome(ruleset, {}, f"error: {exc}", error=str(exc))
        state = step.state
        events = list(step.events)
        history.extend(events)
    d = state.decision
    name = game.colour_name
    fc = game.cards.format_card
    legal: list[str] = []
    probabilities: dict[str, str] = {}
    if d.kind in (K.DRAW, K.REVEAL):
        for a, p in game.chance_outcomes(state):
            legal.append(format_action(game, a))
            probabilities[format_action(game, a)] = str(p)
    elif d.kind is not K.DEAL:
        legal = [format_action(game, a) for a in game.legal_actions(state)]
    ended = [e for e in events if e.kind == "round_ended"]
    values: dict[str, Any] = {
        "illegal": False,
        "decision": d.kind.value,
        "player": name(d.player) if d.player >= 0 else None,
        "forced": d.forced,
        "legal_actions": legal,
        "probabilities": probabilities,
        "events": [e.kind for e in events],
        "round_end": ended[0].detail if ended else None,
        "scores": {name(s): v for s, v in enumerate(state.scores)},
        "next_to_move": _next_to_move(game, state),
        "winners": [name(w) for w in state.result.winners] if state.result else None,
        "gap": d.point if d.kind is K.GAP else None,
        "banned": game.cards.roles[state.king_in_force] if state.king_in_force >= 0 else None,
        "hands": {name(s): [fc(c) for c in h] for s, h in enumerate(state.hands)},
        "displays": {name(s): [fc(c) for c in x] for s, x in enumerate(state.displays)},
    }
    if any("views" in exp for exp in ruling.expect.values()):  # only where a ruling asks: views add noise
        values["views"] = view_values(game, state, history, len(history) - len(events))
    points: list[str] = []
    for e in events:
        points.extend(p for p in e.points if p not in points)
    points.extend(p for p in d.points if p not in points)
    return Outcome(ruleset, values, summarize(values), tuple(points))


def _next_to_move(game: Game, state: State) -> str | None:
    d = state.decision
    if d.kind is K.DEAL:
        return game.colour_name(state.actor)
    if d.kind is K.GAP or d.player < 0:
        return None
    return game.colour_name(d.player)


def summarize(values: Mapping[str, Any]) -> str:
    """One line for an outcome's values: illegal, gap, round end, winners or the next decision."""
    if values.get("illegal"):
        return "illegal"
    if values.get("gap"):
        return f"gap: {values['gap']}"
    parts: list[str] = []
    if values.get("round_end"):
        parts.append(f"round ends ({values['round_end']})")
    if values.get("winners"):
        parts.append("winner " + ", ".join(values["winners"]))
    elif values.get("decision") == "deal":
        parts.append(f"next round starts with {values['next_to_move']}")
    else:
        who = f" by {values['player']}" if values.get("player") else ""
        forced = " (forced)" if values.get("forced") else ""
        parts.append(f"{values.get('decision')}{who}{forced}")
        legal = values.get("legal_actions") or []
        if legal and len(legal) <= 4:
            parts.append("legal: " + ", ".join(legal))
        elif legal:
            parts.append(f"{len(legal)} legal actions")
    kinds = [k for k in values.get("events", []) if k not in ("card_played", "next_player")]
    if kinds:
        parts.append("events: " + ", ".join(event_words(k) for k in kinds))
    return "; ".join(parts)


# ---------------------------------------------------------------------------------- checking
def compare(expected: Mapping[str, Any], outcome: Outcome) -> tuple[Difference, ...]:
    """Every field of ``expected`` that ``outcome`` does not match.

    ``legal_actions`` compare as sets; ``hands`` and ``displays`` per listed player as
    multisets; ``scores`` for the listed players; ``probabilities`` as exact fractions;
    ``events`` as sequences; an asked action found illegal differs from every expectation
    but ``illegal``; an outcome that stops at an open variation point differs from an
    expectation that does not state that ``gap``.
    """
    if outcome.error is not None:
        return (Difference("position", "reachable", outcome.error),)
    got = outcome.values
    if got.get("illegal") and not expected.get("illegal"):
        return (Difference("illegal", False, outcome.summary),)
    out: list[Difference] = []
    if got.get("gap") and "gap" not in expected:
        out.append(Difference("gap", "(not stated)", got["gap"]))
    for key in FIELDS:
        if key not in expected:
            continue
        want = expected[key]
        have: Any = got.get(key)
        if key == "legal_actions":
            same = sorted(want) == sorted(have or [])
        elif key in ("hands", "displays"):
            have = {who: have[who] for who in want}
            same = all(Counter(want[who]) == Counter(have[who]) for who in want)
        elif key == "scores":
            have = {who: have[who] for who in want}
            same = want == have
        elif key == "probabilities":
            same = ({a: Fraction(p) for a, p in want.items()} == {a: Fraction(p) for a, p in (have or {}).items()})
        elif key == "views":
            have = {who: {k: (have or {}).get(who, {}).get(k) for k in want[who]} for who in want}
            same = views_agree(want, have)
        elif key == "winners":
            same = (sorted(want) if want else want) == (sorted(have) if have else have)
        else:
            same = want == have
        if not same:
            out.append(Difference(key, want, have))
    return tuple(out)


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
    from palast.formats.house import resolve_all

    data = read_yaml(path).data
    names = [str(r) for r in (data.get("expect") or {}) if isinstance(data.get("expect"), dict)]
    ruling = load_ruling(path, resolve_all(spec, [r for r in names if r not in spec.rulesets]))
    actions = ruling.scenario.actions
    if ruling.action is not None:
        doc = ruling.scenario.document
        actions = (*actions, (ruling.action, doc.place(["action"]) if doc is not None else "action"))
    return replace(ruling.scenario, rulesets=ruling.rulesets, actions=actions, title=ruling.title,
                   question=ruling.question)


def spec_with_house_rulesets(spec: Spec, rulings: Sequence[Ruling]) -> Spec:
    """``spec`` with every house ruleset that ``rulings`` state a result for (the same
    object for the same spec and rulings, :func:`palast.formats.house.resolve_all`)."""
    from palast.formats.house import resolve_all

    return resolve_all(spec, [rs for r in rulings for rs in r.rulesets if rs not in spec.rulesets])


def check_ruling(spec: Spec, ruling: Ruling, rulesets: Sequence[str] | None = None) -> list[Check]:
    """Check ``ruling`` under each ruleset it states a result for (or only ``rulesets``).

    :returns: one :class:`Check` per ruleset, in the ruling's order.
    """
    out = []
    for rs in ruling.rulesets:
        if rulesets is not None and rs not in rulesets:
            continue
        outcome = compute_outcome(spec, ruling, rs)
        out.append(Check(ruling, rs, outcome, compare(ruling.expect[rs], outcome)))
    return out


def check_rulings(spec: Spec, rulings: Sequence[Ruling], rulesets: Sequence[str] | None = None) -> list[Check]:
    """:func:`check_ruling` for every ruling, in order; the result is flat."""
    return [c for r in rulings for c in check_ruling(spec, r, rulesets)]


def outcome_groups(checks: Sequence[Check]) -> list[list[str]]:
    """The rulesets of ``checks`` grouped by equal outcome (every checked field the same),
    groups in the order their first ruleset appears.

    :returns: lists of ruleset ids; one list when every ruleset gives the same outcome.
    """
    import json

    groups: dict[str, list[str]] = {}
    for c in checks:
        groups.setdefault(json.dumps(c.outcome.values, sort_keys=True, default=str), []).append(c.ruleset)
    return list(groups.values())


def points_explaining(spec: Spec, groups: Sequence[Sequence[str]], points: Sequence[str]) -> list[str]:
    """The variation points of ``points`` that can explain why the rulesets of ``groups``
    (rulesets that give the same outcome) differ: those that two rulesets in different
    groups read differently (``open`` counts as a reading of its own). A point every
    ruleset compared reads alike, or that only rulesets of one group read differently,
    explains no difference between the groups.

    :param groups: lists of ruleset ids, as :func:`outcome_groups` returns them.
    :param points: candidate point ids, in the order to keep; unknown ids are dropped.
    :returns: the explaining points, without repeats, in the order of ``points``.
    """
    out: list[str] = []
    for p in dict.fromkeys(points):
        if p not in spec.variation_points:
            continue
        readings = [{spec.reading(rs, p) for rs in g} for g in groups]
        # two groups hold rulesets reading p differently unless both read it one same way
        if any(a != b or len(a) > 1 for i, a in enumerate(readings) for b in readings[i + 1:]):
            out.append(p)
    return out


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


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "null"
    return str(value)
