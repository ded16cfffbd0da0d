"""The rules engine: a :class:`Game` (spec + ruleset + seats) steps immutable states.

``game.legal_actions(state)`` lists what may be decided now; ``game.apply(state, action)``
returns a :class:`Step` with the new state and the events the action caused, each citing
the rule and clause ids it rests on. Every number and every ruleset difference comes from
``spec/``: the engine knows action *kinds* and parameter *values*, never a role by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import repeat, starmap
from math import factorial
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from palast.engine.actions import Action, Deal, action_value
from palast.engine.core import GameCore
from palast.engine.draft import Draft, distinct
from palast.engine.events import Event
from palast.engine.probes import playable_when_banned
from palast.engine.resets import start_fields
from palast.engine.state import TERMINAL_KINDS, Decision, DecisionKind, State
from palast.errors import IllegalActionError

if TYPE_CHECKING:
    import random

    from palast.engine.blocks import Resume
    from palast.engine.views import Observation

K = DecisionKind
# enum members as module constants (attribute access on an Enum class is slow on 3.11)
_DEAL = K.DEAL
_GAME_OVER = K.GAME_OVER
_GAP = K.GAP


@dataclass(frozen=True, slots=True)
class Step:
    """The result of :meth:`Game.apply`: the new state and the events, in order."""

    state: State
    events: tuple[Event, ...]


class Game(GameCore):
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

    #: the deal sample_chance drew last (placed without checking it again)
    _sampled: Deal | None = None
    #: the initial state, with the runner (compiled rules) that made it
    _initial: tuple[Any, State] | None = None

    # ------------------------------------------------------------------ setup
    def initial_state(self) -> State:
        """The position before the first deal, as spec/state.yaml declares it (``start`` of
        each zone and counter: :func:`~palast.engine.resets.start_fields`), then the rules'
        step ``deal`` (setup.*).

        :returns: a state whose decision is the chance deal of round 1 (step ``deal``);
            the same object each time while the game's rules stay compiled as they are, with
            fixed readings, and no rule coverage is noted (:attr:`Runner.trace`).
        """
        runner = self.runner
        if runner.trace is None and self._initial is not None and self._initial[0] is runner:
            return self._initial[1]
        fields = start_fields(self.spec.state, self.n, self.all_cards, self.king_roles)
        before = State(**fields, decision=Decision(_DEAL, chance=True))
        d = Draft(before, record=False)
        runner.start("deal", d)
        after = d.freeze()
        if runner.trace is None and runner.codegen.fixed:  # nothing notes what the rules consult
            self._initial = (runner, after)
        return after

    # ------------------------------------------------------------------ queries
    @cached_property
    def playable_when_banned(self) -> tuple[bool, ...]:
        """Per role index: whether the declared rules let a card of the role be played while
        it is banned (king.jester), as :func:`palast.engine.probes.playable_when_banned`
        finds by asking the rules; computed on first use."""
        return playable_when_banned(self)

    def legal_actions(self, state: State | Draft) -> list[Action]:
        """The actions legal in ``state``, in a fixed order: the options of the decision
        the rules' statements wait for, or the cards a draw from a deck of unknown order
        may give.

        For a :attr:`~DecisionKind.DEAL` the list is empty: deals are not enumerated; use
        :meth:`sample_chance` or give a :class:`Deal`. Terminal states have none.
        """
        d = state.decision
        if d.kind in TERMINAL_KINDS:
            return []
        r = self.runner.resume_of(d, state)
        if r is None or r.deck == "deal":
            return []
        runner = self.runner
        values = distinct(runner.places.unknown(state, r.deck)) if r.deck is not None else runner.options(state, r)
        made = self._made_actions
        name = d.kind
        out: list[Action] = []
        for v in values:
            a = made.get((name, v))
            if a is None:
                a = made[name, v] = self.answers.make(name, v)
            out.append(a)  # type: ignore[arg-type]
        return out

    def drawn_from(self, state: State | Draft) -> str | None:
        """The deck the pending chance decision of ``state`` draws from, its order unknown:
        the zone's name in the rule language (``draw_deck``, ``king_deck``); ``None`` for any
        other decision (a player's, a deal, a chance choice among options). The deck is the
        one the waiting ``draw`` statement names (role.maid, king.reveal, ...)."""
        d = state.decision
        if not d.chance:
            return None
        r = self.runner.resume_of(d, state)
        return r.deck if r is not None and r.deck not in (None, "deal") else None

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        """For a draw from a deck of unknown order (the draw deck, the King deck), or a
        chance choice among a rule's options (each equally likely): each outcome and its
        exact probability. :raises ValueError: for other decisions (a deal
        is not enumerated)."""
        d = state.decision
        r = self.runner.resume_of(d, state) if d.is_chance else None
        if r is None or r.deck == "deal":
            raise ValueError(f"{d.kind} is not an enumerable chance decision")
        pool = self._chance_pool(state, r)
        total = len(pool)
        name = d.kind
        return [(self.answers.make(name, c), Fraction(n, total)) for c, n in sorted(Counter(pool).items())]

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
        d = state.decision
        r = self.runner.resume_of(d, state) if d.is_chance else None
        if r is None:
            raise ValueError(f"{d.kind} is not a chance decision")
        if r.deck == "deal":
            return self._sample_deal(rng, deck_order, self._dealt(r, state))
        pool = self._chance_pool(state, r)
        return self.answers.make(d.kind, pool[int(rng.random() * len(pool))])

    @staticmethod
    def _dealt(r: Any, state: State | Draft) -> int:
        """The cards a deal gives each player, as its declared ``deal`` statement says (``r``:
        the resume waiting for it) on ``state`` (round.deal)."""
        return int(r.count(state, {}))

    def _sample_deal(self, rng: random.Random, deck_order: bool, hs: int) -> Deal:
        """A deal of ``hs`` cards to each player from every card of the game, each order
        equally likely (drawn from ``rng``); with ``deck_order``, the draw deck's order too.
        It is remembered as sampled, so :meth:`place_deal` places it without checking it
        again."""
        pool = self.all_cards
        # one random key per card, drawn in card order (called in C, not in a Python loop)
        keys = list(starmap(rng.random, repeat((), len(pool))))
        # the cards in the order of their random keys: a uniformly random shuffle
        cards: tuple[int, ...] = itemgetter(*sorted(range(len(pool)), key=keys.__getitem__))(pool)
        hands = tuple([tuple(sorted(cards[i:i + hs])) for i in range(0, self.n * hs, hs)])
        deal = self._sampled = Deal(hands, cards[self.n * hs:] if deck_order else None)
        return deal

    def _chance_pool(self, state: State | Draft, r: Any) -> tuple[Any, ...]:
        """What chance picks from, each element equally likely: the cards a deck of unknown
        order may give, or the options of a chance choice (``r``: the waiting resume)."""
        if r.deck is not None:
            return self.runner.places.unknown(state, r.deck)
        return tuple(self.runner.options(state, r))

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
            from palast.invariants.check import check_step
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
        step = self.step
        deal = self._sample_deal
        dealt = self._dealt
        legal = self.legal_actions
        resume_of = self.runner.resume_of
        resumes = self.runner.resumes
        rnd = rng.random
        while True:
            dec = d.decision
            kind = dec.kind
            if kind in terminal or n == limit:
                break
            r: Resume | None
            try:
                r = resumes[dec.rule]
            except KeyError:  # not compiled yet, or a decision made outside the engine
                r = resume_of(dec, d)
                if r is None:
                    raise ValueError(f"nothing waits for the {kind} decision") from None
            if dec.chance:
                d.options = None
                if r.deck == "deal":  # a deal drawn here is legal: carried out without a second check
                    r.go(d, deal(rng, True, dealt(r, d)))
                elif r.deck is None:  # a chance choice among the options, each equally likely
                    values = r.options(d)  # type: ignore[misc]
                    r.go(d, values[int(rnd() * len(values))])
                else:  # the same card sample_chance draws, carried out without making an action
                    pool = self.runner.places.unknown(d, r.deck)
                    card = pool[int(rnd() * len(pool))]
                    self.runner.places.take_unknown(d, r.deck, card)
                    r.go(d, card)
            elif choose is None:  # one of the options, at random, carried out without a second check
                values = d.options
                if values is None:
                    values = r.options(d)  # type: ignore[misc]
                else:  # as the rules computed them on opening the decision
                    d.options = None
                r.go(d, values[int(rnd() * len(values))])
            else:
                d.options = None
                step(d, choose(d, legal(d), rng))
            n += 1
        return d.freeze()

    def step(self, d: Draft, action: Action) -> None:
        """Carry out ``action`` on the working copy ``d`` (see :meth:`apply`).

        :raises IllegalActionError: if ``action`` is not legal.
        """
        dec = d.decision
        if dec.kind == _GAME_OVER:
            raise IllegalActionError("the game is over")
        if dec.kind == _GAP:
            raise IllegalActionError(f"play stopped at open variation point {dec.point}")
        if not self.answers.accepts(dec.kind, action):
            raise self.refusal(dec, action, d)
        self.runner.resume(d, action_value(action), action)

    def refusal(self, dec: Decision, action: object, state: object = None) -> IllegalActionError:
        """The error for an ``action`` of a kind ``dec`` does not wait for: it says which
        action is due, by the verbs of the notation (``"a 'draw' action is due, not a 'play'
        action: ..."``), and what the decision is about (``spec/flow.yaml``, the roles'
        choices), with the clause ids of the rule that waits
        for the decision (whose statements opened it; for a decision that names none, as in a
        position built from a scenario, the rule of ``state`` that waits for it), never of
        the action refused or of the role played last."""
        got = self.answers.verb_of(action)
        declared = self.spec.flow.decisions.get(dec.kind)
        what = (declared.what or declared.statement) if declared is not None else dec.kind
        who = self.colour_name(dec.player) if dec.player >= 0 else ""
        if dec.is_chance:
            what = f"{who} waits for {what}" if who else f"chance gives {what}"
        else:
            what = f"{who} chooses {what}"
        r = self.runner.resume_of(dec, state)
        clauses = self.rule_clauses(r.rule) if r is not None else ()
        verb = declared.verb if declared is not None and declared.verb else dec.kind
        return IllegalActionError(f"a {verb!r} action is due, not a {got!r} action: {what}", clauses)

    # ------------------------------------------------------------------ deal
    def place_deal(self, d: Draft, action: object) -> None:
        """Deal a round as ``action`` says: every card gathered, each hand dealt, the rest the
        draw deck (in the order given, or of unknown order), and what else spec/state.yaml
        says a deal sets (``deal`` of each zone, counter and part of the machinery:
        :class:`~palast.engine.resets.Dealing`).

        :raises IllegalActionError: for a deal of the wrong number of hands or cards, or of
            cards the game does not have (round.deal, setup.deck).
        """
        if not isinstance(action, Deal):
            raise self.refusal(d.decision, action, d)
        if action is self._sampled and action.deck is not None:  # drawn by sample_chance: legal by construction
            self._dealing.place(d, list(action.hands), action.deck, 0, ())
        else:
            self._check_and_place_deal(d, action)

    def _check_and_place_deal(self, d: Draft, action: Deal) -> None:
        r = self.runner.resume_of(d.decision, d)
        rule = r.rule if r is not None else ""
        pool_rule = r.cards_of if r is not None else ""
        hs = self._dealt(r, d) if r is not None else self.hand_size
        if len(action.hands) != self.n or any(len(h) != hs for h in action.hands):
            sizes = ", ".join(f"{self.colour_name(s)} {len(h)}" for s, h in enumerate(action.hands))
            raise IllegalActionError(f"a deal gives each of the {self.n} players {hs} cards "
                                     f"(this one: {sizes})", self.rule_clauses(rule))
        dealt = [c for h in action.hands for c in h]
        pool = Counter(self.all_cards)
        used = Counter(dealt + list(action.deck or ()))
        extra = used - pool
        if extra:
            raise IllegalActionError(self._not_in_game(extra, used, pool), self.rule_clauses(pool_rule))
        if action.deck is not None:
            missing = pool - used
            if missing:
                raise IllegalActionError("the hands and the draw deck must hold exactly the game's cards; missing: "
                                         f"{self.cards.format_cards(sorted(missing.elements()))}",
                                         self.rule_clauses(pool_rule))
            self._dealing.place(d, [tuple(sorted(h)) for h in action.hands], tuple(action.deck), 0, ())
        else:
            rest = pool - Counter(dealt)
            self._dealing.place(d, [tuple(sorted(h)) for h in action.hands], (), sum(rest.values()),
                                tuple(sorted(rest.elements())))

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
