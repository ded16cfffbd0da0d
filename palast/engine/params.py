"""A game's readings: the value each parameter has under its ruleset.

Each parameter is set by one variation point (:func:`palast.lang.logic.parameter_table`);
its possible values are that point's reading ids, and the rules' declarations say what each
does. A game holds its table as :class:`Readings` (fixed, so the compiled rules fold them)
or as a :class:`ConsultLog` (which notes the parameters read, for ``palast ask`` and
``palast simulate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The value a parameter has when its variation point is open in the ruleset.
GAP = "open"


@dataclass(frozen=True)
class Setting:
    """A parameter's value under one ruleset and the variation point that set it.

    :ivar value: a reading id, or :data:`GAP` when the ruleset leaves the point open.
    :ivar point: the variation point id.
    """

    value: str
    point: str

    @property
    def is_gap(self) -> bool:
        """True if the ruleset leaves this point open."""
        return self.value == GAP


class Readings(dict[str, Setting]):
    """A game's parameter table as built: the ruleset's readings, fixed. Its lookups note
    nothing, so the game's compiled rules may take the readings as constants
    (:class:`palast.engine.codegen.BlockCompiler` folds them); to play under other readings
    assign another table to ``game.params`` (the rules are then compiled again).

    :raises TypeError: on any change in place.
    """

    def _fixed(self, *args: Any, **kwargs: Any) -> None:
        """Refused: a game's readings are fixed (assign a new table to ``game.params``).

        :raises TypeError: always.
        """
        raise TypeError("a game's readings are fixed: assign a new table to game.params instead")

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _fixed  # type: ignore[assignment]
    __ior__ = _fixed  # type: ignore[assignment]

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        """Copied and pickled whole, as a new table of the same readings (``copy``,
        ``deepcopy`` and ``pickle`` would otherwise fill an empty one item by item)."""
        return (Readings, (dict(self),))

    def __copy__(self) -> Readings:
        return Readings(self)


class ConsultLog(dict[str, Setting]):
    """An engine parameter table that notes which parameters are read (a game whose table is
    not a :class:`Readings` reads every reading through ``params[name]``, as its rules
    run); ``palast ask`` and ``palast simulate`` install
    one as a game's ``params`` to learn which readings an answer or an action depends on.

    ``seen`` collects the names read since it was last cleared, ``total`` every name read
    since the log was made; ``always`` holds those read while a game was built (the engine
    may keep such a reading in an attribute, so it counts as read at every action).
    """

    seen: set[str]
    total: set[str]
    always: frozenset[str]

    def __init__(self, params: dict[str, Setting]) -> None:
        super().__init__(params)
        self.seen = set()
        self.total = set()
        self.always = frozenset()

    def consulted(self) -> set[str]:
        """The parameters read since ``seen`` was cleared, and those read at construction."""
        return self.seen | self.always

    def __getitem__(self, key: str) -> Setting:
        self.seen.add(key)
        self.total.add(key)
        return dict.__getitem__(self, key)

    def reading(self, key: str) -> str:
        """The value of parameter ``key`` without noting it as read."""
        return dict.__getitem__(self, key).value
