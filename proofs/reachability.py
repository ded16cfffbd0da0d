"""Reachability questions: witnesses from real deals, or proofs that no such position exists.

* the questions of ``reachability`` in ``spec/invariants.yaml``: can an action fire one of
  the rules a question names (``fires``) and reach a position where its condition holds
  (``reaches``, a rule-language expression; ``old(...)`` reads the position before)?
  Under a ruleset one of its stored games answers (a witness, :func:`witness_questions`),
  the game is replayed by the engine, which evaluates the same declaration on its last
  action, and checked step by step against the Z3 transition (:mod:`proofs.witness`).
  Elsewhere Z3 is asked whether an action of any kind, from a position satisfying the
  strengthening, does it; if none can, the answer is no-such-state, and no game from a
  real deal does it. A named house ruleset's ``prove`` list may expect another answer
  (house-guard: no Guard is void).
* **deck-reserve** — the lemma that maid-empty-deck rests on, proved by induction: inside a
  round, the draw deck plus the Maids and Guards displayed (minus a pending take-back, plus
  a pending Maid draw) is at least the draw deck right after a deal (:func:`deck_reserve`).

A witness's search is declared with it: its ruleset, bound, a ``sketch`` of the decisions to
answer, rounds to find first (``rounds_before``), and ``alike`` (only steps that every
ruleset it answers under plays alike: steps of each ruleset's Z3 transition at once).
:func:`never_reached` names the reachability questions that excuse their rules under a
ruleset, where the differential check's coverage (:mod:`proofs.coverage`) rests on them.
Clauses: those of each reachability question (spec/invariants.yaml).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import z3

from palast.engine import Game, Step
from palast.engine.actions import Action
from palast.engine.state import DecisionKind, State
from palast.invariants.reach import condition, reached, singles_out
from palast.spec.load import Spec
from palast.spec.model import Reachability, ReachWitness
from proofs.concrete import abstract, pin_state
from proofs.declared_z3 import declared
from proofs.encoding import ZState
from proofs.invariant import (
    STRENGTHENING,
    context,
    player_counts,
    prove_invariant,
)
from proofs.lang_z3 import compile_condition
from proofs.obligation import Obligation, Options, Outcome, house_prove_lists
from proofs.search import Unroller, find_path, replay
from proofs.step import prove_step
from proofs.witness import EngineCheck, Goal, NoPath, Question, verify
from proofs.z3_values import NotCompiled

K = DecisionKind
FAMILY = "reachability"


def deck_reserve(s: ZState) -> Any:
    """deck-reserve (a lemma of hand-plus-display), compiled from its declaration
    (:mod:`proofs.lang_z3`)."""
    return declared(s, "deck-reserve")


def unmarked(spec: Spec, ruleset: str, rules: tuple[str, ...]) -> list[str]:
    """The rules of ``rules`` that no action of the role-level model marks with a
    ``rule:RULE`` flag under ``ruleset`` (at any player count): the model carries out their
    effects without a path of their own (a round end, the game's end), so whether they fire
    is not a question it can answer, and asking it would find them never firing."""
    marked: set[str] = set()
    for n in player_counts(spec):
        ctx = context(spec, ruleset, n, "role")
        for kind in ctx.kinds:
            marked.update(ctx.rel[kind][1].flags)
    return [r for r in rules if f"rule:{r}" not in marked]


def expected(spec: Spec, ruleset: str, question: str) -> str:
    """The answer the reachability question ``question`` must give under ``ruleset``: as a
    named house ruleset's ``prove`` list says, else as the question expects."""
    return house_prove_lists(spec).get(ruleset, {}).get(question, spec.reachability[question].expect)


def _run_reachability(spec: Spec, opts: Options, ruleset: str, question: str) -> Outcome:
    try:
        return _answer(spec, opts, ruleset, question)
    except NotCompiled as exc:
        r = spec.reachability[question]
        doc = spec.documents["invariants.yaml"]
        i = list(spec.reachability).index(question)
        return Outcome("error", f"{doc.file}: {doc.place(['reachability', i, 'reaches'])}: the proofs cannot compile "
                                f"the condition of {r.id} to Z3: {exc}")


def _answer(spec: Spec, opts: Options, ruleset: str, question: str) -> Outcome:
    r = spec.reachability[question]
    w = r.witness_for(ruleset)
    if w is not None and expected(spec, ruleset, question) == "witness":
        # a stored game from a real deal shows it: nothing to ask of the strengthening
        return verify(spec, _question(spec, r, w), ruleset, opts.out_dir if opts.search else None)
    what = _what(r)
    blind = unmarked(spec, ruleset, r.fires)
    if blind:
        return Outcome("error", f"the model marks no path of {', '.join(blind)} (it carries such rules out without a "
                                "flag of their own), so it cannot tell whether they fire: ask about rules it marks")
    never, where = _never_does(spec, ruleset, r)
    if never:
        return Outcome("no-such-state", f"no action from a position satisfying the strengthening {what} ({where})")
    # a ruleset the declaration names no game for (a house ruleset): the game stored for every
    # ruleset, where there is one, replayed under it
    w = w or next((x for x in r.witnesses if x.every), None)
    if w is None:
        return Outcome("unknown", f"an action from a position satisfying the strengthening {what} ({where}); that "
                                  "need not be a position of real play, and no game was searched")
    out = verify(spec, _question(spec, r, w), ruleset, opts.out_dir if opts.search else None)
    if out.result != "witness":
        return Outcome(out.result, f"Z3 finds an action that {what} ({where}), but {out.detail}", out.files)
    return out


def _what(r: Reachability) -> str:
    """What question ``r`` asks of an action, in words."""
    parts = [f"fires {', '.join(r.fires)}"] if r.fires else []
    if r.reaches is not None:
        parts.append(f"reaches {' '.join(r.reaches.split())}")
    return " and ".join(parts)


def _never_does(spec: Spec, ruleset: str, r: Reachability) -> tuple[bool, str]:
    """Whether no action of any kind, from a position satisfying the strengthening, does
    what ``r`` asks (:func:`proofs.step.prove_step`, every player count).

    :returns: ``(True, the player counts)`` or ``(False, where one does)``.
    """
    return prove_step(spec, ruleset, None,
                      lambda ctx, k: z3.Not(_does(r, lambda name: ctx.flag(k, name), ctx.t, ctx.s)))


def _does(r: Reachability, flag: Callable[[str], Any], after: ZState, before: ZState) -> Any:
    """The Z3 condition that an action from ``before`` to ``after`` (whose path flags
    ``flag`` gives) does what ``r`` asks: fires one of ``r.fires`` (if any) and reaches a
    position where ``r.reaches`` holds (if given). The search's goal and the question put
    to the strengthening are both this."""
    parts = [z3.Or([flag(f"rule:{rule}") for rule in r.fires])] if r.fires else []
    if r.reaches is not None:
        parts.append(compile_condition(after, r.reaches, before=before))
    return z3.And(parts)


# ---------------------------------------------------------------------- witnesses

def _goal(r: Reachability) -> Goal:
    """The Z3 goal of question ``r`` on step ``i`` of a path: it fires one of ``r.fires``
    (if any) and reaches a position where ``r.reaches`` holds (if given)."""
    def goal(u: Unroller, i: int) -> Any:
        return _does(r, lambda name: u.flag(i, name), u.state(i + 1), u.state(i))
    return goal


def _engine_check(r: Reachability) -> EngineCheck:
    """The engine's check of a witness of ``r``: its last action does what ``r`` asks
    (:func:`palast.invariants.reach.reached`, the same declaration evaluated by the engine)."""
    def engine_check(game: Game, start: State, steps: list[Step]) -> str | None:
        if not steps:
            return "it has no action after the deal (a witness's last action must reach the position)"
        before = steps[-2].state if len(steps) >= 2 else start
        problem = reached(game, r.fires, r.reaches, before, steps[-1].state, steps[-1].events)
        if problem is not None:
            return f"its last action does not answer {r.id}: {problem}"
        if r.reaches is not None and singles_out(game, r.reaches, start, [x.state for x in steps[:-1]]) is False:
            return (f"the condition of {r.id} is not false after any action of the stored game before its last "
                    "(it holds, or cannot be evaluated, after each): it does not single out the position the game "
                    "was stored to show")
        return None
    return engine_check


def _alike(spec: Spec, w: ReachWitness, goal: Goal | None = None) -> Goal:
    """A witness's ``alike``: step ``i`` of a path searched under ``w.ruleset`` is also a step
    of the Z3 transition of every other ruleset of ``w.rulesets``, from the same position,
    by the same action, to the same position (the positions and actions of every ruleset's
    :class:`~proofs.search.Unroller` are the same Z3 constants), so the rulesets play it
    alike; a step where ``goal`` holds is exempt (the position asked about may be one where
    the rulesets differ, as a game end their tie-breaks break differently)."""
    others: list[Unroller] = []  # built on first use: only a search needs them

    def alike(u: Unroller, i: int) -> Any:
        if not others:
            others.extend(Unroller(context(spec, r, w.players, "card")) for r in w.rulesets if r != w.ruleset)
        same = z3.And([o.step(i) for o in others])
        return same if goal is None else z3.Or(goal(u, i), same)
    return alike


def _side(spec: Spec, w: ReachWitness, goal: Goal) -> Goal | None:
    """The condition on every step of the last search of witness ``w``: alike under its
    rulesets up to the goal (``alike``) and answering the decision ``sketch`` names for it."""
    sketch = w.sketch
    if not w.alike and not sketch:
        return None
    alike = _alike(spec, w, goal) if w.alike else None

    def side(u: Unroller, i: int) -> Any:
        parts = [alike(u, i)] if alike is not None else []
        if sketch:
            parts.append(u.state(i)["dk"] == u.ctx.lay.code(sketch[i]) if i < len(sketch) else z3.BoolVal(False))
        return z3.And(parts)
    return side


def _rounds_finder(spec: Spec, q: Question, w: ReachWitness) -> list[Action]:
    """Rounds searched one by one from the start of a game (each ending where
    ``w.rounds_before.reaches`` holds, alike under every ruleset where ``w.alike``) until
    ``w.rounds_before.until`` holds of the position reached, then the last search for the
    question's goal (guided by ``w``'s sketch). Every round is a Z3 search from the engine's
    position, replayed by the engine."""
    rb = w.rounds_before
    assert rb is not None
    ctx = context(spec, q.ruleset, q.players, "card")
    u = Unroller(ctx)
    game = ctx.game
    state = game.initial_state()
    actions: list[Action] = []

    def search(goal: Goal, steps: int, side: Goal | None, deep: bool = False, least: int = 1) -> None:
        nonlocal state
        start = abstract(ctx.lay, state)
        path = find_path(u, lambda s: z3.And(pin_state(s, start)), goal, max_steps=steps, min_steps=least, side=side,
                         deep=deep)
        if path is None:
            raise NoPath(f"no path of at most {steps} actions from the position after {len(actions)} actions")
        state = replay(game, state, path)[-1].state
        actions.extend(path.actions)

    def round_end(u: Unroller, i: int) -> Any:
        return compile_condition(u.state(i + 1), rb.reaches, before=u.state(i))

    until = condition(game, rb.until)
    while not until(state, state):
        search(round_end, rb.max_steps, _alike(spec, w) if w.alike else None)
    search(q.goal, w.max_steps, q.side, deep=w.deep, least=w.min_steps)
    return actions


def _question(spec: Spec, r: Reachability, w: ReachWitness) -> Question:
    """The witness question of question ``r`` answered by its witness ``w``."""
    comment = "\n".join(textwrap.wrap(
        "Witness found by Z3 (bounded model checking from the deal) and replayed by the engine. "
        f"{' '.join(r.statement.split())} Clauses: {spec.cite(r.clauses)}."))
    goal = _goal(r)
    q = Question(r.id, w.title, r.question, comment, w.ruleset, w.rulesets, w.players, goal, _engine_check(r),
                 max_steps=w.max_steps, side=_side(spec, w, goal), min_steps=w.min_steps, deep=w.deep,
                 stem=w.file.removesuffix(".yaml"))
    if w.rounds_before is not None:
        q = replace(q, finder=partial(_rounds_finder, w=w))
    return q


def witness_questions(spec: Spec) -> list[Question]:
    """Every stored witness of the reachability questions of spec/invariants.yaml, as the
    question it answers (one per witness: a question may have one per group of rulesets)."""
    return [_question(spec, r, w) for r in spec.reachability.values() for w in r.witnesses]


def _run_reserve(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, deck_reserve, name="deck-reserve", out_dir=opts.out_dir)


def rules_never_reached(spec: Spec) -> dict[str, tuple[str, ...]]:
    """Every reachability question of spec/invariants.yaml that asks whether rules fire at
    all (one without ``reaches``) -> those rules: the ones it shows never fire where its
    obligation ends in no-such-state."""
    return {r.id: r.fires for r in spec.reachability.values() if r.reaches is None and r.fires}


def never_reached(spec: Spec, ruleset: str) -> dict[str, tuple[str, ...]]:
    """The reachability questions (spec/invariants.yaml) that excuse their rules under
    ``ruleset``: those whose obligation must end in no-such-state there, as a named house
    ruleset's ``prove`` list declares it (:func:`proofs.obligation.house_prove_lists`; an
    obligation it does not list excuses nothing), else as the question expects. The
    differential check's coverage (:mod:`proofs.coverage`) rests on them for rules that fire
    in none of its positions.

    :returns: question id → the rules it shows never fire, in the spec's order.
    """
    listed = house_prove_lists(spec)
    out = {}
    for r in spec.reachability.values():
        if r.reaches is not None or not r.fires:  # it asks about more than whether they fire
            continue
        expect = listed[ruleset].get(r.id) if ruleset in listed else r.expect
        if expect == "no-such-state":
            out[r.id] = r.fires
    return out


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations."""
    listed = house_prove_lists(spec)
    out = []
    for r in spec.rulesets:
        out.append(Obligation("deck-reserve", r, "proved",
                              "inside a round the draw deck plus Maids and Guards displayed never falls below the "
                              "deck after the deal",
                              partial(_run_reserve, ruleset=r), FAMILY, ("hand-plus-display",),
                              needs=STRENGTHENING))
        for rq in spec.reachability.values():
            if r not in rq.asked_under(spec.rulesets):
                continue
            # a no-such-state answer rests on the strengthening; a witness assumes nothing
            expect = listed.get(r, {}).get(rq.id, rq.expect)
            out.append(Obligation(rq.id, r, rq.expect, rq.question,
                                  partial(_run_reachability, ruleset=r, question=rq.id), FAMILY, (),
                                  needs=STRENGTHENING if expect == "no-such-state" else ()))
    return out
