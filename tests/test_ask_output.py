"""What ``palast ask`` prints, and the README's account of it: the grouped text (issue 16,
point 1: what the rulesets agree on said once, clauses that differ named by ruleset, lines
wrapped, ``--full`` the old layout, every example fitting a screen), the events of applied
actions and the label of the position answered; the help points to the README, which names
every field of the ``--json`` document and shows what ``palast ask`` prints."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.formats.scenario import load_scenario, parse_scenario
from palast.query.ask import ask, render_text
from palast.spec.load import Spec
from tests.ask_scenarios import EXAMPLES, README, ROOT, readme_scenario, readme_scenarios, with_actions


# ---------------------------------------------------------------- the grouped text (issue 16, point 1)
def _flat(text: str) -> str:
    return " ".join(text.split())


def test_what_the_rulesets_agree_on_is_said_once(spec: Spec) -> None:
    """cupbearer-third-turn: the five plays the rulesets agree on are printed once (the old
    layout printed each under every ruleset); the Cupbearer, which differs, is shown by
    group of rulesets that answer alike, with the points that explain it."""
    a = ask(spec, load_scenario(EXAMPLES / "cupbearer-third-turn.yaml", spec))
    full, grouped = render_text(a, full=True), render_text(a, width=100)
    for play in ("play guard/blue", "play wizard/red", "play maid/red", "play jester/red", "play treasurer/grey"):
        assert full.count(f"   {play}\n") == 3
        assert len(re.findall(rf"^   {re.escape(play)}  \[", grouped, re.M)) == 1, play
    assert "-- every ruleset (source-a, source-b, reference): red must play a card" in grouped
    i = grouped.index("-- where they differ, by ruleset")
    rest = _flat(grouped[i:])
    assert "play cupbearer/red [A.play.turn, B.turn.play] [cupbearer-scope, cupbearer-actor-duplicate]:" in rest
    assert "source-a and reference: => next: red (swap)" in rest
    assert "source-b: the cupbearer does nothing: no swap is allowed" in rest


def test_clauses_that_differ_are_named_by_ruleset(spec: Spec) -> None:
    """source-b and the reference name the same winner by the same tie-break, each citing
    its own clauses: one group, the clauses by ruleset."""
    text = _flat(render_text(ask(spec, load_scenario(EXAMPLES / "game-end-tie.yaml", spec)), width=100))
    assert ("source-b and reference: the game ends: red wins (tie-break: most cards played in the last round) "
            "[source-b: B.gameend.winner, B.gameend.tally; reference: A.gameend.winner") in text


def test_where_they_differ_names_a_variation_point_once(spec: Spec) -> None:
    """game-end-tie: the heading of the plays that end the game names game-end-tiebreak; the
    outcome under it does not say "(variation point: game-end-tiebreak)" again. The --json
    document, for other tools, keeps the point on the event."""
    a = ask(spec, load_scenario(EXAMPLES / "game-end-tie.yaml", spec))
    text = render_text(a, width=100)
    below = text[text.index("-- where they differ, by ruleset"):]
    assert "play wizard/green, play maid/green [game-end-tiebreak]:" in below
    assert "(variation point: game-end-tiebreak)" not in below
    assert "(variation point: game-end-tiebreak)" not in render_text(a, width=1000).split("where they differ")[1]
    ended = [e for o in a["rulesets"]["source-a"]["outcomes"] if o["action"] == "play maid/green"
             for e in o["events"] if e["kind"] == "game_ended"]
    assert [e["variation_points"] for e in ended] == [["game-end-tiebreak"]]


def test_where_they_differ_keeps_a_point_the_heading_does_not_name(spec: Spec) -> None:
    """cupbearer-duplicate-for-actor: the Guard played after the swap is headed by the
    Cupbearer's points; its take-back, which rests on guard-other-card, which the heading
    does not name, still says so."""
    from palast.query.ruling_files import ruling_scenario

    sc = ruling_scenario(str(ROOT / "spec" / "rulings" / "cupbearer-duplicate-for-actor.yaml"), spec)
    lines = render_text(ask(spec, sc), width=1000).split("-- where they differ")[1].splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("   play guard/green"))
    assert lines[head].endswith("[cupbearer-scope, cupbearer-actor-duplicate]:")
    under = lines[head + 1:next(i for i in range(head + 1, len(lines)) if not lines[i].startswith("      "))]
    assert any("(variation point: guard-other-card)" in x for x in under), under
    assert not any("(variation point: cupbearer" in x for x in under), under


def test_lines_are_wrapped_with_indented_continuations(spec: Spec) -> None:
    """No line is wider than asked unless it is one word (a long card list) or the position
    in one line (never wrapped, so it can be copied); a continuation line is indented deeper
    than the line it continues."""
    from palast.query.ask_render import ONE_LINE, wrap

    a = ask(spec, load_scenario(EXAMPLES / "cupbearer-third-turn.yaml", spec))
    for width in (60, 100):
        lines = render_text(a, width=width).splitlines()
        assert all(len(x) <= width or " " not in x.strip() or x.strip().startswith(ONE_LINE) for x in lines), width
        assert sum(x.strip().startswith(ONE_LINE) for x in lines) == 1
    assert wrap(["   - " + "word " * 30], 40)[1].startswith("       ")
    assert max(map(len, render_text(a, full=True).splitlines())) > 200, "--full is not wrapped"


def test_full_is_the_old_layout(spec: Spec) -> None:
    """--full prints every ruleset in full, as before: a section per ruleset, each legal
    action with its events, and the one-line disagreements."""
    r = CliRunner().invoke(main, ["ask", "--full", str(EXAMPLES / "cupbearer-third-turn.yaml")])
    assert r.exit_code == 0
    for ruleset in ("source-a", "source-b", "reference"):
        assert f"-- ruleset {ruleset}: red must play a card" in r.output
    assert r.output.count("      - red plays guard/blue  [") == 3
    assert "   * play cupbearer/red: source-a and reference: next: red (swap); may then choose" in r.output


#: How many columns and lines an example's answer must fit: "about 40 lines" on a 120-column
#: terminal. The longest, marshal-empty-king-deck, takes 41 (its position in one line, never
#: wrapped, is one of them); at 100 columns it takes 46.
SCREEN = (120, 41)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_example_fits_a_screen(spec: Spec, path: Path) -> None:
    width, height = SCREEN
    a = ask(spec, load_scenario(path, spec))
    lines = render_text(a, width=width).splitlines()
    assert len(lines) <= height, f"{path.name}: {len(lines)} lines"
    assert len(render_text(a, full=True).splitlines()) > len(lines) or len(a["rulesets"]) == 1


# ---------------------------------------------------------------- finding 5: events of applied actions
def test_text_shows_the_events_of_applied_actions(spec: Spec) -> None:
    sc = with_actions(spec, EXAMPLES / "sixth-card-played.yaml", ["play marshal/grey", "reveal maid"])
    lines = render_text(ask(spec, sc, ["source-a"]), full=True).splitlines()
    i = lines.index("   (applied) reveal maid")
    assert "reveals the King card of the maid" in lines[i + 1]
    assert re.search(r"\[A\.[a-z.-]+", lines[i + 1]), lines[i + 1]
    j = lines.index("   (applied) play marshal/grey")
    assert lines[j + 1].startswith("      - red plays marshal/grey  [")


# ---------------------------------------------------------------- the position answered
def test_the_position_label_says_how_many_actions_applied(spec: Spec) -> None:
    """A scenario whose only action stops under every ruleset (red has no card to play)
    shows the position as given, not "after the scenario's 1 action"."""
    text = ("players: [red, blue, green]\nto_move: red\nhands:\n  blue: [maid/blue]\ndeck: 17\n"
            "actions: [play maid/red]\n")
    out = render_text(ask(spec, parse_scenario(text, spec, "stop.yaml")), width=200)
    assert "the position as given (the scenario's 1 action applied under no ruleset):" in out
    assert "after the scenario's 1 action" not in out
    two = text.replace("actions: [play maid/red]", "to_move: blue\nactions: [play maid/blue, play maid/red]")
    two = two.replace("to_move: red\n", "", 1)
    out = render_text(ask(spec, parse_scenario(two, spec, "stop.yaml")), width=200)
    assert "the position after the first 1 of the scenario's 2 actions:" in out


# ---------------------------------------------------------------- finding 10 and the README
def test_help_points_to_the_readme_not_design_md() -> None:
    r = CliRunner().invoke(main, ["ask", "--help"])
    assert r.exit_code == 0
    assert "DESIGN.md" not in r.output and "README" in r.output


def test_readme_documents_the_json_fields(spec: Spec) -> None:
    """Every key of the ``--json`` document (top level, answer, decision, outcome, event,
    applied action, stopped_at, disagreement, error) is named in the README's section on
    ``palast ask``."""
    from palast.errors import InputError
    from palast.query.ask import error_document

    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Reading `palast ask`"):text.index("### Rulesets")]
    answers = [ask(spec, parse_scenario(readme_scenario(), spec, "README.md")),
               ask(spec, with_actions(spec, EXAMPLES / "sixth-card-played.yaml", ["play marshal/grey", "reveal maid"])),
               ask(spec, with_actions(spec, EXAMPLES / "game-end-tie.yaml", ["play wizard/green"])),
               ask(spec, load_scenario(EXAMPLES / "marshal-empty-king-deck.yaml", spec))]
    keys: set[str] = set()
    for a in answers:
        keys |= set(a)
        for d in a["disagreements"]:
            keys |= set(d)
        for res in a["rulesets"].values():
            keys |= set(res) | set(res["decision"]) | set(res["stopped_at"] or {})
            for o in res["outcomes"]:
                keys |= set(o)
                for e in o["events"]:
                    keys |= set(e)
            for h in res["history"]:
                keys |= set(h)
    keys |= set(error_document(InputError("x", "f.yaml", "line 1, column 1"))["error"])
    assert {"stopped_at", "winners", "tiebreak", "history", "probability", "note", "not_legal",
            "readings_consulted", "line", "column"} <= keys
    missing = sorted(k for k in keys if f"`{k}`" not in section)
    assert not missing, f"JSON fields the README does not name: {missing}"


def _shown_outputs() -> list[tuple[str, list[str]]]:
    """The README's shown ``palast ask`` output blocks: (the command's argument, lines)."""
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```\n(\$ palast ask .*?)^```", text, re.S | re.M):
        first, *rest = block.splitlines()
        out.append((first.removeprefix("$ palast ask ").strip(), rest))
    return out


def test_readme_shows_what_palast_ask_prints(tmp_path: Path) -> None:
    """Every line of a shown output (but the `...` elisions; a line ending in `...` is a
    prefix) appears, in order, in what `palast ask` prints."""
    shown = _shown_outputs()
    saved = readme_scenarios()
    assert "first-question.yaml" in saved, "the README's walk-through scenario is missing"
    assert "first-question.yaml" in [arg.split()[-1] for arg, _ in shown], "the walk-through's answer is not shown"
    assert len(shown) >= 3
    for name, body in saved.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    for arg, lines in shown:
        if arg.startswith("'"):  # a position in one line, quoted
            options, name = [], arg
        else:
            *options, name = arg.split()
        path = tmp_path / name if name in saved else name.strip("'") if name.startswith("'") else ROOT / name
        r = CliRunner().invoke(main, ["ask", *options, str(path)], env={"COLUMNS": "100"})  # shown in 100 columns
        assert r.exit_code == 0, r.output
        printed = r.output.splitlines()
        at = 0
        for want in lines:
            if want.strip() == "...":
                continue
            prefix = want.endswith("...")
            stem = want[:-3] if prefix else want
            while at < len(printed) and not (printed[at].startswith(stem) if prefix else printed[at] == want):
                at += 1
            assert at < len(printed), f"README line not printed by `palast ask {arg}` (in order): {want!r}"
            at += 1


# ---------------------------------------------------------------- a round's end, as the events say it
def _swap_that_whispers(spec: Spec) -> tuple[Any, Any]:
    """The game (source B) and the step of ruling cupbearer-whisper-by-swap: red's swap
    leaves red two Cupbearers, which ends the round as red's whisper."""
    from palast.formats.notation import parse_action
    from palast.query.ruling_files import ruling_scenario

    sc = ruling_scenario(ROOT / "spec" / "rulings" / "cupbearer-whisper-by-swap.yaml", spec)
    game = sc.game(spec, "source-b")
    state = sc.start(game)
    *before, (last, _) = sc.actions  # the ruling's action comes last
    assert last.startswith("swap ")
    for text, _where in before:
        state = game.apply(state, parse_action(game, text)).state
    return game, game.apply(state, parse_action(game, last))


def test_a_round_ended_by_a_rule_cites_it_and_the_round_end_rule(spec: Spec) -> None:
    """A Cupbearer's swap that repeats a role in the actor's display ends the round
    (source B): the round_ended event names the rule that ended it (role.cupbearer) and
    cites its clauses and those of the round-end rule it ended the round by
    (round.end.whisper), which points_scored cites."""
    _, step = _swap_that_whispers(spec)
    ended = next(e for e in step.events if e.kind == "round_ended")
    assert ended.rule == "role.cupbearer"
    assert set(spec.rule_clauses("role.cupbearer", "source-b")) <= set(ended.clauses)
    assert set(spec.rule_clauses("round.end.whisper", "source-b")) <= set(ended.clauses)
    scored = next(e for e in step.events if e.kind == "points_scored")
    assert scored.rule == "round.end.whisper" and scored.count == 1


def test_the_points_scored_are_the_declared_points(tmp_path: Path) -> None:
    """The points a round end gives are its rule's declared ``points``: edited to 2, the
    event carries 2, the scorers' scores rise by 2, and the words say "2 points"."""
    from palast.query.describe import describe_event
    from palast.spec.load import load_spec
    from tests.spec_copy import edited_spec

    edited = load_spec(edited_spec(tmp_path, "rules.yaml", "      scorers: others(actor)\n      points: 1\n",
                                   "      scorers: others(actor)\n      points: 2\n"))
    game, step = _swap_that_whispers(edited)
    scored = next(e for e in step.events if e.kind == "points_scored")
    assert scored.count == 2 and step.state.scores == (0, 2, 2)
    assert describe_event(game, scored).endswith("score 2 points")
