"""Witnesses: legal games from a real deal that reach a position a question asks about.

A :class:`Question` says what to reach (a Z3 goal on the last step of a path), how the
engine shows it (an independent check on the engine's steps) and under which rulesets.

* :func:`search` finds a witness with Z3 (:func:`proofs.search.find_path`, bounded model
  checking from the start of a game, the deal included) and writes it as a scenario file
  in ``proofs/witnesses/``: the position right after the first deal and the actions after
  it (later deals are actions too). Deep questions take minutes, so ``palast prove``
  only searches with ``--search``.
* :func:`verify` checks a stored witness: the scenario's position is the one the engine
  reaches by dealing its hands from the start of a game; the engine replays every action
  under every ruleset the question names and its check holds; and, under the ruleset
  the witness was found for, every step is a step of the Z3 transition relation and the
  goal holds at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from palast.engine import Game, Step
from palast.engine.actions import Action, Deal
from palast.engine.state import DecisionKind, State
from palast.errors import InputError
from palast.formats.notation import parse_action
from palast.formats.scenario import load_scenario
from palast.spec.load import Spec
from proofs.concrete import Values, abstract, label_of, pin_label, pin_state, scenario_text
from proofs.invariant import context, make_game
from proofs.obligation import Outcome, check, solver
from proofs.search import (
    WITNESS_DIR,
    ScenarioTooLarge,
    Unroller,
    display_path,
    find_path,
    replay,
    write_scenario,
)
from proofs.z3_values import NotCompiled

K = DecisionKind
Goal = Callable[[Unroller, int], Any]
EngineCheck = Callable[[Game, State, list[Step]], "str | None"]


@dataclass(frozen=True)
class Question:
    """A reachability question answered by a witness.

    :ivar name: the obligation name and the witness file's stem.
    :ivar title: the scenario's title.
    :ivar question: the question in a sentence.
    :ivar comment: a comment for the top of the file: what it shows and the clauses.
    :ivar ruleset: the ruleset whose transition the search uses.
    :ivar rulesets: the rulesets the witness must replay under.
    :ivar players: the player count.
    :ivar goal: the Z3 goal on the last step ``i`` of a path.
    :ivar engine_check: the engine's own check of the replayed steps, given the game, the
        position they start from and the steps (None: it holds).
    :ivar max_steps: the search bound.
    :ivar side: a condition on every step of the search.
    :ivar min_steps: the shortest path the search tries.
    :ivar deep: search each length on its own (see :func:`proofs.search.find_path`).
    :ivar finder: a search of its own (for questions over several rounds).
    :ivar stem: the witness file's name without ``.yaml`` (default: the name).
    """

    name: str
    title: str
    question: str
    comment: str
    ruleset: str
    rulesets: tuple[str, ...]
    players: int
    goal: Goal
    engine_check: EngineCheck
    max_steps: int = 8
    side: Goal | None = None
    min_steps: int = 1
    deep: bool = False
    finder: Callable[[Spec, Question], list[Action]] | None = field(default=None, compare=False)
    stem: str = ""

    @property
    def file_stem(self) -> str:
        """The witness file's name without ``.yaml``."""
        return self.stem or self.name


def witness_file(q: Question, out_dir: Path | None = None) -> Path:
    """Where the witness of ``q`` is stored."""
    return (out_dir if out_dir is not None else WITNESS_DIR) / f"{q.file_stem}.yaml"


def search(spec: Spec, q: Question, out_dir: Path | None = None) -> Outcome:
    """Find a witness for ``q`` with Z3, replay it in the engine and write it.

    :returns: ``witness`` with the file, or ``no-such-state`` within the bound (nothing is
        written then); ``error`` where Z3 cannot compile the question's goal.
    :raises Unknown: if a check is undecided.
    """
    try:
        return _search(spec, q, out_dir)
    except NotCompiled as exc:
        return Outcome("error", f"the proofs cannot compile the question to Z3: {exc}")


class NoPath(AssertionError):
    """A search of a question's own (:attr:`Question.finder`) found no game within its bound."""


def _search(spec: Spec, q: Question, out_dir: Path | None) -> Outcome:
    game = make_game(spec, q.ruleset, q.players)
    if q.finder is not None:
        try:
            actions = q.finder(spec, q)
        except NoPath as exc:
            return Outcome("no-such-state", f"the search found no game: {exc}")
    else:
        ctx = context(spec, q.ruleset, q.players, "card")
        u = Unroller(ctx)
        path = find_path(u, lambda s: z3.And(pin_state(s, ctx.start)), q.goal, max_steps=q.max_steps,
                         min_steps=q.min_steps, side=q.side, deep=q.deep)
        if path is None:
            return Outcome("no-such-state", f"no game of at most {q.max_steps} actions from a deal reaches it")
        replay(game, game.initial_state(), path)
        actions = path.actions
    deal = actions[0]
    if not isinstance(deal, Deal):
        raise AssertionError("a witness starts with the deal")
    start = game.apply(game.initial_state(), deal).state
    text = scenario_text(game, start, actions[1:], title=q.title, question=q.question, comment=q.comment,
                         rulesets=q.rulesets)
    try:
        path_written = write_scenario(text, q.file_stem, out_dir)
    except ScenarioTooLarge as exc:
        return Outcome("error", f"found by Z3 ({len(actions)} actions), but the scenario {q.file_stem}.yaml {exc}")
    outcome = verify(spec, q, q.ruleset, out_dir)
    if outcome.result != "witness":
        return outcome
    return Outcome("witness", f"found by Z3: {len(actions)} actions; " + outcome.detail,
                   (display_path(path_written),))


def _real_deal(game: Game, start: State) -> Deal:
    """The deal that leads from the start of a game to ``start``.

    :raises InputError: if ``start`` is not the position right after a first deal.
    """
    deal = Deal(start.hands, None)
    dealt = game.apply(game.initial_state(), deal).state
    if dealt != start:
        raise InputError("the witness does not start right after a real first deal")
    return deal


def verify(spec: Spec, q: Question, ruleset: str, out_dir: Path | None = None) -> Outcome:
    """Check the stored witness of ``q`` under ``ruleset`` (see the module docstring).

    :returns: ``witness`` if every check passes, ``error`` naming the first that fails.
    :raises Unknown: if a Z3 check is undecided.
    """
    path = witness_file(q, out_dir)
    if not path.exists():
        if out_dir is not None:  # the search of this run stored none (it says why)
            return Outcome("error", f"the search stored no witness {display_path(path)}")
        return Outcome("error", f"no stored witness {display_path(path)}; run palast prove --search")
    sc = load_scenario(path, spec)
    game = sc.game(spec, ruleset)
    start = sc.start(game)
    try:
        deal = _real_deal(game, start)
    except InputError as exc:
        return Outcome("error", exc.message)
    if set(sc.rulesets) != set(q.rulesets):
        return Outcome("error", f"{display_path(path)} lists the rulesets {', '.join(sc.rulesets)}, but the question "
                                f"declares that its witness answers under {', '.join(q.rulesets)}; run palast prove "
                                "--search")
    _, steps = sc.position(game)
    problem = q.engine_check(game, start, [s for _, s in steps])
    if problem:
        return Outcome("error", f"the engine replays the witness but {problem}")
    if ruleset == q.ruleset:
        actions: list[Action] = [deal] + [parse_action(game, text) for text, _ in sc.actions]
        problem = _z3_admits(spec, q, actions)
        if problem:
            return Outcome("error", problem)
    checked = ", each a step of the Z3 transition" if ruleset == q.ruleset else ""
    return Outcome("witness", f"{len(sc.actions) + 1} actions from a real deal, replayed by the engine{checked}",
                   (display_path(path),))


def _z3_admits(spec: Spec, q: Question, actions: list[Action]) -> str | None:
    """Check that every step of the game is a step of the Z3 relation and that the goal
    holds at its end (all positions and parameters pinned to the engine's)."""
    return z3_admits(spec, q.ruleset, q.players, actions, q.goal)


def z3_admits(spec: Spec, ruleset: str, players: int, actions: list[Action], goal: Goal) -> str | None:
    """Check that every step of the game ``actions`` (from the start of a game, the deal
    first) is a step of the Z3 transition relation of ``ruleset`` (card level) and that
    ``goal`` holds on its last step (all positions and parameters pinned to the engine's).

    :returns: ``None``, or what fails.
    :raises Unknown: if a check is undecided.
    """
    ctx = context(spec, ruleset, players, "card")
    game = ctx.game
    u = Unroller(ctx)
    state = game.initial_state()
    values: list[Values] = [abstract(ctx.lay, state)]
    kinds: list[str] = []
    for action in actions:
        kinds.append(state.decision.kind)
        state = game.apply(state, action).state
        values.append(abstract(ctx.lay, state))
    sv = solver()
    last = len(actions) - 1
    for i, action in enumerate(actions):
        pins = [*pin_state(u.state(i), values[i]), *pin_state(u.state(i + 1), values[i + 1]),
                *pin_label(u.label(i), label_of(ctx.lay, kinds[i], action)), u.step(i)]
        if i == last:
            sv.add(*pins)
            break
        sv.push()
        sv.add(*pins)
        if not check(sv):
            return f"step {i + 1} ({kinds[i]}) is not a step of the Z3 transition"
        sv.pop()
    if not check(sv):
        return f"step {last + 1} ({kinds[last]}) is not a step of the Z3 transition"
    if not check(sv, goal(u, last)):
        return "the Z3 goal does not hold at the end of the witness"
    return None


def load_witness(spec: Spec, q: Question, ruleset: str, out_dir: Path | None = None) -> tuple[Game, State]:
    """The final position of the stored witness of ``q`` under ``ruleset``."""
    sc = load_scenario(witness_file(q, out_dir), spec)
    game = sc.game(spec, ruleset)
    final, _ = sc.position(game)
    return game, final
