"""What reading ``spec/`` gives: the frozen records of the spec (:class:`Spec`, and its
clauses, rules, variation points with their readings, role actions, invariants and lemmas)
that the engine, the proofs and the rulebook read. :mod:`palast.spec.load` builds them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from palast.spec.flow import Flow
from palast.spec.modules import Module
from palast.spec.state import StateDecl
from palast.spec.visibility import Visibility
from palast.spec.yamlio import Document

#: The word a ruleset uses for a variation point it leaves undecided.
OPEN = "open"


@dataclass(frozen=True)
class Clause:
    """One rule passage of a source: id, source id and file, line range, our paraphrase."""

    id: str
    source: str
    file: str
    first_line: int
    last_line: int
    paraphrase: str

    @property
    def lines(self) -> str:
        """The line range, ``"75–78"`` (en dash), or one line, ``"32"``."""
        return str(self.first_line) if self.first_line == self.last_line else f"{self.first_line}–{self.last_line}"

    @property
    def where(self) -> str:
        """The source letter and line range, ``"A 75–78"``; the sources are named by
        :func:`palast.spec.sources.source_notes` (the file names stay in ``clauses.yaml``)."""
        return f"{self.source} {self.lines}"

    @property
    def cite(self) -> str:
        """``"A.role.wizard (A 75–78)"``: the clause id with :attr:`where`."""
        return f"{self.id} ({self.where})"


@dataclass(frozen=True)
class Rule:
    """A rule of play or of a role: id, title, statement, clause ids, variation points."""

    id: str
    title: str
    statement: str
    clauses: tuple[str, ...]
    topic: str
    variation_points: tuple[str, ...] = ()
    role: str | None = None


@dataclass(frozen=True)
class Reading:
    """One reading of a variation point.

    :ivar words: the reading in a few lower-case words, for text that names it to a
        reader (``"most cards displayed"``), or ``""`` where the spec gives none.
    :ivar breaks: the proof obligations (``palast prove``) that end in a counterexample
        under every ruleset taking this reading, each with why: ``(obligation, because)``.
    """

    id: str
    statement: str
    third_party: tuple[str, ...] = ()
    words: str = ""
    breaks: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class VariationPoint:
    """A place where the sources differ or are silent; see ``spec/variation_points.yaml``."""

    id: str
    topic: str
    kind: str
    parameter: str | None
    changes_outcome: str
    sides: Mapping[str, Mapping[str, Any]]
    readings: tuple[Reading, ...]
    choices: Mapping[str, str]
    reason: str
    witness: str | None
    raw: Mapping[str, Any]
    third_party: tuple[tuple[str, str], ...] = ()
    component: bool = False
    note: str = ""

    @property
    def rulesets_differ(self) -> bool:
        """True if the rulesets do not all take the same reading (``open`` counts as one)."""
        return len(set(self.choices.values())) > 1

    def reading(self, reading_id: str) -> Reading:
        """Return the reading ``reading_id``; :raises KeyError: if there is none."""
        for r in self.readings:
            if r.id == reading_id:
                return r
        raise KeyError(reading_id)

    def clauses(self) -> tuple[str, ...]:
        """All clause ids either side cites, A's first."""
        out: list[str] = []
        for side in ("A", "B"):
            for c in self.sides[side]["clauses"]:
                if c not in out:
                    out.append(c)
        return tuple(out)


@dataclass(frozen=True)
class RoleAction:
    """What a role does: its action kind, its choices and its rules. Whether a card of it
    may be played while it is banned is no flag of the role: the rules say it (king.jester),
    and :attr:`palast.engine.Game.playable_when_banned` reads it off them."""

    role: str
    action: str
    choices: tuple[Mapping[str, str], ...]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Lemma:
    """A strengthening lemma declared beside an invariant whose proof needs it.

    :ivar id: its id (unique among invariants and lemmas).
    :ivar statement: what it says, in words.
    :ivar holds: the rule-language expression that is true in every position.
    :ivar colours: a further expression, true in every position, that speaks of the cards'
        colours (the colour of a card, a neutral card): evaluated with :attr:`holds`
        wherever the lemma is; the card-level proofs assume it and the obligation
        ``LEMMA.colours`` proves it at the card level, since the role-level model forgets
        colours. ``None`` when the lemma has no such part.
    """

    id: str
    statement: str
    holds: str
    colours: str | None = None


@dataclass(frozen=True)
class RoundsBefore:
    """Rounds a witness search finds one by one before its last search
    (``rounds_before`` of a witness).

    :ivar reaches: the rule-language condition on the position that ends each round.
    :ivar until: the condition on a position that stops the rounds.
    :ivar max_steps: the search bound of each round, in actions.
    """

    reaches: str
    until: str
    max_steps: int


@dataclass(frozen=True)
class ReachWitness:
    """A stored game that answers a reachability question (one of its ``witnesses``).

    :ivar title: the scenario's title.
    :ivar ruleset: the ruleset whose Z3 transition the search uses.
    :ivar rulesets: the rulesets the engine replays it under, where it answers the question
        (when the declaration names none: every ruleset of the spec as loaded).
    :ivar players: the player count.
    :ivar max_steps: the search bound, in actions.
    :ivar file: its file name in ``proofs/witnesses/``.
    :ivar min_steps: the shortest game the search tries.
    :ivar deep: search each length on its own (``proofs.search.find_path``).
    :ivar alike: search only games its rulesets play alike (every action but the one
        that reaches the position asked about has the same result under each).
    :ivar sketch: the decision names each action of the last search answers, in order
        (empty: no guide).
    :ivar rounds_before: rounds searched one by one before the last search, or ``None``.
    :ivar every: True when the declaration names no ``rulesets``: the question is then asked
        under every ruleset, house rulesets included (where no witness answers it, Z3 alone).
    """

    title: str
    ruleset: str
    rulesets: tuple[str, ...]
    players: int
    max_steps: int
    file: str
    min_steps: int = 1
    deep: bool = False
    alike: bool = False
    sketch: tuple[str, ...] = ()
    rounds_before: RoundsBefore | None = None
    every: bool = True


@dataclass(frozen=True)
class Reachability:
    """A question whether some position is ever reached in a game from a real deal
    (``reachability`` in ``spec/invariants.yaml``), answered by ``palast prove``: whether
    an action fires one of the rules ``fires`` and reaches a position where ``reaches``
    holds (each part optional, not both).

    :ivar id: the obligation's name.
    :ivar question: the question, in a sentence.
    :ivar statement: the answer in words, and why.
    :ivar clauses: the clause ids it rests on.
    :ivar fires: the rule ids asked about (empty: any action).
    :ivar reaches: the rule-language condition on the position reached (``old(...)`` reads
        the one before the action), or ``None``.
    :ivar expect: ``no-such-state`` (no action does it) or ``witness`` (a stored game shows
        one), under the spec's rulesets.
    :ivar witnesses: for ``witness``: the stored games, each with its rulesets and search.
    """

    id: str
    question: str
    statement: str
    clauses: tuple[str, ...]
    fires: tuple[str, ...]
    expect: str
    reaches: str | None = None
    witnesses: tuple[ReachWitness, ...] = ()

    def asked_under(self, spec_rulesets: Iterable[str]) -> tuple[str, ...]:
        """The rulesets of ``spec_rulesets`` the question is asked under: every one, unless
        each of its witnesses names its rulesets; then those they name."""
        if not self.witnesses or any(w.every for w in self.witnesses):
            return tuple(spec_rulesets)
        named = {r for w in self.witnesses for r in w.rulesets}
        return tuple(r for r in spec_rulesets if r in named)

    def witness_for(self, ruleset: str) -> ReachWitness | None:
        """The witness that answers the question under ``ruleset``, if any."""
        return next((w for w in self.witnesses if ruleset in w.rulesets), None)


@dataclass(frozen=True)
class Invariant:
    """A declared invariant: id, kind (``state`` or ``step``), statement, clauses, and for a
    state invariant the expression ``holds`` (rule language) and its ``lemmas``."""

    id: str
    kind: str
    statement: str
    clauses: tuple[str, ...]
    established_by: Mapping[str, Any]
    holds: str | None = None
    lemmas: tuple[Lemma, ...] = ()
    let: Mapping[str, str] = field(default_factory=dict)
    #: names that depend on a variation point's reading: ``point`` and, per reading (and
    #: ``open``), ``{"let": {name: expression}}``
    readings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    """Everything in ``spec/``, validated and cross-checked.

    Sequences keep file order: the engine numbers roles and colours by it.
    """

    root: Path
    sources: Mapping[str, Mapping[str, Any]]
    clauses: Mapping[str, Clause]
    third_party: Mapping[str, Mapping[str, Any]]
    game: Mapping[str, Any]
    roles: tuple[str, ...]
    role_names: Mapping[str, Mapping[str, Any]]
    role_aliases: Mapping[str, str]
    player_colours: tuple[str, ...]
    neutral_colour: str
    colour_aliases: Mapping[str, str]
    role_actions: Mapping[str, RoleAction]
    rules: Mapping[str, Rule]
    variation_points: Mapping[str, VariationPoint]
    rulesets: Mapping[str, Mapping[str, Any]]
    default_ruleset: str
    invariants: Mapping[str, Invariant]
    documents: Mapping[str, Document] = field(repr=False)
    #: who sees what (``spec/visibility.yaml``)
    visibility: Visibility = field(repr=False, default=Visibility((), {}, {}))
    #: the named house rulesets of ``spec/rulesets.yaml`` (``house``), by id; none of them is
    #: in ``rulesets`` until :func:`palast.formats.house.resolve` adds it (:mod:`palast.spec.house_rulesets`)
    house_rulesets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: the turn and the round as a state machine over decisions (``spec/flow.yaml`` and the
    #: roles' choices; :mod:`palast.spec.flow`)
    flow: Flow = field(repr=False, default_factory=Flow)
    #: the rule modules of ``spec/modules/`` by id (:mod:`palast.spec.modules`)
    modules: Mapping[str, Module] = field(default_factory=dict)
    #: the position: zones, counters and what the machinery keeps (``spec/state.yaml``;
    #: :mod:`palast.spec.state`)
    state: StateDecl = field(repr=False, default_factory=StateDecl)
    #: the reachability questions of ``spec/invariants.yaml``, by id
    reachability: Mapping[str, Reachability] = field(default_factory=dict)

    # -- numbers -----------------------------------------------------------------
    @property
    def min_players(self) -> int:
        """Fewest players the game allows (A.meta, B.meta)."""
        return int(self.game["players"]["min"])

    @property
    def max_players(self) -> int:
        """Most players the game allows (A.meta, B.meta)."""
        return int(self.game["players"]["max"])

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player every round."""
        return int(self.game["hand_size"]["value"])

    @property
    def six(self) -> int:
        """Different roles in one display that end a round."""
        return int(self.game["six"]["distinct_roles"])

    @property
    def per_colour(self) -> int:
        """Cards of each role a seated colour brings."""
        return int(self.game["cards"]["per_player_colour_per_role"])

    @property
    def neutral_per_role(self) -> int:
        """Neutral cards of each role."""
        return int(self.game["cards"]["neutral_per_role"])

    @property
    def king_roles(self) -> tuple[str, ...]:
        """The roles named by the King cards, one card each."""
        return tuple(self.game["king_cards"]["roles"])

    def target(self, players: int) -> int:
        """The score that ends a game of ``players`` players; :raises KeyError: otherwise."""
        return int(self.game["targets"]["by_players"][players])

    def reading(self, ruleset: str, point: str) -> str:
        """The reading id ``ruleset`` takes for variation point ``point`` (or ``"open"``)."""
        return self.variation_points[point].choices[ruleset]

    def rule_clauses(self, rule_id: str, ruleset: str) -> tuple[str, ...]:
        """The clause ids rule ``rule_id`` rests on under ``ruleset``.

        A rule that depends on variation points cites, under a ruleset, only the clauses of
        the sources that read those points as the ruleset does: a source side whose reading
        differs (or that is silent) while the ruleset takes a reading loses its clauses for
        that rule, so an event never cites a passage that says otherwise. Where the ruleset
        leaves a point open every clause stays. If nothing would remain, all are kept.

        A rule of a rule module (``spec/modules/``) keeps the module's own clauses under a
        ruleset that switches the module on: they are the passage that declares what the
        rule carries out, not one that says otherwise, though the module's switch reads
        ``off`` on the source's side (the module is optional there) and its gaps are silent
        there.

        :raises KeyError: for an unknown rule or ruleset.
        """
        rule = self.rules[rule_id]
        keep = {c for m in self.modules.values() if rule_id in m.rules
                and self.variation_points[m.point].choices[ruleset] == m.reading for c in m.clauses}
        drop: set[str] = set()
        for point in rule.variation_points:
            vp = self.variation_points[point]
            choice = vp.choices[ruleset]
            if choice == OPEN:
                continue
            for side in ("A", "B"):
                if vp.sides[side]["reading"] != choice:
                    drop.update(vp.sides[side]["clauses"])
        kept = tuple(c for c in rule.clauses if c not in drop - keep)
        return kept or rule.clauses

    def cite(self, clause_ids: tuple[str, ...] | list[str]) -> str:
        """Render clause ids with source letter and line range (``A.play.turn (A 38–39)``),
        separated by ``"; "``."""
        return "; ".join(self.clauses[c].cite for c in clause_ids)
