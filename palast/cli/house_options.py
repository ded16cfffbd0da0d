"""The house-rule options shared by ``ask``, ``play``, ``replay``, ``simulate``,
``rulings`` and ``prove``: ``--reading POINT=READING`` (repeatable) and ``--ruleset-file
FILE`` (see :mod:`palast.formats.house` for what they mean and how they combine with ``-r``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from palast.cli.context import OnceOption

F = TypeVar("F", bound=Callable[..., Any])

#: ``--help`` text of ``--reading``.
READING_HELP = ("House rules: read variation point POINT as READING (repeatable), on top of each ruleset asked "
                "(-r or --ruleset-file), else of the default ruleset; the derived ruleset is named "
                "BASE+POINT=READING.")
#: ``--help`` text of ``--ruleset-file``.
FILE_HELP = "House rules from a YAML file: name, base ruleset and readings (README, 'House rules')."


def house_options(f: F) -> F:
    """Add ``--reading`` (parameter ``readings``) and ``--ruleset-file`` (``ruleset_file``)."""
    f = click.option("--ruleset-file", "ruleset_file", cls=OnceOption, default=None, metavar="FILE",
                     once="one file of house rules is read",
                     type=click.Path(dir_okay=False, allow_dash=False), help=FILE_HELP)(f)
    f = click.option("--reading", "readings", multiple=True, metavar="POINT=READING", help=READING_HELP)(f)
    return f


def apply_house_rules(spec: Any, asked: Sequence[str], readings: Sequence[str], ruleset_file: str | None,
                      *, default: Sequence[str] | None = None, quiet: bool = False) -> Any:
    """:func:`palast.formats.house.select`, with the house rulesets and notes printed on standard
    error (unless ``quiet``).

    :returns: the :class:`palast.formats.house.Selection`.
    :raises InputError: for bad house rules or an unknown ruleset (exit 2).
    """
    from palast.formats.house import render_notes, select

    sel = select(spec, asked, readings, ruleset_file, default=default)
    if not quiet:
        for line in render_notes(sel):
            click.echo(f"palast: {line}", err=True)
    return sel


def one_ruleset(ruleset: str | None, ruleset_file: str | None) -> list[str]:
    """The ``-r`` of a command that runs one ruleset, as a list.

    :raises InputError: if both ``--ruleset`` and ``--ruleset-file`` are given.
    """
    from palast.errors import InputError

    if ruleset is not None and ruleset_file is not None:
        raise InputError("this command runs one ruleset: give --ruleset or --ruleset-file, not both", None,
                         "--ruleset-file")
    return [ruleset] if ruleset is not None else []
