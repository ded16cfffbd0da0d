"""Plain-English text for decisions, events and positions, naming players by colour: the
sentences spec/ declares (a decision's ``says`` in spec/flow.yaml or the roles' choices, an
event's ``text`` in spec/visibility.yaml) filled in for a game."""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from palast.engine.events import Event
from palast.engine.game import Game
from palast.engine.state import THEN, DecisionKind, State
from palast.spec.event_text import NUMBER_WORDS, counted, listed
from palast.spec.load import Spec

K = DecisionKind


def _names(game: Game, seats: tuple[int, ...]) -> str:
    return listed([game.colour_name(s) for s in seats])



class _Seats:
    """The players of an event's ``seats``, as a sentence names them (``red and blue``)."""

    def __init__(self, names: str, n: int) -> None:
        self.names = names
        self.n = n

    def __str__(self) -> str:
        return self.names


class _Sentence(string.Formatter):
    """Fills in a sentence of spec/visibility.yaml (:mod:`palast.spec.event_text`): ``one|many``
    after a number or the players, ``words`` after a number."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "words":
            return NUMBER_WORDS[value] if 0 <= value < len(NUMBER_WORDS) else str(value)
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            n = value.n if isinstance(value, _Seats) else value
            return f"{value} {one if n == 1 else many}" if isinstance(value, _Seats) else counted(n, one, many)
        return str(value) if isinstance(value, _Seats) else str(super().format_field(value, format_spec))


_SENTENCE = _Sentence()


def _matches(e: Event, fields: Mapping[str, Any], condition: Mapping[str, str | int]) -> bool:
    """Whether event ``e`` meets a case's condition: each field equal to the value given
    (``none``: no player, card, role or detail; a role by its id)."""
    for key, want in condition.items():
        got = fields[key] if key in fields else getattr(e, key)
        if key == "role" and want != "none":
            got = fields["role_id"]
        if want == "none" and got not in (-1, ""):
            return False
        if want != "none" and got != want:
            return False
    return True


def reading_words(spec: Spec, text: str, points: Sequence[str]) -> str:
    """``text`` in words for a reader where it names readings of ``points`` (an event's
    detail, a game result's tie-break): each reading, or each of several joined by
    :data:`palast.engine.state.THEN`, as its ``words`` in spec/variation_points.yaml
    (``most-displayed`` -> ``most cards displayed``).

    :returns: the words; ``text`` itself when it names anything else (a variation point, a
        round end) or a reading without words.
    """
    words = {r.id: r.words for p in points if p in spec.variation_points
             for r in spec.variation_points[p].readings if r.words}
    parts = text.split(THEN)
    return THEN.join(words[x] for x in parts) if text and all(x in words for x in parts) else text


def tiebreak_words(game: Game, tiebreak: str) -> str:
    """A game result's tie-break (the ``tiebreak`` of a
    :class:`palast.engine.state.GameResult`) in the words of its readings (see
    :func:`reading_words`)."""
    return reading_words(game.spec, tiebreak, (game.tiebreak_point,))


def describe_event(game: Game, e: Event) -> str:
    """One sentence for event ``e`` (without its clauses), as spec/visibility.yaml words it:
    the first of the effect's ``cases`` that fits ``e``, else its ``text``; the event kind
    itself for a kind no effect declares."""
    eff = game.spec.visibility.effects.get(e.kind)
    if eff is None:
        return e.kind
    fc = game.cards.format_card
    fcs = game.cards.format_cards
    half = len(e.cards) // 2
    fields: dict[str, Any] = {
        "player": game.colour_name(e.player) if e.player >= 0 else "",
        "other": game.colour_name(e.other) if e.other >= 0 else "",
        "card": fc(e.card) if e.card >= 0 else "", "cards": fcs(e.cards) or "no cards",
        "role": game.cards.roles[e.role] if e.role >= 0 else "", "count": e.count,
        "seats": _Seats(_names(game, e.seats), len(e.seats)), "detail": reading_words(game.spec, e.detail, e.points),
        "seat_a": game.colour_name(e.seats[0]) if e.seats else "",
        "seat_b": game.colour_name(e.seats[1]) if len(e.seats) > 1 else "",
        "card_a": fc(e.cards[0]) if e.cards else "", "card_b": fc(e.cards[1]) if len(e.cards) > 1 else "",
        "cards_a": fcs(e.cards[:half]), "cards_b": fcs(e.cards[half:]), "hand_size": game.hand_size,
    }
    raw = {"player": e.player, "other": e.other, "card": e.card, "role": e.role, "count": e.count,
           "detail": e.detail, "rule": e.rule, "role_id": game.spec.roles[e.role] if e.role >= 0 else ""}
    template = next((t for cond, t in eff.cases if _matches(e, raw, cond)), eff.text)
    return _SENTENCE.format(template, **fields)


def event_words(spec: Spec, kind: str) -> str:
    """Event ``kind`` in a few words (spec/visibility.yaml's ``words``), for one-line
    summaries where the kind itself (``action_void``) is an internal name; the kind itself
    for one no effect declares."""
    eff = spec.visibility.effects.get(kind)
    return eff.words if eff is not None else kind


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
    declared = game.spec.flow.decisions[k]
    if not declared.terminal:  # worded as spec/flow.yaml or the role's choices declare it
        template = declared.says_forced if d.forced and declared.says_forced else declared.says
        return _SENTENCE.format(template, player=p, partner=game.colour_name(d.partner) if d.partner >= 0 else "",
                               starter=game.colour_name(state.actor) if state.actor >= 0 else "",
                               options=_names(game, d.options), count=d.count,
                               count_cards=f"{d.count} card{'s' if d.count != 1 else ''}", what=declared.what)
    if k == K.GAME_OVER:
        res = state.result
        assert res is not None
        how = f" (tie-break: {tiebreak_words(game, res.tiebreak)})" if res.tiebreak else ""
        verb = "share the win" if res.shared else "wins"
        return f"the game is over: {_names(game, res.winners)} {verb}{how}"
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
    lines.append(f"draw deck {counted(state.deck_size)}; King deck {counted(state.king_deck_size)}; "
                 f"banned role: {banned}; round {state.round}; target {game.target}")
    return lines
