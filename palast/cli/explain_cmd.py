"""``palast explain VP-ID [--json]``: one variation point of the discrepancy register."""

from __future__ import annotations

import difflib
import json

import click

from palast.cli import get_spec, main


@main.command()
@click.argument("point")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.pass_context
def explain(ctx: click.Context, point: str, as_json: bool) -> None:
    """Print variation point POINT: its topic, the clauses on each side (file and lines),
    what each source says and the reading it supports, the readings, the third-party
    readings, each ruleset's choice with the reference's reason, and the outcome of its
    witness ruling under every ruleset, computed by the engine now.

    Exit 2 for an unknown POINT (the known ids are listed)."""
    from palast.errors import InputError
    from palast.explain import explain_point, render_explanation

    spec = get_spec(ctx)
    if point not in spec.variation_points:
        close = difflib.get_close_matches(point, list(spec.variation_points), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InputError(f"unknown variation point {point!r}{hint} (known: {', '.join(spec.variation_points)})",
                         None, "VP-ID")
    doc = explain_point(spec, point)
    if as_json:
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        click.echo(render_explanation(doc))
