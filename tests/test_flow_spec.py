"""The turn as a declared state machine (spec/flow.yaml with the roles' choices): what it
allows, what ``palast spec check`` refuses, that the engine's check mode holds play to it
(invariant turn-is-bounded), and that the book's diagram is drawn from it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from palast.engine import Game, conformance
from palast.engine.state import DecisionKind, InvariantViolation
from palast.errors import SpecError
from palast.spec.load import Spec, load_spec
from tests.spec_copy import ROOT, edited_spec

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from palast_book.flow import action_dot, declared_edges, round_dot


def test_every_decision_the_engine_knows_is_declared_once(spec: Spec) -> None:
    assert set(spec.flow.decisions) >= {k.value for k in DecisionKind}
    roles_decisions = [c["decision"] for r in spec.role_actions.values() for c in r.choices]
    assert len(roles_decisions) == len(set(roles_decisions))
    assert all(spec.flow.decisions[d].role for d in roles_decisions)


def test_a_play_may_open_the_first_decision_of_each_role_and_no_other(spec: Spec) -> None:
    firsts = {r.choices[0]["decision"] for r in spec.role_actions.values() if r.choices}
    later = {c["decision"] for r in spec.role_actions.values() for c in r.choices[1:]}
    after_play = spec.flow.successors["play"]
    # a later decision of a role follows a play only where the play decision names it (the
    # fan module's Healer draws as the action of a Jester)
    assert firsts <= after_play and not ((later & after_play) - set(spec.flow.decisions["play"].then))
    # a role's decisions follow one another as spec/roles.yaml lists them
    for r in spec.role_actions.values():
        for a, b in zip(r.choices, r.choices[1:], strict=False):
            assert spec.flow.follows(a["decision"], b["decision"]), (a, b)
    # the stop at an open point may follow anything but the end; nothing follows the end
    assert all(spec.flow.follows(d, "gap") for d, x in spec.flow.decisions.items() if not x.terminal)
    assert not spec.flow.successors["game-over"] and not spec.flow.successors["gap"]


def test_a_turn_has_at_most_seven_actions(spec: Spec) -> None:
    """A play, the Wizard's four decisions, the end-of-turn choice a rule module may offer
    and the choice of the next player after a tie (the longest chain within a turn; the
    statement of turn-is-bounded says seven)."""
    assert spec.flow.turn_actions_max() == 7
    assert "seven actions" in spec.invariants["turn-is-bounded"].statement


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("roles.yaml", "what: the display card to take back, then: [turn-over]",
     "what: the display card to take back, then: [take-back]", "take-back -> take-back form a cycle within one turn"),
    ("roles.yaml", "then: [exchange-answer]", "then: [exchange-anser]",
     "(roles[1].choices[2].then[0]): 'exchange-anser' is no decision, junction or 'action'"),
    ("flow.yaml", "    then: [play, next-player, choice]\n", "    then: [play, next-playr, choice]\n",
     "(junctions[0].then[1]): 'next-playr' is no decision"),
    ("flow.yaml", "  - decision: next-player\n", "  - decision: next-move\n",
     "(junctions[0].then[1]): 'next-player' is no decision (a junction stands for decisions)"),
    ("flow.yaml", "    then: [action, turn-over, round-over]\n", "    then: [turn-over, round-over]\n",
     "roles.yaml: line 27, column 20 (roles[1].choices[0].decision): no action leads to decision 'exchange-partner'"),
    ("flow.yaml", "    terminal: true\n    statement: The game is over", "    terminal: true\n    then: [deal]\n"
                  "    statement: The game is over", "decision 'game-over' is terminal: nothing may follow it"),
    ("flow.yaml", "  - id: round-over\n", "  - id: turn-over\n",
     "(junctions[1].id): junction 'turn-over' is declared twice"),
    ("flow.yaml", "  - id: round-over\n", "  - id: play\n",
     "(junctions[1].id): junction 'play' has the name of a decision"),
    ("flow.yaml", "    rules: [turn.next.neutral-tie]\n    then: [play]\n", "    rules: [turn.next.neutral-tie]\n",
     "(decisions[4]): decision 'next-player' is not terminal: say what may follow it"),
    ("roles.yaml", 'says: "{player} (Maid) must discard a hand card"', 'says: "{who} (Maid) must discard a hand card"',
     "(roles[2].choices[0].says): {who} is no field of a decision's sentence"),
    ("flow.yaml", '    says: "{player} chooses {what}"\n', "",
     "(decisions[3]): decision 'choice' is not terminal: say how it is put to a reader (says)"),
    ("flow.yaml", 'says: "{player} must play a card"', 'says: "{player:words} must play a card"',
     "(decisions[1].says): {player:words}: a format spec is one|many (two words) after count"),
    ("flow.yaml", 'says: "{player} must play a card"', 'says: "{player must play a card"',
     "(decisions[1].says): the sentence does not parse"),
    ("flow.yaml", "  - decision: deal\n    by: chance\n", "  - decision: deal\n    by: actor\n",
     "rules.yaml: line 68, column 21 (rules[4].logic.do[1].decision): decision 'deal' is declared (flow.yaml) by "
     "'actor', but a deal is taken by chance"),
    ("roles.yaml", "{decision: draw, by: chance,", "{decision: draw, by: actor,",
     "decision 'draw' is declared (roles.yaml) by 'actor', but a draw is taken by chance: declare it by: chance"),
    ("roles.yaml", "{decision: take-back, by: actor,", "{decision: take-back, by: chance,",
     "roles.yaml: line 320, column 23 (roles[4].rules[0].logic.do[0].choose): decision 'take-back' is declared "
     "(roles.yaml) by: chance, but this choose is taken by a player: declare who decides (by: actor or partner)"),
    ("flow.yaml", "    by: actor\n    answer: seat\n    verb: next\n",
     "    by: actor\n    answer: number\n    verb: next\n",
     "rules.yaml: line 237, column 23 (rules[12].logic.readings.player-who-played.do[0].choose): decision "
     "'next-player' is declared (flow.yaml) with answer 'number', but the value this statement waits for is a "
     "player: declare answer 'seat'"),
    ("roles.yaml", "answer: card, verb: take-back,", "answer: seat, verb: take-back,",
     "(roles[4].rules[0].logic.do[0].choose): decision 'take-back' is declared (roles.yaml) with answer 'seat', "
     "but the value this statement waits for is a card"),
    ("flow.yaml", "    answer: deal\n", "    answer: cards\n",
     "rules.yaml: line 68, column 21 (rules[4].logic.do[1].decision): decision 'deal' is declared (flow.yaml) with "
     "answer 'cards', but the value this statement waits for is a deal"),
    ("roles.yaml", "answer: card, verb: discard,", "answer: card, verb: give,",
     "decisions 'exchange-give' and 'discard' share the verb 'give' but not the answer (cards and card)"),
    ("flow.yaml", "    answer: seat\n    verb: next\n", "    answer: seat\n",
     "(decisions[4]): decision 'next-player' is not terminal: say what answers it (missing key 'verb')"),
    ("flow.yaml", "    terminal: true\n    statement: The game is over", "    terminal: true\n    answer: card\n"
                  "    verb: over\n    statement: The game is over",
     "decision 'game-over' is terminal: no action answers it (no answer or verb)"),
    ("flow.yaml", "    terminal: true\n    statement: The game is over", "    terminal: true\n    says: over\n"
                  "    statement: The game is over", "decision 'game-over' is terminal: the machinery says"),
])
def test_spec_check_refuses_a_broken_flow(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    """Each broken flow is refused where palast spec check finds it: by the spec's own
    checks, or (a decision the engine has no kind for) by the engine's conformance check,
    which every game runs when it is built."""
    with pytest.raises(SpecError) as exc:
        conformance.require(load_spec(edited_spec(tmp_path, file, old, new)))
    assert message in str(exc.value)
    assert f"{file}: line" in str(exc.value) or ".yaml: line" in message  # else the message names its place


def _play(game: Game, seed: int, actions: int = 3000) -> int:
    """Play one game with random choices, the draw deck's order dealt with the hands (so a
    Maid draws at once); returns the actions played."""
    rng = random.Random(seed)
    s = game.initial_state()
    n = 0
    while not s.is_terminal and n < actions:
        a = game.sample_chance(s, rng, deck_order=True) if s.decision.is_chance else rng.choice(game.legal_actions(s))
        s = game.apply(s, a).state
        n += 1
    return n


def test_check_mode_holds_play_to_the_declared_flow(tmp_path: Path) -> None:
    """With the end of the turn no longer declared after a Maid's discard (only a draw from a
    draw deck of unknown order), the engine's check mode stops the first game where a Maid
    discards and draws at once from a known draw deck, naming the move."""
    spec = load_spec(edited_spec(tmp_path, "roles.yaml", "then: [draw, turn-over]", "then: [draw]"))
    with pytest.raises(InvariantViolation) as exc:
        for seed in range(20):
            _play(Game(spec, "reference", ["red", "blue", "green"], check=True), seed)
    assert "turn-is-bounded" in str(exc.value) and "old(decision) is discard, decision is " in str(exc.value)


def test_the_diagram_is_drawn_from_the_declarations(tmp_path: Path, spec: Spec) -> None:
    edges = declared_edges(spec)
    assert ("discard", "draw") in edges and ("turn-over", "next-player") in edges
    assert edges[("play", "take-back")] == ["guard"]
    dot = round_dot(spec) + action_dot(spec)
    for name in [*spec.flow.decisions, *spec.flow.junctions]:
        assert f'"{name}" [label=' in dot, name
    # a changed declaration changes the drawing
    changed = load_spec(edited_spec(tmp_path, "flow.yaml", "    then: [deal, game-over]\n",
                                    "    then: [game-over]\n"))
    assert '"round-over" -> "deal"' in round_dot(spec) and '"round-over" -> "deal"' not in round_dot(changed)


def test_a_pending_decision_is_worded_as_declared(tmp_path: Path) -> None:
    """palast ask words a pending decision from its declaration (``says``): an edit of
    spec/flow.yaml alone changes the sentence, the forced play's included."""
    from palast.query.describe import describe_decision

    spec = load_spec(edited_spec(tmp_path, "flow.yaml", 'says: "{player} must play a card"',
                                 'says: "it is {player}\'s turn to play ({starter} moves)"'))
    game = Game(spec, "reference", ["red", "blue", "green"])
    s = game.apply(game.initial_state(), game.sample_chance(game.initial_state(), random.Random(3))).state
    assert s.decision.kind == DecisionKind.PLAY
    who = game.colour_name(s.decision.player)
    assert describe_decision(game, s) == f"it is {who}'s turn to play ({game.colour_name(s.actor)} moves)"


def test_every_shape_of_answer_is_known_everywhere_it_is_read() -> None:
    """The shapes of answer the schema allows are exactly those the engine makes actions of,
    the notation writes and the spec check matches against statements: a shape added in one
    place only would be refused, or crash, in another."""
    import json

    from palast.engine.actions import SHAPES
    from palast.formats.notation import ANSWER_FORMS
    from palast.lang.block_checks import ANSWERS_OF_KIND

    schema = json.loads((Path(__file__).resolve().parent.parent / "spec" / "schema" / "flow.schema.json")
                        .read_text(encoding="utf-8"))
    allowed = set(schema["$defs"]["answer"]["enum"])
    assert set(SHAPES) == allowed
    assert set(ANSWER_FORMS) == allowed
    assert {a for fits in ANSWERS_OF_KIND.values() for a in fits} == allowed
