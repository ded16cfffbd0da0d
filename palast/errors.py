"""The few error classes palast raises.

Every error a user can cause is a :class:`ValueError` subclass named for what went wrong.
The CLI turns :class:`InputError` into exit code 2 with its message and never shows a
traceback.
"""

from __future__ import annotations


class InputError(ValueError):
    """A file or argument given to palast is wrong.

    :param message: what is wrong, in words a user can act on.
    :param file: the file the problem is in, or ``None`` for a command-line argument.
    :param place: where in the file: ``"line 4, column 3 (hands.red[0])"`` or a key path.
    """

    def __init__(self, message: str, file: str | None = None, place: str | None = None) -> None:
        self.message = message
        self.file = file
        self.place = place
        super().__init__(self.render())

    def render(self) -> str:
        """Return the one-paragraph message: ``file: place: problem``."""
        parts = [p for p in (self.file, self.place) if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.message}" if prefix else self.message


class SpecError(InputError):
    """A file under ``spec/`` is malformed or refers to something that does not exist."""


class RulesError(SpecError):
    """The rules declared in ``spec/`` break down at a position the engine reached: no rule
    of a step applies, a rule's statements end with nowhere to go on, or they draw from an
    empty deck. ``palast spec check`` cannot see it beforehand; the engine stops with this
    error instead of going on with a position the rules do not define."""


class ScenarioError(InputError):
    """A scenario file describes no legal position or names unknown things."""


class NotationError(InputError):
    """A card, player, role or action written in palast notation cannot be read."""


class IllegalActionError(ValueError):
    """An action is not legal in the position it is applied to.

    :param message: why it is illegal.
    :param clauses: the clause ids of the rule that forbids it.
    """

    def __init__(self, message: str, clauses: tuple[str, ...] = ()) -> None:
        self.message = message
        self.clauses = clauses
        suffix = f" [{', '.join(clauses)}]" if clauses else ""
        super().__init__(message + suffix)
