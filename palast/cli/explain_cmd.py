"""``palast explain POINT... [--json]``: variation points of the discrepancy register."""

from __future__ import annotations

import difflib
import json

import click

from palast.cli.context import get_spec, json_errors


@click.command()
@click.argument("points", nargs=-1, metavar="POINT...")
@click.option("--list", "as_list", is_flag=True,
              help="List every variation point: id, kind, topic and each ruleset's reading.")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: one object for one POINT, a list of objects for several or for --list.")
@click.pass_context
def explain(ctx: click.Context, points: tuple[str, ...], as_list: bool, as_json: bool) -> None:
    """Print each variation point POINT: its topic, the clauses on each side (source letter
    and lines, as A 83–86; the sources are named at the end), what each source says and the
    reading it supports, the readings, the third-party readings, each ruleset's choice with
    the reference's reason, the named house rulesets that bear on it (they read it, or
    switch on a rule module that reads it) with their readings, and the outcome of its
    witness ruling under every one of these rulesets, computed by the engine now. With
    --list, list every point instead.

    Exit 2 if any POINT is unknown (every unknown one is named, with the known ids), or if
    neither POINT nor --list is given (with --json also as a JSON document with an "error"
    object, as palast ask prints it)."""
    from palast.errors import InputError
    from palast.query.explain import explain_point, point_list, render_explanation, render_point_list, render_sources

    with json_errors(as_json):  # bad input: with --json, a JSON document too (as palast ask)
        spec = get_spec(ctx)
        if as_list:
            if points:
                raise InputError("give POINT... or --list, not both", None, "POINT")
            if as_json:
                click.echo(json.dumps(point_list(spec), indent=2, ensure_ascii=False))
            else:
                click.echo(render_point_list(spec))
            return
        if not points:
            raise InputError("name one or more variation points, or give --list to see them all", None, "POINT")
        known = list(spec.variation_points)
        unknown = []
        for point in dict.fromkeys(points):
            if point not in spec.variation_points:
                close = difflib.get_close_matches(point, known, n=1)
                unknown.append(f"{point!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        if unknown:
            what = "unknown variation point" + ("s" if len(unknown) > 1 else "")
            raise InputError(f"{what} {', '.join(unknown)}; known: {', '.join(known)} (palast explain --list)",
                             None, "POINT")
        docs = [explain_point(spec, p) for p in dict.fromkeys(points)]
        if as_json:
            click.echo(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2, ensure_ascii=False))
        else:
            sep = "\n\n" + "-" * 72 + "\n\n"
            click.echo(sep.join(render_explanation(d) for d in docs) + sep + render_sources(spec))
