"""``palast replay`` on records that fail: an invariant that check mode finds false
(reported in text and in ``--json`` alike, with the same exit code), and an action of the
wrong kind (the decision due and the action given, in words, at the record's file and line)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game
from palast.engine.state import DecisionKind
from palast.query.replay import Status, replay
from palast.sim.play import Move
from palast.spec.load import Spec

#: The house reading guard-other-card=itself-too on the reference, given without the prove
#: list of the named house ruleset house-guard (which check mode would follow, leaving
#: round-progress out): blue plays its own Guard and takes it back at once, which check
#: mode reports (proofs/witnesses/round-progress.house-guard.yaml plays the same)
GUARD_RECORD: list[dict[str, object]] = [
    {"format": "palast-record", "version": 1, "players": ["blue", "green", "red"],
     "ruleset": "reference+guard-other-card=itself-too", "base": "reference",
     "readings": {"guard-other-card": "itself-too"}},
    {"action": "deal blue:maid/blue,guard/blue,jester/blue,treasurer/green,marshal/red,wizard/grey "
               "green:cupbearer/blue,wizard/green,maid/green,guard/green,treasurer/red,jester/grey "
               "red:treasurer/blue,wizard/red,maid/red,guard/red,jester/red,marshal/grey", "by": "chance"},
    {"action": "play guard/blue", "by": "blue"},
    {"action": "take-back guard/blue", "by": "blue"},
    {"action": "play guard/blue", "by": "blue"},
]


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def _write(tmp_path: Path, lines: list[dict[str, object]], name: str = "r.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return str(path)


def test_a_failed_invariant_is_reported_in_json_too(spec: Spec, tmp_path: Path) -> None:
    """--json prints one document naming the action, the invariant and what is false, and
    exits as the text mode does."""
    path = _write(tmp_path, GUARD_RECORD)
    code_text, out_text, err_text = _cli("replay", path)
    code_json, out_json, err_json = _cli("replay", "--json", path)
    assert code_text == code_json == 1, (out_text, err_text, out_json, err_json)
    assert out_json.strip(), "replay --json printed nothing"
    doc = json.loads(out_json)
    assert doc["status"] == "check-failed" and doc["exit_code"] == 1 and doc["rejection"] is None
    failure = doc["check_failure"]
    assert (failure["index"], failure["line"], failure["action"], failure["by"]) == \
        (3, 4, "take-back guard/blue", "blue")
    assert doc["applied"] == 2  # the two actions before it
    invariant = failure["invariant"]
    assert invariant in spec.invariants and failure["message"]
    assert failure["clauses"] == list(spec.invariants[invariant].clauses)
    # the text mode names the same invariant and action
    assert f"invariant {invariant} violated" in out_text and "after action 3 (line 4)" in out_text
    # as a player saw it: the same status and exit code, the action and the invariant
    code_as, out_as, _ = _cli("replay", "--json", "--as", "red", path)
    seen = json.loads(out_as)
    assert code_as == 1 and seen["status"] == "check-failed"
    assert seen["check_failure"] == {"index": 3, "invariant": invariant}


def test_the_report_of_a_failed_invariant(spec: Spec, tmp_path: Path) -> None:
    from palast.formats.record import read_record

    report = replay(spec, read_record(_write(tmp_path, GUARD_RECORD)))
    assert report.status is Status.CHECK_FAILED and report.status.exit_code == 1
    assert report.check_failure is not None and report.applied == 2
    assert report.state.decision.kind == "take-back"  # the position before the failing action


def test_a_missing_marks_line_is_named_in_words(spec: Spec, tmp_path: Path) -> None:
    """A fan record whose character cards (the ``marks`` line) were deleted: the deal is
    refused with what is due and what the record gives in words, at the file and line."""
    from palast.engine import Game
    from palast.formats.house import resolve
    from palast.formats.record import read_record, record_game, write_record
    from palast.sim.play import play_moves

    fan = resolve(spec, "fan")
    game = Game(fan, "fan", ["red", "blue", "green"])
    record = record_game(game, list(play_moves(game, 3))[:5], seed=3)
    full = tmp_path / "full.jsonl"
    write_record(full, record)
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[1])["action"].startswith("marks ")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(lines[0] + "".join(lines[2:]), encoding="utf-8")
    report = replay(spec, read_record(cut))
    assert report.status is Status.ILLEGAL and report.rejection is not None
    rej = report.rejection
    assert (rej.index, rej.line) == (1, 2) and rej.action.startswith("deal ")
    flow = spec.flow.decisions
    assert rej.reason.startswith(f"{cut}: line 2: the record gives {flow['deal'].what} (a 'deal' action), but "
                                 f"the decision due is {flow['marks'].what} (a 'marks' action, by chance)"), \
        rej.reason
    assert "is a 'marks' line missing before line 2?" in rej.reason
    assert "a marks is due" not in rej.reason
    code, out, _ = _cli("replay", "--json", str(cut))
    assert code == 1 and json.loads(out)["rejection"]["reason"] == rej.reason


def _swap_then_choice(spec: Spec) -> tuple[Game, list[Move], int]:
    """A game under fan, its moves, and the index of a rule module's end-of-turn choice
    that comes right after a Cupbearer's swap (searched in seeded games)."""
    from palast.formats.house import resolve
    from palast.sim.play import play_moves

    fan = resolve(spec, "fan")
    for n in (3, 4, 5):
        game = Game(fan, "fan", list(spec.player_colours[:n]))
        for seed in range(60):
            moves = list(play_moves(game, seed))
            for i in range(1, len(moves)):
                if (moves[i].before.decision.kind == DecisionKind.CHOICE
                        and moves[i - 1].before.decision.kind == "swap"):
                    return game, moves, i
    raise AssertionError("no seeded game under fan has a choice right after a swap")


def test_a_choice_by_the_wrong_player_cites_the_rule_that_waits(spec: Spec, tmp_path: Path) -> None:
    """Right after a Cupbearer's swap, a rule module's choice recorded as another player's
    is refused citing the rule that opened the choice, not the Cupbearer's."""
    from palast.formats.record import read_record, record_game, write_record

    game, moves, i = _swap_then_choice(spec)
    record = record_game(game, moves[:i + 1], seed=0)
    path = tmp_path / "r.jsonl"
    write_record(path, record)
    before = moves[i].before
    chooser = before.decision.player
    other = game.colour_name((chooser + 1) % game.n)
    lines = path.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    assert last["action"].startswith("choose ")
    lines[-1] = json.dumps({**last, "by": other})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = replay(spec, read_record(path))
    assert report.status is Status.ILLEGAL and report.rejection is not None
    waiting = game.runner.resume_of(before.decision, before)
    assert waiting is not None
    assert report.rejection.clauses == game.rule_clauses(waiting.rule) and report.rejection.clauses
    swap_clauses = {c for e in moves[i - 1].step.events for c in e.clauses}
    assert not swap_clauses & set(report.rejection.clauses), report.rejection


def test_a_refusal_of_a_decision_naming_no_rule_cites_the_rule_that_waits(spec: Spec) -> None:
    """A decision that names no statement (a position built outside the engine) is refused
    citing the rule of the position that waits for it."""
    from dataclasses import replace

    from palast.engine import Play
    from palast.errors import IllegalActionError

    game, moves, i = _swap_then_choice(spec)
    for state in (moves[i].before, moves[i - 1].before):
        waiting = game.runner.resume_of(state.decision, state)
        assert waiting is not None
        bare = replace(state, decision=replace(state.decision, rule="", frames=()))
        hand = bare.hands[bare.decision.player]
        try:
            game.apply(bare, Play(hand[0] if hand else 0))
        except IllegalActionError as exc:
            assert exc.clauses == game.rule_clauses(waiting.rule) and exc.clauses, exc
        else:
            raise AssertionError("a play was accepted where a choice or a swap is due")


def test_a_malformed_record_with_json_prints_the_error_document(tmp_path: Path) -> None:
    """``replay --json`` on a malformed record prints one JSON document, the error with its
    file and line (as ``ask --json`` does), and exits 2; it printed nothing."""
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "palast-record", "version": 1, "players": ["blue", "green", "red"], '
                    '"ruleset": "reference"}\n{"by": "nobody", "actionx": "deal"}\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert res.exit_code == 2
    err = json.loads(res.stdout)["error"]
    assert err["file"] == str(path) and err["line"] == 2 and "after the header" in err["message"]


def test_a_tie_break_mismatch_says_what_each_tie_break_means(tmp_path: Path) -> None:
    """A result line naming another tie-break than the replay's is reported with each
    tie-break's id (as records write it) and its words (variation_points.yaml)."""
    src = Path(__file__).resolve().parent.parent / "examples" / "records" / "seed7-reference.jsonl"
    text = src.read_text(encoding="utf-8")
    assert '"tiebreak": "most-played-last-round"' in text
    path = tmp_path / "tb.jsonl"
    path.write_text(text.replace('"tiebreak": "most-played-last-round"', '"tiebreak": "most-displayed"'),
                    encoding="utf-8")
    code, out, _ = _cli("replay", str(path))
    assert code == 1, out
    assert ("tie-break: the record says most-displayed (most cards displayed), the replay gives "
            "most-played-last-round (most cards played in the last round)") in out
