"""House rules: rulesets derived from another ruleset by reading some variation points
otherwise.

A ruleset is only a choice of readings (``spec/variation_points.yaml``), so a house rule is
one more choice: a **base** ruleset with some points read otherwise. :func:`derive` adds
such a ruleset to a loaded :class:`~palast.spec.load.Spec`; the
engine, the proofs and the rulebook then take its id like the id of any other ruleset.

Users give house rules three ways, and palast names what they make:

* ``--reading POINT=READING`` (repeatable) on ``ask``, ``play``, ``replay``, ``simulate``,
  ``rulings`` and ``prove``: the readings apply on top of each ruleset the command is
  asked for (``-r``/``--ruleset`` or ``--ruleset-file``), or of the spec's default ruleset
  when none is named. The derived ruleset is named ``BASE+POINT=READING`` (several readings
  joined by ``+`` in the order of ``spec/variation_points.yaml``), e.g.
  ``reference+final-tie=shared``. A point the base already reads otherwise through house
  rules is read as ``--reading`` says (it applies on top);
* a **derived name** wherever a ruleset id is taken: ``-r reference+final-tie=shared``, a
  key of a ruling's ``expect``, the ``ruleset`` of a record's header;
* ``--ruleset-file FILE``: a YAML file (schema ``spec/schema/house-ruleset.schema.json``)
  with the ruleset's ``name``, its ``base``, its ``readings`` (point: reading) and,
  optionally, ``title`` and ``description``; the ruleset is called by its name.

A reading is a reading id of the point, or ``open`` (the engine then stops at the point
with a gap). Every problem is bad input (exit 2): an unknown point or reading (with the
closest known one), a point given twice, a malformed ``POINT=READING``. A point without an
engine parameter (a wording point or a component fact) is accepted and noted: its reading
changes no play. A reading the base already takes is noted too.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from palast.errors import InputError
from palast.spec.house_rulesets import JOIN as JOIN
from palast.spec.house_rulesets import lineage as lineage
from palast.spec.load import OPEN, Spec
from palast.spec.yamlio import Document, read_yaml

#: Joins a point and its reading.
SET = "="
#: The schema of a ruleset file.
SCHEMA = "house-ruleset.schema.json"


def _hint(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


# ------------------------------------------------------------------------- the spec side
def derive(spec: Spec, ruleset_id: str, base: str, readings: Mapping[str, str], *, title: str | None = None,
           description: str | None = None) -> Spec:
    """A copy of ``spec`` with one more ruleset, ``ruleset_id``: ``base`` with each point of
    ``readings`` read as given (a reading id or ``open``), every other point as ``base``
    reads it; ``title`` and ``description`` (default: said from the base and readings) are
    the entry's.

    The new entry of ``Spec.rulesets`` has ``id``, ``title``, ``description``, ``base``
    (the ruleset of ``spec/rulesets.yaml`` it rests on, also when ``base`` is itself
    derived), ``derived_from`` (``base`` as given, which may itself be a house ruleset) and
    ``readings`` (all it reads otherwise than the ``base`` entry's ruleset, in spec order).

    :raises InputError: for a ``ruleset_id`` already taken, an unknown ``base`` or
        variation point, or a reading the point does not have.
    """
    if ruleset_id in spec.rulesets:
        raise InputError(f"there is already a ruleset {ruleset_id!r}")
    if base not in spec.rulesets:
        raise InputError(f"unknown ruleset {base!r} (known: {', '.join(spec.rulesets)})")
    for point, reading in readings.items():
        check_reading(spec, point, reading)
    root, before = house_readings(spec, base)
    root = root or base
    merged = {**before, **readings}
    ordered = {p: merged[p] for p in spec.variation_points if p in merged}
    read = reads(spec, base, readings)
    vps = {vid: replace(vp, choices={**vp.choices, ruleset_id: read[vid]}) for vid, vp in spec.variation_points.items()}
    shown = ", ".join(f"{p}={r}" for p, r in ordered.items()) or "no other reading"
    entry = {"id": ruleset_id, "title": title or f"{root} with house rules",
             "description": description or f"House rules: {root} with {shown}.", "base": root, "derived_from": base,
             "readings": ordered}
    return replace(spec, variation_points=vps, rulesets={**spec.rulesets, ruleset_id: entry})


def reads(spec: Spec, base: str, readings: Mapping[str, str]) -> dict[str, str]:
    """How ``base`` (a ruleset of ``spec``) with ``readings`` on top reads every variation
    point: point id -> reading id (or ``open``), in spec order; what :func:`derive` gives
    the ruleset it adds."""
    return {vid: str(readings.get(vid, vp.choices[base])) for vid, vp in spec.variation_points.items()}


def house_readings(spec: Spec, ruleset: str) -> tuple[str | None, dict[str, str]]:
    """For a ruleset made by :func:`derive`: the ruleset of ``spec/rulesets.yaml`` it rests
    on and the readings it takes otherwise; ``(None, {})`` for a ruleset of the spec itself.

    :raises KeyError: for an unknown ruleset.
    """
    entry = spec.rulesets[ruleset]
    base = entry.get("base")
    return (str(base), dict(entry.get("readings", {}))) if base is not None else (None, {})


def known(spec: Spec) -> list[str]:
    """Every ruleset name ``spec`` takes as it is: its rulesets, then the named house
    rulesets of ``spec/rulesets.yaml`` not added yet (:mod:`palast.spec.house_rulesets`)."""
    return [*spec.rulesets, *(h for h in spec.house_rulesets if h not in spec.rulesets)]


def own_rulesets(spec: Spec) -> tuple[str, ...]:
    """The rulesets of ``spec/rulesets.yaml`` itself, without the house rulesets a command
    added: what a scenario without ``rulesets:`` asks about."""
    return tuple(r for r in spec.rulesets if house_readings(spec, r)[0] is None)


def describe(spec: Spec, ruleset: str) -> str:
    """``"reference with final-tie=shared"`` for a house ruleset, the id for any other."""
    base, readings = house_readings(spec, ruleset)
    if base is None:
        return ruleset
    return f"{base} with " + ", ".join(f"{p}={r}" for p, r in readings.items())


# ------------------------------------------------------------------------- names and readings
def check_reading(spec: Spec, point: str, reading: str, place: str | None = None, file: str | None = None) -> None:
    """Check that ``point`` is a variation point and ``reading`` one of its readings (or
    ``open``).

    :raises InputError: at ``file``/``place``, naming the closest known point or reading.
    """
    vp = spec.variation_points.get(point)
    if vp is None:
        raise InputError(f"unknown variation point {point!r}{_hint(point, list(spec.variation_points))} "
                         "(palast explain POINT shows a point and its readings)", file, place)
    ids = [r.id for r in vp.readings]
    if reading != OPEN and reading not in ids:
        raise InputError(f"{point} has no reading {reading!r}{_hint(reading, [*ids, OPEN])} "
                         f"(its readings: {', '.join(ids)}; or {OPEN})", file, place)


def parse_reading(spec: Spec, text: str, place: str = "--reading") -> tuple[str, str]:
    """``"final-tie=shared"`` -> ``("final-tie", "shared")``, checked (:func:`check_reading`).

    :raises InputError: for text not of the form ``POINT=READING``, or an unknown point or
        reading.
    """
    point, sep, reading = (part.strip() for part in text.partition(SET))
    if not sep or not point or not reading or SET in reading:
        raise InputError(f"{text!r} is not POINT=READING (e.g. final-tie=shared)", None, place)
    check_reading(spec, point, reading, place)
    return point, reading


def parse_readings(spec: Spec, texts: Sequence[str], place: str = "--reading") -> dict[str, str]:
    """Every ``POINT=READING`` of ``texts``, in the order given.

    :raises InputError: as :func:`parse_reading`, or for a point given twice with different
        readings (the same reading twice is the same house rule, as ``--seed 1 --seed 1`` is
        one seed).
    """
    out: dict[str, str] = {}
    for text in texts:
        point, reading = parse_reading(spec, text, place)
        if point in out and out[point] != reading:
            raise InputError(f"{point} is given twice ({point}={out[point]}, {point}={reading}); "
                             "give each variation point once", None, place)
        out[point] = reading
    return out


def derived_name(spec: Spec, base: str, readings: Mapping[str, str]) -> str:
    """The name of ``base`` read with ``readings``: ``base+POINT=READING+...``, points in the
    order of ``spec/variation_points.yaml``. Where ``base`` is itself a derived name, its
    readings and ``readings`` (which win) make one name on its base."""
    if JOIN in base and base in spec.rulesets:
        prefix, _, _ = base.partition(JOIN)
        if prefix in spec.rulesets:
            readings = {**_name_readings(base), **readings}
            base = prefix
    parts = [f"{p}{SET}{readings[p]}" for p in spec.variation_points if p in readings]
    return JOIN.join([base, *parts])


def _name_readings(name: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in name.split(JOIN)[1:]:
        point, _, reading = part.partition(SET)
        out[point] = reading
    return out


def parse_name(spec: Spec, name: str, place: str | None = "--ruleset", file: str | None = None) -> \
        tuple[str, dict[str, str]]:
    """The base and readings of a derived name ``BASE+POINT=READING+...``.

    :raises InputError: for an unknown base ruleset, a part that is not ``POINT=READING``,
        an unknown point or reading, or a point named twice.
    """
    base, *parts = name.split(JOIN)
    if base not in spec.rulesets and base not in spec.house_rulesets:
        raise InputError(f"unknown ruleset {base!r}{_hint(base, known(spec))} "
                         f"(known: {', '.join(known(spec))})", file, place)
    if not parts:
        return base, {}
    readings: dict[str, str] = {}
    for part in parts:
        point, sep, reading = part.partition(SET)
        if not sep or not point or not reading:
            raise InputError(f"in ruleset {name!r}: {part!r} is not POINT=READING; a house ruleset is named "
                             "BASE+POINT=READING, e.g. reference+final-tie=shared", file, place)
        try:
            check_reading(spec, point, reading)
        except InputError as exc:
            raise InputError(f"in ruleset {name!r}: {exc.message}", file, place) from None
        if point in readings:
            raise InputError(f"in ruleset {name!r}: {point} is given twice; give each variation point once",
                             file, place)
        readings[point] = reading
    return base, readings


def resolve(spec: Spec, name: str, place: str | None = "--ruleset", file: str | None = None) -> Spec:
    """``spec`` if it has ruleset ``name``; else, for a derived name
    (``BASE+POINT=READING...``), ``spec`` with that ruleset added (:func:`derive`).

    A named house ruleset of ``spec/rulesets.yaml`` is added with its declared base,
    readings, title and description; it may be the base of a derived name.

    :raises InputError: for an unknown ruleset (with the closest known one) or a malformed
        derived name (see :func:`parse_name`).
    """
    if name in spec.rulesets:
        return spec
    declared = spec.house_rulesets.get(name)
    if declared is not None:  # a named house ruleset of spec/rulesets.yaml
        return derive(spec, name, str(declared["base"]), {str(p): str(r) for p, r in declared["readings"].items()},
                      title=str(declared["title"]), description=str(declared["description"]))
    base, readings = parse_name(spec, name, place, file)
    if not readings:  # a plain name: parse_name found it unknown already, or a named house ruleset
        return resolve(spec, base, place, file)
    return derive(resolve(spec, base, place, file), name, base, readings)


def resolve_all(spec: Spec, names: Sequence[str]) -> Spec:
    """``spec`` with every derived ruleset of ``names`` added (:func:`resolve`); the same
    object for the same spec and names (the rulebook caches by spec)."""
    key = (id(spec), tuple(names))
    hit = _RESOLVED.get(key)
    if hit is not None and hit[0] is spec:
        return hit[1]
    out = spec
    for n in dict.fromkeys(names):
        out = resolve(out, n, None)
    _RESOLVED[key] = (spec, out)
    return out


_RESOLVED: dict[tuple[int, tuple[str, ...]], tuple[Spec, Spec]] = {}


def settling(spec: Spec, ruleset: str, point: str) -> list[str]:
    """The rulesets and named house rulesets of ``spec`` that read ``point`` (not open),
    those first that read every rule module's switch as ``ruleset`` does (so a module in
    play stays in play), each group in spec order; ``ruleset`` itself is left out.

    :returns: ruleset names, for a hint after play stopped at ``point`` under ``ruleset``.
    """
    names = [*spec.rulesets, *(h for h in spec.house_rulesets if h not in spec.rulesets)]
    full = resolve_all(spec, [n for n in names if n not in spec.rulesets])

    def reading(rs: str, vp: str) -> str:
        v = full.variation_points.get(vp)
        return str(v.choices.get(rs, OPEN)) if v is not None else OPEN

    switches = [m.point for m in spec.modules.values()]
    open_there = [n for n in names if n != ruleset and reading(n, point) != OPEN]
    same = [n for n in open_there if all(reading(n, p) == reading(ruleset, p) for p in switches)]
    return same + [n for n in open_there if n not in same]


def notes(spec: Spec, base: str, readings: Mapping[str, str]) -> list[str]:
    """Remarks on ``readings`` applied to ``base`` that change nothing: a point without an
    engine parameter (its reading is recorded, but plays the same), a reading ``base``
    already takes."""
    from palast.lang.logic import parameter_table

    played = {point for point, _ in parameter_table(spec).values()}
    out: list[str] = []
    for point, reading in readings.items():
        vp = spec.variation_points[point]
        if point not in played and point in spec.visibility.points():
            out.append(f"{point} changes only what players know: reading it as {reading} changes no play, only "
                       "the players' views (palast ask --as, palast replay --as)")
        elif point not in played:
            out.append(f"{point} sets no engine parameter ({vp.kind} point): reading it as {reading} is recorded "
                       "in the ruleset's name but changes no play")
        elif vp.choices[base] == reading:
            out.append(f"{base} already reads {point} as {reading}")
    return out


# ------------------------------------------------------------------------- ruleset files
@dataclass(frozen=True)
class RulesetFile:
    """A house ruleset read from a file.

    :ivar name: the ruleset's id.
    :ivar base: the ruleset it is built on.
    :ivar readings: point -> reading, in file order.
    :ivar file: the file it was read from.
    :ivar notes: remarks on readings that change nothing (:func:`notes`).
    """

    name: str
    base: str
    readings: Mapping[str, str]
    file: str
    notes: tuple[str, ...] = ()


def load_ruleset_file(path: Path | str, spec: Spec) -> RulesetFile:
    """Read and validate a ruleset file (schema ``spec/schema/house-ruleset.schema.json``).

    :raises InputError: naming the file, the line and the key, for a file that is missing,
        not YAML or not of the schema, a name that is already a ruleset, an unknown base,
        point or reading (with the closest known one).
    """
    from palast.spec.schemas import schema_errors

    doc = read_yaml(path)
    if not isinstance(doc.data, dict):
        raise InputError("a ruleset file is a mapping with name, base and readings", doc.file, "top level")
    problems = schema_errors(doc, spec.root / "schema", SCHEMA)
    if problems:
        first = problems[0].split(": ", 1)[1] if problems[0].startswith(doc.file + ": ") else problems[0]
        more = "; ".join(p.split(": ", 1)[1] if p.startswith(doc.file + ": ") else p for p in problems[1:])
        raise InputError(first + (f"; {more}" if more else ""), doc.file)
    data = doc.data
    name, base = str(data["name"]), str(data["base"])
    if name in spec.rulesets or name in spec.house_rulesets:
        raise doc.error(["name"], f"{name!r} is already a ruleset of the spec; give the house ruleset a name of "
                                  "its own")
    if base not in spec.rulesets and base not in spec.house_rulesets:
        raise doc.error(["base"], f"unknown ruleset {base!r}{_hint(base, known(spec))} "
                                  f"(known: {', '.join(known(spec))})")
    readings: dict[str, str] = {}
    for point, reading in data["readings"].items():
        _check_in_file(doc, spec, str(point), str(reading))
        readings[str(point)] = str(reading)
    # a named house ruleset may be the base: its readings are known once it is resolved
    return RulesetFile(name, base, readings, doc.file, tuple(notes(resolve(spec, base), base, readings)))


def _check_in_file(doc: Document, spec: Spec, point: str, reading: str) -> None:
    if point not in spec.variation_points:
        raise InputError(f"unknown variation point {point!r}{_hint(point, list(spec.variation_points))} "
                         "(palast explain POINT shows a point and its readings)",
                         doc.file, doc.place_key(["readings"], point))
    check_reading(spec, point, reading, doc.place(["readings", point]), doc.file)


# ------------------------------------------------------------------------- command options
@dataclass(frozen=True)
class Selection:
    """The rulesets a command runs under once its house rules are applied.

    :ivar spec: the spec with every house ruleset added.
    :ivar rulesets: the rulesets to run, in order (empty: none named and no house rules;
        the command uses its own default).
    :ivar notes: remarks for the user (readings that change nothing, readings replaced).
    :ivar house: the rulesets of ``rulesets`` that are house rulesets.
    """

    spec: Spec
    rulesets: tuple[str, ...]
    notes: tuple[str, ...] = ()
    house: tuple[str, ...] = ()


def select(spec: Spec, asked: Sequence[str], readings: Sequence[str], ruleset_file: str | None = None, *,
           default: Sequence[str] | None = None) -> Selection:
    """Apply a command's ``-r`` values, ``--ruleset-file`` and ``--reading`` options.

    The rulesets asked are the ``-r`` values (ruleset ids or derived names, or the name the
    file gives its ruleset) and the ruleset of the file, in that order. ``--reading``
    readings apply on top of each of them, or of ``default`` (the spec's default ruleset
    unless given) when none is asked; the derived rulesets replace the ones they are built
    on.

    :raises InputError: for an unknown ruleset, a malformed ruleset file, a bad
        ``POINT=READING`` or a point given twice.
    """
    out = spec
    names: list[str] = []
    remarks: list[str] = []
    rf = load_ruleset_file(ruleset_file, out) if ruleset_file is not None else None
    for r in asked:
        if rf is None or r != rf.name:  # the file's own ruleset is derived below
            out = resolve(out, r)
        names.append(r)
    if rf is not None:
        out = derive(resolve(out, rf.base), rf.name, rf.base, rf.readings)
        names.append(rf.name)
        remarks.extend(rf.notes)
    chosen = parse_readings(out, readings)
    if chosen:
        bases = names or list(default or [spec.default_ruleset])
        names = []
        for b in dict.fromkeys(bases):
            _, before = house_readings(out, b)
            for p, r in chosen.items():
                if p in before and before[p] != r:
                    remarks.append(f"--reading {p}={r} replaces {b}'s reading {p}={before[p]}")
            remarks.extend(notes(out, b, chosen))
            name = derived_name(out, b, chosen)
            if name not in out.rulesets:
                out = derive(out, name, b, chosen)
            names.append(name)
    names = list(dict.fromkeys(names))
    house = tuple(n for n in names if house_readings(out, n)[0] is not None)
    return Selection(out, tuple(names), tuple(dict.fromkeys(remarks)), house)


def label(spec: Spec, ruleset: str) -> str:
    """``ruleset``, followed by what it is in brackets where its name does not say it: a
    house ruleset of a file (``tally (reference with game-end-tiebreak=most-played-total)``)
    or one built on it."""
    base, readings = house_readings(spec, ruleset)
    if base is None or ruleset == JOIN.join([base, *(f"{p}{SET}{r}" for p, r in readings.items())]):
        return ruleset
    return f"{ruleset} ({describe(spec, ruleset)})"


def render_notes(selection: Selection) -> list[str]:
    """Lines for standard error: each house ruleset whose name does not say what it is,
    with its base and readings, then the notes."""
    lines = [f"house rules: {label(selection.spec, n)}" for n in selection.house
             if label(selection.spec, n) != n]
    return lines + [f"note: {n}" for n in selection.notes]
