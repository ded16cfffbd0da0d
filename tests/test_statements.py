"""Statements of the rule language (palast/lang/statements.py, palast/lang/blocks.py) and
their compiled form (palast/engine/codegen.py): what spec check refuses in a do block, and
that a changed declaration changes what the engine does, with no engine code touched."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from palast.engine import Game, Play
from palast.errors import SpecError
from palast.spec.load import Spec, load_spec
from tests.spec_copy import ROOT, edited_spec

WIZARD_PARTNER = """            - emit: exchange_partner
              player: actor
              other: partner"""


def test_a_name_read_after_a_step_is_refused(tmp_path: Path) -> None:
    """Names do not live past a step: reading the Wizard's partner after a step applied in
    between is reported at the statement that reads it."""
    copy = edited_spec(tmp_path, "roles.yaml", WIZARD_PARTNER, "            - step: reveal-king\n" + WIZARD_PARTNER)
    where = r"roles\.yaml: line \d+, column \d+ \(roles\[1\]\.rules\[0\]\.logic\.do\[2\]\): "
    with pytest.raises(SpecError, match=where + r"'partner' was named before a step"):
        load_spec(copy)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("            - emit: card_taken_back\n", "            - emit: card_taken_backk\n",
     "unknown event 'card_taken_backk'"),
    ("            - choose: take-back\n", "            - choose: take-backk\n", "unknown decision 'take-backk'"),
    ("            - move: taken\n              from: display(actor)\n",
     "            - move: taken\n              from: display(nobodyy)\n", "unknown name 'nobodyy'"),
    ("                - end_round: round.end.whisper\n", "                - end_round: role.guard\n",
     "'role.guard' is no rule of step round-end"),
    ("            - part: draw\n", "            - part: drow\n", "the rule has no part 'drow'"),
])
def test_spec_check_refuses_a_broken_statement(tmp_path: Path, old: str, new: str, message: str) -> None:
    copy = edited_spec(tmp_path, "roles.yaml", old, new)
    with pytest.raises(SpecError, match=message):
        load_spec(copy)


def test_statements_after_a_final_statement_are_refused(tmp_path: Path) -> None:
    """Nothing after ``goto`` is carried out, so a statement there is reported."""
    copy = edited_spec(tmp_path, "rules.yaml", "        - goto: turn-over\n",
                       "        - goto: turn-over\n        - emit: scores_start\n")
    with pytest.raises(SpecError, match="nothing after goto is carried out"):
        load_spec(copy)


def test_a_changed_statement_changes_the_game(tmp_path: Path) -> None:
    """The Guard's declared move sends the card back to the hand; declared to the discard
    pile instead, the same engine puts it there (data only)."""
    copy = edited_spec(tmp_path, "roles.yaml", "              from: display(actor)\n              to: hand(actor)\n",
                       "              from: display(actor)\n              to: discard_pile\n")
    spec = load_spec(copy)
    game = Game(spec, "reference", ["red", "blue", "green"])
    state = game.initial_state()
    rng = random.Random(3)
    while True:  # play until a Guard takes a card back
        if state.decision.is_chance:
            state = game.apply(state, game.sample_chance(state, rng)).state
            continue
        acts = game.legal_actions(state)
        step = game.apply(state, acts[int(rng.random() * len(acts))])
        taken = [e for e in step.events if e.kind == "card_taken_back"]
        if taken:
            assert taken[0].card in step.state.discard
            assert taken[0].card not in step.state.hands[taken[0].player]
            return
        state = step.state
        assert not state.decision.is_terminal


def test_chains_number_back_to_their_rules(spec: Spec) -> None:
    """A selector names the chain of rules that applies by a number; decoding it gives back
    the rules and readings (here: a banned Jester's forced play under source-a)."""
    game = Game(spec, "source-a", ["red", "blue", "green"])
    runner = game.runner
    state = game.initial_state()
    rng = random.Random(1)
    seen = set()
    for _ in range(300):
        if state.decision.is_terminal:
            break
        if state.decision.is_chance:
            state = game.apply(state, game.sample_chance(state, rng)).state
            continue
        seen.add(state.decision.rule.split("|")[0])
        acts = game.legal_actions(state)
        state = game.apply(state, acts[int(rng.random() * len(acts))]).state
    assert "turn.play" in seen
    for key in seen:
        chain = runner.parse_chain(key)
        assert chain.key == key


def test_an_illegal_play_names_the_rule_that_leaves_it_out(spec: Spec) -> None:
    """A banned Jester is refused by king.jester (its clauses), a card not in hand by turn.play."""
    from palast.errors import IllegalActionError
    from palast.formats.scenario import parse_scenario

    text = ("players: [red, blue, green]\nto_move: red\nbanned: jester\n"
            "hands:\n  red: [jester/grey, maid/red]\n")
    sc = parse_scenario(text, spec, "x.yaml")
    game = sc.game(spec, "reference")
    state = sc.start(game)
    jester = next(c for c in state.hands[0] if game.cards.role_of(c) == spec.roles.index("jester"))
    with pytest.raises(IllegalActionError) as exc:
        game.apply(state, Play(jester))
    assert str(exc.value).startswith("a banned Jester may not be played")
    assert set(exc.value.clauses) == set(spec.rule_clauses("king.jester", "reference"))
    other = next(c for c in game.all_cards if c not in state.hands[0])
    with pytest.raises(IllegalActionError, match="not in the player's hand"):
        game.apply(state, Play(other))


def test_a_negative_number_of_cards_to_pick_is_a_rules_error_not_a_traceback(tmp_path: Path) -> None:
    """The Wizard's least number declared as ``0 - 1`` (a data-only edit spec check cannot
    judge) lets the count be -1; the picks of -1 cards then stop ask with exit 2 and a
    message, where itertools raised a ValueError and ask ended in a traceback."""
    dst = edited_spec(tmp_path, "roles.yaml", 'at-least-one: {let: {least: "1"}}',
                      'at-least-one: {let: {least: "0 - 1"}}')
    run = subprocess.run([sys.executable, "-m", "palast", "--spec", str(dst), "ask",
                          "examples/wizard-hands-2-and-4.yaml"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "the rules ask for the picks of -1 cards" in run.stderr and "Traceback" not in run.stderr


def test_a_decision_made_anew_by_the_generated_rules_is_the_dataclass_one() -> None:
    """``new_decision`` (the fast path the generated rules open decisions with) makes a
    decision equal to the dataclass's, with the same hash, fields and pickled form, and as
    frozen."""
    import dataclasses
    import pickle

    from palast.engine.state import DECISION_FIELDS, Decision, new_decision

    values = ("swap", 1, 2, 3, (4, 5), (0, 2), True, "p", ("a", "b"), ((1, 2),), "r|s|t", ("f",), True)
    made, standard = new_decision(*values), Decision(*values)
    assert made == standard and hash(made) == hash(standard) and type(made) is Decision
    assert tuple(getattr(made, f) for f in DECISION_FIELDS) == values
    assert pickle.loads(pickle.dumps(made)) == standard and repr(made) == repr(standard)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.player = 2  # type: ignore[misc]


def test_a_name_an_exception_may_give_is_read_as_it_runs_after_it(tmp_path: Path) -> None:
    """A selector writes a name given ``true`` or ``false`` as that literal in the
    expressions after it; after an exception that may give the name another value (the
    forced play a hand of banned Jesters gives), it reads the variable again. Made to read
    ``forced``, the duplicate-play exception applies where the rules as interpreted
    (:meth:`Runner.select`) say it does: the chain each play decision records is theirs."""
    from tests.positions import random_walk

    when = "any(c in playable, role(c) in roles(display(actor)))"
    copy = edited_spec(tmp_path, "rules.yaml", "        " + when, "        not forced and " + when)
    spec = load_spec(copy)
    game = Game(spec, "reference", list(spec.player_colours[:4]))
    chains = []
    for seed in range(8):
        for state, _ in random_walk(game, seed, 60):
            if state.decision.kind == "play":
                chosen = game.runner.select("turn", state)  # type: ignore[arg-type]  # it reads the fields
                assert chosen is not None and not hasattr(chosen, "point")
                assert state.decision.rule.split("|")[0] == chosen.chain.key  # type: ignore[union-attr]
                chains.append(chosen.chain.key)  # type: ignore[union-attr]
    assert any("turn.play.duplicate" in key for key in chains)
