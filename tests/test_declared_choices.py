"""The Z3 model's options of the decisions, compiled from the rules' declarations (here
:data:`COMPILED_CHOICES`: the Wizard's partner, count and picks, the Maid's discard, the
Guard's take-back, the neutral tie): at positions of real games they offer exactly the
engine's legal actions, and a reading changed in data alone changes them (issue 14,
point 1)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import z3

from palast.engine import Game
from palast.engine.state import DecisionKind, State
from palast.formats.house import derive
from palast.lang.syntax import show
from palast.spec.load import Spec
from proofs.concrete import abstract, label_of
from proofs.encoding import Layout
from proofs.lang_z3 import compile_text
from proofs.legality import Legality, modelled_points
from proofs.nonvacuous import constant_state
from proofs.z3_values import Coll, NotCompiled, Span, _n

K = DecisionKind

#: The decisions whose compiled options these tests compare with the engine's legal actions.
COMPILED_CHOICES = ("take-back", "exchange-partner", "exchange-count", "exchange-give", "exchange-answer",
                    "discard", "next-player")


def _opens(lay: Layout, kind: str) -> bool:
    """Whether the layout's ruleset ever opens the decision ``kind`` (its choice does not lie
    under a reading not taken, nor behind an open point)."""
    leg = Legality(lay)
    s = constant_state(lay, abstract(lay, lay.game.initial_state()))
    return (leg.waiting(kind, any_step=True) is not None
            and leg.choice_env(s, kind, options=True, any_step=True) is not None)


def _positions(game: Game, kinds: set[str], per_kind: int, seed: int = 5) -> dict[str, list[State]]:
    """Positions of random games waiting for each decision of ``kinds``."""
    rng = random.Random(seed)
    found: dict[str, list[State]] = {k: [] for k in kinds}
    for _ in range(60):
        state = game.initial_state()
        while not state.is_terminal and any(len(v) < per_kind for v in found.values()):
            d = state.decision
            if d.kind in found and len(found[d.kind]) < per_kind:
                found[d.kind].append(state)
            action = (game.sample_chance(state, rng) if d.is_chance
                      else rng.choice(game.legal_actions(state)))
            state = game.apply(state, action).state
        if all(len(v) >= per_kind for v in found.values()):
            break
    return found


def _value(term: Any) -> int:
    return int(z3.simplify(z3.IntVal(term) if isinstance(term, int) else term).as_long())


def _offered(lay: Layout, state: State, kind: str) -> set[Any]:
    """The options the model compiles for ``kind`` at the concrete ``state``: numbers, or
    for picks of cards the picks as cards per kind (every model of the compiled condition)."""
    values = abstract(lay, state)
    s = constant_state(lay, values)  # the names the options read come from its decision
    if kind in ("exchange-give", "exchange-answer"):
        vec = [z3.Int(f"v{k}") for k in range(len(lay.kinds))]
        solver = z3.Solver()
        solver.add(Legality(lay).picks(s, kind, vec))
        out: set[Any] = set()
        while solver.check() == z3.sat:
            got_vec = tuple(solver.model().eval(v, model_completion=True).as_long() for v in vec)
            out.add(got_vec)
            solver.add(z3.Or([v != x for v, x in zip(vec, got_vec, strict=True)]))
        return out
    got = Legality(lay).options(s, kind)
    if isinstance(got, Span):
        return set(range(_value(got.lo), _value(got.hi) + 1))
    return {e for e, m in got.items if _value(m) >= 1}


def _legal(lay: Layout, game: Game, state: State) -> set[Any]:
    """The engine's legal actions at ``state`` as the model numbers them (a card by its kind)."""
    if state.decision.kind in ("exchange-give", "exchange-answer"):
        return {tuple(label_of(lay, state.decision.kind, a)["vec"]) for a in game.legal_actions(state)}
    return {label_of(lay, state.decision.kind, a)["a"][0] for a in game.legal_actions(state)}


def test_every_compiled_choice_is_declared(spec: Spec) -> None:
    game = Game(spec, "reference", list(spec.player_colours[:4]))
    lay = Layout(game, "card")
    leg = Legality(lay)
    for kind in COMPILED_CHOICES:
        assert leg.declares(kind) and _opens(lay, kind)
    assert leg.declares(K.PLAY) and not leg.declares(K.GAME_OVER)  # nobody chooses the game's end
    answer = leg.waiting("exchange-answer", any_step=True)
    tie = leg.waiting(K.NEXT_PLAYER, any_step=True)
    assert answer is not None and show(answer.stmt.keys["options"]) == "subsets(hand(partner), n)"
    assert tie is not None and show(tie.stmt.keys["options"]) == "lowest"
    assert {"wizard-minimum", "guard-other-card"} <= modelled_points(spec)


@pytest.mark.parametrize("ruleset", ["source-a", "source-b", "reference"])
def test_the_compiled_options_are_the_engines_legal_actions(spec: Spec, ruleset: str) -> None:
    for n in (3, 5):
        game = Game(spec, ruleset, list(spec.player_colours[:n]))
        lay = Layout(game, "card")
        kinds = {kind for kind in COMPILED_CHOICES if _opens(lay, kind)}
        assert kinds == set(COMPILED_CHOICES)  # every ruleset of the spec offers each choice
        found = _positions(game, kinds, 4, seed=n)
        assert all(found.values()), {k: len(v) for k, v in found.items()}
        for kind, states in found.items():
            for state in states:
                assert _offered(lay, state, kind) == _legal(lay, game, state), (ruleset, n, kind)


def test_a_reading_changed_in_data_changes_the_compiled_options(spec: Spec) -> None:
    """Every ruleset of the spec reads wizard-minimum as at-least-one; a house ruleset that
    reads it as zero-allowed (data only) makes the model offer a count of 0, as the engine does."""
    rspec = derive(spec, "zero-wizard", "reference", {"wizard-minimum": "zero-allowed"})
    game = Game(rspec, "zero-wizard", list(spec.player_colours[:4]))
    lay = Layout(game, "card")
    found = _positions(game, {"exchange-partner", "exchange-count"}, 6)
    for kind, states in found.items():
        for state in states:
            assert _offered(lay, state, kind) == _legal(lay, game, state), kind
    assert all(0 in _offered(lay, st, "exchange-count") for st in found["exchange-count"])


def test_a_span_answers_membership_count_and_emptiness(spec: Spec) -> None:
    game = Game(spec, "reference", list(spec.player_colours[:3]))
    lay = Layout(game, "card")
    s = constant_state(lay, abstract(lay, game.initial_state()))
    assert compile_text(s, "3 in upto(1, 4)") is True and compile_text(s, "5 in upto(1, 4)") is False
    assert compile_text(s, "count(upto(2, 4))") == 3 and compile_text(s, "count(upto(3, 1))") == 0
    x = z3.Int("x")
    term = compile_text(s, "count(upto(1, n))", {"n": x})
    assert z3.simplify(z3.substitute(term, (x, z3.IntVal(0)))).as_long() == 0
    assert z3.simplify(z3.substitute(term, (x, z3.IntVal(4)))).as_long() == 4
    got = compile_text(s, "others(actor) if n > 2 else []", {"actor": 0, "n": x})
    assert isinstance(got, Coll) and [e for e, _ in got.items] == [0, 1, 2]
    assert [_value(z3.substitute(z3.IntVal(m) if isinstance(m, int) else m, (x, z3.IntVal(3))))
            for _, m in got.items] == [0, 1, 1]
    assert [_value(z3.substitute(z3.IntVal(m) if isinstance(m, int) else m, (x, z3.IntVal(1))))
            for _, m in got.items] == [0, 0, 0]


@pytest.mark.parametrize(("point", "reading", "decision"), [
    ("neutral-tie", "seat-order", "next-player"), ("neutral-tie", "open", "next-player"),
    ("wizard-minimum", "open", "exchange-partner"), ("wizard-minimum", "open", "exchange-count"),
])
def test_a_choice_a_reading_never_offers_has_no_options(spec: Spec, point: str, reading: str,
                                                        decision: str) -> None:
    """Under seat-order nobody chooses the next player, and an open point stops play before
    the choice: the model then has no option (and proves as before), not an error."""
    rspec = derive(spec, "house", "reference", {point: reading})
    lay = Layout(Game(rspec, "house", list(spec.player_colours[:4])), "card")
    assert not _opens(lay, decision)
    s = constant_state(lay, abstract(lay, lay.game.initial_state()))
    assert z3.is_false(z3.simplify(Legality(lay).offers(s, decision, z3.IntVal(1))))
    assert z3.is_false(z3.simplify(Legality(lay).has_options(s, decision)))


def test_what_the_z3_back_end_cannot_mean_is_refused(spec: Spec) -> None:
    """A range or picks where only a collection has a meaning raises NotCompiled (not a
    crash), and fewest keeps an element's multiplicity as the engine does."""
    game = Game(spec, "reference", list(spec.player_colours[:3]))
    lay = Layout(game, "card")
    s = constant_state(lay, abstract(lay, game.initial_state()))
    x = z3.Int("x")
    for text in ("filter(i in upto(1, 3), i > 1)", "distinct(upto(1, 3))", "upto(1, 3) if n > 0 else upto(0, 1)"):
        with pytest.raises(NotCompiled):
            compile_text(s, text, {"n": x})
    got = compile_text(s, "count(fewest(i in [1, 1, 2], i))")
    assert _value(_n(got)) == 2
