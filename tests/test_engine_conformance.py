"""The engine's machinery against the spec: the decisions and events it takes for granted
(:mod:`palast.engine.conformance`) are checked against spec/ by every game and by
``palast spec check``."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from palast.engine import Game, conformance
from palast.errors import SpecError
from palast.spec.load import load_spec
from tests.spec_copy import ROOT, edited_spec


def _renamed_take_back(tmp_path: Path, verb: str = "take-back") -> Path:
    """A copy of spec/ in which the Guard's decision is called take-back-card throughout,
    and its action's verb is ``verb``: a change of spec/ alone."""
    dst = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", dst)
    for name in ("roles.yaml", "visibility.yaml"):
        f = dst / name
        text = f.read_text(encoding="utf-8")
        new = (text.replace("decision: take-back,", "decision: take-back-card,")
               .replace("verb: take-back,", f"verb: {verb},")
               .replace("choose: take-back\n", "choose: take-back-card\n")
               .replace("decision: take-back\n", "decision: take-back-card\n"))
        assert new != text
        f.write_text(new, encoding="utf-8")
    f = dst / "invariants.yaml"  # the invariants name the decision too, and a witness's sketch
    f.write_text(f.read_text(encoding="utf-8").replace("take_back", "take_back_card")
                 .replace(" take-back,", " take-back-card,"), encoding="utf-8")
    for f in (dst / "rulings").glob("*.yaml"):  # the rulings name both
        f.write_text(f.read_text(encoding="utf-8").replace("decision: take-back\n", "decision: take-back-card\n")
                     .replace("take-back ", f"{verb} "), encoding="utf-8")
    return dst


def test_a_role_s_decision_renamed_in_the_spec_alone_is_run_by_the_engine(tmp_path: Path) -> None:
    """The decisions of the roles' actions are the spec's: the Guard's decision renamed, and
    its verb, in spec/ alone, the engine waits for the new decision, offers the Guard's
    take-backs as actions of the new verb, reads them back and carries them out; no
    decision the engine names is missing."""
    from palast.formats.notation import format_action, parse_action
    from palast.query.ruling_files import load_rulings

    spec = load_spec(_renamed_take_back(tmp_path, "reclaim"))  # the spec's own checks pass
    assert conformance.problems(spec) == []
    ruling = next(r for r in load_rulings(spec) if r.id == "guard-must-take-back")
    game = Game(spec, "reference", ruling.scenario.players)
    state, _ = ruling.scenario.position(game)
    state = game.apply(state, parse_action(game, "play guard/red")).state
    assert state.decision.kind == "take-back-card"
    words = [format_action(game, a) for a in game.legal_actions(state)]
    assert words and all(w.startswith("reclaim ") for w in words), words
    for w in words:
        assert format_action(game, parse_action(game, w)) == w
        after = game.apply(state, parse_action(game, w))
        assert any(e.kind == "card_taken_back" for e in after.events), after.events
    assert sorted(words) == ["reclaim maid/red", "reclaim wizard/red"]
    run = subprocess.run([sys.executable, "-m", "palast", "--spec", str(tmp_path / "spec"), "rulings"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and " 0 disagree" in run.stdout, run.stdout + run.stderr


def test_a_decision_the_engine_names_left_undeclared_is_refused(tmp_path: Path) -> None:
    """The turn's own decisions (DecisionKind) must be declared: next-player renamed is
    refused by the conformance check, at spec check and when a game is built."""
    dst = edited_spec(tmp_path, "flow.yaml", "  - decision: next-player\n", "  - decision: next-mover\n")
    renamed = {"flow.yaml": [("next-player", "next-mover")],
               "rules.yaml": [("choose: next-player", "choose: next-mover")],
               "visibility.yaml": [("decision: next-player", "decision: next-mover")],
               "invariants.yaml": [("== next_player", "== next_mover"), ("!= next_player", "!= next_mover")]}
    for name, pairs in renamed.items():
        f = dst / name
        text = f.read_text(encoding="utf-8")
        for old, new in pairs:
            text = text.replace(old, new)
        f.write_text(text, encoding="utf-8")
    spec = load_spec(dst)
    found = conformance.problems(spec)
    assert any("the decision 'next-player' is declared nowhere" in p for p in found), found
    with pytest.raises(SpecError, match="next-player"):
        Game(spec, "reference", ["red", "blue", "green"])
    run = subprocess.run([sys.executable, "-m", "palast", "--spec", str(dst), "spec", "check"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the decision 'next-player' is declared nowhere" in run.stderr
    assert "Traceback" not in run.stderr


def test_an_event_of_the_engine_left_undeclared_is_refused(tmp_path: Path) -> None:
    line = ("  - event: rule_gap\n    clauses: [A.play.turn, B.turn.play]\n"
            '    words: "play stops at an open variation point"\n'
            '    text: "play stops: the ruleset leaves variation point {detail} open"\n')
    dst = edited_spec(tmp_path, "visibility.yaml", line, "")
    found = conformance.problems(load_spec(dst))
    assert found and all("visibility.yaml: line" in p for p in found), found
    assert any("event rule_gap is not declared" in p for p in found), found


def test_the_spec_fits_the_engine() -> None:
    assert conformance.problems(load_spec()) == []


def test_every_event_the_engine_emits_itself_is_listed() -> None:
    """An event kind written in the engine's source is one of ENGINE_EVENTS (which the
    conformance check holds to spec/visibility.yaml); the others come from statements."""
    engine = Path(conformance.__file__).parent
    emitted: set[str] = set()
    for path in engine.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        emitted |= set(re.findall(r"emit\(\s*\w+,\s*\"(\w+)\"", text))
        emitted |= set(re.findall(r"Event\(\s*\"(\w+)\"", text))
    assert emitted, "the scan found no event: it no longer matches how the engine emits"
    assert emitted <= conformance.ENGINE_EVENTS, emitted - conformance.ENGINE_EVENTS


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    answer: seat\n    verb: next\n    what: which of the players tied for fewest cards moves next\n"
     '    says: "{player} must name who plays next among {options} (the players tied after a neutral card)"\n'
     "    statement: After a tie for fewest cards, the player who played names who moves next.\n"
     "    rules: [turn.next.neutral-tie]\n    then: [play]\n",
     "    what: which of the players tied for fewest cards moves next\n"
     "    statement: After a tie for fewest cards, the player who played names who moves next.\n"
     "    rules: [turn.next.neutral-tie]\n    terminal: true\n",
     "the engine takes decision 'next-player' as not terminal"),
])
def test_a_decision_of_another_sort_than_the_engine_takes_is_refused(tmp_path: Path, old: str, new: str,
                                                                      message: str) -> None:
    try:
        spec = load_spec(edited_spec(tmp_path, "flow.yaml", old, new))
    except SpecError as exc:  # the spec's own checks may refuse it first; then this is not the case meant
        raise AssertionError(f"the edit is refused before the engine sees it: {exc}") from exc
    found = conformance.problems(spec)
    assert any(message in p and "flow.yaml: line" in p for p in found), found


def test_a_verb_of_a_turn_decision_shared_by_a_role_s_is_refused(tmp_path: Path) -> None:
    """The Guard's take-back given the verb play (and the play's answer, card): the spec's
    own checks allow two decisions of one answer to share a verb, but the play's action
    has a type of its own, so the engine could not tell the two actions apart."""
    dst = edited_spec(tmp_path, "roles.yaml", "answer: card, verb: take-back,", "answer: card, verb: play,")
    found = conformance.problems(load_spec(dst))
    assert any("roles.yaml: line" in p and "(roles[4].choices[0].verb): the verb 'play' belongs to decision 'play'" in p
               for p in found), found


@pytest.mark.parametrize(("first", "second", "message"), [
    ("hands", "displays", "reads hand from the engine's field(s) hands, which [displays] does not declare"),
    ("discard", "king_spent", "reads discard_pile from the engine's field(s) discard, which [king_spent]"),
    ("scores", "tally", "reads score from the engine's field(s) scores, which [tally] does not declare"),
    ("round_end", "result", "the engine's machinery keeps the round-end in round_end, not in result"),
])
def test_fields_of_the_same_shape_swapped_are_refused(tmp_path: Path, first: str, second: str, message: str) -> None:
    """Two zones, counters or parts of the machine whose fields are swapped in spec/state.yaml
    (each field of the shape the other needs, so the shape check passes) are refused: the
    rule language's primitives and the machinery read those fields by name (a swap of hands
    and displays made ask and rulings end in a traceback)."""
    dst = edited_spec(tmp_path, "state.yaml", f"fields: [{first}]", "fields: [SWAPPED]")
    f = dst / "state.yaml"
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace(f"fields: [{second}]", f"fields: [{first}]").replace("fields: [SWAPPED]",
                                                                                   f"fields: [{second}]"),
                 encoding="utf-8")
    found = conformance.problems(load_spec(dst))
    assert any(message in p and "state.yaml: line" in p for p in found), found
    with pytest.raises(SpecError, match=r"state\.yaml"):
        Game(load_spec(dst), "reference", ["red", "blue", "green"])


def test_a_settable_counter_in_another_field_is_refused(tmp_path: Path) -> None:
    """played and tally swapped: statements set played in the field played, and spec check
    says so at the counter's fields (it said statements 'do not set played', then listed
    played among what they set)."""
    dst = edited_spec(tmp_path, "state.yaml", "fields: [played]", "fields: [SWAPPED]")
    f = dst / "state.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("fields: [tally]", "fields: [played]")
                 .replace("fields: [SWAPPED]", "fields: [tally]"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"counters\[1\]\.fields\): statements set played in the engine's field "
                                        r"played, not in tally"):
        load_spec(dst)
