"""What the engine's machinery takes for granted of a spec, checked against it.

spec/ declares the position (spec/state.yaml: each zone and counter with the fields that
keep it), the decisions (spec/flow.yaml and the roles' choices) and the event kinds (the
effects of spec/visibility.yaml). The engine keeps a position as a
:class:`~palast.engine.state.State`, names the turn's own decisions
(:class:`~palast.engine.state.DecisionKind`, answered by the actions of
:data:`~palast.engine.actions.TURN_ACTIONS`), and its machinery itself emits the events of
:data:`ENGINE_EVENTS` (a round's end and its scoring, the target reached, the game's end, a
gap, an action not carried out). :func:`problems` reports where the two part:
``palast spec check`` prints them and :func:`require` refuses a spec that has any.
"""

from __future__ import annotations

import re
from typing import Any

from palast.engine.actions import TURN_ACTIONS
from palast.engine.state import STATE_FIELDS, TERMINAL_KINDS, DecisionKind, State
from palast.errors import SpecError
from palast.lang.primitives import PRIMITIVES
from palast.spec.load import join_problems

#: The event kinds the engine's machinery emits itself (the others come from the rules'
#: statements, which ``palast spec check`` checks against the declared events).
ENGINE_EVENTS: frozenset[str] = frozenset({
    "action_not_carried_out", "rule_gap", "round_ended", "points_scored", "target_reached", "game_ended",
})


def problems(spec: Any) -> list[str]:
    """Where ``spec`` and the engine's machinery part: a field spec/state.yaml names that a
    :class:`State` does not have, or a field of :class:`State` no part of spec/state.yaml
    keeps; a decision the engine names (:class:`DecisionKind`) that no file declares, or
    declares terminal where the engine does not take it so (or the other way round), a verb
    of a turn decision with an action type of its own that another decision shares, or
    with an answer other than the one its action type gives; an event of :data:`ENGINE_EVENTS` that
    spec/visibility.yaml does not declare.

    :returns: one message per problem, each starting with the file and the place in it.
    """
    out: list[str] = []
    docs = spec.documents

    def at(fname: str, path: list[str | int], msg: str) -> None:
        out.append(f"{docs[fname].file}: {docs[fname].place(path)}: {msg}")

    declared = dict(spec.state.fields())
    sections = {"zones": spec.state.zones, "counters": spec.state.counters, "machine": spec.state.machine}
    for section, parts in sections.items():
        for i, part in enumerate(parts):
            for k, fld in enumerate(part.fields):
                if fld not in STATE_FIELDS:
                    at("state.yaml", [section, i, "fields", k], f"the engine's position has no field {fld!r} "
                                                                f"(its fields: {', '.join(STATE_FIELDS)})")
    for section, parts in (("zones", spec.state.zones), ("counters", spec.state.counters)):
        for i, part in enumerate(parts):
            for k, (fld, want) in enumerate(zip(part.fields, _shapes(part), strict=False)):
                got = _ANNOTATIONS.get(fld)
                if got is not None and got != want:
                    at("state.yaml", [section, i, "fields", k], f"the engine keeps {fld!r} as {got}, which cannot hold "
                                                                f"{_SHAPE_WORDS[want]}")
    for section, parts in (("zones", spec.state.zones), ("counters", spec.state.counters)):
        for i, part in enumerate(parts):  # what the rule language reads a zone or counter from
            prim = PRIMITIVES.get(part.name)
            reads = set(_READS.findall(prim.python)) if prim is not None else set()
            if reads and (not reads <= set(part.fields) or part.fields[0] not in reads):
                at("state.yaml", [section, i, "fields"],
                   f"the rule language reads {part.name} from the engine's field(s) "
                   f"{', '.join(sorted(reads))}, which [{', '.join(part.fields)}] does not declare as its own")
    for i, m in enumerate(spec.state.machine):
        kept = MACHINE_FIELDS.get(m.part)
        if kept is not None and tuple(m.fields) != kept:
            at("state.yaml", ["machine", i, "fields"], f"the engine's machinery keeps the {m.part} in "
                                                       f"{', '.join(kept)}, not in {', '.join(m.fields)}")
    for fld in STATE_FIELDS:
        if fld not in declared:
            at("state.yaml", [], f"the engine's position keeps {fld!r}, which no zone, counter or part of the "
                                 "machine declares (fields)")
    kinds = {k.value for k in DecisionKind}
    for d in spec.flow.decisions.values():
        file, where = d.place
        if d.name in kinds and d.terminal != (d.name in TERMINAL_KINDS):
            at(file, [*where, "decision"], f"the engine takes decision {d.name!r} as "
                                           f"{'not ' if d.terminal else ''}terminal")
        own = TURN_ACTIONS.get(d.name)
        if own is not None and d.answer != own[1]:
            at(file, [*where, "answer"], f"the engine answers decision {d.name!r} with {own[0].__name__}, which "
                                         f"gives a {own[1]}, not a {d.answer or 'nothing'}")
        turn = next((t for t in TURN_ACTIONS if t != d.name and t in spec.flow.decisions
                     and spec.flow.decisions[t].verb == d.verb), None)
        if d.verb and turn is not None:
            at(file, [*where, "verb"], f"the verb {d.verb!r} belongs to decision {turn!r}, whose action has a type "
                                       f"of its own ({TURN_ACTIONS[turn][0].__name__}): give {d.name!r} another verb")
    for kind in sorted(kinds - set(spec.flow.decisions)):
        at("flow.yaml", ["decisions"], f"the decision {kind!r} is declared nowhere (spec/flow.yaml or a role's "
                                       "choices in spec/roles.yaml): say what may follow it")
    for event in sorted(ENGINE_EVENTS - set(spec.visibility.effects)):
        at("visibility.yaml", ["effects"], f"event {event} is not declared: say who sees its fields (an entry "
                                           "with no sees: everyone sees everything)")
    return out


#: The fields of the position the expressions' primitives read (``D.field`` in their code).
_READS = re.compile(r"\bD\.([a-z_]+)")
#: The fields the engine's machinery keeps each part of the machine in (spec/state.yaml
#: ``machine``): the pending decision, how the last round ended, the game's result.
MACHINE_FIELDS: dict[str, tuple[str, ...]] = {"decision": ("decision",), "round-end": ("round_end",),
                                              "result": ("result",)}

#: The annotation of each field of :class:`State` (as written: the shapes compared below).
_ANNOTATIONS: dict[str, str] = {k: str(v) for k, v in State.__annotations__.items()}
_CARDS = "tuple[int, ...]"
_PER_SEAT = "tuple[tuple[int, ...], ...]"
#: What a field of each shape holds, in words.
_SHAPE_WORDS: dict[str, str] = {"int": "a number or one card", _CARDS: "cards or one value per player",
                                _PER_SEAT: "cards per player"}


def _shapes(part: Any) -> tuple[str, ...]:
    """The annotation each field of a zone or counter must have, in the order of its fields: a
    deck's known top, hidden count, unseen cards (and cards under them); a zone of one card,
    a number; cards per player or on the table; a counter per player or of colours, one value
    per player; any other counter, one number."""
    if hasattr(part, "order"):
        if part.order == "deck":
            return (_CARDS, "int", _CARDS, _CARDS)
        if part.order == "one":
            return ("int",)
        return (_PER_SEAT,) if part.per_player else (_CARDS,)
    return (_CARDS,) if part.per_player or part.kind == "colours" else ("int",)


#: the spec found to conform last (every game of a spec is built with the same one)
_CONFORMING: list[Any] = []


def require(spec: Any) -> None:
    """Check ``spec`` with :func:`problems` (once in a row for the same spec object).

    :raises SpecError: listing every problem.
    """
    if _CONFORMING and _CONFORMING[0] is spec:
        return
    found = problems(spec)
    if found:
        raise SpecError(join_problems(found), str(spec.root))
    _CONFORMING[:] = [spec]
