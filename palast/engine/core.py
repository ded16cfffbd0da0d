"""The engine's shared core: a game's compiled rules (numbers, readings, clause lookup)
and the steps every action ends with — naming the next player, ending a round, ending the
game. :class:`~palast.engine.game.Game` builds on it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from palast.engine import conformance
from palast.engine.actions import Answers
from palast.engine.draft import Draft
from palast.engine.events import Event
from palast.engine.params import Readings, Setting
from palast.engine.resets import Dealing
from palast.engine.state import THEN, Decision, DecisionKind, GameResult, RoundEnd
from palast.errors import InputError
from palast.lang.invariant_exprs import decision_numbers
from palast.lang.logic import Fired, GameLogic, parameter_table
from palast.spec.cards import Cards
from palast.spec.load import Spec

K = DecisionKind
# enum members as module constants: attribute access on an Enum class costs ~90 ns on
# Python 3.11, and the hot paths compare decision kinds at every action
_GAP = K.GAP


class GameCore:
    """The compiled rules of one game: the spec, a ruleset and the seated colours.

    :param spec: the loaded spec.
    :param ruleset: a ruleset id from ``spec/rulesets.yaml``.
    :param players: seated colours in seat order (names or colour indices); the first seat
        is the oldest player and starts the game (setup.first-player).
    :param check: evaluate every invariant of ``spec/invariants.yaml`` after every action
        and raise :class:`~palast.engine.state.InvariantViolation` on the first failure.
    :raises InputError: for an unknown ruleset, a player count outside the spec's range,
        an unknown or repeated colour, or the neutral colour as a player.
    :raises SpecError: for a spec whose decisions or events do not fit the engine
        (:mod:`palast.engine.conformance`).
    """

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        conformance.require(spec)
        if ruleset not in spec.rulesets:
            raise InputError(f"unknown ruleset {ruleset!r} (known: {', '.join(spec.rulesets)})")
        self.spec = spec
        self.ruleset = ruleset
        self.cards = Cards.from_spec(spec)
        seats = tuple(p if isinstance(p, int) else self.cards.parse_colour(p, neutral_ok=False) for p in players)
        if not spec.min_players <= len(seats) <= spec.max_players:
            raise InputError(f"{len(seats)} players given; the game is for "
                             f"{spec.min_players} to {spec.max_players} players")
        if len(set(seats)) != len(seats):
            raise InputError("a colour is seated twice")
        if any(not 0 <= s < self.cards.neutral for s in seats):
            raise InputError("a player's colour must be a player colour")
        self.seats: tuple[int, ...] = seats
        self.n = len(seats)
        self.seat_of_colour: dict[int, int] = {c: i for i, c in enumerate(seats)}
        self.target = spec.target(self.n)
        self.hand_size = spec.hand_size
        self.six = spec.six
        self.check = check
        roles = spec.roles
        self.action_kind: tuple[str, ...] = tuple(spec.role_actions[r].action for r in roles)
        self.king_roles: tuple[int, ...] = tuple(sorted(roles.index(r) for r in spec.king_roles))
        self.composition: Counter[int] = self.cards.composition(seats)
        self.all_cards: tuple[int, ...] = tuple(sorted(self.composition.elements()))
        #: where a deal puts the cards and what else it sets (spec/state.yaml)
        self._dealing = Dealing(spec.state, self.n)
        table = parameter_table(spec)
        self._parameter_of = {point: name for name, (point, _) in table.items()}
        self.params = Readings(
            {name: Setting(spec.variation_points[point].choices[ruleset], point) for name, (point, _) in table.items()})
        # each rule's clauses as this ruleset reads it (a source reading otherwise is not cited)
        self._clauses: dict[str, tuple[str, ...]] = {rid: spec.rule_clauses(rid, ruleset) for rid in spec.rules}
        #: the rules the rule modules of spec/modules/ declare (see chain_clauses)
        self._module_rules: frozenset[str] = frozenset(r for m in spec.modules.values() for r in m.rules)
        self._nr = len(roles)
        self._neutral = self.cards.neutral
        #: decisions by their fields (see shared_decision): decisions are immutable, so one
        #: object serves every position that waits for the same decision
        self._shared: dict[tuple[object, ...], Decision] = {}
        #: actions by (decision, value), made once (see Game._declared_actions)
        self._made_actions: dict[tuple[str, object], object] = {}
        #: which action answers each decision (spec/flow.yaml, the roles' choices)
        self.answers = Answers(spec.flow.decisions)
        #: the decisions chance takes (declared ``by: chance``)
        self.chance_kinds: frozenset[str] = frozenset(
            d.name for d in spec.flow.decisions.values() if d.by == "chance")
        n = self.n
        # the rules' logic blocks (spec/rules.yaml, spec/roles.yaml), compiled for this game
        colours = len(self.cards.colours)
        constants = {
            "P": tuple(range(n)), "NR": self._nr, "NEUTRAL": self._neutral,
            "OWNER": tuple(self.seat_of_colour.get(c, -1) for c in range(colours)),
            "OTHERS": tuple(tuple(o for o in range(n) if o != p) for p in range(n)),
            "TARGET": self.target, "SIX": self.six, "HS": self.hand_size,
            "ALL_CARDS": tuple(self.all_cards), "ROLES": tuple(range(self._nr)),
            "KINGS": tuple(sorted(self.king_roles)),
            "PLAYER_COLOURS": tuple(range(len(spec.player_colours))),
            "K_DEAL": K.DEAL, "K_OVER": K.GAME_OVER, "K_GAP": K.GAP, "GAME": self,
        }
        number = decision_numbers(spec)  # the declared decisions, numbered as expressions number them
        constants["DKI"] = dict(number)
        constants["FLOW"] = frozenset((number[a], number[b]) for a, b in spec.flow.pairs())
        constants["ROLE_DECISIONS"] = frozenset(number[d.name] for d in spec.flow.decisions.values() if d.role)
        #: the constants every rule-language expression of this game is compiled with
        self.lang_constants: dict[str, object] = constants
        parameter_of = self._parameter_of
        self.logic = GameLogic(spec, constants, self, parameter_of)
        self._winner = self.logic.steps["winner"][0]
        #: the variation point whose readings break a tie for the win (a result's ``tiebreak``)
        self.tiebreak_point: str = self._winner.blocks["tiebreak"].point
        #: the steps declared with effect keys that statements may apply
        self.effect_steps = frozenset({"round-end"})
        # the rules declared with statements (palast.lang.blocks), compiled for this game
        from palast.engine.blocks import Runner
        self.runner = Runner(self, parameter_of)

    @property
    def params(self) -> dict[str, Setting]:
        """The engine parameters: name -> :class:`Setting` (the reading of its variation
        point). As built, a :class:`Readings` table whose readings the compiled rules take
        as constants."""
        return self._params

    @params.setter
    def params(self, table: dict[str, Setting]) -> None:
        """Play under the readings of ``table`` from now on: the rules are compiled again,
        reading each parameter from ``table`` as they run unless it is a :class:`Readings`
        (so a table that notes its lookups, such as :class:`ConsultLog`, sees every one)."""
        from palast.engine.blocks import Runner
        self._params = table
        old = getattr(self, "runner", None)
        if old is not None:  # not while the game is built
            self.runner = Runner(self, self._parameter_of)
            self.runner.trace = old.trace

    # ------------------------------------------------------------------ what the statements of rules use
    def rule_clauses(self, rule: str) -> tuple[str, ...]:
        """The clause ids of ``rule`` as this game's ruleset cites them."""
        return self._clauses[rule]

    def chain_clauses(self, cite: str, chain: tuple[str, ...]) -> tuple[str, ...]:
        """The clause ids of an event that rule ``cite`` fires while the rules ``chain`` (a
        rule and the exceptions of it that apply) are applied: ``cite``'s, then those of
        every rule of a rule module in the chain, each once. A module's exception that bends
        a base rule is part of what happens, also where the statement that reports it is the
        base rule's (the fan module's Ranger lets a play stand that would end the round)."""
        out = list(self._clauses[cite])
        for rule in chain:
            if rule in self._module_rules:
                out.extend(c for c in self._clauses[rule] if c not in out)
        return tuple(out)

    def stop_at_gap(self, d: Draft, point: str, rule: str) -> None:
        """Stop play at the open variation point ``point``, met while applying ``rule``."""
        self._gap_at(d, point, d.actor, rule)

    def begin_turn(self, d: Draft, seat: int) -> None:
        """``seat`` takes the next turn: the actor set, no card played yet this turn, and
        the rules of step ``turn`` applied (they wait for the play, or stop at a gap)."""
        d.actor = seat
        d.last_card = -1
        self.runner.start("turn", d)

    def open_decision(self, kind: str, player: int, points: tuple[str, ...], rule: str,
                      frames: tuple[str, ...], fields: tuple[tuple[str, object], ...]) -> Decision:
        """The decision a statement waits for: ``kind`` for ``player``, with the variation
        points it depends on, where play resumes (``rule``, ``frames``) and the fields the
        statement keeps (``(name, value)`` pairs of ``partner``, ``count``, ``given``,
        ``forced``, ``options``, ``choices``), made anew."""
        return Decision(kind, player, points=points, rule=rule, frames=frames,
                        chance=kind in self.chance_kinds, **dict(fields))  # type: ignore[arg-type]

    def shared_decision(self, kind: str, player: int, points: tuple[str, ...], rule: str,
                        frames: tuple[str, ...], fields: tuple[tuple[str, object], ...]) -> Decision:
        """As :meth:`open_decision`, for fields that hold no cards (players, counts, flags,
        sets of players): such a decision is made once per game and serves every position
        that waits for it (decisions are immutable)."""
        key = (kind, player, points, rule, frames, fields)
        dec = self._shared.get(key)
        if dec is None:
            dec = self._shared[key] = Decision(kind, player, points=points, rule=rule, frames=frames,
                                               chance=kind in self.chance_kinds,
                                               **dict(fields))  # type: ignore[arg-type]
        return dec

    def describe_value(self, kind: str, value: object) -> str:
        """A value of the rule language in words: a player by colour, a card in notation, a
        role by name, collections joined; numbers and the rest as written."""
        if kind == "seat" and isinstance(value, int):
            return self.colour_name(value) if value >= 0 else "nobody"
        if kind == "card" and isinstance(value, int):
            return self.cards.format_card(value)
        if kind == "role" and isinstance(value, int):
            return self.spec.roles[value] if value >= 0 else "none"
        if kind in ("seats", "cards", "roles") and isinstance(value, tuple):
            return ", ".join(self.describe_value(kind[:-1], v) for v in value)
        return str(value)

    def place_deal(self, d: Draft, action: object) -> None:
        """Deal a round as ``action`` (a :class:`~palast.engine.actions.Deal`) says; the game
        implements it (:class:`~palast.engine.game.Game`)."""
        raise NotImplementedError

    def apply_effect(self, d: Draft, step: str, got: tuple[Any, tuple[Any, ...]]) -> None:
        """Apply the rule of effect step ``step`` (``round-end``) that its selector found
        (``got``: the rule and its values): the card played does not act and the round ends
        as the rule says."""
        end = self.logic.resolve(got[0], d, got[1])
        if d.events is not None:
            self.emit(d, "action_not_carried_out", end.effect["no_action"], player=d.actor,
                      role=d.last_card % self._nr)
        self.end_round(d, end, d.actor)

    def end_round_by(self, d: Draft, rule: str, cause: str, points: tuple[str, ...], forced: bool) -> None:
        """End the round as the round-end rule ``rule`` says, because of rule ``cause`` (the
        round-end event cites it, with the variation points ``points``)."""
        c = self.logic.rules[rule]
        f = Fired(c.rule, c.effect, self.logic.values(c, d))
        self.end_round(d, f, d.actor, forced=forced, cause=cause, points=points)

    # ------------------------------------------------------------------ naming
    def colour_name(self, seat: int) -> str:
        """The colour that names seat ``seat``."""
        return self.cards.colours[self.seats[seat]]

    def seat_of(self, colour: str) -> int:
        """The seat of the player named ``colour``.

        :raises InputError: if that colour is unknown or not seated.
        """
        c = self.cards.parse_colour(colour, neutral_ok=False)
        if c not in self.seat_of_colour:
            raise InputError(f"{colour!r} is not seated (players: {', '.join(map(self.colour_name, range(self.n)))})")
        return self.seat_of_colour[c]

    def param(self, name: str) -> Setting:
        """The setting of engine parameter ``name`` under this game's ruleset."""
        return self.params[name]

    # ------------------------------------------------------------------ events
    def event(self, kind: str, rule: str, **fields: object) -> Event:
        """Build an :class:`Event` citing ``rule`` and its clause ids."""
        return Event(kind, rule, self._clauses[rule], **fields)  # type: ignore[arg-type]

    def emit(self, d: Draft, kind: str, rule: str, **fields: object) -> None:
        """Record an event on the draft, unless it records none (playouts)."""
        if d.events is not None:
            d.events.append(Event(kind, rule, self._clauses[rule], **fields))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ a turn ends
    def _gap_at(self, d: Draft, point: str, seat: int, rule: str) -> None:
        """Stop play at the open variation point ``point`` while applying ``rule``."""
        d.decision = Decision(_GAP, seat, point=point, points=(point,))
        self.emit(d, "rule_gap", rule, player=seat, detail=point, points=(point,))

    # ------------------------------------------------------------------ round and game end
    def end_round(self, d: Draft, f: Fired, p: int, *, forced: bool = False, cause: str | None = None,
                  points: tuple[str, ...] = ()) -> None:
        """End the round as the round-end rule ``f`` says, because of rule ``cause`` (by
        default ``f``'s own; the round-end event cites it with the variation points
        ``points``): score it, then end the game (step game-end) or deal the next round,
        which ``p`` starts.

        :param forced: a whisper forced by a hand that holds only cards that may not be played.
        """
        eff = f.effect
        kind = eff["round_end"]
        rule = f.rule
        scorers = tuple(dict.fromkeys(eff["scorers"](d, *f.values)))  # the players who score: each once
        gain = eff["points"]
        cause = cause or rule
        rules: tuple[str, ...] = (rule, cause) if cause != rule else (rule,)
        if d.events is not None:
            # the rule that caused it, and the round-end rule it ended the round by
            clauses = self._clauses[cause] + tuple(c for c in self._clauses[rule] if c not in self._clauses[cause])
            d.events.append(Event("round_ended", cause, clauses, player=p, detail=kind, points=points))
        for s in scorers:
            d.scores[s] += gain
            d.tally[s] += d.played[s]
        if d.events is not None:
            self.emit(d, "points_scored", rule, seats=scorers, count=gain)
        d.round_end = RoundEnd(kind, p, scorers, forced, rules)
        d.actor = p
        end = self.logic.fire("game-end", d)
        if end is not None:
            self._end_game(d, end.rule)
        else:
            self.runner.start("deal", d)

    def _end_game(self, d: Draft, rule: str) -> None:
        """The game is over (``rule``): the winners as the declared rule of step ``winner``
        says, with its tie-break and final-tie readings (game.end.winner)."""
        w = self._winner
        values = self.logic.values(w, d)
        tied = tuple(w.effect["winners"](d, *values))
        self.emit(d, "target_reached", rule, seats=tied, count=self.target)
        if len(tied) == 1:
            self._finish(d, GameResult(tied, tied, "", False), ())
            return
        tb = w.blocks["tiebreak"]
        value, gap = self.logic.reading(tb)
        if gap:
            self._gap_at(d, tb.point, -1, w.rule)
            return
        left = self._best_by(d, tied, tb.effects[value]["by"])
        if len(left) == 1:
            self._finish(d, GameResult(left, tied, value, False), (tb.point,))
            return
        ft = w.blocks["final_tie"]
        ft_value, ft_gap = self.logic.reading(ft)
        if ft_gap:
            self._gap_at(d, ft.point, -1, w.rule)
            return
        used = [value]
        if ft.effects[ft_value]["try_others"]:
            # the other tie-breaks, in the order the rule declares them
            for reading, eff in tb.effects.items():
                if reading in used:
                    continue
                used.append(reading)
                left = self._best_by(d, left, eff["by"])
                if len(left) == 1:
                    self._finish(d, GameResult(left, tied, THEN.join(used), False), (tb.point, ft.point))
                    return
        self._finish(d, GameResult(left, tied, THEN.join(used), True), (tb.point, ft.point))

    @staticmethod
    def _best_by(d: Draft, seats: tuple[int, ...], measure: Callable[..., int]) -> tuple[int, ...]:
        """The seats among ``seats`` with the highest ``measure`` (a tie-break's ``by``)."""
        metric = {s: measure(d, s) for s in seats}
        best = max(metric.values())
        return tuple(s for s in seats if metric[s] == best)

    def _finish(self, d: Draft, result: GameResult, points: tuple[str, ...]) -> None:
        d.result = result
        d.decision = Decision(K.GAME_OVER)
        self.emit(d, "game_ended", self._winner.rule, seats=result.winners, detail=result.tiebreak, points=points)
