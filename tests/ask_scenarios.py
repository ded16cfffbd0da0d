"""The scenarios the ``palast ask`` tests (tests/test_ask_*.py) ask: an example or a
ruling's scenario with actions added (:func:`with_actions`), and the README's own scenario
files (:func:`readme_scenarios`, :func:`readme_scenario`). Not a test module."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from palast.formats.scenario import parse_scenario
from palast.spec.load import Spec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
README = ROOT / "README.md"


def with_actions(spec: Spec, source: Path, actions: list[str], key: str | None = None) -> Any:
    """The scenario of ``source`` (an example, or the ``scenario`` of a ruling when ``key``
    is given) with ``actions`` to apply."""
    doc = yaml.safe_load(source.read_text(encoding="utf-8"))
    data = doc[key] if key else doc
    data = {**data, "actions": actions}
    return parse_scenario(yaml.safe_dump(data, sort_keys=False), spec, f"{source.name}+actions")


def readme_scenarios() -> dict[str, str]:
    """The README's scenario files: every ```yaml block whose first line is a comment naming
    the file it is saved as (``# first-question.yaml``), by that name."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```yaml\n# ([\w.-]+\.yaml)\n(.*?)^```", text, re.S | re.M)
    return {name: f"# {name}\n{body}" for name, body in blocks}


def readme_scenario() -> str:
    """The README's ``scenario.yaml``: the example of every key in its section "Scenario files"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n### Scenario files\n", 1)[1].split("\n### ", 1)[0]
    scenarios = readme_scenarios()
    assert "scenario.yaml" in scenarios, "the README has no yaml block saved as scenario.yaml"
    assert scenarios["scenario.yaml"] in section, "scenario.yaml is not in the README's section Scenario files"
    return scenarios["scenario.yaml"]
