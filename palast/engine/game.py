"""The rules engine: a :class:`Game` (spec + ruleset + seats) steps immutable states.

``game.legal_actions(state)`` lists what may be decided now; ``game.apply(state, action)``
returns a :class:`Step` with the new state and the events the action caused, each citing
the rule and clause ids it rests on. Every number and every ruleset difference comes from
``spec/``: the engine knows action *kinds* and parameter *values*, never a role by name.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from operator import itemgetter
from typing import TYPE_CHECKING

from palast.engine.actions import (
    Action,
    Deal,
    Draw,
    NextPlayer,
    Play,
    Reveal,
)
from palast.engine.draft import Draft, distinct, remove_one
from palast.engine.events import Event
from palast.engine.roles import RoleActions
from palast.engine.state import CHANCE_KINDS, TERMINAL_KINDS, Decision, DecisionKind, State
from palast.errors import IllegalActionError

if TYPE_CHECKING:
    from palast.engine.views import Observation

K = DecisionKind
# enum members as module constants (attribute access on an Enum class is slow on 3.11)
_PLAY = K.PLAY
_DEAL = K.DEAL
_DRAW = K.DRAW
_REVEAL = K.REVEAL
_NEXT_PLAYER = K.NEXT_PLAYER
_EXCHANGE_GIVE = K.EXCHANGE_GIVE
_EXCHANGE_ANSWER = K.EXCHANGE_ANSWER
_GAME_OVER = K.GAME_OVER
_GAP = K.GAP


@dataclass(frozen=True, slots=True)
class Step:
    """The result of :meth:`Game.apply`: the new state and the events, in order."""

    state: State
    events: tuple[Event, ...]


class InvariantViolation(AssertionError):
    """An invariant from ``spec/invariants.yaml`` failed after an action (an engine bug).

    :ivar invariant: the invariant id.
    """

    def __init__(self, invariant: str, message: str) -> None:
        self.invariant = invariant
        super().__init__(f"invariant {invariant} violated: {message}")


class Game(RoleActions):
    """One game's rules and its moves: the spec, a ruleset and the seated colours.

    :param spec: the loaded spec.
    :param ruleset: a ruleset id from ``spec/rulesets.yaml``.
    :param players: seated colours in seat order (names or colour indices); the first seat
        is the oldest player and starts the game (setup.first-player).
    :param check: evaluate every invariant of ``spec/invariants.yaml`` after every action
        and raise :class:`InvariantViolation` on the first failure.
    :raises InputError: for an unknown ruleset, a player count outside the spec's range,
        an unknown or repeated colour, or the neutral colour as a player.
    """

    # ------------------------------------------------------------------ setup
    def initial_state(self) -> State:
        """The position before the first deal: empty zones, King deck face down and
        unknown, scores 0, the first seat to start (setup.*).

        :returns: a state whose decision is the chance deal of round 1.
        """
        n = self.n
        empty: tuple[tuple[int, ...], ...] = tuple(() for _ in range(n))
        zeros = (0,) * n
        return State(
            hands=empty, displays=empty, deck=(), deck_hidden=0, deck_bottom=(), unseen=self.all_cards,
            discard=(), king_deck=(), king_hidden=len(self.king_roles), king_unseen=self.king_roles,
            king_in_force=-1, king_spent=(), scores=zeros, played=zeros, tally=zeros, round=0,
            actor=0, last_card=-1, decision=self._deal_decision,
        )

    # ------------------------------------------------------------------ queries
    def legal_actions(self, state: State | Draft) -> list[Action]:
        """The actions legal in ``state``, in a fixed order.

        For a :attr:`~DecisionKind.DEAL` the list is empty: deals are not enumerated; use
        :meth:`sample_chance` or give a :class:`Deal`. Terminal states have none.
        """
        d = state.decision
        k = d.kind
        if k is _PLAY:
            return self._legal_plays(state, d)
        if k is _DEAL or k is _GAME_OVER or k is _GAP:
            return []
        if k is _NEXT_PLAYER:
            na = self._next_actions
            return [na[s] for s in d.options]
        if k is _DRAW:
            da = self._draw_actions
            return [da[c] for c in distinct(state.unseen)]
        if k is _REVEAL:
            ra = self._reveal_actions
            return [ra[r] for r in distinct(state.king_unseen)]
        return self.legal_role_actions(state, d)

    def _legal_plays(self, state: State | Draft, d: Decision) -> list[Action]:
        pa = self._play_actions
        return [pa[c] for c in self.playable_cards(state, d)]

    def playable_cards(self, state: State | Draft, d: Decision) -> list[int]:
        """The distinct hand cards the player deciding ``d`` may play: never a banned Jester
        unless the play is forced (king.jester, king.jester-forced); under the
        ``only-when-forced`` reading of voluntary-whisper, a card repeating a role in the
        player's display only when every other playable card does too (turn.play.duplicate).
        """
        hand = state.hands[d.player]
        banned = state.king_in_force
        nr = self._nr
        if banned >= 0 and not d.forced and not self.playable_when_banned[banned]:
            cards = [c for c in dict.fromkeys(hand) if c % nr != banned]
        else:
            cards = list(dict.fromkeys(hand))
        # the reading matters only where some playable cards repeat a role and some do not,
        # which is where the play decision names its point (enter_play)
        if d.points and self._duplicate_point in d.points and self.params["play.duplicate"].value == "only-when-forced":
            shown = {x % nr for x in state.displays[d.player]}
            fresh = [c for c in cards if c % nr not in shown]
            if fresh:
                return fresh
        return cards

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        """For a draw or King card reveal from an unknown deck: each outcome and its exact
        probability. :raises ValueError: for other decisions (a deal is not enumerated)."""
        k = state.decision.kind
        if k is _DRAW:
            pool: tuple[int, ...] = state.unseen
            total = len(pool)
            return [(Draw(c), Fraction(n, total)) for c, n in sorted(Counter(pool).items())]
        if k is _REVEAL:
            total = len(state.king_unseen)
            return [(Reveal(r), Fraction(n, total)) for r, n in sorted(Counter(state.king_unseen).items())]
        raise ValueError(f"{k.value} is not an enumerable chance decision")

    def chance_probability(self, state: State, action: Action) -> Fraction:
        """The exact probability of chance ``action`` in ``state`` (0 if impossible).

        A deal's probability counts the hands dealt and, if given, the deck order.
        """
        if isinstance(action, Deal):
            pool = Counter(self.all_cards)
            total = len(self.all_cards)
            dealt = [c for h in action.hands for c in h] + list(action.deck or ())
            if Counter(dealt) - pool:
                return Fraction(0)
            ways = factorial(total)
            for c in pool.values():
                ways //= factorial(c)
            # arrangements of (hands as sets, deck as sequence or set) among all orderings
            favourable = 1
            for h in action.hands:
                favourable *= factorial(len(h))
                for c in Counter(h).values():
                    favourable //= factorial(c)
            rest = total - sum(len(h) for h in action.hands)
            if action.deck is None:
                favourable *= factorial(rest)
                for c in (pool - Counter(c for h in action.hands for c in h)).values():
                    favourable //= factorial(c)
            return Fraction(favourable, ways)
        for a, p in self.chance_outcomes(state):
            if a == action:
                return p
        return Fraction(0)

    def sample_chance(self, state: State | Draft, rng: random.Random, *, deck_order: bool = True) -> Action:
        """Draw a chance action with its exact probability, using only ``rng``.

        :param deck_order: for a deal, also fix the draw deck's order (otherwise each Maid
            draw becomes a chance decision of its own).
        :raises ValueError: if ``state`` is not at a chance decision.
        """
        k = state.decision.kind
        if k is _DEAL:
            rnd = rng.random
            pool = self.all_cards
            keys = [rnd() for _ in pool]
            # the cards in the order of their random keys: a uniformly random shuffle
            cards: tuple[int, ...] = itemgetter(*sorted(range(len(pool)), key=keys.__getitem__))(pool)
            hs = self.hand_size
            hands = tuple([tuple(sorted(cards[i:i + hs])) for i in range(0, self.n * hs, hs)])
            return Deal(hands, cards[self.n * hs:] if deck_order else None)
        if k is _DRAW:
            return self._draw_actions[state.unseen[int(rng.random() * len(state.unseen))]]
        if k is _REVEAL:
            return self._reveal_actions[state.king_unseen[int(rng.random() * len(state.king_unseen))]]
        raise ValueError(f"{k.value} is not a chance decision")

    def observation(self, state: State, player: int | str, history: Sequence[Event] = ()) -> Observation:
        """What ``player`` (a seat or colour) knows in ``state`` after the events
        ``history``, as ``spec/visibility.yaml`` declares; see
        :func:`palast.engine.views.observation` (which raises :class:`InputError` for a
        player not seated)."""
        from palast.engine.views import observation
        return observation(self, state, player, history)

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, action: Action) -> Step:
        """Carry out ``action`` in ``state``.

        :returns: the :class:`Step`: new state and events (with rule and clause ids).
        :raises IllegalActionError: if ``action`` is not legal in ``state``, with the reason
            and the clause ids of the rule it breaks.
        :raises InvariantViolation: in check mode, if an invariant fails afterwards.
        """
        d = Draft(state)
        self.step(d, action)
        after = d.freeze()
        events = tuple(d.events or ())
        if self.check:
            from palast.invariants import check_step
            check_step(self, state, action, after, events)
        return Step(after, events)

    def playout(self, state: State, rng: random.Random, *, max_actions: int | None = None,
                choose: Callable[[State | Draft, list[Action], random.Random], Action] | None = None) -> State:
        """Play on from ``state`` until the game ends, play reaches a rule gap, or
        ``max_actions`` actions have been applied; record no events.

        The same rule code as :meth:`apply` runs, on one working copy instead of a new
        state per action, so this is the fast path for benchmarks and simulations.

        :param rng: every chance action and, by default, every choice is drawn from it.
        :param choose: the policy: given the position, its legal actions and ``rng``,
            return one of them (default: uniformly at random).
        :returns: the final state.
        """
        d = Draft(state, record=False)
        n = 0
        limit = max_actions if max_actions is not None else -1
        terminal = TERMINAL_KINDS
        chance = CHANCE_KINDS
        step = self.step
        rnd = rng.random
        legal_plays = self._legal_plays
        playable = self.playable_cards
        play_card = self._play_card
        legal_role = self.legal_role_actions
        carry_out = self.carry_out_role_action
        apply_role = self.apply_role_action
        give_choices = self.give_choices
        give = self.give_action
        while d.decision.kind not in terminal and n != limit:
            dec = d.decision
            kind = dec.kind
            if kind is _PLAY:
                if choose is None:
                    cards = playable(d, dec)
                    play_card(d, dec, cards[int(rnd() * len(cards))])
                    n += 1
                    continue
                acts = legal_plays(d, dec)
            elif kind is _DEAL:
                self._apply_deal(d, self.sample_chance(d, rng), sampled=True)
                n += 1
                continue
            elif kind in chance:
                step(d, self.sample_chance(d, rng))
                n += 1
                continue
            elif kind is _NEXT_PLAYER:
                acts = self.legal_actions(d)
            elif (kind is _EXCHANGE_GIVE or kind is _EXCHANGE_ANSWER) and choose is None:
                # the same uniform choice among the same list as legal_actions, without
                # making an action of every card set
                sets = give_choices(d, dec)
                carry_out(d, dec, give(sets[int(rnd() * len(sets))]))
                n += 1
                continue
            else:
                acts = legal_role(d, dec)
                if choose is None:  # one of the legal actions: carried out without a second check
                    carry_out(d, dec, acts[int(rnd() * len(acts))])
                else:
                    apply_role(d, dec, choose(d, acts, rng))
                n += 1
                continue
            step(d, acts[int(rnd() * len(acts))] if choose is None else choose(d, acts, rng))
            n += 1
        return d.freeze()

    def step(self, d: Draft, action: Action) -> None:
        """Carry out ``action`` on the working copy ``d`` (see :meth:`apply`).

        :raises IllegalActionError: if ``action`` is not legal.
        """
        dec = d.decision
        k = dec.kind
        if k is _PLAY:
            self._apply_play(d, dec, action)
        elif k is _DEAL:
            self._apply_deal(d, action)
        elif k is _NEXT_PLAYER:
            if not isinstance(action, NextPlayer) or action.seat not in dec.options:
                raise self.refusal(dec, action, "the next player must be one of the players tied for fewest cards",
                                   "turn.next.neutral-tie")
            self.emit(d, "next_player", "turn.next.neutral-tie", player=action.seat,
                                       other=dec.player, points=dec.points)
            self.enter_play(d, action.seat)
        elif k is _DRAW:
            if not isinstance(action, Draw) or action.card not in d.unseen:
                raise self.refusal(dec, action, "that card cannot be drawn: it is not among the unseen cards",
                                   "role.maid")
            d.unseen = remove_one(d.unseen, action.card)
            d.deck_hidden -= 1
            self.receive_draw(d, dec.player, action.card)
        elif k is _REVEAL:
            if not isinstance(action, Reveal) or action.role not in d.king_unseen:
                raise self.refusal(dec, action, "that King card cannot be revealed: it is not in the King deck",
                                   "king.reveal")
            d.king_unseen = remove_one(d.king_unseen, action.role)
            d.king_hidden -= 1
            self.set_king(d, dec.player, action.role)
        elif k is _GAME_OVER or k is _GAP:
            raise IllegalActionError("the game is over" if k is _GAME_OVER
                                     else f"play stopped at open variation point {dec.point}")
        else:
            self.apply_role_action(d, dec, action)

    # ------------------------------------------------------------------ deal
    def _apply_deal(self, d: Draft, action: Action, *, sampled: bool = False) -> None:
        """Deal a round. ``sampled``: the deal came from :meth:`sample_chance`, which can
        only produce legal deals, so the legality checks are skipped."""
        if sampled and isinstance(action, Deal) and action.deck is not None:
            d.deck, d.deck_hidden, d.unseen = action.deck, 0, ()
            d.hands = list(action.hands)
        else:
            self._check_and_place_deal(d, action)
        d.displays = list(self._empty)
        d.deck_bottom = ()
        d.discard = ()
        d.played = [0] * self.n
        d.round += 1
        d.last_card = -1
        d.round_end = None
        if d.events is not None:
            first = d.round == 1
            if first:
                self.emit(d, "deck_built", "setup.deck", count=len(self.all_cards))
            self.emit(d, "round_dealt", "round.deal", player=d.actor, count=d.round)
            if first:
                self.emit(d, "king_deck_ready", "setup.king-deck", count=d.king_hidden + len(d.king_deck))
                self.emit(d, "scores_start", "setup.scores")
            elif d.king_in_force >= 0:
                self.emit(d, "king_stays", "round.next.king", role=d.king_in_force)
            self.emit(d, "round_starter", "setup.first-player" if first else "round.next.starter", player=d.actor)
        self.enter_play(d, d.actor)

    def _check_and_place_deal(self, d: Draft, action: Action) -> None:
        if not isinstance(action, Deal):
            raise self.refusal(d.decision, action, "a new round starts with a deal", "round.deal")
        if len(action.hands) != self.n or any(len(h) != self.hand_size for h in action.hands):
            sizes = ", ".join(f"{self.colour_name(s)} {len(h)}" for s, h in enumerate(action.hands))
            raise IllegalActionError(f"a deal gives each of the {self.n} players {self.hand_size} cards "
                                     f"(this one: {sizes})", self._clauses["round.deal"])
        dealt = [c for h in action.hands for c in h]
        pool = Counter(self.all_cards)
        used = Counter(dealt + list(action.deck or ()))
        extra = used - pool
        if extra:
            raise IllegalActionError(self._not_in_game(extra, used, pool), self._clauses["setup.deck"])
        if action.deck is not None:
            missing = pool - used
            if missing:
                raise IllegalActionError("the hands and the draw deck must hold exactly the game's cards; missing: "
                                         f"{self.cards.format_cards(sorted(missing.elements()))}",
                                         self._clauses["round.deal"])
            d.deck, d.deck_hidden, d.unseen = tuple(action.deck), 0, ()
        else:
            rest = pool - Counter(dealt)
            d.deck, d.deck_hidden, d.unseen = (), sum(rest.values()), tuple(sorted(rest.elements()))
        d.hands = [tuple(sorted(h)) for h in action.hands]

    def _not_in_game(self, extra: Counter[int], used: Counter[int], pool: Counter[int]) -> str:
        """Why a deal's cards are not the game's: the first card of an unseated colour, else
        the first card dealt more often than the game has it (setup.deck)."""
        fc = self.cards.format_card
        for c in sorted(extra):
            colour = self.cards.colour_of(c)
            if not self.cards.is_neutral(c) and colour not in self.seat_of_colour:
                return (f"the deal uses {fc(c)}, but {self.cards.colours[colour]} is not seated, so that card is "
                        "not in the game")
        c = min(extra)
        return f"the deal uses {fc(c)} {used[c]} times; a game of these colours has {pool[c]}"

    # ------------------------------------------------------------------ a turn
    def _apply_play(self, d: Draft, dec: Decision, action: Action) -> None:
        p = dec.player
        if not isinstance(action, Play):
            raise self.refusal(dec, action, "the player to move must play a hand card", "turn.play")
        c = action.card
        hand = d.hands[p]
        if c not in hand:
            raise IllegalActionError("that card is not in the player's hand", self._clauses["turn.play"])
        nr = self._nr
        role = c % nr
        banned = d.king_in_force
        if role == banned and not self.playable_when_banned[role] and not dec.forced:
            raise IllegalActionError("a banned Jester may not be played", self._clauses["king.jester"])
        if c not in self.playable_cards(d, dec):  # only under voluntary-whisper's only-when-forced
            raise IllegalActionError("a card that repeats a role in the player's display may be played only when "
                                     "every card they may play does so (voluntary-whisper: only-when-forced)",
                                     self._clauses["turn.play.duplicate"])
        self._play_card(d, dec, c)

    def _play_card(self, d: Draft, dec: Decision, c: int) -> None:
        """Carry out the play of card ``c``, already known to be legal for ``dec`` (one of
        :meth:`playable_cards`): display it, then end the round, skip or mute the action,
        or start it (turn.play, round.end.*, turn.action, king.mute)."""
        p = dec.player
        hand = d.hands[p]
        nr = self._nr
        role = c % nr
        before = d.displays[p]
        i = hand.index(c)
        d.hands[p] = hand[:i] + hand[i + 1:]
        d.displays[p] = before + (c,)
        played = d.played[p] + 1
        d.played[p] = played
        d.last_card = c
        if d.events is not None:
            self.emit(d, "card_played", "turn.play", player=p, card=c)
        if dec.forced:
            self.end_round(d, None, p, forced=True)
            return
        got = self.round_end_rule(d)
        if got is not None:
            end = self.logic.resolve(got[0], d, got[1])
            if d.events is not None:
                self.emit(d, "action_not_carried_out", end.effect["no_action"], player=p, role=role)
            self.end_round(d, end, p)
            return
        if played == self.six:
            sixth = self.params["action.sixth_played"]
            if sixth.is_gap:
                self._gap(d, "action.sixth_played", p)
                return
            if sixth.value == "sixth-played":
                self.emit(d, "action_skipped", "turn.action", player=p, role=role,
                                           points=(sixth.point,))
                self.after_action(d)
                return
        got = self._action_rule(d)
        if got is not None and not got[0].effect["carry_out"]:  # an exception: the role is banned
            if d.events is not None:
                self.emit(d, "action_muted", got[0].rule, player=p, role=role)
            self.after_action(d)
            return
        self._starters[role](d, p, role)

