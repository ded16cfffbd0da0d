"""Game records: write/read round trips, replay confirms played games, rejects a tampered
action at its index, reports gaps and result mismatches, accepts hand-written records
with explicit deals and draws, and reports malformed files with exit code 2."""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.engine import Game, Play
from palast.engine.state import DecisionKind
from palast.formats.notation import format_action, parse_action
from palast.formats.record import (
    Record,
    RecordedAction,
    RecordError,
    parse_record,
    read_record,
    record_game,
    write_record,
)
from palast.query.replay import Status, replay
from palast.sim.play import play_game, play_moves
from palast.spec.load import Spec
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
        assert (report.gap is None) == (final.decision.kind == DecisionKind.GAME_OVER)


def _illegal_play(game: Game, rec: Record, spec: Spec, rng: random.Random) -> tuple[int, Record]:
    """Replace a random play by a play of a card the player does not hold."""
    state = game.initial_state()
    plays = []
    for i, ra in enumerate(rec.actions):
        if state.decision.kind == DecisionKind.PLAY:
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
    state = game.initial_state()
    actions: list[RecordedAction] = []
    draws: list[int] = []
    for move in play_moves(game, 8, deck_order=False):
        if move.before.round > 2:
            break
        if move.before.decision.kind == "draw":
            draws.append(len(actions))
        actions.append(RecordedAction(format_action(game, move.action)))
        state = move.step.state
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
     "line 2, column 18: not valid JSON"),
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


# ---------------------------------------------------------------------- example records are current
REGENERATE = "python examples/records/regenerate.py"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_example_replays_without_spec_note(spec: Spec, path: Path) -> None:
    """A clean checkout replays every shipped record without the "written with spec" note;
    a spec change makes this fail until the examples are written again."""
    report = replay(spec, read_record(path))
    stale = [n for n in report.notes if "written with spec" in n]
    assert not stale, f"{path.name}: {stale[0]}; run `{REGENERATE}` (hand-written records: update their " \
                      "\"spec\" header or leave it out)"


def test_examples_are_what_regenerate_writes(spec: Spec) -> None:
    """The records written by `palast play` are exactly what the regeneration script writes
    from their seeds, so the command in the message above brings them up to date."""
    from palast.formats.record import format_record
    from palast.formats.record_examples import EXAMPLES as GENERATED
    from palast.formats.record_examples import example_record

    listed = {e.file for e in GENERATED}
    for path in EXAMPLES.glob("*.jsonl"):
        assert path.name in listed or read_record(path).written_by is None, \
            f"{path.name} was written by a program but is not listed in palast/formats/record_examples.py"
    for example in GENERATED:
        text = (EXAMPLES / example.file).read_text(encoding="utf-8")
        assert text == format_record(example_record(spec, example)), \
            f"{example.file} is out of date; run `{REGENERATE}`"


# ---------------------------------------------------------------------- gaps and exit codes
def _gap_record(spec: Spec) -> Record:
    """The first seeded 3-player source-b game that stops at a gap, as `palast play --record` writes it."""
    game = make_game(spec, "source-b", 3, check=False)
    for seed in range(200):
        rec = played_record(game, seed)
        if rec.result is not None and rec.result.end == "gap":
            return rec
    raise AssertionError("no source-b game of 200 seeds reaches a gap")


def test_gap_exit_rule(spec: Spec) -> None:
    """A gap the result line states is confirmed (exit 0); a gap it does not state is
    reported (exit 1): no result line, a result line claiming a game end, or actions after it."""
    rec = _gap_record(spec)
    assert rec.result is not None and rec.result.gap
    stated = replay(spec, rec)
    assert stated.status is Status.CONFIRMED and stated.status.exit_code == 0 and stated.gap == rec.result.gap
    silent = replay(spec, replace(rec, result=None))
    assert silent.status is Status.GAP and silent.status.exit_code == 1 and silent.gap == rec.result.gap
    claims_end = replay(spec, replace(rec, result=replace(rec.result, end="game-over", gap=None)))
    assert claims_end.status is Status.GAP and claims_end.status.exit_code == 1
    assert any("end: the record says game-over" in m for m in claims_end.mismatches)
    other = next(p for p in spec.variation_points if p != rec.result.gap)
    wrong_gap = replay(spec, replace(rec, result=replace(rec.result, gap=other)))
    assert wrong_gap.status is Status.MISMATCH and wrong_gap.status.exit_code == 1
    with pytest.raises(RecordError, match="is not a variation point of the spec"):  # bad input: exit 2
        replay(spec, replace(rec, result=replace(rec.result, gap="not-" + rec.result.gap)))
    beyond = replace(rec, actions=(*rec.actions, rec.actions[-1]))
    after = replay(spec, beyond)
    assert after.status is Status.GAP and after.status.exit_code == 1 and after.applied == len(rec.actions)


def test_cli_gap_exit_codes_and_help(spec: Spec, tmp_path: Path) -> None:
    rec = _gap_record(spec)
    path = tmp_path / "gap.jsonl"
    write_record(path, rec)
    code, out, _ = _cli("replay", str(path))
    assert code == 0 and "as the record says" in out
    write_record(path, replace(rec, result=None))
    code, out, _ = _cli("replay", str(path))
    assert code == 1 and out.count("gap: after action") == 1 and "no result line" in out
    code, out, _ = _cli("replay", "--help")
    flat = " ".join(out.split())
    assert code == 0 and 'is confirmed when its result line says so ("end": "gap")' in flat
    assert "a gap the result line does not state" in flat
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert 'is confirmed when its result line says so (`"end": "gap"`' in readme
    assert "a gap the result line does not state" in readme


# ---------------------------------------------------------------------- messages
def _one_state_per_kind(spec: Spec) -> dict[DecisionKind, tuple[Game, Any]]:
    """For every decision kind that waits for an action, a game and a position at it,
    from seeded games whose deals leave the draw deck's order unknown (so draws are decisions)."""
    from palast.formats.house import resolve_all
    from proofs.modules import ruleset_of

    found: dict[str, tuple[Game, Any]] = {}
    # the decisions some rule of the spec waits for (a rule module's too)
    rulesets = ["reference", *(r for m in spec.modules.values() if (r := ruleset_of(spec, m)))]
    spec = resolve_all(spec, rulesets)
    wanted = set(make_game(spec, "reference", 3, check=False).runner.waits)
    assert wanted >= {DecisionKind.PLAY, DecisionKind.DEAL, "swap"}
    for ruleset in rulesets:
        for n in PLAYER_COUNTS:
            game = make_game(spec, ruleset, n, check=False)
            for seed in range(60):
                for move in play_moves(game, seed, deck_order=False):
                    found.setdefault(move.before.decision.kind, (game, move.before))
                if wanted <= set(found):
                    return found
    raise AssertionError(f"no seeded game reached {sorted(wanted - set(found))}")


def test_chance_and_the_deck_drawn_from_are_as_declared(spec: Spec) -> None:
    """At every decision the engine reaches, the decision is a chance one exactly where the
    spec declares it ``by: chance``, and a chance draw names the deck its ``draw``
    statement draws from (the Maid's from the draw deck, the Marshal's King card from the
    King deck); no other decision draws."""
    decks = {"draw": "draw_deck", "reveal": "king_deck"}
    for kind, (game, state) in _one_state_per_kind(spec).items():
        declared = game.spec.flow.decisions[kind]
        assert state.decision.is_chance == (declared.by == "chance"), kind
        assert game.drawn_from(state) == decks.get(kind), kind
    assert set(decks) <= set(_one_state_per_kind(spec))


def test_action_of_the_wrong_kind_says_what_is_due(spec: Spec) -> None:
    """At every decision, an action of another kind is refused with the action that is due
    and the clause ids of the rule behind the decision (not the other action's rule)."""
    from palast.engine.actions import Deal, NextPlayer, Pick
    from palast.errors import IllegalActionError

    for kind, (game, state) in _one_state_per_kind(spec).items():
        due = game.spec.flow.decisions[kind].verb
        resume = game.runner.resume_of(state.decision, state)
        assert resume is not None, kind
        rule = resume.rule  # the rule whose statements opened the decision
        hand = next(h for h in state.hands if h) if any(state.hands) else (0,)
        wrong = {"play": Play(hand[0]), "draw": Pick("draw", hand[0]), "partner": Pick("partner", 0),
                 "count": Pick("count", 1), "reveal": Pick("reveal", 0), "next": NextPlayer(0),
                 "deal": Deal(((0,),)), "take-back": Pick("take-back", hand[0])}
        for verb, action in wrong.items():
            if verb == due:
                continue
            with pytest.raises(IllegalActionError) as info:
                game.apply(state, action)
            msg = info.value.message
            assert msg.startswith(f"a {due!r} action is due, not a {verb!r} action: "), (kind, msg)
            assert info.value.clauses == game.spec.rule_clauses(rule, game.ruleset) and info.value.clauses, \
                (kind, msg)


def test_replay_names_the_draw_that_is_due(spec: Spec, tmp_path: Path) -> None:
    rec = read_record(EXAMPLES / "hand-written-round.jsonl")
    i = next(k for k, a in enumerate(rec.actions) if a.text.startswith("draw "))
    bad = replace(rec, actions=(*rec.actions[:i], RecordedAction("play jester/red")))
    report = replay(spec, bad)
    assert report.status is Status.ILLEGAL and report.rejection is not None
    # in words: what the record gives and the decision due (their 'what' in spec/flow.yaml)
    reason = report.rejection.reason
    due, given = spec.flow.decisions["draw"].what, spec.flow.decisions["play"].what
    assert reason.startswith(f"{rec.file}: the record gives {given} (a 'play' action), "
                             f"but the decision due is {due} (a 'draw' action, by chance, for red)"), reason
    assert "cannot be drawn" not in report.rejection.reason
    assert report.rejection.clauses == spec.rule_clauses("role.maid", "reference")


def _reseated(rec: Record, players: tuple[str, ...], *, by: bool) -> Record:
    actions = rec.actions if by else tuple(replace(a, by=None) for a in rec.actions)
    return replace(rec, players=players, actions=actions)


@pytest.mark.parametrize("by", [True, False])
def test_wrong_seat_order_cites_the_starter_clauses(spec: Spec, by: bool) -> None:
    """A header whose seat order lets another player start: the rejection cites who starts
    (setup.first-player), not the deal."""
    rec = read_record(EXAMPLES / "hand-written-round.jsonl")
    report = replay(spec, _reseated(rec, ("blue", "red", "green"), by=by))
    assert report.status is Status.ILLEGAL and report.rejection is not None
    assert report.rejection.index == 2
    starter = spec.rule_clauses("setup.first-player", "reference")
    deal = set(spec.rule_clauses("round.deal", "reference")) | set(spec.rule_clauses("setup.deck", "reference"))
    assert set(starter) <= set(report.rejection.clauses)
    assert not deal & set(report.rejection.clauses)
    assert "blue" in report.rejection.reason and "the header seats blue, red, green" in report.rejection.reason


def test_header_only_record_is_not_round_0(tmp_path: Path) -> None:
    path = tmp_path / "header.jsonl"
    path.write_text('{"format": "palast-record", "version": 1, "players": ["red", "blue", "green"]}\n')
    code, out, _ = _cli("replay", str(path))
    assert code == 0 and "round 0" not in out and "no action" in out
