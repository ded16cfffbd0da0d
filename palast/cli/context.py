"""What the commands read from the command line's context (the spec named by ``--spec``),
how a usage error is worded, and bad input as a ``--json`` document.

A module of its own, so that the command modules need not import :mod:`palast.cli`, which
imports them (their group loads each command's module when it runs).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from palast.errors import InputError


def get_spec(ctx: click.Context, *, rulings: bool = True) -> Any:
    """Load (once) the spec named by ``--spec``; ``rulings=False`` skips checking the
    references of ``spec/rulings/`` (commands that read no ruling).

    :raises SpecError: if it is broken."""
    from palast.spec.load import cached_spec

    return cached_spec(ctx.obj.get("spec_dir") if ctx.obj else None, rulings)


def usage_message(exc: click.UsageError) -> str:
    """The text of a click usage error in palast's words: ``--players: 'abc' is not a valid
    integer`` for a bad value (the option or argument, then the problem), otherwise click's
    message and where to find the options."""
    def lower(text: str) -> str:
        return text[:1].lower() + text[1:] if text[1:2].islower() else text

    param = exc.param if isinstance(exc, click.BadParameter) else None
    if param is not None and not isinstance(exc, click.MissingParameter):
        longs = [o for o in param.opts if o.startswith("--")]
        name = (longs or param.opts)[0] if isinstance(param, click.Option) else param.human_readable_name
        return f"{name}: {lower(exc.message.rstrip('.'))}"
    text = lower(exc.format_message().rstrip("."))
    return f"{text} (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else text


def print_json_error(doc: dict[str, Any], text: str) -> None:
    """Print the ``--json`` error document ``doc`` on standard output and ``text`` on
    standard error, as ``palast: error: TEXT``."""
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    click.echo(f"palast: error: {text}", err=True)


@contextmanager
def json_errors(as_json: bool) -> Iterator[None]:
    """With ``--json``, bad input is printed as one JSON document (see
    :func:`palast.query.ask.error_document`; and on standard error as usual), exit code 2;
    without, it goes on to the CLI's own handler."""
    try:
        yield
    except InputError as exc:
        if not as_json:
            raise
        from palast.query.ask import error_document

        print_json_error(error_document(exc), exc.render())
        sys.exit(2)
