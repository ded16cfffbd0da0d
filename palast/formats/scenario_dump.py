"""Writing a position as a scenario file (:func:`dump_scenario`), which
:func:`palast.formats.scenario.load_scenario` reads back to the same position."""

from __future__ import annotations

from typing import Any

import yaml

from palast.engine.game import Game
from palast.engine.state import DecisionKind, State


def dump_scenario(game: Game, state: State, *, title: str = "", rulesets: tuple[str, ...] | None = None) -> str:
    """Write ``state`` (at a play decision) as scenario YAML that :func:`load_scenario` reads
    back to the same position.

    Unknown parts stay unknown: a deck of unknown order is written as a count.

    :raises ValueError: if the state is not waiting for a play (scenarios start at a play).
    """
    if state.decision.kind != DecisionKind.PLAY:
        raise ValueError(f"a scenario starts at a play; this state waits for {state.decision.kind}")
    if state.deck_bottom:
        raise ValueError("a draw deck with known cards under unknown ones cannot be written as a scenario")
    fc = game.cards.format_card
    names = [game.colour_name(s) for s in range(game.n)]
    doc: dict[str, Any] = {}
    if title:
        doc["title"] = title
    doc["players"] = names
    doc["rulesets"] = list(rulesets or (game.ruleset,))
    doc["round"] = state.round
    doc["to_move"] = names[state.decision.player]
    doc["scores"] = {names[s]: state.scores[s] for s in range(game.n)}
    doc["played"] = {names[s]: state.played[s] for s in range(game.n)}
    if any(state.tally):
        doc["tally"] = {names[s]: state.tally[s] for s in range(game.n)}
    doc["hands"] = {names[s]: [fc(c) for c in state.hands[s]] for s in range(game.n)}
    doc["displays"] = {names[s]: [fc(c) for c in state.displays[s]] for s in range(game.n)}
    if state.marks:
        doc["marks"] = {names[s]: game.cards.colours[c] for s, c in enumerate(state.marks)}
    if state.deck_hidden == 0 and (state.deck or not state.unseen):
        # nothing hidden: the list is the whole deck (cards it leaves out stay unplaced)
        doc["deck"] = [fc(c) for c in state.deck]
    elif not state.deck:
        doc["deck"] = state.deck_hidden
    else:
        raise ValueError("a draw deck partly known cannot be written as a scenario")
    if state.discard:
        doc["discard"] = [fc(c) for c in state.discard]
    roles = game.cards.roles
    doc["banned"] = roles[state.king_in_force] if state.king_in_force >= 0 else None
    if state.king_spent:
        doc["king_spent"] = [roles[r] for r in state.king_spent]
    if state.king_hidden == 0 and (state.king_deck or not state.king_unseen):
        doc["king_deck"] = [roles[r] for r in state.king_deck]
    elif not state.king_deck:
        doc["king_deck"] = state.king_hidden
    else:
        raise ValueError("a King deck partly known cannot be written as a scenario")
    out: str = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    return out
