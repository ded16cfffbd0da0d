"""``palast prove``: one line per obligation, the summary line, ``--explain``, ``--jobs``
(same order, failures fail, Ctrl-C and a dead worker end cleanly) and the coverage table
(issue 14, points 6 and 7)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from palast.cli import main
from palast.cli.prove_cmd import coverage_table
from palast.spec.load import Spec
from proofs import runner
from proofs.explain import statement_words
from proofs.obligation import Obligation, Options, Outcome
from proofs.runner import Interrupted, Line, WorkerDied, all_obligations, run
from tests.cli_runs import fresh_process

SUMMARY = re.compile(r"^palast prove: (\d+) obligations?, (\d+) passed, (\d+) failed in [\d.]+ s$")


def test_one_line_per_obligation_then_the_summary(spec: Spec) -> None:
    res = CliRunner().invoke(main, ["prove", "--only", "banned-role", "--only", "scores-rise-slowly",
                                    "-r", "reference", "-r", "source-a"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    obs = {ob.key: ob for ob in all_obligations(spec)}
    assert len(lines) == 8 and SUMMARY.match(lines[-1]).groups() == ("4", "4", "0")  # type: ignore[union-attr]
    for line in lines[:4]:
        m = re.match(r"^(\S+) +(\S+) +(proved) +(\d+\.\d\d)s  (.+)$", line)
        assert m, line
        assert m.group(5) == obs[f"{m.group(1)}@{m.group(2)}"].statement
    # what those proofs rest on and the run left out, per ruleset: what they assume, and what that assumes
    assert lines[4].startswith("not run here, and assumed by obligations run above, directly or through what they "
                               "assume (those pass only where these pass"), lines[4]
    for line, ruleset in zip(lines[5:7], ("source-a", "reference"), strict=True):
        m = re.match(r"^  (\S+): (.+)$", line)
        assert m and m.group(1) == ruleset, line
        listed = m.group(2).split(", ")
        run_here = {"banned-role", "scores-rise-slowly"}
        needs = {n for name in run_here for n in obs[f"{name}@{ruleset}"].needs} - run_here
        assert needs <= set(listed) and len(set(listed)) == len(listed), line
        assert "decisions-well-formed.colours" in listed and "decisions-well-formed.colours" not in needs
        _assert_closure(obs, ruleset, run_here, listed)


def _assert_closure(obs: dict[str, Obligation], ruleset: str, run_here: set[str], listed: list[str]) -> None:
    """``listed`` is what ``run_here`` rests on under ``ruleset`` and is not run: closed under
    what each assumes, and each reached from ``run_here``."""
    def needs(name: str) -> set[str]:
        ob = obs.get(f"{name}@{ruleset}")
        return set(ob.needs) - {name} if ob is not None else set()

    every = set(listed) | run_here
    for name in every:
        assert needs(name) & set(obs_names(obs, ruleset)) <= every, name
    for name in listed:
        assert any(name in needs(other) for other in every - {name}), name


def obs_names(obs: dict[str, Obligation], ruleset: str) -> list[str]:
    return [ob.name for ob in obs.values() if ob.ruleset == ruleset]


def test_json_names_what_the_run_assumes_and_left_out(spec: Spec) -> None:
    """--json lists, per obligation left out that those run rest on, the ones resting on it;
    a run of every obligation of a ruleset lists nothing, nor does --explain (its
    explanation says what its obligation assumes)."""
    res = CliRunner().invoke(main, ["prove", "--json", "--only", "maid-empty-deck", "-r", "reference"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    obs = {ob.key: ob for ob in all_obligations(spec)}
    assert {(d["ruleset"], tuple(d["by"])) for d in doc["assumed_not_run"]} == {("reference", ("maid-empty-deck",))}
    _assert_closure(obs, "reference", {"maid-empty-deck"}, [d["name"] for d in doc["assumed_not_run"]])
    from proofs.runner import assumed_not_run

    stated = all_obligations(spec)
    assert assumed_not_run(stated, [o for o in stated if o.ruleset == "reference"]) == {}
    res = CliRunner().invoke(main, ["prove", "--json", "--explain", "maid-empty-deck", "-r", "reference"])
    assert res.exit_code == 0 and "assumed_not_run" not in json.loads(res.output), res.output


def test_what_is_left_out_names_each_obligation_resting_on_it(spec: Spec) -> None:
    """``by`` names the obligations run that rest on what was left out, through obligations
    run or not (maid-empty-deck rests on decisions-well-formed.colours through
    card-conservation, run here or not), and only those: under house-guard
    round-is-bounded, which must end in a counterexample, assumes nothing."""
    from proofs.runner import assumed_not_run

    stated = all_obligations(spec)

    def pick(ruleset: str, *names: str) -> list[Obligation]:
        return [ob for ob in stated if ob.ruleset == ruleset and ob.name in names]

    colours = ("decisions-well-formed.colours", "reference")
    got = assumed_not_run(stated, pick("reference", "maid-empty-deck", "card-conservation"))
    assert got[colours] == ["card-conservation", "maid-empty-deck"]
    assert ("card-conservation", "reference") not in got
    assert assumed_not_run(stated, pick("reference", "maid-empty-deck"))[colours] == ["maid-empty-deck"]
    guard = assumed_not_run(stated, pick("house-guard", "maid-empty-deck", "round-is-bounded"))
    assert guard and all(by == ["maid-empty-deck"] for by in guard.values()), guard


def test_columns_line_up_past_long_names_and_rulesets() -> None:
    # module:fan:muted-card-does-nothing (34 characters) and house-guard (11) are wider than
    # the default columns; every line's later columns still start at the same place
    res = CliRunner().invoke(main, ["prove", "--list"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert any(line.startswith("module:fan:muted-card-does-nothing ") for line in lines)
    assert any(" house-guard " in line for line in lines)
    assert len({line.index(" expects ") for line in lines}) == 1
    names = {len(line.split()[0]) for line in lines}
    assert len({line.index(line.split()[1], len(line.split()[0])) for line in lines}) == 1 and max(names) > 28


def test_result_and_detail_lines_line_up_past_long_names(monkeypatch: pytest.MonkeyPatch) -> None:
    # a failing obligation with a long name and ruleset beside a short passing one: the result
    # column starts at one place, and the detail is indented to it
    def wrong(spec: Any, opts: Options) -> Outcome:
        return Outcome("counterexample", "made up on purpose")

    def right(spec: Any, opts: Options) -> Outcome:
        return Outcome("proved", "fine")

    long = "module:fan:muted-card-does-nothing"
    monkeypatch.setattr(runner, "all_obligations", lambda spec: [
        Obligation(long, "house-guard", "proved", "fails on purpose", wrong),
        Obligation("short", "reference", "proved", "passes", right)])
    res = CliRunner().invoke(main, ["prove"])
    assert res.exit_code == 1
    first, detail, second, _ = res.output.splitlines()
    at = first.index("counterexample")
    assert at == second.index("proved") == len(long) + 1 + len("house-guard") + 1
    assert detail == " " * at + "made up on purpose"


def test_the_coverage_table_widens_a_column_for_a_long_ruleset(spec: Spec) -> None:
    rules = list(spec.rules)
    long = "reference+game-end-tiebreak=most-played-total"
    rows = coverage_table([_line(long, tuple((r, 3) for r in rules)), _line("source-b", tuple((r, 1) for r in rules))])
    head = rows[1]
    assert head.split() == ["rule", long, "source-b"]
    for row in rows[2:]:  # each count ends where its ruleset's name ends
        assert row[head.index(long) + len(long) - 1] == "3" and row.endswith("1") and len(row) == len(head)


def test_a_failing_line_says_so_and_gives_the_detail(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrong(spec: Any, opts: Options) -> Outcome:
        return Outcome("counterexample", "made up on purpose")

    monkeypatch.setattr(runner, "all_obligations",
                        lambda spec: [Obligation("made-up", "reference", "proved", "fails on purpose", wrong)])
    res = CliRunner().invoke(main, ["prove"])
    assert res.exit_code == 1
    first, detail, summary = res.output.splitlines()
    assert first.endswith("fails on purpose  FAILED (expected proved)") and "made up on purpose" in detail
    assert SUMMARY.match(summary).groups() == ("1", "0", "1")  # type: ignore[union-attr]


def test_explain_states_assumes_and_names_the_scenario(spec: Spec) -> None:
    res = CliRunner().invoke(main, ["prove", "--explain", "cupbearer-actor-repeat", "-r", "source-b"])
    assert res.exit_code == 0, res.output
    out = res.output
    ob = next(o for o in all_obligations(spec) if o.key == "cupbearer-actor-repeat@source-b")
    assert all(w in out for w in statement_words(spec, ob))
    assert "assumes" in out and "card-conservation:" in out and "no-repeated-role:" in out
    assert "result: counterexample" in out and "passed" in out
    assert "counterexample scenario: proofs/witnesses/cupbearer-actor-repeat.source-b.yaml" in out


def test_explain_of_an_invariant_quotes_its_statement_and_clauses(spec: Spec) -> None:
    ob = next(o for o in all_obligations(spec) if o.name == "banned-role")
    words = statement_words(spec, ob)
    inv = spec.invariants["banned-role"]
    assert words[0].startswith(ob.statement[:1].upper() + ob.statement[1:])
    assert any(inv.statement in w and all(c in w for c in inv.clauses) for w in words[1:])


def test_explain_of_a_lemma_s_obligation_gives_its_declaration(spec: Spec) -> None:
    """An obligation that proves a strengthening lemma (named after it) shows the lemma's
    statement and the expression declared in spec/invariants.yaml, as an invariant's does."""
    from palast.lang.syntax import parse, show

    lemma = "decisions-well-formed"
    ob = next(o for o in all_obligations(spec) if o.name == lemma)
    owner, lem = next((inv, x) for inv in spec.invariants.values() for x in inv.lemmas if x.id == lemma)
    words = statement_words(spec, ob)
    assert f"Lemma {lemma} of invariant {owner.id}: {lem.statement}" in words
    declared = next(w for w in words if w.startswith("  declared (spec/invariants.yaml): "))
    assert declared.startswith(f"  declared (spec/invariants.yaml): {show(parse(lem.holds))}")
    # and its part about colours, said to be left to the card level
    assert lem.colours is not None
    assert declared.endswith(f"About colours (proved at the card level, by {lemma}.colours): "
                             f"{show(parse(lem.colours))}")


def test_explain_of_an_unknown_name_lists_close_ones() -> None:
    res = CliRunner().invoke(main, ["prove", "--explain", "card-conservatoin"])
    assert res.exit_code == 2
    assert "no obligation 'card-conservatoin'" in res.output and "did you mean card-conservation" in res.output
    assert "Traceback" not in res.output


def test_explain_with_only_is_refused_before_anything_runs() -> None:
    """--explain prints one obligation's explanation: with --only as well, the other
    obligations ran and set the exit code while nothing was printed of them."""
    res = CliRunner().invoke(main, ["prove", "--explain", "next-player", "--only", "card-conservation"])
    assert res.exit_code == 2
    assert "--only" in res.output and "--explain" in res.output
    assert "Traceback" not in res.output and "proved" not in res.output


def test_a_reading_that_puts_cards_under_the_deck_is_refused(spec: Spec, tmp_path: Path) -> None:
    """The model keeps which cards a deck holds, not their order, so palast prove refuses a
    house reading that puts cards under the draw deck (before, the differential check
    failed on a Maid's draw), and says why; the spec's own reading of that point runs."""
    from proofs.places_z3 import unordered_readings

    assert unordered_readings(spec) == {("maid-discard-destination", "under-deck"): "under_draw_deck"}
    res = CliRunner().invoke(main, ["prove", "--list", "--reading", "maid-discard-destination=under-deck"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "moves cards to under_draw_deck" in res.output and "not their order" in res.output
    assert "--reading: " in res.output
    # given in a ruleset file, the error names the file and the reading's key
    f = tmp_path / "hgud.yaml"
    f.write_text("name: hgud\nbase: reference\nreadings: {maid-discard-destination: under-deck}\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["prove", "--list", "--ruleset-file", str(f)])
    assert res.exit_code == 2 and f"{f}: readings.maid-discard-destination: hgud reads" in res.output, res.output
    res = CliRunner().invoke(main, ["prove", "--list", "--reading", "maid-discard-destination=discard-pile"])
    assert res.exit_code == 0, res.output


def test_house_rules_from_the_command_line_write_outside_the_checkout(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """A counterexample under a ruleset spec/ does not declare (--reading, --ruleset-file)
    goes to a directory outside the checkout, which a note names: a file in
    proofs/witnesses naming such a ruleset broke the replay of every later run (a fresh
    review found it). A named house ruleset keeps proofs/witnesses, where its stored
    counterexample is."""
    from proofs.search import WITNESS_DIR

    seen: list[Path | None] = []

    def fake_run(spec: Any, selected: Any, opts: Options, jobs: int = 1) -> list[Line]:
        seen.append(opts.out_dir)
        return []

    monkeypatch.setattr(runner, "run", fake_run)
    res = CliRunner().invoke(main, ["prove", "--only", "round-is-bounded", "--reading", "guard-other-card=itself-too"])
    assert res.exit_code == 0, res.output
    out = seen[-1]
    assert out is not None and WITNESS_DIR.resolve() not in out.resolve().parents
    assert f"go to {out}" in res.output
    assert not out.exists()  # nothing was written there, so it is not left behind

    def writing_run(spec: Any, selected: Any, opts: Options, jobs: int = 1) -> list[Line]:
        assert opts.out_dir is not None
        (opts.out_dir / "found.yaml").write_text("x: 1\n")
        seen.append(opts.out_dir)
        return []

    monkeypatch.setattr(runner, "run", writing_run)
    res = CliRunner().invoke(main, ["prove", "--only", "round-is-bounded", "--reading", "guard-other-card=itself-too"])
    out = seen[-1]
    assert res.exit_code == 0 and out is not None and (out / "found.yaml").is_file(), res.output
    shutil.rmtree(out)
    monkeypatch.setattr(runner, "run", fake_run)
    mine = tmp_path / "mine"  # a directory the user names is theirs, empty or not
    mine.mkdir()
    res = CliRunner().invoke(main, ["prove", "--only", "round-is-bounded", "--reading", "guard-other-card=itself-too",
                                    "--out", str(mine)])
    assert res.exit_code == 0 and seen[-1] == mine and mine.is_dir() and "go to" not in res.output, res.output
    res = CliRunner().invoke(main, ["prove", "--only", "round-is-bounded", "-r", "house-guard"])
    assert res.exit_code == 0 and seen[-1] is None and "go to" not in res.output, res.output


def test_house_rules_on_a_named_house_ruleset_expect_what_it_lists(spec: Spec, tmp_path: Path) -> None:
    """A ruleset derived from house-guard (a reading on top of it, or a ruleset file based
    on it) runs house-guard's prove list with its expectations. Before, it ran every
    obligation expecting what the reference does: guard-void ended no-such-state against an
    expected witness and the differential check found role.guard.void firing nowhere. Its
    expected counterexample is the one stored for house-guard, which the engine and Z3
    replay under it, so nothing is searched or written (a search took 185 s)."""
    from palast.formats.house import resolve
    from proofs.obligation import house_prove_lists

    name = "house-guard+neutral-tie=seat-order"
    derived = resolve(spec, name)
    listed = house_prove_lists(derived)
    assert listed[name] == listed["house-guard"]
    mine = [ob for ob in all_obligations(derived) if ob.ruleset == name]
    assert [(ob.name, ob.expect) for ob in mine] == list(listed["house-guard"].items())
    plain = "reference+neutral-tie=seat-order"  # derived from no house ruleset: no list
    assert plain not in house_prove_lists(resolve(spec, plain))
    rf = tmp_path / "hg2.yaml"
    rf.write_text("name: hg2\nbase: house-guard\nreadings: {neutral-tie: seat-order}\n")
    res = fresh_process("prove", "-v", "--ruleset-file", str(rf), "--only", "round-is-bounded", "--only", "guard-void",
                        "--out", str(tmp_path), timeout=1200)
    assert res.code == 0, res.stdout + res.stderr
    assert re.search(r"round-is-bounded +hg2 +counterexample", res.stdout), res.stdout
    assert re.search(r"guard-void +hg2 +no-such-state", res.stdout), res.stdout
    assert "(stored for house-guard, replayed under hg2)" in res.stdout, res.stdout
    assert "file: proofs/witnesses/round-is-bounded.house-guard.yaml" in res.stdout, res.stdout
    assert not list(tmp_path.glob("*.hg2.yaml"))


def test_a_rule_house_rules_make_unreachable_is_excused_by_the_runs_result(tmp_path: Path) -> None:
    """Under --reading guard-other-card=itself-too no Guard is ever void: role.guard.void
    fires in no compared position, and guard-void ends in no-such-state, not in the
    reference's expected witness. The differential check rests on that result (it ended
    unknown before). Without guard-void in the run it stays unknown and says why: that is
    :func:`test_settling_rests_on_the_result_in_the_same_ruleset` (a second differential run
    here would cost half a minute for the same lines)."""
    args = ["prove", "--reading", "guard-other-card=itself-too", "--only", "differential", "--json", "--out",
            str(tmp_path)]
    both = json.loads(fresh_process(*args, "--only", "guard-void", timeout=1200).stdout)
    by_name = {d["name"]: d for d in both["obligations"]}
    assert by_name["guard-void"]["result"] == "no-such-state"
    assert by_name["differential"]["result"] == "proved", by_name["differential"]["detail"]
    assert by_name["differential"]["excused"]["role.guard.void"] == "guard-void"


def test_settling_rests_on_the_result_in_the_same_ruleset() -> None:
    """A pending excuse holds only when its obligation ended in no-such-state under the
    line's own ruleset."""
    def line(name: str, ruleset: str, result: str, **kw: Any) -> Line:
        return Line(name, ruleset, result, "proved", 0.0, 0.0, "unsettled", (), (), False, **kw)

    pend = {"pending": (("role.guard.void", "guard-void"),), "settled": "all settled"}
    lines = [line("differential", "a", "unknown", **pend), line("guard-void", "a", "no-such-state"),
             line("differential", "b", "unknown", **pend), line("guard-void", "b", "witness"),
             line("differential", "c", "unknown", **pend), line("guard-void", "a", "no-such-state")]
    runner.settle(lines)
    assert (lines[0].result, lines[0].detail, lines[0].passed) == ("proved", "all settled", True)
    assert lines[0].excused == (("role.guard.void", "guard-void"),)
    assert lines[2].result == "unknown" and "guard-void (witness)" in lines[2].detail and not lines[2].passed
    assert lines[4].result == "unknown" and "guard-void (not run here)" in lines[4].detail


def _sleeper(seconds: float, result: str) -> Any:
    def run_it(spec: Any, opts: Options) -> Outcome:
        time.sleep(seconds)
        return Outcome(result, f"slept {seconds}")
    return run_it


def _fakes(spec: Spec) -> list[Obligation]:
    rs = list(spec.rulesets)
    # the first group is the slowest, so with two jobs the others finish before it
    return [Obligation("slow", rs[0], "proved", "slow", _sleeper(0.6, "proved"), cost=5.0),
            Obligation("quick", rs[1], "proved", "quick", _sleeper(0.0, "proved")),
            Obligation("wrong", rs[2], "proved", "wrong", _sleeper(0.1, "counterexample")),
            Obligation("quick2", rs[1], "proved", "quick2", _sleeper(0.0, "proved"))]


def test_two_jobs_give_the_lines_of_one_in_the_same_order(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "all_obligations", _fakes)  # the forked workers inherit it
    obs = _fakes(spec)
    one = run(spec, obs, Options(), jobs=1)
    two = run(spec, obs, Options(), jobs=2)
    assert [(x.name, x.ruleset, x.result, x.passed) for x in one] == \
        [(x.name, x.ruleset, x.result, x.passed) for x in two] == \
        [("slow", obs[0].ruleset, "proved", True), ("quick", obs[1].ruleset, "proved", True),
         ("wrong", obs[2].ruleset, "counterexample", False), ("quick2", obs[3].ruleset, "proved", True)]
    res = CliRunner().invoke(main, ["prove", "--jobs", "2"])
    assert res.exit_code == 1 and "FAILED (expected proved)" in res.output


def test_ctrl_c_stops_the_workers(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    def forever(spec: Any, opts: Options) -> Outcome:
        time.sleep(60)
        return Outcome("proved")

    obs = [Obligation("long", r, "proved", "long", forever) for r in spec.rulesets]
    monkeypatch.setattr(runner, "all_obligations", lambda spec: obs)
    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        run(spec, obs, Options(), jobs=2)
    assert time.perf_counter() - start < 15


def test_ctrl_c_during_a_finaliser_still_stops_the_workers(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C whose KeyboardInterrupt would be raised inside a finaliser (the garbage of
    many z3 terms is collected at any time) is swallowed there, and the run went on to its
    end: the likely cause of test_ctrl_c_stops_the_workers failing in two full test runs
    (its run ended after 120 s, never interrupted) and passing alone. The parent now only
    notes the Ctrl-C and polls for it."""
    class Slow:
        def __del__(self) -> None:
            time.sleep(1.5)  # the Ctrl-C arrives while this runs

    class Pool(runner.ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            Slow()  # collected at once: its finaliser runs here, in the main thread
            return super().submit(*args, **kwargs)

    def soon(spec: Any, opts: Options) -> Outcome:
        time.sleep(5)
        return Outcome("proved")

    obs = [Obligation("long", r, "proved", "long", soon) for r in spec.rulesets]
    monkeypatch.setattr(runner, "all_obligations", lambda spec: obs)
    monkeypatch.setattr(runner, "ProcessPoolExecutor", Pool)
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    with pytest.raises(Interrupted):
        run(spec, obs, Options(), jobs=2)


def test_a_dead_worker_is_reported(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    def die(spec: Any, opts: Options) -> Outcome:
        os._exit(3)

    obs = [Obligation("dies", r, "proved", "dies", die) for r in spec.rulesets]
    monkeypatch.setattr(runner, "all_obligations", lambda spec: obs)
    with pytest.raises(WorkerDied):
        run(spec, obs, Options(), jobs=2)
    res = CliRunner().invoke(main, ["prove", "-j", "2"])
    assert res.exit_code == 1 and "worker process died" in res.output and "Traceback" not in res.output


def test_an_interrupted_run_exits_130_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(spec: Any, opts: Options) -> Outcome:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "all_obligations",
                        lambda spec: [Obligation("stop", "reference", "proved", "stop", interrupt)])
    res = CliRunner().invoke(main, ["prove"])
    assert res.exit_code == 130 and "interrupted" in res.output and "Traceback" not in res.output


def _line(ruleset: str, coverage: tuple[tuple[str, int], ...]) -> Line:
    return Line("differential", ruleset, "proved", "proved", 1.0, 1.0, "", (), (), True, coverage)


def test_the_coverage_table_marks_rules_that_fire_nowhere(spec: Spec) -> None:
    rules = list(spec.rules)
    rows = coverage_table([_line("source-a", tuple((r, 0 if r == "round.end.six" else 2) for r in rules)),
                           _line("source-b", tuple((r, 1) for r in rules))])
    assert len(rows) == 2 + len(rules)
    six = next(r for r in rows if r.split()[0] == "round.end.six")
    assert six.split()[1:3] == ["-", "1"] and six.endswith("FIRES IN NO POSITION")
    assert all("FIRES" not in r for r in rows if r.split()[0] != "round.end.six")
    assert coverage_table([]) == []
    # with the spec, a rule the ruleset's reading withdraws is named as not applying
    sixth = "turn.action.sixth-card"
    rows = coverage_table([_line("source-a", tuple((r, 0 if r == sixth else 2) for r in rules))], spec)
    row = next(r for r in rows if r.split()[0] == sixth)
    assert row.endswith("not applying (sixth-card-action: round-end-only)"), row


def test_the_summary_wording_is_the_one_the_docs_quote() -> None:
    root = Path(__file__).parent.parent
    for doc in ("README.md", "docs/cli.md"):
        text = (root / doc).read_text(encoding="utf-8")
        quoted = re.findall(r"palast prove: \S+ obligations?, \S+ passed, \S+ failed in \S+ s", text)
        assert quoted, doc
    readme = (root / "README.md").read_text(encoding="utf-8")
    example = re.findall(r"^palast prove: .*$", readme, re.M)
    assert example and all(SUMMARY.match(q) for q in example)


def test_the_differential_check_rests_on_the_no_such_state_obligations(spec: Spec) -> None:
    """The rules it may find nowhere are excused only by obligations it names as lemmas,
    each expected to end in no-such-state under its ruleset; guard-void, a witness under
    the spec's rulesets, excuses nothing there, and excuses role.guard.void under
    house-guard, whose prove list declares it no-such-state."""
    from proofs.explain import lemmas
    from proofs.reachability import never_reached, rules_never_reached

    obs = all_obligations(spec)
    diffs = [o for o in obs if o.name == "differential"]
    assert [o.ruleset for o in diffs] == [*spec.rulesets, "house-guard", "fan"]
    for ob in diffs:
        excusing = list(never_reached(spec, ob.ruleset))
        # fan lists none of them: every rule fires in its compared positions (rulings included)
        assert [n for n, _ in lemmas(obs, ob)] == excusing == (
            ["maid-empty-deck", "empty-hand", "guard-void"] if ob.ruleset == "house-guard"
            else [] if ob.ruleset == "fan" else ["maid-empty-deck", "empty-hand"])
        assert all(o.expect == "no-such-state" for o in obs if o.name in excusing and o.ruleset == ob.ruleset)
        assert [o.expect for o in obs if o.key == f"guard-void@{ob.ruleset}"] == (
            ["no-such-state"] if ob.ruleset == "house-guard" else [] if ob.ruleset == "fan" else ["witness"])
    assert rules_never_reached(spec)["guard-void"] == ("role.guard.void",)


def test_the_coverage_table_says_why_per_ruleset(spec: Spec) -> None:
    """A rule that fires nowhere is excused under a ruleset only where that ruleset's check
    names the obligation (its line's excuses), and only while that obligation passed; the
    reasons are said per ruleset where they differ."""
    rules = list(spec.rules)
    void = "role.guard.void"
    counts = tuple((r, 0 if r == void else 2) for r in rules)
    house = Line("differential", "house-guard", "proved", "proved", 1.0, 1.0, "", (), (), True, counts,
                 ((void, "guard-void"),))
    base = _line("reference", counts)

    def ob_line(result: str, passed: bool) -> Line:
        return Line("guard-void", "house-guard", result, "no-such-state", 1.0, 1.0, "", (), (), passed)

    def row(lines: list[Line]) -> str:
        return next(r for r in coverage_table(lines, spec) if r.split()[0] == void)

    assert row([house, ob_line("no-such-state", True)]).endswith("  - never reached (guard-void)")
    assert row([house]).endswith("  - never reached (guard-void, not run here)")
    assert row([house, ob_line("witness", False)]).endswith("  - FIRES IN NO POSITION (guard-void failed)")
    both = row([base, house, ob_line("no-such-state", True)])
    assert both.endswith("  - reference: FIRES IN NO POSITION; house-guard: never reached (guard-void)"), both
    # a rule house-guard's reading withdraws (its base's) is named so, although the base spec
    # does not have house-guard among its rulesets
    sixth = "turn.action.sixth-card"
    rows = coverage_table([Line("differential", "house-guard", "proved", "proved", 1.0, 1.0, "", (), (), True,
                                tuple((r, 0 if r == sixth else 2) for r in rules))], spec)
    assert "house-guard" not in spec.rulesets
    row_sixth = next(r for r in rows if r.split()[0] == sixth)
    assert row_sixth.endswith("  - not applying (sixth-card-action: round-end-only)"), row_sixth


def test_a_module_s_reading_is_refused_and_a_compiled_step_s_is_not(spec: Spec) -> None:
    """The model carries out step next-player from its declarations, so a house reading of
    neutral-count-zone (a point no engine parameter sets) is proved like any other; the
    fan module's rules are compiled too, but what is proved with a module in play is what a
    named house ruleset switching it on lists, so switching it on with --reading (or with
    fan-b, which lists nothing) is refused up front, and -r fan and rules on top of it are not."""
    from proofs.legality import modelled_points

    assert {"neutral-count-zone", "neutral-tie"} <= modelled_points(spec)
    assert not {p for p in modelled_points(spec) if p.startswith("fan-")}
    res = CliRunner().invoke(main, ["prove", "--only", "no-such-obligation-here", "--reading", "fan-expansion=on"])
    assert res.exit_code == 2 and "a reading of a rule module's" in res.output and "-r fan" in res.output, res.output
    # a ruleset derived from fan takes its list; fan-b lists nothing, so it is refused
    res = CliRunner().invoke(main, ["prove", "--list", "-r", "fan", "--reading", "game-end-tiebreak=most-played-total"])
    assert res.exit_code == 0 and re.search(r"^differential +fan\+game-end-tiebreak", res.output, re.M), res.output
    res = CliRunner().invoke(main, ["prove", "--list", "-r", "fan-b"])
    assert res.exit_code == 2 and "a reading of a rule module's" in res.output, res.output
    # a ruleset taking the list of a named house ruleset that does not switch the module on
    # is refused too (house-guard's list expects proved what the module breaks)
    res = CliRunner().invoke(main, ["prove", "--list", "-r", "house-guard", "--reading", "fan-expansion=on"])
    assert res.exit_code == 2 and "house-guard+fan-expansion=on reads fan-expansion as on, a reading of a rule " \
        "module's" in res.output, res.output
    # and it says whose list that is, and how that one reads the switch
    assert "; house-guard's prove list, which house-guard+fan-expansion=on takes, is for fan-expansion=off" \
        in " ".join(res.output.split()), res.output
    res = CliRunner().invoke(main, ["prove", "--list", "--reading", "neutral-count-zone=cards-in-hand"])
    assert res.exit_code == 0 and "reference+neutral-count-zone=cards-in-hand" in res.output, res.output
    res = CliRunner().invoke(main, ["prove", "--list", "-r", "fan"])
    assert res.exit_code == 0 and re.search(r"^differential +fan ", res.output, re.M), res.output
    # the module's declared breaks are replayed under it too, beside what its list names
    assert re.search(r"^module:fan:hand-plus-display +fan ", res.output, re.M), res.output


def test_prove_of_another_spec_writes_nothing_into_the_checkout(tmp_path: Path) -> None:
    """palast --spec DIR prove, with DIR another spec than the checkout's, writes its
    counterexamples to a new directory it names, not into proofs/witnesses/ (the fresh review
    found two such files left there)."""
    from palast.spec.load import default_spec_dir

    copy = tmp_path / "spec"
    shutil.copytree(default_spec_dir(), copy)
    witnesses = Path(__file__).resolve().parent.parent / "proofs" / "witnesses"
    before = sorted(p.name for p in witnesses.iterdir())
    res = CliRunner().invoke(main, ["--spec", str(copy), "prove", "--only", "banned-role", "-r", "source-b"])
    assert res.exit_code == 0, res.output
    assert f"witnesses and counterexamples of the spec in {copy} go to " in res.output, res.output
    assert sorted(p.name for p in witnesses.iterdir()) == before
    named = re.search(r" go to (\S+) \(--out DIR", res.output)
    assert named is not None and not Path(named.group(1)).exists()  # proved: nothing written, nothing left


def test_json_lists_and_refuses_as_json() -> None:
    """``prove --list --json`` is one document (each obligation with what it expects and
    why); bad input under ``--json`` is an error document on standard output, exit 2, as
    ``palast ask --json`` gives (it was text only)."""
    res = CliRunner().invoke(main, ["prove", "--list", "--json", "--only", "cupbearer-actor-repeat"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    by = {ob["ruleset"]: ob for ob in doc["obligations"]}
    assert by["source-b"]["expect"] == "counterexample" and "cupbearer-actor-duplicate" in by["source-b"]["because"]
    assert by["source-a"]["expect"] == "proved" and by["source-a"]["because"] == ""
    for args, place in ((["-r", "nope"], "--ruleset"), (["--only", "nope"], "--only")):
        res = CliRunner().invoke(main, ["prove", "--json", *args])
        assert res.exit_code == 2, res.output
        err = json.loads(res.stdout)["error"]
        assert err["place"] == place and "nope" in err["message"]


REACH_GUARD = '''    fires: [role.guard.void]
    expect: witness
    witnesses:
      - title: A Guard with nothing to take back
        ruleset: reference
        players: 3
        max_steps: 3
'''
REACH_SIXTH = '''      old(decision) == play and played(old(decider)) == six
      and count(display(old(decider))) < six and not ended
'''


def test_a_reachability_question_expecting_no_rule_to_fire_fails_where_one_does(tmp_path: Path) -> None:
    """The reachability questions are read from spec/invariants.yaml: declaring that
    role.guard.void never fires (it does, under source-a) makes guard-void fail there,
    naming the action and player count; declaring a question about a rule that cannot fire
    from a real deal (turn.empty-hand) passes as no-such-state."""
    from tests.spec_copy import edited_spec

    root = edited_spec(tmp_path, "invariants.yaml", REACH_GUARD,
                       "    fires: [role.guard.void]\n    expect: no-such-state\n")
    res = CliRunner().invoke(main, ["--spec", str(root), "prove", "--only", "guard-void", "-r", "source-a", "-v"])
    assert res.exit_code == 1, res.output
    # a position satisfying the strengthening is not a game: the answer is not a witness
    assert re.search(r"guard-void +source-a +unknown", res.output), res.output
    assert "fires role.guard.void (3 players, play); that need not be a position of real play" in res.output
    # a rule the model carries out without a flag of its own cannot be asked about: before,
    # it was found never to fire (round.end.six fires in most rounds)
    root = edited_spec(tmp_path / "c", "invariants.yaml", REACH_GUARD,
                       "    fires: [role.maid.empty-deck, round.end.six]\n    expect: no-such-state\n")
    res = CliRunner().invoke(main, ["--spec", str(root), "prove", "--only", "guard-void", "-r", "source-a", "-v"])
    assert res.exit_code == 1, res.output
    assert re.search(r"guard-void +source-a +error", res.output), res.output
    assert "the model marks no path of round.end.six" in res.output, res.output
    root = edited_spec(tmp_path / "b", "invariants.yaml", REACH_GUARD,
                       "    fires: [turn.empty-hand]\n    expect: no-such-state\n")
    res = CliRunner().invoke(main, ["--spec", str(root), "prove", "--only", "guard-void", "-r", "source-a", "-v"])
    assert res.exit_code == 0, res.output
    assert "satisfying the strengthening fires turn.empty-hand (3, 4, 5 players, role level)" in res.output, res.output


@pytest.mark.parametrize(("old", "new", "said"), [
    (REACH_GUARD, "    fires: [role.guard.voids]\n" + REACH_GUARD.split("\n", 1)[1],
     "(reachability[2].fires[0]): unknown rule 'role.guard.voids'"),
    (REACH_GUARD, "    fires: [role.guard.void]\n    expect: witness\n", "(reachability[2]): give witnesses"),
    (REACH_GUARD, REACH_GUARD.replace("ruleset: reference", "ruleset: referee"),
     "(reachability[2].witnesses[0].ruleset): unknown ruleset 'referee'"),
    (REACH_SIXTH, REACH_SIXTH.replace("not ended", "not endded"), "(reachability[6].reaches): unknown name 'endded'"),
    (REACH_SIXTH, "      count(display(old(decider)))\n", "(reachability[6].reaches): must be a condition, not int"),
    (REACH_SIXTH, REACH_SIXTH.replace("not ended", "not old(old(ended))"), "old(...) inside old(...)"),
    # the proofs' model counts a zone's cards by kind: a condition reading their order would
    # mean one thing to the engine and another to Z3 (a no-such-state answer is Z3's alone)
    (REACH_SIXTH, REACH_SIXTH.replace("not ended", "not ended and any(p in players, display(p) != "
                                                   "in_order(display(p)))"), "compare in_order(...) of each"),
    (REACH_SIXTH, REACH_SIXTH.replace("not ended", "not ended and role(first(display(old(decider)))) == guard"),
     "take first(in_order(...))"),
    ("    fires: [role.cupbearer.void]\n    reaches: number(p in players, count(display(p)) > (1 if p == old(decider) "
     "else 0)) >= 2\n", "", "(reachability[4]): say what the question asks about"),
    ("until: highest(p in players, score(p)) >= target - 1", "until: old(round) >= 1",
     "rounds_before.until): old(...) reads the position before an action"),
    ("take-back, play]", "take-back, plays]", "sketch[11]): unknown decision 'plays'"),
    # the sketch guides the search one decision per action, in the order of the turn flow
    ("take-back, play]", "take-back]", "sketch): the sketch names 11 decisions, fewer than min_steps (12)"),
    ("play, swap, play,", "play, swap, swap,", "sketch[9]): 'swap' cannot come right after 'swap'"),
    ("        rulesets: [source-b]\n        players: 3\n        max_steps: 6\n  - id: cupbearer-actor-whisper",
     "        rulesets: [source-b, reference]\n        players: 3\n        max_steps: 6\n"
     "  - id: cupbearer-actor-whisper", "witnesses[1].rulesets[1]): another witness of cupbearer-void-two-displays "
     "already answers it under reference"),
    # a search must never write over another obligation's stored game
    ("file: cupbearer-void-two-displays.actor-and-one.yaml", "file: cupbearer-actor-repeat.source-b.yaml",
     "witnesses[1].file): a witness of cupbearer-void-two-displays is stored as cupbearer-void-two-displays.yaml or "
     "cupbearer-void-two-displays.NAME.yaml, not cupbearer-actor-repeat.source-b.yaml"),
    ("file: cupbearer-void-two-displays.actor-and-one.yaml", "file: cupbearer-void-two-displays.any-two.yaml",
     "witnesses[1].file): cupbearer-void-two-displays.any-two.yaml is already the file of another witness"),
    # an id given twice: the second is refused at its own place (the spec keeps one per id)
    ("  - id: empty-hand\n", "  - id: maid-empty-deck\n",
     "(reachability[1].id): 'maid-empty-deck' is already the id of a reachability question"),
], ids=["unknown-rule", "no-witness", "unknown-ruleset", "reaches-unknown-name", "reaches-no-condition", "old-in-old",
        "laid-order", "first-laid", "asks-nothing", "until-reads-old", "sketch-unknown-decision", "sketch-short",
        "sketch-out-of-flow", "ruleset-twice",
        "file-of-another", "file-twice", "id-twice"])
def test_spec_check_refuses_a_bad_reachability_question(tmp_path: Path, old: str, new: str, said: str) -> None:
    from tests.spec_copy import edited_spec

    root = edited_spec(tmp_path, "invariants.yaml", old, new)
    res = CliRunner().invoke(main, ["--spec", str(root), "spec", "check"])
    assert res.exit_code == 1, res.output
    assert "invariants.yaml: line" in res.output and said in res.output, res.output
    assert "Traceback" not in res.output


def test_a_reachability_question_named_like_another_obligation_is_refused(tmp_path: Path) -> None:
    """Two obligations of one name would hide one result behind the other (differential's
    line was printed twice and the coverage rested on itself)."""
    from tests.spec_copy import edited_spec

    root = edited_spec(tmp_path, "invariants.yaml", "  - id: empty-hand\n", "  - id: differential\n")
    res = CliRunner().invoke(main, ["--spec", str(root), "prove", "--list"])
    assert res.exit_code == 2, res.output
    assert "(reachability[1].id): the reachability question 'differential' has the name of another obligation" \
        in res.output, res.output
    assert "Traceback" not in res.output


def test_a_false_colours_part_of_a_lemma_fails_its_card_level_obligation(tmp_path: Path) -> None:
    """The role level, where decisions-well-formed is proved, leaves its colours part out:
    the obligation decisions-well-formed.colours proves that part at the card level, so a
    false one ("no display holds a neutral card") ends in a replayed counterexample."""
    from tests.spec_copy import edited_spec

    root = edited_spec(tmp_path, "invariants.yaml", "colours: decision != next_player or neutral(card)",
                       "colours: (decision != next_player or neutral(card)) and all(p in players, "
                       "all(c in display(p), not neutral(c)))")
    res = CliRunner().invoke(main, ["--spec", str(root), "prove", "--only", "decisions-well-formed.colours",
                                    "-r", "reference", "--out", str(tmp_path / "out"), "-v"])
    assert res.exit_code == 1, res.output
    assert re.search(r"decisions-well-formed.colours +reference +counterexample", res.output), res.output
    assert re.search(r"3 players: a [a-z-]+ action breaks it; \d action\(s\) from a play, which the engine replays",
                     res.output), res.output


def test_explain_of_a_reachability_question_gives_its_declared_answer(spec: Spec) -> None:
    ob = next(o for o in all_obligations(spec) if o.name == "maid-empty-deck" and o.ruleset == "reference")
    words = statement_words(spec, ob)
    asked = spec.reachability["maid-empty-deck"]
    assert words[0] == asked.question  # the question as declared, not "…?."
    said = f"Declared answer (no-such-state under source-a, source-b, reference): {asked.statement}"
    assert words[1].startswith(said)
    assert words[2] == "  the rules asked about: role.maid.empty-deck"


def test_explain_names_the_rulesets_a_question_is_asked_under(spec: Spec) -> None:
    """cupbearer-actor-whisper has a stored game for source-b only, and is asked there only."""
    ob = next(o for o in all_obligations(spec) if o.name == "cupbearer-actor-whisper")
    words = statement_words(spec, ob)
    assert words[1].startswith("Declared answer (witness under source-b): "), words[1]
    assert "  stored game for source-b: proofs/witnesses/cupbearer-actor-whisper.yaml" in words


def test_json_says_what_a_module_breaks_and_leaves_unproved_when_its_breaks_were_checked() -> None:
    res = CliRunner().invoke(main, ["prove", "--json", "-r", "fan", "--only", "module:fan:round-is-bounded"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [(m["module"], m["ruleset"], m["not_proved"]) for m in doc["modules"]] == [("fan", "fan", [])]
    assert "round-is-bounded" in doc["modules"][0]["breaks"]
    # no module check asked: no module facts
    res = CliRunner().invoke(main, ["prove", "--json", "-r", "reference", "--only", "maid-empty-deck"])
    assert res.exit_code == 0 and "modules" not in json.loads(res.stdout)


def test_explain_reads_a_named_house_ruleset_s_reading_from_its_resolved_spec(spec: Spec) -> None:
    # the statement of an invariant with readings, under a named house ruleset (fan), names
    # the reading fan takes; the base spec knows no ruleset fan (palast prove --explain
    # next-player, run under every ruleset, stopped with a KeyError there)
    ob = next(o for o in all_obligations(spec) if o.name == "next-player" and o.ruleset == "fan")
    words = "\n".join(statement_words(spec, ob))
    assert "(as fan reads neutral-tie: player-who-played)" in words, words


def test_an_explained_name_no_house_ruleset_states_blames_explain() -> None:
    res = CliRunner().invoke(main, ["prove", "-r", "house-guard", "--explain", "next-player"])
    assert res.exit_code == 2
    assert "--explain: no obligation named so is stated for house-guard" in res.output, res.output


@pytest.mark.parametrize("option", ["--explain", "--only"])
def test_a_name_stated_under_other_rulesets_only_is_refused(option: str) -> None:
    """A module's obligation asked under a ruleset without the module: nothing would run.
    Before, under a ruleset of the spec (not a house one), that printed nothing, or "0
    obligations", and exited 0; --json said "passed": true."""
    for args in (["prove", option, "module:fan:round-progress", "-r", "reference"],
                 ["prove", "--json", option, "module:fan:round-progress", "-r", "source-a"]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        named = "named 'module:fan:round-progress'" if option == "--only" else "named so"
        assert f"{option}: no obligation {named} is stated for" in res.output, res.output
        assert '"passed"' not in res.output and "Traceback" not in res.output
    # one --only name of several that selects nothing is refused too; before, the others ran
    res = CliRunner().invoke(main, ["prove", "-r", "house-guard", "--only", "banned-role", "--only", "next-player"])
    assert res.exit_code == 2 and "--only: no obligation named 'next-player' is stated for house-guard" in res.output


def test_explain_with_json_puts_the_explanation_in_the_document() -> None:
    """--json --explain NAME: the document of the run, and the explanation's lines per
    ruleset, as printed without --json (before, --json dropped them without a word)."""
    res = CliRunner().invoke(main, ["prove", "--json", "--explain", "banned-role", "-r", "reference"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [(o["name"], o["ruleset"]) for o in doc["obligations"]] == [("banned-role", "reference")]
    [got] = doc["explanations"]
    assert (got["name"], got["ruleset"]) == ("banned-role", "reference")
    text = CliRunner().invoke(main, ["prove", "--explain", "banned-role", "-r", "reference"]).stdout
    assert got["lines"][:3] == text.splitlines()[:3]
    assert got["lines"][0] == "banned-role under reference (family king), expects proved"
    assert any(line.strip().startswith("result: proved") for line in got["lines"]), got["lines"]
    plain = json.loads(CliRunner().invoke(main, ["prove", "--json", "--only", "banned-role", "-r", "reference"]).stdout)
    assert "explanations" not in plain


def test_explain_names_what_the_obligation_assumes_through_its_assumptions(spec: Spec) -> None:
    # next-player assumes decisions-well-formed (and its colours part) directly; those assume
    # the whole strengthening, which --explain names after them, each once
    res = CliRunner().invoke(main, ["prove", "--explain", "next-player", "-r", "reference"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    direct = lines.index("  assumes (proved by the obligations of the same name; it counts only if they pass):")
    through = next(i for i, x in enumerate(lines) if x.startswith("  and through those"))
    end = next(i for i, x in enumerate(lines) if x.startswith("  result:"))
    named = [[x.split(":")[0].strip() for x in lines[a + 1:b]] for a, b in ((direct, through), (through, end))]
    assert named[0] == ["decisions-well-formed", "decisions-well-formed.colours"]
    obs = [o for o in all_obligations(spec) if o.ruleset == "reference"]
    ob = next(o for o in obs if o.name == "next-player")
    by_name = {o.name: o for o in obs}
    closure: set[str] = set()
    todo = list(ob.needs)
    while todo:
        n = todo.pop()
        if n not in closure and n in by_name:
            closure.add(n)
            todo.extend(by_name[n].needs)
    assert "card-conservation" in named[1] and "round-is-bounded" in named[1]
    assert sorted(named[1]) == sorted(closure - set(named[0]) - {"next-player"})
    # one whose assumptions assume nothing more has no such part: card-conservation, at the
    # card level, assumes the whole strengthening and the colours part already
    res = CliRunner().invoke(main, ["prove", "--explain", "card-conservation", "-r", "reference"])
    assert res.exit_code == 0 and "and through those" not in res.output, res.output


def test_a_modules_checks_run_under_house_rules_on_top_of_the_ruleset_switching_it_on(spec: Spec) -> None:
    """House rules on top of ``fan`` (a reading, or a ruleset file based on it) keep the
    module in play, so its checks of the invariants it declares broken run under the
    derived ruleset too (they were left out: only the named ruleset had them); with the
    module switched off there, none runs."""
    derived = "fan+neutral-tie=seat-order"
    res = CliRunner().invoke(main, ["prove", "--list", "-r", "fan", "--reading", "neutral-tie=seat-order"])
    assert res.exit_code == 0, res.output
    breaks = {b.invariant for b in spec.modules["fan"].breaks}
    listed = {line.split()[0] for line in res.output.splitlines() if line.startswith("module:fan:")}
    assert listed == {f"module:fan:{i}" for i in breaks}, res.output
    assert all(line.split()[1] == derived for line in res.output.splitlines() if line.startswith("module:")), res.output
    one = f"module:fan:{sorted(breaks)[0]}"
    res = CliRunner().invoke(main, ["prove", "-r", "fan", "--reading", "neutral-tie=seat-order", "--only", one, "-v"])
    assert res.exit_code == 0, res.output
    assert re.search(rf"{re.escape(one)} +{re.escape(derived)} +counterexample", res.output), res.output
    assert f"under {derived}, " in res.output, res.output
    assert f"module fan ({derived}): breaks " in res.output, res.output  # the ruleset it ran under
    doc = json.loads(CliRunner().invoke(main, ["prove", "-r", "fan", "--reading", "neutral-tie=seat-order",
                                               "--only", one, "--json"]).stdout)
    assert [m["ruleset"] for m in doc["modules"]] == [derived], doc["modules"]
    from proofs.modules import check_break

    out = check_break(spec, "fan", sorted(breaks)[0], "reference")
    assert out.result == "error" and "reference does not read fan-expansion as on" in out.detail, out.detail
    res = CliRunner().invoke(main, ["prove", "--list", "-r", "fan", "--reading", "fan-expansion=off"])
    assert res.exit_code == 0 and "module:" not in res.output, res.output


def test_round_progress_failing_under_house_rules_ends_in_a_replayed_counterexample(tmp_path: Path) -> None:
    """Where round-progress fails (a Guard may take itself back, which no reading declares
    breaks it), Z3's counterexample is searched, replayed by the engine and written
    (proofs.step.declared_step_counterexample), not only named."""
    derived = "reference+guard-other-card=itself-too"
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["prove", "-r", "reference", "--reading", "guard-other-card=itself-too",
                                    "--only", "round-progress", "--out", str(out), "-v"])
    assert res.exit_code == 1, res.output
    assert re.search(rf"round-progress +{re.escape(derived)} +counterexample .*FAILED \(expected proved\)",
                     res.output), res.output
    assert re.search(r"3 players: a take-back action breaks it; \d action\(s\) from a play, which the engine replays",
                     res.output), res.output
    assert [p.name for p in out.iterdir()] == [f"round-progress.{derived}.yaml"]
