"""The rule language (palast/lang): what its syntax refuses, what its checker reports, and
that a broken declaration is reported by spec check at its file, line and key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from palast.errors import SpecError
from palast.lang.compiler import Compiler, check
from palast.lang.kinds import infer
from palast.lang.syntax import ExpressionError, parse, show
from palast.spec.load import Spec, load_spec

SPEC = Path(__file__).resolve().parent.parent / "spec"


@pytest.mark.parametrize("text", [
    "__import__('os').system('echo hi')", "open('x')", "lambda: 1", "'text'", "x.y", "a[0]", "f(x=1)",
    "(y := 1)", "[c for c in hand(actor)]", "1 < 2 < 3", "2 // 3", "",
])
def test_syntax_refuses_what_is_not_the_language(text: str) -> None:
    with pytest.raises(ExpressionError):
        parse(text)


def test_show_writes_an_expression_back() -> None:
    text = "fewest(p in players, count(display(p)))"
    assert show(parse(text)) == text
    assert show(parse("not neutral(card)")) == "not neutral(card)"


@pytest.mark.parametrize(("text", "message"), [
    ("ownr(card)", "unknown primitive"),
    ("count(hand(actor), 1)", "takes 1 argument"),
    ("filter(hand(actor))", "binds a variable"),
    ("lowest", "unknown name"),
])
def test_check_reports_unknown_names_and_arity(text: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message):
        check(parse(text), set())


@pytest.mark.parametrize(("text", "kind"), [
    ("fewest(p in players, count(display(p)))", "seats"), ("role(card) == banned", "bool"),
    ("occurrences(roles(display(actor)), role(card))", "int"), ("[actor]", "seats"),
    ("upto(1, smaller(count(hand(actor)), 3))", "ints"), ("first(players)", "seat"),
])
def test_kinds_are_inferred(text: str, kind: str) -> None:
    assert infer(parse(text), {}, {"jester"}) == kind


@pytest.mark.parametrize("text", [
    "card == jester", "first(players) + 7", "not count(players)", "count(actor)", "actor in hand(actor)",
    "[actor, card]",
])
def test_kinds_that_do_not_fit_are_refused(text: str) -> None:
    with pytest.raises(ExpressionError):
        infer(parse(text), {}, {"jester"})


def test_compiled_expressions_compute_on_a_position() -> None:
    from types import SimpleNamespace

    comp = Compiler({"P": (0, 1, 2), "NR": 7, "NEUTRAL": 5, "OWNER": (0, 1, 2, -1, -1, -1),
                     "OTHERS": ((1, 2), (0, 2), (0, 1)), "TARGET": 6, "SIX": 6, "HS": 6}, {"jester": 6})
    fewest = comp.add(parse("fewest(p in players, count(display(p)))"))
    repeat = comp.add(parse("occurrences(roles(display(actor)), role(card)) > 1"))
    comp.build()
    d = SimpleNamespace(displays=((1, 8), (3,), (4,)), actor=0, last_card=8)
    assert fewest[0](d) == (1, 2)
    assert repeat[0](d) is True  # cards 1 and 8 show role 1
    d2 = SimpleNamespace(displays=((1, 9), (3,), (4,)), actor=0, last_card=9)
    assert repeat[0](d2) is False


@pytest.mark.parametrize(("find", "replace", "reported"), [
    ("next: owner(colour(card))", "next: ownr(colour(card))", "unknown primitive 'ownr'"),
    ("when: count(lowest) > 1", "when: count(lowest) >", "not an expression"),
    ("when: neutral(card)", "when: card == jester", "must be card, not role"),
    ("next: first(lowest)", "next: count(lowest)", "next is seat in the rule it bends, not int"),
    ("        player-who-played:\n", "        player-who-payed:\n", "player-who-played"),
    # a set statement's counter: placed at its own key/value pair, the key written as in the file
    ("played(actor): played(actor) + 1}", "played(actr): played(actor) + 1}",
     "line 104, column 50 (rules[5].logic.do[2].set.played(actr)): unknown name 'actr' (column 8 of the "
     "expression in played(actr))"),
    ("played(actor): played(actor) + 1}", "played(actor): played(actr) + 1}",
     "line 104, column 58 (rules[5].logic.do[2].set.played(actor)): unknown name 'actr'"),
    # a key that does not parse: its column is the key's, so the value's place is not given one
    ("played(actor): played(actor) + 1}", "played(actor: played(actor) + 1}",
     "line 104, column 50 (rules[5].logic.do[2].set.played(actor): not an expression: '(' was never closed "
     "(column 7 of the key 'played(actor')"),
    ("played(actor): played(actor) + 1}", "playd(actor): played(actor) + 1}",
     "set cannot change 'playd(actor)' (it changes: card, played(P), marks)"),
    ("exception_of: turn.next.neutral", "exception_of: turn.next.nope",
     "is no rule with statements of step next-player"),
    # a rule that bends an exception of itself: reported, not followed round and round
    ("      step: turn\n      let:\n        playable: distinct(hand(actor))",
     "      step: turn\n      exception_of: king.jester\n      let:\n        playable: distinct(hand(actor))",
     "the rules bent by exception_of lead back to"),
])
def test_spec_check_reports_a_broken_declaration_at_its_place(tmp_path: Path, find: str, replace: str,
                                                              reported: str) -> None:
    copy = tmp_path / "spec"
    shutil.copytree(SPEC, copy)
    rules = copy / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert find in text
    rules.write_text(text.replace(find, replace, 1), encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        load_spec(copy)
    message = str(exc.value)
    assert reported in message
    assert "rules.yaml: line " in message and ".logic." in message


def test_a_readings_value_is_not_in_scope_of_when(tmp_path: Path) -> None:
    """A reading's values (wizard-minimum's ``least``) exist once the rule applies, so its
    ``when`` cannot use them: spec check says so instead of the engine failing to build."""
    copy = tmp_path / "spec"
    shutil.copytree(SPEC, copy)
    roles = copy / "roles.yaml"
    text = roles.read_text(encoding="utf-8")
    find = "          step: role-action\n          readings:\n            point: wizard-minimum\n"
    assert find in text
    roles.write_text(text.replace(find, find.replace("role-action\n", "role-action\n          when: least > 0\n")),
                     encoding="utf-8")
    with pytest.raises(SpecError, match=r"logic\.when\): unknown name 'least'"):
        load_spec(copy)


def test_every_declared_rule_cites_clauses_and_has_a_page(spec: Spec) -> None:
    """Every rule with a logic block is a rule of the spec with clauses; the book renders
    each rule of a topic (docs pages list the topics), so a declared rule without a topic
    would have no page."""
    from palast.lang.blocks import program
    from palast.lang.logic import declarations

    declared = [d.rule for d in declarations(spec)] + list(program(spec).rules)
    assert len(declared) >= 15
    for rid in declared:
        rule = spec.rules[rid]
        assert rule.clauses
        assert rule.topic, f"{rid} has no topic, so no chapter of the book shows it"


def _shape(node: object) -> object:
    """A node without its columns."""
    from palast.lang.syntax import Node

    assert isinstance(node, Node)
    args: list[object] = []
    for a in node.args:  # "a and (b and c)" and "a and b and c" mean the same
        shaped = _shape(a)
        if node.op in ("and", "or") and a.op == node.op:
            args.extend(shaped[2])  # type: ignore[index]
        else:
            args.append(shaped)
    return (node.op, node.value, tuple(args))


@pytest.mark.parametrize("text", [
    "a - (b - c)", "a - b - c", "(a or b) and c", "not (a and b)", "not a == b", "(1 if a else 2) + 3",
    "x if a else y if b else z", "(a if b else c) if d else e", "2 * (3 + 4)", "2 * 3 + 4", "(a == b) == c",
])
def test_show_brackets_exactly_what_the_meaning_needs(text: str) -> None:
    """show() writes back an expression that reads as the same tree, with no brackets
    Python's own order of operators makes needless."""
    node = parse(text)
    assert _shape(parse(show(node))) == _shape(node)
    assert show(node) == text


def test_every_declared_expression_shows_as_itself(spec: Spec) -> None:
    from palast.lang.invariant_exprs import declared

    for prop in declared(spec):
        assert _shape(parse(show(prop.node))) == _shape(prop.node), prop.id


def test_show_lines_breaks_a_long_expression_and_keeps_its_meaning(spec: Spec) -> None:
    """The rulebook shows each declared condition broken over lines (show_lines): read again
    it is the same tree, no line of a declared one is longer than 88 characters, and a short
    expression stays on one line."""
    from palast.lang.syntax import show_lines

    texts = [inv.holds for inv in spec.invariants.values() if inv.holds is not None]
    texts += [lem.holds for inv in spec.invariants.values() for lem in inv.lemmas]
    texts += [q.reaches for q in spec.reachability.values() if q.reaches is not None]
    assert len(texts) > 20
    for text in texts:
        node = parse(text)
        out = show_lines(node)
        assert _shape(parse(out)) == _shape(node), text
        assert max(len(line) for line in out.splitlines()) <= 88, out
    assert show_lines(parse("a and (b or c)")) == "a and (b or c)"
    long = parse("first_condition_here and (second_condition or third_condition) and all(p in players, "
                 "score(p) >= 0 and played(p) >= count(display(p)))")
    assert show_lines(long, width=48) == (
        "first_condition_here\n"
        "and (second_condition or third_condition)\n"
        "and all(p in players,\n"
        "        score(p) >= 0\n"
        "        and played(p) >= count(display(p)))")


def test_a_primitive_used_once_says_why_it_is_one(spec: Spec) -> None:
    """A primitive that one declaration uses (or none) is listed with a reason
    (``ALONE``), and a listed one is still used at most once (else the list is stale)."""
    from palast.lang.primitives import ALONE
    from palast.lang.usage import primitive_uses

    uses = primitive_uses(spec)
    missing = {name for name, owners in uses.items() if len(owners) <= 1 and name not in ALONE}
    # a primitive given to rule modules (a mark, no card) is listed for the base game, where
    # no declaration or one uses it; the modules' own uses do not make the reason stale
    module_rules = {r for m in spec.modules.values() for r in m.rules}
    stale = {name for name in ALONE if len(set(uses.get(name, ())) - module_rules) > 1}
    assert not missing and not stale, (sorted(missing), sorted(stale))
    # the count sees every kind of declaration: a rule's logic, an invariant, a lemma, a readings branch
    assert "role.wizard" in uses["upto"] and "turn-is-bounded" in uses["follows"]
    assert "hand-plus-display" in uses["round"] and "muted-card-does-nothing" in uses["six"]


def test_each_computes_a_parts_role_once(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python of an ``each`` binds ``role(x)`` of a part once, right after the part is
    chosen (a fast path); the options are those found when each ``role(x)`` is computed
    where it is read, on positions of random games."""
    from palast.engine import Game
    from palast.lang import compiler
    from palast.lang.syntax import each_node
    from tests.positions import random_walk

    game = Game(spec, "reference", list(spec.player_colours[:4]))
    roles = {r: i for i, r in enumerate(spec.roles)}

    def options() -> list[object]:
        node = each_node([("a", parse("players")), ("x", parse("display(a)")), ("y", parse("hand(actor)"))],
                         [(parse("role(x) != role(y)"), None),
                          (parse("role(y) not in roles(display(a)) or role(x) == role(y) or colour(x) == colour(y)"),
                           None)])
        comp = Compiler(game.lang_constants, roles)
        slot = comp.add(node)
        comp.build()
        source = compiler.python_source(node, {}, roles)
        found: list[object] = [source]
        for seed in range(6):
            found.extend(slot[0](state) for state, _ in random_walk(game, seed, 40))
        return found

    fast = options()
    monkeypatch.setattr(compiler, "_per_part", lambda conds, order: {})
    plain = options()
    assert "_role_x" in str(fast[0]) and "_role_x" not in str(plain[0])
    assert fast[1:] == plain[1:] and any(fast[1:])


def test_a_distinct_that_reads_no_loop_variable_is_computed_before_the_loop() -> None:
    """``distinct`` builds a collection: inside a binder whose variable it does not read it
    is computed once, before the loop (a fast path that decides by the template)."""
    from palast.lang.compiler import python_source

    src = python_source(parse("any(p in players, occurrences(distinct(hand(actor)), card) > 1)"), {}, {})
    loop = src[src.index("any(["):src.index("]))")]
    assert src.startswith("(lambda ") and "_distinct(" in src and "_distinct(" not in loop, src


def test_each_binds_what_its_conditions_hoist(spec: Spec, monkeypatch: pytest.MonkeyPatch) -> None:
    """A collection a condition builds from a part's role is computed after that role is
    bound, and one that reads no part before the first part: both compile and compute what
    the plain code computes (a fresh review found a KeyError and a NameError)."""
    from palast.engine import Game
    from palast.lang import compiler
    from palast.lang.syntax import each_node
    from tests.positions import random_walk

    game = Game(spec, "reference", list(spec.player_colours[:3]))
    roles = {r: i for i, r in enumerate(spec.roles)}
    states = [s for seed in range(4) for s, _ in random_walk(game, seed, 40)]

    def values() -> tuple[list[object], list[object]]:
        by_role = each_node([("a", parse("players")), ("x", parse("display(a)")), ("y", parse("hand(actor)"))],
                            [(parse("role(y) in upto(role(x), 6)"), None), (parse("role(x) != 3"), None)])
        once = each_node([("x", parse("hand(actor)"))], [(parse("occurrences(distinct(hand(actor)), x) == 1"), None)])
        comp = Compiler(game.lang_constants, roles)
        slots = comp.add(by_role), comp.add(once)
        comp.build()
        return [slots[0][0](s) for s in states], [slots[1][0](s) for s in states]

    fast, once = values()
    # every card of the hand occurs once in the hand without repeats
    assert once == [tuple((c,) for c in s.hands[s.actor]) for s in states]
    monkeypatch.setattr(compiler, "_per_part", lambda conds, order: {})
    plain, _ = values()
    assert fast == plain and any(fast)


def test_each_tests_a_common_first_part_once_and_loops_over_lists(spec: Spec,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Conditions of an ``each`` that begin with the same ``A or ...`` are written as one
    (``A`` tested once), a part's collection the loop only visits is left a list
    (:mod:`palast.lang.each_fast`) and a part chosen from a filter tests the filter's
    condition in the loop: the options are those the plain code computes, in order."""
    from palast.engine import Game
    from palast.lang import compiler
    from palast.lang.syntax import each_node
    from tests.positions import random_walk

    game = Game(spec, "reference", list(spec.player_colours[:4]))
    roles = {r: i for i, r in enumerate(spec.roles)}
    states = [s for seed in range(5) for s, _ in random_walk(game, seed, 40)]

    def values() -> tuple[str, list[object]]:
        node = each_node([("a", parse("players")), ("b", parse("filter(q in players, seat(q) > seat(a))")),
                          ("x", parse("in_order(distinct(display(a)))")), ("y", parse("display(b)"))],
                         [(parse("role(x) == role(y) or role(y) not in roles(display(a)) or a == actor"), None),
                          (parse("role(x) == role(y) or role(y) not in roles(display(a)) or a != actor"), None),
                          (parse("role(x) == role(y) or role(x) not in roles(display(b))"), None),
                          (parse("x != y or a == actor"), None)])
        comp = Compiler(game.lang_constants, roles)
        slot = comp.add(node)
        comp.build()
        return compiler.python_source(node, {}, roles), [slot[0](s) for s in states]

    fast_source, fast = values()
    monkeypatch.setattr(compiler, "factored", lambda tests: tests)
    monkeypatch.setattr(compiler, "iterable", lambda src: src)
    monkeypatch.setattr(compiler, "_flat_filter", lambda coll: False)
    plain_source, plain = values()
    assert fast_source.count("(_role_x == _role_y)") == 1 < plain_source.count("(_role_x == _role_y)")
    assert "for v_b in P if (v_b > v_a)" in fast_source and "for v_b in tuple([" in plain_source
    assert "(sorted(set(D.displays[v_a])),)" in fast_source
    assert "(tuple(sorted(set(D.displays[v_a]))),)" in plain_source
    assert fast == plain and any(fast)


def test_first_of_an_empty_collection_is_a_clear_error(tmp_path: Path) -> None:
    """A declaration ``palast spec check`` accepts but that takes ``first`` of an empty
    collection while a game runs (the next player: the first of no player) stops ``play``
    and ``ask`` with exit code 2 and a message naming the expression, not a traceback."""
    from click.testing import CliRunner

    from palast.cli import main
    from tests.spec_copy import ROOT, edited_spec

    root = edited_spec(tmp_path, "rules.yaml", "let: {next: owner(colour(card))}",
                       'let: {next: "first(filter(p in players, false))"}')
    runner = CliRunner()
    assert runner.invoke(main, ["--spec", str(root), "spec", "check"]).exit_code == 0
    for args in (["play", "-q", "-s", "1"], ["ask", str(ROOT / "examples" / "guard-alone.yaml")]):
        got = runner.invoke(main, ["--spec", str(root), *args])
        assert got.exit_code == 2, got.output
        assert "first(filter(p in players, false)) took the first element of an empty collection" in got.output
        assert "Traceback" not in got.output and not isinstance(got.exception, IndexError)
