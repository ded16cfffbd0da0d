"""Invariants declared as rule-language expressions (``holds`` in spec/invariants.yaml):
every state invariant is declared and checked from its declaration only, broken
declarations are reported by ``palast spec check`` at their place, failures say where they
fail, and the engine's Python back-end and the proofs' Z3 back-end give every declared
property the same truth value on the same positions."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import z3
from z3.z3 import _to_expr_ref

import proofs.can_act_meaning  # noqa: F401  (gives can_act its Z3 meaning)
from palast.engine import Game
from palast.engine.state import DecisionKind, State
from palast.invariants.check import state_problems
from palast.invariants.declared import failure
from palast.lang.invariant_exprs import declared
from palast.spec.load import Spec
from proofs.concrete import abstract
from proofs.declared_z3 import declared as z3_declared
from proofs.encoding import Layout, ZState, field_names
from tests.conftest import make_game
from tests.spec_copy import edited_spec

ROOT = Path(__file__).resolve().parent.parent
K = DecisionKind


def test_every_state_invariant_is_declared_and_only_declared(spec: Spec) -> None:
    state = {i.id for i in spec.invariants.values() if i.kind == "state"}
    with_holds = {i.id for i in spec.invariants.values() if i.holds is not None}
    assert state <= with_holds
    # every invariant, state or step, is a declaration
    assert with_holds == set(spec.invariants)
    lemmas = [p for p in declared(spec) if p.lemma]
    assert lemmas and all(p.invariant in spec.invariants for p in lemmas)


def _spec_copy(tmp_path: Path, old: str, new: str) -> Path:
    return edited_spec(tmp_path, "invariants.yaml", old, new)


def _refused(tmp_path: Path, old: str, new: str, said: str) -> None:
    """palast spec check of spec/ with ``old`` replaced by ``new`` in invariants.yaml fails
    (exit 1), printing ``said``, without a traceback."""
    root = _spec_copy(tmp_path, old, new)
    r = subprocess.run([sys.executable, "-m", "palast", "--spec", str(root), "spec", "check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    assert said in r.stdout + r.stderr, r.stdout + r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(("new", "said"), [
    ("holds: not running or all(p in players, count(display(p)) < six)",
     None),
    ("holds: count(players)", "an invariant must be a condition, not int"),
    ("holds: not running or all(p in players, count(displayz(p)) < six)", "unknown primitive 'displayz'"),
    ("holds: not running or all(p in players, count(display(p)) < jester)", "must be int, not role"),
    ("holds: not running or __import__('os')", "only whole numbers and true/false are values"),
])
def test_spec_check_reports_a_broken_declaration_at_its_place(tmp_path: Path, new: str, said: str | None) -> None:
    old = "holds: not running or all(p in players, count(display(p)) < six)"
    root = _spec_copy(tmp_path, old, new)
    r = subprocess.run([sys.executable, "-m", "palast", "--spec", str(root), "spec", "check"],
                       capture_output=True, text=True, timeout=120)
    if said is None:
        assert r.returncode == 0, r.stdout + r.stderr
        return
    assert r.returncode == 1, r.stdout + r.stderr  # a spec that fails its check (as tests/test_cli.py)
    out = r.stdout + r.stderr
    assert "invariants.yaml: line" in out and "(invariants[" in out and ".holds)" in out, out
    assert said in out, out
    assert "Traceback" not in out


def test_a_lemma_may_not_reuse_an_id(tmp_path: Path) -> None:
    root = _spec_copy(tmp_path, "- id: counts-are-whole", "- id: banned-role")
    r = subprocess.run([sys.executable, "-m", "palast", "--spec", str(root), "spec", "check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert "lemmas[0].id" in r.stdout + r.stderr and "already the id" in r.stdout + r.stderr


def _positions(game: Game, seeds: range, every: int = 7) -> list[State]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = game.initial_state()
        for step in range(400):
            if s.is_terminal:
                break
            if step % every == 0:
                out.append(s)
            legal = game.legal_actions(s)
            s = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
        out.append(s)
    return out


def _corruptions(game: Game, s: State) -> list[State]:
    """Positions that break declared properties in different ways."""
    n = game.n
    out = [replace(s, scores=(game.target, *s.scores[1:])),
           replace(s, played=(s.played[0] + 3 * game.six * n, *s.played[1:])),
           replace(s, king_in_force=game.spec.roles.index("marshal")),
           replace(s, decision=replace(s.decision, forced=not s.decision.forced))]  # decisions-well-formed
    if s.hands[0]:
        out.append(replace(s, displays=(s.displays[0] + s.hands[0], *s.displays[1:])))
        out.append(replace(s, hands=((), *s.hands[1:])))
    if s.deck:
        out.append(replace(s, deck=s.deck[1:]))
    if s.round_end is not None:  # a round end its display does not show
        nr = game.cards.role_count
        kept = tuple({c % nr: c for c in s.displays[s.round_end.player]}.values())[:2]
        out.append(replace(s, round_end=replace(s.round_end, forced=False),
                           displays=tuple(kept if i == s.round_end.player else d for i, d in enumerate(s.displays))))
    return out


def _z3_truth(lay: Layout, prop: str, state: State) -> bool:
    values = abstract(lay, state)
    f = {name: (z3.IntVal(int(values[name])) if sort == "int" else z3.BoolVal(bool(values[name])))
         for name, sort in field_names(lay)}
    term = z3.simplify(z3_declared(ZState(lay, f), prop))
    assert z3.is_true(term) or z3.is_false(term), term
    return z3.is_true(term)


@pytest.mark.parametrize(("ruleset", "n"), [("source-a", 3), ("reference", 4), ("source-b", 5)])
def test_the_two_back_ends_agree_on_every_declared_property(spec: Spec, ruleset: str, n: int) -> None:
    """On positions of real play and corrupted ones, each declared invariant and lemma is
    true in the engine exactly when its Z3 compilation is (at the card level, where the
    encoding is exact). Each property is seen both true and false, but counts-are-whole,
    which no list of cards can break (it is there for the counting abstraction)."""
    game = make_game(spec, ruleset, n, check=False)
    lay, coarse = Layout(game, "card"), Layout(game, "role")
    seen: dict[str, set[bool]] = {}
    for i, s in enumerate(_positions(game, range(1), every=23)):
        for t in [s, *_corruptions(game, s)]:
            for prop in declared(spec):
                if prop.step:
                    continue  # below, on actions
                if prop.id == "player-can-act":
                    # legality of a corrupted position is beyond the encoding's promises, and
                    # can_act at the card level is a large term: the role level, some positions
                    if t is s and i == 0:
                        assert (failure(game, prop.id, t) is None) == _z3_truth(coarse, prop.id, t)
                    continue
                py = failure(game, prop.id, t) is None
                assert py == _z3_truth(lay, prop.id, t), (prop.id, py, t)
                seen.setdefault(prop.id, set()).add(py)
    lacking = {p: v for p, v in seen.items() if v != {True, False} and p not in ("player-can-act", "counts-are-whole")}
    assert not lacking, lacking


def _z3_step_truth(lay: Layout, prop: str, before: State, after: State) -> bool:
    """The truth of the Z3 term of ``prop`` compiled on the two positions as constants."""
    def const(state: State) -> ZState:
        values = abstract(lay, state)
        return ZState(lay, {name: (z3.IntVal(int(values[name])) if sort == "int" else z3.BoolVal(bool(values[name])))
                            for name, sort in field_names(lay)})
    term = z3.simplify(z3_declared(const(after), prop, const(before)))
    assert z3.is_true(term) or z3.is_false(term), term
    return z3.is_true(term)


class _StepTerms:
    """The Z3 term of each declared step invariant compiled once, over two symbolic
    positions of ``lay`` (as the proofs use it); :meth:`truths` substitutes the field
    values of two concrete positions (``Z3_substitute``, as proofs/differential.py does)
    and simplifies. Compiling on constant positions, as :func:`_z3_step_truth` does,
    builds the whole term again for every action (seconds each at the card level of five
    players)."""

    def __init__(self, lay: Layout, props: list[str]) -> None:
        self.lay = lay
        self.names = field_names(lay)
        before, after = ZState.fresh(lay, "b"), ZState.fresh(lay, "s")
        self.terms = {prop: z3_declared(after, prop, before) for prop in props}
        src = [zs.f[name] for zs in (before, after) for name, _ in self.names]
        #: the terms the array below points to: a ctypes array of ASTs owns none of them, so
        #: a field no invariant reads would be freed by Z3 with ``before`` and ``after``
        self.fields = src
        self.src = (z3.Ast * len(src))(*[x.as_ast() for x in src])
        self.values: dict[tuple[bool, int], z3.ExprRef] = {}  # by (is it a Boolean, value): True == 1

    def _value(self, x: int | bool) -> z3.ExprRef:
        key = (isinstance(x, bool), int(x))
        v = self.values.get(key)
        if v is None:
            v = self.values[key] = z3.BoolVal(x) if isinstance(x, bool) else z3.IntVal(x)
        return v

    def truths(self, before: State, after: State) -> dict[str, bool]:
        dst = []
        for state in (before, after):
            values = abstract(self.lay, state)
            dst += [self._value(int(values[name]) if sort == "int" else bool(values[name])).as_ast()
                    for name, sort in self.names]
        arr = (z3.Ast * len(dst))(*dst)
        ctx = z3.main_ctx()
        out = {}
        for prop, term in self.terms.items():
            value = z3.simplify(_to_expr_ref(z3.Z3_substitute(ctx.ref(), term.as_ast(), len(dst), self.src, arr), ctx))
            assert z3.is_true(value) or z3.is_false(value), value
            out[prop] = z3.is_true(value)
        return out


@pytest.mark.parametrize(("ruleset", "n"), [("source-a", 4), ("reference", 5)])
def test_the_two_back_ends_agree_on_every_declared_step_invariant(spec: Spec, ruleset: str, n: int) -> None:
    """Each declared step invariant (old(...) reads the position before the action) has the
    same truth value in both back-ends on actions of real play and on actions whose result
    was corrupted (a score raised, a display emptied into the hand, a hand card lost, a
    decision asked again, a swap's displays each showing a role twice), and is seen both true
    and false. The Z3 side is the term
    compiled over symbolic positions, evaluated at each action's two positions; on the
    first action the term compiled on the constant positions is asked as well."""
    game = make_game(spec, ruleset, n, check=False)
    lay = Layout(game, "card")
    steps = [p for p in declared(spec) if p.step]
    assert steps
    terms = _StepTerms(lay, [p.id for p in steps])
    seen: dict[str, set[bool]] = {}
    rng = random.Random(5)
    s = game.initial_state()
    for i in range(150):
        if s.is_terminal:
            break
        legal = game.legal_actions(s)
        t = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
        tries = [t] if i % 3 else [t, replace(t, scores=(t.scores[0] + 1, *t.scores[1:])),
                                   replace(t, displays=((), *t.displays[1:]), hands=(t.hands[0] + t.displays[0],
                                                                                    *t.hands[1:])),
                                   replace(t, hands=(t.hands[0][1:], *t.hands[1:]))]
        if s.decision.kind != K.PLAY:  # no other decision may follow itself: a turn that does not end
            tries.append(replace(t, decision=s.decision))
        if s.decision.kind == "swap":  # a swap whose result shows a role twice in every display
            tries.append(replace(t, displays=tuple(d + d[:1] for d in t.displays)))
        for after in tries:
            z3_truth = terms.truths(s, after)
            for prop in steps:
                py = failure(game, prop.id, after, s) is None
                assert py == z3_truth[prop.id], (prop.id, py, s, after)
                if i == 0 and after is t:
                    assert py == _z3_step_truth(lay, prop.id, s, after), (prop.id, py, s, after)
                seen.setdefault(prop.id, set()).add(py)
        s = t
    assert all(v == {True, False} for v in seen.values()), seen


def test_a_failure_names_where_it_fails(spec: Spec) -> None:
    game = make_game(spec, "reference", 4, check=False)
    s = _positions(game, range(1))[3]
    p = next(i for i in range(game.n) if s.hands[i])
    broken = replace(s, displays=tuple(d + s.hands[p] + s.hands[p] if i == p else d
                                       for i, d in enumerate(s.displays)))
    got = dict(state_problems(game, broken))
    assert got["no-repeated-role"].startswith(f"for p = {game.colour_name(p)}: "), got
    assert "more and" in got["card-conservation"], got


def test_old_is_only_for_step_invariants(tmp_path: Path) -> None:
    old = "holds: not running or all(p in players, count(display(p)) < six)"
    root = _spec_copy(tmp_path, old, "holds: not running or all(p in players, count(display(p)) < old(six))")
    r = subprocess.run([sys.executable, "-m", "palast", "--spec", str(root), "spec", "check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert "only a step invariant has one" in r.stdout + r.stderr


@pytest.mark.parametrize(("old", "new", "where"), [
    # in holds itself: placed at holds, at the comparison's column
    ("holds: not running or all(p in players, count(display(p)) < six)",
     "holds: not running or all(p in players, count(display(p)) < six and display(p) == in_order(display(p)))",
     "(invariants[3].holds): this compares two collections"),
    # in a let: placed at the let that says it
    ("        and in_order(discard_pile) == in_order(old(discard_pile))",
     "        and discard_pile == old(discard_pile)",
     "(invariants[13].let.only_moved): this compares two collections"),
    # first of an unsorted collection, in a lemma
    ("          not running\n          or sum(p in players, played(p))",
     "          not running or first(display(actor)) in all_cards\n          or sum(p in players, played(p))",
     "(invariants[8].lemmas[0].holds): first(...) of cards or roles reads the order"),
])
def test_an_invariant_that_reads_the_order_cards_lie_in_is_refused(tmp_path: Path, old: str, new: str,
                                                                    where: str) -> None:
    """Z3 counts a zone's cards by kind, so an invariant comparing zones in the order their
    cards lie (or taking the first of one) would be proved of less than the engine checks:
    palast spec check refuses it where it is written; compared with in_order(...) it passes
    (the declared muted-card-does-nothing does so)."""
    _refused(tmp_path, old, new, where)


def test_a_step_invariant_reads_the_position_before(spec: Spec) -> None:
    """scores-rise-slowly, declared with old(...): a real action holds it; the same action
    with a score raised by hand, or a round end whose scorer did not score, does not."""
    game = make_game(spec, "reference", 3, check=False)
    rng = random.Random(3)
    s = game.initial_state()
    while True:
        legal = game.legal_actions(s)
        t = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
        if t.round_end is not None and s.round_end is None:
            break
        assert failure(game, "scores-rise-slowly", t, s) is None
        s = t
    assert failure(game, "scores-rise-slowly", t, s) is None
    scorer = t.round_end.scorers[0]  # type: ignore[union-attr]
    unscored = replace(t, scores=tuple(x - 1 if i == scorer else x for i, x in enumerate(t.scores)))
    why = failure(game, "scores-rise-slowly", unscored, s)
    assert why is not None and why.startswith(f"for p = {game.colour_name(scorer)}: "), why
    with pytest.raises(ValueError):
        failure(game, "scores-rise-slowly", t)


#: Lemmas known to be false in play with a rule module on, which the module does not declare
#: (a module declares broken invariants, and the proofs do not run with a module), each with why.
FALSE_WITH_A_MODULE = {
    "plays-within-progress": "the fan module's Dwarf destroys a displayed Jester, so displays shrink while the "
                             "cards played do not; round-is-bounded, whose lemma it is, is not proved with the module",
}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_lemmas_hold_in_every_position_of_real_play(spec: Spec, n: int) -> None:
    """The engine does not check lemmas (a constructed position need not satisfy them), so
    this does: every lemma holds in every position of games from a real deal, under every
    ruleset and named house ruleset (a rule module's included), but the lemmas of an
    invariant the ruleset declares broken (its prove list, a reading's breaks) or a module
    in play declares broken (state_problems leaves those out)."""
    from palast.formats.house import resolve
    from proofs.obligation import refuted

    for ruleset in [*spec.rulesets, *spec.house_rulesets]:
        gone = refuted(spec, ruleset)  # what the ruleset's prove list or readings declare broken
        rs_spec = spec if ruleset in spec.rulesets else resolve(spec, ruleset)
        moduled = any(rs_spec.reading(ruleset, m.point) == m.reading for m in rs_spec.modules.values())
        lemmas = [p.id for p in declared(spec) if p.lemma and p.invariant not in gone
                  and not (moduled and p.id in FALSE_WITH_A_MODULE)]
        game = make_game(rs_spec, ruleset, n, check=False)
        for s in _positions(game, range(3), every=1):
            problems = [x for x in state_problems(game, s, lemmas=True) if x[0] in lemmas]
            assert not problems, (ruleset, problems)


SIXTH = (Path(__file__).resolve().parent.parent / "examples" / "sixth-card-played.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset", ["source-a", "source-b"])
def test_an_invariant_reads_the_rulesets_reading(spec: Spec, ruleset: str) -> None:
    """muted-card-does-nothing takes "the sixth card played" as the ruleset reads
    sixth-card-action (its readings block): under source-b red's sixth card played may not
    act, so a Treasurer that opened a decision would be reported; under source-a it acts,
    and the same action is no concern of this invariant."""
    from tests.positions import position

    game, s = position(spec, ruleset, SIXTH, check=False)
    play = next(a for a in game.legal_actions(s) if game.cards.format_card(a.card) == "treasurer/red")
    after = game.apply(s, play).state
    assert failure(game, "muted-card-does-nothing", after, s) is None
    tampered = replace(after, decision=replace(after.decision, kind="discard", player=0))
    got = failure(game, "muted-card-does-nothing", tampered, s)
    if spec.reading(ruleset, "sixth-card-action") == "sixth-played":
        assert got is not None and "in_action(decision)" in got and "decision is discard" in got, got
    else:
        assert got is None


@pytest.mark.parametrize(("old", "new", "message"), [
    ('      open: {let: {sixth: "false"}}\n', "",
     "(invariants[13].readings): gives no let for open of sixth-card-action"),
    ("      point: sixth-card-action\n", "      point: sixth-card-actoin\n",
     "(invariants[13].readings.point): unknown variation point 'sixth-card-actoin'"),
    ("sixth-played: {let: {sixth: played(mover) == six}}", "sixth-played: {let: {sixth: played(mover) == sx}}",
     "(invariants[13].readings.sixth-played.let.sixth): unknown name 'sx'"),
    ('      open: {let: {sixth: "false"}}\n', '      open: {let: {sixth: "false", mover: actor}}\n',
     "(invariants[13].readings.open.let.mover): the name 'mover' is given twice"),
    ("      mover: old(actor)\n", "      ended: \"false\"\n      mover: old(actor)\n",
     "(invariants[13].let.ended): the name 'ended' is a primitive or a constant of the language"),
])
def test_spec_check_refuses_a_bad_readings_block(tmp_path: Path, old: str, new: str, message: str) -> None:
    from palast.errors import SpecError
    from palast.spec.load import load_spec

    with pytest.raises(SpecError) as exc:
        load_spec(edited_spec(tmp_path, "invariants.yaml", old, new))
    assert message in str(exc.value)


def test_an_invariant_reads_the_games_own_reading_when_a_test_overrides_it(spec: Spec) -> None:
    """The stateful tests override an engine parameter (a reading no ruleset takes); the
    declared next-player then takes the branch of that reading, as the engine does: after
    a grey card and a three-way tie, the first tied player in seat order moves, and that is
    no violation."""
    from palast.engine.params import Setting
    from tests.positions import position

    text = (Path(__file__).resolve().parent.parent / "examples" / "grey-three-way-tie.yaml").read_text(encoding="utf-8")
    game, s = position(spec, "reference", text, check=False)
    game.params = {**game.params, "neutral.tie": Setting("seat-order", game.params["neutral.tie"].point)}
    play = next(a for a in game.legal_actions(s) if game.cards.format_card(a.card) == "jester/grey")
    after = game.apply(s, play).state
    assert after.decision.kind == K.PLAY  # seat order: no one is asked
    assert failure(game, "next-player", after, s) is None
    asked = replace(after, decision=replace(after.decision, kind=K.NEXT_PLAYER))
    assert failure(game, "next-player", asked, s) is not None


def test_a_lemmas_colours_part_is_checked_by_the_engine_and_proved_at_the_card_level_only(spec: Spec) -> None:
    """decisions-well-formed's ``colours`` part (a next player is chosen only after a
    neutral card): a next-player decision after a coloured card breaks it in the engine
    and in the card-level Z3 term; the role-level term, which forgets colours, leaves the
    part out and holds there, while it still reads the rest of the lemma (a corruption of
    who decides breaks it at both levels)."""
    game = make_game(spec, "reference", 3, check=False)
    cards = game.cards
    lay, coarse = Layout(game, "card"), Layout(game, "role")
    found = 0
    for s in _positions(game, range(40), every=1):
        if s.decision.kind != K.NEXT_PLAYER:
            continue
        assert cards.is_neutral(s.last_card)
        assert failure(game, "decisions-well-formed", s) is None
        assert _z3_truth(lay, "decisions-well-formed", s) and _z3_truth(coarse, "decisions-well-formed", s)
        # the same role in a colour: the card laid is a coloured card now
        coloured = next(c for c in game.all_cards if cards.role_of(c) == cards.role_of(s.last_card)
                        and not cards.is_neutral(c))
        swap = {s.last_card: coloured, coloured: s.last_card}

        def moved(zone: tuple[int, ...], keep_sorted: bool = False, swap: dict[int, int] = swap) -> tuple[int, ...]:
            out = [swap.get(c, c) for c in zone]
            return tuple(sorted(out) if keep_sorted else out)
        t = replace(s, last_card=coloured, hands=tuple(moved(h, True) for h in s.hands),
                    displays=tuple(map(moved, s.displays)), deck=moved(s.deck), discard=moved(s.discard),
                    deck_bottom=moved(s.deck_bottom), unseen=moved(s.unseen, True))
        why = failure(game, "decisions-well-formed", t)
        assert why is not None and "neutral" in why, why
        assert not _z3_truth(lay, "decisions-well-formed", t)
        assert _z3_truth(coarse, "decisions-well-formed", t)
        # the rest of the lemma is compiled at the role level
        u = replace(s, decision=replace(s.decision, player=(s.decision.player + 1) % game.n))
        assert not _z3_truth(coarse, "decisions-well-formed", u) and not _z3_truth(lay, "decisions-well-formed", u)
        found += 1
        if found >= 3:
            break
    assert found, "no next-player decision in 40 games"


def test_spec_check_reports_a_broken_colours_part_at_its_place(tmp_path: Path) -> None:
    root = _spec_copy(tmp_path, "colours: decision != next_player or neutral(card)",
                      "colours: decision != next_player or neutrall(card)")
    r = subprocess.run([sys.executable, "-m", "palast", "--spec", str(root), "spec", "check"],
                       capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "lemmas[0].colours" in out and "unknown primitive 'neutrall'" in out, out
    assert "Traceback" not in out


@pytest.mark.parametrize(("file", "old", "new", "typo"), [
    # in the seventh line of a lemma's long folded expression
    ("invariants.yaml", "and (not game_over or ended)", "and (not gameover or ended)", "gameover"),
    # in a line indented further than the block (YAML keeps its break and indent)
    ("invariants.yaml", "(1 if owes_draw or drew_nothing else 0)))", "(1 if owes_draw or drew_nothng else 0)))",
     "drew_nothng"),
    # in a let that holds uses: placed in the let, not in holds
    ("invariants.yaml", "owes_draw: decision == draw and decider == p", "owes_draw: decision == draw and decidr == p",
     "decidr"),
    # in the second line of a rule's `when` (a do-style rule, checked by the statement checks)
    ("rules.yaml", "and any(c in playable, role(c) not in roles(display(actor)))",
     "and any(c in playable, role(c) not in rolez(display(actor)))", "rolez"),
])
def test_spec_check_places_an_error_inside_a_long_expression_at_its_own_line(
        tmp_path: Path, file: str, old: str, new: str, typo: str) -> None:
    """An unknown name inside an expression that YAML joins from several lines is reported
    at the line and column of the name as the file writes it, not at the start of the
    value, and the message quotes the expression from there on, not all of it."""
    root = _spec_copy(tmp_path, old, new) if file == "invariants.yaml" else edited_spec(tmp_path, file, old, new)
    lines = (root / file).read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if typo in text)
    column = lines[line - 1].index(typo) + 1
    r = subprocess.run([sys.executable, "-m", "palast", "--spec", str(root), "spec", "check"],
                       capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert f"{file}: line {line}, column {column} (" in out, out
    assert repr(typo) in out and "Traceback" not in out
    assert len(max(out.splitlines(), key=len)) < 300, out  # not the whole joined expression


@pytest.mark.parametrize(("text", "holds"), [
    # a part inside old(...) that does not read the inner bound variable was computed once,
    # before the loop, on the position after the action (it read 2 Treasurers, not 1)
    ("all(p in players, all(r in all_roles, old(occurrences(roles(display(p)), r)) "
     "== occurrences(roles(old(display(p))), r)))", True),
    ("any(p in players, any(r in all_roles, old(occurrences(roles(display(p)), r)) == 2))", False),
    # the same part inside and outside old(...) was computed once, on the position after
    ("count(roles(display(first(players)))) == old(count(roles(display(first(players)))))", False),
    ("count(roles(display(first(players)))) == old(count(roles(display(first(players))))) + 1", True),
])
def test_old_reads_the_position_before_even_where_a_part_is_computed_early(spec: Spec, text: str,
                                                                           holds: bool) -> None:
    """The engine's compiler computes a part that builds a collection once, before a loop
    or before the expression (a fast path); a part inside old(...) must be left to old,
    which reads the position before the action."""
    from palast.invariants.reach import condition

    game = make_game(spec, "reference", 3, check=False)
    cards = game.cards
    before = replace(game.initial_state(), displays=(
        tuple(cards.parse_card(c) for c in ("maid/red", "treasurer/red")), (), ()))
    after = replace(before, displays=(
        tuple(cards.parse_card(c) for c in ("maid/red", "treasurer/red", "treasurer/blue")), (), ()))
    assert condition(game, text)(after, before) is holds


@pytest.mark.parametrize("text", [
    "all(p in players, count(old(display(p))) == old(count(display(p))))",
    "count(old(hand(actor))) == old(count(hand(actor)))",
    "count(roles(old(display(first(players))))) == old(count(display(first(players))))",
    "any(r in all_roles, occurrences(roles(old(display(first(players)))), r) != "
    "old(occurrences(roles(display(first(players))), r)))",
    "any(p in players, empty(old(hand(p))) != old(empty(hand(p))))",
    "any(p in players, any(c in all_cards, (c in old(display(p))) != (c in display(p))))",
])
def test_both_back_ends_read_a_zone_of_old_on_the_position_before(spec: Spec, text: str) -> None:
    """count, empty, roles and membership of a zone taken inside old(...) read the position
    before the action in Z3 as in the engine (Z3 counted old(display(p)) on the position
    after): the same truth value on real actions and on actions whose displays were
    corrupted."""
    from palast.invariants.reach import condition
    from proofs.lang_z3 import compile_condition

    game = make_game(spec, "reference", 3, check=False)
    lay = Layout(game, "card")

    def const(state: State) -> ZState:
        values = abstract(lay, state)
        return ZState(lay, {name: (z3.IntVal(int(values[name])) if sort == "int" else z3.BoolVal(bool(values[name])))
                            for name, sort in field_names(lay)})

    engine = condition(game, text)
    rng = random.Random(2)
    s = game.initial_state()
    seen = set()
    for i in range(60):
        legal = game.legal_actions(s)
        t = game.apply(s, rng.choice(legal) if legal else game.sample_chance(s, rng)).state
        if i % 4 == 0:
            for after in (t, replace(t, displays=tuple(d + d[:1] for d in t.displays))):
                term = z3.simplify(compile_condition(const(after), text, const(s)))
                assert z3.is_true(term) or z3.is_false(term), term
                assert z3.is_true(term) == engine(after, s), (text, s, after)
                seen.add(engine(after, s))
        s = t
    assert seen  # compared at least once


@pytest.mark.parametrize(("old", "new", "said"), [
    # a let that reads old(...), used inside old(...): placed where it is used
    ("or occurrences(mine, r) <= old(occurrences(roles(display(actor)), r)))",
     "or occurrences(mine, r) <= old(occurrences(mine, r)))",
     "(invariants[15].holds): old(...) inside old(...): the position before an action has no before (the let "
     "mine it uses reads old(...))"),
    ("or occurrences(mine, r) <= old(occurrences(roles(display(actor)), r)))",
     "or occurrences(mine, r) <= old(occurrences(roles(display(old(actor))), r)))",
     "(invariants[15].holds): old(...) inside old(...)"),
    # old(c in X) reads as a binder named old: say how to write it
    ("or occurrences(mine, r) <= old(occurrences(roles(display(actor)), r)))",
     "or occurrences(mine, r) <= old(occurrences(roles(display(actor)), r)))"
     " or any(c in all_cards, old(c in hand(actor)))",
     "old does not bind a variable: to ask whether c was in hand(actor) before the action, write c in "
     "old(hand(actor))"),
], ids=["let-inside-old", "old-inside-old", "old-of-membership"])
def test_old_inside_old_is_refused_where_it_is_written(tmp_path: Path, old: str, new: str, said: str) -> None:
    _refused(tmp_path, old, new, said)


@pytest.mark.parametrize(("new", "said"), [
    # a let of the invariant that holds never reads
    ("mine: roles(display(old(actor)))\n      spare: count(players)",
     "(invariants[15].let.spare): the name 'spare' is given, but holds uses it neither directly nor through "
     "another name"),
    # a let that only another unused let reads is unused too
    ("mine: roles(display(old(actor)))\n      spare: count(players)\n      spare2: spare + 1",
     "(invariants[15].let.spare2): the name 'spare2' is given, but holds uses it"),
], ids=["unused", "unused-chain"])
def test_a_let_that_holds_never_uses_is_refused(tmp_path: Path, new: str, said: str) -> None:
    """A part written but never checked is refused at its let."""
    _refused(tmp_path, "mine: roles(display(old(actor)))", new, said)
