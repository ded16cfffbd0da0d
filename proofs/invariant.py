"""Inductive invariants: the proof context of one game, the strengthening every inductive
proof assumes, and the prover.

**Method.** The invariants of ``spec/invariants.yaml`` are not inductive on their own (a
swap is only safe because no display repeats a role, a Maid only draws because the deck
holds enough cards, ...). They are proved together with a few helper invariants as one
conjunction :func:`strengthening`: each conjunct ``P`` gets its own obligation, which
checks that ``P`` holds at the start of the game and that every action from a position
satisfying *all* conjuncts leads to a position satisfying ``P``. When every conjunct's
obligation passes, the conjunction is inductive, so every conjunct holds in every
position reachable from the start of a game (mutual induction). The runner marks an
obligation that assumes a failed conjunct as failed too (:attr:`Obligation.needs`).

Each check is split by action kind (one query per transition), so a failure names the
action kind that breaks the invariant.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import z3

from palast.engine import Game
from palast.engine.state import DecisionKind
from palast.lang.syntax import show
from palast.spec.load import Spec
from proofs.concrete import abstract, pin_state
from proofs.encoding import Layout, ZState, equal
from proofs.legality import action_kinds, shapes
from proofs.obligation import (
    FIRST_TRY,
    NEAR_BUDGET,
    RLIMIT,
    Obligation,
    Options,
    Outcome,
    Unknown,
    check,
    eliminated,
    eliminating_solver,
    refuted,
    solver,
    steps_spent,
)
from proofs.terms import conj, eq
from proofs.transition import Label, Transition
from proofs.well_formed import FORMED, kept_formed, well_formed
from proofs.z3_values import ColoursForgotten

K = DecisionKind
Predicate = Callable[[ZState], Any]
def player_counts(spec: Spec) -> tuple[int, ...]:
    """Every player count of the spec (``spec/game.yaml`` ``players``)."""
    return tuple(range(spec.min_players, spec.max_players + 1))


def make_game(spec: Spec, ruleset: str, n: int) -> Game:
    """The game of the first ``n`` player colours of the spec under ``ruleset``."""
    return Game(spec, ruleset, list(spec.player_colours[:n]), check=False)


class Context:
    """Z3 terms for proofs about one game at one level: a position ``s``, the position
    ``t`` after one action with parameters ``label``, and for every action kind the
    relation between them (``s`` waits for that kind, the action is legal, ``t`` is what
    :meth:`Transition.step` computes) and that draft.

    :param game: the game.
    :param level: ``"card"`` or ``"role"`` (see :mod:`proofs.encoding`).
    :param coloured: at the role level, the roles told apart by colour
        (:attr:`proofs.encoding.Layout.coloured`).
    :raises ColoursForgotten: at the role level, where a rule reads the colour of a card of
        a role not in ``coloured``.
    """

    def __init__(self, game: Game, level: str, coloured: frozenset[int] = frozenset()) -> None:
        self.game = game
        self.lay = Layout(game, level, coloured)
        self.tr = Transition(self.lay)
        self.s = ZState.fresh(self.lay, "s")
        self.t = ZState.fresh(self.lay, "t")
        self.label = Label.fresh(self.lay, "a")
        #: the decisions an action answers in this game (:func:`proofs.legality.action_kinds`)
        self.kinds = action_kinds(self.lay)
        self.shapes = shapes(self.lay)
        self.steps: dict[str, tuple[Any, ZState]] = {
            k: self.tr.step(self.s, self.label, k) for k in self.kinds}
        self.rel: dict[str, tuple[Any, ZState]] = {
            k: (conj([eq(self.s["dk"], self.lay.code(k)), legal, self.label.used(self.shapes[k]),
                      equal(self.t, after)]), after)
            for k, (legal, after) in self.steps.items()}
        self.start = abstract(self.lay, game.initial_state())
        self._hyp: Any = None
        self._parts: dict[tuple[str, ...], Any] = {}
        self._formed: Any = None
        #: the fields of ``t`` each claim asked about mentions (by the claim's id; the claim
        #: is kept so that its id is not reused), and the relations restricted to them
        self._claim_fields: dict[int, tuple[Any, frozenset[str]]] = {}
        self._restricted: dict[tuple[str, frozenset[str]], Any] = {}

    def relation_on(self, kind: str, fields: set[str]) -> Any:
        """The ``kind`` relation restricted to the successor's ``fields``: legal, and each of
        those fields equals what the action computes (the other fields are left free, so
        this admits more successors than :attr:`rel`; a property of ``fields`` proved
        over it holds over the full relation too)."""
        legal, after = self.steps[kind]
        return conj([eq(self.s["dk"], self.lay.code(kind)), legal, self.label.used(self.shapes[kind]),
                     *[eq(self.t.f[f], after.f[f]) for f in sorted(fields)]])

    def fields_of(self, formula: Any) -> set[str]:
        """The fields of ``t`` that ``formula`` mentions."""
        names = {v.get_id(): name for name, v in self.t.f.items()}
        found: set[str] = set()
        seen: set[int] = set()
        todo = [formula]
        while todo:
            e = todo.pop()
            i = e.get_id()
            if i in seen:
                continue
            seen.add(i)
            if i in names:
                found.add(names[i])
            todo.extend(e.children())
        return found

    def flag(self, kind: str, name: str) -> Any:
        """The condition under which the ``kind`` action takes the path flagged ``name``.

        :raises KeyError: for a flag naming a rule or point the spec does not have
            (:func:`proofs.statements_z3.check_flag`).
        """
        from proofs.statements_z3 import check_flag

        check_flag(self.lay.game.spec, name)
        return self.rel[kind][1].flags.get(name, z3.BoolVal(False))

    def formed(self) -> Any:
        """What obligation decisions-well-formed proves, on ``s`` (:func:`~proofs.well_formed.well_formed`: the
        declared lemma, who decides is a seat, ..., with the encoding's own fields and what
        a pending decision keeps, such as the Wizard's partner)."""
        if self._formed is None:
            self._formed = well_formed(self.s)
        return self._formed

    def hypothesis(self, only: tuple[str, ...] | None = None) -> Any:
        """The strengthening, on ``s``; with ``only``, just its conjuncts proved by those
        obligations (of :data:`STRENGTHENING`; one the ruleset leaves out stays out).

        :raises ValueError: for a name in ``only`` that proves no conjunct.
        """
        if only is None:
            if self._hyp is None:
                self._hyp = z3.And([p(self.s) for _, p in strengthening(self.lay)])
            return self._hyp
        unknown = [name for name in only if name not in STRENGTHENING]
        if unknown:
            raise ValueError(f"{', '.join(unknown)} prove(s) no conjunct of the strengthening")
        if only not in self._parts:
            self._parts[only] = z3.And([p(self.s) for name, p in strengthening(self.lay) if name in only])
        return self._parts[only]

    def restricted(self, kind: str, claims: tuple[Any, ...]) -> Any:
        """The ``kind`` relation restricted to the fields of ``t`` that ``claims`` mention
        (:meth:`relation_on`; built once per kind and set of fields). Asked with those
        claims it is exactly as satisfiable as the whole relation :attr:`rel`: the fields
        it leaves free are each a function of the position and the action in :attr:`rel`,
        so a model of the one gives a model of the other by setting them so (a model of the
        restricted one leaves those fields arbitrary: :mod:`proofs.search` builds
        counterexamples over the whole relation). Where a claim is no Z3 expression (a
        Python truth value, a list, which a solver also takes), the whole relation."""
        if not all(isinstance(c, z3.ExprRef) for c in claims):
            return self.rel[kind][0]
        if len(self._claim_fields) > CLAIMS_KEPT:
            self._claim_fields.clear()
        fields: set[str] = set()
        for c in claims:
            got = self._claim_fields.get(c.get_id())
            if got is None or not got[0].eq(c):
                got = self._claim_fields[c.get_id()] = (c, frozenset(self.fields_of(c)))
            fields |= got[1]
        key = (kind, frozenset(fields))
        rel = self._restricted.get(key)
        if rel is None:
            rel = self._restricted[key] = self.relation_on(kind, fields)
        return rel

    def step_solver(self, kind: str, rlimit: int = RLIMIT, only: tuple[str, ...] | None = None,
                    claims: tuple[Any, ...] | None = None) -> Any:
        """A new solver holding the strengthening on ``s`` and the ``kind`` relation (with
        ``claims``, :meth:`restricted`: the reference's and fan's role-level obligations
        took 26.5 cpu s, not 28.9), each call a fresh one that first eliminates the successor's equations
        (:func:`~proofs.obligation.eliminating_solver`). A solver kept across checks carried
        what it learned from earlier claims, and later checks on it got much slower
        (empty-hand under the reference took 3 s on its own and 34 s after the other
        obligations of a ``palast prove`` run); the elimination takes another sixth off the
        reference's obligations (68.9 s to 56.8 s). With ``only``, the solver holds just
        those conjuncts of the strengthening (:meth:`hypothesis`)."""
        sv = eliminating_solver(rlimit=rlimit)
        sv.add(self.hypothesis(only), self.rel[kind][0] if claims is None else self.restricted(kind, claims))
        return sv

    def breaks(self, kind: str, *claims: Any, hard: set[tuple[str, int]] | None = None,
               only: tuple[str, ...] | None = None) -> bool:
        """Whether some ``kind`` action from a position satisfying the strengthening
        satisfies every one of ``claims`` (formulas over :attr:`s`, :attr:`label`,
        :attr:`t`). Asked first in one query with a tenth of the step budget
        (:data:`~proofs.obligation.FIRST_TRY`); where that is undecided, case by case
        (:func:`seat_cases`, then :func:`rest_case`), each case by a fresh
        :meth:`step_solver` with the whole budget. With the seats fixed the solver's
        simplifier removes most choices between seats: decisions-well-formed under the fan
        module, whose exchange-answer check at five players spent the whole budget in one
        query (30 s), takes 9 s split by the Wizard's and the partner's seats. Split
        always, the easy checks got slower (the reference's next-player: 12 s to 34 s), so
        the split is the fallback.

        :param hard: the checks (``(kind, number of claims)``) of one proof that a game of
            fewer players had to split, or whose first query spent more than
            :data:`~proofs.obligation.NEAR_BUDGET` of its budget; such a check is split at
            once, since one query that was undecided (or nearly so) with fewer seats is in
            practice undecided with more (under fan, each such first try spent 2.5 to 6 s);
            a check this call has to split, or nearly had to, is added to it. Which way a
            check is asked changes how long it takes, not whether the actions it finds
            exist (the cases cover every position); a split case can still end undecided,
            as it can after a failed first try.
        :param only: assume just these conjuncts of the strengthening
            (:meth:`hypothesis`); an action found then may start from a position the whole
            strengthening rules out.
        :raises Unknown: if a case is undecided.
        """
        key = (kind, len(claims))
        if hard is None or key not in hard:
            sv = self.step_solver(kind, FIRST_TRY, only, claims)
            before = steps_spent(sv)
            try:
                found = check(sv, *claims)
            except Unknown:
                if hard is not None:
                    hard.add(key)
            else:
                if hard is not None and steps_spent(sv) - before > NEAR_BUDGET * FIRST_TRY:
                    hard.add(key)
                return found
        cases = seat_cases(self, kind)
        return any(check(self.step_solver(kind, only=only, claims=claims), *claims, *case)
                   for case in [*cases, rest_case(cases)])


_CONTEXTS: dict[tuple[int, str, int, str], tuple[Spec, Context]] = {}
#: How many claims a context keeps the fields of (:meth:`Context.restricted`) before it
#: forgets them all: a whole ``palast prove`` run asks a few hundred per context.
CLAIMS_KEPT = 4096


def context(spec: Spec, ruleset: str, n: int, level: str) -> Context:
    """The :class:`Context` of ``n`` players under ``ruleset`` (built once per process), at
    ``level``. At the role level, a role whose colour a rule that applies under ``ruleset``
    reads (a rule module's character card names its Jester by colour) is told apart by
    colour (a kind per card, :attr:`proofs.encoding.Layout.coloured`); where a rule reads
    the colour of a card whose role the compiler cannot tell, the context is the card
    level's: a proof at the card level is exact."""
    ctx = _at_level(spec, ruleset, n, level)
    if ctx is None:
        ctx = context(spec, ruleset, n, "card")
        _CONTEXTS[(id(spec), ruleset, n, level)] = (spec, ctx)
    return ctx


def _at_level(spec: Spec, ruleset: str, n: int, level: str) -> Context | None:
    """The context :func:`context` keeps for ``level`` (built once per process), or None
    where ``level`` is the role level and the compiler refuses it (``ColoursForgotten``)
    for a card whose role it cannot tell. Where it names the role, the context is built
    again with that role told apart by colour, until the compiler accepts it."""
    key = (id(spec), ruleset, n, level)
    if key not in _CONTEXTS:
        game = make_game(spec, ruleset, n)
        coloured: frozenset[int] = frozenset()
        while True:
            try:
                _CONTEXTS[key] = (spec, Context(game, level, coloured))
                break
            except ColoursForgotten as exc:
                if level != "role":
                    raise
                if exc.role is None or exc.role in coloured:
                    return None
                coloured |= {exc.role}
    return _CONTEXTS[key][1]


def proof_level(spec: Spec, ruleset: str, level: str) -> str:
    """The level a proof asked at ``level`` under ``ruleset`` runs at (:func:`context`):
    ``"card"`` where a rule applying under ``ruleset`` reads the colour of a card whose
    role the compiler cannot tell, else ``level``. Found by building the context of the
    fewest players (kept for :func:`context` where it builds; the proofs at ``level`` build
    it anyway, and the runner's forked workers inherit it); the runner groups a ruleset's
    obligations by it
    (:func:`proofs.runner.run`), so it decides where a proof runs, never what it finds."""
    ctx = _at_level(spec, ruleset, spec.min_players, level)
    return "card" if ctx is None else str(ctx.lay.level)


# ---------------------------------------------------------------------- helpers on positions

def dk_in(s: ZState, kinds: tuple[str, ...]) -> Any:
    """The position waits for one of ``kinds``."""
    return z3.Or([s["dk"] == s.lay.code(k) for k in kinds])


def in_round(s: ZState) -> Any:
    """A round has been dealt and has not ended (a gap inside the round included)."""
    return z3.And(s["round"] >= 1, s["rk"] == 0, z3.Not(dk_in(s, (K.DEAL, K.GAME_OVER))))


def role_with_action(lay: Layout, action: str) -> int:
    """The role whose action kind (``spec/roles.yaml``) is ``action``."""
    return lay.role_by_action[action]


def strengthening(lay: Layout) -> list[tuple[str, Predicate]]:
    """The conjuncts every inductive proof under ``lay``'s ruleset assumes, each with the
    obligation proving it: those of :data:`STRENGTHENING`, except those
    :func:`not_assumed` under the ruleset (round-is-bounded under house-guard, which its
    ``prove`` list expects to end in a counterexample), each reading and rule module as the
    layout reads it (:meth:`~proofs.encoding.Layout.point_reading`)."""
    from proofs.conservation import conserved
    from proofs.displays import below_six, no_repeat
    from proofs.hand_display import after_deal
    from proofs.king import banned_not_marshal
    from proofs.reachability import deck_reserve
    from proofs.termination import plays_bounded

    conjuncts: list[tuple[str, Predicate]] = [
        ("card-conservation", conserved),
        ("banned-role", banned_not_marshal),
        ("hand-plus-display", after_deal),
        ("no-repeated-role", no_repeat),
        ("display-below-six", below_six),
        (FORMED, well_formed),
        ("round-is-bounded", plays_bounded),
        ("deck-reserve", deck_reserve),
    ]
    gone = not_assumed(lay.game.spec, lay.game.ruleset, lay.point_reading)
    return [(name, p) for name, p in conjuncts if name not in gone]


def not_assumed(spec: Spec, ruleset: str, reading_of: Callable[[str], str] | None = None) -> frozenset[str]:
    """The conjuncts of :data:`STRENGTHENING` no proof under ``ruleset`` assumes: those
    :func:`~proofs.obligation.refuted` there, and under a ruleset with a prove list (a
    named house ruleset's, or one it derives from) every one the list does not expect
    proved (under ``fan``, the base game's lemmas the module breaks with its invariants:
    deck-reserve and round-is-bounded's), since nothing else proves them there. A lemma
    whose ``colours`` part is proved by an obligation of its own (``LEMMA.colours``, which
    also proves the cards a pending decision keeps, card by card) is left out where that
    obligation is refuted or not expected proved: the card level's strengthening holds
    that part. With ``reading_of`` (variation point id → reading id), the readings and rule
    modules are those it gives (:func:`~proofs.obligation.refuted`)."""
    from palast.lang.invariant_exprs import declared
    from proofs.obligation import house_prove_lists

    listed = house_prove_lists(spec).get(ruleset)
    wrong = set(refuted(spec, ruleset, reading_of))
    gone = set(wrong)
    if listed is not None:
        gone |= {name for name in STRENGTHENING if listed.get(name) != "proved"}
    for p in declared(spec):
        part = f"{p.id}{COLOURS}"
        if p.colourless is not None and (part in wrong or (listed is not None and listed.get(part) != "proved")):
            gone.add(p.id)
    return frozenset(gone & set(STRENGTHENING))


def formed_assumed(spec: Spec, ruleset: str) -> bool:
    """Whether the proofs under ``ruleset`` assume what obligation decisions-well-formed
    proves (:func:`~proofs.well_formed.well_formed`, :meth:`Context.formed`): it is not :func:`not_assumed`
    there."""
    return FORMED not in not_assumed(spec, ruleset)


def card_level_needs(spec: Spec, assumes: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """What a proof at the card level assumes: :data:`STRENGTHENING` (or just ``assumes``,
    those of its obligations a proof from part of it assumes, :func:`proofs.step.prove_step`) and the
    obligations proving the lemmas' ``colours`` parts (``LEMMA.colours``), which the card
    level's strengthening holds (:func:`~proofs.well_formed.well_formed` compiles the whole lemma there; every
    such part is listed, the only one today being decisions-well-formed's)."""
    from palast.lang.invariant_exprs import declared

    return (*(STRENGTHENING if assumes is None else assumes),
            *(f"{p.id}{COLOURS}" for p in declared(spec) if p.colourless is not None))


#: Names of the obligations that prove the strengthening's conjuncts.
STRENGTHENING = ("card-conservation", "banned-role", "hand-plus-display", "no-repeated-role",
                 "display-below-six", FORMED, "round-is-bounded", "deck-reserve")


# ---------------------------------------------------------------------- the prover

def prove_invariant(spec: Spec, ruleset: str, prop: Predicate, *, level: str = "role",
                    counts: tuple[int, ...] | None = None, name: str = "",
                    out_dir: Path | None = None, assume: Predicate | None = None) -> Outcome:
    """Prove that ``prop`` holds at the start of a game and after every action from a
    position satisfying the strengthening, for every player count, under ``ruleset``.

    :param level: the encoding level to prove at (the role level is coarser, so a proof
        there covers the card level).
    :param counts: the player counts (default: all the spec allows).
    :param name: when given and a step fails, the counterexample is searched at the card
        level, replayed by the engine and written as scenario ``name.RULESET.yaml`` in
        ``out_dir`` (:func:`proofs.search.counterexample`).
    :param assume: assume only this (a part of the strengthening, which makes the check
        smaller; proving ``prop`` from less is proving it all the same) instead of the
        whole strengthening; each action kind is then checked over the relation
        restricted to the fields ``prop`` mentions (:meth:`Context.relation_on`), case by
        case (:func:`seat_cases`), each case by a fresh solver that first eliminates the
        position's equations, over what the cases share preprocessed once
        (:func:`_case_holds`); the positions no case covers (:func:`rest_case`: a seat out
        of range, which the strengthening rules out) from ``assume`` and what obligation
        decisions-well-formed proves (:meth:`Context.formed`), asked over the formulas
        themselves (over the preprocessed ones, which lose equations that rule those
        positions out, the check was satisfiable, and took up to 2.5 s at five players),
        and where that does not rule them out from the whole strengthening.
    Where the ruleset's strengthening leaves out a refuted invariant
    (:func:`strengthening`), ``prop`` is also assumed before the action (plain induction),
    since it may be one of those left out; without ``assume``, only where the check without
    it finds the action breaking ``prop`` or is undecided (:func:`_breaks`).

    :returns: ``proved``, or ``counterexample`` naming the player count and action kind.
    :raises Unknown: if a check is undecided.
    """
    counts = counts or player_counts(spec)
    induct = bool(not_assumed(spec, ruleset))  # a conjunct left out
    # the lemma the rest case assumes first, where the ruleset's strengthening keeps it
    formed_holds = formed_assumed(spec, ruleset)
    hard: set[tuple[str, int]] = set()  # checks a smaller game split or nearly had to (Context.breaks)
    for n in counts:
        ctx = context(spec, ruleset, n, level)
        base = solver()
        base.add(z3.And(pin_state(ctx.s, ctx.start)), z3.Not(prop(ctx.s)))
        if check(base):
            return Outcome("counterexample", f"{n} players: fails at the start of the game")
        goal = z3.Not(prop(ctx.t))
        before = [prop(ctx.s)] if induct else []
        fields = ctx.fields_of(goal) if assume is not None else set()
        for kind in ctx.kinds:
            if assume is None:
                broken = _breaks(ctx, kind, before, goal, hard)
            else:
                broken = False
                full = [assume(ctx.s), *before, ctx.relation_on(kind, fields), goal]
                shared = eliminated(*full)  # preprocessed once for every case
                cases = seat_cases(ctx, kind)
                for case in cases:
                    if _case_holds(shared, full, case):
                        broken = True
                        break
                if not broken:  # what no case covers (a seat out of range), which the strengthening rules out
                    rest = rest_case(cases)
                    refuted_by_lemma = formed_holds and not _case_holds(None, full, [ctx.formed(), *rest])
                    if not refuted_by_lemma:
                        sv = eliminating_solver()
                        sv.add(ctx.hypothesis(), *full[1:], *rest)
                        broken = check(sv)
            if broken:
                where = f"a {kind} action breaks it"
                if not name:
                    return Outcome("counterexample", f"{n} players: {where}")
                from proofs.search import counterexample

                out = counterexample(
                    spec, ruleset, n, lambda u, i: z3.Not(prop(u.state(i + 1))), name=f"{name}.{ruleset}",
                    title=f"Counterexample to {name}", question=f"Does {name} hold after every action?",
                    comment=(f"Counterexample to the invariant {name} under {ruleset}, found by Z3 from a position\n"
                             "satisfying every proved invariant and replayed by the engine."), out_dir=out_dir,
                    holds=prop, where=where)
                return out
    return Outcome("proved", f"inductive for {', '.join(map(str, counts))} players, {len(ctx.kinds)} action "
                             f"kinds, {ctx.lay.describe()}")


def _case_holds(shared: Any | None, full: list[Any], case: list[Any]) -> bool:
    """Whether ``case`` is satisfiable with the conjunction of ``full``, asked first over
    ``shared`` where given, that conjunction preprocessed
    (:func:`~proofs.obligation.eliminated`): unsatisfiable there is unsatisfiable with
    ``full``; satisfiable there (or no ``shared``) is asked over ``full``, each by a fresh
    :func:`~proofs.obligation.eliminating_solver`.

    :raises Unknown: if a check is undecided.
    """
    if shared is not None:
        sv = eliminating_solver()
        sv.add(shared, *case)
        if not check(sv):
            return False
    sv = eliminating_solver()
    sv.add(*full, *case)
    return check(sv)


def _breaks(ctx: Context, kind: str, before: list[Any], goal: Any, hard: set[tuple[str, int]]) -> bool:
    """Whether a ``kind`` action leads from a position satisfying the strengthening (and
    ``before``) to one satisfying ``goal`` (:meth:`Context.breaks`). Asked first without
    ``before``: a proof without it proves more, and assuming a heavy ``prop`` before the
    action costs much (player-can-act, an existential over the actions, assumed under the
    fan module made its play check spend the step budget, 127 s; without it the
    obligation takes about a minute); asked with ``before`` only where that finds a
    breaking action or is undecided.

    :param hard: the checks of this proof a smaller game had to split, or whose first query
        came near its budget (:meth:`Context.breaks`).
    :raises Unknown: if the check with ``before`` is undecided.
    """
    if before:
        try:
            if not ctx.breaks(kind, goal, hard=hard):
                return False
        except Unknown:
            pass
    return ctx.breaks(kind, *before, goal, hard=hard)


def seat_cases(ctx: Context, kind: str) -> list[list[Any]]:
    """Cases by the seats an action of ``kind`` involves: for options built from parts,
    each set of distinct seats its seat parts name, in increasing order (a swap's two
    seats); else the deciding player, and where the statement waiting for ``kind`` is
    decided by another than the player whose action it is and keeps a partner
    (spec/roles.yaml ``by`` and ``keep``), each other seat as that partner too (a Wizard's
    answer: the Wizard). With the seats fixed the solver's simplifier removes most choices
    between seats. A deal is one case. The cases need not cover every position: the
    prover asks about the rest as well (:func:`rest_case`)."""
    n = ctx.lay.n
    s, a = ctx.s, ctx.label.a
    shape = ctx.shapes[kind]
    if shape.form == "deal":
        return [[]]
    if shape.form == "tuple" and shape.seats:
        return [[a[i] == x for i, x in zip(shape.seats, seats, strict=True)]
                for seats in itertools.combinations(range(n), len(shape.seats))]
    found = [w for _, w in ctx.tr.sites(kind, any_step=True)]
    if any(w.stmt.keys.get("by") is not None and show(w.stmt.keys["by"]) != "actor"
           and "partner" in (w.stmt.keys.get("keep") or {}) for w in found):
        return [[s["dp"] == p, s["partner"] == q] for p in range(n) for q in range(n) if p != q]
    return [[s["dp"] == p] for p in range(n)]


def rest_case(cases: list[list[Any]]) -> list[Any]:
    """The positions none of ``cases`` covers (a seat out of range, two seats alike), as
    one case: with it the cases cover every position."""
    return [z3.Not(z3.Or([z3.And(c) if c else z3.BoolVal(True) for c in cases]))]


def _run_wf(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, well_formed, name=FORMED, out_dir=opts.out_dir)


#: The suffix of the obligations proving a lemma's ``colours`` part: ``LEMMA.colours``.
COLOURS = ".colours"


def _run_colours(spec: Spec, opts: Options, ruleset: str, lemma: str) -> Outcome:
    # the part is inductive on its own: assumed before each action (and nothing else), shown
    # after. With it, what the card level's strengthening (well_formed) holds and the role
    # level, where the lemma is proved, cannot say: the cards a pending decision keeps, per
    # card kind (kept_formed; the role level states it per role). Without it no obligation
    # proved that fact at the card level, which card-conservation and next-player assume.
    from proofs.declared_z3 import colours_part

    def part(s: ZState) -> Any:
        return z3.And(colours_part(s, lemma), kept_formed(s))

    return prove_invariant(spec, ruleset, part, level="card", name=f"{lemma}{COLOURS}", out_dir=opts.out_dir,
                           assume=part)


def obligations(spec: Spec) -> list[Obligation]:
    """The obligation of the decision well-formedness conjunct, one per ruleset; and, for
    each lemma with a ``colours`` part (which the role level, where the lemma is proved,
    leaves out), one proving that part at the card level by induction on itself, with the
    cards a pending decision keeps card by card (:func:`~proofs.well_formed.kept_formed`, which the role level
    states per role only)."""
    from palast.lang.invariant_exprs import declared

    out = [Obligation(FORMED, r, "proved",
                      "the pending decision always fits the position (who decides, the card just played, "
                      "the Wizard's partner and count)",
                      partial(_run_wf, ruleset=r), "invariant", (),
                      needs=STRENGTHENING)
           for r in spec.rulesets]
    for p in declared(spec):
        if p.colourless is not None:
            out += [Obligation(f"{p.id}{COLOURS}", r, "proved",
                               f"the part of lemma {p.id} about colours holds in every position, and the cards "
                               "a pending decision keeps are among those offered, card by card (card level)",
                               partial(_run_colours, ruleset=r, lemma=p.id), "invariant", (), runs_as="turn",
                               needs=card_level_needs(spec))
                    for r in spec.rulesets]
    return out
