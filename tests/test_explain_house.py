"""``palast explain POINT``: the named house rulesets that bear on a point (its own reading,
or a rule module they switch on that reads it) are listed with their readings, marked as
house rulesets, and the witness ruling is computed under them too."""

from __future__ import annotations

import json

from click.testing import CliRunner

from palast.cli import main
from palast.spec.load import Spec


def _explain(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["explain", *args])
    return r.exit_code, r.stdout


def _module_points(spec: Spec) -> dict[str, set[str]]:
    """Each point a rule module reads (its switch, its rules' points) -> the house rulesets
    that switch that module on (from spec/rulesets.yaml and spec/modules/)."""
    out: dict[str, set[str]] = {}
    for m in spec.modules.values():
        on = {h for h, e in spec.house_rulesets.items() if e["readings"].get(m.point) == m.reading}
        for r in m.rules:
            for p in (m.point, *spec.rules[r].variation_points):
                out.setdefault(p, set()).update(on)
    return out


def test_module_points_show_the_house_rulesets_that_switch_the_module_on(spec: Spec) -> None:
    points = _module_points(spec)
    assert {"fan-jester-colour", "fan-dwarf-timing", "fan-destroyed-jester", "fan-goblin-timing",
            "fan-expansion"} <= set(points)
    for point, houses in points.items():
        assert houses, point
        code, out = _explain(point, "--json")
        assert code == 0, out
        doc = json.loads(out)
        vp = spec.variation_points[point]
        assert set(houses) <= set(doc["house_rulesets"]), (point, doc["house_rulesets"])
        for h in houses:
            entry = spec.house_rulesets[h]
            own = entry["readings"].get(point)
            got = doc["house_rulesets"][h]
            assert got["reading"] == (own if own is not None else vp.choices[entry["base"]]), (point, h, got)
            assert got["base"] == entry["base"] and got["own"] is (own is not None)
        if doc["witness"] is not None:
            w = doc["witness"]["rulesets"]
            for h in houses:
                assert w[h]["house"] is True and w[h]["stated"] and w[h]["agrees"], (point, h, w[h])
            assert not any(w[rs]["house"] for rs in spec.rulesets)
        code, text = _explain(point)
        for h in houses:
            assert f"house ruleset {h} -> {doc['house_rulesets'][h]['reading']}" in text, text
            if doc["witness"] is not None:
                assert f"   {h} (house ruleset): " in text


def test_a_house_ruleset_that_reads_a_point_itself_is_shown(spec: Spec) -> None:
    for h, entry in spec.house_rulesets.items():
        for point, reading in entry["readings"].items():
            code, out = _explain(point, "--json")
            assert code == 0
            got = json.loads(out)["house_rulesets"][h]
            assert got["reading"] == reading and got["own"] is True


def test_a_point_no_house_ruleset_bears_on_lists_none(spec: Spec) -> None:
    touched = set(_module_points(spec)) | {p for e in spec.house_rulesets.values() for p in e["readings"]}
    point = next(p for p in spec.variation_points if p not in touched)
    code, out = _explain(point, "--json")
    assert code == 0 and json.loads(out)["house_rulesets"] == {}
    code, text = _explain(point)
    assert "house ruleset" not in text
