"""A position in one line: the scenario notation of ``palast ask 'LINE'`` (like FEN in chess).

A line is a scenario without its texts (title, question, note): sections separated by ``;``,
then optionally actions, each after a ``>``::

    red* 0 jester/grey | guard/red,wizard/grey; blue 2 maid/blue | guard/blue; green 1;
        round 3; deck 15; discard marshal/grey; banned jester; king_deck 3; king_spent maid,guard
        > play jester/grey

* A **player section** is ``COLOUR[*] [SCORE] [HAND] [| DISPLAY] [played N] [tally N] [mark COLOUR]``: the
  player sections in seat order are the scenario's ``players``; ``*`` marks the player to
  move (``to_move``, exactly one); ``SCORE`` is 0 if left out; ``HAND`` and ``DISPLAY`` are
  cards in the card notation (``role/colour``), separated by commas or spaces; ``played``
  and ``tally`` as in a scenario file (default: the display's size, 0); ``mark`` the
  player's character card under a rule module (a scenario file's ``marks``).
* Every other section is ``KEY VALUE`` with a key of a scenario file: ``round N``,
  ``deck N | CARDS | -``, ``discard CARDS``, ``banned ROLE``, ``king_deck N | ROLES | -``,
  ``king_spent ROLES``, ``rulesets RULESET,...``; ``-`` is an empty list (``deck -``: a
  draw deck listed and empty, where ``deck 0`` counts it). A key left out has the default
  of a scenario file.
* Each ``> ACTION`` is one action in the action notation (:mod:`palast.formats.notation`), applied
  in order.

Names (colours, roles, keys, action verbs) are read in any case; :func:`format_position`
writes lower case, players first in seat order, then the keys in the order above, leaving
out what has its default. :func:`parse_position` and :func:`format_position` are inverse:
a line read and written again is the same line, a scenario written and read again the same
scenario (its texts aside). Every problem is reported with its column, as
:class:`~palast.errors.ScenarioError` (exit code 2), after the same checks as a scenario
file.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from palast.engine.game import Game, Step
from palast.engine.state import DecisionKind, State
from palast.errors import NotationError, ScenarioError
from palast.formats.scenario import Scenario, parse_scenario, scenario_from_document
from palast.formats.scenario_dump import dump_scenario
from palast.spec.cards import Cards
from palast.spec.load import Spec
from palast.spec.yamlio import Document, PathPart, format_path

#: The name a position line goes by in messages.
FILE = "<position>"
#: The keys of the sections after the players, in the order :func:`format_position` writes them.
KEYS = ("round", "deck", "discard", "banned", "king_deck", "king_spent", "rulesets")
#: The keys inside a player section.
PLAYER_KEYS = ("played", "tally", "mark")
#: An empty list (``deck -``: the draw deck is known to be empty).
EMPTY = "-"

_TOKEN = re.compile(r"(?P<sep>[|*])|(?P<word>[^\s|*,]+)")
_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class _LineDocument(Document):
    """A scenario read from a line: its data as a scenario file would hold it, and the
    column of each value, so that every check of :mod:`palast.formats.scenario` names a column."""

    line: str = ""
    columns: dict[tuple[PathPart, ...], int] = field(default_factory=dict)

    def place(self, path: Sequence[PathPart], column: int | None = None) -> str:
        """``"column C (hands.red[0])"`` for the value at ``path`` (or the nearest one
        written); ``column`` (within a value) is not used: a line's values are words."""
        p = tuple(path)
        col = next((self.columns[p[:k]] for k in range(len(p), 0, -1) if p[:k] in self.columns), 1)
        where = format_path(path)
        return f"column {col} ({where})" if where else f"column {col}"

    def place_key(self, path: Sequence[PathPart], key: PathPart) -> str:
        """The place of the key ``key`` in the mapping at ``path``: that of its value."""
        return self.place([*path, key])


def _error(line: str, column: int, message: str, file: str) -> ScenarioError:
    """A mistake of form at ``column`` (from 1), with the line and a caret under the place."""
    return ScenarioError(f"{message}\n    {line}\n    {' ' * (column - 1)}^", file, f"column {column}")


def _tokens(text: str, offset: int) -> list[tuple[str, int]]:
    """The words and marks (``|``, ``*``) of a section, each with its column; commas and
    spaces only separate."""
    return [(m.group(), offset + m.start() + 1) for m in _TOKEN.finditer(text)]


class _Reader:
    """Reads one line into scenario data, recording each value's column."""

    def __init__(self, text: str, spec: Spec, file: str) -> None:
        self.text = text
        self.file = file
        self.cards = Cards.from_spec(spec)
        self.data: dict[str, Any] = {"players": []}
        self.columns: dict[tuple[PathPart, ...], int] = {}
        self.seen: dict[str, int] = {}

    def fail(self, column: int, message: str) -> ScenarioError:
        return _error(self.text, column, message, self.file)

    def put(self, path: tuple[str, ...], column: int, value: Any) -> None:
        """Set ``data`` at ``path`` (creating mappings on the way) and note the column."""
        node = self.data
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
        for k in range(1, len(path) + 1):
            self.columns.setdefault(path[:k], column)

    def items(self, path: tuple[PathPart, ...], words: list[tuple[str, int]]) -> list[str]:
        """A list of names (``-`` alone: empty), each one's column noted under ``path``."""
        if len(words) == 1 and words[0][0] == EMPTY:
            return []
        for i, (_, col) in enumerate(words):
            self.columns[(*path, i)] = col
        return [w for w, _ in words]

    def number(self, key: str, words: list[tuple[str, int]], column: int) -> int:
        if len(words) != 1 or not _NUMBER.fullmatch(words[0][0]):
            got = " ".join(w for w, _ in words) or "nothing"
            raise self.fail(words[0][1] if words else column, f"{key} needs a whole number, not {got!r}")
        return int(words[0][0])

    def read(self) -> dict[str, Any]:
        head, *actions = self.text.split(">")
        offset = 0
        for part in head.split(";"):
            if part.strip():
                self.section(part, offset)
            offset += len(part) + 1
        offset = len(head)
        for i, action in enumerate(actions):
            offset += 1  # the ">"
            words = " ".join(action.split())
            column = offset + len(action) - len(action.lstrip()) + 1
            if not words:
                raise self.fail(min(column, len(self.text)), "an empty action: write an action after each '>'")
            if ";" in action:
                raise self.fail(offset + action.index(";") + 1,
                                "the position's sections come before the actions; after a '>' only actions follow")
            self.data.setdefault("actions", []).append(words)
            self.columns[("actions", i)] = column
            self.columns.setdefault(("actions",), column)
            offset += len(action)
        if not self.data["players"]:
            raise self.fail(1, "a position names its players first, in seat order, e.g. 'red* 0; blue 0; green 0'")
        if "to_move" not in self.data:
            names = ", ".join(self.data["players"])
            raise self.fail(1, f"no player is marked to move: write '*' after the colour of the player to move "
                               f"(players: {names}), e.g. '{self.data['players'][0]}*'")
        return self.data

    def section(self, text: str, offset: int) -> None:
        toks = _tokens(text, offset)
        first, column = toks[0]
        key = first.lower()
        if key in KEYS:
            if key in self.seen:
                raise self.fail(column, f"{key} is given twice (first at column {self.seen[key]})")
            self.seen[key] = column
            self.keyed(key, toks[1:], column)
            return
        try:
            self.cards.parse_colour(first)
        except NotationError:
            known = [*KEYS, *self.cards.colours[:-1]]
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(column, f"{first!r} begins no section{hint}. A section is a player (a colour: "
                                    f"{', '.join(self.cards.colours[:-1])}) or one of: {', '.join(KEYS)}") from None
        self.player(toks, column)

    def player(self, toks: list[tuple[str, int]], column: int) -> None:
        name = toks[0][0]
        seat = len(self.data["players"])
        self.data["players"].append(name)
        self.columns[("players", seat)] = column
        self.columns.setdefault(("players",), column)
        i = 1
        if i < len(toks) and toks[i][0] == "*":
            if "to_move" in self.data:
                raise self.fail(toks[i][1], f"{self.data['to_move']} is marked to move already; mark only one player "
                                                 "with *")
            self.put(("to_move",), column, name)
            i += 1
        if i < len(toks) and _NUMBER.fullmatch(toks[i][0]):
            self.put(("scores", name), toks[i][1], int(toks[i][0]))
            i += 1
        zones = ["hands"]
        lists: dict[str, list[tuple[str, int]]] = {"hands": []}
        while i < len(toks) and toks[i][0].lower() not in PLAYER_KEYS:
            word, col = toks[i]
            if word == "*":
                raise self.fail(col, "'*' marks the player to move and follows their colour, e.g. 'red*'")
            if word == "|":
                if len(zones) == 2:
                    raise self.fail(col, "a second '|': a player section holds a hand, '|', then a display")
                zones.append("displays")
                lists["displays"] = []
            else:
                lists[zones[-1]].append((word, col))
            i += 1
        for zone, words in lists.items():
            if words:
                self.put((zone, name), words[0][1], self.items((zone, name), words))
        while i < len(toks):
            word, col = toks[i]
            key = word.lower()
            if key not in PLAYER_KEYS:
                raise self.fail(col, f"{word!r} in {name}'s section: after the hand and display come only "
                                     "'played N', 'tally N' and 'mark COLOUR'")
            field = "marks" if key == "mark" else key
            if field in self.data and name in self.data[field]:
                raise self.fail(col, f"{key} is given twice for {name}")
            rest = toks[i + 1:i + 2]
            if key == "mark":  # a rule module's character card, named by its colour
                if not rest or rest[0][0] in ("*", "|"):
                    raise self.fail(col + len(word), f"mark needs a colour (the character card {name} holds)")
                self.put(("marks", name), rest[0][1], rest[0][0])
            else:
                self.put((key, name), rest[0][1] if rest else col, self.number(key, rest, col + len(word)))
            i += 2

    def keyed(self, key: str, words: list[tuple[str, int]], column: int) -> None:
        if any(w in ("*", "|") for w, _ in words):
            bad = next(c for w, c in words if w in ("*", "|"))
            raise self.fail(bad, f"'*' and '|' belong in a player section, not in {key}")
        if not words:
            raise self.fail(column + len(key), f"{key} needs a value ({_VALUES[key]})")
        value: Any
        if key == "round":
            value = self.number(key, words, column)
        elif key in ("deck", "king_deck") and len(words) == 1 and _NUMBER.fullmatch(words[0][0]):
            value = int(words[0][0])
        elif key == "banned":
            if len(words) != 1:
                raise self.fail(words[1][1], "banned names one role (the King card in force bans it)")
            value = None if words[0][0] == EMPTY else words[0][0]
        else:
            value = self.items((key,), words)
        self.put((key,), words[0][1], value)


#: What each key's value is, for messages.
_VALUES = {
    "round": "a whole number, from 1", "deck": "a count, cards top first, or - for none",
    "discard": "cards", "banned": "a role", "king_deck": "a count, roles top first, or - for none",
    "king_spent": "roles", "rulesets": "ruleset ids",
}


def parse_position(text: str, spec: Spec, file: str = FILE) -> Scenario:
    """Read a position line (see the module's description) into a :class:`Scenario`.

    :param text: the line.
    :param spec: the spec (colours, roles, card counts, rulesets).
    :param file: the name used in messages.
    :returns: the scenario, checked as :func:`palast.formats.scenario.load_scenario` checks a file.
    :raises ScenarioError: naming the column of each mistake: of form (an unknown section,
        a missing ``*``, a count that is not a number) or of content (an unknown card or
        colour, too many copies of a card, an impossible display).
    """
    line = str(text)
    if "\n" in line.strip():
        raise ScenarioError("a position is one line; a scenario of several lines is a YAML file", file)
    line = line.strip()
    if not line:
        raise ScenarioError("the position is empty; a position names its players first, e.g. "
                            "'red* 0; blue 0; green 0'", file)
    reader = _Reader(line, spec, file)
    data = reader.read()
    return scenario_from_document(_LineDocument(data, file, None, line, reader.columns), spec)


def format_position(scenario: Scenario, spec: Spec) -> str:
    """Write ``scenario`` as a position line that :func:`parse_position` reads back to the
    same scenario (title, question and note are not part of a position).

    :raises ValueError: if an action's text holds ``;`` or ``>`` (no action in the notation
        does).
    """
    cards = Cards.from_spec(spec)
    roles = cards.roles

    def cards_of(items: Sequence[int]) -> str:
        return ",".join(cards.format_card(c) for c in items) or EMPTY

    parts = []
    for s, colour in enumerate(scenario.players):
        bits = [cards.colours[colour] + ("*" if s == scenario.to_move else ""), str(scenario.scores[s])]
        if scenario.hands[s]:
            bits.append(cards_of(scenario.hands[s]))
        if scenario.displays[s]:
            bits += ["|", cards_of(scenario.displays[s])]
        if scenario.played[s] != len(scenario.displays[s]):
            bits += ["played", str(scenario.played[s])]
        if scenario.tally[s]:
            bits += ["tally", str(scenario.tally[s])]
        if scenario.marks:
            bits += ["mark", cards.colours[scenario.marks[s]]]
        parts.append(" ".join(bits))
    if scenario.round != 1:
        parts.append(f"round {scenario.round}")
    if scenario.deck is not None:
        parts.append(f"deck {scenario.deck if isinstance(scenario.deck, int) else cards_of(scenario.deck)}")
    if scenario.discard:
        parts.append(f"discard {cards_of(scenario.discard)}")
    if scenario.banned >= 0:
        parts.append(f"banned {roles[scenario.banned]}")
    kd = scenario.king_deck
    if kd is not None:
        parts.append(f"king_deck {kd if isinstance(kd, int) else ','.join(roles[r] for r in kd) or EMPTY}")
    if scenario.king_spent:
        parts.append(f"king_spent {','.join(roles[r] for r in scenario.king_spent)}")
    if tuple(scenario.rulesets) != tuple(spec.rulesets):
        parts.append(f"rulesets {','.join(scenario.rulesets)}")
    return _with_actions("; ".join(parts), [text for text, _ in scenario.actions])


def _with_actions(line: str, actions: Sequence[str]) -> str:
    for text in actions:
        if ";" in text or ">" in text:
            raise ValueError(f"the action {text!r} cannot be written in a position line (it holds ';' or '>')")
    return "".join([line, *(f" > {' '.join(t.split())}" for t in actions)])


def looks_like_position(argument: str) -> bool:
    """True if ``argument`` (of ``palast ask``) is to be read as a position line: it is not
    ``-`` nor an existing file, and it holds ``*`` or ``;``, which no file name of a
    scenario needs and every position line has (``*`` marks the player to move)."""
    if argument == "-" or any(ch in argument for ch in "\n\0"):
        return False
    try:
        if Path(argument).exists():
            return False
    except OSError:  # a name too long for the file system is no file
        pass
    return "*" in argument or ";" in argument


def state_position(game: Game, state: State) -> str:
    """The position line of ``state``, which must wait for a play (where a scenario starts).

    :raises ValueError: if the state waits for another decision or its draw deck or King
        deck is partly known (see :func:`palast.formats.scenario_dump.dump_scenario`).
    """
    text = dump_scenario(game, state, rulesets=tuple(game.spec.rulesets))
    return format_position(parse_scenario(text, game.spec), game.spec)


def answer_position(game: Game, scenario: Scenario, history: Sequence[tuple[str, Step]]) -> str:
    """The line of the position ``palast ask`` answers: the scenario's position with the
    actions of ``history`` (those applied) applied to it, written as the last position on
    the way that waits for a play, followed by the actions applied since (none when the
    position answered waits for a play itself). Reading the line gives the same position.
    """
    for k in range(len(history), 0, -1):
        state = history[k - 1][1].state
        if state.decision.kind == DecisionKind.PLAY:
            try:
                line = state_position(game, state)
            except ValueError:  # a draw deck partly known: write an earlier position
                continue
            return _with_actions(line, [text for text, _ in history[k:]])
    base = replace(scenario, rulesets=tuple(game.spec.rulesets), actions=())
    return _with_actions(format_position(base, game.spec), [text for text, _ in history])
