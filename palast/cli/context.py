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
from click.core import ParameterSource

from palast.errors import InputError


def get_spec(ctx: click.Context, *, rulings: bool = True) -> Any:
    """Load (once) the spec named by ``--spec``; ``rulings=False`` skips checking the
    references of ``spec/rulings/`` (commands that read no ruling).

    :raises SpecError: if it is broken."""
    from palast.spec.load import cached_spec

    return cached_spec(ctx.obj.get("spec_dir") if ctx.obj else None, rulings)


class RepeatedOptionError(click.UsageError):
    """An option that takes one value was given several (see :class:`OnceOption`); its
    message says it all, so :func:`usage_message` adds no pointer to ``--help``."""


class OnceOption(click.Option):
    """An option that takes one value and refuses several. click keeps the last of them
    (``palast play -r source-a -r source-b`` would play under source-b alone, silently);
    this option makes that a usage error (exit 2) that names every value given and, in
    ``once``, why the command takes one. The same value given again is no conflict and is
    taken. Flags, counts and ``multiple`` options are left as click makes them.

    :param once: why the command takes one value, as the start of the message (``"play
        plays one game under one ruleset"``); default: that the option takes one value.
    """

    def __init__(self, *args: Any, once: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.once = once

    def _takes_one(self) -> bool:
        return not (self.multiple or self.count or self.is_flag)

    def add_to_parser(self, parser: Any, ctx: click.Context) -> None:
        """Register the option so that the parser keeps every value given (click's
        ``append``), not only the last; :meth:`consume_value` then checks them."""
        if not self._takes_one():
            super().add_to_parser(parser, ctx)
            return
        parser.add_option(obj=self, opts=self.opts, dest=self.name, action="append", nargs=self.nargs)

    def consume_value(self, ctx: click.Context, opts: Any) -> tuple[Any, ParameterSource]:
        """The value given on the command line (or the default, the environment's, ...).

        :raises RepeatedOptionError: if the command line gives the option more than once,
            with different values."""
        value, source = super().consume_value(ctx, opts)
        if self._takes_one() and source is ParameterSource.COMMANDLINE and isinstance(value, list):
            given = list(dict.fromkeys(value))
            if len(given) > 1:
                names = "/".join(sorted(self.opts, key=len))
                times = "twice" if len(value) == 2 else f"{len(value)} times"
                said = f"was given {times} ({', '.join(map(str, value))})"
                raise RepeatedOptionError(f"{self.once}; {names} {said}" if self.once
                                          else f"{names} takes one value and {said}", ctx)
            value = given[0]
        return value, source


def usage_message(exc: click.UsageError) -> str:
    """The text of a click usage error in palast's words: ``--players: 'abc' is not a valid
    integer`` for a bad value (the option or argument, then the problem), an option given
    twice as :class:`OnceOption` says it, otherwise click's message and where to find the
    options."""
    if isinstance(exc, RepeatedOptionError):
        return exc.message

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
