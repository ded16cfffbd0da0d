"""The invariants declared in ``spec/invariants.yaml``, implemented once.

Each function returns ``None`` when the invariant holds, else a message saying what is
wrong. ``state`` invariants look at one position; ``step`` invariants at an action's
before and after. :data:`IMPLEMENTED` maps each spec id to its function; ``palast spec
check`` fails if the two lists differ.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from palast.engine.actions import Action, Deal
from palast.engine.events import Event
from palast.engine.state import DecisionKind, State

if TYPE_CHECKING:
    from palast.engine.game import Game

K = DecisionKind

StateCheck = Callable[["Game", State], "str | None"]
StepCheck = Callable[["Game", State, Action, State, Sequence[Event]], "str | None"]


def card_conservation(game: Game, s: State) -> str | None:
    """card-conservation: every card in exactly one zone; the King cards likewise."""
    zones: Counter[int] = Counter()
    for h in s.hands:
        zones.update(h)
    for d in s.displays:
        zones.update(d)
    zones.update(s.deck)
    zones.update(s.deck_bottom)
    zones.update(s.unseen)
    zones.update(s.discard)
    if zones != game.composition:
        extra = zones - game.composition
        missing = game.composition - zones
        fmt = game.cards.format_card
        return (f"role cards do not add up: extra {[fmt(c) for c in extra.elements()]}, "
                f"missing {[fmt(c) for c in missing.elements()]}")
    if s.deck_hidden > len(s.unseen) or s.deck_hidden < 0:
        return f"{s.deck_hidden} hidden deck cards but only {len(s.unseen)} unseen cards"
    kings: Counter[int] = Counter(s.king_deck)
    kings.update(s.king_unseen)
    kings.update(s.king_spent)
    if s.king_in_force >= 0:
        kings[s.king_in_force] += 1
    if kings != Counter(game.king_roles):
        return f"King cards do not add up: {sorted(kings.elements())} instead of {list(game.king_roles)}"
    if s.king_hidden > len(s.king_unseen) or s.king_hidden < 0:
        return f"{s.king_hidden} hidden King cards but only {len(s.king_unseen)} unseen"
    return None


def _draw_pending(s: State, seat: int) -> int:
    """1 if ``seat`` waits for a Maid's draw from a deck of unknown order, else 0."""
    return 1 if s.decision.kind is K.DRAW and s.decision.player == seat else 0


def hand_plus_display(game: Game, before: State, action: Action, after: State,
                      events: Sequence[Event]) -> str | None:
    """hand-plus-display: the sum changes only at a deal (to the hand size) or when a Maid
    draws nothing (by -1), and never exceeds the hand size. A Maid's draw from a deck of
    unknown order is a chance decision of its own: while it is pending, the Maid's player
    counts the card still to be drawn."""
    short = {e.player for e in events if e.kind == "no_card_drawn"}
    for seat in range(game.n):
        b = len(before.hands[seat]) + len(before.displays[seat]) + _draw_pending(before, seat)
        a = len(after.hands[seat]) + len(after.displays[seat]) + _draw_pending(after, seat)
        if a > game.hand_size:
            return f"{game.colour_name(seat)} holds {a} cards in hand and display"
        if isinstance(action, Deal):
            if a != game.hand_size:
                return f"{game.colour_name(seat)} holds {a} cards after the deal"
        elif a != b - (1 if seat in short else 0):
            return f"{game.colour_name(seat)}'s hand plus display went from {b} to {a}"
    return None


def no_repeated_role(game: Game, s: State) -> str | None:
    """no-repeated-role: no display repeats a role, except the whisperer's after a whisper."""
    nr = game.cards.role_count
    for seat, disp in enumerate(s.displays):
        roles = [c % nr for c in disp]
        if len(set(roles)) < len(roles):
            re = s.round_end
            if re is not None and re.kind == "whisper" and re.player == seat:
                continue
            return f"{game.colour_name(seat)}'s display repeats a role: {game.cards.format_cards(disp)}"
    return None


def display_below_six(game: Game, s: State) -> str | None:
    """display-below-six: while a round runs, no display holds six cards."""
    if s.round_end is not None or s.decision.kind is K.DEAL:
        return None
    for seat, disp in enumerate(s.displays):
        if len(disp) >= game.six:
            return f"{game.colour_name(seat)}'s display holds {len(disp)} cards in a running round"
    return None


def banned_role(game: Game, s: State) -> str | None:
    """banned-role: at most one banned role, a King card's role, never the Marshal."""
    b = s.king_in_force
    if b < 0:
        return None
    if b not in game.king_roles:
        return f"role {game.cards.roles[b]} is banned but no King card names it"
    if game.action_kind[b] == "reveal-king":
        return "the Marshal is banned"
    return None


def scores_rise_slowly(game: Game, before: State, action: Action, after: State,
                       events: Sequence[Event]) -> str | None:
    """scores-rise-slowly: scores never fall; they change only at a round end, by at most
    one, for exactly that round end's scorers."""
    ended = [e for e in events if e.kind == "round_ended"]
    rose = {s for s in range(game.n) if after.scores[s] != before.scores[s]}
    for s in range(game.n):
        delta = after.scores[s] - before.scores[s]
        if delta < 0 or delta > 1:
            return f"{game.colour_name(s)}'s score went from {before.scores[s]} to {after.scores[s]}"
    if rose and not ended:
        return "scores changed without a round end"
    if ended:
        re = after.round_end
        if re is None or set(re.scorers) != rose:
            return "the players who scored are not the round end's scorers"
    return None


def game_ends_at_target(game: Game, s: State) -> str | None:
    """game-ends-at-target: the game is over exactly when a score reached the target."""
    reached = max(s.scores) >= game.target
    k = s.decision.kind
    if reached and k not in (K.GAME_OVER, K.GAP):
        return f"a score reached {game.target} but the game goes on"
    if k is K.GAME_OVER and not reached:
        return "the game is over though nobody reached the target"
    return None


def player_can_act(game: Game, s: State) -> str | None:
    """player-can-act: every non-terminal decision but a deal has a legal action."""
    d = s.decision
    if d.is_terminal or d.kind is K.DEAL:
        return None
    if not game.legal_actions(s):
        who = game.colour_name(d.player) if d.player >= 0 else "chance"
        return f"{who} must decide {d.kind.value} but has no legal action"
    return None


def round_is_bounded(game: Game, s: State) -> str | None:
    """round-is-bounded: at most 6 x players + 1 plays in a round."""
    bound = (game.six - 1 + 1) * game.n + 1
    if sum(s.played) > bound:
        return f"{sum(s.played)} plays this round, more than the bound {bound}"
    return None


STATE_CHECKS: dict[str, StateCheck] = {
    "card-conservation": card_conservation,
    "no-repeated-role": no_repeated_role,
    "display-below-six": display_below_six,
    "banned-role": banned_role,
    "game-ends-at-target": game_ends_at_target,
    "player-can-act": player_can_act,
    "round-is-bounded": round_is_bounded,
}
STEP_CHECKS: dict[str, StepCheck] = {
    "hand-plus-display": hand_plus_display,
    "scores-rise-slowly": scores_rise_slowly,
}
#: Every implemented invariant id.
IMPLEMENTED: frozenset[str] = frozenset(STATE_CHECKS) | frozenset(STEP_CHECKS)


def state_problems(game: Game, s: State) -> list[tuple[str, str]]:
    """Evaluate every state invariant on ``s``; return ``(id, message)`` for each failure."""
    out = []
    for name, fn in STATE_CHECKS.items():
        msg = fn(game, s)
        if msg:
            out.append((name, msg))
    return out


def step_problems(game: Game, before: State, action: Action, after: State,
                  events: Sequence[Event]) -> list[tuple[str, str]]:
    """Evaluate every invariant on one action; return ``(id, message)`` for each failure."""
    out = state_problems(game, after)
    for name, fn in STEP_CHECKS.items():
        msg = fn(game, before, action, after, events)
        if msg:
            out.append((name, msg))
    return out


def check_step(game: Game, before: State, action: Action, after: State, events: Sequence[Event]) -> None:
    """Raise :class:`~palast.engine.game.InvariantViolation` for the first failing invariant."""
    from palast.engine.game import InvariantViolation

    problems = step_problems(game, before, action, after, events)
    if problems:
        name, msg = problems[0]
        raise InvariantViolation(name, msg)
