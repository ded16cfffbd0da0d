"""``palast ask SCENARIO --as COLOUR``: the answer from one player's side.

Per ruleset: what the player knows (:func:`palast.engine.views.observation` of the
position after the scenario's actions), their legal actions when they decide, and for each
action (or for a chance decision) what they see happen. Where the outcome depends on cards
the player cannot see, each possible result is listed with its exact probability given what
the player knows.

What the player knows of where a card lies is exactly this: the cards they see now (their
hand, every display, a hand open to them) and the cards they remember the place of
(``placed`` of :class:`~palast.engine.views.Observation`: a hand shown to them once, the cards of
their own exchange, a card taken back into a hand, their own discards; each followed through
the later events they saw, until the next deal). Nothing else is used: not how the others
played (no model of their choices is given), nor what a hand's count rules out. Every card
they cannot place (:func:`unplaced`) is equally likely to lie in any place hidden from them
that their knowledge leaves open. So the top card of a draw deck they cannot see is each
card they cannot place with probability (its copies they cannot place) / (all the cards
they cannot place), a card they remember in a hand or on the discard pile has probability
0, and the top of a King deck is each King card in it alike. A result is
computed in a world where that card is on top (the position with that card moved there from
wherever it lies hidden, :func:`with_on_top`), and results the player cannot tell apart are
merged, their probabilities added. Where the outcome depends on a choice hidden from the
player (the Wizard's picks while the partner answers), the cards of that choice are not
shown and the result says so.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from palast.engine.actions import Action
from palast.engine.events import Event
from palast.engine.game import Game, Step
from palast.engine.knowledge import Placed, holds
from palast.engine.state import DecisionKind, State
from palast.engine.views import Observation
from palast.errors import IllegalActionError
from palast.formats.notation import format_action
from palast.formats.scenario import Scenario
from palast.query.ask import play_actions
from palast.query.describe import describe_decision
from palast.query.view_render import describe_seen, seen_dict, view_dict, view_text
from palast.spec.load import Spec
from palast.spec.state import ZoneDecl

K = DecisionKind
World = tuple[State, Action | None, Fraction]


def located(game: Game, obs: Observation) -> Counter[int]:
    """The cards ``obs``'s player can place (a multiset): in a zone they see (their hand,
    every display), in a hand open to them, or remembered outside the draw deck (``placed``
    of :class:`~palast.engine.views.Observation`: a hand, a pair of hands, or a hand and the
    discard pile)."""
    placed = Counter(obs.known_cards())
    for p in obs.placed:
        placed.update(p.cards)
    return placed


def unplaced(game: Game, obs: Observation) -> Counter[int]:
    """The cards of the game ``obs``'s player cannot place (a multiset)."""
    return Counter(game.all_cards) - located(game, obs)


def _remove(cards: tuple[int, ...], c: int) -> tuple[int, ...]:
    i = cards.index(c)
    return cards[:i] + cards[i + 1:]


def _swap_in(state: State, viewer: int, v: int, out: int, open_seats: set[int],
             placed: Sequence[Placed], zones: Mapping[str, ZoneDecl]) -> State | None:
    """``state`` with one copy of ``v`` from a place hidden from ``viewer`` (another
    player's closed hand, the draw deck below its top, the discard pile, the pool of unknown
    cards) replaced by ``out``, where the result still agrees with what the viewer remembers
    (``placed``, :func:`palast.engine.knowledge.holds`: a copy the viewer knows in a hand or
    on the discard pile stays there; ``zones``: spec/state.yaml's by id); ``None`` if no copy
    of ``v`` can be taken."""
    for moved in _swaps(state, viewer, v, out, open_seats):
        if holds(moved, placed, zones):
            return moved
    return None


def _swaps(state: State, viewer: int, v: int, out: int, open_seats: set[int]) -> Iterator[State]:
    """Every way of taking one copy of ``v`` from a place hidden from ``viewer`` and putting ``out`` there.
    A card a pending decision holds committed (``given``: picks already made, face down, by
    the decision's ``partner``) is taken only with its pick: the world is one in which that
    player picked ``out`` instead (the viewer, who does not see the picks, cannot tell)."""
    hands = state.hands
    d = state.decision
    committed = Counter(d.given)
    for s in range(len(hands)):
        if s == viewer or s in open_seats or v not in hands[s]:
            continue
        hand = hands[:s] + (tuple(sorted(_remove(hands[s], v) + (out,))),) + hands[s + 1:]
        if s == d.partner and Counter(hands[s])[v] <= committed[v]:
            given = tuple(sorted(_remove(d.given, v) + (out,)))
            yield replace(state, hands=hand, decision=replace(d, given=given))
        else:
            yield replace(state, hands=hand)
    if v in state.deck[1:]:
        i = state.deck.index(v, 1)
        yield replace(state, deck=state.deck[:i] + (out,) + state.deck[i + 1:])
    if v in state.deck_bottom:
        i = state.deck_bottom.index(v)
        yield replace(state, deck_bottom=state.deck_bottom[:i] + (out,) + state.deck_bottom[i + 1:])
    if v in state.discard:
        i = state.discard.index(v)
        yield replace(state, discard=state.discard[:i] + (out,) + state.discard[i + 1:])
    if v in state.unseen:
        yield replace(state, unseen=tuple(sorted(_remove(state.unseen, v) + (out,))))


def with_on_top(game: Game, state: State, viewer: int, v: int, open_seats: set[int],
                placed: Sequence[Placed], zones: Mapping[str, ZoneDecl]) -> tuple[State, Action | None] | None:
    """A position the viewer cannot tell from ``state`` in which card ``v`` is the next
    card drawn, and the chance action that draws it when ``state`` waits for a draw; the
    position agrees with ``placed``, what the viewer remembers (see :func:`_swap_in`).

    :returns: ``(position, draw or None)``, or ``None`` when ``v`` cannot be moved there.
    """
    if game.drawn_from(state) == DRAW_DECK:  # the next card comes from the pool of unknown cards
        draw = game.answers.make(state.decision.kind, v)
        if v in state.unseen:
            return state, draw
        u = state.unseen[0]
        moved = _swap_in(state, viewer, v, u, open_seats, placed, zones)
        if moved is None:
            return None
        return replace(moved, unseen=tuple(sorted(_remove(moved.unseen, u) + (v,)))), draw
    if state.deck:
        top = state.deck[0]
        if top == v:
            return state, None
        moved = _swap_in(state, viewer, v, top, open_seats, placed, zones)
        return (replace(moved, deck=(v,) + moved.deck[1:]), None) if moved is not None else None
    if state.deck_hidden > 0:
        if v in state.unseen:
            return replace(state, deck=(v,), deck_hidden=state.deck_hidden - 1, unseen=_remove(state.unseen, v)), None
        u = state.unseen[0]
        moved = _swap_in(state, viewer, v, u, open_seats, placed, zones)
        if moved is None:
            return None
        return replace(moved, deck=(v,), deck_hidden=moved.deck_hidden - 1, unseen=_remove(moved.unseen, u)), None
    return None


#: The event of a King card turned face up (everyone sees its role).
REVEALED = "king_revealed"
#: The decks whose hidden order the worlds vary (their names in the rule language).
DRAW_DECK, KING_DECK = "draw_deck", "king_deck"


def _from_spent(state: State, r: int) -> State:
    """``state`` with the spent King card ``r`` (when none is face down) exchanged with one
    still face down: a world the viewer, who does not see the spent King cards and did not
    see ``r`` turned, cannot tell apart."""
    if r in state.king_deck or r in state.king_unseen or r not in state.king_spent:
        return state
    i = state.king_spent.index(r)
    if state.king_unseen:
        u = state.king_unseen[0]
        return replace(state, king_spent=state.king_spent[:i] + (u,) + state.king_spent[i + 1:],
                       king_unseen=tuple(sorted(_remove(state.king_unseen, u) + (r,))))
    if state.king_deck:
        u = state.king_deck[-1]
        return replace(state, king_spent=state.king_spent[:i] + (u,) + state.king_spent[i + 1:],
                       king_deck=state.king_deck[:-1] + (r,))
    return state


def _king_on_top(game: Game, state: State, r: int) -> tuple[State, Action | None]:
    if game.drawn_from(state) == KING_DECK:
        return state, game.answers.make(state.decision.kind, r)
    if state.king_deck and state.king_deck[0] != r:
        if r in state.king_deck:
            i = state.king_deck.index(r)
            deck = list(state.king_deck)
            deck[0], deck[i] = deck[i], deck[0]
            return replace(state, king_deck=tuple(deck)), None
        top = state.king_deck[0]
        return replace(state, king_deck=(r,) + state.king_deck[1:],
                       king_unseen=tuple(sorted(_remove(state.king_unseen, r) + (top,)))), None
    if not state.king_deck:
        return replace(state, king_deck=(r,), king_hidden=state.king_hidden - 1,
                       king_unseen=_remove(state.king_unseen, r)), None
    return state, None


def worlds(game: Game, state: State, obs: Observation) -> list[World]:
    """The positions the viewer cannot tell from ``state`` that differ in the next card
    drawn from a draw deck and the next King card, hidden from them, with the probability
    of each given what they know (and, at a chance decision, the chance action there).

    :returns: ``(position, chance action or None, probability)``, probabilities adding to 1.
    """
    viewer = obs.player
    open_seats = {s for s, _ in obs.open_hands}
    out: list[World] = []
    deck_zone = obs.zone("draw-deck")
    drawn = game.drawn_from(state)
    if deck_zone.cards is None and (state.deck_size > 0) and drawn != KING_DECK:
        pool = unplaced(game, obs)
        total = sum(pool.values())
        for v, n in sorted(pool.items()):
            got = with_on_top(game, state, viewer, v, open_seats, obs.placed, game.spec.state.by_zone)
            if got is not None:
                out.append((got[0], got[1], Fraction(n, total)))
    else:
        out.append((state, None, Fraction(1)))
    king_zone = obs.zone("king-deck")
    if king_zone.cards is None and state.king_deck_size > 0 and drawn != DRAW_DECK:
        kings = Counter(state.king_deck) + Counter(state.king_unseen)
        if obs.zone("king-spent").cards is None:  # spent King cards out of view: only those seen turned are known
            seen_turned = Counter(s.event.role for s in obs.history
                                  if s.event.kind == REVEALED and "role" not in s.hidden and s.event.role >= 0)
            seen_turned -= Counter([state.king_in_force] if state.king_in_force >= 0 else [])
            kings += Counter(state.king_spent) - seen_turned
        total = sum(kings.values())
        both: list[World] = []
        for w, a, p in out:
            for r, n in sorted(kings.items()):
                s2, a2 = _king_on_top(game, _from_spent(w, r), r)
                both.append((s2, a2 if a2 is not None else a, p * Fraction(n, total)))
        out = both
    return out


def _masked(game: Game, cards: Sequence[int], hide: Counter[int]) -> list[str]:
    """``cards`` with as many copies as ``hide`` holds (a choice hidden from the viewer)
    shown as ``?``: the others in order, then the ``?`` (so neither the places nor the
    copies of the hidden cards show through)."""
    shown = Counter(cards) - hide
    kept = sorted(shown.elements())
    return [game.cards.format_card(c) for c in kept] + ["?"] * (len(cards) - len(kept))


def _result(game: Game, viewer: int, history: Sequence[Event], world: State, action: Action,
            hide: Counter[int]) -> dict[str, Any] | None:
    """What ``viewer`` sees when ``action`` is taken in ``world``; cards of ``hide`` (a
    choice hidden from them) are left out."""
    try:
        step = game.apply(world, action)
    except IllegalActionError:
        return None
    after = game.observation(step.state, viewer, [*history, *step.events])
    first = len(history)
    state_partner = world.decision.partner
    events = []
    for s in after.history[first:]:
        d = seen_dict(game, s, viewer)
        d.pop("index")
        d.pop("round")
        if hide and (s.event.cards or s.event.card >= 0) and (Counter(s.event.cards) & hide or s.event.card in hide):
            d["cards"] = _masked(game, s.event.cards, hide)
            if s.event.card in hide:
                d["card"] = "?"
            head = describe_seen(game, replace(s, hidden=(*s.hidden, "cards")), viewer).split(";")[0]
            giver = game.colour_name(state_partner) if state_partner >= 0 else "the other player"
            d["text"] = (f"{head}: {', '.join(d['cards'])} (each ? is a card {giver} picked, which "
                         f"{game.colour_name(viewer)} cannot know before answering)")
        events.append(d)
    hand = _masked(game, after.hand, hide)
    dec = step.state.decision
    ended = [e for e in step.events if e.kind == "round_ended"]
    return {
        "events": events,
        "hand": hand,
        "next_decision": dec.kind,
        "next_to_move": game.colour_name(dec.player) if dec.player >= 0 else
        (game.colour_name(step.state.actor) if dec.kind == K.DEAL else None),
        "round_end": ended[0].detail if ended else None,
        "scores": {game.colour_name(s): v for s, v in enumerate(step.state.scores)},
    }


def _reads_hidden_decks(game: Game, state: State, action: Action) -> bool:
    """True if taking ``action`` in ``state`` takes a card from the draw deck or the King
    deck (or leaves a chance draw or reveal pending), so its outcome may depend on their
    hidden order; an illegal action reads nothing."""
    try:
        after = game.apply(state, action).state
    except IllegalActionError:
        return False
    decks = ("deck", "deck_hidden", "deck_bottom", "unseen", "king_deck", "king_hidden", "king_unseen")
    return (any(getattr(after, f) != getattr(state, f) for f in decks)
            or game.drawn_from(after) is not None)


def outcomes_as(game: Game, state: State, history: Sequence[Event], obs: Observation,
                action: Action | None) -> list[dict[str, Any]]:
    """The results ``obs``'s player may see of ``action`` (``None``: the chance decision
    in ``state``), each with its probability (a fraction) given what they know; results
    they cannot tell apart merged. A result that depends on a choice hidden from them says
    so under ``depends_on``."""
    hide: Counter[int] = Counter()
    depends: list[str] = []
    if "given" in obs.decision.hidden:
        hide = Counter(state.decision.given)
        depends.append("given")
    merged: dict[str, dict[str, Any]] = {}
    found = worlds(game, state, obs) if action is None or _reads_hidden_decks(game, state, action) \
        else [(state, None, Fraction(1))]
    try:
        for world, chance, p in found:
            act = action if action is not None else chance
            if act is None:
                continue
            got = _result(game, obs.player, history, world, act, hide)
            if got is None:
                continue
            key = json.dumps(got, sort_keys=True)
            if key in merged:
                merged[key]["probability"] += p
            else:
                merged[key] = {**got, "probability": p}
        unmodelled = action is not None and _depends_elsewhere(game, state, history, obs, action, hide, set(merged))
    except ValueError:  # a position of the top-card model the action cannot be taken in (a search of the deck)
        unmodelled = True
    if unmodelled:
        return [_unknown_result(game, state, obs, depends)]
    out = []
    for r in merged.values():
        out.append({"probability": str(r.pop("probability")), **r, "depends_on": depends})
    return out


def _depends_elsewhere(game: Game, state: State, history: Sequence[Event], obs: Observation, action: Action,
                       hide: Counter[int], known: set[str]) -> bool:
    """Whether what ``obs``'s player would see of ``action`` depends on where the cards
    hidden from them lie beyond the next card of a deck (which :func:`worlds` weighs): in
    some position they cannot tell from ``state`` (two hidden cards exchanged, see
    :mod:`palast.query.seen_options`) the action shows a result not among ``known`` (the
    results found, as JSON), or cannot be taken. A rule module's search of the draw deck
    reads the whole deck so."""
    from palast.query.seen_options import exchanged_worlds

    def public(step: Step) -> tuple[Any, ...]:
        # what a world's step shares with the true one when it shows the viewer the same:
        # the same events, next decision, viewer's hand, displays and scores
        t = step.state
        return step.events, t.decision.kind, t.decision.player, t.hands[obs.player], t.displays, t.scores

    try:
        same = public(game.apply(state, action))
    except IllegalActionError:
        return False
    for world in exchanged_worlds(game, state, obs):
        try:
            if public(game.apply(world, action)) == same:
                continue  # the same step where the viewer looks: the same result (a fast path)
            got = _result(game, obs.player, history, world, action, hide)
        except (ValueError, IllegalActionError):
            return True
        if got is None or json.dumps(got, sort_keys=True) not in known:
            return True
    return False


def _unknown_result(game: Game, state: State, obs: Observation, depends: list[str]) -> dict[str, Any]:
    """The one result shown for an action whose outcome depends on where cards hidden from
    the viewer lie (see :func:`_depends_elsewhere`): no events, the viewer's hand as it is,
    and no probability (their knowledge does not fix one)."""
    who = game.colour_name(obs.player)
    return {"probability": "?", "events": [{"text": f"what happens depends on where cards {who} cannot see lie"}],
            "hand": [game.cards.format_card(c) for c in obs.hand], "next_decision": "?", "next_to_move": None,
            "round_end": None, "scores": {game.colour_name(s): v for s, v in enumerate(state.scores)},
            "depends_on": [*depends, "hidden cards"]}


def answer_as(game: Game, state: State, history: Sequence[Event], viewer: int) -> dict[str, Any]:
    """One ruleset's answer from ``viewer``'s side: ``view`` (see
    :func:`palast.query.view_render.view_dict`), ``history`` (events as seen), ``decision``
    (``kind``, ``player``, ``text``), ``legal_actions`` (the viewer's, when they decide),
    ``options`` (another player's legal actions when they are public to the viewer, see
    :func:`palast.query.seen_options.seen_options`; else ``None``), ``outcomes`` (``action``
    and its ``results``, see :func:`outcomes_as`: of the viewer's legal actions, or of the
    public options of another player) and ``note``."""
    from palast.query.seen_options import seen_options

    obs = game.observation(state, viewer, history)
    d = state.decision
    name = game.colour_name
    public = seen_options(game, state, obs)  # another player's options, when the viewer can know them
    decision = {"kind": d.kind, "player": name(d.player) if d.player >= 0 else None,
                "text": describe_decision(game, state) if (d.player == viewer or d.player < 0 or d.is_chance
                                                           or public is not None)
                else f"{name(d.player)} decides ({d.kind}); {name(viewer)} does not see their options"}
    outcomes: list[dict[str, Any]] = []
    note = None
    if d.is_terminal or d.kind == K.DEAL:
        note = "nothing to decide here" if d.is_terminal else "a chance deal of a new round; not enumerated"
    elif d.is_chance:
        outcomes.append({"action": None, "chance": True, "results": outcomes_as(game, state, history, obs, None)})
    elif d.player == viewer:
        for a in obs.legal_actions:
            outcomes.append({"action": format_action(game, a), "chance": False,
                             "results": outcomes_as(game, state, history, obs, a)})
    elif public is not None:  # public options: what the viewer would see of each
        note = (f"{name(d.player)} decides; {name(viewer)} sees the options (public: "
                f"{', '.join(format_action(game, a) for a in public)}) and what each would show them")
        for a in public:
            outcomes.append({"action": format_action(game, a), "chance": False,
                             "results": outcomes_as(game, state, history, obs, a)})
    else:
        note = f"{name(d.player)} decides; {name(viewer)} sees what happens only when it happens"
    return {
        "view": view_dict(game, obs),
        "history": [seen_dict(game, s, viewer) for s in obs.history],
        "decision": decision,
        "legal_actions": [format_action(game, a) for a in obs.legal_actions],
        "options": None if public is None else [format_action(game, a) for a in public],
        "outcomes": outcomes,
        "note": note,
    }


def _stop_as(game: Game, state: State, stop: dict[str, Any] | None, viewer: int) -> dict[str, Any] | None:
    """Where the scenario's actions stop, as ``viewer`` knows it: an action of another
    player that is not legal is given by its number and who tried it only (its notation
    and the reason may name cards the viewer cannot see), as ``palast replay --as`` does."""
    if stop is None or stop.get("why") != "illegal" or state.decision.player in (viewer, -1):
        return stop
    who = game.colour_name(state.decision.player)
    return {**stop, "action": None, "reason": f"{who}'s action was not legal (why is hidden from "
                                              f"{game.colour_name(viewer)})", "clauses": [], "variation_points": []}


def ask_as(spec: Spec, scenario: Scenario, colour: str, rulesets: list[str] | None = None) -> dict[str, Any]:
    """Answer ``scenario`` from the side of the player ``colour`` under each ruleset.

    :returns: ``scenario``, ``title``, ``as`` (the colour), ``players``, ``warnings`` (as in
        :func:`palast.query.ask.ask`: character cards some rulesets asked ignore),
        ``rulesets`` (ruleset -> :func:`answer_as` plus ``stopped_at``, as in
        :func:`palast.query.ask.ask`, an illegal action of another player without its
        notation and reason) and ``not_legal`` (the scenario's actions are not legal under
        every ruleset asked).
    :raises InputError: for a colour that is not a seated player (or no colour at all),
        for a scenario that cannot be read, and for character cards (``marks``) that no
        ruleset asked deals.
    """
    from palast.query.scenario_marks import marks_warnings

    chosen = rulesets or list(scenario.rulesets)
    warnings = marks_warnings(spec, scenario, chosen)  # character cards no ruleset asked deals: bad input
    results: dict[str, dict[str, Any]] = {}
    players: list[str] = []
    seat = -1
    for r in chosen:
        game = scenario.game(spec, r)
        seat = game.seat_of(colour)
        players = [game.colour_name(s) for s in range(game.n)]
        played = play_actions(game, scenario)
        history = [e for _, st in played.history for e in st.events]
        results[r] = {**answer_as(game, played.state, history, seat),
                      "stopped_at": _stop_as(game, played.state, played.stopped_at, seat)}
    stops = [res["stopped_at"] for res in results.values()]
    return {"scenario": scenario.file, "title": scenario.title, "as": players[seat] if players else colour,
            "players": players, "warnings": warnings, "rulesets": results,
            "not_legal": bool(results) and all(s is not None and s.get("why") == "illegal" for s in stops)}


def render_as(answer: dict[str, Any]) -> str:
    """The answer of :func:`ask_as` as text: per ruleset, the view, what the scenario's
    actions showed, the decision and each action's results with their probabilities."""
    lines: list[str] = [f"warning: {w}" for w in answer.get("warnings", [])]
    who = answer["as"]
    for r, res in answer["rulesets"].items():
        lines.append(f"{r} (as {who}):")
        lines.extend(view_text(res["view"]))
        seen = [e for e in res["history"] if e["kind"] != "deck_built"]
        if seen:
            lines.append(f"  what {who} saw:")
            lines.extend(f"    {e['text']}" for e in seen)
        if res["stopped_at"]:
            lines.append(f"  the scenario's actions stop at action {res['stopped_at']['index']}: "
                         f"{res['stopped_at']['reason']}")
        lines.append(f"  decision: {res['decision']['text']}")
        if res["note"]:
            lines.append(f"  {res['note']}")
        for o in res["outcomes"]:
            head = o["action"] if o["action"] is not None else "chance"
            lines.append(f"  {head}:")
            for x in o["results"]:
                said = "; ".join(e["text"] for e in x["events"]) or "nothing happens that they see"
                extra = f" ({who} cannot know beforehand: {', '.join(x['depends_on'])})" if x["depends_on"] else ""
                lines.append(f"    {x['probability']}: {said}; {who}'s hand [{', '.join(x['hand'])}]; "
                             f"next: {x['next_to_move'] or '-'} ({x['next_decision']}){extra}")
    return "\n".join(lines)
