"""``palast ask --help`` lists every scenario key in brief, one line each (the keys of the
scenario schema, no more), and points to the full format in the README and the book."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from palast.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_ask_help_lists_the_scenario_keys() -> None:
    r = CliRunner().invoke(main, ["ask", "--help"], prog_name="palast", terminal_width=100)
    assert r.exit_code == 0, r.output
    block = r.output.split("Scenario keys", 1)[1].split("\n\n", 1)[0]
    lines = block.splitlines()[1:]
    listed = [k for line in lines for k in re.split(r",\s*", line.strip().split("  ", 1)[0])]
    schema = json.loads((ROOT / "spec" / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    assert sorted(listed) == sorted(schema["properties"])
    assert all(len(line) <= 100 for line in lines)
    for key in schema["required"]:
        assert key in block.splitlines()[0]
    # it points to the full format, and both places exist
    flat = " ".join(r.output.split())
    assert 'section "Scenario files"' in flat and 'page "Scenario files"' in flat
    assert "\n### Scenario files\n" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8").startswith("# Scenario files\n")
