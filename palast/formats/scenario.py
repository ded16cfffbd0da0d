"""Scenario files: a position and, optionally, actions to apply (README, "Scenario files").

:func:`load_scenario` reads and validates a file and returns a :class:`Scenario`;
:meth:`Scenario.position` builds the :class:`~palast.engine.state.State` for one ruleset's
:class:`~palast.engine.game.Game` and applies the scenario's actions;
:func:`palast.formats.scenario_dump.dump_scenario` writes any state back as a scenario.
Every problem with a file is reported at once, each with its line, column and key path.

What a scenario leaves out is filled in as follows (and only there):

* a missing hand or display is empty; ``scores``, ``tally`` default to 0; ``round`` to 1;
* ``played`` (cards each player played this round) defaults to the display's size;
* ``deck`` as a count: that many cards of unknown identity, drawn from the cards the
  scenario does not place; ``deck`` omitted: all cards it does not place, order unknown;
* ``king_deck`` as a count: that many unknown King cards; omitted: every King card not in
  force and not in ``king_spent``, order unknown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from palast.engine import start_turn
from palast.engine.actions import Action
from palast.engine.game import Game, Step
from palast.engine.state import Decision, DecisionKind, State
from palast.errors import IllegalActionError, InputError, NotationError, ScenarioError
from palast.formats.house import JOIN, known, own_rulesets, parse_name, resolve_all
from palast.spec.cards import Cards
from palast.spec.load import Spec
from palast.spec.yamlio import Document, PathPart, data_at, format_path, parse_yaml, read_yaml

#: The scenario key to point at when a state invariant fails on a scenario's position.

def _claim(game: Game, invariant: str) -> str:
    """The first sentence of ``invariant``'s statement in ``spec/invariants.yaml``, without
    its full stop: what a position breaking it fails to be, in words."""
    return game.spec.invariants[invariant].statement.split(". ")[0].rstrip(".")

_INVARIANT_KEYS: dict[str, str] = {
    "card-conservation": "hands", "no-repeated-role": "displays", "display-below-six": "displays",
    "banned-role": "banned", "game-ends-at-target": "scores", "player-can-act": "to_move",
    "round-is-bounded": "played", "round-end-cause": "displays",
}


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. Cards are ints, players colour indices (see :mod:`palast.spec.cards`).

    :ivar file: the file it came from (for messages).
    :ivar players: seated colour indices, in seat order.
    :ivar rulesets: the rulesets to ask about.
    :ivar actions: the actions to apply, in notation, with the place of each in the file.
    """

    file: str
    players: tuple[int, ...]
    rulesets: tuple[str, ...]
    to_move: int
    hands: tuple[tuple[int, ...], ...]
    displays: tuple[tuple[int, ...], ...]
    deck: int | tuple[int, ...] | None
    discard: tuple[int, ...]
    banned: int
    king_deck: int | tuple[int, ...] | None
    king_spent: tuple[int, ...]
    scores: tuple[int, ...]
    played: tuple[int, ...]
    tally: tuple[int, ...]
    round: int
    actions: tuple[tuple[str, str], ...]
    marks: tuple[int, ...] = ()
    title: str = ""
    question: str = ""
    note: str = ""
    document: Document | None = field(default=None, repr=False, compare=False)
    base: tuple[PathPart, ...] = field(default=(), repr=False, compare=False)

    def game(self, spec: Spec, ruleset: str, *, check: bool = False) -> Game:
        """The :class:`Game` of this scenario's seats under ``ruleset`` (a house ruleset
        that ``spec`` does not have yet is added, :func:`palast.formats.house.resolve_all`)."""
        if ruleset not in spec.rulesets:
            spec = resolve_all(spec, [ruleset])
        return Game(spec, ruleset, self.players, check=check)

    def start(self, game: Game) -> State:
        """The scenario's position before its actions, for ``game``.

        :raises ScenarioError: if the position breaks an invariant of the spec.
        """
        placed: Counter[int] = Counter()
        for h in self.hands:
            placed.update(h)
        for disp in self.displays:
            placed.update(disp)
        placed.update(self.discard)
        known_deck: tuple[int, ...] = self.deck if isinstance(self.deck, tuple) else ()
        placed.update(known_deck)
        rest = game.composition - placed
        unseen = tuple(sorted(rest.elements()))
        if isinstance(self.deck, int):
            hidden = self.deck
        elif self.deck is None:
            hidden = len(unseen)
        else:
            hidden = 0
        kings_rest = Counter(game.king_roles)
        kings_rest.subtract([self.banned] if self.banned >= 0 else [])
        kings_rest.subtract(self.king_spent)
        known_kings: tuple[int, ...] = self.king_deck if isinstance(self.king_deck, tuple) else ()
        kings_rest.subtract(known_kings)
        king_unseen = tuple(sorted(kings_rest.elements()))
        if isinstance(self.king_deck, int):
            king_hidden = self.king_deck
        elif self.king_deck is None:
            king_hidden = len(king_unseen)
        else:
            king_hidden = 0
        base = State(
            hands=tuple(tuple(sorted(h)) for h in self.hands), displays=self.displays, deck=known_deck,
            deck_hidden=hidden, deck_bottom=(), unseen=unseen, discard=self.discard, king_deck=known_kings,
            king_hidden=king_hidden, king_unseen=king_unseen, king_in_force=self.banned,
            king_spent=self.king_spent, scores=self.scores, played=self.played, tally=self.tally,
            round=self.round, actor=self.to_move, last_card=-1, decision=Decision(DecisionKind.PLAY, self.to_move),
            marks=self.marks,
        )
        state = start_turn(game, base, self.to_move)
        from palast.invariants.check import state_problems

        problems = state_problems(game, state)
        if problems:
            first = problems[0][0]
            key = _INVARIANT_KEYS.get(first)
            place = self.document.place([*self.base, key]) if self.document is not None and key else None
            raise ScenarioError("the position is impossible: " + "; ".join(
                f"{_claim(game, i)} ({i}); here {m}" for i, m in problems), self.file, place)
        return state

    def position(self, game: Game) -> tuple[State, list[tuple[str, Step]]]:
        """Build the position for ``game`` and apply the scenario's actions.

        :returns: the final state and, for each action applied, its notation and step.
        :raises ScenarioError: if an action cannot be read or is illegal where it stands,
            naming the action's place in the file and the reason with clause ids.
        """
        from palast.formats.notation import parse_action

        state = self.start(game)
        steps: list[tuple[str, Step]] = []
        for i, (text, place) in enumerate(self.actions):
            try:
                action: Action = parse_action(game, text)
                step = game.apply(state, action)
            except NotationError as exc:
                raise ScenarioError(exc.message, self.file, place) from None
            except IllegalActionError as exc:
                raise ScenarioError(f"action {i + 1} ({text!r}) is illegal under {game.ruleset}: {exc}",
                                    self.file, place) from None
            steps.append((text, step))
            state = step.state
        return state, steps


def _schema_problems(doc: Document, spec: Spec, base: tuple[PathPart, ...]) -> list[str]:
    """The schema's problems with the scenario at ``base`` in ``doc``, each as ``place: problem``.

    A scenario whose very data passed the same schemas and validating code before is not
    validated again (:func:`palast.spec.stamp.input_key`, as the spec's own stamp).
    """
    from palast.spec import stamp

    data: Any = doc.data
    for k in base:
        if isinstance(data, list) and isinstance(k, int):
            data = data[k]
        else:
            data = data.get(k) if isinstance(data, dict) else None
    key = stamp.input_key("scenario", data, spec.root / "schema")
    if key is not None and stamp.input_is_valid(key):
        return []
    from palast.spec.schemas import schema_errors

    out = [p.split(": ", 1)[1] if p.startswith(doc.file + ": ") else p
           for p in schema_errors(doc, spec.root / "schema", "scenario.schema.json", base)]
    if not out and key is not None:
        stamp.mark_input_valid(key)
    return out


def load_scenario(path: Path | str, spec: Spec) -> Scenario:
    """Read and validate a scenario file.

    :param path: the YAML file.
    :param spec: the spec (colours, roles, card counts, targets, rulesets).
    :returns: the :class:`Scenario`.
    :raises InputError: for a missing, unreadable or malformed file.
    :raises ScenarioError: listing every problem: unknown roles or colours, unseated
        players, more copies of a card than the game has, impossible positions.
    """
    return scenario_from_document(read_yaml(path), spec)


def parse_scenario(text: str, spec: Spec, file: str = "<scenario>") -> Scenario:
    """Like :func:`load_scenario`, from YAML text."""
    return scenario_from_document(parse_yaml(text, file), spec)


def scenario_from_document(doc: Document, spec: Spec, base: tuple[PathPart, ...] = ()) -> Scenario:
    """Validate a parsed scenario (or the scenario inside a ruling at key path ``base``).

    :raises ScenarioError: listing every problem found.
    """
    data: Any = data_at(doc.data, base)
    if not isinstance(data, dict):
        empty = "the file holds no YAML value (it is empty or only comments); " if doc.root is None else ""
        raise ScenarioError(empty + "a scenario must be a mapping with at least 'players' and 'to_move'",
                            doc.file, doc.place(list(base)))
    problems = _schema_problems(doc, spec, base)
    players = data.get("players")
    if "to_move" not in data and isinstance(players, list) and players and all(isinstance(x, str) for x in players):
        problems = [f"{p} (one of the players: {', '.join(players)})" if "missing key 'to_move'" in p else p
                    for p in problems]
    if problems:
        raise ScenarioError(join_problems(problems), doc.file)
    return _Builder(doc, spec, data, base).build()


#: Words people write for "no King card in force"; YAML reads only ``null`` or ``~`` as nothing.
_NO_ROLE = frozenset({"none", "null", "nothing", "no", "-", "nil"})

def _first_card(text: str) -> str:
    """The first card written in ``text`` (a piece of a split action), for an example."""
    for t in text.replace(":", " ").replace(",", " ").split():
        if "/" in t:
            return t
    return text.strip()


#: The most problems a message lists; the rest are counted.
MAX_SHOWN = 30


def join_problems(problems: list[str]) -> str:
    """``problems`` (each ``place: problem``, without the file) as one message: the one
    problem, or ``N problems:`` and one indented line each (at most :data:`MAX_SHOWN`, the
    rest counted); the error that carries it names the file."""
    if len(problems) == 1:
        return problems[0]
    shown = problems[:MAX_SHOWN]
    more = f"\n  ... and {len(problems) - MAX_SHOWN} more" if len(problems) > MAX_SHOWN else ""
    return f"{len(problems)} problems:\n  - " + "\n  - ".join(shown) + more


class _Builder:
    """Checks a schema-valid scenario and builds the :class:`Scenario`, collecting every
    problem before reporting."""

    def __init__(self, doc: Document, spec: Spec, data: dict[str, Any], base: tuple[PathPart, ...]) -> None:
        self.doc = doc
        self.spec = spec
        self.data = data
        self.base = base
        self.cards = Cards.from_spec(spec)
        self.problems: list[str] = []
        #: card -> the key paths it was placed at (hands, displays, discard, deck), in file order
        self.where: dict[int, list[list[PathPart]]] = {}
        #: the most cards any game of the spec has; a longer card list cannot be a position
        self.max_cards = len(spec.roles) * (spec.max_players * spec.per_colour + spec.neutral_per_role)
        #: (per-player field, seat) -> the key naming that seat as the file writes it
        self._written: dict[tuple[str, int], Any] = {}

    def fits(self, path: list[PathPart], items: Any, limit: int, what: str) -> Any:
        """``items`` if it holds at most ``limit`` entries; else report that and return an
        empty list (each entry is not read: a list of thousands is not a position)."""
        if len(items) <= limit:
            return items
        self.err(path, f"{len(items)} {what}; there are at most {limit}")
        return []

    def err(self, path: list[PathPart], message: str) -> None:
        self.problems.append(f"{self.doc.place(list(self.base) + path)}: {message}")

    def colour(self, path: list[PathPart], text: str) -> int | None:
        try:
            return self.cards.parse_colour(text, neutral_ok=False)
        except NotationError as exc:
            self.err(path, exc.message)
            return None

    def card(self, path: list[PathPart], text: str) -> int | None:
        try:
            return self.cards.parse_card(text)
        except NotationError as exc:
            self.err(path, exc.message)
            return None

    def role(self, path: list[PathPart], text: str) -> int | None:
        try:
            return self.cards.parse_role(text)
        except NotationError as exc:
            self.err(path, exc.message)
            return None

    def card_list(self, path: list[PathPart], items: list[str]) -> tuple[int, ...]:
        out = []
        for i, t in enumerate(self.fits(path, items, self.max_cards, "cards listed")):
            c = self.card([*path, i], t)
            if c is not None:
                out.append(c)
                self.where.setdefault(c, []).append([*path, i])
        return tuple(out)

    def per_player(self, key: str, seats: dict[int, int]) -> dict[int, Any]:
        out: dict[int, Any] = {}
        given: dict[int, str] = {}
        mapping = self.data.get(key) or {}
        for name in self.fits([key], list(mapping), self.spec.max_players, "players named"):
            value = mapping[name]
            c = self.colour([key, name], str(name))
            if c is None:
                continue
            if c not in seats:
                self.err([key, name], f"{name} is not seated (players: {', '.join(self.data['players'])})")
                continue
            if seats[c] in given:
                self.err([key, name], f"{name} is given twice in {key} (also as {given[seats[c]]!r})")
                continue
            given[seats[c]] = str(name)
            self._written[key, seats[c]] = name
            out[seats[c]] = value
        return out

    def build(self) -> Scenario:
        spec, data, cards = self.spec, self.data, self.cards
        # players
        players: list[int] = []
        for i, name in enumerate(self.fits(["players"], data["players"], 2 * spec.max_players, "players seated")):
            c = self.colour(["players", i], name)
            if c is not None:
                if c in players:
                    self.err(["players", i], f"{name} is seated twice")
                players.append(c)
        n = len(data["players"])
        if not spec.min_players <= n <= spec.max_players:
            self.err(["players"], f"{n} players; the game is for {spec.min_players} to {spec.max_players}")
        seats = {c: i for i, c in enumerate(players)}
        rulesets = tuple(data.get("rulesets") or own_rulesets(spec))
        for i, r in enumerate(rulesets):
            if r not in spec.rulesets and r not in spec.house_rulesets:
                if JOIN not in r:
                    self.err(["rulesets", i], f"unknown ruleset {r!r} (known: {', '.join(known(spec))})")
                    continue
                try:
                    parse_name(spec, r, None)
                except InputError as exc:
                    self.err(["rulesets", i], exc.message)
        to_move = self.colour(["to_move"], data["to_move"])
        if to_move is not None and to_move not in seats:
            self.err(["to_move"], f"{data['to_move']} is not seated (players: {', '.join(data['players'])})")
        hands_raw = self.per_player("hands", seats)
        displays_raw = self.per_player("displays", seats)
        hands = [self.card_list(["hands", self._key("hands", s)], hands_raw.get(s) or []) for s in range(len(players))]
        displays = [self.card_list(["displays", self._key("displays", s)], displays_raw.get(s) or [])
                    for s in range(len(players))]
        discard = self.card_list(["discard"], data.get("discard") or [])
        deck_raw = data.get("deck")
        deck: int | tuple[int, ...] | None = (self.card_list(["deck"], deck_raw) if isinstance(deck_raw, list)
                                               else deck_raw)
        # colours seated, copies available
        composition = cards.composition(players)
        placed: Counter[int] = Counter()
        for zone in [*hands, *displays, discard, deck if isinstance(deck, tuple) else ()]:
            placed.update(zone)
        seated = ", ".join(str(p) for p in data["players"])
        for c, k in sorted(placed.items()):
            colour = cards.colour_of(c)
            paths = self.where.get(c) or [[]]
            if colour != cards.neutral and colour not in seats:
                self.err(paths[0], f"{cards.format_card(c)} belongs to {cards.colours[colour]}, who is not seated "
                                   f"(players: {seated}); only the seated colours' cards and the "
                                   f"{cards.colours[cards.neutral]} cards are in the game")
            elif k > composition[c]:
                self.err(paths[min(composition[c], len(paths) - 1)],
                         f"{cards.format_card(c)} appears {k} times ({', '.join(format_path(q) for q in paths)}); "
                         f"a game of these colours has {composition[c]}")
        unplaced = sum(composition.values()) - sum(min(k, composition[c]) for c, k in placed.items())
        if isinstance(deck, int) and deck > unplaced:
            self.err(["deck"], f"a deck of {deck} cards, but only {unplaced} cards are not placed elsewhere")
        # displays and hands
        six = spec.six
        for s in range(len(players)):
            disp = displays[s]
            roles = [cards.role_of(c) for c in disp]
            name = self._name(s)
            if len(set(roles)) < len(roles):
                self.err(["displays", self._key("displays", s)],
                         f"{name}'s display repeats a role; in a running round that ends the round at once (a whisper)")
            elif len(disp) >= six:
                self.err(["displays", self._key("displays", s)],
                         f"{name}'s display holds {len(disp)} different roles; {six} different roles end the round "
                         "at once")
            if len(hands[s]) + len(disp) > spec.hand_size:
                self.err(["hands", self._key("hands", s)],
                         f"{name} holds {len(hands[s])} cards in hand and {len(disp)} displayed; hand plus display is "
                         f"at most {spec.hand_size}")
        # King cards
        king_roles = [spec.roles.index(r) for r in spec.king_roles]
        kings = f"King cards: {', '.join(spec.king_roles)}"
        banned = -1
        if isinstance(data.get("banned"), str) and data["banned"].strip().lower() in _NO_ROLE:
            self.err(["banned"], f"{data['banned']!r} is not a role; when no King card is in force write "
                                 "banned: null (or leave banned out)")
        elif data.get("banned") is not None:
            b = self.role(["banned"], data["banned"])
            if b is not None:
                if b not in king_roles:
                    self.err(["banned"], f"no King card bans the {spec.roles[b]} ({kings})")
                else:
                    banned = b
        nk = len(king_roles)
        spent_raw = self.fits(["king_spent"], data.get("king_spent") or [], nk, "King cards listed")
        spent = tuple(r for i, t in enumerate(spent_raw) if (r := self.role(["king_spent", i], t)) is not None)
        kd_raw = data.get("king_deck")
        if isinstance(kd_raw, list):
            kd_raw = self.fits(["king_deck"], kd_raw, nk, "King cards listed")
        king_deck: int | tuple[int, ...] | None
        if isinstance(kd_raw, list):
            king_deck = tuple(r for i, t in enumerate(kd_raw) if (r := self.role(["king_deck", i], t)) is not None)
        else:
            king_deck = kd_raw
        # every King card placed, with where: the one in force, the spent ones, the King deck's
        placed_kings: list[tuple[list[PathPart], str, int]] = [(["banned"], "in force (banned)", banned)] \
            if banned >= 0 else []
        placed_kings += [(["king_spent", i], "spent", r) for i, t in enumerate(spent_raw)
                         if (r := self._role_quiet(t)) is not None]
        if isinstance(kd_raw, list):
            placed_kings += [(["king_deck", i], "in the King deck", r) for i, t in enumerate(kd_raw)
                             if (r := self._role_quiet(t)) is not None]
        first: dict[int, str] = {}
        for path, king_zone, r in placed_kings:
            if r not in king_roles:
                self.err(path, f"there is no King card of the {spec.roles[r]} ({kings})")
            elif r in first:
                self.err(path, f"the King card of the {spec.roles[r]} is already {first[r]}; there is one")
            else:
                first[r] = king_zone
        free = len(king_roles) - len([r for r in first if r in king_roles])
        if isinstance(king_deck, int) and king_deck > free:
            used_kings = len(king_roles) - free
            self.err(["king_deck"], f"a King deck of {king_deck} cards, but only {free} King cards are left "
                                    f"when {used_kings} {'is' if used_kings == 1 else 'are'} in force or spent")
        # scores and counts
        scores_raw = self.per_player("scores", seats)
        scores = tuple(int(scores_raw.get(s, 0)) for s in range(len(players)))
        if n and spec.min_players <= n <= spec.max_players:
            target = spec.target(n)
            for s, v in enumerate(scores):
                if v >= target:
                    self.err(["scores", self._key("scores", s)],
                             f"a score of {v} has reached the target {target} for {n} players, so the game would be "
                             "over")
        played_raw = self.per_player("played", seats)
        played = tuple(int(played_raw.get(s, len(displays[s]))) for s in range(len(players)))
        for s in range(len(players)):
            if played[s] < len(displays[s]) - 0 and played_raw.get(s) is not None:
                self.err(["played", self._key("played", s)], f"{self._name(s)} played {played[s]} cards this round but "
                                                    f"displays {len(displays[s])}; a Cupbearer swap keeps counts "
                                                    "equal, so played is at least the display size")
        tally_raw = self.per_player("tally", seats)
        tally = tuple(int(tally_raw.get(s, 0)) for s in range(len(players)))
        marks = self.marks(seats, len(players))
        actions = tuple((str(a), self.doc.place([*self.base, "actions", i]))
                        for i, a in enumerate(data.get("actions") or []))
        self.check_split_actions([str(a) for a in data.get("actions") or []])
        if self.problems:
            raise ScenarioError(join_problems(self.problems), self.doc.file)
        assert to_move is not None
        return Scenario(
            file=self.doc.file, players=tuple(players), rulesets=rulesets, to_move=seats[to_move],
            hands=tuple(hands), displays=tuple(displays), deck=deck, discard=discard, banned=banned,
            king_deck=king_deck, king_spent=spent, scores=scores, played=played, tally=tally,
            round=int(data.get("round", 1)), actions=actions, title=str(data.get("title", "")),
            question=str(data.get("question", "")), note=str(data.get("note", "")), document=self.doc,
            base=self.base, marks=marks,
        )

    def marks(self, seats: dict[int, int], n: int) -> tuple[int, ...]:
        """The ``marks:`` key: every seat's mark colour in seat order, or ``()`` when absent
        (errors recorded: a colour given twice, an unknown colour, a seat left out)."""
        if not self.data.get("marks"):
            return ()
        raw = self.per_player("marks", seats)
        out: dict[int, int] = {}
        for s, name in sorted(raw.items()):
            c = self.colour(["marks", self._written["marks", s]], str(name))
            if c is None:
                continue
            if c in out.values():
                self.err(["marks", self._written["marks", s]], f"the mark {name} is given twice; each character card "
                                                               "is dealt once")
            else:
                out[s] = c
        missing = [self._name(s) for s in range(n) if s not in raw]
        if missing:
            self.err(["marks"], f"marks are given to some players but not to {', '.join(missing)}; give every "
                                "seated player one, or none")
        return tuple(out.get(s, -1) for s in range(n))

    def check_split_actions(self, actions: list[str]) -> None:
        """Report entries of ``actions`` that are cards rather than actions: most often the
        rest of a ``give``/``deal`` whose cards YAML split at a comma in a ``[...]`` list,
        which must then be quoted. Other unreadable actions are reported when applied."""
        verbs = self.spec.flow.verbs()
        listing = self.spec.flow.verbs("cards", "deal")  # the values written with commas

        def verb(text: str) -> str:
            return text.strip().split(" ", 1)[0].lower()

        def cards_only(text: str) -> bool:
            items = [t for t in text.replace(":", ",").replace(" ", ",").split(",") if t.strip()]
            if not items:
                return False
            for t in items:
                try:
                    self.cards.parse_card(t)
                except NotationError:
                    if "/" in t or t.lower() in ("deck", *self.cards.colours):
                        continue
                    return False
            return any("/" in t for t in items)

        start: int | None = None  # the entry the split pieces since the last verb belong to
        covered = -1  # pieces up to here are named in the message about a split action
        for i, text in enumerate(actions):
            if i <= covered:
                continue
            if verb(text) in verbs:
                start = i
                continue
            if not cards_only(text):
                start = None
                continue
            if start is not None and verb(actions[start]) in listing:
                j = i
                while j + 1 < len(actions) and verb(actions[j + 1]) not in verbs and cards_only(actions[j + 1]):
                    j += 1
                joined = ",".join(a.strip() for a in actions[start:j + 1])
                self.err(["actions", i], f"{text!r} is not an action: YAML splits a [...] list at every comma, "
                                         f"so it cut {joined!r} after {actions[start].strip()!r}; put that "
                                         f"action in quotes: \"{joined}\"")
                start, covered = None, j
            else:
                comma = " or ".join(f"{v} CARD,CARD" for v in self.spec.flow.verbs("cards"))
                self.err(["actions", i], f"{text!r} is a card, not an action; an action starts with one of: "
                                         f"{', '.join(verbs)} (e.g. '{verbs[0]} {_first_card(text)}'); an action "
                                         f"holding a comma ({comma}) must be put in quotes inside a [...] list")

    def _name(self, seat: int) -> str:
        return str(self.data["players"][seat])

    def _key(self, field: str, seat: int) -> str:
        """The key naming ``seat`` in the per-player mapping ``field`` as the file writes it
        (``Red`` for red, say), so that messages point at it; else the seated name."""
        return str(self._written.get((field, seat), self._name(seat)))

    def _role_quiet(self, text: str) -> int | None:
        """The role ``text`` names, or ``None`` (the problem is reported where it is read)."""
        try:
            return self.cards.parse_role(text)
        except NotationError:
            return None
