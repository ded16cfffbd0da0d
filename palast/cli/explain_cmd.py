"""``palast explain POINT... [--json]``: variation points of the discrepancy register."""

from __future__ import annotations

import difflib
import json

import click

from palast.cli.context import get_spec


@click.command()
@click.argument("points", nargs=-1, required=True, metavar="POINT...")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: one object for one POINT, a list of objects for several.")
@click.pass_context
def explain(ctx: click.Context, points: tuple[str, ...], as_json: bool) -> None:
    """Print each variation point POINT: its topic, the clauses on each side (file and
    lines), what each source says and the reading it supports, the readings, the
    third-party readings, each ruleset's choice with the reference's reason, and the
    outcome of its witness ruling under every ruleset, computed by the engine now.

    Exit 2 if any POINT is unknown (every unknown one is named, with the known ids)."""
    from palast.errors import InputError
    from palast.explain import explain_point, render_explanation

    spec = get_spec(ctx)
    known = list(spec.variation_points)
    unknown = []
    for point in dict.fromkeys(points):
        if point not in spec.variation_points:
            close = difflib.get_close_matches(point, known, n=1)
            unknown.append(f"{point!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    if unknown:
        what = "unknown variation point" + ("s" if len(unknown) > 1 else "")
        raise InputError(f"{what} {', '.join(unknown)}; known: {', '.join(known)}", None, "POINT")
    docs = [explain_point(spec, p) for p in dict.fromkeys(points)]
    if as_json:
        click.echo(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2, ensure_ascii=False))
    else:
        click.echo(("\n\n" + "-" * 72 + "\n\n").join(render_explanation(d) for d in docs))
