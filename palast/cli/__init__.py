"""The ``palast`` command line. Exit codes: 0 success, 1 a check failed, 2 bad input.

Each command lives in a module of this package; :func:`main` is the console script.
Heavy libraries (z3, sphinx) are imported only by the commands that need them.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from palast.cli.context import OnceOption, get_spec, usage_message
from palast.errors import InputError

__all__ = ["COMMAND_MODULES", "PalastGroup", "get_spec", "main", "usage_message"]

#: click's "no arguments: show the help" signal (click 8.2+), which is not an error.
_HELP_SIGNALS: tuple[type[Exception], ...] = tuple(
    getattr(click.exceptions, n) for n in ("NoArgsIsHelpError",) if hasattr(click.exceptions, n))


#: Each command and the module of this package that defines it, as a click command of the
#: same name (imported when the command runs or help lists it, so ``palast ask`` does not
#: load the other commands' code; the modules do not import this package).
COMMAND_MODULES: dict[str, str] = {
    "ask": "ask_cmd", "explain": "explain_cmd", "play": "play_cmd", "prove": "prove_cmd",
    "replay": "replay_cmd", "rulings": "rulings_cmd", "simulate": "simulate_cmd", "spec": "spec_cmd",
}


class PalastGroup(click.Group):
    """A click group that reports bad input one way: :class:`InputError` and click's own
    usage errors (an unknown option, a value of the wrong type) print ``palast: error: ...``
    on standard error and exit with code 2. Commands are loaded lazily from
    :data:`COMMAND_MODULES` (click's "lazily loading subcommands" pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The names of every command, loaded or not, sorted."""
        return sorted(set(super().list_commands(ctx)) | set(COMMAND_MODULES))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name`` (its module imported and the command added
        first), or ``None``.

        :raises TypeError: if the module of :data:`COMMAND_MODULES` defines no click command
            of that name."""
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            module = importlib.import_module(f"palast.cli.{COMMAND_MODULES[cmd_name]}")
            command = getattr(module, cmd_name, None)
            if not isinstance(command, click.Command):
                raise TypeError(f"{module.__name__} defines no click command {cmd_name!r}")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except _HELP_SIGNALS:
            raise
        except click.UsageError as exc:
            if "ask" in args and "--json" in args:  # palast ask --json always prints one JSON document
                import json

                from palast.query.ask import error_document

                click.echo(json.dumps(error_document(usage_message(exc)), indent=2, ensure_ascii=False))
            click.echo(f"palast: error: {usage_message(exc)}", err=True)
            sys.exit(2)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            click.echo(f"palast: error: {exc.render()}", err=True)
            sys.exit(2)
        except _HELP_SIGNALS:
            raise
        except click.UsageError as exc:
            click.echo(f"palast: error: {usage_message(exc)}", err=True)
            sys.exit(2)
        except AssertionError as exc:
            # an invariant of spec/invariants.yaml failed in check mode: a failed check, not a
            # crash; under a house ruleset it says the invariant does not hold for that reading
            from palast.engine.state import InvariantViolation

            if not isinstance(exc, InvariantViolation):
                raise
            click.echo(f"palast: check failed: {exc} (under the ruleset played; check mode leaves out only "
                       "the invariants a reading taken or a rule module in play declares it breaks, and those "
                       "a named house ruleset's prove list expects refuted, so a house reading that breaks one "
                       "without saying so fails here)", err=True)
            sys.exit(1)


@click.group(cls=PalastGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--spec", "spec_dir", cls=OnceOption, once="palast reads one spec directory",
              type=click.Path(file_okay=False, exists=True), default=None, envvar="PALAST_SPEC",
              help="The spec directory (default: spec/ beside the package).")
@click.version_option(package_name="palast")
@click.pass_context
def main(ctx: click.Context, spec_dir: str | None) -> None:
    """palast: an executable specification of Palast Geflüster and a verifier for it."""
    ctx.obj = {"spec_dir": spec_dir}
