"""Paths found by Z3, replayed by the engine, written as scenarios.

:class:`Unroller` unrolls the card-level transition relation step by step (bounded model
checking): the relation is built once over template positions and copied to each step by
substitution. :func:`find_path` asks for a path from a start condition to a goal; the
model becomes engine actions (:func:`proofs.concrete.action_of`), and :func:`replay`
applies them in the engine and checks, step by step, that the engine reaches the very
positions Z3 predicted (the independent check of every witness and counterexample).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import z3
from z3.z3 import _to_expr_ref

from palast.engine import Game, Step
from palast.engine.actions import Action
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, InputError
from palast.formats.scenario import load_scenario
from palast.spec.load import Spec
from palast.spec.yamlio import MAX_BYTES
from proofs.concrete import Values, abstract, action_of, concrete_state, read_label, read_values, scenario_text
from proofs.encoding import ZState
from proofs.invariant import Context, context, in_round, strengthening
from proofs.obligation import SEED, Outcome, Unknown, check, solver
from proofs.transition import Label

K = DecisionKind
#: Where witness and counterexample scenarios go, relative to the repository.
WITNESS_DIR = Path(__file__).parent / "witnesses"


@dataclass
class Trace:
    """A path found by Z3: the positions' values, and per step the decision kind, the
    label values and the engine action."""

    values: list[Values]
    kinds: list[str]
    labels: list[dict[str, Any]]
    actions: list[Action]


class Unroller:
    """Copies of the transition relation of a card-level :class:`Context`, one per step.

    :param ctx: the context (card level).
    :param kinds: the action kinds allowed (default: every kind an action answers).
    """

    def __init__(self, ctx: Context, kinds: Sequence[str] | None = None) -> None:
        if ctx.lay.level != "card":
            raise ValueError("paths are searched at the card level")
        kinds = ctx.kinds if kinds is None else kinds
        self.ctx = ctx
        s, t, label = ctx.s, ctx.t, ctx.label
        self.names = list(s.f)
        self._src_vars = ([s.f[n] for n in self.names] + [t.f[n] for n in self.names] + self._label_vars(label))
        self._src = (z3.Ast * len(self._src_vars))(*[v.as_ast() for v in self._src_vars])
        self.relation = z3.Or([ctx.rel[k][0] for k in kinds])
        names: set[str] = set()
        for k in kinds:
            names |= set(ctx.rel[k][1].flags)
        self.flag_names = sorted(names)
        self.flags = {name: z3.Or([z3.And(s["dk"] == ctx.lay.code(k), ctx.flag(k, name)) for k in kinds])
                      for name in self.flag_names}
        self.states: list[ZState] = []
        self.labels: list[Label] = []

    @staticmethod
    def _label_vars(label: Label) -> list[Any]:
        return [*label.a, *label.vec, *(x for row in label.deal for x in row), label.col]

    def state(self, i: int) -> ZState:
        """The position after ``i`` steps (made on first use)."""
        while len(self.states) <= i:
            self.states.append(ZState.fresh(self.ctx.lay, f"p{len(self.states)}"))
        return self.states[i]

    def label(self, i: int) -> Label:
        """The parameters of step ``i``."""
        while len(self.labels) <= i:
            self.labels.append(Label.fresh(self.ctx.lay, f"l{len(self.labels)}"))
        return self.labels[i]

    def _subst(self, e: Any, i: int) -> Any:
        a, b, lab = self.state(i), self.state(i + 1), self.label(i)
        dst_vars = [a.f[n] for n in self.names] + [b.f[n] for n in self.names] + self._label_vars(lab)
        dst = (z3.Ast * len(dst_vars))(*[v.as_ast() for v in dst_vars])
        ctx = e.ctx
        return _to_expr_ref(z3.Z3_substitute(ctx.ref(), e.as_ast(), len(dst_vars), self._src, dst), ctx)

    def step(self, i: int) -> Any:
        """The relation between the positions after ``i`` and ``i + 1`` steps."""
        return self._subst(self.relation, i)

    def flag(self, i: int, name: str) -> Any:
        """Step ``i`` takes the path flagged ``name``.

        :raises KeyError: for a flag naming a rule or point the spec does not have
            (:func:`proofs.statements_z3.check_flag`).
        """
        from proofs.statements_z3 import check_flag

        check_flag(self.ctx.lay.game.spec, name)
        if name not in self.flags:
            return z3.BoolVal(False)
        return self._subst(self.flags[name], i)


def find_path(unroller: Unroller, start: Callable[[ZState], Any],
              goal: Callable[[Unroller, int], Any], *, max_steps: int, min_steps: int = 1,
              side: Callable[[Unroller, int], Any] | None = None, deep: bool = False) -> Trace | None:
    """The shortest path (from ``min_steps`` up to ``max_steps`` actions) from a position
    satisfying ``start`` whose last step ``i`` satisfies ``goal(unroller, i)``.

    :param side: a condition every step ``i`` must meet (e.g. to avoid a variation point).
    :param deep: for long paths: check each length on its own with Z3's equation solving
        first (the positions are functions of the deal and the actions, so it eliminates
        them) and a long timeout (:data:`DEEP_TIMEOUT_MS`).
    :returns: the path, or None if there is none within the bound.
    :raises Unknown: if a check is undecided.
    """
    if deep:
        return _find_deep(unroller, start, goal, max_steps, min_steps, side)
    sv = solver()
    sv.add(start(unroller.state(0)))
    for i in range(max_steps):
        sv.add(unroller.step(i))
        if side is not None:
            sv.add(side(unroller, i))
        if i + 1 >= min_steps and check(sv, goal(unroller, i)):
            sv.add(goal(unroller, i))
            check(sv)
            return _extract(unroller, sv.model(), i + 1)
    return None


#: The timeout of one check of a deep search, in milliseconds.
DEEP_TIMEOUT_MS = 1_200_000


def _find_deep(unroller: Unroller, start: Callable[[ZState], Any], goal: Callable[[Unroller, int], Any],
               max_steps: int, min_steps: int, side: Callable[[Unroller, int], Any] | None) -> Trace | None:
    for steps in range(max(1, min_steps), max_steps + 1):
        z3.set_param("smt.random_seed", SEED)
        sv = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify", "smt").solver()
        sv.set("timeout", DEEP_TIMEOUT_MS)
        sv.set("random_seed", SEED)
        sv.add(start(unroller.state(0)))
        for i in range(steps):
            sv.add(unroller.step(i))
            if side is not None:
                sv.add(side(unroller, i))
        sv.add(goal(unroller, steps - 1))
        if check(sv):
            return _extract(unroller, sv.model(), steps)
    return None


def _extract(u: Unroller, model: Any, steps: int) -> Trace:
    values = [read_values(model, u.state(i)) for i in range(steps + 1)]
    kinds = [u.ctx.lay.decisions[int(values[i]["dk"])] for i in range(steps)]
    labels = [read_label(model, u.label(i)) for i in range(steps)]
    actions = [action_of(u.ctx.lay, kinds[i], labels[i]) for i in range(steps)]
    return Trace(values, kinds, labels, actions)


class ReplayMismatch(AssertionError):
    """The engine did not reach the position Z3 predicted (an encoding bug)."""


def replay(game: Game, start: State, path: Trace, *, compare: bool = True) -> list[Step]:
    """Apply ``path``'s actions in the engine from ``start``.

    :param compare: check that every position the engine reaches abstracts to the values
        Z3 predicted (needs ``game`` to be the game the path was found for).
    :returns: the engine's steps.
    :raises ReplayMismatch: on the first disagreement, naming the step and the fields.
    :raises IllegalActionError: if the engine rejects an action.
    """
    from proofs.encoding import Layout

    lay = Layout(game, "card")
    steps: list[Step] = []
    state = start
    if compare:
        _compare(lay, state, path.values[0], 0)
    for i, action in enumerate(path.actions):
        step = game.apply(state, action)
        steps.append(step)
        state = step.state
        if compare:
            _compare(lay, state, path.values[i + 1], i + 1)
    return steps


def _compare(lay: Any, state: State, expected: Values, i: int) -> None:
    got = abstract(lay, state)
    diff = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
    if diff:
        raise ReplayMismatch(f"after step {i} the engine and Z3 differ on {diff}")


class ScenarioTooLarge(Exception):
    """A scenario larger than palast reads back (:data:`palast.spec.yamlio.MAX_BYTES`); the
    message says so after the scenario's name ("the scenario X.yaml " + message)."""


def write_scenario(text: str, name: str, out_dir: Path | None = None) -> Path:
    """Write a scenario ``text`` as ``name.yaml`` in ``out_dir`` (default
    :data:`WITNESS_DIR`); :returns: the path.

    :raises ScenarioTooLarge: (nothing written) where ``text`` is larger than palast reads:
        the engine could not replay it (a spec edited to thousands of cards gave 7.6 MB).
    """
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise ScenarioTooLarge(f"would have {size} bytes, more than the {MAX_BYTES} palast reads; not written, so "
                               "the engine has not replayed it")
    folder = out_dir if out_dir is not None else WITNESS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


def reload(path: Path, spec: Spec, ruleset: str) -> tuple[Game, State, list[Step]]:
    """Load a written scenario and apply its actions under ``ruleset`` (the engine checks
    every action and, through :meth:`Scenario.start`, the position).

    :returns: the game, the final position and the steps.
    """
    sc = load_scenario(path, spec)
    game = sc.game(spec, ruleset)
    final, steps = sc.position(game)
    return game, final, [s for _, s in steps]


def display_path(path: Path) -> str:
    """``path`` relative to the repository when it lies inside it."""
    root = Path(__file__).resolve().parent.parent
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def counterexample(spec: Spec, ruleset: str, n: int, bad: Callable[[Unroller, int], Any], *, name: str,
                   title: str, question: str, comment: str, out_dir: Path | None = None,
                   max_steps: int = 3, holds: Callable[[ZState], Any] | None = None, where: str = "") -> Outcome:
    """Turn a failed step check into a scenario the engine replays.

    Z3 looks for a short path (at most ``max_steps`` actions) that starts at a play
    decision in a position satisfying the strengthening (every invariant proved) and
    whose last step ``i`` satisfies ``bad(unroller, i)`` (and, for a counterexample to an
    invariant, where the invariant ``holds``). The start becomes a scenario
    (card level, decks of unknown order) with the path's actions; the engine loads it,
    which re-checks the position against the spec's invariants, replays the actions, and
    must reach exactly the position Z3 predicted.

    A counterexample already stored under ``name`` is kept if it still shows the failure
    (so files do not change from run to run); otherwise a new one is searched and written.

    :param where: what the failed step check found (``"a play action breaks it"``), said
        after the player count at the head of the detail.

    :returns: ``counterexample`` with the scenario file, or ``error`` if no short path
        shows the failure, the engine disagrees with Z3, or the scenario is larger than
        palast reads (:class:`ScenarioTooLarge`), or the engine replays it otherwise than
        Z3 predicts (nothing written in these cases either). Where such an error leaves a
        stored file in place, its detail says so and why that file was not kept (it does not
        load, is a game of another player count, asks about other rulesets, has no actions,
        does not replay, or does not show the failure); where a new counterexample replaces
        one, the detail says why.
    :raises Unknown: if a check is undecided.
    """
    ctx = context(spec, ruleset, n, "card")
    u = Unroller(ctx)
    hyp = strengthening(ctx.lay)

    def start(s: ZState) -> Any:
        extra = [holds(s)] if holds is not None else []
        return z3.And([p(s) for _, p in hyp] + [s["dk"] == ctx.lay.code(K.PLAY), in_round(s), *extra])

    def tidy(s: ZState) -> Any:
        # a readable position: first round, nobody has scored, no card taken back or discarded, no
        # King card spent
        lay = ctx.lay
        return z3.And(start(s), s["round"] == 1,
                      *[s[f"{f}{p}"] == 0 for p in range(lay.n) for f in ("score", "tally")],
                      *[s[f"played{p}"] == s.zone_size(lay.disp[p]) for p in range(lay.n)],
                      s.zone_size(lay.discard) == 0,
                      *[z3.Not(s[f"ks{j}"]) for j in range(len(lay.king_roles))])

    lead = f"{n} players: {where}" if where else f"{n} players"
    folder = out_dir if out_dir is not None else WITNESS_DIR
    stored = folder / f"{name}.yaml"
    why_not = _why_not_kept(spec, ruleset, u, stored, start, bad) if stored.exists() else None
    if stored.exists() and why_not is None:
        return Outcome("counterexample", f"{lead}; the stored counterexample still shows it: its start satisfies "
                                         "every proved invariant, each step is a Z3 step and the engine replays it",
                       (display_path(stored),))
    # a stored file not kept stays until a new one replaces it
    # (a reason that ends in a number or a list ends in a comma: "a game of 4 players, not 3, and is left")
    stale = f"; the stored {display_path(stored)} {why_not} and is left as it was" if why_not is not None else ""

    def attempt(begin: Callable[[ZState], Any]) -> Trace | None:
        # the incremental search is fast, but now and then spends its budget on a path it
        # has in reach: then each length is searched on its own, equations eliminated first
        try:
            return find_path(u, begin, bad, max_steps=max_steps)
        except Unknown:
            return find_path(u, begin, bad, max_steps=max_steps, deep=True)

    path = attempt(tidy) or attempt(start)
    if path is None:
        return Outcome("error", f"{lead}; the check fails, but no path of at most {max_steps} actions from a "
                                f"play decision shows it{stale}")
    refused = (f"{lead}; the step check fails from a position the engine refuses ({{}}); the strengthening "
               "does not rule it out, so the claim is neither proved nor refuted (no scenario written)")
    try:  # Z3's position need not be one the engine can even build (a King card out of range)
        state = concrete_state(ctx.lay, path.values[0])
        text = scenario_text(ctx.game, state, path.actions, title=title, question=question, comment=comment,
                             rulesets=(ruleset,))
    except (ValueError, IndexError, KeyError) as exc:
        return Outcome("error", refused.format(f"{type(exc).__name__}: {exc}") + stale)
    # written beside its place first, and put there only once the engine accepts it
    try:
        trial = write_scenario(text, f"{name}.trial", out_dir)
    except ScenarioTooLarge as exc:
        return Outcome("error", f"{lead}; Z3's path from a play decision shows the failure, but the scenario "
                                f"{name}.yaml {exc}{stale}")
    try:
        try:
            _, final, _ = reload(trial, spec, ruleset)
        except (InputError, IllegalActionError) as exc:  # a position no game reaches
            said = _said(exc).replace(str(trial), "the scenario")  # the trial file is gone
            return Outcome("error", refused.format(said) + stale)
        got = abstract(ctx.lay, final)
        diff = {k: (got[k], v) for k, v in path.values[-1].items() if got[k] != v}
        if diff:
            return Outcome("error", f"{lead}; the engine replays Z3's counterexample to another position than Z3 "
                                    f"predicts (fields of the encoding, engine and Z3: {diff}; no scenario "
                                    f"written){stale}")
        file = trial.replace(trial.with_name(f"{name}.yaml"))
    finally:  # whatever went wrong, no trial file is left behind
        trial.unlink(missing_ok=True)
    replaced = f"; it replaces the stored file, which {why_not.rstrip(',')}" if why_not is not None else ""
    return Outcome("counterexample", f"{lead}; {len(path.actions)} action(s) from a play, which the engine replays"
                                     f"{replaced}", (display_path(file),))


def _said(exc: Exception) -> str:
    """What ``exc`` says (an input error as rendered, with its place), on one line."""
    return " ".join(x.strip() for x in (exc.render() if isinstance(exc, InputError) else str(exc)).splitlines())


def _why_not_kept(spec: Spec, ruleset: str, u: Unroller, path: Path, start: Callable[[ZState], Any],
                  bad: Callable[[Unroller, int], Any]) -> str | None:
    """None if the scenario at ``path`` still shows the failure: it loads, the engine
    replays it, its start satisfies ``start``, every step is a step of the Z3 relation and
    its last step is ``bad``; else why not, to follow the file's name (``"does not load
    (...)"``, ``"is a game of 5 players, not 3,"``, ``"asks about source-a, not source-b,"``,
    ``"has no actions"``, ``"does not replay (...)"``, ``"does not show the failure"``)."""
    from palast.formats.notation import parse_action
    from proofs.concrete import label_of, pin_label, pin_state

    try:
        sc = load_scenario(path, spec)
        game = sc.game(spec, ruleset)
        state = sc.start(game)
        actions = [parse_action(game, text) for text, _ in sc.actions]
    except (InputError, ValueError) as exc:  # the loader names the file, which the reason follows
        return f"does not load ({_said(exc).replace(f'{path}: ', '')})"
    if game.n != u.ctx.lay.n:
        return f"is a game of {game.n} players, not {u.ctx.lay.n},"
    if ruleset not in sc.rulesets:
        return f"asks about {', '.join(sc.rulesets)}, not {ruleset},"
    if not actions:
        return "has no actions"
    try:
        values = [abstract(u.ctx.lay, state)]
        kinds = []
        for action in actions:
            kinds.append(state.decision.kind)
            state = game.apply(state, action).state
            values.append(abstract(u.ctx.lay, state))
    except (InputError, ValueError) as exc:  # an action the engine now refuses, a position it cannot abstract
        return f"does not replay ({_said(exc)})"
    sv = solver()
    sv.add(start(u.state(0)), *pin_state(u.state(0), values[0]))
    for i, action in enumerate(actions):
        sv.add(u.step(i), *pin_label(u.label(i), label_of(u.ctx.lay, kinds[i], action)),
               *pin_state(u.state(i + 1), values[i + 1]))
    sv.add(bad(u, len(actions) - 1))
    return None if check(sv) else "does not show the failure"


__all__ = ["WITNESS_DIR", "ReplayMismatch", "ScenarioTooLarge", "Trace", "Unroller", "find_path", "reload", "replay",
           "write_scenario"]
