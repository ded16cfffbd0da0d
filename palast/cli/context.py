"""What the commands read from the command line's context: the spec named by ``--spec``.

A module of its own, so that the command modules need not import :mod:`palast.cli`, which
imports them (their group loads each command's module when it runs).
"""

from __future__ import annotations

from typing import Any

import click


def get_spec(ctx: click.Context, *, rulings: bool = True) -> Any:
    """Load (once) the spec named by ``--spec``; ``rulings=False`` skips checking the
    references of ``spec/rulings/`` (commands that read no ruling).

    :raises SpecError: if it is broken."""
    from palast.spec import cached_spec

    return cached_spec(ctx.obj.get("spec_dir") if ctx.obj else None, rulings)
