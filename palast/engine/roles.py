"""The roles' actions (``spec/roles.yaml``), by action kind.

:class:`RoleActions` is mixed into :class:`palast.engine.game.Game`; its methods start an
action when a role's card is played, list the legal choices of the decisions an action
asks for, and carry out those choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from palast.engine.actions import (
    Action,
    Count,
    Deal,
    Discard,
    Draw,
    Give,
    NextPlayer,
    Partner,
    Play,
    Reveal,
    Swap,
    TakeBack,
)
from palast.engine.core import GameCore
from palast.engine.draft import Draft, insert_sorted, remove_one
from palast.engine.state import Decision, DecisionKind, State
from palast.errors import IllegalActionError
from palast.lang.logic import Fired
from palast.spec import Spec

K = DecisionKind
# enum members as module constants (attribute access on an Enum class is slow on 3.11)
_EXCHANGE_PARTNER = K.EXCHANGE_PARTNER
_EXCHANGE_COUNT = K.EXCHANGE_COUNT
_EXCHANGE_GIVE = K.EXCHANGE_GIVE
_EXCHANGE_ANSWER = K.EXCHANGE_ANSWER
_DISCARD = K.DISCARD
_DRAW = K.DRAW
_SWAP = K.SWAP
_TAKE_BACK = K.TAKE_BACK
_REVEAL = K.REVEAL
#: at most this many Give actions are kept for reuse (the key space of the cards given is large)
_GIVE_CACHE = 50_000

#: The notation verb of each action type (for messages).
VERB: dict[type, str] = {
    Play: "play", Partner: "partner", Count: "count", Give: "give", Discard: "discard", Swap: "swap",
    TakeBack: "take-back", NextPlayer: "next", Deal: "deal", Draw: "draw", Reveal: "reveal",
}
#: For each decision kind that waits for an action: the action type it takes, what that
#: action decides (with ``{who}`` for the deciding player) and the rule it rests on.
DUE: dict[DecisionKind, tuple[type, str, str]] = {
    K.DEAL: (Deal, "a new round starts with a deal of every hand", "round.deal"),
    K.PLAY: (Play, "{who} plays a card from their hand", "turn.play"),
    K.EXCHANGE_PARTNER: (Partner, "{who} names the opponent to exchange cards with", "role.wizard"),
    K.EXCHANGE_COUNT: (Count, "{who} says how many cards are exchanged", "role.wizard"),
    K.EXCHANGE_GIVE: (Give, "{who} gives the cards of the exchange", "role.wizard"),
    K.EXCHANGE_ANSWER: (Give, "{who} gives the cards in return", "role.wizard"),
    K.DISCARD: (Discard, "{who} discards a card from their hand", "role.maid"),
    K.DRAW: (Draw, "{who} draws a card from the draw deck", "role.maid"),
    K.SWAP: (Swap, "{who} swaps two display cards", "role.cupbearer"),
    K.TAKE_BACK: (TakeBack, "{who} takes a card of their display back", "role.guard"),
    K.REVEAL: (Reveal, "{who} reveals the next King card", "king.reveal"),
    K.NEXT_PLAYER: (NextPlayer, "{who} names which of the tied players moves next", "turn.next.neutral-tie"),
}


def sub_multiset(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    """True if every card of ``small`` (with multiplicity) is in ``big``."""
    rest = list(big)
    for c in small:
        if c not in rest:
            return False
        rest.remove(c)
    return True


def minus(big: tuple[int, ...], small: tuple[int, ...]) -> tuple[int, ...]:
    """``big`` without the cards of ``small`` (one copy each)."""
    out = big
    for c in small:
        out = remove_one(out, c)
    return out


class RoleActions(GameCore):
    """Role actions, by action kind; :class:`~palast.engine.game.Game` builds on them.

    Takes the arguments of :class:`~palast.engine.core.GameCore`. Actions and decisions
    are immutable, so the legal-action lists reuse one object per value instead of
    building new ones at every decision.
    """

    def __init__(self, spec: Spec, ruleset: str, players: Sequence[str | int], *, check: bool = False) -> None:
        super().__init__(spec, ruleset, players, check=check)
        ids = range(len(self.cards.colours) * self._nr)  # every card id, seated or not
        self._others: tuple[tuple[int, ...], ...] = tuple(tuple(o for o in range(self.n) if o != p)
                                                          for p in range(self.n))
        self._partner_actions: tuple[Partner, ...] = tuple(Partner(s) for s in range(self.n))
        self._count_actions: tuple[Count, ...] = tuple(Count(k) for k in range(len(self.all_cards) + 1))
        self._discard_actions: tuple[Discard, ...] = tuple(Discard(c) for c in ids)
        self._take_back_actions: tuple[TakeBack, ...] = tuple(TakeBack(c) for c in ids)
        self._next_actions: tuple[NextPlayer, ...] = tuple(NextPlayer(s) for s in range(self.n))
        self._draw_actions: tuple[Draw, ...] = tuple(Draw(c) for c in ids)
        self._reveal_actions: tuple[Reveal, ...] = tuple(Reveal(r) for r in range(self._nr))
        self._swap_actions: dict[tuple[int, int, int, int], Swap] = {}
        #: each role's first rule, as declared in the rule language (None: no logic block)
        self._role_declared = tuple(self.logic.rules.get(rule) for rule in self._role_rule)
        self._give_actions: dict[tuple[int, ...], Give] = {}
        Lister = Callable[[State | Draft, Decision], list[Action]]
        self._role_legal: dict[DecisionKind, Lister] = {
            _EXCHANGE_PARTNER: self._legal_partners, _EXCHANGE_COUNT: self._legal_counts,
            _EXCHANGE_GIVE: self._legal_gives, _EXCHANGE_ANSWER: self._legal_gives,
            _DISCARD: self._legal_discards, _SWAP: self._legal_swaps, _TAKE_BACK: self._legal_take_backs,
        }
        self._role_check: dict[DecisionKind, Callable[[Draft, Decision, Action], Action]] = {
            _EXCHANGE_PARTNER: self._check_partner, _EXCHANGE_COUNT: self._check_count,
            _EXCHANGE_GIVE: self._check_give, _EXCHANGE_ANSWER: self._check_give,
            _DISCARD: self._check_discard, _SWAP: self._check_swap, _TAKE_BACK: self._check_take_back,
        }
        self._role_carry_out: dict[DecisionKind, Callable[[Draft, Decision, Action], None]] = {
            _EXCHANGE_PARTNER: self._do_partner, _EXCHANGE_COUNT: self._do_count,
            _EXCHANGE_GIVE: self._do_give, _EXCHANGE_ANSWER: self._do_give,
            _DISCARD: self._do_discard, _SWAP: self._do_swap, _TAKE_BACK: self._do_take_back,
        }

    def give_action(self, cards: tuple[int, ...]) -> Give:
        """The :class:`Give` of ``cards`` (sorted card ids), reused when asked for again."""
        g = self._give_actions.get(cards)
        if g is None:
            if len(self._give_actions) >= _GIVE_CACHE:
                self._give_actions.clear()
            g = self._give_actions[cards] = Give(cards)
        return g

    # ------------------------------------------------------------------ refusals
    def refusal(self, dec: Decision, action: object, reason: str, rule: str) -> IllegalActionError:
        """The error for an ``action`` that ``dec`` does not accept.

        :param reason: why an action of the right kind is not legal, citing ``rule``.
        :returns: for an action of the kind ``dec`` waits for, :class:`IllegalActionError`
            with ``reason`` and the clause ids of ``rule``; for an action of another kind,
            one that says which action is due (``"a draw is due, not a play: ..."``) with
            the clause ids of the rule behind the decision (see :data:`DUE`).
        """
        due = DUE.get(dec.kind)
        if due is None or isinstance(action, due[0]):
            return IllegalActionError(reason, self._clauses[rule])
        expected, what, due_rule = due
        got = VERB.get(type(action), type(action).__name__)
        who = self.colour_name(dec.player) if dec.player >= 0 else ""
        return IllegalActionError(f"a {VERB[expected]} is due, not a {got}: {what.format(who=who)}",
                                  self._clauses[due_rule])

    # ------------------------------------------------------------------ starting an action
    def role_starter(self, kind: str) -> Callable[[Draft, int, int], None]:
        """The method that starts an action of ``kind`` (an ``action`` of spec/roles.yaml)
        for ``(draft, seat, role)``.

        :raises ValueError: for an action kind the engine does not implement.
        """
        starters: dict[str, Callable[[Draft, int, int], None]] = {
            "reveal-hand": self._start_reveal_hand,
            "exchange-hands": self._start_exchange,
            "discard-and-draw": self._start_maid,
            "swap-displays": self._start_swap,
            "take-back": self._start_take_back,
            "reveal-king": self._start_reveal_king,
            "none": self._start_none,
        }
        if kind not in starters:
            raise ValueError(f"the engine implements no action kind {kind!r}")
        return starters[kind]

    def start_role_action(self, d: Draft, p: int, role: int) -> None:
        """Seat ``p`` has played an unbanned ``role`` that did not end the round: carry out
        its action, or open the first decision it needs."""
        self._starters[role](d, p, role)

    def _start_reveal_hand(self, d: Draft, p: int, role: int) -> None:
        if d.events is not None:
            self.emit(d, "hand_shown", self._role_rule[role], player=p, cards=d.hands[p])
        self.after_action(d)

    def _start_none(self, d: Draft, p: int, role: int) -> None:
        if d.events is not None:
            self.emit(d, "action_none", self._role_rule[role], player=p, role=role)
        self.after_action(d)

    def _start_swap(self, d: Draft, p: int, role: int) -> None:
        scope = self.params["cupbearer.scope"]
        dup = self.params["cupbearer.actor_duplicate"]
        for s, par in ((scope, "cupbearer.scope"), (dup, "cupbearer.actor_duplicate")):
            if s.is_gap:
                self._gap(d, par, p)
                return
        swaps = self.legal_swaps(d.displays, p, d.last_card)
        if not swaps:
            self.emit(d, "action_void", "role.cupbearer.void", player=p, role=role,
                      points=(scope.point, dup.point))
            self.after_action(d)
        else:
            d.decision = Decision(_SWAP, p, points=(scope.point, dup.point), choices=tuple(swaps))

    def _start_take_back(self, d: Draft, p: int, role: int) -> None:
        f = self.role_logic(d)
        if f.gap:
            self._gap_at(d, f.gap, p, f.rule)
            return
        if not self._take_back_options(d):
            if d.events is not None:
                self.emit(d, "action_void", "role.guard.void", player=p, role=role)
            self.after_action(d)
        else:
            d.decision = self._simple[_TAKE_BACK, p]

    def _start_reveal_king(self, d: Draft, p: int, role: int) -> None:
        self._reveal(d, p)

    def role_logic(self, state: State | Draft) -> Fired:
        """The declared logic (step ``role-choice``) of the role played this turn, its
        readings resolved, on ``state``."""
        c = self._role_declared[state.last_card % self._nr]
        if c is None:
            raise ValueError("the role played declares no logic")  # spec check names what each role needs
        return self.logic.resolve(c, state)

    def _start_exchange(self, d: Draft, p: int, role: int) -> None:
        f = self.role_logic(d)
        if f.gap:
            self._gap_at(d, f.gap, p, f.rule)
            return
        partners = tuple(f.effect["partners"](d, *f.values))
        if not partners:
            imp = self.params["action.impossible"]
            if imp.is_gap:
                self._gap(d, "action.impossible", p, "role.wizard.void")
                return
            self.emit(d, "action_void", "role.wizard.void", player=p, role=role, points=(imp.point,))
            self.after_action(d)
            return
        d.decision = self.shared_decision(_EXCHANGE_PARTNER, p, -1, -1, partners, f.points)

    def _counts(self, state: State | Draft, dec: Decision) -> tuple[int, ...]:
        """How many cards the exchange of ``dec`` may take: the declared ``counts``."""
        f = self.role_logic(state)
        return tuple(f.effect["counts"](state, *f.values, dec.partner))

    def _start_maid(self, d: Draft, p: int, role: int) -> None:
        if not d.hands[p]:
            imp = self.params["action.impossible"]
            if imp.is_gap:
                self._gap(d, "action.impossible", p, "role.maid")
                return
            self.emit(d, "action_void", "role.maid", player=p, role=role, points=(imp.point,))
            self.after_action(d)
            return
        if len(d.deck) + d.deck_hidden + len(d.deck_bottom) == 0:
            s = self.params["maid.empty_deck"]
            if s.is_gap:
                self._gap(d, "maid.empty_deck", p, "role.maid.empty-deck")
                return
            if s.value == "no-action":
                self.emit(d, "action_void", "role.maid.empty-deck", player=p, role=role,
                                           points=(s.point,))
                self.after_action(d)
                return
            d.decision = self.shared_decision(_DISCARD, p, -1, -1, (), (s.point,))
            return
        d.decision = self._simple[_DISCARD, p]

    def _reveal(self, d: Draft, p: int) -> None:
        if d.king_deck:
            role = d.king_deck[0]
            d.king_deck = d.king_deck[1:]
            self.set_king(d, p, role)
            return
        if d.king_hidden > 0:
            d.decision = self._simple[_REVEAL, p]
            return
        s = self.params["king.reshuffle"]
        if s.is_gap:
            self._gap(d, "king.reshuffle", p)
            return
        pool = d.king_spent + d.king_unseen
        if s.value == "all" and d.king_in_force >= 0:
            pool = pool + (d.king_in_force,)
            d.king_in_force = -1
        self.emit(d, "king_deck_reshuffled", "king.reshuffle", player=p, count=len(pool),
                                   points=(s.point,))
        if not pool:
            self.emit(d, "action_void", "king.reshuffle", player=p)
            self.after_action(d)
            return
        d.king_unseen = tuple(sorted(pool))
        d.king_hidden = len(pool)
        d.king_spent = ()
        d.decision = Decision(_REVEAL, p, points=(s.point,))

    # ------------------------------------------------------------------ legal choices
    def _take_back_options(self, state: State | Draft) -> list[int]:
        """The cards the player may take back: the ``options`` of the role's declared
        logic (step ``role-choice``) as the ruleset reads it."""
        f = self.role_logic(state)
        return list(f.effect["options"](state, *f.values))

    def legal_swaps(self, displays: Sequence[tuple[int, ...]], p: int, last_card: int) -> list[Swap]:
        """Every Cupbearer swap seat ``p`` may make (role.cupbearer): one card from each of
        two displays, never the Cupbearer just played (``last_card`` in ``p``'s display),
        never a repeated role in another player's display; the scope and the actor's own
        duplicate follow the ruleset (cupbearer-scope, cupbearer-actor-duplicate).

        :returns: the swaps, ordered by seats and then cards.
        """
        nr = self._nr
        any_two = self.params["cupbearer.scope"].value == "any-two"
        self_dup = self.params["cupbearer.actor_duplicate"].value == "whisper"
        n = self.n
        pairs = self._pairs_any if any_two else self._pairs_with[p]
        cand: list[list[int]] = []
        roles: list[set[int]] = []
        for s in range(n):
            disp = displays[s]
            roles.append({c % nr for c in disp})
            if s == p and last_card in disp:
                disp = remove_one(disp, last_card)
            cand.append(sorted(set(disp)))
        out: list[Swap] = []
        made = self._swap_actions
        for a, b in pairs:
            cand_b = cand[b]
            if not cand_b:
                continue
            roles_a = roles[a]
            roles_b = roles[b]
            guard_a = a != p or not self_dup
            guard_b = b != p or not self_dup
            for ca in cand[a]:
                ra = ca % nr
                ra_clash = ra in roles_b and guard_b
                for cb in cand_b:
                    rb = cb % nr
                    if ra != rb and (ra_clash or (rb in roles_a and guard_a)):
                        continue
                    key = (a, ca, b, cb)
                    sw = made.get(key)
                    if sw is None:
                        sw = made[key] = Swap(a, ca, b, cb)
                    out.append(sw)
        return out

    def legal_role_actions(self, state: State | Draft, dec: Decision) -> list[Action]:
        """The legal actions of a role's decision (exchange, discard, swap, take-back), in a
        fixed order.

        :raises ValueError: if ``dec`` is not a role's decision.
        """
        lister = self._role_legal.get(dec.kind)
        if lister is None:
            raise ValueError(f"no role decision {dec.kind.value}")
        return lister(state, dec)

    def _legal_partners(self, state: State | Draft, dec: Decision) -> list[Action]:
        pa = self._partner_actions
        return [pa[o] for o in dec.options]

    def _legal_counts(self, state: State | Draft, dec: Decision) -> list[Action]:
        ca = self._count_actions
        return [ca[k] for k in self._counts(state, dec)]

    def _legal_gives(self, state: State | Draft, dec: Decision) -> list[Action]:
        made = self._give_actions
        give = self.give_action
        return [made[c] if c in made else give(c) for c in self.give_choices(state, dec)]

    def give_choices(self, state: State | Draft, dec: Decision) -> list[tuple[int, ...]]:
        """The card sets the player deciding a Wizard exchange's ``dec`` may give (each
        ``dec.count`` cards of their hand, sorted), in the order of :meth:`legal_role_actions`
        (role.wizard)."""
        hand = state.hands[dec.player]
        different = sorted(set(hand))
        if len(different) == len(hand) and different == list(hand):
            # a sorted hand of different cards: combinations come distinct and in order
            combos: list[tuple[int, ...]] = list(combinations(hand, dec.count))
        else:
            combos = sorted(set(combinations(hand, dec.count)))
        return combos

    def _legal_discards(self, state: State | Draft, dec: Decision) -> list[Action]:
        da = self._discard_actions
        f = self.role_logic(state)
        return [da[c] for c in f.effect["options"](state, *f.values)]

    def _legal_swaps(self, state: State | Draft, dec: Decision) -> list[Action]:
        return list(dec.choices)  # type: ignore[arg-type]

    def _legal_take_backs(self, state: State | Draft, dec: Decision) -> list[Action]:
        ta = self._take_back_actions
        return [ta[c] for c in self._take_back_options(state)]

    # ------------------------------------------------------------------ carrying out choices
    def apply_role_action(self, d: Draft, dec: Decision, action: Action) -> None:
        """Carry out ``action`` for a role's pending decision ``dec``.

        :raises IllegalActionError: if ``action`` is not a legal choice (the reason and the
            clause ids of the rule it breaks).
        """
        k = dec.kind
        checker = self._role_check.get(k)
        if checker is None:
            raise IllegalActionError(f"no action is expected for a {k.value} decision here")
        self._role_carry_out[k](d, dec, checker(d, dec, action))

    def carry_out_role_action(self, d: Draft, dec: Decision, action: Action) -> None:
        """Carry out ``action``, one of :meth:`legal_role_actions` for ``dec``, without
        checking it again (the playout's fast path; :meth:`apply_role_action` checks)."""
        self._role_carry_out[dec.kind](d, dec, action)

    # each checker returns the action as its carrying-out takes it, or raises IllegalActionError
    def _check_partner(self, d: Draft, dec: Decision, action: Action) -> Action:
        if not isinstance(action, Partner) or action.seat not in dec.options:
            raise self.refusal(dec, action, "the Wizard's partner must be an opponent who can exchange cards",
                               "role.wizard")
        return action

    def _check_count(self, d: Draft, dec: Decision, action: Action) -> Action:
        counts = self._counts(d, dec)
        if not isinstance(action, Count) or action.n not in counts:
            raise self.refusal(dec, action, f"the number of cards must be from {counts[0]} to {counts[-1]}, "
                               "no more than either hand holds", "role.wizard")
        return action

    def _check_give(self, d: Draft, dec: Decision, action: Action) -> Action:
        if (not isinstance(action, Give) or len(action.cards) != dec.count
                or not sub_multiset(action.cards, d.hands[dec.player])):
            raise self.refusal(dec, action, f"give exactly {dec.count} card(s) from your own hand", "role.wizard")
        return action

    def _check_discard(self, d: Draft, dec: Decision, action: Action) -> Action:
        f = self.role_logic(d)
        if not isinstance(action, Discard) or action.card not in f.effect["options"](d, *f.values):
            raise self.refusal(dec, action, "the Maid discards a card from the player's hand", "role.maid")
        return action

    def _check_swap(self, d: Draft, dec: Decision, action: Action) -> Action:
        if not isinstance(action, Swap):
            raise self.refusal(dec, action, "the Cupbearer's choice is a swap", "role.cupbearer")
        if action.seat_a > action.seat_b:
            action = Swap(action.seat_b, action.card_b, action.seat_a, action.card_a)
        if action not in dec.choices:
            raise IllegalActionError(f"that swap is not allowed: {self._swap_refusal(d, dec.player, action)}",
                                     self._clauses["role.cupbearer"])
        return action

    def _check_take_back(self, d: Draft, dec: Decision, action: Action) -> Action:
        if not isinstance(action, TakeBack) or action.card not in self._take_back_options(d):
            raise self.refusal(dec, action, "the Guard takes back another card from the player's own display",
                               "role.guard")
        return action

    def _do_partner(self, d: Draft, dec: Decision, action: Action) -> None:
        p = dec.player
        seat = action.seat  # type: ignore[union-attr]
        if d.events is not None:
            self.emit(d, "exchange_partner", "role.wizard", player=p, other=seat)
        d.decision = self.shared_decision(_EXCHANGE_COUNT, p, seat, -1, (), dec.points)

    def _do_count(self, d: Draft, dec: Decision, action: Action) -> None:
        p = dec.player
        n = action.n  # type: ignore[union-attr]
        if d.events is not None:
            self.emit(d, "exchange_count", "role.wizard", player=p, other=dec.partner, count=n, points=dec.points)
        if n == 0:
            if d.events is not None:
                self.emit(d, "cards_exchanged", "role.wizard", player=p, other=dec.partner, count=0,
                          points=dec.points)
            self.after_action(d)
        else:
            d.decision = self.shared_decision(_EXCHANGE_GIVE, p, dec.partner, n, (), ())

    def _do_give(self, d: Draft, dec: Decision, action: Action) -> None:
        p = dec.player
        given = tuple(sorted(action.cards))  # type: ignore[union-attr]
        if dec.kind is _EXCHANGE_GIVE:
            if d.events is not None:
                self.emit(d, "cards_given", "role.wizard", player=p, other=dec.partner, cards=given)
            d.decision = Decision(_EXCHANGE_ANSWER, dec.partner, partner=p, count=dec.count, given=given)
            return
        actor, other = dec.partner, p
        d.hands[actor] = tuple(sorted(minus(d.hands[actor], dec.given) + given))
        d.hands[other] = tuple(sorted(minus(d.hands[other], given) + dec.given))
        if d.events is not None:
            self.emit(d, "cards_exchanged", "role.wizard", player=actor, other=other, count=dec.count,
                      cards=dec.given + given)
        self.after_action(d)

    def _do_discard(self, d: Draft, dec: Decision, action: Action) -> None:
        self._discard_and_draw(d, dec.player, action.card)  # type: ignore[union-attr]

    def _do_swap(self, d: Draft, dec: Decision, action: Action) -> None:
        self._swap(d, dec.player, action, dec)  # type: ignore[arg-type]

    def _do_take_back(self, d: Draft, dec: Decision, action: Action) -> None:
        p = dec.player
        card = action.card  # type: ignore[union-attr]
        d.displays[p] = remove_one(d.displays[p], card)
        d.hands[p] = insert_sorted(d.hands[p], card)
        if d.events is not None:
            self.emit(d, "card_taken_back", "role.guard", player=p, card=card)
        self.after_action(d)

    def _swap_refusal(self, d: Draft, p: int, sw: Swap) -> str:
        """Why swap ``sw`` is not among seat ``p``'s legal Cupbearer swaps, in the terms of
        this game's readings (role.cupbearer, cupbearer-scope, cupbearer-actor-duplicate)."""
        fc = self.cards.format_card
        name = self.colour_name
        a, ca, b, cb = sw.seat_a, sw.card_a, sw.seat_b, sw.card_b
        if a == b:
            return "a swap takes one card from each of two different displays"
        for seat, card in ((a, ca), (b, cb)):
            shown = d.displays[seat]
            if card not in shown:
                return f"{name(seat)} displays no {fc(card)}"
            if seat == p and card == d.last_card and shown.count(card) == 1:
                return f"the Cupbearer just played ({fc(card)}) cannot be moved"
        scope = self.params["cupbearer.scope"]
        if scope.value != "any-two" and p not in (a, b):
            return (f"one of the two displays must be {name(p)}'s own (variation point {scope.point}: "
                    f"{scope.value})")
        nr = self._nr
        ra, rb = ca % nr, cb % nr
        if ra != rb:
            dup = self.params["cupbearer.actor_duplicate"]
            for seat, gets, keeps in ((a, rb, d.displays[a]), (b, ra, d.displays[b])):
                if any(c % nr == gets for c in keeps):
                    role = self.spec.roles[gets]
                    if seat == p:
                        return (f"{name(seat)}, who plays the Cupbearer, would display a second {role} (variation "
                                f"point {dup.point}: {dup.value})")
                    return f"{name(seat)} would display a second {role}; no swap may repeat a role in another display"
        return "it is not one of the swaps this ruleset allows"

    def _discard_and_draw(self, d: Draft, p: int, card: int) -> None:
        d.hands[p] = remove_one(d.hands[p], card)
        dest = self.params["maid.discard_to"]
        if dest.value == "under-deck":
            if d.deck_hidden == 0 and not d.deck_bottom:
                d.deck = d.deck + (card,)
            else:
                d.deck_bottom = d.deck_bottom + (card,)
        else:
            d.discard = d.discard + (card,)
        if d.events is not None:
            self.emit(d, "card_discarded", "role.maid", player=p, card=card)
        if d.deck:
            top = d.deck[0]
            d.deck = d.deck[1:]
            self.receive_draw(d, p, top)
        elif d.deck_hidden > 0:
            d.decision = self._simple[_DRAW, p]
        elif d.deck_bottom:
            top = d.deck_bottom[0]
            d.deck_bottom = d.deck_bottom[1:]
            self.receive_draw(d, p, top)
        else:
            s = self.params["maid.empty_deck"]
            self.emit(d, "no_card_drawn", "role.maid.empty-deck", player=p, points=(s.point,))
            self.after_action(d)

    def _swap(self, d: Draft, p: int, sw: Swap, dec: Decision) -> None:
        a, ca, b, cb = sw.seat_a, sw.card_a, sw.seat_b, sw.card_b
        da = remove_one(d.displays[a], ca) + (cb,)
        db = remove_one(d.displays[b], cb) + (ca,)
        d.displays[a] = da
        d.displays[b] = db
        if d.events is not None:
            self.emit(d, "cards_swapped", "role.cupbearer", player=p, seats=(a, b), cards=(ca, cb),
                      points=dec.points)
        mine = d.displays[p]
        nr = self._nr
        if len({c % nr for c in mine}) < len(mine):
            self.end_round(d, None, p)
            return
        self.after_action(d)
