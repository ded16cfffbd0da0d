"""The transition relation: one transition per action kind.

Each ``_t_*`` method takes a symbolic position ``s`` (:class:`~proofs.encoding.ZState`)
and the action's parameters (a :class:`Label`) and returns the legality condition and the
position the engine would reach. What an action does is carried out from the rules'
declarations by :class:`~proofs.statements_z3.Statements` and
:class:`~proofs.resume_z3.Resuming` (which :class:`~proofs.legality.Legality`, and so this
class, is): a card played (turn.play and the
exceptions that bend its outcome, the round-end rules tested, scored as each declares, the
card acting, the turn ending), every action answering a role's decision, the start of a
turn (step ``turn``: turn.play, turn.empty-hand, king.jester, king.jester-forced,
turn.play.duplicate; :meth:`Transition.enter_play`) and a deal (step ``deal``: round.deal,
the ``deal`` statement placing the hands as the engine's ``place_deal`` does, then the
rules of steps setup, round-start and starter, and the first turn), and a swap (role.cupbearer:
its options built from parts, asked whether a given swap is one and whether there is one
without listing every pair of cards, :mod:`proofs.each_z3`). Nothing is written after the
engine: a deal is legal when it gives each hand the number of cards the declared ``deal``
statement gives, no kind more often than the game has copies; a play as the options step
``turn`` declares; every other action as the options of the statement that waits for it.
A branch on a reading is a Python ``if`` over the rule's declared readings blocks: the
encoding is built for one ruleset. A branch on the position is a symbolic
:func:`~proofs.encoding.branch`. The next player follows the declarations of step
``next-player`` (:meth:`Transition.after_action`), and whether the game ends and who wins
those of steps ``game-end`` and ``winner`` (:meth:`Transition._end_game`), as the engine
reads them.

The draw deck is a pile of unknown order: after a Maid's discard the encoding waits for a
draw (``draw`` decision), as the engine does for a deck dealt without an order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from palast.engine.state import DecisionKind
from palast.lang.syntax import parse
from proofs.encoding import ROUND_ENDS, Layout, ZState, branch, decided
from proofs.legality import Legality, label_width, shapes
from proofs.places_z3 import _bool
from proofs.shapes import NEVER, Shape
from proofs.terms import conj, count_true, eq, ite, maximum
from proofs.z3_values import Coll, NotCompiled, _n, _positive

K = DecisionKind


@dataclass
class Label:
    """The parameters of one action, as Z3 integers, as the shape of the decision it
    answers says (:mod:`proofs.shapes`): ``a`` the chosen element, or one number per part
    of options built from parts (a card as its kind); ``vec`` a pick of cards, per kind;
    ``deal`` each hand dealt, per seat and kind. Unused parts are 0. ``col`` is the colour
    choice of the role level (not part of the action).
    """

    a: list[Any]
    vec: list[Any]
    deal: list[list[Any]]
    col: Any

    @classmethod
    def fresh(cls, lay: Layout, prefix: str) -> Label:
        """A label of fresh Z3 constants named ``prefix.*``."""
        nk = len(lay.kinds)
        return cls([z3.Int(f"{prefix}.a{i}") for i in range(label_width(lay))],
                   [z3.Int(f"{prefix}.v{k}") for k in range(nk)],
                   [[z3.Int(f"{prefix}.d{p}_{k}") for k in range(nk)] for p in range(lay.n)],
                   z3.Int(f"{prefix}.col"))

    def used(self, shape: Shape) -> Any:
        """The constraint that the parts an action of ``shape`` does not use are 0."""
        zero = [eq(x, 0) for x in self.a[shape.width:]]
        if shape.form != "cards":
            zero += [eq(x, 0) for x in self.vec]
        if shape.form != "deal":
            zero += [eq(x, 0) for row in self.deal for x in row]
        return conj(zero)

    def parts(self, shape: Shape) -> list[Any]:
        """The numbers an action of ``shape`` uses, in order."""
        if shape.form == "cards":
            return list(self.vec)
        if shape.form == "deal":
            return [x for row in self.deal for x in row]
        return list(self.a[:shape.width])


class Transition(Legality):
    """The transition relation of one :class:`Layout` (a game at a level): the legality
    conditions of :class:`~proofs.legality.Legality` and what each action does.

    :param lay: the layout.
    """

    # ------------------------------------------------------------------ the relation
    def step(self, s: ZState, label: Label, kind: str) -> tuple[Any, ZState]:
        """The action of ``kind`` from ``s`` with parameters ``label``.

        :returns: ``(legal, after)``: the condition under which the action is legal (the
            decision kind itself not included) and the position it leads to, whose flags
            mark the paths taken.
        :raises ValueError: for a decision kind no action answers (game over, gap).
        """
        self._label = label
        form = shapes(self.lay).get(kind, NEVER).form
        if form == "never":
            raise ValueError(f"no action answers a {kind} decision")
        if form == "deal":
            legal, after = self._t_deal(s, label)
        elif kind == K.PLAY:  # the turn's decision: its options are computed on the position
            legal, after = self._t_play(s, label)
        else:
            legal, after = self._declared(s, label, kind)
        after = self._join(after)
        if self.lay.level == "role":
            legal = z3.And(legal, label.col >= -1, label.col < self.n)
        return legal, after

    # ------------------------------------------------------------------ shared steps
    #: The flags of the paths that reached the end of a turn, or the start of one: what
    #: follows is built once, on the positions of all those paths merged (:meth:`_join`).
    JOINS = ("join:next-player", "join:turn")

    def _join(self, d: ZState) -> ZState:
        """Carry out, on ``d`` (the merged paths of one action), the steps its paths left
        for later: ``next-player`` where a turn ended, then ``turn`` where one starts. Each
        is a function of the position alone, so building it once on the merged position,
        under the condition that a path reached it, is the same relation as building it on
        every path (it was: a play's transition built step ``turn`` 58 times).

        :raises NotCompiled: where starting a turn ends one again in the same action (the
            model built per path never finished such a transition either).
        """
        for name, run in zip(self.JOINS, (self._next_player_now, self._turn_now), strict=True):
            reached = d.flags.pop(name, None)
            if reached is not None:
                d = branch(d, decided(reached), run, lambda d: d)
        if any(name in d.flags for name in self.JOINS):
            raise NotCompiled("a turn that starts ends again in the same action")
        return d

    def enter_play(self, d: ZState, seat: Any) -> ZState:
        """Make ``seat`` the player to move: step ``turn`` as declared (turn.play and its
        exceptions: turn.empty-hand, king.jester, king.jester-forced, turn.play.duplicate,
        with their readings); its statements open the play decision or stop at a gap. The
        step is carried out once per action, on the merged paths that start a turn
        (:meth:`_join`)."""
        d["actor"] = seat
        d["card"] = z3.IntVal(-1)
        d.flags["join:turn"] = z3.BoolVal(True)
        return d

    def _turn_now(self, d: ZState) -> ZState:
        """Step ``turn`` for the player to move, ``d["actor"]``."""
        def nowhere(d: ZState) -> ZState:  # a turn's statements wait for a play; else the engine fails
            d.flags["no-turn:turn"] = z3.BoolVal(True)
            return self.decide(d, K.GAP, -1)

        return self.run_step(d, "turn", nowhere, {"actor": d["actor"]})

    def last_colour(self) -> Any:
        """At the role level, the colour of the card played this turn: the action's label
        (``col``: a seat, or -1 for the neutral colour), free within the seats.

        :raises ValueError: at the role level, for a game whose seats do not take the
            colours in the box's order (the label's seat is read as the colour of the same
            number, :meth:`proofs.lang_z3.Z3Back._colour_of`).
        """
        label = getattr(self, "_label", None)  # set by :meth:`step`
        if label is None or self.lay.level != "role":
            return None
        game = self.lay.game
        if any(game.seat_of_colour.get(c) != c for c in range(game.n)):
            raise ValueError("the role-level transition needs the seats to take the colours in the box's order")
        return label.col

    def after_action(self, d: ZState) -> ZState:
        """The turn is over: step ``next-player`` as declared (turn.next.colour,
        turn.next.neutral, turn.next.neutral-tie and their readings); its statements end by
        starting a turn or opening the choice among tied players. The step is carried out
        once per action, on the merged paths that end a turn (:meth:`_join`)."""
        d.flags["join:next-player"] = z3.BoolVal(True)
        return d

    def _next_player_now(self, d: ZState) -> ZState:
        """Step ``next-player`` on ``d``."""
        def nowhere(d: ZState) -> ZState:  # the engine stops with an error; so does the model
            d.flags["no-turn:next-player"] = z3.BoolVal(True)
            return self.decide(d, K.GAP, -1)

        return self.run_step(d, "next-player", nowhere)

    def end_round(self, d: ZState, rule: str, p: Any, *, forced: bool = False) -> ZState:
        """End the round by ``p`` as the round-end rule ``rule`` declares (its kind, its
        scorers and their points); end the game (game.end.target) or apply step ``deal``,
        whose statements wait for the next deal (round.deal)."""
        kind = ROUND_ENDS.index(str(self.lay.game.logic.rules[rule].raw["round_end"]))
        d.flags[ROUND_ENDS[kind]] = z3.BoolVal(True)
        scorers, points = self.scorers(d, rule, p)
        for q in range(self.n):
            d[f"score{q}"] = d[f"score{q}"] + ite(scorers[q], points, 0)
            d[f"tally{q}"] = d[f"tally{q}"] + ite(scorers[q], d[f"played{q}"], 0)
        d["rk"] = z3.IntVal(kind)
        d["rp"] = p
        d["rforced"] = z3.BoolVal(forced)
        d["actor"] = p

        def next_round(d: ZState) -> ZState:  # step deal as declared: its statements wait for the deal
            def nowhere(d: ZState) -> ZState:
                d.flags["no-deal:deal"] = z3.BoolVal(True)
                return self.decide(d, K.GAP, -1)

            return self.run_step(d, "deal", nowhere)

        return branch(d, self._game_ends(d), self._end_game, next_round)

    def _declared_logic(self, step: str) -> list[Any]:
        """The rules of ``step`` declared with effect keys (``logic``: game-end, winner),
        refused where they have what this model does not carry out (lets, exceptions)."""
        rules = list(self.lay.game.logic.steps.get(step, []))
        for r in rules:
            if r.exceptions or r.raw.get("let"):
                raise NotCompiled(f"the Z3 back-end does not carry out the lets and exceptions of {r.rule}")
        return rules

    def _game_ends(self, d: ZState) -> Any:
        """Whether a rule of step ``game-end`` applies, by its declared condition
        (game.end.target)."""
        return z3.Or([_bool(self._value(d, parse(str(r.raw["when"])), {})) if "when" in r.raw else z3.BoolVal(True)
                      for r in self._declared_logic("game-end")])

    def _end_game(self, d: ZState) -> ZState:
        """The winners as the declared rule of step ``winner`` says (game.end.winner): its
        ``winners``; on a tie its ``tiebreak`` reading's measure (``by``, of each tied
        player ``p``); on a tie still its ``final_tie`` reading: shared, or with
        ``try_others`` the other tie-breaks in the order the rule declares them. The same
        steps as the engine's ``GameCore._end_game``; a reading left open is a gap."""
        raw = self._declared_logic("winner")[0].raw
        winners = self._value(d, parse(str(raw["winners"])), {})
        member = dict(winners.items) if isinstance(winners, Coll) else {}
        tied = [_positive(member.get(q, 0)) for q in range(self.n)]
        tb, ft = raw["tiebreak"], raw["final_tie"]
        measures = {str(r): parse(str(e["by"])) for r, e in tb.items() if r != "point"}

        def best_by(d: ZState, among: list[Any], reading: str) -> list[Any]:
            metric = [_n(self._value(d, measures[reading], {"p": q})) for q in range(self.n)]
            best = maximum([ite(among[q], metric[q], -1) for q in range(self.n)])
            return [z3.And(among[q], metric[q] == best) for q in range(self.n)]

        def tiebreak(d: ZState) -> ZState:
            reading = self._reading(str(tb["point"]))
            if reading == "open":
                return self.gap(d, self._parameter(str(tb["point"])), -1)
            left = best_by(d, tied, reading)

            def final(d: ZState) -> ZState:
                final_tie = self._reading(str(ft["point"]))
                if final_tie == "open":
                    return self.gap(d, self._parameter(str(ft["point"])), -1)
                if not ft[final_tie]["try_others"]:
                    return self._finish(d, left, True)
                return cascade(d, left, [r for r in measures if r != reading])

            def cascade(d: ZState, among: list[Any], rest: list[str]) -> ZState:
                if not rest:
                    return self._finish(d, among, True)
                narrowed = best_by(d, among, rest[0])
                return branch(d, count_true(narrowed) == 1, lambda d: self._finish(d, narrowed, False),
                              lambda d: cascade(d, narrowed, rest[1:]))

            return branch(d, count_true(left) == 1, lambda d: self._finish(d, left, False), final)

        return branch(d, count_true(tied) == 1, lambda d: self._finish(d, tied, False), tiebreak)

    def _finish(self, d: ZState, winners: list[Any], shared: bool) -> ZState:
        for q in range(self.n):
            d[f"win{q}"] = winners[q]
        d["shared"] = z3.BoolVal(shared)
        d.flags["game_over"] = z3.BoolVal(True)
        return self.decide(d, K.GAME_OVER, -1)

    # ------------------------------------------------------------------ the deal
    def _t_deal(self, s: ZState, label: Label) -> tuple[Any, ZState]:
        """A deal: legal as :meth:`~proofs.legality.Legality.legal_deal` says, and what
        follows carried out from the declarations (round.deal: the hands placed, the rules
        of steps setup and round-start, the starter, the first turn)."""
        def nowhere(d: ZState) -> ZState:  # the deal's statements end by starting a turn
            d.flags["no-turn:deal"] = z3.BoolVal(True)
            return self.decide(d, K.GAP, -1)

        return self.legal_deal(s, label), self.resume(s, label, K.DEAL, label.deal, nowhere)

    # ------------------------------------------------------------------ a play
    def _t_play(self, s: ZState, label: Label) -> tuple[Any, ZState]:
        """A card played: legal as :meth:`~proofs.legality.Legality.legal_play` says, and what
        follows carried out from the declarations (turn.play and the exceptions that bend its
        outcome: the card moves to the display, the round-end rules are tested, the card acts,
        the turn ends)."""
        x = label.a[0]
        p = s["dp"]
        d = s.copy()
        # a repeat while the player could play a card that repeats nothing (voluntary-whisper)
        d.flags["voluntary_whisper"] = self.voluntary(s, x, p)
        return self.legal_play(s, label), self.resume(d, label, K.PLAY, x, self.after_action)

    # ------------------------------------------------------------------ role decisions
    def _declared(self, s: ZState, label: Label, kind: str) -> tuple[Any, ZState]:
        """An action answering a decision a declared statement waits for: legal as its
        options say (:class:`~proofs.legality.Legality`), and what follows carried out from
        the declarations (:meth:`~proofs.resume_z3.Resuming.resume`): the value chosen
        is the label's as the decision's shape reads it (:meth:`chosen`). Where no
        statement waits for ``kind`` under the ruleset (a tie broken by seat order asks no
        one), the action is never legal."""
        if not self.sites(kind):  # no statement waits for it under the ruleset: never legal
            return z3.BoolVal(False), s.copy()
        return self.legal(s, kind, label), self.resume(s, label, kind, self.chosen(kind, label), self.after_action)
