"""Rule modules (``spec/modules/*.yaml``): optional rules a ruleset switches on, such as
source B's fan expansion (B.fan), and where every rule of the spec is declared.

A module file declares the module (``module:``: its id, title, statement, clauses, the
variation point reading that switches it on, and the invariants of the base game it breaks,
each with a ruling that shows it), its rules (``rules:``, written as in ``spec/rules.yaml``)
and the rules it adds to a role's action (``roles:``, as in ``spec/roles.yaml``). Its rules
are rules of the spec like any other: the engine runs them, the book gives each a page.
Whether a module is in play is decided by its rules themselves (each reads the switch
point); the module's ``switch`` says which reading that is, for the invariant checks and
the book.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palast.spec.load import Spec
    from palast.spec.yamlio import Document

#: The folder of the module files, inside the spec directory.
FOLDER = "modules"
#: The schema every module file must satisfy.
SCHEMA = "module.schema.json"


@dataclass(frozen=True)
class Breaks:
    """An invariant of the base game that does not hold with a module in play.

    :ivar invariant: the invariant's id (``spec/invariants.yaml``).
    :ivar because: why, in words.
    :ivar witness: the ruling (``spec/rulings/<id>.yaml``) whose play shows it.
    """

    invariant: str
    because: str
    witness: str


@dataclass(frozen=True)
class Module:
    """One rule module.

    :ivar id: its id; :ivar title: its title; :ivar statement: what it adds, in words.
    :ivar clauses: the clause ids it rests on.
    :ivar file: its file name inside the spec directory (``modules/fan.yaml``).
    :ivar point: the variation point that switches it on; :ivar reading: the reading that does.
    :ivar breaks: the base game's invariants it breaks.
    :ivar rules: the ids of its rules, in file order (its role rules last).
    """

    id: str
    title: str
    statement: str
    clauses: tuple[str, ...]
    file: str
    point: str
    reading: str
    breaks: tuple[Breaks, ...]
    rules: tuple[str, ...]


def module_files(root: Path) -> list[tuple[str, str]]:
    """The module files of the spec directory ``root``: ``(name, schema)`` pairs, the name
    relative to ``root`` (``modules/fan.yaml``), sorted; none when there is no folder."""
    folder = root / FOLDER
    if not folder.is_dir():
        return []
    return [(f"{FOLDER}/{p.name}", SCHEMA) for p in sorted(folder.glob("*.yaml"))]


def rule_entries(docs: Mapping[str, Document]) -> Iterator[tuple[Mapping[str, Any], str, tuple[str | int, ...],
                                                                     str | None]]:
    """Every rule declared in the spec documents ``docs``: ``(rule, file, path, role)`` for
    the rules of ``rules.yaml``, the role rules of ``roles.yaml``, then each module's rules
    and role rules; ``path`` is the rule's key path in its file, ``role`` the role whose
    action it belongs to (``None`` for a rule of play)."""
    for i, r in enumerate(docs["rules.yaml"].data["rules"]):
        yield r, "rules.yaml", ("rules", i), None
    for i, ra in enumerate(docs["roles.yaml"].data["roles"]):
        for j, r in enumerate(ra["rules"]):
            yield r, "roles.yaml", ("roles", i, "rules", j), str(ra["role"])
    for name in sorted(n for n in docs if n.startswith(FOLDER + "/")):
        data = docs[name].data
        for i, r in enumerate(data.get("rules") or ()):
            yield r, name, ("rules", i), None
        for i, ra in enumerate(data.get("roles") or ()):
            for j, r in enumerate(ra["rules"]):
                yield r, name, ("roles", i, "rules", j), str(ra["role"])


def read_modules(docs: Mapping[str, Document]) -> dict[str, Module]:
    """The modules of the spec documents ``docs``, by id, in file order."""
    out: dict[str, Module] = {}
    for name in sorted(n for n in docs if n.startswith(FOLDER + "/")):
        data = docs[name].data
        m = data["module"]
        rules = [str(r["id"]) for r in data.get("rules") or ()]
        rules += [str(r["id"]) for ra in data.get("roles") or () for r in ra["rules"]]
        out[str(m["id"])] = Module(
            str(m["id"]), str(m["title"]), str(m["statement"]), tuple(m["clauses"]), name,
            str(m["switch"]["point"]), str(m["switch"]["reading"]),
            tuple(Breaks(str(b["invariant"]), str(b["because"]), str(b["witness"])) for b in m.get("breaks") or ()),
            tuple(rules))
    return out


def module_problems(spec: Spec) -> list[str]:
    """What is wrong with the modules of ``spec`` that their schema cannot say, each as
    ``"FILE: line L, column C (key): message"``: a module id declared twice, a switch point
    or reading the spec does not have, a role the game does not have, an invariant broken
    that is not declared, a witness ruling that does not exist, a module rule named in the
    base game's rules or flow (:data:`BASE_FILES`), and a rule of the module that
    is not switched by it: each rule's first readings block must read the switch point, apply
    under the switch reading and under no other (``applies: false``), so that with the module
    off none of its rules applies."""
    out: list[str] = []
    seen: set[str] = set()
    rulings = spec.root / "rulings"
    for m in spec.modules.values():
        doc = spec.documents[m.file]

        def at(path: list[str | int], msg: str, doc: Document = doc) -> None:
            out.append(f"{doc.file}: {doc.place(path)}: {msg}")

        if m.id in seen:
            at(["module", "id"], f"module {m.id!r} is declared twice")
        seen.add(m.id)
        vp = spec.variation_points.get(m.point)
        if vp is None:
            at(["module", "switch", "point"], f"unknown variation point {m.point!r}")
        elif m.reading not in [r.id for r in vp.readings]:
            at(["module", "switch", "reading"], f"{m.point} has no reading {m.reading!r} "
                                                f"(its readings: {', '.join(r.id for r in vp.readings)})")
        for i, ra in enumerate(doc.data.get("roles") or ()):
            if str(ra["role"]) not in spec.roles:
                at(["roles", i, "role"], f"unknown role {ra['role']!r} (roles: {', '.join(spec.roles)})")
        if vp is not None:
            others = [r.id for r in vp.readings if r.id != m.reading]
            for path, raw in _module_rules(doc.data):
                problem = _unswitched(raw, m.point, m.reading, others)
                if problem is not None:
                    key, msg = problem
                    at([*path, *key], f"rule {raw.get('id')!r} {msg}")
        for file in BASE_FILES:
            base = spec.documents.get(file)
            for path, name in _mentions(base.data if base is not None else None, set(m.rules), []):
                out.append(f"{base.file}: {base.place(path)}: names {name}, a rule of module {m.id} "  # type: ignore[union-attr]
                           f"({m.file}); the base game names no module rule: say it in the module (before, flow)")
        for i, b in enumerate(m.breaks):
            if b.invariant not in spec.invariants:
                at(["module", "breaks", i, "invariant"], f"unknown invariant {b.invariant!r}")
            if not (rulings / f"{b.witness}.yaml").is_file():
                at(["module", "breaks", i, "witness"], f"witness ruling {b.witness!r} does not exist "
                                                        f"(spec/rulings/{b.witness}.yaml)")
    return out


#: The base game's rules and turn flow, which must not name a rule module's rules (so that
#: a module can be taken out or changed without touching them).
BASE_FILES = ("rules.yaml", "roles.yaml", "flow.yaml")


def _mentions(data: Any, names: set[str], path: list[str | int]) -> Iterator[tuple[list[str | int], str]]:
    """Each place in ``data`` (parsed YAML) whose value is one of ``names``, with its key path."""
    if isinstance(data, str):
        if data in names:
            yield path, data
    elif isinstance(data, Mapping):
        for k, v in data.items():
            yield from _mentions(v, names, [*path, str(k)])
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _mentions(v, names, [*path, i])


def _module_rules(data: Mapping[str, Any]) -> Iterator[tuple[list[str | int], Mapping[str, Any]]]:
    """Each rule of a module file's data with its key path: its rules, then its role rules."""
    for i, r in enumerate(data.get("rules") or ()):
        yield ["rules", i], r
    for i, ra in enumerate(data.get("roles") or ()):
        for j, r in enumerate(ra.get("rules") or ()):
            yield ["roles", i, "rules", j], r


def _unswitched(rule: Mapping[str, Any], point: str, reading: str,
                others: list[str]) -> tuple[list[str | int], str] | None:
    """Why the module rule ``rule`` (raw data) is not switched by ``point``: ``(key path
    inside the rule, message)``, or ``None`` when its first readings block reads ``point``,
    applies under ``reading`` and has ``applies: false`` under each of ``others``."""
    logic = rule.get("logic")
    if not isinstance(logic, Mapping):
        return ["id"], f"declares no logic; a module's rule must read {point} (its switch) first"
    blocks = logic.get("readings")
    first = blocks[0] if isinstance(blocks, list) and blocks else blocks
    where: list[str | int] = ["logic", "readings", *([0] if isinstance(blocks, list) else [])]
    if not isinstance(first, Mapping) or first.get("point") != point:
        return ["logic"], (f"does not read the module's switch {point} in its first readings block, so it "
                           "would apply with the module off")
    on = first.get(reading)
    if not isinstance(on, Mapping) or on.get("applies") is False:
        return [*where], f"does not apply under {point}: {reading}, the reading that switches the module on"
    for other in others:
        off = first.get(other)
        if not isinstance(off, Mapping) or off.get("applies") is not False:
            return [*where, *([other] if other in first else [])], (
                f"applies under {point}: {other}, where the module is off (give that reading applies: false)")
    return None


def modules_in_play(spec: Spec, reading_of: Any) -> tuple[Module, ...]:
    """The modules that a game's ruleset switches on; ``reading_of(point)`` gives the
    ruleset's reading of a variation point."""
    return tuple(m for m in spec.modules.values() if reading_of(m.point) == m.reading)
