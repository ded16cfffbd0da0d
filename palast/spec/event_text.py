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
from collections.abc import Callable
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


def template_problems(template: str) -> list[str]:
    """What is wrong with a sentence template: it does not parse, names a field that is not
    in :data:`TEXT_FIELDS`, or gives a format spec that is neither ``one|many`` (after a
    number or ``seats``) nor ``words`` (after a number)."""
    try:
        parts = [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name is not None]
    except ValueError as exc:
        return [f"the sentence does not parse: {exc}"]
    out: list[str] = []
    for name, spec in parts:
        if name not in TEXT_FIELDS:
            out.append(f"{{{name}}} is no field of an event's sentence (fields: {', '.join(TEXT_FIELDS)})")
        elif spec and not (name in COUNTED and ("|" in spec or (spec == "words" and name != "seats"))):
            out.append(f"{{{name}:{spec}}}: a format spec is one|many after {', '.join(sorted(COUNTED))}, or words "
                       "after a number")
    return out


def event_text_problems(spec: Any, at: Callable[[str, list[str | int], str], None]) -> None:
    """Report through ``at(file, key path, message)`` every sentence of
    ``spec/visibility.yaml``'s effects that :func:`template_problems` finds wrong."""
    for i, e in enumerate(spec.documents["visibility.yaml"].data["effects"]):
        where: list[tuple[list[str | int], str]] = [(["effects", i, "text"], str(e["text"]))]
        where += [(["effects", i, "cases", j, "text"], str(c["text"])) for j, c in enumerate(e.get("cases", ()))]
        for path, template in where:
            for msg in template_problems(template):
                at("visibility.yaml", path, msg)
