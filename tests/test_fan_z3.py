"""The Z3 back-end's meaning of what the fan module's rules read (issue 14, points 4 and 5,
on the way to compiling the module): the marks (a colour per player, kept for the table),
``mark(p)``, the box's ``player_colours``, a colour of nobody seated, the colours' names, and
``gather`` over players known only as terms. Both back-ends give the same value on positions
of real games under the house ruleset ``fan``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3

from palast.engine import Game
from palast.engine.state import State
from palast.formats.house import resolve
from palast.invariants.reach import condition
from palast.lang.syntax import parse
from palast.spec.load import Spec
from proofs.concrete import abstract
from proofs.differential import Differ, random_positions
from proofs.encoding import ANY, Layout, ZState, field_names
from proofs.lang_z3 import Z3Back, compile_condition, compile_text

#: Conditions over the marks and colours, each true in some positions and false in others.
TEXTS = (
    "any(p in players, owner(mark(p)) == nobody)",
    "any(c in gather(o in others(actor), display(o)), role(c) == jester "
    "and (colour(c) == mark(actor) or owner(colour(c)) == actor))",
    "first(filter(c in player_colours, owner(c) == actor)) == mark(actor)",
    "count(gather(o in others(actor), display(o))) > 2",
)
#: Conditions that hold in every position (so a wrong meaning shows as false somewhere).
ALWAYS = (
    "count(gather(o in others(actor), display(o))) == sum(o in others(actor), count(display(o)))",
    "number(c in player_colours, owner(c) == nobody) == count(player_colours) - count(players)",
    "all(p in players, number(c in player_colours, owner(c) == p) == 1)",
)


def _positions(game: Game, seed: int, games: int = 4, steps: int = 45) -> list[State]:
    rng = random.Random(seed)
    out: list[State] = []
    for _ in range(games):
        s = game.initial_state()
        for _ in range(steps):
            if s.is_terminal:
                break
            legal = game.legal_actions(s)
            s = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
            out.append(s)
    return out


def _const(lay: Layout, state: State) -> ZState:
    values = abstract(lay, state)
    return ZState(lay, {name: (z3.IntVal(int(values[name])) if sort == "int" else z3.BoolVal(bool(values[name])))
                        for name, sort in field_names(lay)})


def _z3(x: object) -> z3.ExprRef:
    """A compiled value as a simplified Z3 term (a known Python value as a constant)."""
    if isinstance(x, bool):
        return z3.BoolVal(x)
    return z3.simplify(z3.IntVal(x) if isinstance(x, int) else x)


#: Seatings of 3, 4 and 5 players: in the box's order of colours, and out of it (a seat's
#: number is then not its colour's number in the box).
SEATINGS = ((0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3, 4), (4, 0, 2), (3, 1, 4, 0))


@pytest.mark.parametrize("order", SEATINGS, ids=lambda o: "-".join(map(str, o)))
def test_both_back_ends_read_the_marks_and_colours_alike(spec: Spec, order: tuple[int, ...]) -> None:
    fan = resolve(spec, "fan", None)
    seen: dict[str, set[bool]] = {t: set() for t in (*TEXTS, *ALWAYS)}
    n = len(order)
    for seed in (n, n + 10):
        game = Game(fan, "fan", [fan.player_colours[i] for i in order], check=False)
        lay = Layout(game, "card")
        engine = {t: condition(game, t) for t in seen}
        for state in _positions(game, seed=seed):
            s = _const(lay, state)
            for text in seen:
                term = _z3(compile_condition(s, text))
                assert z3.is_true(term) or z3.is_false(term), (text, term)
                want = engine[text](state, None)
                assert z3.is_true(term) == want, (n, text, state.marks, state.actor)
                seen[text].add(want)
    assert all(seen[text] == {True, False} for text in TEXTS[1:]), seen
    assert all(seen[text] == {True} for text in ALWAYS), seen


def test_a_colour_is_known_by_its_name(spec: Spec) -> None:
    """``mark(actor) == yellow`` reads the marks as the box numbers its colours; the neutral
    colour is no player's."""
    fan = resolve(spec, "fan", None)
    game = Game(fan, "fan", list(fan.player_colours[:3]), check=False)
    lay = Layout(game, "card")
    states = [st for st in _positions(game, seed=11) if st.marks]
    assert states
    for name in fan.player_colours:
        for state in states[:20]:
            got = _z3(compile_condition(_const(lay, state), f"mark(actor) == {name}"))
            assert z3.is_true(got) == (state.marks[state.actor] == fan.player_colours.index(name))
    neutral = _z3(compile_text(_const(lay, states[0]), f"owner({fan.neutral_colour})"))
    assert neutral.as_long() == -1


@pytest.mark.parametrize("order", SEATINGS[3:], ids=lambda o: "-".join(map(str, o)))
def test_the_module_compiled_to_z3_admits_the_engine_actions(spec: Spec, order: tuple[int, ...]) -> None:
    """At positions of fan games seated out of the box's order, the Z3 transition compiled
    from the declarations (the marks dealt, the Healer's draw beside the Maid's, the
    Dwarf's and the Goblin's choices of a card or none) admits exactly the engine's legal
    actions with the same successors; and the decisions only the module opens are met."""
    fan = resolve(spec, "fan", None)
    game = Game(fan, "fan", [fan.player_colours[i] for i in order], check=False)
    differ = Differ(game)
    kinds = set()
    for state, deal in random_positions(game, 40, random.Random(3)):
        problem = differ.compare_deal(state, deal) if deal is not None else differ.compare(state)
        assert problem is None, (state.decision.kind, problem)
        kinds.add(state.decision.kind)
    assert {"marks", "choice", "draw"} <= kinds, kinds


def test_the_site_of_a_pending_draw_is_part_of_well_formedness(spec: Spec) -> None:
    """decisions-well-formed's facts about the encoding's ``site``: at a draw the engine
    opened, the position is well formed; with the site out of range, or naming the other
    statement that waits for a draw (the Healer's after a Maid, the Maid's after a Jester),
    it is not."""
    from proofs.well_formed import well_formed

    fan = resolve(spec, "fan", None)
    game = Game(fan, "fan", list(fan.player_colours[:3]), check=False)
    lay = Layout(game, "card")
    assert len(lay.sites["draw"]) == 2
    seen = set()
    for state, _ in random_positions(game, 300, random.Random(5)):  # dealt with no deck order: draws are chance
        if state.decision.kind != "draw":
            continue
        s = _const(lay, state)
        site = s["site"].as_long()
        seen.add(site)
        assert z3.is_true(z3.simplify(well_formed(s)))
        for wrong in (1 - site, 7):
            s.f["site"] = z3.IntVal(wrong)
            assert z3.is_false(z3.simplify(well_formed(s))), (site, wrong)
    assert seen == {0, 1}, seen


def test_an_induction_failing_from_a_position_no_game_reaches_writes_nothing(spec: Spec, tmp_path: Path) -> None:
    """Under fan nothing is assumed, so deck-reserve's step check fails from a position the
    engine cannot even build: the result is an error saying so, and no scenario is left."""
    from proofs.invariant import prove_invariant
    from proofs.reachability import deck_reserve

    out = prove_invariant(resolve(spec, "fan", None), "fan", deck_reserve, name="deck-reserve", out_dir=tmp_path,
                          counts=(3,))
    assert out.result == "error" and out.detail.endswith("(no scenario written)"), out.detail
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("n", (3, 5))
def test_the_role_level_tells_jesters_apart_by_colour_under_fan(spec: Spec, n: int) -> None:
    """Under fan the rules read a Jester's colour, so the role level keeps a kind per
    Jester card (and one per other role): it reads the colour conditions of the module as
    the engine does, and the colour of the card just played is its kind's where that is a
    Jester, the action's free colour otherwise."""
    from proofs.invariant import context
    from proofs.transition import Label

    fan = resolve(spec, "fan", None)
    lay = context(fan, "fan", n, "role").lay
    roles = fan.roles
    assert lay.level == "role" and {roles[r] for r in lay.coloured} == {"jester"}
    assert lay.describe() == "role level (jester cards by colour)"
    assert len(lay.kinds) == len(roles) - 1 + n + 1  # the Jester of every seated colour and the neutral one
    game = lay.game
    seen: dict[str, set[bool]] = {t: set() for t in (TEXTS[1], *ALWAYS)}
    engine = {t: condition(game, t) for t in seen}
    for state in _positions(game, seed=n + 20):
        s = _const(lay, state)
        for text in seen:
            want = engine[text](state, None)
            assert z3.is_true(_z3(compile_condition(s, text))) == want, (text, state.actor)
            seen[text].add(want)
    assert seen[TEXTS[1]] == {True, False}
    # the colour of the card just played: known for a Jester kind, the label's otherwise
    col = Label.fresh(lay, "x").col
    for k in lay.kinds:
        s = ZState.fresh(lay, f"p{k.index}")
        got = z3.simplify(z3.substitute(Z3Back(s, last_colour=col).compile(parse("colour(card)")),
                                        (s["card"], z3.IntVal(k.index))))
        if k.seat == ANY:
            assert got.eq(col), (k, got)
        else:
            assert got.as_long() == (k.seat if k.seat >= 0 else -1), (k, got)


@pytest.mark.parametrize("ruleset", ("fan", "fan-b"))
@pytest.mark.parametrize("n", (3, 4, 5))
def test_the_role_level_under_fan_admits_every_engine_action(spec: Spec, ruleset: str, n: int) -> None:
    """The role level abstracts the card level under fan too: at positions of fan games
    (draw decks of unknown order), the role-level relation admits every legal action of the
    engine, and every deal, leading to the abstraction of the engine's successor (a
    Jester's colour read wrongly makes the module's power fire where the engine's does not,
    or not fire where it does; a kind with a wrong number of copies refuses deals; which
    kinds have a colour at all, test_the_role_level_tells_jesters_apart_by_colour_under_fan
    checks)."""
    from proofs.concrete import label_of, pin_label, pin_state
    from proofs.invariant import context

    fan = resolve(spec, ruleset, None)
    ctx = context(fan, ruleset, n, "role")
    lay, game = ctx.lay, ctx.lay.game
    assert lay.coloured
    checked: dict[str, int] = {}
    for state, deal in random_positions(game, 40, random.Random(n + 50)):  # draw decks of unknown order
        kind = state.decision.kind
        if state.is_terminal or kind not in ctx.kinds:
            continue
        for action in [deal] if deal is not None else game.legal_actions(state):
            after = game.apply(state, action).state
            sv = z3.Solver()
            sv.add(ctx.rel[kind][0], *pin_state(ctx.s, abstract(lay, state)),
                   *pin_label(ctx.label, label_of(lay, kind, action)), *pin_state(ctx.t, abstract(lay, after)))
            assert sv.check() == z3.sat, (n, kind, action)
            checked[kind] = checked.get(kind, 0) + 1
    assert checked.get("deal", 0) > 0 and checked.get("play", 0) > 20, checked


def test_the_role_level_refuses_seats_out_of_the_box_order(spec: Spec) -> None:
    """The role-level transition reads the free colour of the card just played as a seat,
    so it needs each seat to take the colour of its own number; the card level takes any
    seating."""
    from proofs.invariant import Context

    game = Game(spec, "reference", [spec.player_colours[i] for i in (4, 0, 2)], check=False)
    with pytest.raises(ValueError, match="box's order"):
        Context(game, "role")
    assert Context(game, "card").lay.n == 3
