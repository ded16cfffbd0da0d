"""The sentences events are told in, as ``spec/visibility.yaml`` declares them (each effect's
``text``, ``cases`` and ``words``): the fields a sentence may name and how it is checked.
Filling one in for an event is :func:`palast.query.describe.describe_event`.

A sentence is a ``str.format`` template over :data:`TEXT_FIELDS`. A format spec
``one|many`` after a number says it with the noun that fits it (``{count:card|cards}``: "1
card", "2 cards"); after ``seats`` it says the players with the verb that fits them
(``{seats:wins|win}``); ``words`` says a number in words (``{hand_size:words}``: "six").
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from typing import Any

#: The fields a sentence may name: the event's seats, cards, role, number and detail; the
#: first and second of its seats and cards (a swap), the halves of its cards (an exchange);
#: the game's hand size.
TEXT_FIELDS: tuple[str, ...] = ("player", "other", "card", "cards", "role", "count", "seats", "detail", "seat_a",
                                "seat_b", "card_a", "card_b", "cards_a", "cards_b", "hand_size")
#: The fields a format spec ``one|many`` may follow (numbers, and the players of ``seats``).
COUNTED: frozenset[str] = frozenset({"count", "seats", "hand_size"})
#: Numbers in words, for the format spec ``words``.
NUMBER_WORDS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                 "ten", "eleven", "twelve")


def counted(n: int, one: str = "card", many: str = "cards") -> str:
    """``n`` with the noun that fits it, as the format spec ``one|many`` says it: "1 card",
    "2 cards"."""
    return f"{n} {one if n == 1 else many}"


def listed(names: Sequence[str], word: str = "and") -> str:
    """``names`` joined as a sentence lists them: "a", "a and b", "a, b and c" (``word``
    instead of "and": "a or b"); "" for none."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def template_problems(template: str, fields: tuple[str, ...] = TEXT_FIELDS,
                      counted: frozenset[str] = COUNTED, what: str = "an event's sentence") -> list[str]:
    """What is wrong with a sentence template: it does not parse, names a field that is not
    one of ``fields``, converts a field (``!r``), or gives a format spec that is neither
    ``one|many`` (two words, after a field of ``counted``) nor ``words`` (after a number of
    ``counted``).

    :param what: what the sentence is, for the messages.
    """
    try:
        parts = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template)
                 if name is not None]
    except ValueError as exc:
        return [f"the sentence does not parse: {exc}"]
    out: list[str] = []
    for name, spec, conv in parts:
        if name not in fields:
            out.append(f"{{{name}}} is no field of {what} (fields: {', '.join(fields)})")
        elif conv:
            out.append(f"{{{name}!{conv}}}: a field is said as it is, not converted")
        elif spec and not _spec_fits(name, spec, counted):
            out.append(f"{{{name}:{spec}}}: a format spec is one|many (two words) after "
                       f"{', '.join(sorted(counted)) or 'no field here'}, or words after a number")
    return out


def _spec_fits(name: str, spec: str, counted: frozenset[str]) -> bool:
    """Whether format spec ``spec`` may follow field ``name``."""
    if name not in counted or "{" in spec:
        return False
    if spec == "words":
        return name != "seats"
    words = spec.split("|")
    return len(words) == 2 and all(w.strip() for w in words)


#: What a case's ``if`` may compare, and how: a rule id, any detail, a number, or ``none``
#: for no player, card or role (a role may also be named by its id).
CASE_VALUES: tuple[str, ...] = ("rule", "detail", "count", "card", "role", "player", "other")


def case_problems(spec: Any, condition: Any) -> list[str]:
    """What is wrong with a case's ``if``: a rule that is no rule id, a count that is no
    number, a player, other or card other than ``none``, a role other than ``none`` or a role
    id."""
    out: list[str] = []
    for key, value in condition.items():
        if key == "rule" and value not in spec.rules:
            out.append(f"{value!r} is no rule id")
        elif key == "count" and (not isinstance(value, int) or isinstance(value, bool)):
            out.append(f"count must be a number, not {value!r}")
        elif key in ("player", "other", "card") and value != "none":
            out.append(f"{key} can only be none (an event's {key} is compared with no {key})")
        elif key == "role" and value != "none" and value not in spec.roles:
            out.append(f"{value!r} is no role (roles: {', '.join(spec.roles)}), nor none")
        elif key == "detail" and not isinstance(value, str):
            out.append(f"detail must be a word, not {value!r}")
    return out


def event_text_problems(spec: Any, at: Callable[[str, list[str | int], str], None]) -> None:
    """Report through ``at(file, key path, message)`` every sentence of
    ``spec/visibility.yaml``'s effects that :func:`template_problems` finds wrong, every
    case condition :func:`case_problems` finds wrong, and ``words`` that name a field."""
    for i, e in enumerate(spec.documents["visibility.yaml"].data["effects"]):
        where: list[tuple[list[str | int], str]] = [(["effects", i, "text"], str(e["text"]))]
        where += [(["effects", i, "cases", j, "text"], str(c["text"])) for j, c in enumerate(e.get("cases", ()))]
        for path, template in where:
            for msg in template_problems(template):
                at("visibility.yaml", path, msg)
        for j, c in enumerate(e.get("cases", ())):
            for msg in case_problems(spec, c["if"]):
                at("visibility.yaml", ["effects", i, "cases", j, "if"], msg)
        if "{" in str(e["words"]) or "}" in str(e["words"]):
            at("visibility.yaml", ["effects", i, "words"], "words are said as they are: they name no field")
