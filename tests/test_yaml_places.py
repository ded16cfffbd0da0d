"""Where a character of a text value is in its YAML file (:meth:`palast.spec.yamlio.Document.place`
with a column): across the lines YAML joins in plain, folded and literal scalars; a quoted
value, whose escapes the mapping does not follow, is placed at its start."""

from __future__ import annotations

import pytest

from palast.spec.yamlio import parse_yaml

DOC = """\
plain: alpha beta
  gamma delta
folded: >-
  one two
    three
  four five
literal: |
  six
  seven eight
quoted: "nine
  ten"
"""


@pytest.mark.parametrize(("key", "word", "line", "column"), [
    ("plain", "alpha", 1, 8),
    ("plain", "delta", 2, 9),
    ("folded", "one", 4, 3),
    ("folded", "three", 5, 5),
    ("folded", "five", 6, 8),
    ("literal", "eight", 9, 9),
])
def test_a_character_of_a_joined_value_is_placed_where_the_file_writes_it(
        key: str, word: str, line: int, column: int) -> None:
    doc = parse_yaml(DOC, "t.yaml")
    value = doc.data[key]
    assert DOC.splitlines()[line - 1][column - 1:].startswith(word)  # the expected place holds the word
    assert doc.place([key], value.index(word) + 1) == f"line {line}, column {column} ({key})"


def test_a_quoted_value_or_a_column_outside_the_value_is_placed_at_its_start() -> None:
    doc = parse_yaml(DOC, "t.yaml")
    assert doc.place(["quoted"], doc.data["quoted"].index("ten") + 1) == "line 10, column 9 (quoted)"
    assert doc.place(["plain"], 999) == doc.place(["plain"]) == "line 1, column 8 (plain)"
