"""A copy of ``spec/`` with one text edit, for tests that a changed declaration changes
what the engine, the views or ``spec check`` do."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def edited_spec(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """Copy ``spec/`` to ``tmp_path/spec`` with the first ``old`` in ``file`` replaced by
    ``new``; the test fails if ``file`` does not hold ``old``.

    :returns: the copy's directory.
    """
    dst = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", dst)
    f = dst / file
    text = f.read_text(encoding="utf-8")
    assert old in text, f"spec/{file} no longer holds {old!r}"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return dst
