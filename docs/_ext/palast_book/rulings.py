"""The rulings chapter (placeholder until ``palast.rulings`` exists)."""

from __future__ import annotations

from pathlib import Path

from docutils import nodes

from palast.spec import Spec

from .specdata import SpecDirective


def ruling_titles(spec: Spec) -> dict[str, str]:
    """Ruling id -> page title."""
    return {}


def ruling_files(spec: Spec) -> list[Path]:
    """The ruling files."""
    return sorted((spec.root / "rulings").glob("*.yaml"))


class RulingsDirective(SpecDirective):
    def run(self) -> list[nodes.Node]:
        return [nodes.paragraph("", "No rulings yet.")]


class RulingDirective(SpecDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return []
