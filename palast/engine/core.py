"""The engine's shared core: a game's compiled rules (numbers, readings, clause lookup)
and the steps every action ends with — naming the next player, ending a round, ending the
game. :class:`~palast.engine.roles.RoleActions` and :class:`~palast.engine.game.Game`
build on it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from palast.cards import Cards
from palast.engine.actions import Play
from palast.engine.draft import Draft, insert_sorted
from palast.engine.events import Event
from palast.engine.params import PARAMETERS, Setting, parameter_table
from palast.engine.state import Decision, DecisionKind, GameResult, RoundEnd
from palast.errors import InputError
from palast.lang.logic import Fired, GameLogic
from palast.spec import Spec

K = DecisionKind
# enum members as module constants: attribute access on an Enum class costs ~90 ns on
# Python 3.11, and the hot paths compare decision kinds at every action
_PLAY = K.PLAY
_NEXT_PLAYER = K.NEXT_PLAYER
_GAP = K.GAP


class GameCore:
    """The compiled rules of one game: the spec, a ruleset and the seated colours.

    :param spec: the loaded spec.
    :param ruleset: a ruleset id from ``spec/rulesets.yaml``.
    :param players: seated colours in seat order (names or colour indices); the first seat
        is the oldest player and starts the game (setup.first-player).
    :param check: evaluate every invariant of ``spec/invariants.yaml`` after every action
        and raise :class:`~palast.engine.game.InvariantViolation` on the first failure.
    :raises InputError: for an unknown ruleset, a player count outside the spec's range,
        an unknown or repeated colour, or the neutral colour as a player.
    """

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
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
        self.playable_when_banned: tuple[bool, ...] = tuple(spec.role_actions[r].playable_when_banned for r in roles)
        self.king_roles: tuple[int, ...] = tuple(sorted(roles.index(r) for r in spec.king_roles))
        self.composition: Counter[int] = self.cards.composition(seats)
        self.all_cards: tuple[int, ...] = tuple(sorted(self.composition.elements()))
        self.params: dict[str, Setting] = {}
        table = parameter_table(spec)
        for name, (point, _) in table.items():
            self.params[name] = Setting(spec.variation_points[point].choices[ruleset], point)
        missing = set(PARAMETERS) - set(self.params)
        if missing:  # spec check reports this too; guard against an unchecked spec
            raise InputError(f"the spec sets no variation point for engine parameters {sorted(missing)}")
        # each rule's clauses as this ruleset reads it (a source reading otherwise is not cited)
        self._clauses: dict[str, tuple[str, ...]] = {rid: spec.rule_clauses(rid, ruleset) for rid in spec.rules}
        self._role_rule: tuple[str, ...] = tuple(spec.role_actions[r].rules[0] for r in roles)
        self._play_actions: dict[int, Play] = {c: Play(c) for c in self.composition}
        self._nr = len(roles)
        self._neutral = self.cards.neutral
        self._play_decisions = tuple(Decision(K.PLAY, s) for s in range(self.n))
        #: decisions by their fields (see shared_decision): decisions are immutable, so one
        #: object serves every position that waits for the same decision
        self._shared: dict[tuple[object, ...], Decision] = {}
        self._simple: dict[tuple[DecisionKind, int], Decision] = {
            (kind, s): Decision(kind, s)
            for kind in (K.TAKE_BACK, K.DISCARD, K.DRAW, K.REVEAL) for s in range(self.n)
        }
        self._deal_decision = Decision(K.DEAL)
        self._empty: tuple[tuple[int, ...], ...] = tuple(() for _ in range(self.n))
        n = self.n
        self._pairs_any = [(a, b) for a in range(n) for b in range(a + 1, n)]
        self._pairs_with = [[(min(p, o), max(p, o)) for o in range(n) if o != p] for p in range(n)]
        self._starters: tuple[Callable[[Draft, int, int], None], ...] = tuple(
            self.role_starter(kind) for kind in self.action_kind)
        # the rules' logic blocks (spec/rules.yaml, spec/roles.yaml), compiled for this game
        colours = len(self.cards.colours)
        constants = {
            "P": tuple(range(n)), "NR": self._nr, "NEUTRAL": self._neutral,
            "OWNER": tuple(self.seat_of_colour.get(c, -1) for c in range(colours)),
            "OTHERS": tuple(tuple(o for o in range(n) if o != p) for p in range(n)),
            "TARGET": self.target, "SIX": self.six, "HS": self.hand_size,
            "ALL_CARDS": tuple(self.all_cards), "ROLES": tuple(range(self._nr)),
            "KINGS": tuple(sorted(self.king_roles)),
            "K_DEAL": K.DEAL, "K_OVER": K.GAME_OVER, "K_GAP": K.GAP, "GAME": self,
            "DKI": {kind: i for i, kind in enumerate(DecisionKind)},
        }
        number = {kind: i for i, kind in enumerate(DecisionKind)}
        constants["FLOW"] = frozenset((number[DecisionKind(a)], number[DecisionKind(b)]) for a, b in spec.flow.pairs())
        constants["ROLE_DECISIONS"] = frozenset(number[DecisionKind(d.name)] for d in spec.flow.decisions.values()
                                                if d.role)
        #: the constants every rule-language expression of this game is compiled with
        self.lang_constants: dict[str, object] = constants
        parameter_of = {point: name for name, (point, _) in table.items()}
        self.logic = GameLogic(spec, constants, self, parameter_of)
        self._winner = self.logic.steps["winner"][0]
        self._next_player = self.logic.select("next-player")
        self.round_end_rule = self.logic.select("round-end")
        self._action_rule = self.logic.select("action")
        #: the variation point a play decision names when a card may repeat a role (voluntary-whisper)
        # (taken from the table, not from self.params: building a game consults no reading)
        self._duplicate_point = table["play.duplicate"][0] if "play.duplicate" in table else ""
        self._whisper = next(c for c in self.logic.steps["round-end"] if c.effect.get("round_end") == "whisper")

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

    def shared_decision(self, kind: DecisionKind, player: int, partner: int, count: int,
                        options: tuple[int, ...], points: tuple[str, ...]) -> Decision:
        """The :class:`Decision` with these fields (the others at their defaults); one
        object serves every position that waits for the same decision."""
        key = (kind, player, partner, count, options, points)
        dec = self._shared.get(key)
        if dec is None:
            dec = self._shared[key] = Decision(kind, player, partner=partner, count=count, options=options,
                                               points=points)
        return dec

    def simple_decision(self, kind: DecisionKind, seat: int) -> Decision:
        """The shared decision of ``kind`` for ``seat`` with no further context."""
        return self._simple[kind, seat]

    def role_starter(self, kind: str) -> Callable[[Draft, int, int], None]:
        """The method starting an action of ``kind``; implemented by RoleActions."""
        raise NotImplementedError(kind)

    # ------------------------------------------------------------------ a turn ends
    def enter_play(self, d: Draft, seat: int) -> None:
        """Make ``seat`` the player to move: a play decision, a forced play of a banned
        Jester (king.jester-forced), or a gap (turn.empty-hand).

        When the player holds both a card that would repeat a role in their display and
        one that would not (neither a banned Jester), whether the first may be played
        depends on variation point voluntary-whisper (turn.play.duplicate): the decision
        names that point.
        """
        d.actor = seat
        d.last_card = -1
        hand = d.hands[seat]
        if not hand:
            self._gap(d, "play.empty_hand", seat)
            return
        banned = d.king_in_force
        restricted = banned >= 0 and not self.playable_when_banned[banned]
        display = d.displays[seat]
        if not display and not restricted:  # every hand card may be played, none repeats a role
            d.decision = self._play_decisions[seat]
            return
        nr = self._nr
        held = {c % nr for c in hand}
        if restricted and banned in held:
            if len(held) == 1:
                s = self.params["jester.forced"]
                if s.is_gap:
                    self._gap(d, "jester.forced", seat)
                    return
                d.decision = Decision(_PLAY, seat, forced=True, points=(s.point,))
                return
            held.discard(banned)
        if display:
            shown = {x % nr for x in display}
            if not held.isdisjoint(shown) and not held <= shown:
                dup = self.params["play.duplicate"]
                if dup.is_gap:
                    self._gap(d, "play.duplicate", seat)
                    return
                d.decision = self.shared_decision(_PLAY, seat, -1, -1, (), (dup.point,))
                return
        d.decision = self._play_decisions[seat]

    def _gap(self, d: Draft, parameter: str, seat: int, rule: str | None = None) -> None:
        """Stop play at the open variation point that sets ``parameter``: a gap decision
        and a ``rule_gap`` event citing ``rule`` (the rule being applied), or else the first
        rule of the spec that names the point."""
        point = self.params[parameter].point
        d.decision = Decision(_GAP, seat, point=point, points=(point,))
        if rule is None:
            rules = [r for r in self.spec.rules.values() if point in r.variation_points]
            rule = rules[0].id if rules else "turn.play"
        self.emit(d, "rule_gap", rule, player=seat, detail=point, points=(point,))

    def _gap_at(self, d: Draft, point: str, seat: int, rule: str) -> None:
        """Stop play at the open variation point ``point`` while applying ``rule``."""
        d.decision = Decision(_GAP, seat, point=point, points=(point,))
        self.emit(d, "rule_gap", rule, player=seat, detail=point, points=(point,))

    def after_action(self, d: Draft) -> None:
        """The turn is over: name the next player as the declared rules of step
        ``next-player`` say (turn.next.colour, turn.next.neutral, turn.next.neutral-tie)."""
        p = d.actor
        got = self._next_player(d)
        if got is None:
            raise RuntimeError("no rule of step next-player applies")  # spec check prevents this
        c, values = got
        if not c.blocks:  # the effect as declared, no reading to look up
            nxt = c.effect.get("next")
            if nxt is not None:
                seat = nxt(d, *values)
                if d.events is not None:
                    self.emit(d, "next_player", c.rule, player=seat, other=p)
                self.enter_play(d, seat)
                return
        f = self.logic.resolve(c, d, values)
        if f.gap:
            self._gap_at(d, f.gap, p, f.rule)
            return
        eff = f.effect
        nxt = eff.get("next")
        if nxt is not None:
            seat = nxt(d, *f.values)
            if d.events is not None:
                self.emit(d, "next_player", f.rule, player=seat, other=p, points=f.points)
            self.enter_play(d, seat)
            return
        dec = eff["decide"]
        d.decision = self.shared_decision(DecisionKind(dec["decision"]), dec["by"](d, *f.values), -1, -1,
                                          tuple(dec["options"](d, *f.values)), f.points)

    # ------------------------------------------------------------------ round and game end
    def end_round(self, d: Draft, f: Fired | None, p: int, *, forced: bool = False) -> None:
        """End the round as the round-end rule ``f`` says (``None``: the whisper rule, for a
        whisper made by a swap or forced by a hand of banned Jesters): score it
        (round.end.*), then end the game (game.end.*) or wait for the next deal, which ``p``
        starts (round.next.starter)."""
        if f is None:
            w = self._whisper
            f = Fired(w.rule, w.effect, self.logic.values(w, d))
        eff = f.effect
        kind = eff["round_end"]
        rule = f.rule
        scorers = tuple(eff["scorers"](d, *f.values))
        gain = eff["points"]
        rules: tuple[str, ...] = (rule, "king.jester-forced") if forced else (rule,)
        points = (self.params["jester.forced"].point,) if forced else ()
        if d.events is not None:
            self.emit(d, "round_ended", "king.jester-forced" if forced else rule, player=p,
                      detail=kind, points=points)
        for s in scorers:
            d.scores[s] += gain
            d.tally[s] += d.played[s]
        if d.events is not None:
            self.emit(d, "points_scored", rule, seats=scorers)
        d.round_end = RoundEnd(kind, p, scorers, forced, rules)
        d.actor = p
        end = self.logic.fire("game-end", d)
        if end is not None:
            self._end_game(d, end.rule)
        else:
            d.decision = self._deal_decision

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
                    self._finish(d, GameResult(left, tied, ", then ".join(used), False), (tb.point, ft.point))
                    return
        self._finish(d, GameResult(left, tied, ", then ".join(used), True), (tb.point, ft.point))

    @staticmethod
    def _best_by(d: Draft, seats: tuple[int, ...], measure: Callable[..., int]) -> tuple[int, ...]:
        """The seats among ``seats`` with the highest ``measure`` (a tie-break's ``by``)."""
        metric = {s: measure(d, s) for s in seats}
        best = max(metric.values())
        return tuple(s for s in seats if metric[s] == best)

    def _finish(self, d: Draft, result: GameResult, points: tuple[str, ...]) -> None:
        d.result = result
        d.decision = Decision(K.GAME_OVER)
        self.emit(d, "game_ended", "game.end.winner", seats=result.winners,
                                   detail=result.tiebreak, points=points)

    # ------------------------------------------------------------------ shared zone moves
    def receive_draw(self, d: Draft, p: int, card: int) -> None:
        """Seat ``p`` draws ``card`` (already taken off the deck) into their hand; the Maid's
        turn is over."""
        d.hands[p] = insert_sorted(d.hands[p], card)
        if d.events is not None:
            self.emit(d, "card_drawn", "role.maid", player=p, card=card)
        self.after_action(d)

    def set_king(self, d: Draft, p: int, role: int) -> None:
        """Put the King card ``role`` in force; the one before it is spent (king.reveal)."""
        if d.king_in_force >= 0:
            d.king_spent = d.king_spent + (d.king_in_force,)
        d.king_in_force = role
        if d.events is not None:
            self.emit(d, "king_revealed", "king.reveal", player=p, role=role)
        self.after_action(d)
