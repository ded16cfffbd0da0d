"""The Z3 model carries out the role rules' statements from their declarations
(:mod:`proofs.statements_z3`, issue 14 point 1): an effect edited in ``spec/`` alone
changes the model as it changes the engine, so the two still agree and the model of the
old declarations no longer does; and the flags the obligations ask about are reachable."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import z3

from palast.engine import Game
from palast.engine.actions import Deal
from palast.engine.state import DecisionKind
from palast.errors import IllegalActionError
from palast.spec.load import Spec, load_spec
from proofs.differential import Differ, Position, compare_all, positions
from proofs.encoding import Layout, ZState
from proofs.invariant import make_game
from proofs.obligation import Outcome
from proofs.statements_z3 import COMPILED_STEPS
from proofs.transition import Label, Transition
from proofs.z3_values import Tuples
from tests.spec_copy import edited_spec

K = DecisionKind
#: Effects changed in spec/roles.yaml alone, each with the decision whose action it changes:
#: the Guard's card taken back goes to the discard pile instead of the hand; the card a
#: Cupbearer takes from the second display goes to the discard pile instead of the first.
EDITS = {
    "guard": ("take-back", """            - move: taken
              from: display(actor)
              to: hand(actor)""", """            - move: taken
              from: display(actor)
              to: discard_pile"""),
    "cupbearer": ("swap", """            - move: y
              from: display(b)
              to: display(a)""", """            - move: y
              from: display(b)
              to: discard_pile"""),
    # statements after the step a decision waits in: play goes on there when it resumes
    # (the Marshal's card leaves the display once the King card is revealed)
    "after-reveal": ("reveal", """          do:
            - step: reveal-king
""", """          do:
            - step: reveal-king
            - move: card
              from: display(actor)
              to: discard_pile
"""),
    # a reading that gives its own statements: play resumes in those the ruleset takes
    "guard-reading": ("take-back",
                      '            another-own: {let: {options: "in_order(distinct(without(display(actor), card)))"}}',
                      """            another-own:
              let: {options: "in_order(distinct(without(display(actor), card)))"}
              do:
                - choose: take-back
                  by: actor
                  options: options
                  as: taken
                  refuse: the Guard takes back another card from the player's own display
                - move: taken
                  from: display(actor)
                  to: discard_pile
                - emit: card_taken_back
                  player: actor
                  card: taken"""),
    # the next player (spec/rules.yaml): after a coloured card the player who played it
    # moves again, instead of the colour's owner
    "next-player": (K.PLAY, "let: {next: owner(colour(card))}", "let: {next: actor}"),
}
#: A deal (spec/rules.yaml): a rule of step round-start, which the deal applies with
#: every, reads a point every ruleset leaves open, so the first deal stops at its gap
#: and no turn starts
EVERY_GAP = ("""    clauses: [A.setup.king, B.setup.king]
    logic:
      step: round-start
      when: round == 1
      do:
        - emit: king_deck_ready""", """    clauses: [A.setup.king, B.setup.king]
    variation_points: [no-card-to-play]
    logic:
      step: round-start
      when: round == 1
      readings:
        point: no-card-to-play
      do:
        - emit: king_deck_ready""")
#: The spec file each edit is in (default: spec/roles.yaml).
EDIT_FILES = {"next-player": "rules.yaml"}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_effect_edited_in_data_changes_the_model_with_the_engine(tmp_path: Path, edit: str) -> None:
    kind, old_text, new_text = EDITS[edit]
    spec = load_spec()
    edited = load_spec(edited_spec(tmp_path, EDIT_FILES.get(edit, "roles.yaml"), old_text, new_text))
    # three-player games only: each model is then built for one player count (a third of
    # the time), and the edit is the same for every count
    items = [p for p in positions(edited, "reference", states=450)
             if p[3] is None and p[2].decision.kind == kind and p[1].n == 3]
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
    assert kind in old.detail


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
    solver.add(s["dk"] == s.lay.code(K.PLAY), legal, flags[flag])  # type: ignore[arg-type]
    assert solver.check() == z3.sat


def test_a_rule_off_under_the_ruleset_sets_no_flag() -> None:
    """A rule a reading switches off (the fan module's) is not compiled: no flag names it."""
    _, _, _, flags = _play_flags("reference")
    assert not [f for f in flags if f.startswith("rule:fan.")]
    assert "role-action" in COMPILED_STEPS


@pytest.mark.parametrize(("ruleset", "level"), [("reference", "role"), ("source-b", "role"), ("source-b", "card")])
def test_options_built_from_parts_are_asked_as_their_list_says(ruleset: str, level: str) -> None:
    """The Cupbearer's options (built from parts with ``each``) are asked whether a swap is
    one and whether there is one without listing them (:mod:`proofs.each_z3`: one term over
    the values; an enumeration by role of the card parts). Z3 proves both equal to the plain
    meaning, the list of every combination of the parts' elements with its condition, in
    every position whose counts are whole numbers (three players), and neither false
    throughout."""
    from proofs.declared_z3 import declared
    from proofs.z3_values import Tuples, _b

    spec = load_spec()
    lay = Layout(make_game(spec, ruleset, 3), level)
    tr = Transition(lay)
    s = ZState.fresh(lay, "s")
    got = tr.choice_env(s, "swap", options=True)
    assert got is not None
    w, env, _ = got
    opts = tr._value(s, w.stmt.keys["options"], env)
    assert isinstance(opts, Tuples) and opts.names == ("a", "b", "x", "y")
    value = z3.Ints("a b x y")
    listed = z3.Or([z3.And(*(v == e for v, e in zip(value, elems, strict=True)), _b(cond))
                    for elems, cond in opts.items])
    whole = [declared(s, "counts-are-whole"), s["dk"] == s.lay.code("swap")]
    for differ in (opts.holds(tuple(value)) != listed, opts.some() != z3.Or([_b(c) for _, c in opts.items])):
        solver = z3.Solver()
        solver.add(*whole, differ)
        assert solver.check() == z3.unsat
    for want in (True, False):
        other = z3.Solver()
        other.add(*whole, opts.some() == want, opts.holds(tuple(value)) == want)
        assert other.check() == z3.sat


def test_options_built_from_parts_are_built_once_per_position_not_per_draft() -> None:
    """A rule's statements reached by two paths read drafts that are distinct Python objects
    holding the same Z3 terms: the Cupbearer's options (``each``) and whether there is one
    are then built once and shared (the fan module's play step asked the same question
    eight times, half of building its five-player context). A draft whose display differs
    gets options of its own."""
    spec = load_spec()
    lay = Layout(make_game(spec, "reference", 3), "card")
    tr = Transition(lay)
    s = ZState.fresh(lay, "s")

    def options(d: ZState) -> Any:
        got = tr.choice_env(d, "swap", options=True)
        assert got is not None
        w, env, _ = got
        return tr._value(d, w.stmt.keys["options"], env)

    first = options(s.copy())
    again = options(ZState(lay, {k: type(v)(v.as_ast(), v.ctx) for k, v in s.f.items()}))  # other objects, same terms
    assert isinstance(first, Tuples) and first.names == ("a", "b", "x", "y")
    assert again is first and again.some() is first.some()
    other = s.copy()
    name = f"c{lay.disp[1]}_0"  # the count of the first card kind in the second display
    other[name] = other[name] + 1
    changed = options(other)
    assert changed is not first and not changed.some().eq(first.some())


def test_the_expression_back_end_is_shared_only_with_the_same_colour_of_the_card_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At the role level the colour of the card played (the label's) is part of what the
    statements' back-end reads: one draft with another colour gets a back-end of its own,
    and the same colour given as another object of its Z3 term finds the first one."""
    spec = load_spec()
    lay = Layout(make_game(spec, "reference", 3), "role")
    tr = Transition(lay)
    d = ZState.fresh(lay, "s")
    monkeypatch.setattr(tr, "last_colour", lambda: z3.Int("colour1"))
    first = tr._back(d)
    monkeypatch.setattr(tr, "last_colour", lambda: z3.Int("colour2"))
    assert tr._back(d) is not first
    monkeypatch.setattr(tr, "last_colour", lambda: z3.Int("colour1"))
    assert tr._back(d) is first


def test_a_card_part_read_beyond_its_role_is_listed_by_card() -> None:
    """A card part is enumerated by role only where nothing after it reads more than its
    role: ``role(x) == role(y)`` lets it, ``x == y`` or ``count(x)`` does not."""
    from palast.lang.syntax import parse
    from proofs.each_z3 import only_through_role

    assert only_through_role(parse("role(x) == role(y) or role(y) not in roles(display(a))"), "x")
    assert not only_through_role(parse("role(x) == role(y) or x == y"), "x")
    assert not only_through_role(parse("occurrences(display(a), x) == 1"), "x")
    assert only_through_role(parse("a == actor"), "x")


#: Declarations where a position does not say where play resumes (the engine's decision
#: records the statement, the encoding does not): a second statement waiting for the same
#: decision, and a step a decision waits inside that two statements run.
UNSAID = {
    "two-reveal-steps": ("reveal", """          do:
            - step: reveal-king
""", """          do:
            - step: reveal-king
            - step: reveal-king
"""),
    "two-discards": ("discard", """            - emit: card_discarded
              player: actor
              card: discarded
""", """            - emit: card_discarded
              player: actor
              card: discarded
            - if: not empty(hand(actor))
              then:
                - choose: discard
                  by: actor
                  options: distinct(hand(actor))
                  as: second
                  refuse: the Maid discards a card from the player's hand
                - move: second
                  from: hand(actor)
                  to: discard_pile
"""),
}


@pytest.mark.parametrize("case", sorted(UNSAID))
def test_where_the_position_does_not_say_where_play_resumes_the_model_refuses(tmp_path: Path, case: str) -> None:
    """Rather than resume at the wrong statement, the model refuses (NotCompiled, which
    ``palast prove`` reports as an error naming why)."""
    from proofs.z3_values import NotCompiled

    kind, old_text, new_text = UNSAID[case]
    edited = load_spec(edited_spec(tmp_path, "roles.yaml", old_text, new_text))
    tr = Transition(Layout(make_game(edited, "reference", 3), "role"))
    with pytest.raises(NotCompiled):
        tr.waiting(kind)
    # the spec as it is says where: one statement, nothing after the step it is in
    plain = Transition(Layout(make_game(load_spec(), "reference", 3), "role")).waiting(kind)
    assert plain is not None


def test_a_flag_naming_no_rule_of_the_spec_is_refused() -> None:
    """An obligation asking about a rule renamed in spec/ fails instead of holding vacuously."""
    from proofs.statements_z3 import check_flag

    spec = load_spec()
    check_flag(spec, "rule:role.maid.empty-deck")
    check_flag(spec, "point:action-impossible")
    with pytest.raises(KeyError):
        check_flag(spec, "rule:role.maid.no-deck")
    with pytest.raises(KeyError):
        check_flag(spec, "point:no-such-point")


def test_the_last_king_card_is_revealed_where_a_reshuffle_is_open() -> None:
    """The reshuffle's condition (an empty King deck) is read where the reveal waits, not
    after the card revealed has left the deck: under king-reshuffle-scope open, revealing
    the last King card is no gap (a fresh review found the model stopping there)."""
    from palast.formats.house import derive

    spec = derive(load_spec(), "open-reshuffle", "reference", {"king-reshuffle-scope": "open"})
    items = [p for p in positions(spec, "open-reshuffle", states=510)
             if p[3] is None and p[2].decision.kind == "reveal"]  # type: ignore[attr-defined]
    last = [p for p in items if p[2].king_hidden + len(p[2].king_deck) == 1]  # type: ignore[attr-defined]
    assert last, "no position reveals the last King card"
    got = compare_all(spec, items, never_reached={})
    assert got.result != "counterexample", got.detail


def test_an_exception_s_part_run_after_a_step_is_refused(tmp_path: Path) -> None:
    """A part that an exception of turn.play gives, run after the step a role's decision
    resumes in: the position does not say whether the exception applied (the engine's
    frames do), so the model refuses rather than carry on with the rule's own part."""
    from proofs.z3_values import NotCompiled

    root = edited_spec(tmp_path, "rules.yaml", """          - step: action
          - step: turn-end
        round_end_test:
          - step: round-end""", """          - step: action
          - part: after_action
          - step: turn-end
        round_end_test:
          - step: round-end
        after_action: []""")
    text = (root / "rules.yaml").read_text(encoding="utf-8").replace(
        '''      let: {playable: "filter(c in playable, role(c) != jester)"}''',
        '''      let: {playable: "filter(c in playable, role(c) != jester)"}
      parts:
        after_action:
          - set: {played(actor): played(actor) + 1}''', 1)
    (root / "rules.yaml").write_text(text, encoding="utf-8")
    tr = Transition(Layout(make_game(load_spec(root), "reference", 3), "role"))
    with pytest.raises(NotCompiled, match="after_action"):
        tr.waiting("swap")


def test_a_player_named_twice_among_the_scorers_scores_once(tmp_path: Path) -> None:
    """Scorers are players: a round-end rule naming the player twice scores them once, in
    the engine and in the model alike (compared at the plays that end a round with six)."""
    from palast.sim.play import play_moves

    edited = load_spec(edited_spec(tmp_path, "rules.yaml", 'scorers: "[actor]"', 'scorers: "[actor, actor]"'))
    game = make_game(edited, "reference", 3)
    items = []
    for seed in range(200):
        for m in play_moves(game, seed):
            ends = [e for e in m.step.events if e.kind == "round_ended" and e.detail == "six"]
            if ends:
                p = ends[0].player
                assert [e.seats for e in m.step.events if e.kind == "points_scored"] == [(p,)]
                assert m.step.state.scores[p] - m.before.scores[p] == 1
                items.append((f"seed {seed}", game, m.before, None))
        if len(items) >= 2:
            break
    assert len(items) >= 2
    same = compare_all(edited, items, never_reached={})
    assert same.result != "counterexample", same.detail
    assert "successors agree" in same.detail


@pytest.mark.parametrize("edited", [False, True])
def test_the_winner_is_compiled_from_its_declaration(tmp_path: Path, edited: bool) -> None:
    """The model's game end follows the declared rule of step ``winner``: its ``winners``,
    and the measure of the ruleset's tie-break reading. Two players tied on score, one
    with more cards played this round (the reference's tie-break), the other with more
    cards in hand: the first wins, and with the measure edited in spec/rules.yaml alone to
    count hand cards the second does (it was written out by hand before)."""
    spec = load_spec(edited_spec(tmp_path, "rules.yaml", "most-played-last-round: {by: played(p)}",
                                 "most-played-last-round: {by: count(hand(p))}") if edited else None)
    lay = Layout(make_game(spec, "reference", 3), "role")
    s = ZState.fresh(lay, "s")
    after = Transition(lay)._end_game(s.copy())
    solver = z3.Solver()
    solver.add(s["score0"] == 5, s["score1"] == 5, s["score2"] == 2, s["played0"] == 4, s["played1"] == 1,
               s.zone_size(lay.hand[0]) == 0, s.zone_size(lay.hand[1]) == 3)
    winner = "win1" if edited else "win0"
    for field, value in ((winner, True), ("shared", False)):
        solver.push()
        solver.add(after[field] != value)
        assert solver.check() == z3.unsat, f"{field} can differ from {value}"
        solver.pop()


def _first_deals(spec: Spec) -> list[Position]:
    """The first deal of four seeded three-player games under the reference, as positions
    to compare (the deal played at each; one player count keeps the model contexts to
    build, which cost most of the time, at two)."""

    items: list[Position] = []
    for n in (3,):
        game = make_game(spec, "reference", n)
        start = game.initial_state()
        for seed in range(4):
            items.append(("a deal", game, start, game.sample_chance(start, random.Random(seed), deck_order=False)))
    return items


def _compared_with_old_model(edited: Spec, items: list[Position]) -> Outcome:
    """:func:`compare_all` of ``items`` (positions of the edited spec's engine) with the
    model of the unedited declarations."""
    spec = load_spec()

    def old_model(game: Game) -> Differ:
        differ = Differ(make_game(spec, game.ruleset, game.n))
        differ.game = game
        return differ

    return compare_all(edited, items, encode=old_model, never_reached={})


def test_a_deal_gives_the_cards_its_statement_declares(tmp_path: Path) -> None:
    """The number of cards a deal gives each player is the declared ``deal`` statement's
    (round.deal), in the engine and in the model: edited to one fewer, the engine deals five
    and the model admits exactly such deals, which the model of the old declarations does
    not."""
    edited = load_spec(edited_spec(tmp_path, "rules.yaml", "        - deal: hand_size\n",
                                   "        - deal: hand_size - 1\n"))
    items = _first_deals(edited)
    for _, game, start, deal in items:
        assert isinstance(deal, Deal)
        hands = deal.hands
        assert all(len(h) == edited.hand_size - 1 for h in hands)
        rest = list((Counter(game.all_cards) - Counter(c for h in hands for c in h)).elements())
        with pytest.raises(IllegalActionError, match=f"{edited.hand_size - 1} cards"):  # one more each: refused
            game.apply(start, Deal(tuple((*h, rest[i]) for i, h in enumerate(hands)), None))
    same = compare_all(edited, items, never_reached={})
    assert same.result != "counterexample", same.detail
    old = _compared_with_old_model(edited, items)
    assert old.result == "counterexample", old.detail
    assert "does not admit the deal" in old.detail


def _second_deals(spec: Spec) -> list[Position]:
    """Positions waiting for the deal of round 2 in seeded random three-player games (some
    player has scored), each with a deal drawn for it."""
    items: list[Position] = []
    game = make_game(spec, "reference", 3)
    for seed in range(3):
        rng = random.Random(seed)
        s = game.initial_state()
        while not (s.decision.kind == DecisionKind.DEAL and s.round == 1):
            a = game.sample_chance(s, rng) if s.decision.is_chance else rng.choice(game.legal_actions(s))
            s = game.apply(s, a).state
        assert sum(s.scores) >= 1
        items.append(("the second deal", game, s, game.sample_chance(s, rng, deck_order=False)))
    return items


@pytest.mark.parametrize(("old", "new", "field"), [
    ("    fields: [scores]\n    start: zero\n    deal: kept\n",
     "    fields: [scores]\n    start: zero\n    deal: zero\n", "score"),
    ("    fields: [king_deck, king_hidden, king_unseen]\n    start: full\n    deal: kept\n",
     "    fields: [king_deck, king_hidden, king_unseen]\n    start: full\n    deal: empty\n", "kd"),
])
def test_a_deal_resets_what_the_state_declarations_say_in_the_model_too(tmp_path: Path, old: str, new: str,
                                                                         field: str) -> None:
    """What a deal leaves of a counter or a zone is data for the model as for the engine
    (spec/state.yaml, ``deal``): declared ``deal: zero``, the scores start the second round
    at zero; declared ``deal: empty``, the King deck is empty after the second deal. The
    model of the edited declarations agrees with the engine at every such deal, and the
    model of the old declarations does not (it differs on that field)."""
    edited = load_spec(edited_spec(tmp_path, "state.yaml", old, new))
    game = make_game(edited, "reference", 3)  # the positions of play under the unedited declarations
    items: list[Position] = [(w, game, s, deal) for w, _, s, deal in _second_deals(load_spec())]
    for _, game, s, deal in items:
        after = game.apply(s, deal).state
        assert after.scores == (0, 0, 0) if field == "score" else after.king_deck_size == 0
    same = compare_all(edited, items, never_reached={})
    assert same.result != "counterexample", same.detail
    old_model = _compared_with_old_model(edited, items)
    assert old_model.result == "counterexample", old_model.detail
    assert f"'{field}" in old_model.detail, old_model.detail


def test_a_gap_met_in_an_every_step_stops_the_deal(tmp_path: Path) -> None:
    """A rule of a step the deal applies with ``every`` (round-start) that reads an open
    point stops the deal at that gap: the engine starts no turn, and the model compiled
    from the same declarations predicts the same position, which the model of the old
    declarations does not (it starts the first turn)."""
    old_text, new_text = EVERY_GAP
    edited = load_spec(edited_spec(tmp_path, "rules.yaml", old_text, new_text))
    items = _first_deals(edited)
    for _, game, start, deal in items:
        assert deal is not None
        after = game.apply(start, deal).state
        assert after.decision.kind == K.GAP and after.decision.point == "no-card-to-play"
    same = compare_all(edited, items, never_reached={})
    assert same.result != "counterexample", same.detail
    old = _compared_with_old_model(edited, items)
    assert old.result == "counterexample", old.detail
    assert "after the deal" in old.detail


def test_an_expression_the_model_cannot_compile_is_named_with_its_rule(tmp_path: Path) -> None:
    """A rule's expression that has no Z3 meaning at a level (a card's colour at the role
    level) is refused naming the rule, its place in the spec and the expression, not only
    the primitive (from a fresh review's side note)."""
    from proofs.z3_values import NotCompiled

    root = edited_spec(tmp_path, "rules.yaml", "      when: empty(hand(actor))\n",
                       "      when: empty(hand(actor)) and neutral(first(hand(actor)))\n")
    lay = Layout(make_game(load_spec(root), "reference", 3), "role")
    with pytest.raises(NotCompiled) as got:
        Transition(lay).step(ZState.fresh(lay, "s"), Label.fresh(lay, "a"), K.PLAY)
    # the file, the line of the expression and its key
    line = next(i for i, text in enumerate((root / "rules.yaml").read_text(encoding="utf-8").splitlines(), 1)
                if "neutral(first(hand(actor)))" in text)
    assert str(got.value).startswith(f"rule turn.empty-hand ({root / 'rules.yaml'}: line {line}, column 13 (rules[")
    assert ".logic.when)), `" in str(got.value)
    assert "`empty(hand(actor)) and neutral(first(hand(actor)))`: colours are forgotten" in str(got.value)


def test_merging_drafts_keeps_their_flags_in_the_drafts_order() -> None:
    """merge builds the flags' terms in the drafts' order, the first draft's then the
    second's others, not in a set's: a set of names iterates by Python's string hashes,
    which differ from process to process, and with them the order Z3 numbers the terms
    in, which its simplifier sorts some operands by (under fan the play relation's text
    differed with PYTHONHASHSEED)."""
    from typing import cast

    from proofs.encoding import Layout, ZState, merge

    names = [f"rule.{i}.path" for i in range(16)]
    a = ZState(cast(Layout, None), {}, {n: z3.Bool(f"fa.{n}") for n in names[:10]})
    b = ZState(cast(Layout, None), {}, {n: z3.Bool(f"fb.{n}") for n in names[6:]})
    merged = merge(z3.Bool("c"), a, b)
    assert list(merged.flags) == names
    assert z3.eq(merged.flags["rule.12.path"], z3.If(z3.Bool("c"), z3.BoolVal(False), b.flags["rule.12.path"]))


def test_the_relation_s_text_does_not_depend_on_how_the_simplifier_orders_operands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Z3's simplifier orders some operands by the numbers Z3 gives terms, which depend on
    everything built before in the process: a condition the compiler simplified was kept
    in that form, so the same code gave other relation texts from run to run (a cold and a
    warm ``~/.cache/palast``). Here the simplifier is made to return another form of what
    it returns (wrapped in a one-operand ``And``) wherever it decides nothing; the relations
    built must read exactly as those built with the real one, so only a decided condition
    (true or false) of the simplifier is used."""
    from proofs.invariant import Context

    game = make_game(load_spec(), "reference", 3)

    def texts() -> dict[str, str]:
        ctx = Context(game, "role")
        return {k: ctx.rel[k][0].sexpr() for k in ctx.kinds}

    before = texts()
    real = z3.simplify
    reordered = 0

    def other_form(e: Any, *args: Any, **kw: Any) -> Any:
        nonlocal reordered
        got = real(e, *args, **kw)
        if z3.is_true(got) or z3.is_false(got):
            return got
        reordered += 1
        return z3.And(got)

    monkeypatch.setattr(z3, "simplify", other_form)
    after = texts()
    assert reordered > 0  # the compiler did ask the simplifier about undecided conditions
    assert after == before
