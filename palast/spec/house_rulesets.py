"""Named house rulesets declared in ``spec/rulesets.yaml`` (key ``house``): reading them,
the cross-checks their schema cannot state, which rulesets a ruleset derives from
(:func:`lineage`) and the house rulesets' prove lists (:func:`prove_lists`, which check
mode reads as well as the proofs).

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
#: Joins the base and the readings in a derived ruleset's name.
JOIN = "+"


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


def lineage(spec: Spec, ruleset: str) -> tuple[str, ...]:
    """``ruleset`` and every ruleset it is derived from, nearest first: the one its name is
    built on (``house-guard`` for ``house-guard+neutral-tie=seat-order``), the one it was
    derived from (a ruleset file's ``base``, which may be a house ruleset; entry key
    ``derived_from``) and its declared ``base``, then theirs in turn. A ruleset of the spec
    itself has only itself."""
    out = [ruleset]
    i = 0
    while i < len(out):
        r = out[i]
        entry = spec.rulesets.get(r, {})
        for nxt in (r.partition(JOIN)[0], entry.get("derived_from"), entry.get("base")):
            if nxt and nxt not in out:
                out.append(str(nxt))
        i += 1
    return tuple(out)


def prove_lists(spec: Spec) -> dict[str, dict[str, str]]:
    """House ruleset → obligation → expected result, as the named house rulesets of
    ``spec/rulesets.yaml`` list them (key ``prove``; ``proofs.house_rulesets`` runs them,
    and check mode leaves out what a list expects refuted:
    :func:`palast.invariants.declared.refuted_by_house`). A ruleset of ``spec`` derived
    from one of them (``house-guard+neutral-tie=seat-order``, a ruleset file based on
    ``house-guard``: :func:`lineage`) takes the list of the nearest one it derives from: its
    authors' expectations, which the further readings may well break (the proofs then say
    so).

    :param spec: the spec (with any derived rulesets added).
    :returns: a new dict per call, with a list for each named house ruleset that has one
        and each ruleset of ``spec`` derived from one.
    """
    own = {hid: {str(k): str(v) for k, v in (h.get("prove") or {}).items()}
           for hid, h in spec.house_rulesets.items() if h.get("prove")}
    out = dict(own)
    for r in spec.rulesets:
        if r not in out:
            nearest = listing_house(spec, r)
            if nearest is not None:
                out[r] = own[nearest]
    return out


def listing_house(spec: Spec, ruleset: str) -> str | None:
    """The named house ruleset whose prove list ``ruleset`` takes (:func:`prove_lists`):
    ``ruleset`` itself where it is one with a list, else the nearest one it derives from
    (:func:`lineage`) that has a list; None where there is none."""
    return next((x for x in lineage(spec, ruleset)
                 if x in spec.house_rulesets and spec.house_rulesets[x].get("prove")), None)
