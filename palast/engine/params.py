"""Engine parameters: the knobs that variation-point readings set.

Each parameter is set by exactly one variation point in ``spec/variation_points.yaml``
(``parameter:``); its possible values are that point's reading ids. The engine branches on
these values and on nothing else that could differ between rulesets. ``palast spec check``
fails when a reading in the spec has no implementation here, or a parameter here is set by
no variation point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Parameter name -> the reading ids the engine implements for it.
PARAMETERS: Mapping[str, frozenset[str]] = {
    "cupbearer.scope": frozenset({"any-two", "actor-and-one"}),
    "cupbearer.actor_duplicate": frozenset({"forbidden", "whisper"}),
    "jester.forced": frozenset({"whisper"}),
    "action.sixth_played": frozenset({"round-end-only", "sixth-played"}),
    "king.reshuffle": frozenset({"all", "spent"}),
    "winner.tiebreak": frozenset({"most-displayed", "most-played-last-round", "most-played-total"}),
    "winner.final_tie": frozenset({"shared", "cascade"}),
    "neutral.tie": frozenset({"player-who-played", "seat-order"}),
    "wizard.min_count": frozenset({"at-least-one", "zero-allowed"}),
    "action.impossible": frozenset({"void"}),
    "maid.empty_deck": frozenset({"no-action", "discard-only"}),
    "maid.discard_to": frozenset({"discard-pile", "under-deck"}),
    "play.empty_hand": frozenset(),
    "play.duplicate": frozenset({"allowed", "only-when-forced"}),
}

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


def parameter_table(spec: Any) -> dict[str, tuple[str, frozenset[str]]]:
    """Every engine parameter of ``spec``: name -> (the variation point that sets it, the
    readings the engine implements for it).

    A point with a ``parameter:`` in ``spec/variation_points.yaml`` sets that parameter; its
    readings are those :data:`PARAMETERS` lists plus those a rule's logic block declares. A
    point without one that a logic block's ``readings`` names is a parameter of its own
    name, implemented by the declarations alone (so a new reading needs no engine code).
    """
    from palast.lang.logic import declared_readings

    declared = declared_readings(spec)
    table: dict[str, tuple[str, frozenset[str]]] = {}
    for vp in spec.variation_points.values():
        if vp.parameter is not None:
            table[vp.parameter] = (vp.id, PARAMETERS.get(vp.parameter, frozenset()) | declared.get(vp.id, frozenset()))
        elif vp.id in declared:
            table[vp.id] = (vp.id, declared[vp.id])
    return table
