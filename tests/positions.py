"""Build positions for tests from scenario YAML text and play actions on them in notation.

A test writes the position the way a rules lawyer writes a scenario file (README,
"Scenario files"); :func:`position` turns it into a :class:`~palast.engine.Game` (check mode
on, so every invariant is evaluated after every action) and its start
:class:`~palast.engine.State`. :func:`play` applies actions written in palast notation and
returns the final state with every event they caused; :func:`full_deal` builds a next
round's deal. The positions tests/test_roles.py and the clause tests
(tests/clause_checks.py, tests/test_rules_by_clause_a.py) both use (a Guard, a hand of
banned Jesters) are at the end.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from palast.engine import Deal, Event, Game, State
from palast.formats.notation import format_action, parse_action
from palast.formats.scenario import parse_scenario
from palast.spec.load import Spec


def position(spec: Spec, ruleset: str, text: str, *, check: bool = True) -> tuple[Game, State]:
    """The game and start position a scenario's YAML text describes, under ``ruleset``.

    The scenario's own ``actions`` (if any) are applied. The text may be indented (it is
    dedented first). Every player must hold at most six cards in hand and display together
    (the scenario loader enforces it, along with card counts and the other position checks).

    :raises palast.errors.ScenarioError: if the text is not a legal position.
    """
    scenario = parse_scenario(textwrap.dedent(text), spec, file="<test position>")
    game = scenario.game(spec, ruleset, check=check)
    state, _ = scenario.position(game)
    return game, state


@dataclass(frozen=True)
class Line:
    """What a sequence of actions did: the final state and every event, in order."""

    state: State
    events: tuple[Event, ...]

    def kinds(self) -> list[str]:
        """The event kinds, in order."""
        return [e.kind for e in self.events]

    def of(self, kind: str) -> list[Event]:
        """The events of ``kind``, in order."""
        return [e for e in self.events if e.kind == kind]

    def one(self, kind: str) -> Event:
        """The single event of ``kind``. :raises AssertionError: if there is not exactly one."""
        found = self.of(kind)
        assert len(found) == 1, f"expected one {kind} event, got {self.kinds()}"
        return found[0]


def play(game: Game, state: State, *actions: str) -> Line:
    """Apply ``actions`` (palast notation, e.g. ``"play maid/red"``) one after another.

    :raises palast.errors.IllegalActionError: if an action is illegal where it stands.
    :raises palast.engine.InvariantViolation: if an invariant fails (check mode).
    """
    events: list[Event] = []
    for text in actions:
        step = game.apply(state, parse_action(game, text))
        events.extend(step.events)
        state = step.state
    return Line(state, tuple(events))


def random_walk(game: Game, seed: int, steps: int, until: str | None = None) -> list[tuple[State, list[Event]]]:
    """Random real play from the start: up to ``steps`` uniformly random actions (chance by
    its probabilities), stopping early at the first decision of kind ``until``.

    :returns: every position passed through, the start included, with the events so far.
    """
    rng = random.Random(seed)
    state = game.initial_state()
    events: list[Event] = []
    out = [(state, list(events))]
    for _ in range(steps):
        if state.is_terminal or state.decision.kind == until:
            break
        if state.decision.is_chance:
            action = game.sample_chance(state, rng)
        else:
            acts = game.legal_actions(state)
            action = acts[int(rng.random() * len(acts))]
        step = game.apply(state, action)
        state = step.state
        events.extend(step.events)
        out.append((state, list(events)))
    return out


def legal(game: Game, state: State) -> list[str]:
    """The legal actions of ``state``, in notation."""
    return [format_action(game, a) for a in game.legal_actions(state)]


def card(game: Game, text: str) -> int:
    """The card written ``text`` (``role/colour``)."""
    return game.cards.parse_card(text)


def cards(game: Game, texts: Iterable[str]) -> list[int]:
    """The cards written ``texts``, in order."""
    return [card(game, t) for t in texts]


def names(game: Game, items: Sequence[int]) -> list[str]:
    """Cards written in notation, in the order given."""
    return [game.cards.format_card(c) for c in items]


def seat(game: Game, colour: str) -> int:
    """The seat of the player named ``colour``."""
    return game.seat_of(colour)


def role(game: Game, name: str) -> int:
    """The index of the role named ``name``."""
    return game.cards.parse_role(name)


def full_deal(game: Game, firsts: dict[str, list[str]]) -> Deal:
    """A deal (deck order fixed) giving each named player the listed cards first."""
    rest = list(game.all_cards)
    hands: list[list[int]] = [[] for _ in range(game.n)]
    for colour, texts in firsts.items():
        for c in cards(game, texts):
            rest.remove(c)
            hands[seat(game, colour)].append(c)
    for h in hands:
        while len(h) < game.hand_size:
            h.append(rest.pop(0))
    return Deal(tuple(tuple(sorted(h)) for h in hands), tuple(rest))


# ---------------------------------------------------------------------------- shared positions

#: Red is to play a Guard with two other cards displayed; GUARD_ALONE: with none.
GUARD = """
players: [red, blue, green]
to_move: red
hands:
  red: [guard/red, treasurer/red, wizard/grey, maid/grey]
  blue: [treasurer/blue, maid/blue, guard/blue, jester/blue, wizard/blue]
  green: [treasurer/green, wizard/green, maid/green, cupbearer/green, guard/green, marshal/green]
displays: {red: [marshal/red, jester/red], blue: [cupbearer/blue]}
"""
GUARD_ALONE = """
players: [red, blue, green]
to_move: red
hands:
  red: [guard/red, treasurer/red, wizard/grey, maid/grey, marshal/red, jester/red]
  blue: [treasurer/blue, maid/blue, guard/blue, jester/blue, wizard/blue]
  green: [treasurer/green, wizard/green, maid/green, cupbearer/green, guard/green, marshal/green]
displays: {blue: [cupbearer/blue]}
"""

#: Red's hand is a single Jester while the Jester is banned.
ONLY_BANNED_JESTERS = """
players: [red, blue, green]
to_move: red
banned: jester
scores: {red: 0, blue: 2, green: 1}
hands:
  red: [jester/grey]
  blue: [maid/blue, jester/blue, marshal/blue, wizard/blue, treasurer/blue]
  green: [treasurer/green, wizard/green, maid/green, jester/green, marshal/green, guard/green]
displays: {red: [treasurer/red, wizard/grey, maid/red, cupbearer/blue, guard/red], blue: [guard/blue]}
"""
