"""The ``palast`` command line. Exit codes: 0 success, 1 a check failed, 2 bad input.

Each command lives in a module of this package; :func:`main` is the console script.
Heavy libraries (z3, sphinx) are imported only by the commands that need them.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from palast.errors import InputError


class PalastGroup(click.Group):
    """A click group that turns :class:`InputError` into exit code 2 with its message."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            click.echo(f"palast: error: {exc.render()}", err=True)
            sys.exit(2)


@click.group(cls=PalastGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--spec", "spec_dir", type=click.Path(file_okay=False, exists=True), default=None, envvar="PALAST_SPEC",
              help="The spec directory (default: spec/ beside the package).")
@click.version_option(package_name="palast")
@click.pass_context
def main(ctx: click.Context, spec_dir: str | None) -> None:
    """palast: an executable specification of Palast Geflüster and a verifier for it."""
    ctx.obj = {"spec_dir": spec_dir}


def get_spec(ctx: click.Context, *, rulings: bool = True) -> Any:
    """Load (once) the spec named by ``--spec``; ``rulings=False`` skips checking the
    references of ``spec/rulings/`` (commands that read no ruling).

    :raises SpecError: if it is broken."""
    from palast.spec import cached_spec

    return cached_spec(ctx.obj.get("spec_dir") if ctx.obj else None, rulings)


from palast.cli import (  # noqa: E402,F401  (register commands)
    ask_cmd,
    explain_cmd,
    play_cmd,
    prove_cmd,
    replay_cmd,
    rulings_cmd,
    simulate_cmd,
    spec_cmd,
)
