"""Stored violations (``proofs/violations/<invariant>.yaml``): for every invariant of
``spec/invariants.yaml`` a case that breaks it, so that no invariant holds vacuously.

A case is a scenario (the notation of the README, "Scenario files") played under one ruleset, optionally
with a data-only rule variant (:mod:`proofs.variant`: ``variant:`` edits, ``readings:``)
and optionally a *broken state* (``tamper:``, edits to the position after the last
action, for what the rule language cannot break). :func:`replay` plays the scenario in
the engine's check mode: the position and every action but the last must pass every
invariant; the last action (with its tampered successor, if any) must fail exactly the
invariant the file names. ``proofs/violations/README.md`` describes the file format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import palast.invariants.check
from palast.engine import Action, Game, State
from palast.engine.events import Event
from palast.engine.state import Decision, InvariantViolation
from palast.errors import InputError, ScenarioError
from palast.formats.scenario import Scenario, scenario_from_document
from palast.spec.load import Spec
from palast.spec.yamlio import Document, read_yaml
from proofs.variant import spec_variant

#: The directory of the stored violations.
VIOLATIONS_DIR = Path(__file__).parent / "violations"
#: The keys of a violation file.
KEYS = frozenset({"invariant", "ruleset", "case", "also", "variant", "readings", "scenario", "tamper"})
#: The keys of ``tamper:``: what of the position after the last action it changes.
TAMPER_KEYS = frozenset({"remove_discard", "take_from_discard", "played", "decision"})


@dataclass(frozen=True)
class Violation:
    """One stored violation.

    :ivar invariant: the invariant id it breaks.
    :ivar ruleset: the ruleset it is played under (before any ``readings``).
    :ivar case: the case in words (for the book and the proof's detail line).
    :ivar file: the file it came from.
    :ivar variant: the data-only edits (:func:`proofs.variant.apply_edit`).
    :ivar readings: readings that differ from ``ruleset``'s (a house ruleset).
    :ivar tamper: edits to the position after the last action (a broken state).
    :ivar document: the parsed file, for messages.
    :ivar also: other invariants the case must break as well: those the invariant follows
        from (no swap can repeat a role in another display without a display repeating a
        role), so that no case breaks it alone.
    """

    invariant: str
    ruleset: str
    case: str
    file: str
    variant: tuple[Mapping[str, Any], ...]
    readings: Mapping[str, str]
    tamper: Mapping[str, Any]
    document: Document = field(repr=False, compare=False)
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Replay:
    """A violation played by the engine.

    :ivar game: the game (of the variant spec, check mode off: the check is run apart).
    :ivar before: the position before the last action.
    :ivar action: the last action.
    :ivar after: the position after it (tampered, if the file says so).
    :ivar events: the events of the last action.
    :ivar problems: ``(invariant, message)`` for every invariant failing on the last action.
    :ivar check_mode: what a check-mode game raised on the last action (its invariant and
        message), or ``None`` (a tampered successor: the engine's own successor passed).
    """

    game: Game
    before: State
    action: Action
    after: State
    events: tuple[Event, ...]
    problems: tuple[tuple[str, str], ...]
    check_mode: tuple[str, str] | None


def violation_path(invariant: str, directory: Path | None = None) -> Path:
    """The file of ``invariant``'s stored violation."""
    return (directory or VIOLATIONS_DIR) / f"{invariant}.yaml"


def load_violation(path: Path | str, spec: Spec) -> Violation:
    """Read a violation file.

    :raises InputError: for a missing or malformed file, naming the file and the key.
    """
    doc = read_yaml(path)
    data = doc.data
    if not isinstance(data, dict):
        raise InputError("a violation file is a mapping with invariant, ruleset, case and scenario", doc.file)
    for key in data:
        if key not in KEYS:
            raise doc.error([key], f"unknown key {key!r} (known: {', '.join(sorted(KEYS))})")
    for key in ("invariant", "ruleset", "case", "scenario"):
        if key not in data:
            raise InputError(f"missing key {key!r}", doc.file)
    inv = data["invariant"]
    if inv not in spec.invariants:
        raise doc.error(["invariant"], f"no invariant {inv!r} in spec/invariants.yaml")
    variant = data.get("variant") or []
    if not isinstance(variant, list) or not all(isinstance(e, dict) for e in variant):
        raise doc.error(["variant"], "variant is a list of edits (mappings)")
    readings = data.get("readings") or {}
    if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
        raise doc.error(["readings"], "readings map variation points to reading ids")
    tamper = data.get("tamper") or {}
    if not isinstance(tamper, dict):
        raise doc.error(["tamper"], "tamper is a mapping")
    for key in tamper:
        if key not in TAMPER_KEYS:
            raise doc.error(["tamper", key], f"unknown key {key!r} (known: {', '.join(sorted(TAMPER_KEYS))})")
    also = data.get("also", [])
    if "also" in data and (not isinstance(also, list) or not also or not all(isinstance(a, str) for a in also)):
        raise doc.error(["also"], "also is a list of one or more invariant ids (leave it out for none)")
    for i, other in enumerate(also):
        if other not in spec.invariants or other == inv:
            raise doc.error(["also", i], f"{other!r} is no other invariant of spec/invariants.yaml")
        if other in also[:i]:
            raise doc.error(["also", i], f"{other!r} is listed twice")
    return Violation(str(inv), str(data["ruleset"]), str(data["case"]).strip(), doc.file, tuple(variant),
                     dict(readings), dict(tamper), doc, tuple(also))


def _seat(game: Game, colour: object, doc: Document, path: list[Any]) -> int:
    seat = game.seat_of_colour.get(game.cards.parse_colour(str(colour)), -1) if isinstance(colour, str) else -1
    if seat < 0:
        raise doc.error(path, f"{colour!r} is not a seated player")
    return seat


def _tamper(game: Game, state: State, v: Violation) -> State:
    """The position ``state`` changed as ``v.tamper`` says."""
    doc, t = v.document, v.tamper
    if "remove_discard" in t:  # a card of the discard pile vanishes
        card = game.cards.parse_card(str(t["remove_discard"]))
        if card not in state.discard:
            raise doc.error(["tamper", "remove_discard"], "that card is not on the discard pile")
        pile = list(state.discard)
        pile.remove(card)
        state = replace(state, discard=tuple(pile))
    if "take_from_discard" in t:  # a player takes a card of the discard pile into their hand
        spec = t["take_from_discard"]
        if not isinstance(spec, dict) or set(spec) != {"player", "card"}:
            raise doc.error(["tamper", "take_from_discard"], "give player and card")
        seat = _seat(game, spec["player"], doc, ["tamper", "take_from_discard", "player"])
        card = game.cards.parse_card(str(spec["card"]))
        if card not in state.discard:
            raise doc.error(["tamper", "take_from_discard", "card"], "that card is not on the discard pile")
        pile = list(state.discard)
        pile.remove(card)
        hands = list(state.hands)
        hands[seat] = tuple(sorted((*hands[seat], card)))
        state = replace(state, discard=tuple(pile), hands=tuple(hands))
    if "played" in t:  # cards played this round, per player
        played = list(state.played)
        if not isinstance(t["played"], dict):
            raise doc.error(["tamper", "played"], "played maps players to numbers")
        for colour, n in t["played"].items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise doc.error(["tamper", "played", colour], "a number of cards")
            played[_seat(game, colour, doc, ["tamper", "played", colour])] = n
        state = replace(state, played=tuple(played))
    if "decision" in t:  # the pending decision: as before the last action (with the card just played
        # it belongs to), or its forced flag changed
        spec = t["decision"]
        if spec == "as-before":
            return state  # applied by the caller, which knows the position before
        if not isinstance(spec, dict) or not set(spec) <= {"forced"}:
            raise doc.error(["tamper", "decision"], "'as-before' or a mapping of forced")
        d: Decision = state.decision
        state = replace(state, decision=replace(d, forced=bool(spec.get("forced", d.forced))))
    return state


def replay(v: Violation, spec: Spec) -> Replay:
    """Play ``v`` in the engine (see the module description).

    :returns: the :class:`Replay` of its last action.
    :raises InputError: for a bad variant, scenario, action or tamper, or when the case
        breaks an invariant before its last action (it must start from a sound position).
    """
    try:
        variant_spec, ruleset = spec_variant(spec, v.variant, v.ruleset, v.readings, name="violation")
    except InputError as exc:
        raise InputError(exc.message, v.file, "variant or readings") from None
    sc: Scenario = scenario_from_document(v.document, variant_spec, ("scenario",))
    if not sc.actions:
        raise v.document.error(["scenario", "actions"], "a violation needs at least one action", ScenarioError)
    checked = sc.game(variant_spec, ruleset, check=True)
    plain = sc.game(variant_spec, ruleset, check=False)
    from palast.formats.notation import parse_action

    state = sc.start(checked)
    *head, (last_text, last_place) = sc.actions
    for i, (text, place) in enumerate(head):
        try:
            state = checked.apply(state, parse_action(checked, text)).state
        except InvariantViolation as exc:
            raise ScenarioError(f"action {i + 1} ({text!r}) already breaks {exc.invariant}: {exc}; a "
                                "violation must break its invariant at its last action only", v.file, place) from None
    action = parse_action(plain, last_text)
    step = plain.apply(state, action)
    after = step.state
    check_mode: tuple[str, str] | None = None
    if v.tamper:
        after = _tamper(plain, after, v)
        if v.tamper.get("decision") == "as-before":
            after = replace(after, decision=state.decision, last_card=state.last_card)
        try:
            checked.apply(state, action)
        except InvariantViolation as exc:
            raise ScenarioError(f"the engine's own successor already breaks {exc.invariant}: the tamper is not "
                                "what breaks it", v.file, last_place) from None
    else:
        try:
            checked.apply(state, action)
        except InvariantViolation as exc:
            check_mode = (exc.invariant, str(exc))
    # looked up at call time, as check mode does (palast.invariants.check.check_step)
    problems = tuple(palast.invariants.check.step_problems(plain, state, action, after, step.events))
    return Replay(plain, state, action, after, step.events, problems, check_mode)


def engine_verdict(v: Violation, r: Replay) -> tuple[bool, str]:
    """Whether the engine's check mode rejects the case as it must: exactly ``v.invariant`` (or a lemma of it)
    and the invariants of ``v.also`` fail on the last action (and, without a tamper, a check-mode
    game raises for one of them).

    :returns: ``(ok, what the engine reported)``.
    """
    inv = r.game.spec.invariants.get(v.invariant)
    # a lemma declared beside the invariant is part of what its case may break
    own = {v.invariant, *(lem.id for lem in (inv.lemmas if inv is not None else ()))}
    # another invariant's lemma (a strengthening, such as the measure behind round-is-bounded)
    # may fall with the case: it is not another invariant the case breaks
    lemmas = {lem.id for i in r.game.spec.invariants.values() for lem in i.lemmas}
    ids = sorted({i if i not in own else v.invariant for i, _ in r.problems if i in own or i not in lemmas})
    said = "; ".join(f"{i}: {m}" for i, m in r.problems) or "no invariant fails"
    wanted = sorted({v.invariant, *v.also})
    if ids != wanted:
        return False, f"engine: {said} (expected exactly {' and '.join(wanted)})"
    if not v.tamper and (r.check_mode is None or r.check_mode[0] not in wanted):
        return False, f"engine: check mode raised {r.check_mode!r}, not {' or '.join(wanted)}"
    return True, f"engine: {said}"


__all__ = ["KEYS", "VIOLATIONS_DIR", "Replay", "Violation", "engine_verdict", "load_violation", "replay",
           "violation_path"]
