"""palast prove under the named house rulesets (proofs/house_rulesets.py): the obligations
spec/rulesets.yaml lists for each, and house-guard's round termination, which must end in
a counterexample that Z3 finds and the engine replays (issue 14, point 4)."""

from __future__ import annotations

import ctypes
import re
import shutil
from pathlib import Path

import pytest
import yaml
import z3

from palast.engine import Game
from palast.engine.actions import Pick
from palast.formats.house import resolve
from palast.formats.notation import parse_action
from palast.formats.scenario import load_scenario
from palast.spec.load import Spec, load_spec
from proofs.concrete import abstract
from proofs.encoding import Layout, ZState
from proofs.house_rulesets import declared, obligations, refuted, replay_counterexample, witness_path
from proofs.invariant import STRENGTHENING, make_game, strengthening
from proofs.legality import Legality, modelled_points
from proofs.nonvacuous import constant_state
from proofs.obligation import Options
from proofs.runner import all_obligations, stated_obligations
from proofs.z3_values import Coll
from tests.spec_copy import edited_spec

ROOT = Path(__file__).resolve().parent.parent
HOUSE = "house-guard"
WITNESS = witness_path("round-is-bounded", HOUSE)


#: What house-guard's prove list declares: round termination and its measure refuted, the
#: rest of the strengthening, the no-such-state obligations the differential check's
#: coverage rests on, and the differential check.
LISTED = {"round-is-bounded": "counterexample", "round-progress": "counterexample", "card-conservation": "proved",
          "banned-role": "proved", "hand-plus-display": "proved", "no-repeated-role": "proved",
          "display-below-six": "proved",
          "round-end-cause": "proved", "decisions-well-formed": "proved", "decisions-well-formed.colours": "proved",
          "deck-reserve": "proved",
          "maid-empty-deck": "no-such-state",
          "empty-hand": "no-such-state", "guard-void": "no-such-state", "differential": "proved"}


def test_the_declaration_lists_what_runs(spec: Spec) -> None:
    assert declared(spec)[HOUSE] == LISTED
    obs = [ob for ob in all_obligations(spec) if ob.ruleset == HOUSE]
    assert [(ob.name, ob.expect, ob.family) for ob in obs] == [(n, e, "house_rulesets") for n, e in LISTED.items()]
    assert obs[0].invariants == ("round-is-bounded",)
    # each runs as its own family's check, so the card-level ones share the card-level worker
    assert {ob.name: ob.runs_as for ob in obs}["differential"] == "differential"
    assert {ob.name: ob.runs_as for ob in obs}["card-conservation"] == "conservation"
    assert {ob.name: ob.runs_as for ob in obs}["decisions-well-formed.colours"] == "turn"  # card level
    # with house-guard added (palast prove -r house-guard), still only the listed ones run under it
    rspec = resolve(spec, HOUSE)
    assert [ob.key for ob in all_obligations(rspec) if ob.ruleset == HOUSE] == [f"{n}@{HOUSE}" for n in LISTED]
    assert len([ob for ob in stated_obligations(rspec) if ob.ruleset == HOUSE]) > len(LISTED)


def test_every_assumption_of_a_listed_obligation_is_listed(spec: Spec) -> None:
    """Nothing a proof under house-guard assumes is left unproved there: every obligation a
    listed one needs is listed, expecting proved or no-such-state."""
    for ob in all_obligations(spec):
        if ob.ruleset == HOUSE:
            assert all(LISTED.get(n) in ("proved", "no-such-state") for n in ob.needs if n != ob.name), ob.key


def test_the_model_takes_the_guard_s_options_from_the_declaration(spec: Spec) -> None:
    """After a Guard is played alone, the Z3 options offer that Guard under house-guard and
    nothing under the reference: the reading comes from role.guard's declaration."""
    assert "guard-other-card" in modelled_points(spec)
    rspec = resolve(spec, HOUSE)
    sc = load_scenario(WITNESS, rspec)
    game = sc.game(rspec, HOUSE)
    after_play = game.apply(sc.start(game), parse_action(game, sc.actions[0][0])).state
    take_back = parse_action(game, sc.actions[1][0])
    assert isinstance(take_back, Pick) and take_back.verb == "take-back"
    guard = take_back.value
    counts = {}
    for rs in ("reference", HOUSE):
        lay = Layout(Game(rspec, rs, list(sc.players)), "card")
        s = constant_state(lay, abstract(lay, after_play))
        opts = Legality(lay).options(s, "take-back")
        assert isinstance(opts, Coll)
        mult = dict(opts.items)
        counts[rs] = [z3.simplify(z3.IntVal(m) if isinstance(m, int) else m).as_long()
                      for m in (mult.get(k, 0) for k in range(len(lay.kinds)))]
    assert counts[HOUSE][guard] == 1 and sum(counts[HOUSE]) == 1
    assert sum(counts["reference"]) == 0


@pytest.mark.parametrize(("name", "actions"), [("round-is-bounded", 39), ("round-progress", 2)])
def test_house_guard_round_termination_ends_in_a_replayed_counterexample(spec: Spec, name: str, actions: int) -> None:
    """round-is-bounded, and its measure round-progress (a step invariant): each stored
    counterexample, that many actions after a real deal, is replayed by the engine's check
    mode with the invariants the list expects refuted, and admitted by the Z3 transition
    with the declaration false at its end (of its last step), not before."""
    ob = next(ob for ob in all_obligations(spec) if ob.key == f"{name}@house-guard")
    out = ob.run(spec, Options())
    assert out.result == "counterexample", out.detail
    assert out.files == (f"proofs/witnesses/{name}.house-guard.yaml",)
    assert f"{actions} legal actions after a real deal" in out.detail
    assert f"{name} broken after the last" in out.detail
    assert f"the Z3 transition admits every step and {name} is false at its end, not before" in out.detail


@pytest.mark.parametrize("n", [3, 4, 5])
def test_house_guard_games_play_on_past_a_guard_taken_back(spec: Spec, n: int) -> None:
    """Check mode under house-guard leaves out what its prove list expects refuted
    (round-is-bounded, with its lemma, and round-progress), and nothing else, so seeded games in
    check mode play to the end; before, each stopped at the first Guard taken back. In
    some of them a Guard is taken back and round-progress really is broken (it is evaluated
    as the replay of a counterexample evaluates it), so the check leaves out something false."""
    from palast.invariants.check import step_problems
    from palast.invariants.declared import checks
    from palast.sim.play import play_moves

    rspec = resolve(spec, HOUSE)
    game = Game(rspec, HOUSE, list(rspec.player_colours[:n]), check=True)
    assert checks(game).suspended == {"round-is-bounded", "round-progress"}
    assert checks(Game(rspec, "reference", list(rspec.player_colours[:n]))).suspended == set()
    broken = ended = 0
    for seed in range(6):
        moves = list(play_moves(game, seed))  # check mode raises on any other invariant
        ended += moves[-1].step.state.decision.kind == "game-over"
        broken += sum("round-progress" in dict(step_problems(game, m.before, m.action, m.step.state, m.step.events,
                                                             refuted=True))
                      for m in moves)
    assert ended == 6 and broken > 0


def test_house_rules_on_top_of_house_guard_take_its_list_into_check_mode(spec: Spec) -> None:
    """A ruleset derived from house-guard leaves out what house-guard's list expects refuted;
    the same house reading given on the reference, with no prove list, is checked in full
    (README: play stops there with check failed), and so is house-guard with its own
    reading taken back."""
    from palast.invariants.declared import checks

    for name, left_out in ((f"{HOUSE}+neutral-tie=seat-order", {"round-is-bounded", "round-progress"}),
                           ("reference+guard-other-card=itself-too", set()),
                           # the house reading taken back: round-is-bounded holds again, and is checked
                           (f"{HOUSE}+guard-other-card=another-own", set())):
        rspec = resolve(spec, name)
        assert checks(Game(rspec, name, ["red", "blue", "green"])).suspended == left_out, name


def _cut(tmp_path: Path, drop: int) -> Path:
    doc = yaml.safe_load(WITNESS.read_text(encoding="utf-8"))
    doc["actions"] = doc["actions"][:len(doc["actions"]) - drop]
    p = tmp_path / "cut.yaml"
    p.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return p


def test_a_replay_that_does_not_trip_the_check_fails(spec: Spec, tmp_path: Path) -> None:
    rspec = resolve(spec, HOUSE)
    problem, said = replay_counterexample(rspec, HOUSE, "round-is-bounded", WITNESS)
    assert problem is None and "39 legal actions" in said
    problem, _ = replay_counterexample(rspec, HOUSE, "round-is-bounded", _cut(tmp_path, 1))
    assert problem == "round-is-bounded holds after all 38 actions"
    problem, _ = replay_counterexample(rspec, HOUSE, "round-is-bounded", tmp_path / "missing.yaml")
    assert problem is not None and "missing" in problem
    # under the reference the Guard cannot take itself back: the second action is illegal
    problem, _ = replay_counterexample(resolve(spec, HOUSE), "reference", "round-is-bounded", WITNESS)
    assert problem is not None and "does not name the ruleset reference" in problem


def test_the_obligation_fails_when_the_stored_counterexample_is_cut(spec: Spec, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import proofs.house_rulesets as hr

    cut = _cut(tmp_path, 2)
    monkeypatch.setattr(hr, "witness_path", lambda name, ruleset: cut)
    ob = next(ob for ob in obligations(spec, stated_obligations) if ob.ruleset == HOUSE)
    out = ob.run(spec, Options())
    assert out.result == "error" and "holds after all 37 actions" in out.detail, out.detail
    assert out.result != ob.expect


@pytest.fixture(scope="module")
def harmless_spec(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    """A spec whose one named house ruleset changes nothing that termination rests on
    (final-tie) and still claims a counterexample of round-is-bounded."""
    d = tmp_path_factory.mktemp("spec") / "spec"
    shutil.copytree(ROOT / "spec", d)
    f = d / "rulesets.yaml"
    text = f.read_text(encoding="utf-8").replace("readings: {guard-other-card: itself-too}",
                                                 "readings: {final-tie: shared}")
    f.write_text(text, encoding="utf-8")
    return load_spec(d)


def test_the_obligation_fails_when_z3_proves_it(harmless_spec: Spec) -> None:
    ob = next(ob for ob in all_obligations(harmless_spec) if ob.key == "round-is-bounded@house-guard")
    out = ob.run(harmless_spec, Options())
    assert out.result == "proved" and out.result != ob.expect


def test_a_refuted_invariant_is_assumed_by_no_proof_under_the_house_ruleset(spec: Spec) -> None:
    """round-is-bounded and round-progress, which house-guard's list expects to end in a
    counterexample, leave the strengthening of every proof under house-guard and no
    obligation there needs them; under the reference the strengthening is whole."""
    rspec = resolve(spec, HOUSE)
    gone = {"round-is-bounded", "round-progress"}
    assert refuted(rspec, HOUSE) == gone and refuted(rspec, "reference") == frozenset()
    for rs in (HOUSE, "reference"):
        names = [n for n, _ in strengthening(Layout(make_game(rspec, rs, 3), "role"))]
        want = [n for n in STRENGTHENING if rs == "reference" or n not in gone]
        assert names == want, rs
    assert "round-is-bounded" in STRENGTHENING
    for ob in all_obligations(rspec):
        if ob.ruleset == HOUSE:
            assert not gone & set(ob.needs), ob.key


def test_an_obligation_whose_strengthening_is_not_listed_assumes_none_of_it(spec: Spec, tmp_path: Path) -> None:
    """A house ruleset that lists empty-hand without the strengthening it rests on: nothing
    proves that under it, so no proof under it assumes it, and empty-hand, which needs it,
    is not shown; the result names what was not assumed."""
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    f = d / "rulesets.yaml"
    text = f.read_text(encoding="utf-8")
    listed = re.search(r"prove: \{.*\}|prove:\n(?:      .*\n)+", text)
    assert listed is not None
    f.write_text(text.replace(listed.group(0).rstrip("\n"),
                              "prove: {round-is-bounded: counterexample, empty-hand: no-such-state}"), encoding="utf-8")
    s = load_spec(d)
    ob = next(ob for ob in all_obligations(s) if ob.key == "empty-hand@house-guard")
    assert ob.needs == ()
    out = ob.run(s, Options())
    assert out.result != "no-such-state"
    assert out.detail.endswith("a proof assumes only what its prove list proves, so not card-conservation, "
                               "banned-role, hand-plus-display, no-repeated-role, display-below-six, "
                               "decisions-well-formed, deck-reserve"), out.detail
    assert "round-is-bounded" not in out.detail


def test_a_lemma_whose_colours_part_is_refuted_is_assumed_by_no_proof(spec: Spec, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A house ruleset whose list expects decisions-well-formed.colours to end in a
    counterexample: the card level's strengthening holds that part and the cards a pending
    decision keeps (which that obligation proves), so no proof under it assumes the lemma,
    and card-conservation does not assume the kept cards either. Before, the lemma stayed in
    the strengthening (only the conjuncts' own obligations were looked at) and
    card-conservation assumed the kept cards, with nothing proving either."""
    from proofs import conservation
    from proofs.invariant import formed_assumed, not_assumed
    from proofs.well_formed import kept_formed

    d = edited_spec(tmp_path, "rulesets.yaml", "      decisions-well-formed.colours: proved",
                    "      decisions-well-formed.colours: counterexample")
    s = load_spec(d)
    rspec = resolve(s, HOUSE)
    assert "decisions-well-formed" in not_assumed(rspec, HOUSE) and not formed_assumed(rspec, HOUSE)
    assert formed_assumed(resolve(spec, HOUSE), HOUSE)  # the spec as it is: assumed
    names = [n for n, _ in strengthening(Layout(make_game(rspec, HOUSE, 3), "card"))]
    assert "decisions-well-formed" not in names and "card-conservation" in names
    got: dict[str, object] = {}

    def captured(spec: Spec, ruleset: str, prop: object, **kw: object) -> object:
        got.update(kw)
        return None

    monkeypatch.setattr(conservation, "prove_invariant", captured)
    conservation._run(rspec, Options(), HOUSE)
    assert got["assume"] is conservation.conserved
    conservation._run(resolve(spec, HOUSE), Options(), HOUSE)
    assert got["assume"] is conservation._assumed  # the spec as it is: the kept cards are assumed
    lay = Layout(make_game(rspec, HOUSE, 3), "card")
    pos = ZState.fresh(lay, "s")
    sv = z3.Solver()  # and _assumed is what assumes them
    sv.add(conservation._assumed(pos), z3.Not(kept_formed(pos)))
    assert sv.check() == z3.unsat


def test_a_failure_names_the_colours_obligation_that_left_its_lemma_out(spec: Spec, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With decisions-well-formed listed as proved but its colours obligation expected to
    fail, a listed proof that fails says that the lemma was not assumed because of that
    obligation (it said only "so not decisions-well-formed", which the list does expect
    proved)."""
    import dataclasses

    import proofs.house_rulesets as hr
    from proofs.obligation import Outcome

    d = edited_spec(tmp_path, "rulesets.yaml", "      decisions-well-formed.colours: proved",
                    "      decisions-well-formed.colours: counterexample")
    s = load_spec(d)
    real = hr._inner

    def failing(spec: Spec, house: str, name: str, stated: object) -> tuple[Spec, object]:
        rspec, inner = real(spec, house, name, stated)  # type: ignore[arg-type]
        assert inner is not None
        return rspec, dataclasses.replace(inner, run=lambda spec, opts: Outcome("counterexample", "found"))

    monkeypatch.setattr(hr, "_inner", failing)
    ob = next(ob for ob in all_obligations(s) if ob.key == "card-conservation@house-guard")
    out = ob.run(s, Options())
    assert out.detail.endswith("so not decisions-well-formed (the list does not expect "
                               "decisions-well-formed.colours proved)"), out.detail


def test_an_unknown_obligation_in_the_list_is_an_error(spec: Spec, tmp_path: Path) -> None:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    f = d / "rulesets.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("      round-is-bounded: counterexample",
                                                       "      round-is-bound: counterexample"), encoding="utf-8")
    s = load_spec(d)
    ob = next(ob for ob in all_obligations(s) if ob.ruleset == HOUSE)
    out = ob.run(s, Options())
    assert out.result == "error" and "no obligation round-is-bound is stated for every ruleset" in out.detail


def test_a_question_not_asked_under_the_house_ruleset_is_said_so(spec: Spec, tmp_path: Path) -> None:
    """cupbearer-actor-whisper is asked only under source-b (its stored game answers there):
    listing it for house-guard says that, not that no such obligation exists."""
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    f = d / "rulesets.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace(
        "      round-is-bounded: counterexample\n",
        "      round-is-bounded: counterexample\n      cupbearer-actor-whisper: witness\n", 1), encoding="utf-8")
    s = load_spec(d)
    ob = next(ob for ob in all_obligations(s) if ob.key == f"cupbearer-actor-whisper@{HOUSE}")
    out = ob.run(s, Options())
    assert out.result == "error", out.detail
    assert "the reachability question cupbearer-actor-whisper is asked only under source-b" in out.detail
    assert "no obligation" not in out.detail


def test_a_ruleset_whose_role_level_proofs_run_at_the_card_level_gets_one_group(
        spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a ruleset's role-level proofs run on card-level contexts (a rule reads the
    colour of a card whose role the compiler cannot tell), the runner keeps all its
    obligations in one group (its card-level contexts built once); every other ruleset
    keeps a role-level group and a card-level one. Under fan the role level tells the
    Jesters apart by colour, so fan is one of the others."""
    import proofs.invariant
    from proofs.house_rulesets import spec_of
    from proofs.invariant import proof_level
    from proofs.runner import _groups

    for r in ("fan", HOUSE, "reference"):
        assert proof_level(spec_of(spec, r), r, "role") == "role"
    assert proof_level(spec, "reference", "card") == "card"

    def groups_by_ruleset() -> dict[str, int]:
        out: dict[str, int] = {}
        for g in _groups(spec, all_obligations(spec)):
            rulesets = {k.split("@", 1)[1] for k in g}
            assert len(rulesets) == 1, g
            r = rulesets.pop()
            out[r] = out.get(r, 0) + 1
        return out

    assert groups_by_ruleset() == {"fan": 2, HOUSE: 2, **{r: 2 for r in spec.rulesets}}
    monkeypatch.setattr(proofs.invariant, "proof_level",
                        lambda s, r, level: "card" if r == "source-b" else proof_level(s, r, level))
    assert groups_by_ruleset() == {"fan": 2, HOUSE: 2, **{r: 2 for r in spec.rulesets}, "source-b": 1}


def test_a_role_context_that_cannot_be_built_leaves_the_grouping_to_the_obligations(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Grouping builds the fewest players' role-level context; where that fails the runner
    still groups (each obligation reports the failure itself, as an error line), so a bad
    rule does not stop palast prove before it starts."""
    import proofs.invariant
    from proofs.runner import CARD_LEVEL, _groups

    fresh = load_spec()  # not the session's spec: no context of it is built yet

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no context")

    monkeypatch.setattr(proofs.invariant, "Context", broken)
    obs = [ob for ob in all_obligations(fresh) if ob.ruleset == "reference"]
    groups = _groups(fresh, obs)
    assert sorted(len(g) for g in groups) == sorted(
        [sum(1 for ob in obs if (ob.runs_as or ob.family) in CARD_LEVEL),
         sum(1 for ob in obs if (ob.runs_as or ob.family) not in CARD_LEVEL)])


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt(), ctypes.ArgumentError("argument 1: KeyboardInterrupt")])
def test_ctrl_c_while_grouping_stops_the_run(monkeypatch: pytest.MonkeyPatch, interrupt: BaseException) -> None:
    """Ctrl-C while the runner builds the role-level context it groups by (bare, or as the
    ctypes error a z3 call turns it into) stops palast prove as Ctrl-C anywhere else does
    (:class:`proofs.runner.Interrupted`), not as a failed grouping."""
    import proofs.invariant
    from proofs.runner import Interrupted, _groups, run

    fresh = load_spec()  # not the session's spec: no context of it is built yet

    def interrupted(*args: object, **kwargs: object) -> None:
        raise interrupt

    monkeypatch.setattr(proofs.invariant, "Context", interrupted)
    obs = [ob for ob in all_obligations(fresh) if ob.key in ("card-conservation@reference", "banned-role@reference")]
    assert len(obs) == 2  # one of each level: the grouping probes the role level
    with pytest.raises(BaseException) as grouping:
        _groups(fresh, obs)
    assert type(grouping.value) is KeyboardInterrupt
    with pytest.raises(BaseException) as running:  # a bare KeyboardInterrupt would stop pytest itself
        run(fresh, obs, Options(), jobs=2)
    assert isinstance(running.value, Interrupted)


@pytest.mark.parametrize("edit", ["one action", "mid-round"])
def test_a_broken_stored_step_counterexample_fails_and_nothing_is_written(spec: Spec, tmp_path: Path, edit: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored round-progress counterexample that no longer shows the failure fails the
    obligation with a message naming the file, and nothing is searched or written: before,
    the step invariant's counterexample was searched anew into the output directory
    (proofs/witnesses by default, so the stored file was overwritten by a position in the
    middle of a round), and a file whose hands no deal gives raised IllegalActionError."""
    import proofs.house_rulesets

    stored = witness_path("round-progress", HOUSE)
    doc = yaml.safe_load(stored.read_text(encoding="utf-8"))
    if edit == "one action":
        doc["actions"] = doc["actions"][:1]
    else:
        doc["hands"] = {c: cards[:3] for c, cards in doc["hands"].items()}
    broken = tmp_path / "round-progress.house-guard.yaml"
    broken.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    text = broken.read_text(encoding="utf-8")
    monkeypatch.setattr(proofs.house_rulesets, "witness_path", lambda name, house: broken)
    out_dir = tmp_path / "out"
    ob = next(ob for ob in all_obligations(spec) if ob.key == "round-progress@house-guard")
    out = ob.run(spec, Options(out_dir=out_dir))
    assert out.result == "error", out.detail
    assert out.files == (str(broken),) and "Error" not in out.detail, out
    want = "holds after its only action" if edit == "one action" else "does not start right after a real first deal ("
    assert want in out.detail, out.detail
    assert broken.read_text(encoding="utf-8") == text
    assert not out_dir.exists() or not any(out_dir.iterdir())


def test_a_derived_ruleset_replays_the_named_ones_counterexample_or_searches_its_own(
        spec: Spec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under house rules on top of house-guard, the counterexample stored for house-guard is
    replayed where it still shows the failure (nothing written); where it does not, Z3's
    own is searched and written to the output directory, and the detail says why the stored
    one was not used."""
    import proofs.house_rulesets

    derived = f"{HOUSE}+neutral-tie=seat-order"
    rspec = resolve(spec, derived)
    ob = next(ob for ob in all_obligations(rspec) if ob.key == f"round-progress@{derived}")
    out_dir = tmp_path / "out"
    out = ob.run(rspec, Options(out_dir=out_dir))
    assert out.result == "counterexample", out.detail
    assert out.files == ("proofs/witnesses/round-progress.house-guard.yaml",)
    assert f"(stored for {HOUSE}, replayed under {derived})" in out.detail
    assert not out_dir.exists()
    doc = yaml.safe_load(witness_path("round-progress", HOUSE).read_text(encoding="utf-8"))
    doc["actions"] = doc["actions"][:1]
    cut = tmp_path / "cut.yaml"
    cut.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    monkeypatch.setattr(proofs.house_rulesets, "witness_path", lambda name, house: cut)
    out = ob.run(rspec, Options(out_dir=out_dir))
    assert out.result == "counterexample", out.detail
    assert out.files and f"round-progress.{derived}.yaml" in out.files[0], out
    assert out.detail.endswith(f"the counterexample stored for {HOUSE} does not show it under {derived}: "
                               "round-progress holds after its only action"), out.detail
