"""The Z3 model carries out the role rules' statements from their declarations
(:mod:`proofs.statements_z3`, issue 14 point 1): an effect edited in ``spec/`` alone
changes the model as it changes the engine, so the two still agree and the model of the
old declarations no longer does; and the flags the obligations ask about are reachable."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from palast.engine import Game
from palast.engine.state import DecisionKind
from palast.spec.load import load_spec
from proofs.differential import Differ, compare_all, positions
from proofs.encoding import Layout, ZState, code
from proofs.invariant import make_game
from proofs.statements_z3 import COMPILED_STEPS
from proofs.transition import Label, Transition
from tests.spec_copy import edited_spec

K = DecisionKind
#: Effects changed in spec/roles.yaml alone, each with the decision whose action it changes:
#: the Guard's card taken back goes to the discard pile instead of the hand; the card a
#: Cupbearer takes from the second display goes to the discard pile instead of the first.
EDITS = {
    "guard": (K.TAKE_BACK, """            - move: taken
              from: display(actor)
              to: hand(actor)""", """            - move: taken
              from: display(actor)
              to: discard_pile"""),
    "cupbearer": (K.SWAP, """            - move: y
              from: display(b)
              to: display(a)""", """            - move: y
              from: display(b)
              to: discard_pile"""),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_effect_edited_in_data_changes_the_model_with_the_engine(tmp_path: Path, edit: str) -> None:
    kind, old_text, new_text = EDITS[edit]
    spec = load_spec()
    edited = load_spec(edited_spec(tmp_path, "roles.yaml", old_text, new_text))
    items = [p for p in positions(edited, "reference", states=150)
             if p[3] is None and p[2].decision.kind is kind]
    assert len(items) >= 5, "too few positions to compare"
    # the model compiled from the edited declarations agrees with the edited engine ...
    same = compare_all(edited, items, never_reached={})
    assert same.result != "counterexample", same.detail
    assert "successors agree" in same.detail

    # ... and the model of the old declarations does not: the card lands elsewhere
    def old_model(game: Game) -> Differ:
        differ = Differ(make_game(spec, game.ruleset, game.n))  # Z3 from the old declarations
        differ.game = game  # compared with the edited engine
        return differ

    old = compare_all(edited, items, encode=old_model, never_reached={})
    assert old.result == "counterexample", old.detail
    assert kind.value in old.detail


def _play_flags(ruleset: str, n: int = 3) -> tuple[ZState, Label, object, dict[str, object]]:
    spec = load_spec()
    lay = Layout(make_game(spec, ruleset, n), "role")
    s = ZState.fresh(lay, "s")
    label = Label.fresh(lay, "a")
    legal, after = Transition(lay).step(s, label, K.PLAY)
    return s, label, legal, after.flags


@pytest.mark.parametrize("flag", ["rule:role.guard.void", "rule:role.maid.empty-deck", "point:action-impossible",
                                  "rule:role.wizard", "rule:role.marshal", "rule:king.reshuffle"])
def test_the_flags_obligations_ask_about_are_set_on_a_reachable_path(flag: str) -> None:
    """Each flag an obligation names (reachability: guard-void, maid-empty-deck, empty-hand)
    exists after a play and can hold for a legal play from some position (the obligations
    then prove that no position satisfying the strengthening gets there, which says
    something only if the flag is not false by construction)."""
    s, _, legal, flags = _play_flags("reference")
    assert flag in flags, sorted(flags)
    solver = z3.Solver()
    solver.add(s["dk"] == code(K.PLAY), legal, flags[flag])  # type: ignore[arg-type]
    assert solver.check() == z3.sat


def test_a_rule_off_under_the_ruleset_sets_no_flag() -> None:
    """A rule a reading switches off (the fan module's) is not compiled: no flag names it."""
    _, _, _, flags = _play_flags("reference")
    assert not [f for f in flags if f.startswith("rule:fan.")]
    assert "role-action" in COMPILED_STEPS


@pytest.mark.parametrize("ruleset", ["reference", "source-b"])
def test_the_declared_swaps_are_the_hand_written_legality(ruleset: str) -> None:
    """The Cupbearer's options as declared (built from parts with ``each``, compiled by
    :mod:`proofs.lang_z3`) admit exactly the swaps the model's hand-written legality admits,
    in every position whose counts are whole numbers (Z3 proves it at the role level, three
    players). The model still starts the swap by hand (enumerating every pair of cards is
    too slow at the card level); this keeps the two from drifting apart."""
    from proofs.lang_z3 import declared

    spec = load_spec()
    lay = Layout(make_game(spec, ruleset, 3), "role")
    tr = Transition(lay)
    s = ZState.fresh(lay, "s")
    label = Label.fresh(lay, "a")
    a, ka, b, kb = label.a
    solver = z3.Solver()
    solver.add(declared(s, "counts-are-whole"), s["dk"] == code(K.SWAP))
    solver.add(tr.legal_swap(s, label) != tr.offered(s, K.SWAP, (a, b, ka, kb)))
    assert solver.check() == z3.unsat, solver.model() if solver.check() == z3.sat else "unknown"
    # and neither is false throughout: some swap is legal, some is not
    for want in (True, False):
        other = z3.Solver()
        other.add(declared(s, "counts-are-whole"), s["dk"] == code(K.SWAP),
                  tr.offered(s, K.SWAP, (a, b, ka, kb)) == want)
        assert other.check() == z3.sat
