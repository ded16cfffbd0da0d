"""Plain-English text for decisions, events and positions, naming players by colour."""

from __future__ import annotations

from typing import Any

from palast.engine.events import Event
from palast.engine.game import Game
from palast.engine.state import DecisionKind, State

K = DecisionKind


def _names(game: Game, seats: tuple[int, ...]) -> str:
    names = [game.colour_name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]



#: Why an action does nothing, by the rule its ``action_void`` event cites.
_VOID: dict[str, str] = {
    "role.maid.empty-deck": "the draw deck is empty",
    "role.cupbearer.void": "no swap is allowed",
    "role.guard.void": "there is no other card in the player's display to take back",
    "role.wizard.void": "no exchange is possible",
    "role.maid": "the player has no card to discard",
}

def describe_event(game: Game, e: Event) -> str:
    """One sentence for event ``e`` (without its clauses)."""
    p = game.colour_name(e.player) if e.player >= 0 else ""
    o = game.colour_name(e.other) if e.other >= 0 else ""
    fc = game.cards.format_card
    role = game.cards.roles[e.role] if e.role >= 0 else ""
    k = e.kind
    if k == "round_dealt":
        return f"round {e.count} is dealt: six cards to each player, the rest face down as the draw deck"
    if k == "deck_built":
        return f"the role deck is built: {e.count} cards, those of the seated colours and the neutral ones"
    if k == "king_deck_ready":
        return f"the {e.count} King cards lie face down as the King deck; no role is banned yet"
    if k == "scores_start":
        return "every player's score starts at 0"
    if k == "king_stays":
        return f"the King card in force stays in force: the {role} is still banned"
    if k == "round_starter":
        return f"{p} starts the round"
    if k == "card_played":
        return f"{p} plays {fc(e.card)}"
    if k == "hand_shown":
        return f"{p} shows their hand to everyone: {game.cards.format_cards(e.cards) or 'no cards'}"
    if k == "exchange_partner":
        return f"{p} will exchange hand cards with {o}"
    if k == "exchange_count":
        return f"{p} names {e.count} card{'s' if e.count != 1 else ''} each way"
    if k == "cards_given":
        return f"{p} picks {game.cards.format_cards(e.cards)} to hand over face down"
    if k == "cards_exchanged":
        if e.count == 0:
            return f"{p} and {o} exchange nothing"
        half = len(e.cards) // 2
        return (f"{p} and {o} exchange {e.count} card{'s' if e.count != 1 else ''}: {p} gives "
                f"{game.cards.format_cards(e.cards[:half])}, {o} gives {game.cards.format_cards(e.cards[half:])}")
    if k == "card_discarded":
        return f"{p} discards {fc(e.card)} face down"
    if k == "card_drawn":
        return f"{p} draws {fc(e.card)}"
    if k == "no_card_drawn":
        return f"{p} draws nothing: the draw deck is empty"
    if k == "cards_swapped":
        a, b = (game.colour_name(s) for s in e.seats)
        return f"{p} swaps {a}'s {fc(e.cards[0])} with {b}'s {fc(e.cards[1])}"
    if k == "card_taken_back":
        return f"{p} takes {fc(e.card)} back into their hand"
    if k == "king_revealed":
        return f"{p} reveals the King card of the {role}: the {role} is banned"
    if k == "king_deck_reshuffled":
        return f"the King deck is empty: {e.count} King card{'s' if e.count != 1 else ''} are shuffled into a new one"
    if k == "action_muted":
        return f"the {role} is banned: its action is not carried out"
    if k == "action_skipped":
        return f"this is {p}'s sixth card played this round: its action is not carried out"
    if k == "action_void":
        why = _VOID.get(e.rule)
        if why:
            return f"the {role} does nothing: {why}"
        return f"the {role} has nothing to act on: its action does nothing" if role else "the action does nothing"
    if k == "action_none":
        return f"the {role} has no action"
    if k == "action_not_carried_out":
        return f"the {role} ends the round, so its action is not carried out"
    if k == "round_ended":
        if e.detail == "six":
            return f"{p} has six different roles displayed: the round ends"
        if e.rule == "king.jester-forced":
            return f"{p} holds only banned Jesters and must play one: that counts as a whisper; the round ends"
        return f"{p} whispers (a role twice in their display): the round ends"
    if k == "points_scored":
        gain = e.count
        return f"{_names(game, e.seats)} score{'s' if len(e.seats) == 1 else ''} {gain} point{'' if gain == 1 else 's'}"
    if k == "next_player":
        return f"{p} takes the next turn"
    if k == "target_reached":
        return f"{_names(game, e.seats)} reached the target of {e.count}"
    if k == "game_ended":
        how = f" (tie-break: {e.detail})" if e.detail else ""
        verb = "win" if len(e.seats) > 1 else "wins"
        return f"the game ends: {_names(game, e.seats)} {verb}{how}"
    if k == "marks_dealt":
        return f"every player is dealt a character card at random, face up: {e.count} in play"
    if k == "card_destroyed":
        return f"{p} destroys {o}'s {fc(e.card)}"
    if k == "card_searched":
        if e.card < 0:
            return f"{p} searches the draw deck and finds nothing"
        return f"{p} searches the draw deck and takes {fc(e.card)} into their hand"
    if k == "rule_gap":
        return f"play stops: the ruleset leaves variation point {e.detail} open"
    return k


def event_dict(game: Game, e: Event) -> dict[str, Any]:
    """Event ``e`` as JSON-ready data: kind, text, rule, clauses, variation points."""
    out: dict[str, Any] = {"kind": e.kind, "text": describe_event(game, e), "rule": e.rule,
                           "clauses": list(e.clauses)}
    if e.player >= 0:
        out["player"] = game.colour_name(e.player)
    if e.points:
        out["variation_points"] = list(e.points)
    return out


def describe_decision(game: Game, state: State) -> str:
    """What must be decided next, in a sentence."""
    d = state.decision
    p = game.colour_name(d.player) if d.player >= 0 else ""
    k = d.kind
    declared = game.spec.flow.decisions[k.value]
    if not declared.terminal:  # worded as spec/flow.yaml or the role's choices declare it
        template = declared.says_forced if d.forced and declared.says_forced else declared.says
        return template.format(player=p, partner=game.colour_name(d.partner) if d.partner >= 0 else "",
                               starter=game.colour_name(state.actor) if state.actor >= 0 else "",
                               options=_names(game, d.options), count=d.count,
                               count_cards=f"{d.count} card{'s' if d.count != 1 else ''}", what=declared.what)
    if k is K.GAME_OVER:
        res = state.result
        assert res is not None
        how = f" (tie-break: {res.tiebreak})" if res.tiebreak else ""
        won = "share the win" if res.shared else "won"
        return f"the game is over: {_names(game, res.winners)} {won}{how}"
    return f"play stops at variation point {d.point}, which this ruleset leaves open"


def describe_position(game: Game, state: State) -> list[str]:
    """A few lines: each player's score, hand and display; deck, King cards."""
    fc = game.cards.format_cards
    lines = []
    for s in range(game.n):
        name = game.colour_name(s)
        lines.append(f"{name:7} score {state.scores[s]}  hand [{fc(state.hands[s])}]  "
                     f"display [{fc(state.displays[s])}]")
    if state.marks:
        lines.append("character cards: " + ", ".join(
            f"{game.colour_name(s)} {game.cards.colours[m]}" for s, m in enumerate(state.marks)))
    banned = game.cards.roles[state.king_in_force] if state.king_in_force >= 0 else "none"
    lines.append(f"draw deck {state.deck_size} card(s); King deck {state.king_deck_size}; banned role: {banned}; "
                 f"round {state.round}; target {game.target}")
    return lines
