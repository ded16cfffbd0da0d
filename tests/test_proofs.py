"""The proof machinery of ``proofs/``: counterexamples replay in the engine, ``unknown``
fails, the Z3 transition agrees with the engine, stored witnesses replay, and a few quick
obligations. The whole run is ``palast prove`` (a CI step of its own)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import z3
from click.testing import CliRunner

from palast.cli import main
from palast.engine.state import DecisionKind
from palast.formats.scenario import load_scenario
from palast.spec.load import Spec, load_spec
from proofs.differential import Differ, random_positions
from proofs.encoding import ZState
from proofs.invariant import make_game, prove_invariant, role_with_action
from proofs.obligation import Obligation, Options, Outcome, Unknown, check, refuted, solver
from proofs.reachability import witness_questions
from proofs.runner import all_obligations, run, run_one
from proofs.witness import verify, witness_file

K = DecisionKind


def _no_guard_displayed(s: ZState) -> z3.BoolRef:
    """A deliberately false invariant: no display ever holds a Guard."""
    guard = role_with_action(s.lay, "take-back")
    return z3.And([s.role_in(z, guard) == 0 for z in s.lay.disp])


def test_false_invariant_gives_counterexample_the_engine_replays(spec: Spec, tmp_path: Path) -> None:
    out = prove_invariant(spec, "reference", _no_guard_displayed, counts=(3,), name="no-guard", out_dir=tmp_path)
    assert out.result == "counterexample", out.detail
    file = tmp_path / "no-guard.reference.yaml"
    assert out.files and Path(out.files[0]).name == file.name
    sc = load_scenario(file, spec)
    game = sc.game(spec, "reference")
    final, steps = sc.position(game)
    guard = role_with_action_engine(game)
    assert steps, "the counterexample has at least one action"
    assert any(game.cards.role_of(c) == guard for d in final.displays for c in d)
    assert not any(game.cards.role_of(c) == guard for d in sc.start(game).displays for c in d)


def test_a_counterexample_too_large_to_read_back_is_not_written(spec: Spec, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario larger than palast reads (MAX_BYTES; a spec edited to thousands of cards
    gave 7.6 MB) is not written: the error says so, where the engine's refusal to read it
    back was reported as a position the engine refuses."""
    import proofs.search

    monkeypatch.setattr(proofs.search, "MAX_BYTES", 200)
    out = prove_invariant(spec, "reference", _no_guard_displayed, counts=(3,), name="no-guard", out_dir=tmp_path)
    assert out.result == "error", out.detail
    assert re.search(r"the scenario no-guard\.reference\.yaml would have \d+ bytes, more than the 200 palast reads; "
                     r"not written", out.detail), out.detail
    assert not list(tmp_path.iterdir())
    # a scenario of MAX_BYTES (in UTF-8) is read back, one byte more is not
    with pytest.raises(proofs.search.ScenarioTooLarge, match="would have 202 bytes"):
        proofs.search.write_scenario("é" * 101, "w", tmp_path)
    assert not list(tmp_path.iterdir())
    assert proofs.search.write_scenario("é" * 100, "w", tmp_path).stat().st_size == 200


@pytest.mark.parametrize("older", ["junk", "witness"])
def test_an_error_names_the_stored_counterexample_it_leaves_in_place(spec: Spec, tmp_path: Path, older: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a stored counterexample is not kept and the new one cannot be written, the
    stored file stays as it was and the error says so, and why it was not kept: a file that
    does not load as a scenario, or a game that loads but does not show the failure. The
    player count is said once, with the failing step."""
    import proofs.search

    stale = tmp_path / "no-guard.reference.yaml"
    if older == "junk":
        text, why = "title: an older counterexample\n", r"does not load \(.+\)"
    else:
        q = next(q for q in witness_questions(spec) if q.name == "banned-jesters-only")
        text, why = witness_file(q).read_text(encoding="utf-8"), "does not show the failure"
    stale.write_text(text, encoding="utf-8")
    monkeypatch.setattr(proofs.search, "MAX_BYTES", 200)
    out = prove_invariant(spec, "reference", _no_guard_displayed, counts=(3,), name="no-guard", out_dir=tmp_path)
    assert out.result == "error", out.detail
    assert re.match(r"3 players: a [a-z-]+ action breaks it; Z3's path ", out.detail), out.detail
    assert out.detail.count("3 players") == 1, out.detail
    assert "has not replayed it; the stored " in out.detail, out.detail
    assert re.search(rf"no-guard\.reference\.yaml {why} and is left as it was$", out.detail), out.detail
    assert out.detail.count(str(stale)) == 1, out.detail  # not again in the loader's message
    assert stale.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == [stale.name]


def test_a_counterexample_the_engine_replays_otherwise_is_not_written(spec: Spec, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the engine replays Z3's path to another position than Z3 predicts, the error
    says so, nothing is written, and a stored file stays as it was (it was replaced before
    the comparison)."""
    import proofs.search

    stale = tmp_path / "no-guard.reference.yaml"
    stale.write_text("junk: 1\n", encoding="utf-8")
    real = proofs.search.reload

    def at_the_start(path: Path, spec: Spec, ruleset: str) -> tuple[object, object, list[object]]:
        game, _, steps = real(path, spec, ruleset)
        return game, load_scenario(path, spec).start(game), steps  # as if no action had been played

    monkeypatch.setattr(proofs.search, "reload", at_the_start)
    out = prove_invariant(spec, "reference", _no_guard_displayed, counts=(3,), name="no-guard", out_dir=tmp_path)
    assert out.result == "error" and not out.files, out
    assert re.match(r"3 players: a [a-z-]+ action breaks it; the engine replays Z3's counterexample to another "
                    r"position than Z3 predicts \(fields of the encoding, engine and Z3: \{.+\}; no scenario "
                    r"written\); the stored .+no-guard\.reference\.yaml does not load \(.+\) and is left as it "
                    r"was$", out.detail), out.detail
    assert stale.read_text(encoding="utf-8") == "junk: 1\n"
    assert [p.name for p in tmp_path.iterdir()] == [stale.name]


def test_a_witness_too_large_to_read_back_is_not_written(spec: Spec, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A witness Z3 finds whose scenario palast could not read back is not written: the
    search ends in an error naming the file."""
    import proofs.search
    from proofs.witness import search

    monkeypatch.setattr(proofs.search, "MAX_BYTES", 200)
    q = next(q for q in witness_questions(spec) if q.file_stem == "guard-void")
    out = search(spec, q, tmp_path)
    assert out.result == "error", out.detail
    assert re.search(r"found by Z3 \(\d+ actions\), but the scenario guard-void\.yaml would have \d+ bytes, more "
                     r"than the 200 palast reads", out.detail), out.detail
    assert not list(tmp_path.iterdir())


def role_with_action_engine(game: object) -> int:
    return list(game.action_kind).index("take-back")  # type: ignore[attr-defined]


def test_true_invariant_is_proved(spec: Spec) -> None:
    banned = prove_invariant(spec, "source-b", lambda s: s["banned"] != role_with_action(s.lay, "reveal-king"),
                             counts=(3,))
    assert banned.result == "proved", banned.detail


def test_unknown_fails(spec: Spec) -> None:
    xs = z3.Ints(" ".join(f"x{i}" for i in range(40)))
    hard = z3.And(z3.Distinct(xs), *[z3.And(x >= 0, x < 39) for x in xs])  # pigeonhole: slow to refute
    with pytest.raises(Unknown):
        sv = solver(timeout_ms=1)
        sv.add(hard)
        check(sv)

    def undecided(spec: Spec, opts: Options) -> Outcome:
        sv = solver(timeout_ms=1)
        sv.add(hard)
        check(sv)
        return Outcome("proved")

    line = run_one(spec, Obligation("undecided", "reference", "proved", "cannot be decided in time", undecided),
                   Options())
    assert line.result == "unknown" and not line.passed


def test_a_check_that_spends_its_step_budget_is_unknown_whatever_the_time() -> None:
    """The step budget (``rlimit``) ends a check, not the clock: with a timeout of ten
    minutes and a budget of a few thousand steps the pigeonhole problem ends unknown at once,
    and the same problem with the project's budget is refuted (so the budget is what ended
    the first check)."""
    from proofs.obligation import RLIMIT, eliminating_solver

    xs = z3.Ints(" ".join(f"x{i}" for i in range(7)))
    hard = z3.And(z3.Distinct(xs), *[z3.And(x >= 0, x < 6) for x in xs])
    for make in (solver, eliminating_solver):
        sv = make(timeout_ms=600_000, rlimit=5_000)
        sv.add(hard)
        with pytest.raises(Unknown):
            check(sv)
        sv = make(timeout_ms=600_000, rlimit=RLIMIT)
        sv.add(hard)
        assert check(sv) is False


def test_failed_assumption_fails_dependents(spec: Spec) -> None:
    def fails(spec: Spec, opts: Options) -> Outcome:
        return Outcome("counterexample", "made up")

    def holds(spec: Spec, opts: Options) -> Outcome:
        return Outcome("proved")

    obs = [Obligation("base", "reference", "proved", "x", fails), Obligation("top", "reference", "proved", "y", holds,
                                                                            needs=("base",))]
    lines = run(spec, obs, Options(), jobs=1)
    assert [line.passed for line in lines] == [False, False]
    assert "rests on base" in lines[1].detail


def test_a_failed_assumption_fails_through_a_chain(spec: Spec) -> None:
    """``top`` rests on ``middle``, which ends in its expected result but rests on ``base``,
    which fails: both fail, whatever the order they are listed in."""
    def fails(spec: Spec, opts: Options) -> Outcome:
        return Outcome("counterexample", "made up")

    def holds(spec: Spec, opts: Options) -> Outcome:
        return Outcome("no-such-state")

    top = Obligation("top", "reference", "no-such-state", "z", holds, needs=("middle",))
    middle = Obligation("middle", "reference", "no-such-state", "y", holds, needs=("base",))
    base = Obligation("base", "reference", "proved", "x", fails)
    lines = run(spec, [top, middle, base], Options(), jobs=1)
    assert [(line.name, line.result, line.passed) for line in lines] == [
        ("top", "no-such-state", False), ("middle", "no-such-state", False), ("base", "counterexample", False)]
    assert "rests on middle" in lines[0].detail and "rests on base" in lines[1].detail


_DIFFERS: dict[str, Differ] = {}


def _differ(spec: Spec, ruleset: str) -> Differ:
    """The card-level Z3 side of the 3-player game of ``ruleset`` (built once; not to be changed)."""
    if ruleset not in _DIFFERS:
        _DIFFERS[ruleset] = Differ(make_game(spec, ruleset, 3))
    return _DIFFERS[ruleset]


def test_transition_agrees_with_engine(spec: Spec) -> None:
    differ = _differ(spec, "source-b")
    game = differ.game
    compared = 0
    for state, deal in random_positions(game, 60, random.Random(11)):
        problem = differ.compare_deal(state, deal) if deal is not None else differ.compare(state)
        assert problem is None, problem
        compared += 1
    assert compared == 60


def test_differential_check_catches_a_different_rule(spec: Spec) -> None:
    """The Z3 transition of source A against the engine of source B must disagree
    somewhere (Cupbearer scope, Wizard minimum, sixth card): the check can fail."""
    differ = Differ(make_game(spec, "source-a", 3))
    engine_b = make_game(spec, "source-b", 3)
    differ.game = engine_b
    problems = [differ.compare(state) for state, deal in random_positions(engine_b, 300, random.Random(3))
                if deal is None and state.decision.kind in (K.PLAY, "exchange-count", "swap")]
    assert any(problems)


def test_cupbearer_actor_repeat_expectations(spec: Spec, tmp_path: Path) -> None:
    obs = {ob.key: ob for ob in all_obligations(spec)}
    assert obs["cupbearer-actor-repeat@source-b"].expect == "counterexample"
    assert obs["cupbearer-actor-repeat@source-a"].expect == "proved"
    line = run_one(spec, obs["cupbearer-actor-repeat@source-b"], Options(out_dir=tmp_path))
    assert line.passed, line.detail
    sc = load_scenario(tmp_path / "cupbearer-actor-repeat.source-b.yaml", spec)
    final, _ = sc.position(sc.game(spec, "source-b"))
    assert final.round_end is not None and final.round_end.kind == "whisper"


BREAKS = """        breaks:
          - obligation: cupbearer-actor-repeat
"""


def _edited_breaks(tmp_path: Path, edit: str) -> Path:
    """A copy of spec/ whose cupbearer-actor-duplicate breaks are edited: ``removed``,
    ``unknown`` (a misspelt obligation), ``twice`` (the same obligation named twice),
    ``house`` (a named house ruleset on source-b expecting the obligation proved)."""
    from tests.spec_copy import edited_spec

    text = (Path(__file__).resolve().parent.parent / "spec" / "variation_points.yaml").read_text(encoding="utf-8")
    start = text.index(BREAKS)
    block = text[start:text.index("\n    third_party:", start) + 1]  # the whole breaks list
    if edit == "removed":
        return edited_spec(tmp_path, "variation_points.yaml", block, "")
    if edit == "unknown":
        return edited_spec(tmp_path, "variation_points.yaml", "obligation: cupbearer-actor-repeat",
                           "obligation: cupbearer-actor-repeats")
    if edit in ("witness", "differential"):
        name = "guard-void" if edit == "witness" else "differential"
        return edited_spec(tmp_path, "variation_points.yaml", "obligation: cupbearer-actor-repeat",
                           f"obligation: {name}")
    if edit == "twice":
        entry = block[len("        breaks:\n"):]
        return edited_spec(tmp_path, "variation_points.yaml", block, block + entry)
    rulesets = (Path(__file__).resolve().parent.parent / "spec" / "rulesets.yaml").read_text(encoding="utf-8")
    assert "\nhouse:\n" in rulesets
    return edited_spec(tmp_path, "rulesets.yaml", "\nhouse:\n",
                       "\nhouse:\n  - id: house-b\n    title: Source B, expecting a proof\n"
                       "    description: Source B, expecting that no swap repeats a role in the actor's display.\n"
                       "    base: source-b\n    readings: {guard-other-card: itself-too}\n"
                       "    prove: {cupbearer-actor-repeat: proved}\n")


def test_what_an_obligation_expects_is_what_the_readings_declare(tmp_path: Path) -> None:
    """cupbearer-actor-repeat expects a counterexample under source-b only because the
    reading source-b takes declares it breaks it (spec/variation_points.yaml, ``breaks``),
    and says why; with the declaration removed it expects a proof there too. Any obligation
    may be so declared: next-player under the house reading cards-in-hand of
    neutral-count-zone."""
    from palast.formats.house import resolve
    from palast.spec.load import load_spec

    spec = load_spec()
    obs = {ob.key: ob for ob in all_obligations(spec)}
    ob = obs["cupbearer-actor-repeat@source-b"]
    assert ob.expect == "counterexample" and "reading whisper of cupbearer-actor-duplicate" in ob.because
    plain = obs["cupbearer-actor-repeat@source-a"]
    assert plain.expect == "proved" and not plain.because
    edited = load_spec(_edited_breaks(tmp_path / "removed", "removed"), rulings=False)
    assert {ob.key: ob for ob in all_obligations(edited)}["cupbearer-actor-repeat@source-b"].expect == "proved"
    # any claim may be so declared; nothing under the ruleset then rests on it
    from tests.spec_copy import edited_spec

    root = edited_spec(tmp_path / "rib", "variation_points.yaml", "      - id: itself-too\n",
                       "      - id: itself-too\n        breaks:\n          - obligation: round-is-bounded\n"
                       "            because: A Guard may take itself back for ever.\n")
    house = resolve(load_spec(root, rulings=False), "reference+guard-other-card=itself-too")
    got = {ob.key: ob for ob in all_obligations(house)}
    name = "reference+guard-other-card=itself-too"
    assert got[f"round-is-bounded@{name}"].expect == "counterexample"
    assert "round-is-bounded" in refuted(house, name)
    assert "round-is-bounded" not in got[f"display-below-six@{name}"].needs
    assert "round-is-bounded" in got["display-below-six@reference"].needs
    assert "round-is-bounded" not in refuted(house, "reference")


def test_a_declared_break_needs_a_game_the_engine_replays(tmp_path: Path) -> None:
    """A counterexample a reading declares passes only with a scenario the engine replays:
    next-player under the house reading cards-in-hand ends in a failed induction step only,
    so declaring that the reading breaks it fails the run, saying so."""
    from palast.formats.house import resolve
    from palast.spec.load import load_spec
    from tests.spec_copy import edited_spec

    root = edited_spec(tmp_path, "variation_points.yaml", "        third_party: [reich]\n",
                       "        third_party: [reich]\n        breaks:\n          - obligation: next-player\n"
                       "            because: The turn may pass to a player with more cards displayed.\n")
    name = "reference+neutral-count-zone=cards-in-hand"
    house = resolve(load_spec(root, rulings=False), name)
    ob = {ob.key: ob for ob in all_obligations(house)}[f"next-player@{name}"]
    assert ob.expect == "counterexample"
    line = run_one(house, ob, Options(out_dir=tmp_path))
    assert line.result == "counterexample" and not line.passed
    assert "no scenario replayed by the engine shows it" in line.detail


@pytest.mark.parametrize(("edit", "says"), [
    ("unknown", "breaks 'cupbearer-actor-repeats', but palast prove states no obligation of that name"),
    ("twice", "names cupbearer-actor-repeat twice"),
    ("witness", "breaks guard-void, which is no claim about the rules that a reading can make false"),
    ("differential", "breaks differential, which is no claim about the rules that a reading can make false"),
    ("house", "house-b takes reading whisper of cupbearer-actor-duplicate, which breaks cupbearer-actor-repeat, "
              "but its prove list ("),
])
def test_a_breaks_prove_cannot_honour_is_refused_at_its_place(tmp_path: Path, edit: str, says: str) -> None:
    """A ``breaks`` naming no obligation, naming one twice, or contradicting a named house
    ruleset's prove list stops palast prove (even --list) with exit 2, at the entry's file,
    line and key; no traceback."""
    root = _edited_breaks(tmp_path, edit)
    res = CliRunner().invoke(main, ["--spec", str(root), "prove", "--list"])
    assert res.exit_code == 2, res.output
    assert says in res.output and "variation_points.yaml" in res.output, res.output
    assert "(variation_points[" in res.output and "].breaks[" in res.output, res.output
    assert "Traceback" not in res.output


def test_stale_counterexample_is_replaced(spec: Spec, tmp_path: Path) -> None:
    """A stored file that no longer shows the failure is searched anew and rewritten."""
    stale = tmp_path / "cupbearer-actor-repeat.source-b.yaml"
    q = next(q for q in witness_questions(spec) if q.name == "banned-jesters-only")
    stale.write_text(witness_file(q).read_text(encoding="utf-8"), encoding="utf-8")
    ob = next(ob for ob in all_obligations(spec) if ob.key == "cupbearer-actor-repeat@source-b")
    line = run_one(spec, ob, Options(out_dir=tmp_path))
    assert line.passed and "still shows" not in line.detail, line.detail
    assert re.search(r"; it replaces the stored file, which (is a game of \d players, not 3|asks about .+, not "
                     r"source-b|does not show the "
                     r"failure)$", line.detail), line.detail
    assert "swap" in stale.read_text(encoding="utf-8")


def test_a_stored_counterexample_asking_about_another_ruleset_is_replaced(spec: Spec, tmp_path: Path) -> None:
    """A stored counterexample that asks about another ruleset than the obligation's is not
    kept, even where its game shows the failure there too: palast ask on it would answer
    for the other ruleset."""
    stored = Path(__file__).resolve().parent.parent / "proofs" / "witnesses" / "cupbearer-actor-repeat.source-b.yaml"
    text = stored.read_text(encoding="utf-8")
    assert "rulesets: [source-b]" in text
    stale = tmp_path / stored.name
    stale.write_text(text.replace("rulesets: [source-b]", "rulesets: [source-a]"), encoding="utf-8")
    ob = next(ob for ob in all_obligations(spec) if ob.key == "cupbearer-actor-repeat@source-b")
    line = run_one(spec, ob, Options(out_dir=tmp_path))
    assert line.passed and line.detail.endswith("; it replaces the stored file, which asks about source-a, not "
                                                "source-b"), line.detail
    assert "rulesets: [source-b]" in stale.read_text(encoding="utf-8")


@pytest.mark.parametrize("q", witness_questions(load_spec()), ids=lambda q: q.file_stem)
def test_stored_witnesses_replay(spec: Spec, q: object) -> None:
    """Every stored witness loads as a scenario and the engine's check holds under each
    ruleset (the Z3 side of the check is part of ``palast prove``)."""
    from proofs.witness import Question

    assert isinstance(q, Question)
    sc = load_scenario(witness_file(q), spec)
    for ruleset in q.rulesets:
        game = sc.game(spec, ruleset)
        _, steps = sc.position(game)
        assert q.engine_check(game, sc.start(game), [s for _, s in steps]) is None, ruleset


def test_the_void_guard_is_a_witness_under_every_ruleset_of_the_spec(spec: Spec) -> None:
    """guard-void ends in its stored witness (a Guard played first in its display) under
    source-a, source-b and the reference: Z3 finds a play leaving a Guard nothing to take
    back, and the engine replays the witness with role.guard.void's event."""
    obs = [ob for ob in all_obligations(spec) if ob.name == "guard-void" and ob.ruleset in spec.rulesets]
    assert {ob.ruleset for ob in obs} == set(spec.rulesets)
    for ob in obs:
        line = run_one(spec, ob, Options())
        assert (line.result, line.expected, line.passed) == ("witness", "witness", True), (ob.key, line.detail)
        assert line.files == ("proofs/witnesses/guard-void.yaml",)


def test_witness_verified_with_z3(spec: Spec) -> None:
    q = next(q for q in witness_questions(spec) if q.name == "banned-jesters-only")
    out = verify(spec, q, q.ruleset)
    assert out.result == "witness", out.detail


def test_tiebreak_witness_splits_the_tiebreaks(spec: Spec) -> None:
    """The stored game of tiebreak-a-b-differ ends in a tie that source A's tie-break (most
    displayed) and source B's (most played this round) break for different players, and each
    ruleset's winner is its own source's pick (computed here from the final position, not from
    the declaration the witness was checked against)."""
    q = next(q for q in witness_questions(spec) if q.name == "tiebreak-a-b-differ")
    sc = load_scenario(witness_file(q), spec)
    winners = {}
    for ruleset in spec.rulesets:
        game = sc.game(spec, ruleset)
        final, _ = sc.position(game)
        assert final.result is not None
        winners[ruleset] = final.result.winners
    top = max(final.scores)
    tied = [s for s in range(game.n) if final.scores[s] == top]
    most_shown = max(len(final.displays[s]) for s in tied)
    most_played = max(final.played[s] for s in tied)
    by_a = tuple(s for s in tied if len(final.displays[s]) == most_shown)
    by_b = tuple(s for s in tied if final.played[s] == most_played)
    assert winners["source-a"] == by_a != by_b == winners["source-b"]
    assert len(by_a) == len(by_b) == 1


def test_invariants_name_their_obligations(spec: Spec) -> None:
    names = {ob.name for ob in all_obligations(spec)}
    proved = {i.id: i.established_by.get("proved_by", []) for i in spec.invariants.values()}
    assert any(proved.values())
    for inv, obligations in proved.items():
        for name in obligations:
            assert name in names, f"{inv} names unknown obligation {name}"
    for ob in all_obligations(spec):
        for inv in ob.invariants:
            assert ob.name in proved[inv], f"{ob.name} proves {inv} but the spec does not say so"


def test_cli_prove_only(spec: Spec, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["prove", "--only", "banned-role", "--ruleset", "reference", "--jobs", "1",
                               "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "banned-role" in res.output and "proved" in res.output
    bad = runner.invoke(main, ["prove", "--only", "no-such-obligation"])
    assert bad.exit_code == 2
    assert "no obligation" in bad.output


def test_cli_prove_exit_code_on_failure(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    import proofs.runner

    def wrong(spec: Spec, opts: Options) -> Outcome:
        return Outcome("counterexample", "made up")

    monkeypatch.setattr(proofs.runner, "all_obligations",
                        lambda spec: [Obligation("made-up", "reference", "proved", "fails on purpose", wrong)])
    res = CliRunner().invoke(main, ["prove"])
    assert res.exit_code == 1
    assert "FAILED (expected proved)" in res.output
    res = CliRunner().invoke(main, ["prove", "--json"])
    assert res.exit_code == 1 and '"passed": false' in res.output


def test_encoding_reads_every_engine_parameter(spec: Spec) -> None:
    """Every engine parameter (a variation point's ``parameter``, whether the engine's code
    or a rule's declaration reads it) is read by the Z3 transition of some ruleset: none is
    missing from the encoding; and it reads no other point but those the declarations it
    compiles read by their id, and the switches of rule modules."""
    from proofs.encoding import Layout
    from proofs.legality import action_kinds
    from proofs.transition import Label, Transition

    read: set[str] = set()

    class Recording(Layout):
        def reading(self, parameter: str) -> str:
            read.add(parameter)
            return super().reading(parameter)

        def point_code(self, parameter: str) -> int:
            read.add(parameter)
            return super().point_code(parameter)

    for ruleset in spec.rulesets:
        lay = Recording(make_game(spec, ruleset, 3), "role")
        tr = Transition(lay)
        s, label = ZState.fresh(lay, "s"), Label.fresh(lay, "a")
        for kind in action_kinds(lay):
            tr.step(s, label, kind)
    # the points only rule modules read are not in the proofs' model, which is the base game's
    module_rules = {r for m in spec.modules.values() for r in m.rules}
    module_only = {vp.id for vp in spec.variation_points.values()
                   if (users := {r.id for r in spec.rules.values() if vp.id in r.variation_points})
                   and users <= module_rules}
    expected = {vp.parameter for vp in spec.variation_points.values() if vp.parameter and vp.id not in module_only}
    assert expected <= read, expected - read
    # besides: points read under their own id, having no engine parameter (the rules the
    # model compiles from their declarations read them so), and the switches of the rule
    # modules (read to leave a module's rules out)
    own_id = {vp.id for vp in spec.variation_points.values() if not vp.parameter and vp.id not in module_only}
    assert read - expected <= own_id | {m.point for m in spec.modules.values()}, read - expected


def _with_reading(spec: Spec, ruleset: str, parameter: str, value: str) -> Differ:
    """The Z3 side of a 3-player game of ``ruleset`` whose engine and encoding both read
    ``parameter`` as ``value`` (a reading no ruleset takes may still be checked)."""
    from palast.engine.params import Setting

    game = make_game(spec, ruleset, 3)
    game.params = {**game.params, parameter: Setting(value, game.params[parameter].point)}
    return Differ(game)


def test_voluntary_whisper_follows_the_reading(spec: Spec) -> None:
    """In a position where a player may whisper by choice, Z3 admits the repeat under the
    rulesets' reading (allowed) and rejects it under only-when-forced, as the engine does."""
    from palast.formats.notation import parse_action
    from palast.formats.scenario import parse_scenario
    from proofs.concrete import label_of

    sc = parse_scenario("players: [blue, green, red]\nto_move: blue\nhands:\n"
                        "  blue: [marshal/green, maid/red, wizard/grey, guard/grey, jester/grey]\n"
                        "  green: [jester/blue, jester/green, wizard/red, maid/grey, guard/grey, jester/grey]\n"
                        "  red: [wizard/blue, treasurer/red, marshal/red, jester/red, cupbearer/grey, marshal/grey]\n"
                        "displays: {blue: [guard/blue]}\ndeck: 17\n", spec)
    admitted = {}
    for reading in ("allowed", "only-when-forced"):
        differ = _with_reading(spec, "source-a", "play.duplicate", reading)
        game = differ.game
        state = sc.start(game)
        assert differ.compare(state) is None
        repeat = parse_action(game, "play guard/grey")
        key = tuple(label_of(differ.lay, K.PLAY, repeat)["a"][:1])
        admitted[reading] = key in differ.z3_successors(state)
        assert admitted[reading] == (repeat in game.legal_actions(state))
    assert admitted == {"allowed": True, "only-when-forced": False}


def test_compare_names_an_action_either_side_admits_alone(spec: Spec) -> None:
    """Differ.compare checks the engine's actions one by one in Z3 and then asks Z3 for any
    other: with the engine of one reading and the Z3 side of the other, a voluntary repeat
    is an action the engine admits alone, or Z3 alone, and the message names it."""
    from palast.formats.notation import parse_action
    from palast.formats.scenario import parse_scenario
    from proofs.concrete import label_of

    sc = parse_scenario("players: [blue, green, red]\nto_move: blue\nhands:\n"
                        "  blue: [marshal/green, maid/red, wizard/grey, guard/grey, jester/grey]\n"
                        "  green: [jester/blue, jester/green, wizard/red, maid/grey, guard/grey, jester/grey]\n"
                        "  red: [wizard/blue, treasurer/red, marshal/red, jester/red, cupbearer/grey, marshal/grey]\n"
                        "displays: {blue: [guard/blue]}\ndeck: 17\n", spec)
    allowed = _with_reading(spec, "source-a", "play.duplicate", "allowed")
    forced = _with_reading(spec, "source-a", "play.duplicate", "only-when-forced")
    state = sc.start(allowed.game)
    key = tuple(label_of(allowed.lay, K.PLAY, parse_action(allowed.game, "play guard/grey"))["a"][:1])
    allowed_engine, forced_engine = allowed.game, forced.game
    try:
        forced.game = allowed_engine  # the engine admits the repeat, Z3 does not
        assert forced.compare(state) == f"Z3 admits [] the engine does not; the engine [{key}] Z3 does not"
        allowed.game = forced_engine  # Z3 admits it, the engine does not
        assert allowed.compare(sc.start(forced_engine)) == (
            f"Z3 admits [{key}] the engine does not; the engine [] Z3 does not")
    finally:
        forced.game, allowed.game = forced_engine, allowed_engine


def test_compare_names_a_successor_the_two_sides_disagree_on(spec: Spec) -> None:
    """Where Z3 and the engine admit the same actions, Differ.compare still compares the
    positions they lead to: a Z3 side reading cupbearer-scope as open stops at a gap after
    the Cupbearer is played, where source B's engine goes on, and the message names the
    action and the fields that differ, Z3's value first."""
    wrong = _with_reading(spec, "source-b", "cupbearer.scope", "open")
    right = make_game(spec, "source-b", 3)
    wrong.game = right
    gap = wrong.lay.code(K.GAP)
    found = [p for st, deal in random_positions(right, 120, random.Random(5))
             if deal is None and st.decision.kind == K.PLAY  # the wrong side has no swap decision
             for p in [wrong.compare(st)] if p is not None]
    assert found
    for p in found:
        assert p.startswith("after action (") and "Z3 and engine differ on {" in p, p
        assert f"'dk': ({gap}, " in p and "'gap': (" in p, p


def test_a_wrong_voluntary_whisper_reading_is_exposed(spec: Spec) -> None:
    """An encoding of source-a that reads voluntary-whisper as only-when-forced (or leaves
    it open) disagrees with the engine at a position of the differential check (the stored
    witnesses suffice); ``python -m proofs.mutation`` does this for every parameter and
    reading."""
    from proofs.differential import stored_positions
    from proofs.mutation import Mutant, exposed, mutants

    items = [("a stored witness", g, s, d) for g, s, d in stored_positions(spec, "source-a")]
    for value in ("only-when-forced", "open"):
        wrong = Mutant("source-a", "play.duplicate", value)
        assert wrong in mutants(spec, "source-a", ["play.duplicate"])
        assert exposed(spec, wrong, items)


def test_stored_positions_cover_every_witness(spec: Spec) -> None:
    from proofs.differential import stored_positions
    from proofs.search import WITNESS_DIR

    files = sorted(WITNESS_DIR.glob("*.yaml"))
    for ruleset in spec.rulesets:
        named = [f for f in files if ruleset in load_scenario(f, spec).rulesets]
        positions = stored_positions(spec, ruleset)
        assert len(positions) >= len(named) > 0


def test_a_house_ruleset_replays_its_bases_witnesses(spec: Spec) -> None:
    """``palast prove --reading`` derives a ruleset that no stored scenario names: the
    differential check plays the base's witnesses under it, so that a rule random play
    hardly reaches (a play forced by a hand of banned Jesters, king.jester-forced) still
    fires in a compared position."""
    from palast.formats.house import derive, resolve
    from proofs.differential import stored_positions

    name = "reference+neutral-tie=seat-order"
    house = derive(spec, name, "reference", {"neutral-tie": "seat-order"})
    positions = stored_positions(house, name)
    assert all(g.ruleset == name for g, _, _ in positions)
    assert any(s.decision.kind == K.PLAY and s.decision.forced for _, s, _ in positions)
    # a reading on top of a named house ruleset keeps that ruleset's own witnesses too
    named = len(stored_positions(resolve(spec, "house-guard"), "house-guard"))
    on_top = "house-guard+neutral-tie=seat-order"
    assert len(stored_positions(resolve(spec, on_top), on_top)) == named > len(stored_positions(house, name))
    # so does a ruleset file whose base is that house ruleset (its name says nothing of it)
    from_file = derive(resolve(spec, "house-guard"), "hg2", "house-guard", {"neutral-tie": "seat-order"})
    assert len(stored_positions(from_file, "hg2")) == named


@pytest.mark.parametrize("ruleset", ["reference", "source-b"])
def test_can_act_asks_for_a_swap_as_the_candidates_list_them(spec: Spec, ruleset: str) -> None:
    """can_act asks whether there is a swap without listing the candidate pairs of seats and
    card kinds (:meth:`~proofs.resume_z3.Resuming.some_offered`); Z3 proves the question
    equal to some listed candidate being legal, in every position (role level, 3 players)."""
    from proofs.can_act_meaning import candidates
    from proofs.encoding import Layout
    from proofs.invariant import make_game
    from proofs.legality import Legality

    lay = Layout(make_game(spec, ruleset, 3), "role")
    s = ZState.fresh(lay, "s")
    legal = Legality(lay)
    some = legal.some_offered(s, "swap")
    assert some is not None
    listed = z3.Or([legal.legal(s, "swap", lab) for lab in candidates(s, "swap")])
    solver = z3.Solver()
    solver.add(some != listed)
    assert solver.check() == z3.unsat
    # and the question is not trivial: some positions have a swap, some have none
    for value in (True, False):
        solver = z3.Solver()
        solver.add(some == value)
        assert solver.check() == z3.sat


@pytest.mark.parametrize("ruleset", ["reference", "source-b"])
def test_legality_of_many_candidates_is_that_of_each_alone(spec: Spec, ruleset: str) -> None:
    """Legality.legal_all compiles a decision's options once for all candidates (can_act's
    candidates, card level, 3 players); each condition is the very term legal builds for
    that candidate alone (Z3 shares equal terms, so eq is equality of the formulas), and
    the candidates' conditions are not all one. Of a decision with very many candidates
    (a swap's 7056: two seats and two card kinds), whose options are asked label by label
    (form ``tuple``), an evenly spread sample of about 160 is asked, and every candidate
    whose cards are of two given kinds: all of them took 18 s."""
    from proofs.can_act_meaning import candidates, exempt
    from proofs.encoding import Layout
    from proofs.invariant import make_game
    from proofs.legality import Legality, shapes

    lay = Layout(make_game(spec, ruleset, 3), "card")
    s = ZState.fresh(lay, "s")
    legal = Legality(lay)
    asked = 0
    for kind in lay.decisions:
        if kind in exempt(lay):
            continue
        cands = candidates(s, kind)
        if len(cands) > 300:
            shape = shapes(lay)[kind]
            assert shape.form == "tuple", kind
            cards = [i for i, part in enumerate(shape.parts) if part == "card"]
            # a stride prime to the seats and the card kinds (every part varies), and every
            # choice of the other parts with the card parts among two kinds (so a condition
            # shared wrongly between candidates alike in their cards, not seats, is seen)
            cands = [c for i, c in enumerate(cands) if i % 43 == 0 or all(c.a[j] in (0, 5) for j in cards)]
        together = legal.legal_all(s, kind, cands)
        assert len(together) == len(cands)
        assert all(t.eq(legal.legal(s, kind, c)) for t, c in zip(together, cands, strict=True)), kind
        if kind == "play":
            assert len(cands) == len(lay.kinds) and len({t.get_id() for t in together}) == len(cands)
        asked += 1
    assert asked >= 5


def test_player_can_act_check_can_fail(spec: Spec) -> None:
    """With too few candidate plays (only the first card kind) the proof of player-can-act
    finds a counterexample: the check is not vacuous."""
    from proofs.can_act import can_act, candidates

    def few(s: ZState) -> z3.BoolRef:
        from proofs.legality import Legality

        legal = Legality(s.lay)
        first = candidates(s, K.PLAY)[:1]
        return z3.And(can_act(s), z3.Implies(s["dk"] == s.lay.code(K.PLAY),
                                             z3.Or([legal.legal(s, K.PLAY, lab) for lab in first])))

    out = prove_invariant(spec, "reference", few, counts=(3,))
    assert out.result == "counterexample", out.detail


def test_a_check_too_hard_for_one_query_is_split_by_seats(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    # with no budget for the first query every check goes case by case, and still decides
    from proofs import invariant
    from proofs.well_formed import well_formed

    monkeypatch.setattr(invariant, "FIRST_TRY", 1)
    split: list[str] = []
    cases = invariant.seat_cases

    def counted(ctx: invariant.Context, kind: str) -> list[list[object]]:
        split.append(kind)
        return cases(ctx, kind)

    monkeypatch.setattr(invariant, "seat_cases", counted)
    ctx = invariant.context(spec, "reference", 3, "role")
    with pytest.raises(Unknown):  # the first query alone cannot decide
        check(ctx.step_solver(DecisionKind.PLAY, invariant.FIRST_TRY), z3.Not(well_formed(ctx.t)))
    assert not ctx.breaks(DecisionKind.PLAY, z3.Not(well_formed(ctx.t)))
    assert split == [DecisionKind.PLAY]
    # a claim true in one seat's case only is found there
    assert ctx.breaks(DecisionKind.PLAY, ctx.s["dp"] == 2)
    assert not ctx.breaks(DecisionKind.PLAY, ctx.s["dp"] == 3)  # the rest case: no such seat


def test_a_check_a_smaller_game_split_is_split_at_once(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    # the first query's failure is remembered in `hard`; with the check there, no first query is asked
    from proofs import invariant
    from proofs.well_formed import well_formed

    budgets: list[int] = []
    make = invariant.Context.step_solver

    def counted(self: invariant.Context, kind: str, rlimit: int = invariant.RLIMIT,
                only: tuple[str, ...] | None = None, claims: tuple[object, ...] | None = None) -> object:
        budgets.append(rlimit)
        return make(self, kind, rlimit, only, claims)

    monkeypatch.setattr(invariant.Context, "step_solver", counted)
    monkeypatch.setattr(invariant, "FIRST_TRY", 1)
    small, big = invariant.context(spec, "reference", 3, "role"), invariant.context(spec, "reference", 4, "role")
    hard: set[tuple[str, int]] = set()
    assert not small.breaks(DecisionKind.PLAY, z3.Not(well_formed(small.t)), hard=hard)
    assert hard == {(DecisionKind.PLAY, 1)} and budgets[0] == 1 and len(budgets) == 1 + 3 + 1
    budgets.clear()
    assert not big.breaks(DecisionKind.PLAY, z3.Not(well_formed(big.t)), hard=hard)
    assert budgets == [invariant.RLIMIT] * (4 + 1)  # four seats and the rest, no first query
    assert big.breaks(DecisionKind.PLAY, big.s["dp"] == 3, hard=hard)  # the answer is the same
    budgets.clear()
    assert not big.breaks(DecisionKind.NEXT_PLAYER, big.s["dp"] == 7, hard=hard)  # another kind: first query
    assert budgets[0] == 1


def test_one_proof_keeps_one_set_of_hard_checks_over_its_player_counts(spec: Spec,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # prove_invariant and prove_step hand every breaks call of one proof the same `hard` set
    # (so what a smaller game had to split is split at once with more players), and a new
    # proof starts with a new, empty one
    from proofs import invariant, step
    from proofs.king import banned_not_marshal

    seen: list[tuple[int, int, int]] = []  # (players, id of the set, its size at the call)
    real = invariant.Context.breaks

    def recorded(self: invariant.Context, kind: str, *claims: object, hard: set[tuple[str, int]] | None = None,
                 only: tuple[str, ...] | None = None) -> bool:
        assert hard is not None
        seen.append((self.lay.n, id(hard), len(hard)))
        hard.add(("marker", self.lay.n))  # what one count adds, the next count's calls see
        return real(self, kind, *claims, hard=hard, only=only)

    monkeypatch.setattr(invariant.Context, "breaks", recorded)
    for prove in (lambda: prove_invariant(spec, "reference", banned_not_marshal).result,
                  lambda: step.prove_step(spec, "reference", (DecisionKind.PLAY,),
                                          lambda ctx, kind: ctx.s["dp"] >= 0)[0]):
        seen.clear()
        assert prove() in ("proved", True)
        assert {n for n, _, _ in seen} == set(invariant.player_counts(spec))
        assert len({h for _, h, _ in seen}) == 1  # one set for the whole proof
        assert seen[0][2] == 0  # a proof starts with an empty set
        sizes = [size for _, _, size in seen]
        assert sizes == sorted(sizes) and sizes[-1] >= len(invariant.player_counts(spec)) - 1


@pytest.mark.parametrize("near", [0.0, 1.0])
def test_a_first_query_near_its_budget_marks_its_check_for_a_split(spec: Spec, monkeypatch: pytest.MonkeyPatch,
                                                                  near: float) -> None:
    # a decided first query that spent more than NEAR_BUDGET of its budget is remembered in
    # `hard` as a failed one is (so a game of more players splits it at once); one within it
    # is not; the answer is that of the query either way
    from proofs import invariant
    from proofs.well_formed import well_formed

    monkeypatch.setattr(invariant, "NEAR_BUDGET", near)
    ctx = invariant.context(spec, "reference", 3, "role")
    hard: set[tuple[str, int]] = set()
    assert not ctx.breaks(DecisionKind.PLAY, z3.Not(well_formed(ctx.t)), hard=hard)
    assert ctx.breaks(DecisionKind.PLAY, ctx.s["dp"] == 2, ctx.s["dp"] >= 0, hard=hard)
    want = {(DecisionKind.PLAY, 1), (DecisionKind.PLAY, 2)} if near == 0.0 else set()
    assert hard == want


def test_a_case_asked_over_the_shared_preprocessed_formula_is_asked_again_where_that_finds_it() -> None:
    """:func:`proofs.obligation.eliminated` drops what it solves (here ``x = y + 1``), so a
    case reading ``x`` is free there: ``_case_holds`` asks it again over the formulas
    themselves before it counts; a case unsatisfiable over the preprocessed formula is so
    over the formulas."""
    from proofs.invariant import _case_holds
    from proofs.obligation import eliminated

    x, y = z3.Ints("x y")
    full = [x == y + 1, y > 3]
    shared = eliminated(*full)
    s = solver()
    s.add(shared, x == 2)
    assert check(s)  # x is free in the preprocessed formula
    assert not _case_holds(shared, full, [x == 2])  # but not with the formulas: y would be 1
    assert _case_holds(shared, full, [x == 5])
    assert not _case_holds(shared, full, [y < 2])
    assert not _case_holds(eliminated(x > 1, x < 1), [x > 1, x < 1], [])


def test_the_lemma_rules_out_every_position_the_seat_cases_leave_for_card_conservation(spec: Spec) -> None:
    """prove_invariant asks about the positions no seat case covers (a seat out of range,
    two seats alike) first from what obligation decisions-well-formed proves
    (``Context.formed``), then, only where that leaves some, from the whole strengthening.
    For card-conservation the lemma rules them out for every action kind, the Wizard's
    answer too, whose partner only the facts about what a decision keeps place in range:
    with the declared lemma alone that check was satisfiable, and cost up to 2.5 s at five
    players before the whole strengthening ruled it out."""
    from proofs.conservation import _assumed, conserved
    from proofs.declared_z3 import declared
    from proofs.invariant import context, rest_case, seat_cases

    ctx = context(spec, "reference", 3, "card")
    goal = z3.Not(conserved(ctx.t))
    fields = ctx.fields_of(goal)
    left_by_declared = []
    for kind in ctx.kinds:
        full = [_assumed(ctx.s), ctx.relation_on(kind, fields), goal]
        rest = rest_case(seat_cases(ctx, kind))
        s = solver()
        s.add(*full, ctx.formed(), *rest)
        assert not check(s), kind
        s = solver()
        s.add(*full, declared(ctx.s, "decisions-well-formed"), *rest)
        if check(s):
            left_by_declared.append(kind)
    assert left_by_declared == ["exchange-answer"]  # the Wizard partner's answer (spec/roles.yaml)


def test_a_failed_colours_part_fails_the_card_level_proofs_that_assume_it(spec: Spec) -> None:
    """The card level's strengthening holds each lemma whole, its ``colours`` part too, so
    the card-level proofs (card-conservation, next-player, and the colours part's own proof,
    whose positions with a seat out of range the lemma rules out) rest on the obligation
    proving that part; the role-level proofs, which leave the part out, do not (they rest
    on it only through card-conservation)."""
    from dataclasses import replace

    from proofs.runner import all_obligations

    obs = {ob.name: ob for ob in all_obligations(spec) if ob.ruleset == "reference"}
    part = "decisions-well-formed.colours"
    for name in ("card-conservation", "next-player", part):
        assert part in obs[name].needs, name
    assert part not in obs["player-can-act"].needs

    def fails(spec: Spec, opts: Options) -> Outcome:
        return Outcome("counterexample", "made up")

    def holds(spec: Spec, opts: Options) -> Outcome:
        return Outcome("proved")

    chosen = [replace(obs[part], run=fails), replace(obs["card-conservation"], run=holds)]
    lines = run(spec, chosen, Options(), jobs=1)
    assert [(line.name, line.passed) for line in lines] == [(part, False), ("card-conservation", False)]
    assert f"rests on {part}, which failed" in lines[1].detail


def test_a_step_proved_from_part_of_the_strengthening_rests_on_that_part_alone(
        spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """prove_step with ``assumes`` asks each kind from just those conjuncts (the obligation's
    ``needs`` name those alone). Where that finds a breaking action it asks the whole
    strengthening: a claim false there too fails as without ``assumes``; a claim only the
    whole proves does not pass on conjuncts the obligation does not rest on
    (NotFromAssumed)."""
    from proofs import invariant, step

    asked: list[tuple[str, ...] | None] = []
    real = invariant.Context.breaks

    def recorded(self: invariant.Context, kind: str, *claims: object, hard: set[tuple[str, int]] | None = None,
                 only: tuple[str, ...] | None = None) -> bool:
        asked.append(only)
        return real(self, kind, *claims, hard=hard, only=only)

    monkeypatch.setattr(invariant.Context, "breaks", recorded)
    part = ("banned-role",)
    # who decides a play is the player to move: in decisions-well-formed, not in banned-role
    with pytest.raises(step.NotFromAssumed, match=r"3 players, play: .* banned-role"):
        step.prove_step(spec, "reference", (DecisionKind.PLAY,),
                        lambda ctx, kind: ctx.s["dp"] == ctx.s["actor"], assumes=part)
    assert asked == [part, None]  # found from the part, refuted from the whole
    asked.clear()
    assert step.prove_step(spec, "reference", (DecisionKind.PLAY,),
                           lambda ctx, kind: ctx.s["dp"] == ctx.s["actor"],
                           assumes=("decisions-well-formed",))[0] is True
    assert set(asked) == {("decisions-well-formed",)}  # no check from the whole strengthening
    asked.clear()
    wrong = step.prove_step(spec, "reference", (DecisionKind.PLAY,),
                            lambda ctx, kind: ctx.s["dp"] == 0, assumes=part)
    assert wrong == (False, "3 players, play") and asked == [part, None]
    ctx = invariant.context(spec, "reference", 3, "role")
    with pytest.raises(ValueError, match="next-player"):
        ctx.hypothesis(("next-player",))
    by_name = {ob.name: ob for ob in all_obligations(spec) if ob.ruleset == "reference"}
    assert by_name["next-player"].needs == ("decisions-well-formed", "decisions-well-formed.colours")


def test_the_colours_obligation_also_proves_the_kept_cards_card_by_card(spec: Spec,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The card level's strengthening holds :func:`~proofs.well_formed.kept_formed` card by
    card, which the role level, where decisions-well-formed is proved, states per role only:
    the lemma's colours obligation proves it (and assumes it) at the card level, so no
    card-level proof assumes it unproved."""
    from proofs import invariant
    from proofs.well_formed import kept_formed

    got: dict[str, object] = {}

    def captured(spec: Spec, ruleset: str, prop: object, **kw: object) -> Outcome:
        got.update(prop=prop, **kw)
        return Outcome("proved")

    monkeypatch.setattr(invariant, "prove_invariant", captured)
    invariant._run_colours(spec, Options(), "reference", "decisions-well-formed")
    assert got["level"] == "card" and got["assume"] is got["prop"]
    ctx = invariant.context(spec, "reference", 3, "card")
    prop = got["prop"]
    assert callable(prop)
    s = solver()
    s.add(prop(ctx.s), z3.Not(kept_formed(ctx.s)))
    assert not check(s)  # the obligation's claim includes the kept cards, card by card


def test_a_check_is_asked_over_the_fields_its_claims_mention(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """Context.breaks asks over the relation restricted to the successor's fields its claims
    mention (Context.restricted), built once per kind and set of fields, and finds the same
    actions: a play that ends no round keeps the round number, and a play can leave the
    turn with another player."""
    from proofs import invariant

    ctx = invariant.context(spec, "reference", 3, "role")
    same_round = ctx.t["round"] == ctx.s["round"]
    rel = ctx.restricted(DecisionKind.PLAY, (same_round,))
    assert rel.eq(ctx.relation_on(DecisionKind.PLAY, {"round"}))
    assert ctx.restricted(DecisionKind.PLAY, (z3.Not(same_round), ctx.s["dp"] == 0)) is rel  # built once
    assert ctx.fields_of(ctx.restricted(DecisionKind.PLAY, (ctx.s["dp"] == 0,))) == set()
    assert not ctx.breaks(DecisionKind.PLAY, ctx.t["round"] > ctx.s["round"] + 1)
    assert ctx.breaks(DecisionKind.PLAY, ctx.t["round"] == ctx.s["round"])
    assert ctx.breaks(DecisionKind.PLAY, ctx.t["dp"] != ctx.s["dp"])
    assert not ctx.breaks(DecisionKind.PLAY, ctx.t["dp"] == -5)
    # asked over the restricted relation, and over the whole one for claims that are no terms
    asked: list[object] = []
    restricted = invariant.Context.restricted

    def spy(self: invariant.Context, kind: str, claims: tuple[object, ...]) -> object:
        got = restricted(self, kind, claims)
        asked.append(got)
        return got

    monkeypatch.setattr(invariant.Context, "restricted", spy)
    assert ctx.breaks(DecisionKind.PLAY, same_round)
    assert asked == [rel]
    assert ctx.breaks(DecisionKind.PLAY, True) and not ctx.breaks(DecisionKind.PLAY, False)
    assert all(x is ctx.rel[DecisionKind.PLAY][0] for x in asked[1:]) and len(asked) == 3


def test_where_a_step_claim_fails_reads_back() -> None:
    """The player count and kind a step claim fails at are read from the text prove_step
    writes, and a text it did not write is refused."""
    from proofs.step import failed_at, failing_step

    assert failing_step(failed_at(5, "take-back")) == (5, "take-back")
    for text in ("3, 4, 5 players, role level", "five players, play", "5 players, "):
        with pytest.raises(ValueError, match="not where a step claim fails"):
            failing_step(text)
