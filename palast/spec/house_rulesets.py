"""Named house rulesets declared in ``spec/rulesets.yaml`` (key ``house``): reading them
and the cross-checks their schema cannot state.

A named house ruleset is a ruleset of the spec's own (its **base**) with some variation
points read otherwise, with a title and a description. It is not one of the spec's
rulesets until a command names it: :func:`palast.formats.house.resolve` then adds it to the
:class:`~palast.spec.load.Spec` like any house ruleset, so a scenario without ``rulesets:``
still means the spec's own rulesets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palast.spec.load import Spec

#: The key of ``spec/rulesets.yaml`` that lists the named house rulesets.
KEY = "house"
#: The reading that leaves a point open (as :data:`palast.spec.load.OPEN`).
_OPEN = "open"


def read_house_rulesets(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The named house rulesets of the parsed ``spec/rulesets.yaml`` ``data``: id -> its
    entry (``id``, ``title``, ``description``, ``base``, ``readings``, and whatever later
    keys the schema allows), in file order; empty when the file declares none."""
    return {str(h["id"]): h for h in data.get(KEY) or ()}


def _hint(word: str, known: Sequence[str]) -> str:
    import difflib  # only for a message

    close = difflib.get_close_matches(word, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def house_problems(spec: Spec) -> list[str]:
    """What is wrong with the named house rulesets of ``spec``, each problem as
    ``"FILE: line L, column C (house[i].key): message"``: an id that is already a ruleset or
    is declared twice, an unknown base (a base is one of the spec's own rulesets), an
    unknown variation point (at its key) or a reading the point does not have (at its
    value)."""
    doc = spec.documents["rulesets.yaml"]
    out: list[str] = []

    def at(place: str, msg: str) -> None:
        out.append(f"{doc.file}: {place}: {msg}")

    own = [r for r, entry in spec.rulesets.items() if entry.get("base") is None]
    seen: set[str] = set()
    for i, entry in enumerate(doc.data.get(KEY) or ()):
        hid, base = str(entry["id"]), str(entry["base"])
        where: list[str | int] = [KEY, i]
        if hid in own:
            at(doc.place([*where, "id"]), f"house ruleset {hid!r} has the name of a ruleset of the spec; give it a "
                                          "name of its own")
        elif hid in seen:
            at(doc.place([*where, "id"]), f"house ruleset {hid!r} is declared twice")
        seen.add(hid)
        if base not in own:
            at(doc.place([*where, "base"]), f"house ruleset {hid}: unknown base ruleset {base!r}{_hint(base, own)} "
                                            f"(a base is one of the spec's rulesets: {', '.join(own)})")
        for point, reading in (entry.get("readings") or {}).items():
            vp = spec.variation_points.get(str(point))
            if vp is None:
                at(doc.place_key([*where, "readings"], point),
                   f"house ruleset {hid}: unknown variation point {point!r}"
                   f"{_hint(str(point), list(spec.variation_points))}")
                continue
            ids = [r.id for r in vp.readings]
            if reading != _OPEN and reading not in ids:
                at(doc.place([*where, "readings", point]),
                   f"house ruleset {hid}: {point} has no reading {reading!r}{_hint(str(reading), [*ids, _OPEN])} "
                   f"(its readings: {', '.join(ids)}; or {_OPEN})")
    return out
