"""proofs.terms builds the terms z3py builds for the pairs the compilers give it, folds
Python pairs, and leaves every other pair to z3py (which coerces or refuses it)."""

from __future__ import annotations

import pytest
import z3

from proofs.terms import as_term, conj, disj, eq, gt, negation

x, y = z3.Int("x"), z3.Int("y")
p, q = z3.Bool("p"), z3.Bool("q")


def test_python_pairs_stay_python_values() -> None:
    assert eq(3, 3) is True and eq(3, 4) is False and eq(True, True) is True
    assert gt(3, 2) is True and gt(2, 3) is False


@pytest.mark.parametrize(("made", "by_z3py"), [
    (lambda: eq(x, 3), lambda: x == 3),
    (lambda: eq(x, y), lambda: x == y),
    (lambda: eq(x, -1), lambda: x == -1),
    (lambda: eq(p, True), lambda: p == True),  # noqa: E712 (z3py's == builds a term)
    (lambda: eq(p, q), lambda: p == q),
    (lambda: gt(x, 0), lambda: x > 0),
    (lambda: gt(x, y), lambda: x > y),
    (lambda: conj([p, q]), lambda: z3.And(p, q)),
    (lambda: conj([]), lambda: z3.And([])),
    (lambda: conj([p]), lambda: z3.And([p])),
    (lambda: disj([p, q, True]), lambda: z3.Or(p, q, True)),
    (lambda: disj([]), lambda: z3.Or([])),
    (lambda: negation(p), lambda: z3.Not(p)),
])
def test_the_same_term_as_z3py(made, by_z3py) -> None:  # type: ignore[no-untyped-def]
    assert made().eq(by_z3py())


def test_numbers_and_truth_values_are_made_once() -> None:
    assert as_term(7) is as_term(7) and as_term(False) is as_term(False)
    assert as_term(7).eq(z3.IntVal(7)) and as_term(True).eq(z3.BoolVal(True)) and as_term(x) is x


def test_a_truth_value_against_a_number_is_left_to_z3py() -> None:
    # z3py refuses these; built directly they would be a Boolean coerced to a number
    with pytest.raises(z3.Z3Exception):
        eq(p, 1)
    with pytest.raises(TypeError):
        gt(p, 0)
    assert eq(x, True).eq(x == True)  # noqa: E712 (what z3py makes of it)


def test_terms_of_another_context_are_left_to_z3py() -> None:
    other = z3.Context()
    a = z3.Int("a", other)
    assert gt(a, 0).eq(a > 0) and eq(a, 0).eq(a == 0)
