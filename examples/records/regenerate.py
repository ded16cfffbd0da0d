"""Write the example records made by ``palast play --record`` again, from their seeds.

Run after a spec change (``tests/test_records.py`` says when): ``python examples/records/regenerate.py``.
The games, their edits and notes are listed in :mod:`palast.formats.record_examples`; the
hand-written records in this directory are left as they are.
"""

from __future__ import annotations

from pathlib import Path

from palast.formats.record_examples import regenerate
from palast.spec.load import load_spec


def main() -> None:
    """Regenerate the examples beside this script and print each file written."""
    for path in regenerate(Path(__file__).resolve().parent, load_spec()):
        print(f"written {path}")


if __name__ == "__main__":
    main()
