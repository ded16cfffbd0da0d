"""spec/state.yaml: the position declared once. ``palast spec check`` holds the rule
language, spec/visibility.yaml and the engine to it, and the engine keeps each zone as its
declaration says."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from palast.engine import Game, conformance
from palast.errors import SpecError
from palast.spec.load import Spec, load_spec
from tests.spec_copy import edited_spec


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    name: hand\n    per: player", "    name: hand\n    per: table",
     "(zones[0].name): the rule language reads zone hand as hand(seat) of kind cards, not as hand() of kind cards"),
    ("    holds: King cards\n    order: one", "    holds: cards\n    order: one",
     "(zones[5].name): the rule language reads zone king-in-force as in_force() of kind roles"),
    ("  - zone: king-spent\n", "  - zone: king-pile\n",
     "(zones[6].zone): 'king-spent' is no zone of spec/state.yaml"),
    ("    kind: seat\n", "    kind: int\n",
     "(counters[4].name): the rule language reads counter actor as actor() of kind seat, not as actor() of kind int"),
    ("    set: true\n    fields: [played]", "    fields: [played]",
     "statements set played, which no counter declares with set: true"),
    ("under: under_draw_deck", "under: beneath",
     "statements move cards to or from under_draw_deck, which no zone declares (name or under)"),
    ("    name: display\n", "    name: hand\n", "(zones[1].name): the name 'hand' is declared twice"),
    ("    order: deck\n    fields: [king_deck", "    order: laid\n    fields: [king_deck",
     "statements draw from king_deck, which no zone declares as a deck"),
])
def test_spec_check_refuses_a_broken_state(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(SpecError) as exc:
        load_spec(edited_spec(tmp_path, "state.yaml", old, new))
    assert message in str(exc.value)
    assert "state.yaml: line" in str(exc.value) or "visibility.yaml: line" in str(exc.value)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    fields: [tally]\n", "    fields: [tallies]\n", "(counters[2].fields[0]): the engine's position has no field "
                                                          "'tallies'"),
    ("  - part: result\n    fields: [result]\n    says: The winners, once the game is over.\n", "",
     "the engine's position keeps 'result', which no zone, counter or part of the machine declares"),
])
def test_the_engine_refuses_a_state_it_does_not_keep(tmp_path: Path, old: str, new: str, message: str) -> None:
    spec = load_spec(edited_spec(tmp_path, "state.yaml", old, new))
    with pytest.raises(SpecError) as exc:
        conformance.require(spec)
    assert message in str(exc.value) and "state.yaml: line" in str(exc.value)


def _displays_after_play(spec: Spec, seeds: int = 30) -> list[tuple[int, ...]]:
    """Every display at the end of seeded random games (four players, reference ruleset)."""
    game = Game(spec, "reference", ["red", "blue", "green", "yellow"])
    out: list[tuple[int, ...]] = []
    for seed in range(seeds):
        s = game.playout(game.initial_state(), random.Random(seed), max_actions=60)
        out.extend(d for d in s.displays if len(d) > 1)
    return out


def test_a_zone_lies_as_its_declaration_says(tmp_path: Path, spec: Spec) -> None:
    """Displays grow in the order laid; declared ``sorted`` instead (a data-only edit), the
    engine keeps every display in card order."""
    laid = _displays_after_play(spec)
    assert any(list(d) != sorted(d) for d in laid), "no display was laid out of card order: the test shows nothing"
    edited = load_spec(edited_spec(tmp_path, "state.yaml", "    holds: cards\n    order: laid\n    fields: [displays]",
                                   "    holds: cards\n    order: sorted\n    fields: [displays]"))
    kept = _displays_after_play(edited)
    assert kept and all(list(d) == sorted(d) for d in kept)
