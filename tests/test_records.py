"""Game records: write/read round trips, replay confirms played games, rejects a tampered
action at its index, reports gaps and result mismatches, accepts hand-written records
with explicit deals and draws, and reports malformed files with exit code 2."""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game, Play
from palast.engine.state import DecisionKind
from palast.notation import format_action, parse_action
from palast.play import play_game, play_moves, uniform_policy
from palast.record import Record, RecordedAction, parse_record, read_record, record_game, write_record
from palast.replay import Status, replay
from palast.spec import Spec
from tests.conftest import PLAYER_COUNTS, RULESETS, make_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "records"


def played_record(game: Game, seed: int) -> Record:
    return record_game(game, play_moves(game, seed), seed=seed, policy="uniform", written_by="test")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_record_round_trip(spec: Spec, tmp_path: Path, ruleset: str, n: int) -> None:
    """write, read, replay: the same record and the same final state as the game played."""
    game = make_game(spec, ruleset, n, check=False)
    for seed in (3, 11):
        rec = played_record(game, seed)
        path = tmp_path / f"{ruleset}-{n}-{seed}.jsonl"
        write_record(path, rec)
        back = read_record(path)
        assert replace(back, actions=tuple(replace(a, line=0) for a in back.actions),
                       result=replace(back.result, line=0) if back.result else None) == rec
        report = replay(spec, back)
        final = play_game(game, seed)
        assert report.state == final
        assert report.status is Status.CONFIRMED
        assert report.applied == len(rec.actions)
        assert (report.gap is None) == (final.decision.kind is DecisionKind.GAME_OVER)


def _illegal_play(game: Game, rec: Record, spec: Spec, rng: random.Random) -> tuple[int, Record]:
    """Replace a random play by a play of a card the player does not hold."""
    state = game.initial_state()
    plays = []
    for i, ra in enumerate(rec.actions):
        if state.decision.kind is DecisionKind.PLAY:
            plays.append((i, state))
        state = game.apply(state, parse_action(game, ra.text)).state
    i, before = plays[int(rng.random() * len(plays))]
    p = before.decision.player
    other = next(c for s, h in enumerate(before.hands) if s != p for c in h if c not in before.hands[p])
    bad = RecordedAction(format_action(game, Play(other)), rec.actions[i].by)
    return i, replace(rec, actions=rec.actions[:i] + (bad,) + rec.actions[i + 1:])


def test_tampered_action_is_rejected_at_its_index(spec: Spec) -> None:
    rng = random.Random(5)
    for ruleset in RULESETS:
        game = make_game(spec, ruleset, 4, check=False)
        rec = played_record(game, 21)
        for _ in range(3):
            i, bad = _illegal_play(game, rec, spec, rng)
            report = replay(spec, bad)
            assert report.status is Status.ILLEGAL
            assert report.rejection is not None
            assert report.rejection.index == i + 1
            assert report.rejection.action == bad.actions[i].text
            assert report.rejection.clauses  # the rule it breaks, with clause ids
            assert report.applied == i
            assert report.status.exit_code == 1


def test_wrong_player_is_rejected(spec: Spec) -> None:
    game = make_game(spec, "reference", 3, check=False)
    rec = played_record(game, 2)
    i = next(k for k, a in enumerate(rec.actions) if a.by not in (None, "chance"))
    other = next(c for c in rec.players if c != rec.actions[i].by)
    bad = replace(rec, actions=rec.actions[:i] + (replace(rec.actions[i], by=other),) + rec.actions[i + 1:])
    report = replay(spec, bad)
    assert report.status is Status.ILLEGAL and report.rejection is not None
    assert report.rejection.index == i + 1
    assert other in report.rejection.reason


def test_result_mismatch(spec: Spec) -> None:
    game = make_game(spec, "reference", 4, check=False)
    rec = played_record(game, 4)
    assert rec.result is not None and rec.result.scores is not None
    scores = dict(rec.result.scores)
    scores[rec.players[0]] += 1
    report = replay(spec, replace(rec, result=replace(rec.result, scores=scores)))
    assert report.status is Status.MISMATCH
    assert any("scores" in m for m in report.mismatches)
    # a record cut short but keeping its result line does not match either
    short = replace(rec, actions=rec.actions[:-1])
    assert replay(spec, short).status is Status.MISMATCH
    # without the result line it is legal so far
    assert replay(spec, replace(short, result=None)).status is Status.UNFINISHED


def test_hand_written_record_with_explicit_draws(spec: Spec) -> None:
    """A deal without the deck order: every draw must be written as a `draw` line."""
    game = Game(spec, "reference", ["red", "blue", "green"], check=False)
    rng = random.Random(8)
    state = game.initial_state()
    actions: list[RecordedAction] = []
    draws: list[int] = []
    while not state.is_terminal and state.round <= 2:
        d = state.decision
        if d.kind is DecisionKind.DEAL:
            a = game.sample_chance(state, rng, deck_order=False)
        elif d.is_chance:
            a = game.sample_chance(state, rng)
        else:
            a = uniform_policy(game, state, game.legal_actions(state), rng)
        if d.kind is DecisionKind.DRAW:
            draws.append(len(actions))
        actions.append(RecordedAction(format_action(game, a)))
        state = game.apply(state, a).state
    assert draws, "the seed should include a Maid's draw"
    rec = Record(players=("red", "blue", "green"), actions=tuple(actions), ruleset="reference")
    report = replay(spec, parse_record(json.dumps({"format": "palast-record", "version": 1,
                                                  "players": ["red", "blue", "green"]}) + "\n"
                                       + "\n".join(json.dumps({"action": a.text}) for a in actions)))
    assert report.status in (Status.UNFINISHED, Status.CONFIRMED)
    assert report.state == state
    # leave a draw out: the next line is rejected, naming the draw that is due
    k = draws[0]
    missing = replace(rec, actions=rec.actions[:k] + rec.actions[k + 1:])
    bad = replay(spec, missing)
    assert bad.status is Status.ILLEGAL and bad.rejection is not None
    assert bad.rejection.index == k + 1
    assert "draw" in bad.rejection.reason


def test_examples_replay_as_documented(spec: Spec) -> None:
    r = replay(spec, read_record(EXAMPLES / "seed7-reference.jsonl"))
    assert r.status is Status.CONFIRMED and r.state.result is not None
    r = replay(spec, read_record(EXAMPLES / "hand-written-round.jsonl"))
    assert r.status is Status.UNFINISHED and r.state.round_end is not None
    r = replay(spec, read_record(EXAMPLES / "illegal-banned-jester.jsonl"))
    assert r.status is Status.ILLEGAL and r.rejection is not None
    assert r.rejection.index == 9 and "A.king.jester" in r.rejection.clauses
    r = replay(spec, read_record(EXAMPLES / "source-b-jester-gap.jsonl"))
    assert r.status is Status.GAP and r.gap == "banned-jester-forced"
    r = replay(spec, read_record(EXAMPLES / "source-b-jester-gap.jsonl"), "reference")
    assert r.status is Status.UNFINISHED and r.state.decision.forced, "the reference reads it as a forced whisper"


def test_write_is_atomic(spec: Spec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game(spec, "reference", 3, check=False)
    path = tmp_path / "game.jsonl"
    path.write_text("old\n")

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_record(path, played_record(game, 1))
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_cli_play_record_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    code, out, _ = _cli("play", "--players", "3", "--seed", "5", "-q", "--record", str(path))
    assert code == 0 and "record written" in out
    code, out, _ = _cli("replay", str(path), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["status"] == "confirmed" and doc["applied"] == doc["actions"]
    code, out, _ = _cli("replay", str(EXAMPLES / "illegal-banned-jester.jsonl"))
    assert code == 1 and "illegal: action 9 (line 10)" in out and "A.king.jester" in out


@pytest.mark.parametrize(("lines", "expected"), [
    (['{"format": "palast-record", "version": 1, "players": ["red", "blue", "green"]}', '{"action": "play"'],
     "line 2: not valid JSON"),
    (['{"action": "play maid/red"}'], "line 1: the first line must be the header"),
    (['{"format": "palast-record", "version": 1, "players": ["red", "blue", "green"]}',
      '{"action": "play maid/red", "who": "red"}'], "line 2: action"),
    (['{"format": "palast-record", "version": 1, "players": ["red", "blue", "green"], "ruleset": "nope"}'],
     "line 1: header: unknown ruleset"),
    (['{"format": "palast-record", "version": 1, "players": ["red", "blue", "green"]}',
      '{"action": "deal red:maid/pink"}'], "line 2: action 1"),
    (['{"format": "palast-record", "version": 1, "players": ["red", "blue", "green"]}',
      '{"result": {}}', '{"action": "play maid/red"}'], "line 3: nothing may follow the result line"),
])
def test_malformed_record_exits_2(tmp_path: Path, lines: list[str], expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = _cli("replay", str(path))
    assert code == 2
    assert f"{path}: {expected}" in err
    assert "Traceback" not in err + out
