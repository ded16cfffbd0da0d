"""Game records: a played or hand-written game as JSON Lines.

A record is a text file with one JSON object per line (blank lines are allowed):

1. a **header**: ``{"format": "palast-record", "version": 1, "players": [...], ...}`` with
   the seated colours in seat order and, optionally, the ruleset, the seed, the policy,
   a digest of the spec it was written with and a free-text note. A game played with house
   rules (:mod:`palast.formats.house`) also names the ``base`` ruleset of ``spec/rulesets.yaml``
   and the ``readings`` it takes otherwise (``{"final-tie": "shared"}``), so a replay plays
   it under the same readings; records without them are read as before;
2. one line per **action**, oldest first: ``{"action": "play maid/red", "by": "blue"}`` in
   the notation of ``palast ask`` (:mod:`palast.formats.notation`). Chance actions are actions too:
   ``deal ...``, ``draw CARD`` and ``reveal ROLE`` (``"by": "chance"``). ``by`` and ``note``
   are optional;
3. optionally a **result**: ``{"result": {"end": "game-over", "winners": [...], "scores":
   {...}, "rounds": 6}}`` or ``{"result": {"end": "gap", "gap": "VARIATION-POINT", ...}}``.

:func:`write_record` and :func:`read_record` are the matched pair (python-chess style);
:func:`format_record` / :func:`parse_record` do the same on text. Writing is atomic: the
record goes to a temporary file in the target directory, which then replaces the target.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from palast.engine.game import Game
from palast.engine.state import DecisionKind, State
from palast.errors import InputError
from palast.formats.notation import format_action
from palast.sim.play import Move
from palast.spec.load import Spec
from palast.spec.schemas import strict_validator_class
from palast.spec.yamlio import MAX_BYTES, read_text

#: The value of the header's ``format`` key.
FORMAT = "palast-record"
#: The record format version this module writes and reads.
VERSION = 1

_COLOUR = {"type": "string", "minLength": 1, "description": "a colour, e.g. \"red\""}
_HEADER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "version", "players"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "players": {"type": "array", "items": _COLOUR, "minItems": 1,
                    "description": 'the seated colours in seat order, e.g. ["red", "blue", "green"]'},
        "ruleset": {"type": ["string", "null"], "description": 'a ruleset id, e.g. "reference"'},
        "seed": {"type": ["integer", "null"], "description": "a whole number"},
        "policy": {"type": ["string", "null"]},
        "spec": {"type": ["string", "null"]},
        "written_by": {"type": "string"},
        "note": {"type": "string"},
        "base": {"type": "string", "minLength": 1,
                 "description": 'the ruleset house rules are built on, e.g. "reference"'},
        "readings": {"type": "object", "minProperties": 1,
                     "additionalProperties": {"type": "string", "minLength": 1},
                     "description": 'variation point -> reading, e.g. {"final-tie": "shared"}'},
    },
    "dependentRequired": {"base": ["readings"], "readings": ["base"]},
}
_ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["action"],
    "additionalProperties": False,
    "properties": {
        "action": {"type": "string", "minLength": 1,
                   "description": 'an action in palast notation, e.g. "play maid/red"'},
        "by": {"type": "string", "minLength": 1},
        "note": {"type": "string"},
    },
}
_RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["result"],
    "additionalProperties": False,
    "properties": {
        "result": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "end": {"enum": ["game-over", "gap"]},
                "winners": {"type": "array", "items": _COLOUR, "description": 'a list of colours, e.g. ["red"]'},
                "shared": {"type": "boolean"},
                "tiebreak": {"type": ["string", "null"]},
                "scores": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                           "description": 'colour -> score, e.g. {"red": 4}'},
                "rounds": {"type": "integer", "minimum": 0},
                "gap": {"type": "string"},
            },
        },
        "note": {"type": "string"},
    },
}
_VALIDATORS = {kind: strict_validator_class()(schema)  # 7.0 is not a whole number
               for kind, schema in (("header", _HEADER_SCHEMA), ("action", _ACTION_SCHEMA),
                                    ("result", _RESULT_SCHEMA))}


class RecordError(InputError):
    """A record file cannot be read: bad JSON, a line of the wrong shape, a header that
    names unknown things, or an action whose notation cannot be parsed."""


@dataclass(frozen=True)
class RecordedAction:
    """One action line.

    :ivar text: the action in palast notation.
    :ivar by: who decided it as the record says: a colour, ``"chance"``, or ``None``.
    :ivar line: its line number in the file (1-based; 0 for a record built in memory).
    :ivar note: a free-text note, or ``None``.
    """

    text: str
    by: str | None = None
    line: int = 0
    note: str | None = None


@dataclass(frozen=True)
class RecordResult:
    """The result line: each field ``None`` when the record leaves it out.

    :ivar end: ``"game-over"`` or ``"gap"``.
    :ivar winners: the winning colours.
    :ivar shared: whether the win is shared after the tie-break.
    :ivar tiebreak: the tie-break reading that decided the game, or ``None``.
    :ivar scores: colour -> final score.
    :ivar rounds: the number of rounds dealt.
    :ivar gap: the open variation point play stopped at.
    :ivar line: its line number in the file.
    """

    end: str | None = None
    winners: tuple[str, ...] | None = None
    shared: bool | None = None
    tiebreak: str | None = None
    scores: Mapping[str, int] | None = None
    rounds: int | None = None
    gap: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Record:
    """A game record.

    :ivar players: the seated colours in seat order (the first seat starts).
    :ivar actions: the actions from the first deal on.
    :ivar ruleset: the ruleset it was played under, or ``None`` (replay then uses the
        spec's default).
    :ivar seed: the seed of a generated game, or ``None``.
    :ivar policy: the policy of a generated game, or ``None``.
    :ivar spec_digest: :func:`spec_digest` of the spec it was written with, or ``None``.
    :ivar result: the result line, or ``None`` (a hand-written record may leave it out).
    :ivar note: the header's note, or ``None``.
    :ivar written_by: the program that wrote it, or ``None``.
    :ivar file: the file it was read from, or ``None``.
    :ivar base: for a game played with house rules, the ruleset they are built on, else ``None``.
    :ivar readings: for house rules, (variation point, reading) pairs it reads otherwise than ``base``.
    """

    players: tuple[str, ...]
    actions: tuple[RecordedAction, ...] = ()
    ruleset: str | None = None
    seed: int | None = None
    policy: str | None = None
    spec_digest: str | None = None
    result: RecordResult | None = None
    note: str | None = None
    written_by: str | None = None
    file: str | None = field(default=None, compare=False)
    base: str | None = None
    readings: tuple[tuple[str, str], ...] = ()


# ---------------------------------------------------------------------- building records
def spec_digest(spec: Spec) -> str:
    """A digest of the spec's YAML files (names and bytes), ``"sha256:"`` and 16 hex digits.

    Two specs with the same digest hold the same rules; a record notes the digest so a
    replay can say when the rules changed since it was written.
    """
    h = hashlib.sha256()
    for path in sorted(Path(spec.root).glob("*.yaml")):
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return "sha256:" + h.hexdigest()[:16]


def result_of(game: Game, state: State) -> RecordResult | None:
    """The result line for the final ``state`` of ``game``: the winners (game over) or the
    open variation point (gap); ``None`` while the game goes on."""
    scores = {game.colour_name(s): v for s, v in enumerate(state.scores)}
    d = state.decision
    if d.kind == DecisionKind.GAME_OVER and state.result is not None:
        r = state.result
        return RecordResult("game-over", tuple(game.colour_name(s) for s in r.winners), r.shared,
                            r.tiebreak or None, scores, state.round)
    if d.kind == DecisionKind.GAP:
        return RecordResult("gap", scores=scores, rounds=state.round, gap=d.point)
    return None


def record_game(game: Game, moves: Iterable[Move], *, seed: int | None = None, policy: str | None = None,
                written_by: str | None = None) -> Record:
    """Build the record of a played game.

    :param game: the game the moves were played in (its seats and ruleset go in the header,
        with the base and readings of house rules, :func:`header_base`).
    :param moves: the moves from the first deal on, as :func:`palast.sim.play.play_moves` yields them.
    :returns: the record, with a result line if the last move ended the game or reached a gap.
    """
    actions: list[RecordedAction] = []
    final: State | None = None
    for m in moves:
        by = "chance" if m.chance else game.colour_name(m.before.decision.player)
        actions.append(RecordedAction(format_action(game, m.action), by))
        final = m.step.state
    base, readings = header_base(game.spec, game.ruleset)
    return Record(
        players=tuple(game.colour_name(s) for s in range(game.n)),
        actions=tuple(actions),
        ruleset=game.ruleset,
        seed=seed,
        policy=policy,
        spec_digest=spec_digest(game.spec),
        result=result_of(game, final) if final is not None else None,
        written_by=written_by,
        base=base,
        readings=tuple(readings.items()),
    )


def header_base(spec: Spec, ruleset: str) -> tuple[str | None, dict[str, str]]:
    """The ``base`` and ``readings`` a record's header gives for ``ruleset``: ``(None, {})``
    for a ruleset of the spec; for house rules on top of a named house ruleset (the
    nearest one ``ruleset`` derives from, :func:`palast.spec.house_rulesets.lineage`), that
    one, so that the replay derives from it too (check mode follows its prove list), with
    what ``ruleset`` reads otherwise than it (its own readings where nothing differs); for
    other house rules, the ruleset of the spec they rest on and every reading they take
    otherwise (:func:`palast.formats.house.derive`)."""
    from palast.spec.house_rulesets import lineage

    entry = spec.rulesets[ruleset]
    root = entry.get("base")
    if root is None:
        return None, {}
    named = next((x for x in lineage(spec, ruleset)[1:] if x in spec.house_rulesets and x in spec.rulesets), None)
    if named is None:
        return str(root), {str(p): str(r) for p, r in dict(entry.get("readings", {})).items()}
    other = {p: str(vp.choices[ruleset]) for p, vp in spec.variation_points.items()
             if vp.choices.get(ruleset) != vp.choices.get(named)}
    return named, other or {str(p): str(r) for p, r in dict(spec.house_rulesets[named].get("readings") or {}).items()}


# ---------------------------------------------------------------------- text
def _header_dict(record: Record) -> dict[str, Any]:
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "players": list(record.players)}
    for key, value in (("ruleset", record.ruleset), ("seed", record.seed), ("policy", record.policy),
                       ("spec", record.spec_digest), ("written_by", record.written_by), ("note", record.note)):
        if value is not None:
            out[key] = value
    if record.base is not None:
        out["base"] = record.base
        out["readings"] = dict(record.readings)
    return out


def _result_dict(r: RecordResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if r.end is not None:
        out["end"] = r.end
    if r.winners is not None:
        out["winners"] = list(r.winners)
    if r.shared is not None:
        out["shared"] = r.shared
    if r.tiebreak is not None:
        out["tiebreak"] = r.tiebreak
    if r.gap is not None:
        out["gap"] = r.gap
    if r.scores is not None:
        out["scores"] = dict(r.scores)
    if r.rounds is not None:
        out["rounds"] = r.rounds
    return out


def format_record(record: Record) -> str:
    """The record as JSON Lines text (header, actions, result), ending in a newline."""
    lines = [json.dumps(_header_dict(record), ensure_ascii=False)]
    for a in record.actions:
        item: dict[str, Any] = {"action": a.text}
        if a.by is not None:
            item["by"] = a.by
        if a.note is not None:
            item["note"] = a.note
        lines.append(json.dumps(item, ensure_ascii=False))
    if record.result is not None:
        lines.append(json.dumps({"result": _result_dict(record.result)}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _plain_action(obj: Any) -> bool:
    """True if ``obj`` certainly satisfies the action line's schema (the common case, checked
    without jsonschema, which takes a hundred times longer)."""
    return (type(obj) is dict and obj.keys() <= {"action", "by", "note"}
            and type(obj.get("action")) is str and obj["action"] != ""
            and ("by" not in obj or (type(obj["by"]) is str and obj["by"] != ""))
            and ("note" not in obj or type(obj["note"]) is str))


def _check(kind: str, obj: Any, file: str, line: int) -> None:
    from palast.spec.schemas import friendly_message

    if kind == "action" and _plain_action(obj):
        return
    errors = sorted(_VALIDATORS[kind].iter_errors(obj), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        problems = []
        for e in errors:
            where = ".".join(str(p) for p in e.absolute_path)
            problems.append(f"{kind} line{', ' + where if where else ''}: {friendly_message(e)}")
        raise RecordError("; ".join(problems), file, f"line {line}")


#: Deepest nesting accepted in one record line; a record needs three levels.
MAX_JSON_DEPTH = 32


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _json_depth(text: str) -> int:
    """The deepest bracket nesting in ``text``, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _json_line(raw: str, file: str, number: int) -> Any:
    """Parse one line of a record as JSON.

    :raises RecordError: for text that is not JSON, a key given twice in one object,
        nesting deeper than :data:`MAX_JSON_DEPTH`, or a number too long to read.
    """
    where = f"line {number}"
    if raw.count("[") + raw.count("{") > MAX_JSON_DEPTH and _json_depth(raw) > MAX_JSON_DEPTH:
        raise RecordError(f"nested more than {MAX_JSON_DEPTH} levels deep; a record line is a flat JSON object",
                          file, where)
    try:
        return json.loads(raw, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg}", file, f"{where}, column {exc.colno}") from None
    except _DuplicateKey as exc:
        raise RecordError(f"the key {exc.key!r} is given twice", file, where) from None
    except (ValueError, RecursionError) as exc:
        what = ("a number has thousands of digits; no value in a record needs more than a few"
                if "integer string conversion" in str(exc) else str(exc))
        raise RecordError(f"not valid JSON: {what}", file, where) from None


def parse_record(text: str, file: str = "<record>") -> Record:
    """Read a record from JSON Lines ``text``.

    :param file: the name used in error messages.
    :returns: the :class:`Record` (actions are kept as text; :mod:`palast.query.replay` parses
        them against the seated players).
    :raises RecordError: naming the file, the line and the problem, for a line that is not
        a JSON object, a missing or malformed header, an action or result line of the wrong
        shape, or anything after the result line.
    """
    header: dict[str, Any] | None = None
    actions: list[RecordedAction] = []
    result: RecordResult | None = None
    # JSON Lines ends a line only at "\n"; str.splitlines would also split at U+2028 and
    # U+0085, which json.dumps(ensure_ascii=False) leaves inside strings
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        obj = _json_line(raw, file, number)
        if not isinstance(obj, dict):
            raise RecordError("each line must be a JSON object", file, f"line {number}")
        if header is None:
            if "format" not in obj:
                raise RecordError(f'the first line must be the header {{"format": "{FORMAT}", "version": '
                                  f'{VERSION}, "players": [...]}}', file, f"line {number}")
            _check("header", obj, file, number)
            header = obj
            continue
        if result is not None:
            raise RecordError(f"nothing may follow the result line (line {result.line})", file, f"line {number}")
        if "action" in obj:
            _check("action", obj, file, number)
            actions.append(RecordedAction(obj["action"].strip(), obj.get("by"), number, obj.get("note")))
        elif "result" in obj:
            _check("result", obj, file, number)
            r = obj["result"]
            winners = r.get("winners")
            result = RecordResult(r.get("end"), tuple(winners) if winners is not None else None, r.get("shared"),
                                  r.get("tiebreak"), r.get("scores"), r.get("rounds"), r.get("gap"), number)
        else:
            raise RecordError('a line after the header must be an action {"action": ...} or the result '
                              '{"result": {...}}', file, f"line {number}")
    if header is None:
        raise RecordError("the record is empty: it needs at least a header line", file)
    return Record(
        players=tuple(header["players"]), actions=tuple(actions), ruleset=header.get("ruleset"),
        seed=header.get("seed"), policy=header.get("policy"), spec_digest=header.get("spec"), result=result,
        note=header.get("note"), written_by=header.get("written_by"), file=file, base=header.get("base"),
        readings=tuple(header.get("readings", {}).items()),
    )


# ---------------------------------------------------------------------- files
def read_record(path: str | os.PathLike[str]) -> Record:
    """Read the record in file ``path``.

    :returns: the :class:`Record`, with ``file`` set to ``path``.
    :raises RecordError: if the file is missing, too large, not UTF-8, or malformed (see
        :func:`parse_record`).
    """
    name = os.fspath(path)
    try:
        text = read_text(name, MAX_BYTES, kind="records")
    except InputError as exc:
        raise RecordError(exc.message, exc.file, exc.place) from None
    return parse_record(text, name)


def _record_target(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The target file and its directory, checked as far as can be without writing.

    :raises InputError: if ``path`` is a directory or another non-regular file, or its
        directory does not exist.
    """
    target = Path(os.fspath(path))
    if target.is_dir():
        raise InputError("is a directory; give a file name for the record", str(target))
    if target.exists() and not target.is_file():
        raise InputError("is not a regular file; give a file name for the record", str(target))
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{directory} is not a directory" if directory.exists()
                         else "the directory to write the record in does not exist", str(target))
    return target, directory


def check_writable(path: str | os.PathLike[str]) -> None:
    """Check that :func:`write_record` can write ``path``, before the game is played:
    it creates and removes a temporary file beside it, and leaves ``path`` as it was.

    :raises InputError: naming ``path``, if it is a directory or not a regular file, its
        directory does not exist, or nothing can be written there.
    """
    if not os.fspath(path):
        raise InputError("the record needs a file name (--record FILE)", None, "--record")
    target, directory = _record_target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror}", str(target)) from None
    os.close(fd)
    os.unlink(tmp)


def write_record(path: str | os.PathLike[str], record: Record) -> None:
    """Write ``record`` to ``path`` atomically.

    The text goes to a temporary file in the same directory, is flushed to disk, and then
    replaces ``path`` in one step (``os.replace``); an interrupted write leaves ``path`` as
    it was and no temporary file behind.

    :raises InputError: if ``path`` is a directory or not a regular file, or the directory
        does not exist or cannot be written.
    """
    target, directory = _record_target(path)
    text = format_record(record)
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror}", str(target)) from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp creates 0600; give the record the usual mode
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
