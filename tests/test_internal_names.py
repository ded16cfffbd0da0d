"""Internal names never reach a reader: the text that ask, explain, play and replay print, and
the spec text they show (ruleset descriptions, variation points), holds no event kind
(``action_void``), no class name (``RuleGap``) and no other Python identifier of palast's.

``--json`` keeps the event kinds: they are data, not text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from palast.cli import main
from palast.spec.load import Spec, cached_spec

ROOT = Path(__file__).resolve().parent.parent


def _identifiers() -> set[str]:
    """Every class name of palast/ and proofs/ written in CamelCase with two humps or more
    (``RuleGap``, ``TakeBack``: a one-word class such as ``Game`` is an English word), and
    every snake_case function, class or constant name with an underscore that is not also a
    word pair a sentence could hold."""
    names: set[str] = set()
    for folder in ("palast", "proofs"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and re.fullmatch(r"_?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+", node.name):
                    names.add(node.name.lstrip("_"))
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and "_" in node.name.strip("_"):
                    names.add(node.name.strip("_"))
    return names | DESIGN_NAMES


#: Names of the design document for things the code calls otherwise.
DESIGN_NAMES = {"RuleGap"}

IDENTIFIERS = _identifiers()
#: every event kind: spec/visibility.yaml declares each
EVENT_KINDS = frozenset(cached_spec().visibility.effects)
FORBIDDEN = re.compile(r"\b(" + "|".join(sorted(map(re.escape, EVENT_KINDS | IDENTIFIERS), key=len, reverse=True))
                       + r")\b")


def internal_names(text: str) -> list[str]:
    """The internal names ``text`` holds, each once."""
    return sorted(set(FORBIDDEN.findall(text)))


def test_the_scan_finds_what_it_looks_for() -> None:
    assert internal_names("action_void rule_gap RuleGap InvariantViolation explain_point") == [
        "InvariantViolation", "RuleGap", "action_void", "explain_point", "rule_gap"]
    assert internal_names("events: action_void; a RuleGap") == ["RuleGap", "action_void"]
    assert internal_names("red plays guard/red; the round ends (whisper); next: blue") == []


def test_no_event_is_named_by_an_internal_name() -> None:
    """The words spec/visibility.yaml gives events (for one-line summaries) name no event kind."""
    effects = cached_spec().visibility.effects.values()
    assert internal_names(" ".join(e.words for e in effects)) == []


def cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), prog_name="palast")
    return r.exit_code, r.output


def scenario_files() -> Iterator[Path]:
    yield from sorted((ROOT / "examples").glob("*.yaml"))
    yield from sorted((ROOT / "spec" / "rulings").glob("*.yaml"))


def as_scenario(path: Path, tmp_path: Path) -> Path:
    """An example as it is; a ruling as the scenario it asks about, its action applied,
    under the rulesets it states results for (a module's ruling gives character cards,
    which only its module's rulesets deal)."""
    if path.parent.name != "rulings":
        return path
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    scenario = {**data["scenario"], "rulesets": list(data["expect"])}
    if data.get("action"):
        scenario["actions"] = [*scenario.get("actions", []), data["action"]]
    out = tmp_path / path.name
    out.write_text(yaml.safe_dump(scenario, sort_keys=False), encoding="utf-8")
    return out


@pytest.mark.parametrize("path", list(scenario_files()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_ask_text_holds_no_internal_name(path: Path, tmp_path: Path) -> None:
    code, out = cli("ask", str(as_scenario(path, tmp_path)))
    # an illegal asked action is exit 2 today (issue 16 makes it an answer, exit 1)
    assert code in (0, 1) or (code == 2 and "is illegal under" in out), out  # an answer, not a complaint about the file
    assert internal_names(out) == [], [line for line in out.splitlines() if internal_names(line)]


def test_explain_text_holds_no_internal_name(spec: Spec) -> None:
    for point in spec.variation_points:
        code, out = cli("explain", point)
        assert code == 0, out
        assert internal_names(out) == [], (point, [line for line in out.splitlines() if internal_names(line)])
    code, out = cli("explain", "--list")
    assert code == 0 and internal_names(out) == []


def test_play_and_replay_text_hold_no_internal_name(tmp_path: Path, spec: Spec) -> None:
    for ruleset in spec.rulesets:
        for seed in (0, 1):
            record = tmp_path / f"{ruleset}-{seed}.jsonl"
            code, out = cli("play", "-n", "3", "-s", str(seed), "-r", ruleset, "--record", str(record))
            assert code == 0, out
            assert internal_names(out) == [], [line for line in out.splitlines() if internal_names(line)]
            code, out = cli("replay", str(record))
            assert code == 0, out
            assert internal_names(out) == [], [line for line in out.splitlines() if internal_names(line)]


def test_spec_text_shown_to_readers_holds_no_internal_name(spec: Spec) -> None:
    for raw in spec.documents["rulesets.yaml"].data["rulesets"]:
        assert internal_names(f"{raw['title']} {raw['description']}") == [], raw["id"]
    for vp in spec.variation_points.values():
        shown = [vp.topic, vp.reason, str(vp.note or ""), *(r.statement for r in vp.readings),
                 *(str(s["says"]) for s in vp.sides.values()), *(t for _, t in vp.third_party)]
        assert internal_names(" ".join(shown)) == [], vp.id
