"""Running ``python -m palast ARGS`` and keeping what it printed: in a fresh process, or in
this one as that process would run it.

:func:`in_process` runs the very code ``python -m palast`` runs (``palast/__main__.py`` calls
:data:`palast.cli.main` in click's standalone mode, which maps click's errors to exit
codes and leaves the rest to the interpreter) and does what the interpreter does at the
end: ``SystemExit``'s code is the exit code, any other exception that escapes is printed
as a traceback on standard error with exit code 1. Warnings are shown on standard error
under Python's default filters, as in a fresh process. It saves the interpreter's start
and palast's imports (most of the time of a short command), so tests that run many bad
inputs run them here and keep a few runs in a fresh process (:func:`fresh_process`) for
what only one can show: the real entry point, the start-up, and what runs at exit.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent

#: ``python -m palast``'s program name as click finds it (in messages such as "see 'python
#: -m palast --help'"); a run in this process is given it, since its ``sys.argv`` is pytest's.
PROG_NAME = "python -m palast"


@dataclass(frozen=True)
class Run:
    """One CLI run and what it printed."""

    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str


def fresh_process(*args: str, cwd: Path = ROOT, timeout: float = 120) -> Run:
    """Run ``python -m palast ARGS`` in a fresh process (without ``PALAST_SPEC``), for at
    most ``timeout`` seconds. A proof that searches runs this way: Z3 then starts from the
    state CI's own ``palast prove`` starts from, not from what earlier tests of the same
    worker left in the process (under which a search may take another path and spend its
    step budget)."""
    env = {k: v for k, v in os.environ.items() if k != "PALAST_SPEC"}
    r = subprocess.run([sys.executable, "-m", "palast", *args], capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=timeout)
    return Run(tuple(args), r.returncode, r.stdout, r.stderr)


def in_process(*args: str, cwd: Path = ROOT) -> Run:
    """Run ``python -m palast ARGS`` in this process, as a fresh process would (see the
    module's description): in ``cwd``, without ``PALAST_SPEC``, nothing on standard input.
    Not thread-safe (it swaps the standard streams and the working directory)."""
    from palast.cli import main

    runner = CliRunner()
    with runner.isolation(env={"PALAST_SPEC": None}) as (out, err, _), contextlib.chdir(cwd), \
            warnings.catch_warnings():
        _default_warnings()
        try:
            main.main(args=list(args), prog_name=PROG_NAME)
            code = 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except BaseException:
            traceback.print_exc()  # what the interpreter prints for an exception nobody caught
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        return Run(tuple(args), code, out.getvalue().decode(), err.getvalue().decode())


def _exit_code(exc: SystemExit) -> int:
    """The exit code of a process ended by ``exc``, as the interpreter makes it (a code that
    is not a number is printed on standard error and gives 1)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _default_warnings() -> None:
    """Warnings as a fresh ``python`` without ``-W`` shows them (pytest catches them
    itself): its filters, and each shown on standard error."""
    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    warnings.showwarning = show
    warnings.resetwarnings()
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
        warnings.filterwarnings("ignore", category=category)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
