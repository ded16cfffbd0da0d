"""decisions-well-formed's facts about what a pending decision keeps are read from the
declared ``choose`` statements (proofs/kept.py), not written per role: a data-only edit of
the Wizard's options changes them, and they say at least what was written by hand for the
Wizard before (role.wizard, wizard-minimum)."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from palast.engine.state import DecisionKind
from palast.spec.load import Spec, load_spec
from proofs.encoding import Layout, ZState
from proofs.invariant import make_game
from proofs.kept import earlier, kept_facts, legality_of
from proofs.terms import minimum, total
from proofs.well_formed import well_formed
from tests.spec_copy import edited_spec

K = DecisionKind


def _valid(claim: z3.BoolRef) -> bool:
    solver = z3.Solver()
    solver.add(z3.Not(claim))
    result = solver.check()
    assert result != z3.unknown
    return bool(result == z3.unsat)


def _facts(spec: Spec, ruleset: str, n: int = 3) -> tuple[ZState, z3.BoolRef]:
    lay = Layout(make_game(spec, ruleset, n), "role")
    s = ZState.fresh(lay, "s")
    return s, z3.And(kept_facts(legality_of(lay), s))


def test_the_wizards_least_number_is_read_from_its_declaration(spec: Spec, tmp_path: Path) -> None:
    """The reference reads wizard-minimum as at-least-one: at a pending count the partner
    holds a card. Declaring the reading's least number as 2 (spec/roles.yaml alone) makes
    the facts say 2 cards, which they do not say of the unedited spec."""
    s, facts = _facts(spec, "reference")
    at_count = s["dk"] == s.lay.code("exchange-count")
    assert _valid(z3.Implies(z3.And(facts, at_count), s.hand_size(s["partner"]) >= 1))
    assert not _valid(z3.Implies(z3.And(facts, at_count), s.hand_size(s["partner"]) >= 2))
    edited = load_spec(edited_spec(tmp_path, "roles.yaml", 'at-least-one: {let: {least: "1"}}',
                                   'at-least-one: {let: {least: "2"}}'))
    s, facts = _facts(edited, "reference")
    at_count = s["dk"] == s.lay.code("exchange-count")
    assert _valid(z3.Implies(z3.And(facts, at_count), s.hand_size(s["partner"]) >= 2))


@pytest.mark.parametrize("ruleset", ["source-a", "source-b", "reference"])
def test_the_facts_say_what_was_written_by_hand_for_the_wizard(spec: Spec, ruleset: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The Wizard's conjuncts of decisions-well-formed as they were written by hand before
    they were derived follow from the lemma now, under every ruleset (the reading of
    wizard-minimum included)."""
    lay = Layout(make_game(spec, ruleset, 4), "role")
    s = ZState.fresh(lay, "s")
    dk, dp, partner, actor, count = s["dk"], s["dp"], s["partner"], s["actor"], s["count"]
    least = 0 if spec.reading(ruleset, "wizard-minimum") == "zero-allowed" else 1
    nk = len(lay.kinds)

    def seat(x: z3.ArithRef) -> z3.BoolRef:
        return z3.And(x >= 0, x < lay.n)

    by_hand = z3.And(
        z3.Implies(z3.Or(dk == s.lay.code("exchange-count"), dk == s.lay.code("exchange-give")),
                   z3.And(seat(partner), partner != actor, s.hand_size(partner) >= least)),
        z3.Implies(dk == s.lay.code("exchange-give"),
                   z3.And(count >= 1, count <= minimum([s.hand_size(actor), s.hand_size(partner)]))),
        z3.Implies(dk == s.lay.code("exchange-answer"), z3.And(
            partner == actor, seat(dp), dp != actor, count >= 1, count <= s.hand_size(dp),
            total(s[f"g{k}"] for k in range(nk)) == count,
            *[z3.And(s[f"g{k}"] >= 0, s[f"g{k}"] <= s.hand_cnt(actor, k)) for k in range(nk)])),
        z3.Implies(z3.And([dk != s.lay.code(k) for k in ("exchange-count", "exchange-give", "exchange-answer")]),
                   partner == -1))
    assert _valid(z3.Implies(well_formed(s), by_hand))
    # the derived facts say it: the rest of the lemma alone does not
    monkeypatch.setattr("proofs.well_formed.kept_facts", lambda legality, s: [])
    assert not _valid(z3.Implies(well_formed(s), by_hand))


def test_a_statement_that_changes_the_position_ends_what_an_earlier_choice_says(spec: Spec) -> None:
    """The Guard's take-back is chosen and then moved: nothing chosen before it in its rule,
    and the count of the Wizard's exchange is known at its give and its answer, after the
    ``if n == 0`` that leads there (its else branch)."""
    leg = legality_of(Layout(make_game(spec, "reference", 3), "role"))
    way = earlier(leg.waiting("exchange-answer"))  # type: ignore[arg-type]
    assert way is not None
    choices, conds = way
    assert [str(c.keys["as"]) for c in choices] == ["partner", "n", "given"]
    assert len(conds) == 1 and conds[0][1] is False
    way = earlier(leg.waiting("take-back"))  # type: ignore[arg-type]
    assert way == ([], [])
