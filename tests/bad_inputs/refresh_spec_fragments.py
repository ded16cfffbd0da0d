"""Rewrite the spec fragments of the bad-input corpus from the current spec.

Each ``spec/`` entry of ``manifest.yaml`` names the spec file it ``replaces`` and the one
``edit`` ([old, new]) that breaks it. When a spec file changes, run

    python tests/bad_inputs/refresh_spec_fragments.py

to rebuild every fragment as that spec file with its edit made (the first occurrence of
``old``). ``tests/test_bad_inputs.py`` fails while a fragment is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def fragments() -> dict[str, dict[str, Any]]:
    """The manifest's spec fragment entries: corpus file -> entry."""
    manifest = yaml.safe_load((HERE / "manifest.yaml").read_text(encoding="utf-8"))
    return {name: entry for name, entry in manifest.items() if name.startswith("spec/")}


def fragment_text(entry: dict[str, Any]) -> str:
    """The current spec file ``entry["replaces"]`` with ``entry["edit"]`` made.

    :raises ValueError: if the spec file no longer holds the text the edit replaces.
    """
    source = ROOT / "spec" / entry["replaces"]
    text = source.read_text(encoding="utf-8")
    old, new = entry["edit"]
    if old not in text:
        raise ValueError(f"spec/{entry['replaces']} no longer holds {old!r}; choose another edit")
    return text.replace(old, new, 1)


def main() -> int:
    for name, entry in sorted(fragments().items()):
        path = HERE / name
        text = fragment_text(entry)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"rewrote {name} from spec/{entry['replaces']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
