"""The turn and the round as a state machine over decisions: ``spec/flow.yaml`` with the
roles' own decisions (``choices`` in ``spec/roles.yaml``). Reading it, what may follow
what, the most actions one turn can take, and the cross-checks its schema cannot state.

A **decision** is what a position waits for (a play, a Wizard's count, a deal, ...). Each
declares ``then``: what may come right after it, written as decisions, **junctions**
(``turn-over``, ``round-over``: named groups of decisions, drawn as such in the book) or
``action`` (the first decision of the action of the role just played). A decision marked
``any_time`` (the stop at an open variation point) may follow any non-terminal decision.
The invariant ``turn-is-bounded`` says every action moves along these declarations (the
rule-language primitive ``follows``); :meth:`Flow.turn_actions_max` turns them into a bound.
Clauses: those of the rules each decision and junction lists (A.play.turn, B.turn.action, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from palast.spec.event_text import template_problems

#: The ``then`` word for the first decision of the action of the role just played.
ACTION = "action"


class TurnCycle(ValueError):
    """Decisions within one turn that lead back to themselves: ``path`` names them in
    order, the first again at the end."""

    def __init__(self, path: tuple[str, ...]) -> None:
        super().__init__(f"the decisions {' -> '.join(path)} form a cycle within one turn, so a turn could "
                         "go on forever")
        self.path = path


@dataclass(frozen=True)
class FlowDecision:
    """One declared decision.

    :ivar name: the decision's id (``exchange-count``).
    :ivar by: who takes it: ``actor``, ``partner``, ``chance`` or ``nobody`` (terminal).
    :ivar statement: what it is, in words (for a role's decision: its ``what``).
    :ivar then: what may come right after it, as written (decisions, junctions, ``action``).
    :ivar rules: the rule ids it rests on (a role's decision: the role's rules).
    :ivar role: the role whose action asks for it (empty for the others).
    :ivar begins: ``turn``, ``round`` or ``game`` when it begins one, else empty.
    :ivar terminal: nothing follows it (the game is over, or play stopped).
    :ivar any_time: it may follow any non-terminal decision.
    :ivar place: ``(file, key path)`` of its declaration.
    :ivar what: what is decided, in a few words (``the display card to take back``).
    :ivar says: how a pending decision is put to a reader, a template (:data:`SAYS_FIELDS`).
    :ivar says_forced: the template when the decision is forced on the player, or ``""``.
    :ivar answer: what an action answering it gives (``card``, ``seat``, ``cards``, ...: the
        ``answer`` enum of ``spec/schema/flow.schema.json``); ``""`` for a terminal decision.
    :ivar verb: the word its action starts with in the notation (``take-back``), or ``""``.
    """

    name: str
    by: str
    statement: str
    then: tuple[str, ...]
    rules: tuple[str, ...]
    role: str = ""
    begins: str = ""
    terminal: bool = False
    any_time: bool = False
    place: tuple[str, tuple[str | int, ...]] = ("flow.yaml", ())
    what: str = ""
    says: str = ""
    says_forced: str = ""
    answer: str = ""
    verb: str = ""


@dataclass(frozen=True)
class Junction:
    """A named group of decisions: ``id``, ``statement``, ``rules``, ``then`` (the decisions
    it stands for) and ``place`` (its key path in ``spec/flow.yaml``)."""

    id: str
    statement: str
    rules: tuple[str, ...]
    then: tuple[str, ...]
    place: tuple[str | int, ...] = ()


@dataclass(frozen=True)
class Flow:
    """The declared state machine.

    :ivar decisions: every declared decision by name: those of ``spec/flow.yaml`` first,
        then the roles' choices in role order.
    :ivar junctions: the junctions by id.
    :ivar successors: each decision -> the decisions that may come right after it (junctions
        and ``action`` expanded, ``any_time`` decisions added); names ``then`` gives that are
        not declared are left out (:func:`flow_problems` reports them).
    """

    decisions: Mapping[str, FlowDecision] = field(default_factory=dict)
    junctions: Mapping[str, Junction] = field(default_factory=dict)
    successors: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def follows(self, before: str, after: str) -> bool:
        """Whether decision ``after`` may come right after decision ``before``."""
        return after in self.successors.get(before, frozenset())

    def verbs(self, *answers: str) -> tuple[str, ...]:
        """Every verb an action may start with (each once), or only those of decisions whose
        answer is one of ``answers`` (``"cards"``, ``"deal"``: the values written with
        commas): those of the decisions a player takes first, then those of chance, each
        group in declaration order."""
        ordered = sorted(self.decisions.values(), key=lambda d: d.by == "chance")
        return tuple(dict.fromkeys(d.verb for d in ordered if d.verb and (not answers or d.answer in answers)))

    def pairs(self) -> frozenset[tuple[str, str]]:
        """Every ``(before, after)`` pair of decisions the flow allows."""
        return frozenset((a, b) for a, nexts in self.successors.items() for b in nexts)

    def first_decisions(self) -> tuple[str, ...]:
        """The first decision of each role's action that asks for any, in role order."""
        firsts: dict[str, str] = {}
        for d in self.decisions.values():
            if d.role:
                firsts.setdefault(d.role, d.name)
        return tuple(firsts.values())

    def within_turn(self, name: str) -> tuple[str, ...]:
        """The decisions that may follow ``name`` in the same turn: every successor that does
        not begin a turn or a round and is not terminal."""
        return tuple(b for b in self._ordered(self.successors.get(name, ()))
                     if not self.decisions[b].begins and not self.decisions[b].terminal)

    def turn_actions_max(self) -> int:
        """The most actions one turn can take: the longest chain of decisions from one that
        begins a turn to the next that begins a turn or a round (or ends play), counting
        the first. For the game as declared: a play and the Wizard's four decisions, the
        end-of-turn choice a rule module may offer, then the choice of the next player
        after a tie: 7.

        :raises TurnCycle: if the decisions within a turn form a cycle (then no bound
            exists; :func:`flow_problems` reports it at the declaration).
        """
        memo: dict[str, int] = {}

        def longest(name: str, path: tuple[str, ...]) -> int:
            if name in path:
                raise TurnCycle((*path[path.index(name):], name))
            if name not in memo:
                memo[name] = 1 + max((longest(b, (*path, name)) for b in self.within_turn(name)), default=0)
            return memo[name]

        starts = [d.name for d in self.decisions.values() if d.begins == "turn"]
        return max((longest(s, ()) for s in starts), default=0)

    def _ordered(self, names: Iterable[str]) -> list[str]:
        order = list(self.decisions)
        return sorted(names, key=lambda n: order.index(n) if n in order else len(order))


#: The fields a decision's ``says`` may name: who decides, the other player of an exchange,
#: who starts the round being dealt, the players to choose among, the number of cards and
#: the same as "2 cards", and the decision's own ``what``.
SAYS_FIELDS: tuple[str, ...] = ("player", "partner", "starter", "options", "count", "count_cards", "what")
#: The fields of :data:`SAYS_FIELDS` a format spec may follow (``{count:card|cards}``).
SAYS_COUNTED: frozenset[str] = frozenset({"count"})


def _decision(raw: Mapping[str, Any], place: tuple[str, tuple[str | int, ...]], role: str = "",
              rules: tuple[str, ...] = ()) -> FlowDecision:
    return FlowDecision(str(raw["decision"]), str(raw["by"]), str(raw.get("statement", raw.get("what", ""))),
                        tuple(str(t) for t in raw.get("then") or ()), tuple(raw.get("rules") or rules), role,
                        str(raw.get("begins", "")), bool(raw.get("terminal", False)),
                        bool(raw.get("any_time", False)), place, str(raw.get("what", "")), str(raw.get("says", "")),
                        str(raw.get("says_forced", "")), str(raw.get("answer", "")), str(raw.get("verb", "")))


def parse_flow(flow: Mapping[str, Any], roles: Mapping[str, Any],
               modules: Iterable[tuple[str, Mapping[str, Any]]] = ()) -> Flow:
    """The :class:`Flow` of the parsed ``spec/flow.yaml`` (``flow``) and ``spec/roles.yaml``
    (``roles``), both schema-valid, with what rule modules add to it: ``modules`` gives
    ``(file, data)`` per module file, whose ``flow`` entries name a declared decision, the
    module's rules it also rests on and what else may follow it with the module in play.
    A decision declared twice keeps its first declaration; an extension of a decision that
    is not declared is left out (:func:`flow_problems` reports it)."""
    decisions: dict[str, FlowDecision] = {}
    for i, raw in enumerate(flow.get("decisions") or ()):
        decisions.setdefault(str(raw["decision"]), _decision(raw, ("flow.yaml", ("decisions", i))))
    for i, entry in enumerate(roles.get("roles") or ()):
        rule_ids = tuple(str(r["id"]) for r in entry.get("rules") or ())
        for j, raw in enumerate(entry.get("choices") or ()):
            decisions.setdefault(str(raw["decision"]), _decision(raw, ("roles.yaml", ("roles", i, "choices", j)),
                                                                 str(entry["role"]), rule_ids))
    for _file, data in modules:
        for ext in data.get("flow") or ():
            d = decisions.get(str(ext["decision"]))
            if d is not None:
                decisions[d.name] = replace(
                    d, rules=tuple(dict.fromkeys([*d.rules, *(str(r) for r in ext.get("rules") or ())])),
                    then=tuple(dict.fromkeys([*d.then, *(str(t) for t in ext.get("then") or ())])))
    junctions = {str(j["id"]): Junction(str(j["id"]), str(j["statement"]), tuple(j["rules"]), tuple(j["then"]),
                                        ("junctions", i))
                 for i, j in enumerate(flow.get("junctions") or ())}
    shell = Flow(decisions, junctions)
    firsts = shell.first_decisions()
    anytime = [d.name for d in decisions.values() if d.any_time]

    def expand(names: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for n in names:
            if n == ACTION:
                out.update(firsts)
            elif n in junctions:
                out.update(x for x in junctions[n].then if x in decisions)
            elif n in decisions:
                out.add(n)
        return out

    successors = {name: frozenset(expand(d.then) | set(() if d.terminal else anytime))
                  for name, d in decisions.items()}
    return Flow(decisions, junctions, successors)


def flow_problems(spec: Any, at: Callable[[str, list[str | int], str], None]) -> None:
    """Report through ``at(file, key path, message)`` what is wrong with the declared flow
    of ``spec`` (``spec.flow``): a decision declared twice, a ``then`` naming
    nothing declared, a terminal decision with a ``then`` or another without one, a
    decision no action can answer (no ``answer`` and ``verb``), a verb two decisions of
    different answers share, a rule id
    that is no rule, no decision beginning a turn or a round, a decision no play reaches,
    and decisions within one turn that form a cycle (so no bound on a turn's actions)."""
    flow: Flow = spec.flow
    seen: dict[str, tuple[str, tuple[str | int, ...]]] = {}
    docs = {"flow.yaml": spec.documents["flow.yaml"].data, "roles.yaml": spec.documents["roles.yaml"].data}
    Place = tuple[str, tuple[str | int, ...]]
    places: list[tuple[Place, Any]] = [(("flow.yaml", ("decisions", i)), raw)
                                       for i, raw in enumerate(docs["flow.yaml"].get("decisions") or ())]
    places += [(("roles.yaml", ("roles", i, "choices", j)), raw)
               for i, entry in enumerate(docs["roles.yaml"].get("roles") or ())
               for j, raw in enumerate(entry.get("choices") or ())]
    for (file, path), raw in places:
        name = str(raw["decision"])
        if name in seen:
            first = seen[name]
            at(file, [*path, "decision"], f"decision {name!r} is declared twice (first in {first[0]})")
            continue
        seen[name] = (file, path)
    words = set(flow.decisions) | set(flow.junctions) | {ACTION}
    by_verb: dict[str, FlowDecision] = {}
    for d in flow.decisions.values():  # an action names its decision's verb, so a verb has one answer
        first_d = by_verb.setdefault(d.verb, d) if d.verb else d
        if first_d.answer != d.answer:
            at(d.place[0], [*d.place[1], "verb"], f"decisions {first_d.name!r} and {d.name!r} share the verb "
                                                  f"{d.verb!r} but not the answer ({first_d.answer} and {d.answer})")
    raw_of = {place: raw for place, raw in places}
    for d in flow.decisions.values():
        file, where = d.place
        declared = raw_of.get(d.place, {})  # as declared there: a module's additions are checked at the module
        for k, t in enumerate(declared.get("then") or ()):
            if t not in words:
                at(file, [*where, "then", k], f"{t!r} is no decision, junction or {ACTION!r}")
        if d.terminal and d.then:
            at(file, [*where, "then"], f"decision {d.name!r} is terminal: nothing may follow it")
        if not d.terminal and not d.then:
            at(file, [*where], f"decision {d.name!r} is not terminal: say what may follow it (then)")
        missing = [k for k in ("answer", "verb") if not getattr(d, k)]
        if not d.terminal and missing:
            at(file, [*where], f"decision {d.name!r} is not terminal: say what answers it (missing "
                               f"{'key' if len(missing) == 1 else 'keys'} {' and '.join(repr(k) for k in missing)})")
        if d.terminal and (declared.get("answer") or declared.get("verb")):
            at(file, [*where], f"decision {d.name!r} is terminal: no action answers it (no answer or verb)")
        if not d.terminal and not d.says:
            at(file, [*where], f"decision {d.name!r} is not terminal: say how it is put to a reader (says)")
        for key in ("says", "says_forced"):
            if d.terminal and declared.get(key):
                at(file, [*where, key], f"decision {d.name!r} is terminal: the machinery says how the game ended "
                                        "or where play stopped (no says)")
            for msg in template_problems(str(declared.get(key) or ""), SAYS_FIELDS, SAYS_COUNTED,
                                         "a decision's sentence"):
                at(file, [*where, key], msg)
        raw_rules = declared.get("rules") or () if file == "flow.yaml" else ()
        for k, r in enumerate(raw_rules):
            if r not in spec.rules:
                at(file, [*where, "rules", k], f"unknown rule {r!r}")
    for m in spec.modules.values():
        for i, ext in enumerate(spec.documents[m.file].data.get("flow") or ()):
            name = str(ext["decision"])
            if name not in flow.decisions:
                at(m.file, ["flow", i, "decision"], f"{name!r} is no declared decision (spec/flow.yaml or a "
                                                   "role's choices)")
            for k, r in enumerate(ext.get("rules") or ()):
                if r not in m.rules:
                    at(m.file, ["flow", i, "rules", k], f"{r!r} is no rule of module {m.id} (its rules: "
                                                        f"{', '.join(m.rules)})")
            for k, t in enumerate(ext.get("then") or ()):
                if t not in words:
                    at(m.file, ["flow", i, "then", k], f"{t!r} is no decision, junction or {ACTION!r}")
    seen_junctions: set[str] = set()
    for i, raw in enumerate(docs["flow.yaml"].get("junctions") or ()):
        jid = str(raw["id"])
        if jid in seen_junctions:
            at("flow.yaml", ["junctions", i, "id"], f"junction {jid!r} is declared twice")
        if jid in flow.decisions or jid == ACTION:
            at("flow.yaml", ["junctions", i, "id"], f"junction {jid!r} has the name of a decision (or of "
                                                    f"{ACTION!r}): give it a name of its own")
        seen_junctions.add(jid)
    for j in flow.junctions.values():
        for k, t in enumerate(j.then):
            if t not in flow.decisions:
                at("flow.yaml", [*j.place, "then", k], f"{t!r} is no decision (a junction stands for decisions)")
        for k, r in enumerate(j.rules):
            if r not in spec.rules:
                at("flow.yaml", [*j.place, "rules", k], f"unknown rule {r!r}")
    for begins in ("turn", "round"):
        if not any(d.begins == begins for d in flow.decisions.values()):
            at("flow.yaml", ["decisions"], f"no decision begins a {begins} (begins: {begins})")
    try:
        flow.turn_actions_max()
    except TurnCycle as e:
        file, where = flow.decisions[e.path[-2]].place
        at(file, [*where, "then"], str(e))
        return
    reached: set[str] = set()
    todo = [d.name for d in flow.decisions.values() if d.begins in ("round", "game")]
    while todo:
        n = todo.pop()
        if n not in reached:
            reached.add(n)
            todo.extend(flow.successors.get(n, ()))
    for d in flow.decisions.values():
        if d.name not in reached:
            at(d.place[0], [*d.place[1], "decision"], f"no action leads to decision {d.name!r} (nothing's then "
                                                     "names it, or what names it is never reached)")
