"""JSON Schema validation of the files palast reads (``spec/schema/*.schema.json``).

:func:`schema_errors` validates a parsed YAML document against one schema and words each
problem for a person (:func:`friendly_message`): the file, the line and key path, and
what is expected there. The schema files are read once per directory; a schema that is
not a valid JSON Schema is reported as a :class:`~palast.errors.SpecError` naming the
file and the place (:func:`schema_file_problems`), never as an error inside jsonschema.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from palast.errors import SpecError
from palast.spec.event_text import counted
from palast.spec.yamlio import Document, PathPart, json_keys


def _inline_refs(node: Any, schemas: Mapping[str, Any], current: str) -> Any:
    """Replace every ``$ref`` (``file#/pointer`` or ``#/pointer``) by the schema it points
    to, so validation does not resolve references at run time. Our schemas are not
    recursive, so this terminates."""
    if isinstance(node, dict):
        if "$ref" in node:
            ref = node["$ref"]
            file, _, pointer = ref.partition("#")
            file = file or current
            target: Any = schemas[file]
            for part in [p for p in pointer.split("/") if p]:
                target = target[part]
            merged = dict(_inline_refs(target, schemas, file))
            merged.update({k: _inline_refs(v, schemas, current) for k, v in node.items() if k != "$ref"})
            return merged
        return {k: _inline_refs(v, schemas, current) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(v, schemas, current) for v in node]
    return node


@lru_cache(maxsize=8)
def _schemas(schema_dir: Path) -> dict[str, Any]:
    """Every ``*.schema.json`` in ``schema_dir``, parsed.

    :raises SpecError: for a file that is too large, not UTF-8 or not JSON.
    """
    from palast.spec.yamlio import read_text

    schemas: dict[str, Any] = {}
    for p in sorted(schema_dir.glob("*.schema.json")):
        try:
            schemas[p.name] = json.loads(read_text(p, kind="schema files"))
        except json.JSONDecodeError as exc:
            raise SpecError(f"not valid JSON: {exc.msg}", str(p), f"line {exc.lineno}, column {exc.colno}") from None
        except (ValueError, RecursionError) as exc:
            raise SpecError(f"not valid JSON: {exc}", str(p)) from None
    return schemas


def schema_file_problems(schema_dir: Path) -> list[SpecError]:
    """Check every schema file in ``schema_dir`` against the JSON Schema meta-schema.

    This takes a noticeable fraction of a second, so loading the spec does it only when
    validating with a schema fails; ``palast spec check`` always does it.

    :returns: one :class:`SpecError` (file, place, problem) per schema file that is not a
        valid JSON Schema.
    :raises SpecError: if a schema file is not JSON.
    """
    import jsonschema

    out = []
    for name, schema in sorted(_schemas(schema_dir).items()):
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as exc:
            where = "/".join(str(x) for x in exc.absolute_path) or "top level"
            out.append(SpecError(f"not a valid JSON Schema: {exc.message}", str(schema_dir / name), where))
    return out


def _broken_schema(schema_dir: Path) -> SpecError | None:
    """The first schema file that is not a valid JSON Schema, or ``None``."""
    problems = schema_file_problems(schema_dir)
    return problems[0] if problems else None


def strict_validator_class() -> Any:
    """JSON Schema draft 2020-12 with ``integer`` meaning a whole number written as one:
    ``2`` is an integer and ``2.0`` is not (the standard counts ``2.0`` as an integer, which
    let ``round: 2.0`` pass while ``scores: {red: 1.5}`` was refused). ``true`` and
    ``false`` are not integers either.

    :returns: the validator class (built once).
    """
    return _strict_class()


@lru_cache(maxsize=1)
def _strict_class() -> Any:
    import jsonschema

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    return jsonschema.validators.extend(base, type_checker=checker)  # type: ignore[no-untyped-call]


@lru_cache(maxsize=32)
def _schema_validator(schema_dir: Path, name: str) -> Any:

    schemas = _schemas(schema_dir)
    if name not in schemas:
        raise SpecError(f"no schema {name}", str(schema_dir))
    try:
        schema = _inline_refs(schemas[name], schemas, name)
    except (KeyError, TypeError, IndexError) as exc:
        raise SpecError(f"a $ref in {name} points nowhere: {exc}", str(schema_dir)) from None
    except RecursionError:
        raise SpecError(f"a $ref in {name} refers to itself", str(schema_dir)) from None
    try:
        return strict_validator_class()(schema)
    except Exception:  # not a JSON Schema at all (a list, a number): say which file
        broken = _broken_schema(schema_dir)
        if broken is None:
            raise
        raise broken from None


def friendly_message(err: Any) -> str:
    """Turn a jsonschema error into a message that says how to fix the value.

    Unknown keys get a "did you mean" from the allowed keys; a missing key or a value
    matching none of the alternatives gets the schema's ``description`` of what is expected;
    a wrong type gets the type in words, with the description beside it (a description says
    what a field means, which need not name its type).
    """
    v = err.validator
    schema = err.schema if isinstance(err.schema, dict) else {}
    desc = schema.get("description")
    if v == "additionalProperties" and isinstance(err.instance, dict):
        allowed, extra = unknown_keys(err)
        parts = [unknown_key_message(k, allowed) for k in extra[:10]]
        if len(extra) > 10:
            parts.append(f"and {len(extra) - 10} more unknown keys")
        return "; ".join(parts) + allowed_keys(allowed)
    if v == "required":
        missing = str(err.message).split("'")[1] if "'" in str(err.message) else str(err.message)
        sub = schema.get("properties", {}).get(missing, {})
        what = sub.get("description") if isinstance(sub, dict) else None
        return f"missing key {missing!r}" + (f": add {missing}: {what}" if what else "")
    if v == "type" and _is_integer_type(schema.get("type")) and isinstance(err.instance, float):
        expected = desc if desc and "whole number" in desc else "a whole number" + (f" ({desc})" if desc else "")
        if err.instance.is_integer():  # the whole number to write, where it is short enough to read
            write = f" (write {int(err.instance)})" if abs(err.instance) < 1e15 else ""
            return f"expected {expected}, written without a decimal point; found {shown(err.instance)}{write}"
        return f"expected {expected}; found {shown(err.instance)}"
    if v == "type":
        t = schema.get("type")
        types = t if isinstance(t, list) else [t]
        named = desc is not None and any(desc.startswith(type_words(x)) for x in types)
        # beside a description (which says where null is allowed) the types but null
        words = type_words([x for x in types if x != "null"] or types) if desc else type_words(t)
        expected = (words if not desc else desc if named
                    else f"{words}: {desc}" if "(" in desc else f"{words} ({desc})")
        return f"expected {expected}; found {shown(err.instance)}"
    if v in ("oneOf", "anyOf"):
        expected = desc or (f"{type_words(schema.get('type'))}" if "type" in schema else "another kind of value")
        return f"expected {expected}; found {shown(err.instance)}"
    if v == "minimum":
        return f"must be at least {err.validator_value}; found {shown(err.instance)}"
    if v == "maximum":
        return f"must be at most {err.validator_value}; found {shown(err.instance)}"
    if v == "minItems":
        return f"needs at least {counted(err.validator_value, 'item', 'items')}"
    if v == "const":
        return f"must be {err.validator_value!r}; found {shown(err.instance)}"
    if v == "enum":
        return f"must be one of {', '.join(map(str, err.validator_value))}; found {shown(err.instance)}"
    if v == "maxLength":
        return f"must be at most {err.validator_value} characters long; found {len(err.instance)}"
    if v == "minProperties":
        return f"needs at least {counted(err.validator_value, 'key', 'keys')}" + (f" ({desc})" if desc else "")
    if v == "pattern":
        if desc:
            return f"expected {desc}; found {shown(err.instance)}"
        return f"{shown(err.instance)} is not written as this key's values are (the pattern {err.validator_value})"
    if v in ("dependentRequired", "dependencies") and isinstance(err.instance, dict):
        for key, needs in dict(err.validator_value).items():
            lacking = [k for k in needs if k not in err.instance] if isinstance(needs, list) else []
            if key in err.instance and lacking:
                return f"{key!r} needs {' and '.join(map(repr, lacking))} beside it: add {', '.join(lacking)}"
    return str(err.message)


#: How a message names each JSON Schema type.
TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
              "array": "a list", "object": "a mapping", "null": "nothing (null)"}


def type_words(t: Any) -> str:
    """The JSON Schema type (or list of types) ``t`` in words: ``"a list or text"``."""
    names = t if isinstance(t, list) else [t]
    return " or ".join(TYPE_WORDS.get(str(x), f"a value of type {x}") for x in names)


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as the user wrote it, in JSON flow style (which YAML reads too): ``null``,
    ``true``, ``"text"``, ``[1, 2]``; cut to about ``limit`` characters."""
    if isinstance(value, float) and value != value:
        return ".nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_integer_type(t: Any) -> bool:
    return t == "integer" or (isinstance(t, list) and "integer" in t and "number" not in t)


def unknown_keys(err: Any) -> tuple[list[str], list[Any]]:
    """For an ``additionalProperties`` error: the keys the schema allows (sorted) and the
    keys of the mapping it does not allow (in the mapping's order)."""
    schema = err.schema if isinstance(err.schema, dict) else {}
    allowed = sorted(schema.get("properties", {}))
    instance = err.instance if isinstance(err.instance, dict) else {}
    return allowed, [k for k in instance if k not in allowed]


def unknown_key_message(key: Any, allowed: list[str]) -> str:
    """``"unknown key 'banner'; did you mean 'banned'?"`` (the hint only for a close match)."""
    import difflib

    close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown key {key!r}{hint}"


def allowed_keys(allowed: list[str]) -> str:
    """``" (allowed keys: a, b)"``, or ``""`` when no key is allowed."""
    return f" (allowed keys: {', '.join(allowed)})" if allowed else ""


def schema_errors(doc: Document, schema_dir: Path, schema_name: str,
                  base: Sequence[PathPart] = ()) -> list[str]:
    """Validate ``doc`` (or the value at key path ``base`` inside it) against a schema in
    ``schema_dir``; return one message per problem.

    Each message names the file, line, column and key path of the offending value and says
    what is expected (:func:`friendly_message`). An unknown key is placed at the key
    itself, one message per key (the last one of a mapping lists the allowed keys).

    :raises SpecError: if a schema file is missing, not JSON, or not a valid JSON Schema.
    """
    validator = _schema_validator(schema_dir, schema_name)
    data: Any = doc.data
    for part in base:
        data = data[part]
    out = []
    try:
        errors = sorted(validator.iter_errors(json_keys(data)), key=lambda e: list(map(str, e.absolute_path)))
    except Exception:  # a schema that is not a JSON Schema fails inside jsonschema; say which file
        broken = _broken_schema(schema_dir)
        if broken is None:
            raise
        raise broken from None
    errors = _one_per_value([e for err in errors for e in _deepest(err)])
    for err in errors:
        path = [*base, *err.absolute_path]
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed, extra = unknown_keys(err)
            if extra:
                shown = extra[:10]
                for i, key in enumerate(shown):
                    last = i == len(shown) - 1 and len(extra) <= 10
                    out.append(f"{doc.file}: {doc.place_key(path, key)}: {unknown_key_message(key, allowed)}"
                               + (allowed_keys(allowed) if last else ""))
                if len(extra) > 10:
                    out.append(f"{doc.file}: {doc.place(path)}: and {len(extra) - 10} more unknown keys"
                               + allowed_keys(allowed))
                continue
        out.append(f"{doc.file}: {doc.place(path)}: {friendly_message(err)}")
    return sorted(out, key=_line_order)


def _one_per_value(errors: list[Any]) -> list[Any]:
    """``errors`` without those about a value whose type is wrong and that is no finite
    number: the bounds of a whole number say nothing more of ``.inf`` (``round: 1e9999``)
    or of a word, so such a place gets one message, the type's. A finite number of the
    wrong type keeps its bounds' messages (``round: 1e4`` is written with a decimal point
    and is above the maximum)."""
    def finite(x: Any) -> bool:
        return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)

    mistyped = {tuple(e.absolute_path) for e in errors if e.validator == "type" and not finite(e.instance)}
    return [e for e in errors if e.validator == "type" or tuple(e.absolute_path) not in mistyped]


def _deepest(err: Any) -> list[Any]:
    """For a value matching none of a ``oneOf``/``anyOf``'s alternatives, the errors
    inside it (an item of a list that is not a card, say), where an alternative fits its
    shape; otherwise ``[err]`` itself."""
    if err.validator not in ("oneOf", "anyOf") or not err.context:
        return [err]
    inner = [e for e in err.context if e.relative_path]
    return [d for e in inner for d in _deepest(e)] if inner else [err]


def _line_order(message: str) -> tuple[int, int]:
    """Sort key of a message by the line and column it names (messages naming none first)."""
    m = _PLACE.search(message)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


_PLACE = re.compile(r"line (\d+), column (\d+)")
