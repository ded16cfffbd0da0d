"""The ``{palast-scenario-keys}`` directive: the keys of a scenario file, read from the
scenario's JSON Schema (``spec/schema/scenario.schema.json``), which is what ``palast ask``
validates a scenario against."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from docutils import nodes

from .specdata import SpecDirective, literal, table, text


class ScenarioKeysDirective(SpecDirective):
    """``{palast-scenario-keys}``: one row per key a scenario may hold: the key, whether it
    is required, and what it holds (the schema's description)."""

    reads: ClassVar[tuple[str, ...]] = ()

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        path = spec.root / "schema" / "scenario.schema.json"
        self.note(path)
        schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        required = set(schema.get("required", []))
        rows: list[list[Any]] = []
        for key, prop in schema["properties"].items():
            what = str(prop.get("description", ""))
            rows.append([literal(key), text("required", "pal-open") if key in required else "optional",
                         "free text" if what == "text" else what])
        return [table(["key", "", "what it holds"], rows, widths=[2, 1, 8])]
