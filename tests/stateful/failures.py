"""A failure found by the state machine, printed as a scenario file that ``palast ask`` loads.

Scenarios start at a play decision, so the file holds the last position before the failure
at which a player was to play, and the actions from there to the failing one as its
``actions:`` list — as far as palast's engine under the named ruleset accepts them; the
rest (actions only a broken engine or an overridden reading allowed) stay in comments, so
the file always loads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import yaml

from palast.engine import Action, Game, State
from palast.engine.state import DecisionKind
from palast.errors import IllegalActionError, InputError
from palast.formats.notation import format_action, parse_action
from palast.formats.scenario import parse_scenario
from palast.formats.scenario_dump import dump_scenario

Problem = tuple[str, str]
"""An (invariant id, message) pair."""


class InvariantFailure(AssertionError):
    """The state machine saw invariants fail after an action.

    The scenario is written only when the failure is reported (not for each of the many
    failing runs Hypothesis makes while it shrinks).

    :ivar problems: every failing (invariant id, message) of that action.
    :ivar invariants: the failing invariant ids.
    """

    def __init__(self, problems: Sequence[Problem], render: Callable[[], Printed | None] | None = None) -> None:
        self.problems = list(problems)
        self.invariants = {i for i, _ in self.problems}
        self._render = render
        self._printed: Printed | None = None
        super().__init__("; ".join(f"{i}: {m}" for i, m in self.problems))

    @property
    def printed(self) -> Printed | None:
        """The failure as a scenario (computed once), or ``None`` without a play position."""
        if self._printed is None and self._render is not None:
            self._printed = self._render()
            self._render = None
        return self._printed

    @property
    def scenario(self) -> str | None:
        """The scenario YAML, or ``None``."""
        return self.printed.text if self.printed is not None else None

    def __str__(self) -> str:
        text = "\n".join(f"invariant {i} violated: {m}" for i, m in self.problems)
        if self.scenario is not None:
            text += ("\n\nThe position before the failure as a scenario file (save it and run "
                     "`palast ask FILE`):\n\n" + self.scenario)
        return text


@dataclass(frozen=True)
class Printed:
    """A failure printed as a scenario.

    :ivar text: the scenario YAML, with the failure in comments.
    :ivar position: the play position the scenario starts from.
    :ivar accepted: the actions (notation) in its ``actions:`` list.
    :ivar refused: the failing engine's further actions that palast's engine refuses.
    """

    text: str
    position: State
    accepted: tuple[str, ...]
    refused: tuple[str, ...]


def failure_scenario(game: Game, about: str, states: Sequence[State], actions: Sequence[Action],
                     problems: Sequence[Problem]) -> Printed | None:
    """Write the failure as scenario YAML.

    :param game: the game the machine played (maybe broken, maybe with overridden readings).
    :param about: the engine and readings in words, for the header.
    :param states: the state before each action of the history.
    :param actions: the history; its last action is the failing one.
    :param problems: what failed.
    :returns: the printed scenario, or ``None`` when no play position can be written.
    """
    anchor = -1
    body = ""
    real = palast_game(game)
    for i in range(len(states) - 1, -1, -1):
        if states[i].decision.kind == DecisionKind.PLAY:
            try:
                body = dump_scenario(real, states[i], title="A position the state machine reached before a failure")
            except ValueError:
                continue
            anchor = i
            break
    if anchor < 0:
        return None
    texts = [format_action(game, a) for a in actions[anchor:]]
    accepted, refused = _accepted_prefix(real, body, texts)
    lines = ["# Found by palast's Hypothesis state machine (tests/test_stateful.py).",
             f"# Engine: {about}.",
             "# It failed after the actions below (any that palast's engine under "
             f"{real.ruleset} refuses follow them in comments):"]
    lines += [f"#   {i}: {m}" for i, m in problems]
    out = "\n".join(lines) + "\n" + body + yaml.safe_dump({"actions": accepted}, sort_keys=False, width=100)
    if refused:
        out += (f"# The failing engine went on with actions that palast under {real.ruleset} does not "
                "accept here:\n" + "".join(f"#   - {t}\n" for t in refused))
    return Printed(out, states[anchor], tuple(accepted), tuple(refused))


def palast_game(game: Game) -> Game:
    """palast's own game for the seats of ``game``: its spec and ruleset, or for a data-only
    variant (tests/stateful/mutants.py) the spec and ruleset the variant was made from."""
    spec = getattr(game, "base_spec", game.spec)
    ruleset = getattr(game, "base_ruleset", game.ruleset)
    return Game(spec, ruleset, game.seats)


def _accepted_prefix(real: Game, body: str, texts: list[str]) -> tuple[list[str], list[str]]:
    """Split ``texts`` into the longest prefix palast's own engine ``real`` applies from the
    dumped position, and the rest."""
    try:
        state = parse_scenario(body, real.spec).start(real)
    except InputError:
        return [], texts
    for k, text in enumerate(texts):
        try:
            state = real.apply(state, parse_action(real, text)).state
        except (IllegalActionError, InputError):
            return texts[:k], texts[k:]
    return texts, []
