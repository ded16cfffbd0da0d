"""Proof obligations, their outcomes, and the solver settings every check uses.

An :class:`Obligation` names what is checked, for which ruleset, what result it expects
(``proved``, ``witness``, ``no-such-state`` or ``counterexample``) and how to run it.
Running one gives an :class:`Outcome`; it *passes* only if its result is the expected
one. ``unknown`` (a solver timeout or give-up) never passes, and neither does ``error``.

Every solver is made by :func:`solver` (or :func:`eliminating_solver`): a fixed random
seed and a resource limit (Z3's ``rlimit``, a count of the solver's steps), so that a run is
repeatable and bounded, and its result does not depend on the machine or its load: a check
that runs out of steps ends ``unknown`` on every machine, one that does not ends the same way
on every machine. A wall-clock timeout stays as a backstop only, far above what the step
budget takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from palast.spec.house_rulesets import prove_lists

#: The seed of every solver (``random_seed``) and of Z3's global ``smt.random_seed``.
SEED = 20070101
#: The step budget of one solver check (Z3's ``rlimit``). The costliest check of a
#: ``palast prove`` run takes about 50 million steps (next-player, 4 s); this budget is ten
#: times that, about a minute on one core of the machine the figures were taken on.
RLIMIT = 500_000_000
#: The step budget of a first, unsplit query that a case split follows where it is
#: undecided (:meth:`proofs.invariant.Context.breaks`): a tenth of :data:`RLIMIT`, about
#: what the costliest check of the reference takes.
FIRST_TRY = RLIMIT // 10
#: The part of :data:`FIRST_TRY` beyond which a first query that was decided still marks its
#: check as one a game of more players splits at once: a seat more multiplied the steps
#: spent by 2.4 to 4.7 in the checks measured (player-can-act under fan, next-player under
#: the reference), and every first query past three tenths was undecided with a seat more,
#: each spending 3 to 6 s before its split.
NEAR_BUDGET = 0.3
#: Timeout of one solver check, in milliseconds: a backstop for work Z3 does not count as
#: steps (the budget above ends a check well before it on any machine of today).
TIMEOUT_MS = 300_000
RESULTS = ("proved", "witness", "no-such-state", "counterexample", "unknown", "error")


#: House ruleset → obligation → expected result (:func:`palast.spec.house_rulesets.prove_lists`,
#: which check mode reads too); tests replace it here.
house_prove_lists = prove_lists


@dataclass(frozen=True)
class Breaks:
    """One entry of a reading's ``breaks`` (spec/variation_points.yaml): under every ruleset
    taking reading ``reading`` of variation point ``point``, obligation ``obligation`` ends
    in a counterexample, ``because``; ``place`` is where the entry is written."""

    point: str
    reading: str
    obligation: str
    because: str
    file: str
    place: str

    @property
    def why(self) -> str:
        """``"reading R of P breaks it: BECAUSE"``."""
        return f"reading {self.reading} of {self.point} breaks it: {self.because}"


def declared_breaks(spec: Any) -> list[Breaks]:
    """Every ``breaks`` entry of every reading, in file order."""
    doc = spec.documents["variation_points.yaml"]
    out = []
    for i, vp in enumerate(spec.variation_points.values()):
        for j, r in enumerate(vp.readings):
            for k, (name, because) in enumerate(r.breaks):
                out.append(Breaks(vp.id, r.id, name, because, doc.file,
                                  doc.place(("variation_points", i, "readings", j, "breaks", k, "obligation"))))
    return out


def broken_by_readings(spec: Any, ruleset: str,
                       reading_of: Callable[[str], str] | None = None) -> dict[str, list[Breaks]]:
    """Obligation → the ``breaks`` entries of the readings ``ruleset`` takes that name it;
    with ``reading_of`` (variation point id → reading id), of the readings it gives
    instead (a proof layout's, :meth:`proofs.encoding.Layout.point_reading`)."""
    out: dict[str, list[Breaks]] = {}
    for b in declared_breaks(spec):
        taken = spec.variation_points[b.point].choices.get(ruleset) if reading_of is None else reading_of(b.point)
        if taken == b.reading:
            out.setdefault(b.obligation, []).append(b)
    return out


#: Families whose obligations are not claims about the rules that a reading could make
#: false: the differential check (the model agrees with the engine), the non-vacuity checks
#: (each invariant can be violated) and the rule modules' checks. A ``breaks`` may not name
#: them: one line of rule data would silence a real disagreement.
NOT_CLAIMS = ("differential", "nonvacuous", "modules")


def check_breaks(spec: Any, stated: list[Obligation]) -> None:
    """Refuse ``breaks`` entries palast prove cannot honour: one naming no obligation of
    ``stated`` (those stated for every ruleset), or one that is no claim a reading could
    make false (stated to end in anything but a proof, or of a family of
    :data:`NOT_CLAIMS`); one naming an obligation its reading names already; and one that
    a named house ruleset of spec/rulesets.yaml taking the reading contradicts in its
    ``prove`` list. A ruleset derived from a named one (house rules on top of it) takes the
    reading's word over the list it inherits.

    :raises SpecError: listing each, at the file, line and key of the entry.
    """
    from palast.errors import SpecError

    claims = {ob.name for ob in stated if ob.expect == "proved" and ob.family not in NOT_CLAIMS}
    names = {ob.name for ob in stated}
    problems: list[tuple[str, str]] = []
    seen: set[tuple[str, str, str]] = set()
    for b in declared_breaks(spec):
        if b.obligation not in names:
            problems.append((b.place, f"reading {b.reading} of {b.point} breaks {b.obligation!r}, but palast prove "
                                      "states no obligation of that name (palast prove --list lists them)"))
        elif b.obligation not in claims:
            problems.append((b.place, f"reading {b.reading} of {b.point} breaks {b.obligation}, which is no claim "
                                      "about the rules that a reading can make false (only an obligation expected "
                                      "to be proved, not the differential check, a non-vacuity check, a module's "
                                      "check or a witness question)"))
        if (b.point, b.reading, b.obligation) in seen:
            problems.append((b.place, f"reading {b.reading} of {b.point} names {b.obligation} twice"))
        seen.add((b.point, b.reading, b.obligation))
    listed = house_prove_lists(spec)
    rulesets = spec.documents["rulesets.yaml"].file
    for house in spec.house_rulesets:
        for name, bs in broken_by_readings(spec, house).items():
            expect = listed.get(house, {}).get(name, "counterexample")
            if expect != "counterexample":
                problems += [(b.place, f"{house} takes reading {b.reading} of {b.point}, which breaks {name}, but "
                                       f"its prove list ({rulesets}) expects {expect}") for b in bs]
    if problems:
        doc = spec.documents["variation_points.yaml"]
        if len(problems) == 1:
            raise SpecError(problems[0][1], doc.file, problems[0][0])
        raise SpecError(f"{len(problems)} problems with breaks:\n" + "\n".join(f"  - {p}: {m}" for p, m in problems),
                        doc.file)


def apply_breaks(spec: Any, obligations: list[Obligation]) -> list[Obligation]:
    """``obligations`` with each that a reading of its ruleset breaks (a ``breaks`` entry)
    expecting a counterexample, and saying why (:attr:`Obligation.because`), and none
    resting on (``needs``) one so broken: the proofs leave it out of what they assume
    (:func:`refuted`)."""
    from dataclasses import replace

    cache: dict[str, dict[str, list[Breaks]]] = {}
    out = []
    for ob in obligations:
        broken = cache.setdefault(ob.ruleset, broken_by_readings(spec, ob.ruleset))
        if broken and any(n in broken for n in ob.needs):  # nothing rests on what a reading breaks
            ob = replace(ob, needs=tuple(n for n in ob.needs if n not in broken))
        bs = broken.get(ob.name)
        out.append(ob if not bs else replace(ob, expect="counterexample", because="; ".join(b.why for b in bs)))
    return out


def refuted(spec: Any, ruleset: str, reading_of: Callable[[str], str] | None = None) -> frozenset[str]:
    """The obligations expected to end in a counterexample under ``ruleset`` by its
    ``prove`` list (a named house ruleset's, :func:`house_prove_lists`), by a reading it
    takes (a ``breaks`` entry, :func:`broken_by_readings`) or by a rule module it switches
    on (:func:`broken_by_modules`): the invariants they establish do
    not hold under it, so no proof under it may assume them. Empty for a ruleset with
    neither. With ``reading_of`` (variation point id → reading id), the readings and
    modules are those it gives, the prove list still the ruleset's."""
    listed = {n for n, e in house_prove_lists(spec).get(ruleset, {}).items() if e == "counterexample"}
    return frozenset(listed | set(broken_by_readings(spec, ruleset, reading_of))
                     | broken_by_modules(spec, ruleset, reading_of))


def broken_by_modules(spec: Any, ruleset: str, reading_of: Callable[[str], str] | None = None) -> set[str]:
    """The invariants a rule module that ``ruleset`` switches on (or, with ``reading_of``,
    that the reading it gives of the module's point switches on) declares broken (its
    ``breaks``, shown by the module's obligations, :mod:`proofs.modules`)."""
    out: set[str] = set()
    for m in spec.modules.values():
        vp = spec.variation_points.get(m.point)
        if vp is None:
            continue
        if (vp.choices.get(ruleset) if reading_of is None else reading_of(m.point)) == m.reading:
            out.update(b.invariant for b in m.breaks)
    return out


def solver(timeout_ms: int = TIMEOUT_MS, rlimit: int = RLIMIT) -> Any:
    """A fresh Z3 solver with the project's step budget, timeout and fixed seed.

    :param timeout_ms: wall-clock backstop of one check, in milliseconds.
    :param rlimit: step budget of one check (Z3's ``rlimit``; 0: none).
    """
    z3.set_param("smt.random_seed", SEED)
    s = z3.SimpleSolver()
    _limit(s, timeout_ms, rlimit)
    return s


def _limit(s: Any, timeout_ms: int, rlimit: int) -> None:
    s.set("timeout", timeout_ms)
    s.set("rlimit", rlimit)
    s.set("random_seed", SEED)


def _eliminating() -> list[Any]:
    """The preprocessing steps of :func:`eliminating_solver`, in order."""
    simplify = z3.With("simplify", arith_lhs=True, som=True)
    return [simplify, "propagate-values", "solve-eqs", "elim-uncnstr", simplify]


def eliminating_solver(timeout_ms: int = TIMEOUT_MS, rlimit: int = RLIMIT) -> Any:
    """A solver that first simplifies and eliminates equations (``solve-eqs``): the
    successor's fields are defined by equations, so they disappear before the search.
    Not incremental; same limits and seed as :func:`solver`."""
    z3.set_param("smt.random_seed", SEED)
    s = z3.Then(*_eliminating(), "smt").solver()
    _limit(s, timeout_ms, rlimit)
    return s


def eliminated(*formulas: Any) -> Any:
    """The conjunction of ``formulas`` after the preprocessing of :func:`eliminating_solver`
    (simplify, propagate values, solve and drop equations, drop unconstrained terms): a
    formula over fewer variables that every model of the conjunction satisfies, once each
    term dropped by ``elim-uncnstr`` is named by the fresh variable standing for it (solving
    ``x = t`` drops ``x`` and substitutes ``t``; the other steps are equivalences). So a
    formula ``C`` unsatisfiable with it is unsatisfiable with the conjunction, even where
    ``C`` reads a variable it dropped: proving the cases of a check unsatisfiable over it
    proves them over ``formulas``. The converse fails (a dropped variable is free in it), so
    a satisfiable case proves nothing and is asked again over ``formulas``
    (:func:`proofs.invariant.prove_invariant`). Used to preprocess what the cases of one
    check share once, not once per case (card-conservation under the reference at five
    players: 4.3 s to 2.5 s). It runs outside any solver, so without the step budget: its
    steps rewrite the formula in passes, with no search (Z3 caps the expansion into sums
    of monomials, ``som_blowup``), and each check after it has its whole budget.
    """
    goal = z3.Goal()
    goal.add(*formulas)
    parts = z3.Then(*_eliminating())(goal)
    return z3.Or([g.as_expr() for g in parts]) if len(parts) != 1 else parts[0].as_expr()


class Unknown(Exception):
    """A solver check ended ``unknown`` (timeout or give-up): the obligation fails."""


def steps_spent(s: Any) -> int:
    """Z3's running count of steps in the context of solver ``s`` (shared by all its
    solvers; a check's step budget is counted from it), so the difference across a check is
    what that check spent; 0 where the statistic is missing (then no first query counts as
    near its budget, :data:`NEAR_BUDGET`)."""
    st = s.statistics()
    names: list[str] = st.keys()  # a z3.Statistics is not a mapping: ``in`` on it reads its pairs
    return int(st.get_key_value("rlimit count")) if "rlimit count" in names else 0


def check(s: Any, *assumptions: Any) -> bool:
    """Run ``s.check(*assumptions)``: True for sat, False for unsat.

    :raises Unknown: when the solver answers unknown, with its reason.
    """
    r = s.check(*assumptions)
    if r == z3.unknown:
        why = s.reason_unknown()
        if why == "canceled":  # what Z3 says when a limit ends a check
            why = "canceled: the check spent its budget of solver steps (or reached the backstop timeout)"
        raise Unknown(why)
    return bool(r == z3.sat)


@dataclass
class Outcome:
    """What running an obligation found.

    :ivar result: one of :data:`RESULTS`.
    :ivar detail: one line saying what was shown (bounds, counts, the failing step).
    :ivar files: witness or counterexample files written, relative to the repository.
    :ivar coverage: for the differential check, ``(rule id, positions it fires in)``.
    :ivar excused: for the differential check, ``(rule id, obligation)`` for each rule that
        fires in no position and that obligation shows never reached (its result counts:
        the check :attr:`Obligation.needs` it).
    :ivar pending: for a differential check left ``unknown`` by rules firing in no
        position, ``(rule id, obligation)``: an obligation of the same ruleset that, should
        it end in no-such-state in the same run, shows that rule never reached, though the
        ruleset was not expected to make it so (house rules given on the command line); the
        runner settles it (:func:`proofs.runner.settle`).
    :ivar settled: the detail once every pending excuse holds.
    """

    result: str
    detail: str = ""
    files: tuple[str, ...] = ()
    coverage: tuple[tuple[str, int], ...] = ()
    excused: tuple[tuple[str, str], ...] = ()
    pending: tuple[tuple[str, str], ...] = ()
    settled: str = ""


@dataclass(frozen=True)
class Options:
    """How obligations run.

    :ivar out_dir: where counterexample scenarios, and witnesses found by a search, are
        written (default: ``proofs/witnesses``).
    :ivar search: the witnesses were searched anew into ``out_dir``: check those instead
        of the stored ones in ``proofs/witnesses``.
    :ivar stored_counterexample: a stored scenario replays the counterexample
        (:mod:`proofs.house_rulesets`): an obligation that Z3 refutes need not search one.
    """

    out_dir: Path | None = None
    search: bool = False
    stored_counterexample: bool = False


@dataclass(frozen=True)
class Obligation:
    """One proof obligation.

    :ivar name: its id, e.g. ``card-conservation``.
    :ivar ruleset: the ruleset it is checked under.
    :ivar expect: the result that makes it pass.
    :ivar statement: what it claims, in a sentence.
    :ivar run: the check: given the spec and the :class:`Options`, returns an :class:`Outcome`.
    :ivar family: the module that declares it.
    :ivar invariants: ids in ``spec/invariants.yaml`` it establishes.
    :ivar needs: names of obligations (same ruleset) whose invariants it assumes; it
        counts only if they pass too.
    :ivar cost: a rough cost, to schedule long checks first.
    :ivar runs_as: for an obligation that runs another family's check (a named house
        ruleset's, :mod:`proofs.house_rulesets`), that family; the runner groups it so.
    :ivar because: why it expects what it does, where a reading the ruleset takes declares
        that it breaks it (:func:`apply_breaks`); ``""`` otherwise.
    """

    name: str
    ruleset: str
    expect: str
    statement: str
    run: Callable[[Any, Options], Outcome] = field(compare=False, repr=False)
    family: str = ""
    invariants: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    cost: float = 1.0
    runs_as: str = ""
    because: str = ""

    @property
    def key(self) -> str:
        """``name@ruleset``."""
        return f"{self.name}@{self.ruleset}"


def rests_on(stated: Sequence[Obligation], ob: Obligation) -> list[Obligation]:
    """What ``ob`` assumes, directly (its ``needs``) or through what those assume in turn,
    among the obligations of ``stated`` under ``ob``'s ruleset; ``ob`` itself left out
    (mutual induction), in the order of ``stated``. A need ``stated`` lacks is skipped.

    :param stated: the obligations stated (:func:`proofs.runner.all_obligations`).
    :param ob: one of them, or one with their ruleset.
    :returns: the obligations, each once.
    """
    by_key = {o.key: o for o in stated}
    seen: set[str] = {ob.key}
    todo = [ob]
    while todo:
        for need in todo.pop().needs:
            key = f"{need}@{ob.ruleset}"
            if key not in seen and key in by_key:
                seen.add(key)
                todo.append(by_key[key])
    return [o for o in stated if o.key in seen and o.key != ob.key]
