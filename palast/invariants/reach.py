"""The conditions of the reachability questions (``reaches`` in ``spec/invariants.yaml``,
:mod:`palast.lang.reach_exprs`) evaluated by the engine: whether an action reached a
position a question asks about. ``proofs/`` compiles the same expressions to Z3 as a
witness search's goal, so a question is written once. Clauses: those of each question.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from palast.engine.state import State
from palast.errors import SpecError
from palast.lang.compiler import Compiler
from palast.lang.invariant_exprs import constant_values
from palast.lang.syntax import parse

if TYPE_CHECKING:
    from palast.engine.events import Event
    from palast.engine.game import Game

_FNS: weakref.WeakKeyDictionary[Game, dict[str, Callable[..., Any]]] = weakref.WeakKeyDictionary()


def condition(game: Game, text: str) -> Callable[[State, State], bool]:
    """The rule-language condition ``text`` (spec-checked: :mod:`palast.lang.reach_exprs`)
    compiled for ``game``: a function of the position reached and the one before the action
    (which ``old(...)`` reads) that returns whether it holds. Compiled once per game and text.

    :raises ExpressionError: for a text that does not parse.
    """
    fns = _FNS.get(game)
    if fns is None:
        fns = _FNS[game] = {}
    fn = fns.get(text)
    if fn is None:
        comp = Compiler(game.lang_constants, constant_values(game.spec))
        slot = comp.add(parse(text), step=True)
        comp.build()
        fn = fns[text] = slot[0]
    return lambda after, before: bool(fn(after, before))


def reached(game: Game, fires: Sequence[str], reaches: str | None, before: State, after: State,
            events: Sequence[Event]) -> str | None:
    """Whether the action from ``before`` to ``after`` (with its ``events``) does what a
    reachability question asks: fires one of the rules ``fires`` (an event names it; no rule
    asked: any action) and reaches a position where ``reaches`` holds (``None``: any).

    :returns: ``None`` when it does, else what it misses, in words.
    """
    if fires and not any(e.rule in fires for e in events):
        return f"the action fires none of {', '.join(fires)}"
    if reaches is None:
        return None
    try:
        holds = condition(game, reaches)(after, before)
    except SpecError as exc:  # e.g. first(...) of an empty collection there
        return f"the condition cannot be evaluated on the position it reaches: {exc.message}"
    return None if holds else f"the position it reaches is not one where {' '.join(reaches.split())}"


def singles_out(game: Game, reaches: str, start: State, earlier: Sequence[State]) -> bool | None:
    """Whether condition ``reaches`` is false after some action of a stored game before its
    last one. A condition every action meets (``true``, ``count(players) >= 3``,
    ``sum(p in players, played(p)) > 0`` after the deal) says nothing about the position
    the game was stored to show, beside the rules a question asks about too (the rules
    firing then single it out, and the condition adds nothing). A position where
    ``reaches`` cannot be evaluated tells nothing either way.

    :param start: the stored game's start.
    :param earlier: the position after each action before the last, in order.
    :returns: ``True`` or ``False``; ``None`` when the game has no action before its last.
    """
    if not earlier:
        return None
    fn = condition(game, reaches)
    for before, after in zip([start, *earlier], earlier, strict=False):
        try:
            if not fn(after, before):
                return True
        except SpecError:
            pass
    return False
