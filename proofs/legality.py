"""Which actions are legal: the legality half of the transition relation.

:class:`Legality` holds, for every action kind, the condition under which an action with
given parameters (a :class:`~proofs.transition.Label`) is legal in a symbolic position,
written after the engine's legal actions (``Game.legal_actions`` and the role rules) and
built from the ruleset's readings (``game.params`` when the layout was built:
:attr:`proofs.encoding.Layout.readings`). :class:`~proofs.transition.Transition`
adds what each action does; :mod:`proofs.can_act` asks whether some action is legal.
The options of every decision are compiled from the statements that wait for them (a
play's from step ``turn``: :meth:`Legality.offered_at_start`; a swap's, built from parts,
by :meth:`~proofs.resume_z3.Resuming.offered`); a deal's size is the declared ``deal``
statement's, and that no kind is dealt more often than the game has copies is the deal's
own meaning. Rules: round.deal, turn.play, turn.play.duplicate, king.jester,
king.jester-forced, turn.next.neutral-tie and the role rules of ``spec/roles.yaml``
(role.wizard, role.maid, role.cupbearer, role.guard, role.marshal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import z3

from palast.engine.state import DecisionKind
from proofs.encoding import Layout, ZState
from proofs.resume_z3 import Resuming, _what_it_offers
from proofs.shapes import NEVER, Shape, shape_of
from proofs.terms import as_term, ite, pick_by, total
from proofs.z3_values import Coll, Span, at_least_one

if TYPE_CHECKING:
    from proofs.transition import Label

K = DecisionKind


class Legality(Resuming):
    """The legality conditions of one :class:`Layout` (a game at a level).

    :param lay: the layout.
    """

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self.n = lay.n
        self.nk = len(lay.kinds)

    def legal(self, s: ZState, kind: str, label: Label) -> Any:
        """The condition under which the action of ``kind`` with parameters ``label`` is
        legal in ``s`` (the decision kind itself not included; at the role level the
        colour choice is not included either).

        :raises ValueError: for a decision kind no action answers (game over, gap).
        """
        return self.legal_all(s, kind, [label])[0]

    def legal_all(self, s: ZState, kind: str, labels: Sequence[Label]) -> list[Any]:
        """:meth:`legal` of each of ``labels`` (one condition per label, in order), the
        decision's options compiled once for all of them: a play's options come from
        running the rules of step ``turn`` (:meth:`offered_at_start`), which asked once per
        candidate card made most of the time player-can-act under the fan module spent
        outside the solver. The conditions are the terms :meth:`legal` builds for each
        label alone.

        :raises ValueError: for a decision kind no action answers (game over, gap).
        """
        form = shapes(self.lay).get(kind, NEVER)
        if form.form == "never":
            raise ValueError(f"no action answers a {kind} decision")
        if form.form == "deal":
            return [self.legal_deal(s, label) for label in labels]
        if kind == K.PLAY:
            return self.legal_plays(s, labels)
        if form.form == "cards":
            return self.picks_all(s, kind, [label.vec for label in labels])
        if form.form == "tuple":
            return [self.offered(s, kind, self.chosen(kind, label)) for label in labels]
        opts = self.options(s, kind)
        # a card chosen is one of the game's kinds (implied by being an option; said for the
        # solver's sake), unless the options hold no card (no_card: -1, a module's choice)
        none = isinstance(opts, Coll) and any(isinstance(e, int) and e < 0 for e, _ in opts.items)
        values = [self.chosen(kind, label) for label in labels]
        out = []
        for label, member in zip(labels, self._members(opts, values), strict=True):
            valid = [] if none else [s.kind_valid(v) for p, v in zip(form.parts, label.a, strict=False)
                                     if p == "card"]
            out.append(z3.And(*valid, member))
        return out

    def chosen(self, kind: str, label: Label) -> Any:
        """The value an action of ``kind`` with parameters ``label`` chooses, as the shape
        of its decision reads the label (:mod:`proofs.shapes`): the cards given (a
        collection), one term per part of options built from parts, the hands of a deal,
        or the one element.

        :raises ValueError: for a decision no action answers.
        """
        form = shapes(self.lay).get(kind, NEVER)
        if form.form == "cards":
            return Coll("cards", [(k, label.vec[k]) for k in range(self.nk)])
        if form.form == "tuple":
            return tuple(label.a[:form.width])
        if form.form == "deal":
            return label.deal
        if form.form == "element":
            return label.a[0]
        raise ValueError(f"no action answers a {kind} decision")

    # ------------------------------------------------------------------ shared steps
    def decide(self, d: ZState, kind: str, player: Any, *, partner: Any = -1, count: Any = -1,
               given: list[Any] | None = None, forced: Any = False) -> ZState:
        """Open decision ``kind`` for ``player`` (the engine's :class:`Decision`)."""
        d["dk"] = as_term(self.lay.code(kind))
        d["dp"] = as_term(player)
        d["partner"] = as_term(partner)
        d["count"] = as_term(count)
        for k in range(self.nk):
            d[f"g{k}"] = as_term(0) if given is None else given[k]
        d["forced"] = as_term(forced)
        d["gap"] = as_term(-1)
        if self.lay.site_field:  # a statement that opens it says where (Statements._open)
            d["site"] = as_term(-1)
        return d

    def gap(self, d: ZState, parameter: str, seat: Any) -> ZState:
        """Stop at the open variation point that sets ``parameter`` (a rule gap)."""
        self.decide(d, K.GAP, seat)
        d["gap"] = z3.IntVal(self.lay.point_code(parameter))
        d.flags[f"gap:{parameter}"] = z3.BoolVal(True)
        return d

    # ------------------------------------------------------------------ shared terms
    def repeats(self, s: ZState, x: Any, p: Any) -> Any:
        """True if a card of kind ``x`` repeats a role in the display of (symbolic) ``p``."""
        return z3.Or([z3.And(s.role_is(x, r), s.disp_role(p, r) >= 1) for r in range(self.lay.nroles)])

    def voluntary(self, s: ZState, x: Any, p: Any) -> Any:
        """True if playing kind ``x`` repeats a role in ``p``'s display while ``p`` could
        play a card that does not (an unforced play; voluntary-whisper, turn.play.duplicate)."""
        return z3.And(z3.Not(s["forced"]), self.repeats(s, x, p), s.fresh_playable(p))


    # ------------------------------------------------------------------ per action kind
    def legal_deal(self, s: ZState, label: Label) -> Any:
        """Each hand gets the cards the declared ``deal`` statement gives each player, no
        kind more often than the game has copies (round.deal), as the engine checks a deal.
        Never legal where no statement waits for a deal under the ruleset."""
        from proofs.z3_values import _n

        w = self.waiting(K.DEAL)
        if w is None:
            return z3.BoolVal(False)
        count = _n(self._value(s, w.stmt.arg, {}))
        h = label.deal
        legal = [z3.And(h[p][k] >= 0) for p in range(self.n) for k in range(self.nk)]
        legal += [total(h[p]) == count for p in range(self.n)]
        legal += [total(h[p][k] for p in range(self.n)) <= self.lay.kinds[k].copies for k in range(self.nk)]
        return z3.And(legal)

    def legal_play(self, s: ZState, label: Label) -> Any:
        """A card the declared options of the play offer, as the rules of step ``turn``
        compute them on the position (turn.play, king.jester, king.jester-forced,
        turn.play.duplicate and their readings; :meth:`offered_at_start`)."""
        return self.legal_plays(s, [label])[0]

    def legal_plays(self, s: ZState, labels: Sequence[Label]) -> list[Any]:
        """:meth:`legal_play` of each of ``labels``, the step run once
        (:meth:`offered_at_start_all`)."""
        xs = [label.a[0] for label in labels]
        offered = self.offered_at_start_all(s, K.PLAY, xs)
        return [z3.And(s.kind_valid(x), o) for x, o in zip(xs, offered, strict=True)]

    #: the start of the names of the flags (``offered:i``, one per value asked about) that a
    #: decision opened while :meth:`offered_at_start_all` runs its step sets
    OFFERED = "offered"

    def offered_at_start(self, s: ZState, kind: str, value: Any) -> Any:
        """The condition that ``value`` is an option of the decision ``kind`` pending in
        ``s``, for a decision its rule opens before any statement changes the position (the
        first statement of the rule's ``do``): the rules of that step run again on ``s``, for
        the player who decides, and the options are those of the path that opens ``kind``
        (the names of the rules and exceptions that apply there, as the engine computed them
        when it opened the decision); no option on a path that opens none.

        :raises NotCompiled: when the statement that waits for ``kind`` is not the first of
            its rule's ``do``.
        """
        return self.offered_at_start_all(s, kind, [value])[0]

    def offered_at_start_all(self, s: ZState, kind: str, values: Sequence[Any]) -> list[Any]:
        """:meth:`offered_at_start` of each of ``values`` (one condition per value, in
        order), the rules of the step run once: each value gets a flag of its own, and
        flags merge one by one where paths join (:func:`proofs.encoding.merge`), so each
        condition is the term :meth:`offered_at_start` builds for that value alone.

        :raises NotCompiled: as :meth:`offered_at_start`.
        """
        from proofs.z3_values import NotCompiled

        w = self.waiting(kind)
        if w is None:  # no statement waits for it under the ruleset
            return [z3.BoolVal(False) for _ in values]
        if w.part is not None or len(w.frames) != 1 or w.frames[0].index != 0:
            raise NotCompiled(f"the {kind} decision is not opened by the first statement of its rule")
        d = s.copy()
        self._capture = (kind, lambda got: self._members(got, values))
        try:
            after = self.run_step(d, w.owner.step, lambda d: d, {"actor": s["dp"]})
        finally:
            self._capture = None
        return [after.flags.get(f"{self.OFFERED}:{i}", z3.BoolVal(False)) for i in range(len(values))]

    #: while :meth:`offered_at_start_all` runs: the decision kind, and the tests of its
    #: options (one per value asked about)
    _capture: tuple[str, Callable[[Any], list[Any]]] | None = None

    def _open(self, d: ZState, kind: str, s: Any, env: Any) -> ZState:
        """As :meth:`~proofs.statements_z3.Statements._open`; while :meth:`offered_at_start_all`
        asks about ``kind``, also set the flag ``OFFERED:i`` (:data:`OFFERED`) to the test
        of its options for the ``i``-th value asked about."""
        cap = self._capture
        if cap is not None and cap[0] == kind:
            for i, test in enumerate(cap[1](self._value(d, _what_it_offers(s), env))):
                d.flags[f"{self.OFFERED}:{i}"] = test
        return super()._open(d, kind, s, env)

    def picks(self, d: ZState, kind: str, vec: list[Any]) -> Any:
        """The condition that ``vec`` (cards per kind) is one of the picks the declared
        options of the decision ``kind`` pending in ``d`` offer (``subsets(CARDS, N)``)."""
        return self.picks_all(d, kind, [vec])[0]

    def picks_all(self, d: ZState, kind: str, vecs: Sequence[list[Any]]) -> list[Any]:
        """:meth:`picks` of each of ``vecs``, the options compiled once."""
        from proofs.z3_values import Picks

        got = self.declared_options(d, kind)
        if got is None:  # the ruleset never offers this choice
            return [z3.BoolVal(False) for _ in vecs]
        if not isinstance(got, Picks):
            raise ValueError(f"the options of {kind} are not picks of cards")
        return [got.holds(vec) for vec in vecs]

    def declared_options(self, d: ZState, kind: str, *, at: Any = None) -> Any:
        """The declared ``options`` of the statement that waits for ``kind`` (spec/rules.yaml,
        spec/roles.yaml; for a ``draw``, the cards of the place it draws from) under the
        ruleset's readings, compiled to Z3 on ``d`` with the names
        in scope where it waits (:meth:`~proofs.resume_z3.Resuming.choice_env`: its
        rules' names, and those the pending decision keeps); ``None`` when the ruleset never
        opens it (it lies under a reading not taken, or behind an open point). Where two
        statements wait for ``kind``, those of the one the position names (field ``site``),
        joined: a collection holds an element as often as that statement's does; ``at``:
        only those of that statement (one of :meth:`sites`).

        :raises ValueError: when no rule declares a choice of ``kind``.
        :raises NotCompiled: where two statements' options are not both collections.
        """
        from proofs.z3_values import NotCompiled

        found = self.sites(kind, any_step=True) if at is None else [(-1, at)]
        if not found:
            if not self.declares(kind):
                raise ValueError(f"no rule declares the options of decision {kind}")
            return None
        got: list[tuple[int, Any]] = []
        for site, w in found:
            env_at = self.choice_env(d, kind, options=True, any_step=True, at=w)
            if env_at is not None:
                got.append((site, self._value(d, _what_it_offers(env_at[0].stmt), env_at[1])))
        if len(got) <= 1:
            return got[0][1] if got else None
        if not all(isinstance(v, Coll) for _, v in got):
            raise NotCompiled(f"the options of the statements waiting for {kind} are not all collections")
        mult: dict[Any, Any] = {}
        for site, v in got:
            for e, m in v.items:
                term = ite(self.at_site(d, site), m if not isinstance(m, int) else z3.IntVal(m), z3.IntVal(0))
                mult[e] = term if e not in mult else mult[e] + term
        return Coll(got[0][1].kind, list(mult.items()))

    def options(self, d: ZState, kind: str) -> Coll | Span:
        """The options of the decision ``kind`` pending in ``d``, as its rule declares them
        (see :meth:`declared_options`); no option when the ruleset never opens it.

        :raises ValueError: when they are not a collection or a range of numbers, or no
            rule declares them.
        """
        from proofs.z3_values import Coll, Span

        got = self.declared_options(d, kind)
        if got is None:  # the ruleset never offers this choice: nothing is an option
            return Coll("none", [])
        if not isinstance(got, Coll | Span):
            raise ValueError(f"the options of {kind} are not a collection")
        return got

    def offers(self, d: ZState, kind: str, value: Any) -> Any:
        """The condition that ``value`` (a Z3 term) is one of the :meth:`options` of the
        decision ``kind`` pending in ``d``."""
        return self._member(self.options(d, kind), value)

    @staticmethod
    def _member(got: Coll | Span, value: Any) -> Any:
        """The condition that ``value`` (a Z3 term) is in ``got`` (a collection or a range)."""
        return Legality._members(got, [value])[0]

    @staticmethod
    def _members(got: Coll | Span, values: Sequence[Any]) -> list[Any]:
        """:meth:`_member` of each of ``values``, each element's condition of being there
        (:func:`~proofs.z3_values.at_least_one`) built once for all."""
        from proofs.z3_values import Span

        if isinstance(got, Span):
            return [z3.And(value >= got.lo, value <= got.hi) for value in values]
        there = {e: at_least_one(m) for e, m in got.items}
        size = len(there)
        if size and set(there) == set(range(size)):  # the elements 0..size-1: pick by the value
            return [z3.And(value >= 0, value < size, pick_by(value, there.__getitem__, size)) for value in values]
        return [z3.Or([z3.And(value == e, t) for e, t in there.items()] or [z3.BoolVal(False)]) for value in values]

    def has_options(self, d: ZState, kind: str) -> Any:
        """The condition that the decision ``kind`` pending in ``d`` has an option (else its
        rule's void case applies)."""
        from proofs.z3_values import Span

        got = self.options(d, kind)
        if isinstance(got, Span):
            lo = z3.IntVal(got.lo) if isinstance(got.lo, int) else got.lo
            return lo <= got.hi
        return z3.Or([at_least_one(m) for _, m in got.items] or [z3.BoolVal(False)])

# ---------------------------------------------------------------------- shapes of labels

_SHAPES: dict[int, tuple[Layout, dict[str, Shape]]] = {}


def shapes(lay: Layout) -> dict[str, Shape]:
    """The shape of every decision of the declared flow that an action answers (the
    terminal ones left out) under ``lay``, in the encoding's order of decisions, computed
    once per layout."""
    got = _SHAPES.get(id(lay))
    if got is None or got[0] is not lay:
        leg = Legality(lay)
        flow = lay.game.spec.flow.decisions
        answered = [k for k in lay.decisions if not flow[k].terminal]
        s = ZState.fresh(lay, "shape")  # one position for all (a fresh one costs a term per field)
        got = _SHAPES[id(lay)] = (lay, {k: shape_of(leg, k, s) for k in answered})
    return got[1]


def action_kinds(lay: Layout) -> tuple[str, ...]:
    """The decisions an action of the model answers under ``lay``: those of the declared
    flow whose shape is not ``never``, in the encoding's order of decisions."""
    return tuple(k for k, sh in shapes(lay).items() if sh.form != "never")


def label_width(lay: Layout) -> int:
    """How many numbers ``a`` a label of ``lay`` holds: the most any decision's shape uses
    (at least one)."""
    return max([1, *(sh.width for sh in shapes(lay).values())])


def modelled_points(spec: Any) -> frozenset[str]:
    """The variation points whose readings the model takes from the rules' declarations:
    those of the readings blocks of the rules that declare a choice (every ``choose``
    statement's options are compiled) and of every rule of a step it carries out from its start
    (:data:`~proofs.statements_z3.COMPILED_STEPS`), rules of a rule module (``spec/modules/``)
    excepted: what is proved with a module in play is what a named house ruleset that
    switches it on lists (its ``prove``), and no ruleset derived otherwise switches one on."""
    from palast.lang.blocks import program
    from palast.lang.statements import walk
    from proofs.statements_z3 import COMPILED_STEPS

    # a rule module's points are left out: the model compiles a module's rules, but only a
    # named house ruleset's prove list says what to prove with one (proofs.house_rulesets)
    in_modules = {rule for m in spec.modules.values() for rule in m.rules}
    out: set[str] = set()
    for r in program(spec).rules.values():
        if r.rule in in_modules:
            continue
        whole = r.step in COMPILED_STEPS
        if whole or any(s.head == "choose" for s in walk(list(r.do or ()))):
            out.update(rb.point for rb in r.readings)
    return frozenset(out)


def module_points(spec: Any) -> frozenset[str]:
    """The variation points of the rule modules (``spec/modules/``): each module's switch
    and the points its rules read."""
    from palast.lang.blocks import program

    in_modules = {rule for m in spec.modules.values() for rule in m.rules}
    return frozenset({m.point for m in spec.modules.values()}
                     | {rb.point for r in program(spec).rules.values() if r.rule in in_modules for rb in r.readings})
