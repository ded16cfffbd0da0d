"""A player's view as plain data and text: for ``palast ask --as`` and ``palast replay --as``.

:func:`view_dict` turns an :class:`~palast.engine.views.Observation` into JSON-ready data;
:func:`seen_dict` and :func:`describe_seen` one event as the viewer saw it; :func:`view_lines`
prints a view for a person. A hidden field is never printed: the sentence says which field
is hidden instead.
"""

from __future__ import annotations

from typing import Any

from palast.engine.game import Game
from palast.engine.knowledge import Placed
from palast.engine.views import Observation, Seen
from palast.formats.notation import format_action
from palast.query.describe import describe_event, event_words
from palast.spec.event_text import counted

#: How a hidden field is named in a sentence.
FIELD_WORDS: dict[str, str] = {"card": "the card", "cards": "the cards", "role": "the role", "count": "the number",
                               "player": "the player", "other": "the other player", "seats": "the players",
                               "detail": "the detail"}


def describe_seen(game: Game, seen: Seen, viewer: int) -> str:
    """One sentence for an event as ``viewer`` saw it: the usual sentence when nothing was
    hidden from them, else the event's words, who and how many, and what stayed hidden."""
    if not seen.hidden:
        return describe_event(game, seen.event)
    e = seen.event
    who = game.colour_name(e.player) if e.player >= 0 else ""
    words = event_words(game.spec, e.kind)
    parts = [f"{who}: {words}" if who else words]
    if e.other >= 0:
        parts.append(f"with {game.colour_name(e.other)}")
    if e.count > 0:
        parts.append(f"({e.count} card{'s' if e.count != 1 else ''})")
    hidden = " and ".join(FIELD_WORDS.get(f, f) for f in seen.hidden)
    why = f" (open variation point {seen.open_point})" if seen.open_point else ""
    return " ".join(parts) + f"; {hidden} hidden from {game.colour_name(viewer)}{why}"


def seen_dict(game: Game, seen: Seen, viewer: int) -> dict[str, Any]:
    """An event as ``viewer`` saw it, JSON-ready: ``index``, ``round``, ``kind``, ``text``,
    ``rule``, ``clauses``, ``player``/``other`` (colours, when set and seen), ``card``/``cards``
    (notation, when set and seen), ``count`` (when set), ``hidden`` (field names) and
    ``open_point``."""
    e = seen.event
    fc = game.cards.format_card
    out: dict[str, Any] = {"index": seen.index, "round": seen.round, "kind": e.kind,
                           "text": describe_seen(game, seen, viewer), "rule": e.rule, "clauses": list(e.clauses)}
    if e.player >= 0:
        out["player"] = game.colour_name(e.player)
    if e.other >= 0:
        out["other"] = game.colour_name(e.other)
    if e.card >= 0:
        out["card"] = fc(e.card)
    if e.cards:
        out["cards"] = [fc(c) for c in e.cards]
    if e.count >= 0:
        out["count"] = e.count
    out["hidden"] = list(seen.hidden)
    out["open_point"] = seen.open_point or None
    return out


def _zone_cards(game: Game, zone: str, cards: tuple[int, ...] | None) -> list[str] | None:
    if cards is None:
        return None
    if game.spec.state.by_zone[zone].holds == "King cards":
        return [game.cards.roles[r] for r in cards]
    return [game.cards.format_card(c) for c in cards]


def describe_placed(game: Game, obs: Observation, p: Placed) -> str:
    """One sentence for cards ``obs``'s player remembers: which, where they may lie, and the
    event they know it from, e.g. ``red knows blue holds maid/red, jester/grey (since event
    12, round 1: blue shows their hand ...)`` or ``red knows maid/red lies in blue's or
    green's hand (...)``."""
    name = game.colour_name
    cards = game.cards.format_cards(p.cards)
    hands = [name(seat) for zone, seat in p.places if seat >= 0]
    on_pile = any(seat < 0 for _, seat in p.places)
    if len(hands) == 1 and not on_pile:
        known = f"{hands[0]} holds {cards}"
    else:
        where = [f"{' or '.join(hands)}'s hand"] if hands else []
        where += ["the discard pile"] if on_pile else []
        verb = "lies" if len(p.cards) == 1 else "lie"
        known = f"{cards} {verb} {'in' if hands else 'on'} {' or '.join(where)}"
    told = describe_seen(game, obs.history[p.index], obs.player)
    when = f"event {p.index}, round {p.round}" if p.round > 0 else f"event {p.index}"
    return f"{name(obs.player)} knows {known} (since {when}: {told})"


def placed_dict(game: Game, obs: Observation, p: Placed) -> dict[str, Any]:
    """A remembered entry as JSON-ready data: ``cards`` (notation), ``places`` (a list of
    ``zone`` and ``player`` (colour or ``None``)), ``index``, ``round``, ``event``, ``text``."""
    return {"cards": [game.cards.format_card(c) for c in p.cards],
            "places": [{"zone": z, "player": game.colour_name(seat) if seat >= 0 else None} for z, seat in p.places],
            "index": p.index, "round": p.round, "event": p.event, "text": describe_placed(game, obs, p)}


def view_dict(game: Game, obs: Observation) -> dict[str, Any]:
    """The observation as JSON-ready data: ``as`` (colour), ``round``, ``scores``, ``zones``
    (a list of ``zone``, ``title`` (spec/state.yaml), ``player`` (colour or ``None``),
    ``count`` (``None``: not to be counted), ``cards`` (``None``: hidden)), ``open_hands``,
    ``shown`` (``index``, ``round``, ``player``, ``cards``, ``event``, ``lasts``), ``placed``
    (the cards the player remembers outside the draw deck, see :func:`placed_dict`),
    ``decision`` (``kind``, ``player``, ``partner``, ``count``, ``given``, ``hidden``),
    ``legal_actions``, ``open_points``, and ``marks`` (colour -> character card colour) where
    a rule module dealt them."""
    name = game.colour_name
    fc = game.cards.format_card
    d = obs.decision
    return {
        "as": name(obs.player),
        "round": obs.round,
        "scores": {name(s): v for s, v in enumerate(obs.scores)},
        "zones": [{"zone": z.zone, "title": game.spec.state.by_zone[z.zone].title,
                   "player": name(z.seat) if z.seat >= 0 else None, "count": z.count,
                   "cards": _zone_cards(game, z.zone, z.cards)} for z in obs.zones],
        "open_hands": {name(s): [fc(c) for c in cards] for s, cards in obs.open_hands},
        "shown": [{"index": s.index, "round": s.round, "player": name(s.seat) if s.seat >= 0 else None,
                   "cards": [fc(c) for c in s.cards], "event": s.event, "lasts": s.lasts} for s in obs.shown],
        "placed": [placed_dict(game, obs, p) for p in obs.placed],
        "decision": {"kind": d.kind, "player": name(d.player) if d.player >= 0 else None,
                     "partner": name(d.partner) if d.partner >= 0 else None,
                     "count": d.count if d.count >= 0 else None, "given": [fc(c) for c in d.given],
                     "hidden": list(d.hidden)},
        "legal_actions": [format_action(game, a) for a in obs.legal_actions],
        "open_points": list(obs.open_points),
        # a rule module's character cards, face up (only where one dealt them)
        **({"marks": {name(s): game.cards.colours[m] for s, m in enumerate(obs.marks)}} if obs.marks else {}),
    }


def _how_many(n: int | None) -> str:
    """``n`` cards in words ("1 card", "2 cards"), or that the viewer may not count them."""
    return "cards not counted" if n is None else counted(n)


def view_text(view: dict[str, Any]) -> list[str]:
    """A view of :func:`view_dict` as a few indented lines for a person: each player's score,
    hand (or how many cards it holds) and display; the table's zones by their titles, with
    the cards the viewer sees; character cards, hands open to the viewer, the cards they
    remember, and the open variation points that hide something. ``palast replay --as`` and
    ``palast ask --as`` both print it."""
    lines = []
    held = [z for z in view["zones"] if z["player"] is not None]
    for colour in view["scores"]:
        hand = next(z for z in held if z["zone"] == "hand" and z["player"] == colour)
        disp = next(z for z in held if z["zone"] == "display" and z["player"] == colour)
        shown = (f"hand [{', '.join(hand['cards'])}]" if hand["cards"] is not None
                 else f"{_how_many(hand['count'])} in hand")
        laid = ", ".join(disp["cards"] or [])
        lines.append(f"  {colour:7} score {view['scores'][colour]}  {shown}  display [{laid}]")
    lines.append("  " + "; ".join(f"{z['title']}: {_how_many(z['count'])}"
                                  + (f" [{', '.join(z['cards'])}]" if z["cards"] else "")
                                  for z in view["zones"] if z["player"] is None))
    if view.get("marks"):  # a rule module's character cards, face up
        lines.append("  character cards: " + ", ".join(f"{c} {m}" for c, m in view["marks"].items()))
    for colour, cards in view["open_hands"].items():
        lines.append(f"  {colour}'s hand is open to {view['as']}: [{', '.join(cards)}]")
    for p in view["placed"]:
        lines.append(f"  {p['text']}")
    if view["open_points"]:
        lines.append(f"  open variation points that hide something: {', '.join(view['open_points'])}")
    return lines


def view_lines(game: Game, obs: Observation) -> list[str]:
    """:func:`view_text` of the observation, under the line that says whose view it is."""
    return [f"as {game.colour_name(obs.player)} sees it:", *view_text(view_dict(game, obs))]
