"""Fuzzing the scenario loader and the record reader (issue 8, point 3).

Hypothesis feeds both readers documents built from scratch and documents made by mutating
the real ones (``examples/*.yaml``, the scenarios inside ``spec/rulings/*.yaml``,
``examples/records/*.jsonl``), both as data (a value replaced, a key dropped or added, a
card or colour swapped for a near miss) and as text (characters deleted, inserted or
replaced, a tab, a line dropped or repeated). Every case must end in one of two ways:

* an :class:`~palast.errors.InputError` (what the CLI turns into exit code 2), or
* a position the loader accepts, which then passes every state invariant of the spec
  (:func:`palast.invariants.check.state_problems`), and ``palast ask`` / ``palast replay``
  answer it (in-process) without any other exception.

Any other exception escaping is a bug. The readers are called in-process for speed; a few
cases also go through ``python -m palast`` to show the CLI gives exit code 0, 1 or 2 and
never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palast.engine.game import Game
from palast.errors import InputError
from palast.formats.record import Record, RecordedAction, format_record, parse_record
from palast.formats.scenario import parse_scenario
from palast.invariants.check import state_problems
from palast.query.ask import ask, play_actions, render_text
from palast.query.replay import Status, replay, report_dict
from palast.query.replay import render_text as render_replay
from palast.spec.load import Spec, load_spec

ROOT = Path(__file__).resolve().parent.parent

#: Examples per fuzz test: this multiple of the loaded profile's ``max_examples`` (``ci``: 200,
#: so the two in-process tests run 2 x 1,200 = 2,400 cases; ``dev``: 1,200; ``nightly``: 60,000).
SHARE = 6


def budget() -> int:
    """Examples for one fuzz test in the loaded profile."""
    return max(50, settings().max_examples * SHARE)


@cache
def the_spec() -> Spec:
    return load_spec()


# ------------------------------------------------------------------------------- seeds
@cache
def scenario_seeds() -> tuple[Any, ...]:
    """Every real scenario as data: the examples and each ruling's scenario."""
    out: list[Any] = []
    for p in sorted((ROOT / "examples").glob("*.yaml")):
        out.append(yaml.safe_load(p.read_text(encoding="utf-8")))
    for p in sorted((ROOT / "spec" / "rulings").glob("*.yaml")):
        out.append(yaml.safe_load(p.read_text(encoding="utf-8"))["scenario"])
    return tuple(out)


@cache
def scenario_seed_texts() -> tuple[str, ...]:
    """The real scenarios as YAML text: the example files as written, each ruling's scenario
    as dumped."""
    files = tuple(p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.yaml")))
    return files + tuple(_dump_yaml(s) for s in scenario_seeds()[len(files):])


@cache
def record_seeds() -> tuple[tuple[Any, ...], ...]:
    """Every example record as a tuple of its lines' JSON objects."""
    out = []
    for p in sorted((ROOT / "examples" / "records").glob("*.jsonl")):
        out.append(tuple(json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x.strip()))
    return tuple(out)


# ------------------------------------------------------------------------------- words
@cache
def words() -> tuple[str, ...]:
    """Words a person (or a typo) might write in a scenario or record."""
    spec = the_spec()
    roles = list(spec.roles) + list(spec.role_aliases) + ["Zofe", "Wächter", "Hofnarr", "maiden", "gard", "jester "]
    colours = list(spec.player_colours) + [spec.neutral_colour, "brown", "Grey", "gray", "pink", "rot", ""]
    cards = [f"{r}/{c}" for r in spec.roles for c in (*spec.player_colours, spec.neutral_colour)]
    cards += ["maid", "maid/", "/red", "maid/red/blue", "maid red", "zofe/braun", "maid/brown"]
    verbs = ["play", "partner", "count", "give", "discard", "swap", "take-back", "next", "deal", "draw", "reveal"]
    actions = ["play maid/red", "count 2", "count -1", "give", "swap red:maid/red red:maid/red", "reveal marshal",
               "deal red:maid/red", "next grey", "partner red", "draw maid/yellow", "take-back guard/red"]
    keys = ["players", "to_move", "hands", "displays", "deck", "discard", "banned", "king_deck", "king_spent",
            "scores", "played", "tally", "round", "rulesets", "actions", "title", "format", "version", "action",
            "by", "result", "winners", "end", "ruleset", "seed"]
    rulesets = list(spec.rulesets) + ["nope", "source-c"]
    return tuple(roles + colours + cards + verbs + actions + keys + rulesets)


#: Hostile snippets: code-running tags, alias bombs, deep nesting, huge numbers, bad tagged values.
PAYLOADS = (
    "!!python/object/apply:os.system ['echo owned']", "!!python/name:os.system", "!!python/object:os.system {}",
    "&a [*a, *a]", "a: &x [1]\nb: [*x, *x, *x]", "&b [&c [1, 1], *c, *c, *c]", "[" * 80 + "]" * 80,
    "{" * 40 + "}" * 40, "9" * 5000, "1e999999", "-0", "NaN", "Infinity", "2024-02-30", "!!int x", "!!bool maybe",
    "!!timestamp 25:00", "!!binary zz", "!!set {a}", "<<: *a", "? [1]\n: 2", "%YAML 1.1\n---", "---\n---",
    "\u2028", "\r\n", "\x85",
)

#: Scalars that mean something in YAML or JSON, as a fixed pool (drawing one is cheap) plus
#: small integers and short free text.
ODD_SCALARS = (None, True, False, -1, 0, 1, 2, 5, 6, 7, 100, 10**30, -(10**30), 2**63, 1.5, -0.0, float("inf"),
               float("nan"), 1e300, "", " ", "\t", "~", "null", "yes", "no", "2024-01-01", "1_000", "0x1f", "&a", "*a",
               *PAYLOADS)
SCALARS = st.one_of(st.sampled_from(ODD_SCALARS), st.integers(-3, 12), st.text(max_size=12))
WORDS = st.deferred(lambda: st.sampled_from(words()))
LEAF = st.one_of(SCALARS, WORDS, WORDS, WORDS)


@st.composite
def _values(draw: st.DrawFn, depth: int = 0) -> Any:
    """A JSON-like value: mostly leaves, sometimes a short list or mapping, at most three
    levels deep (a hand-rolled st.recursive with fewer draws per value)."""
    kind = draw(st.integers(0, 9)) if depth < 3 else 0
    if kind <= 6:
        return draw(LEAF)
    size = draw(st.integers(0, 4))
    if kind <= 8:
        return [draw(_values(depth + 1)) for _ in range(size)]
    return {draw(LEAF): draw(_values(depth + 1)) for _ in range(size)}


VALUE = _values()
MUTATIONS = st.sampled_from(["replace", "replace", "word", "drop", "add", "dup", "number", "swap"])
TEXT_EDITS = st.sampled_from(["delete", "insert", "replace", "tab", "line-drop", "line-dup", "truncate"])
PIECES = st.one_of(st.sampled_from([":", "-", "[", "]", "{", "}", ",", "\n", " ", "'", '"', "#", "&a", "*a", "!!", "\\",
                                    "\x00", "\ufeff", "é"]),
                   WORDS, st.text(max_size=4), st.sampled_from(PAYLOADS))


def _pick(draw: st.DrawFn, items: list[Any]) -> Any:
    """One of ``items`` (an index draw: cheaper than a new ``sampled_from`` every time)."""
    return items[draw(st.integers(0, len(items) - 1))]


# ------------------------------------------------------------------------------- mutations
def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


def _copy(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


@st.composite
def mutated(draw: st.DrawFn, seed: Any) -> Any:
    """``seed`` with one to four data mutations."""
    doc = _copy(seed)
    for _ in range(draw(st.integers(1, 4))):
        path = _pick(draw, _paths(doc))
        kind = draw(MUTATIONS)
        if not path:
            if kind == "replace":
                doc = draw(VALUE)
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        if kind == "replace":
            parent[key] = draw(VALUE)
        elif kind == "word":
            parent[key] = draw(WORDS)
        elif kind == "drop":
            del parent[key]
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(WORDS)] = draw(VALUE)
        elif kind == "add" and isinstance(parent, list):
            parent.insert(key, draw(LEAF))
        elif kind == "dup" and isinstance(parent, list):
            parent.insert(key, _copy(parent[key]))
        elif kind == "number" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += draw(st.integers(-7, 7))
        elif kind == "swap" and isinstance(parent[key], str):
            old: str = parent[key]
            new = draw(WORDS)
            parent[key] = old.replace(_pick(draw, old.split("/")), new, 1) if old else new
    return doc


@st.composite
def text_mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three character- or line-level edits."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(TEXT_EDITS)
        n = len(text)
        i = draw(st.integers(0, n))
        if kind == "delete" and n:
            j = draw(st.integers(i, min(n, i + 8)))
            text = text[:i] + text[j:]
        elif kind in ("insert", "replace"):
            piece = draw(PIECES)
            j = draw(st.integers(i, min(n, i + 4))) if kind == "replace" else i
            text = text[:i] + piece + text[j:]
        elif kind == "tab":
            text = text[:i] + "\t" + text[i:]
        elif kind in ("line-drop", "line-dup"):
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [] if kind == "line-drop" else [lines[k], lines[k]]
            text = "\n".join(lines)
        elif kind == "truncate":
            text = text[:i]
    return text


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dump_yaml(doc: Any) -> str:
    try:
        return yaml.dump(doc, Dumper=_DUMPER, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError):  # e.g. a key Hypothesis made unhashable in YAML terms
        return repr(doc)


def _dump_json_line(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=True, default=str)


def scenario_texts() -> st.SearchStrategy[str]:
    """Scenario YAML: mutated real scenarios (as data, then as text) and random documents."""
    seed = st.deferred(lambda: st.sampled_from(scenario_seeds()))
    as_data = seed.flatmap(mutated).map(_dump_yaml)
    as_text = st.deferred(lambda: st.sampled_from(scenario_seed_texts())).flatmap(text_mutated)
    scratch = st.dictionaries(st.sampled_from(["players", "to_move", "hands", "displays", "deck", "banned", "king_deck",
                                               "king_spent", "scores", "played", "round", "actions", "discard"]),
                              VALUE, max_size=8).map(_dump_yaml)
    return st.one_of(as_data, as_data, as_text, scratch, VALUE.map(_dump_yaml), st.text(max_size=200))


def record_texts() -> st.SearchStrategy[str]:
    """Record JSON Lines: mutated example records (objects, line order, text) and random lines."""
    seed = st.deferred(lambda: st.sampled_from(record_seeds()))

    @st.composite
    def by_objects(draw: st.DrawFn) -> str:
        lines = list(draw(seed))
        cut = draw(st.integers(1, len(lines)))
        lines = lines[:cut] if draw(st.booleans()) else lines
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(lines) - 1))
            kind = draw(st.sampled_from(["mutate", "mutate", "action-text", "drop", "dup", "move"]))
            if kind == "mutate":
                lines[i] = draw(mutated(lines[i]))
            elif kind == "action-text" and isinstance(lines[i], dict) and isinstance(lines[i].get("action"), str):
                lines[i] = dict(lines[i], action=draw(text_mutated(lines[i]["action"])))
            elif kind == "drop" and len(lines) > 1:
                del lines[i]
            elif kind == "dup":
                lines.insert(i, _copy(lines[i]))
            elif kind == "move":
                lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
        return "\n".join(_dump_json_line(x) for x in lines) + "\n"

    texts = st.deferred(lambda: st.sampled_from(tuple(p.read_text(encoding="utf-8") for p in
                                                      sorted((ROOT / "examples" / "records").glob("*.jsonl")))))
    as_text = texts.flatmap(text_mutated)
    header = st.fixed_dictionaries({"format": st.just("palast-record"), "version": st.just(1),
                                    "players": st.lists(WORDS, max_size=6)},
                                   optional={"ruleset": LEAF, "seed": LEAF})
    scratch = st.tuples(header, st.lists(st.one_of(
        st.fixed_dictionaries({"action": st.one_of(WORDS, st.text(max_size=20))}, optional={"by": LEAF}),
        st.fixed_dictionaries({"result": VALUE}), VALUE), max_size=6)).map(
        lambda t: "\n".join(_dump_json_line(x) for x in (t[0], *t[1])))
    return st.one_of(by_objects(), by_objects(), as_text, scratch, st.text(max_size=200))


# ------------------------------------------------------------------------------- oracles
def check_scenario(text: str) -> str:
    """Load ``text`` as a scenario and answer it; return ``"rejected"`` or ``"accepted"``.

    :raises AssertionError: if a position the loader accepts breaks a state invariant.
    Any exception other than :class:`InputError` propagates (a bug).
    """
    spec = the_spec()
    try:
        sc = parse_scenario(text, spec, "fuzz.yaml")
    except InputError:
        return "rejected"
    try:
        answer = ask(spec, sc)  # rejects actions illegal under every ruleset, not under one
    except InputError:
        return "rejected"
    for rs in sc.rulesets:
        game: Game = sc.game(spec, rs, check=True)
        state = play_actions(game, sc).state
        assert not state_problems(game, state), state_problems(game, state)
    render_text(answer)
    return "accepted"


def check_record(text: str) -> str:
    """Read ``text`` as a record and replay it; return ``"rejected"`` or the replay status.

    :raises AssertionError: if a replayed position breaks a state invariant.
    """
    spec = the_spec()
    try:
        rec = parse_record(text, "fuzz.jsonl")
        report = replay(spec, rec)
    except InputError:
        return "rejected"
    assert not state_problems(report.game, report.state), state_problems(report.game, report.state)
    render_replay(spec, report, verbose=True)
    json.dumps(report_dict(spec, report))
    return report.status.value


# ------------------------------------------------------------------------------- tests
FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                   HealthCheck.filter_too_much])


def _run(strategy: st.SearchStrategy[str], oracle: Any) -> dict[str, int]:
    seen: dict[str, int] = {}

    @settings(max_examples=budget(), **FUZZ)  # type: ignore[arg-type]
    @given(strategy)
    def one(text: str) -> None:
        out = oracle(text)
        seen[out] = seen.get(out, 0) + 1

    one()
    return seen


def test_scenario_loader_fuzz() -> None:
    """Mutated and random scenarios: an InputError or a position that keeps every invariant."""
    seen = _run(scenario_texts(), check_scenario)
    print(f"scenario fuzz: {sum(seen.values())} cases, {seen}")
    assert sum(seen.values()) >= budget()


def test_record_reader_fuzz() -> None:
    """Mutated and random records: an InputError or a replay that keeps every invariant."""
    seen = _run(record_texts(), check_record)
    print(f"record fuzz: {sum(seen.values())} cases, {seen}")
    assert sum(seen.values()) >= budget()


@settings(max_examples=4, **FUZZ)  # type: ignore[arg-type]
@given(scenario=scenario_texts(), record=record_texts())
def test_cli_agrees_with_the_readers(scenario: str, record: str) -> None:
    """A few fuzzed files through ``python -m palast``: exit 2 exactly when the reader
    rejects the file in-process, otherwise the exit code of the answer; never a traceback."""
    cases = (("ask", ".yaml", scenario, {"rejected": 2, "accepted": 0}),
             ("replay", ".jsonl", record, {"rejected": 2, **{s.value: s.exit_code for s in Status}}))
    for command, suffix, raw, codes in cases:
        text = raw.encode("utf-8", "replace").decode("utf-8")  # a file holds UTF-8; lone surrogates cannot be written
        expected = codes[check_scenario(text) if command == "ask" else check_record(text)]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"fuzz{suffix}"
            path.write_bytes(text.encode("utf-8"))
            r = subprocess.run([sys.executable, "-m", "palast", command, str(path)], capture_output=True, text=True,
                               cwd=ROOT, timeout=60)
        assert "Traceback" not in r.stdout + r.stderr, r.stderr
        assert r.returncode == expected, (command, text, r.stderr)
        if expected == 2:
            assert r.stderr.startswith("palast: error: ") and str(path) in r.stderr, r.stderr


@settings(max_examples=max(50, settings().max_examples), **FUZZ)  # type: ignore[arg-type]
@given(note=st.text(), by=st.one_of(st.none(), st.text(min_size=1)), action=st.text(min_size=1))
def test_record_text_round_trip(note: str, by: str | None, action: str) -> None:
    """Any text in a record's notes, ``by`` and action survives format_record/parse_record,
    including characters that other tools treat as line breaks (U+2028, U+0085, a lone CR)."""
    rec = Record(players=("red", "blue", "green"), note=note,
                 actions=(RecordedAction(action.strip() or "x", by, note=note),))
    back = parse_record(format_record(rec))
    assert back.note == note
    assert [(a.text, a.by, a.note) for a in back.actions] == [(a.text, a.by, a.note) for a in rec.actions]
