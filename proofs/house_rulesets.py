"""Obligations of the named house rulesets (``spec/rulesets.yaml``, ``house``, key
``prove``).

A named house ruleset lists the obligations to check under it and the result each must
end in, e.g. ``prove: {round-is-bounded: counterexample}``; nothing else runs under it, and
another house ruleset needs no code here. Each listed name is an obligation stated for
every ruleset (the families of :data:`proofs.runner.FAMILIES`), run under the house
ruleset (added to the spec by :func:`palast.formats.house.resolve`).

An expected **counterexample** must be more than Z3's: the solver must refute the
obligation under the house ruleset, and the engine must replay the counterexample, stored
as the scenario ``proofs/witnesses/<obligation>.<house ruleset>.yaml``: a position right
after a real deal and legal actions after it, after the last of which the invariants the
engine's check mode evaluates (:func:`palast.invariants.check.step_problems`, here with
those the list expects refuted, which play leaves out) report the obligation's invariant
broken, and not before it. The obligation fails (result ``error``)
when the replay does not trip that check, and (result ``proved``) when Z3 proves it.

**Derived rulesets.** A ruleset derived from a named house ruleset (house rules given on
the command line on top of it, or a ruleset file based on it) takes its list
(:func:`proofs.obligation.house_prove_lists`). No scenario is stored for it: an expected
counterexample is the one stored for the named house ruleset where that still shows the
failure under the derived ruleset (replayed as above), else the one Z3 finds, written to
the output directory and replayed by the engine, as for any obligation (that search took
185 s for round-is-bounded under ``house-guard+neutral-tie=seat-order``, the replay 4 s).

**What a proof under it assumes.** Only what the list expects proved: an invariant whose
obligation it expects to end in a counterexample (:func:`refuted`) does not hold under the
house ruleset, and one it does not list is proved by nothing there, so
:func:`proofs.invariant.strengthening` leaves both out (:func:`proofs.invariant.not_assumed`),
and a listed obligation that then fails says which it could not assume. So it leaves out a
lemma whose ``colours`` obligation (``LEMMA.colours``, which the card level's strengthening
rests on too) the list does not expect proved. Every other
obligation a listed one assumes (:attr:`~proofs.obligation.Obligation.needs`: the
no-such-state results the differential check's coverage rests on) must be listed too, so
that it is proved under the house ruleset; otherwise the listed obligation ends in
``error`` naming it. An expected counterexample assumes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from palast.engine.actions import Action, Deal
from palast.errors import IllegalActionError, InputError, NotationError
from palast.spec.house_rulesets import listing_house
from palast.spec.load import Spec
from proofs.invariant import COLOURS, STRENGTHENING, not_assumed
from proofs.obligation import Obligation, Options, Outcome, refuted
from proofs.obligation import house_prove_lists as declared

FAMILY = "house_rulesets"
__all__ = ["declared", "obligations", "refuted", "replay_counterexample", "shown", "witness_path"]
#: The obligations of every ruleset in a spec (the runner's families, without this one).
Stated = Callable[[Spec], list[Obligation]]


def witness_path(name: str, ruleset: str) -> Path:
    """Where the counterexample of obligation ``name`` under ``ruleset`` is stored."""
    return Path(__file__).parent / "witnesses" / f"{name}.{ruleset}.yaml"


def shown(path: Path) -> str:
    """``path`` relative to the repository where it lies inside it."""
    root = Path(__file__).resolve().parent.parent
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


#: ``spec`` with a named house ruleset added, per ``(id(spec), house)``, kept with ``spec``
#: so the id stays its own: the obligations listed for the house ruleset then run on one
#: spec object and share the proof contexts built for it (:func:`proofs.invariant.context`
#: keys them by the spec's id), instead of building them anew for each.
_RESOLVED: dict[tuple[int, str], tuple[Spec, Spec]] = {}


def _resolved(spec: Spec, house: str) -> Spec:
    from palast.formats.house import resolve

    key = (id(spec), house)
    if key not in _RESOLVED:
        _RESOLVED[key] = (spec, resolve(spec, house))
    return _RESOLVED[key][1]


def spec_of(spec: Spec, ruleset: str) -> Spec:
    """The spec the obligations under ``ruleset`` run on: for a ruleset with a prove list
    (:func:`declared`), ``spec`` with the house ruleset resolved into it
    (:func:`palast.formats.house.resolve`, built once); else ``spec``."""
    return _resolved(spec, ruleset) if ruleset in declared(spec) else spec


def _inner(spec: Spec, house: str, name: str, stated: Stated) -> tuple[Spec, Obligation | None]:
    rspec = _resolved(spec, house)
    found = [ob for ob in stated(rspec) if ob.name == name and ob.ruleset == house]
    return rspec, (found[0] if found else None)


def _missing(spec: Spec, house: str, name: str) -> str:
    """Why no obligation ``name`` is stated under ``house``: a reachability question whose
    witnesses name the rulesets they answer under, none of them ``house``; or no
    obligation of that name at all."""
    q = spec.reachability.get(name)
    if q is not None:
        named = sorted({r for w in q.witnesses for r in w.rulesets})
        return (f"the reachability question {name} is asked only under {', '.join(named)}: its stored games "
                f"name the rulesets they answer under (spec/invariants.yaml), and {house} is not one of them; take "
                "it off the list (a stored game that names no rulesets answers under every ruleset, house "
                "rulesets included)")
    return f"no obligation {name} is stated for every ruleset (palast prove --list lists them)"


#: How much costlier an obligation is under a house ruleset that switches a rule module on,
#: for the runner's scheduling (:attr:`~proofs.obligation.Obligation.cost`): fan's
#: card-level group took 49.7 s in a one-process run where the reference's took 34.0 s
#: (its role-level group, with the Jesters told apart by colour, 22.1 s and 21.6 s).
#: With the groups' times of that run, a weight of 10 (from when fan's role-level proofs ran
#: at the card level) gave the two workers 147 s and 137 s, this one 142 s each.
MODULE_WEIGHT = 1.5


def _switches_module(rspec: Spec, house: str) -> bool:
    """Whether ``house`` (a ruleset of ``rspec``) switches a rule module on."""
    from palast.spec.modules import modules_in_play

    return bool(modules_in_play(rspec, lambda point: rspec.variation_points[point].choices.get(house)))


def obligations(spec: Spec, stated: Stated) -> list[Obligation]:
    """One obligation per entry of each named house ruleset's ``prove`` list, named as the
    obligation it runs, under the house ruleset, expecting the declared result.
    Each needs what the obligation it runs needs, except the :func:`refuted` obligations
    (an expected counterexample needs nothing), and runs as that obligation's family
    (:attr:`~proofs.obligation.Obligation.runs_as`, for the runner's grouping).

    :param stated: the obligations of every ruleset of a spec (the runner's families).
    """
    out: list[Obligation] = []
    for house, listed in declared(spec).items():
        rspec = _resolved(spec, house)
        gone = refuted(spec, house) | not_assumed(rspec, house)
        weight = MODULE_WEIGHT if _switches_module(rspec, house) else 1.0
        for name, expect in listed.items():
            _, inner = _inner(spec, house, name, stated)
            statement = inner.statement if inner is not None else f"(no obligation {name} is stated under {house})"
            needs = () if inner is None or expect == "counterexample" else tuple(
                n for n in inner.needs if n not in gone)
            out.append(Obligation(name, house, expect, statement,
                                  partial(_run, house=house, name=name, expect=expect, stated=stated,
                                          needs=needs, listed=tuple(listed)), FAMILY,
                                  inner.invariants if inner is not None else (), needs=needs,
                                  cost=weight * (inner.cost if inner else 1.0),
                                  runs_as=(inner.runs_as or inner.family) if inner else ""))
    return out


def _run(spec: Spec, opts: Options, house: str, name: str, expect: str, stated: Stated,
         needs: tuple[str, ...] = (), listed: tuple[str, ...] = ()) -> Outcome:
    rspec, inner = _inner(spec, house, name, stated)
    if inner is None:
        return Outcome("error", f"spec/rulesets.yaml lists {name} for {house}, but {_missing(spec, house, name)}")
    unlisted = [n for n in needs if n != name and n not in listed]
    if unlisted:
        return Outcome("error", f"{name} under {house} rests on {', '.join(unlisted)}, which spec/rulesets.yaml does "
                                f"not list for {house} (prove:), so nothing proves them under it")
    # a ruleset derived from a named one replays the named one's stored scenario where it
    # still shows the failure under it; else Z3's counterexample is written to the output
    # directory and replayed by the engine, as anywhere
    named = house if house in spec.house_rulesets else listing_house(rspec, house)
    why_not = ""
    if expect == "counterexample" and inner.invariants and named is not None and named != house \
            and witness_path(name, named).exists():
        got, problem = _stored_run(rspec, opts, house, inner, witness_path(name, named), named)
        if problem is None:
            return got
        why_not = f"; the counterexample stored for {named} does not show it under {house}: {problem}"
    if expect != "counterexample" or not inner.invariants or house not in spec.house_rulesets:
        out = inner.run(rspec, opts)
        out.detail += why_not
        left = [n for n in STRENGTHENING if n in not_assumed(rspec, house) and n not in refuted(spec, house)]
        if out.result != expect and left and set(inner.needs) & set(STRENGTHENING):  # what it could not assume
            expects = declared(rspec).get(house, {})
            # a lemma listed as proved is left out because its colours obligation is not
            out.detail += (f"; under {house} a proof assumes only what its prove list proves, so not " + ", ".join(
                f"{n} (the list does not expect {n}{COLOURS} proved)" if expects.get(n) == "proved" else n
                for n in left))
        return out
    return _stored_run(rspec, opts, house, inner, witness_path(name, house), house)[0]


def _stored_run(rspec: Spec, opts: Options, house: str, inner: Obligation, path: Path,
                named: str) -> tuple[Outcome, str | None]:
    """Run ``inner`` under ``house`` expecting the counterexample stored at ``path`` for the
    named house ruleset ``named`` (``house`` itself, or one it derives from): Z3 refutes the
    obligation (nothing searched), the engine replays the scenario under ``house``
    (:func:`replay_counterexample`) and Z3 admits it (:func:`_z3_replays`).

    :returns: the outcome (``counterexample`` naming ``path``; ``error`` naming ``path``
        where the scenario does not show the failure; the inner outcome where Z3 does not
        refute it) and, for that error, what is wrong with the scenario (else None).
    """
    out = inner.run(rspec, replace(opts, stored_counterexample=True))
    if out.result != "counterexample":
        return out, None
    invariant = inner.invariants[0]
    problem, said = replay_counterexample(rspec, house, invariant, path, stored_for=named)
    if problem is None:
        problem = _z3_replays(rspec, house, invariant, path)
    if problem is not None:
        return Outcome("error", f"Z3 fails to prove it ({out.detail}), but the stored counterexample does not hold: "
                                f"{problem}", (shown(path),)), problem
    under = f" (stored for {named}, replayed under {house})" if named != house else ""
    return Outcome("counterexample", f"the induction fails ({out.detail}); {said}{under}; the Z3 transition admits "
                                     f"every step and {invariant} is false at its end, not before",
                   (shown(path),)), None


def _z3_replays(spec: Spec, ruleset: str, invariant: str, path: Path) -> str | None:
    """Check the stored counterexample in Z3: every step is a step of the transition
    relation (:func:`proofs.witness.z3_admits`), the invariant's Z3 form (its declaration,
    or :func:`proofs.nonvacuous.z3_form`) is false after the last action (for a step
    invariant: of the last action), and true after the one before."""
    import z3

    from palast.formats.notation import parse_action
    from palast.formats.scenario import load_scenario
    from proofs.declared_z3 import declared as z3_declared
    from proofs.nonvacuous import z3_form
    from proofs.witness import z3_admits

    sc = load_scenario(path, spec)
    n = len(sc.players)
    game = sc.game(spec, ruleset)
    if tuple(game.colour_name(i) for i in range(n)) != tuple(spec.player_colours[:n]):
        return f"{shown(path)} must seat the players in the spec's colour order ({', '.join(spec.player_colours[:n])})"
    if invariant in spec.invariants and spec.invariants[invariant].holds is not None:
        step = spec.invariants[invariant].kind == "step"

        def broken(u: Any, i: int) -> Any:
            return z3.Not(z3_declared(u.state(i + 1), invariant, before=u.state(i) if step else None))
    else:
        form = z3_form(invariant, spec)
        if form is None or form[0] != "state":
            return f"{invariant} has no Z3 form of a position"
        holds = form[1]

        def broken(u: Any, i: int) -> Any:
            return z3.Not(holds(u.state(i + 1)))
    start = sc.start(game)
    actions: list[Action] = [Deal(start.hands, None), *(parse_action(game, t) for t, _ in sc.actions)]
    problem = z3_admits(spec, ruleset, n, actions, broken)
    if problem is not None:
        return f"in Z3: {problem}"
    if z3_admits(spec, ruleset, n, actions[:-1], broken) is None:
        return f"in Z3: {invariant} is false already before the last action"
    return None


def replay_counterexample(spec: Spec, ruleset: str, invariant: str, path: Path,
                          stored_for: str | None = None) -> tuple[str | None, str]:
    """Replay the stored counterexample ``path`` of ``invariant`` under ``ruleset``.

    :param stored_for: the named house ruleset the scenario was stored for, where
        ``ruleset`` derives from it (default: ``ruleset`` itself).
    :returns: ``(None, what the replay showed)`` when the scenario starts right after a real
        deal, names ``stored_for`` (or ``ruleset``), every action is legal, and the
        invariants the engine's check mode evaluates report ``invariant`` broken after the
        last action and not before; else ``(what is wrong, "")``.
    """
    from palast.formats.notation import parse_action
    from palast.formats.scenario import load_scenario
    from palast.invariants.check import step_problems

    if not path.exists():
        return f"{shown(path)} is missing", ""
    try:
        sc = load_scenario(path, spec)
    except InputError as exc:
        return exc.render(), ""
    named = stored_for or ruleset
    if named not in sc.rulesets:
        return f"{shown(path)} does not name the ruleset {named} (rulesets: {', '.join(sc.rulesets)})", ""
    game = sc.game(spec, ruleset)
    state = sc.start(game)
    try:
        dealt = game.apply(game.initial_state(), Deal(state.hands, None)).state
    except IllegalActionError as exc:  # hands no deal gives
        return f"{shown(path)} does not start right after a real first deal ({exc})", ""
    if dealt != state:
        return f"{shown(path)} does not start right after a real first deal", ""
    if not sc.actions:
        return f"{shown(path)} has no actions", ""
    others: dict[str, int] = {}
    last = len(sc.actions)
    for i, (text, _) in enumerate(sc.actions, start=1):
        try:
            action = parse_action(game, text)
            step = game.apply(state, action)
        except (NotationError, IllegalActionError) as exc:
            return f"action {i} ({text}) is not legal: {exc}", ""
        names = [n for n, _ in step_problems(game, state, action, step.state, step.events, refuted=True)]
        for n in names:
            others.setdefault(n, i)
        state = step.state
        if invariant in names and i < last:
            return f"{invariant} is broken already after action {i} of {last} ({text})", ""
    if invariant not in others or others[invariant] != last:
        return f"{invariant} holds after {'its only action' if last == 1 else f'all {last} actions'}", ""
    also = "; ".join(f"{n} first after action {i}" for n, i in others.items() if n != invariant)
    return None, (f"{shown(path)}: {last} legal actions after a real deal; the check mode's invariants report "
                  f"{invariant} broken after the last" + (f" (also broken: {also})" if also else ""))
