"""``palast simulate``: Monte Carlo statistics over seeded games."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from palast.cli.context import OnceOption, get_spec
from palast.cli.house_options import apply_house_rules, house_options
from palast.cli.play_cmd import PlayerCountOption, player_colours


@click.command()
@click.option("--games", "-g", cls=OnceOption, type=click.IntRange(1, None), default=1000, show_default=True,
              help="Games per ruleset.")
@click.option("--players", "-n", cls=PlayerCountOption, type=int, default=4, show_default=True,
              help="Number of players (the first N player colours are seated).")
@click.option("--ruleset", "-r", "rulesets", multiple=True,
              help="Play under this ruleset (repeatable; default: every ruleset of the spec).")
@click.option("--workers", "-w", cls=OnceOption, type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes; the numbers do not depend on it.")
@click.option("--seed", "-s", cls=OnceOption, type=click.IntRange(0, None), default=0, show_default=True,
              help="Game i is played with seed SEED+i (as `palast play --seed` plays it, for --policy uniform).")
@click.option("--policy", cls=OnceOption, type=click.Choice(["uniform", "careful"]), default="uniform",
              show_default=True,
              help="uniform: every legal action equally likely; careful: avoid whispering when possible.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (no progress bar).")
@click.option("--plots", "plots_dir", cls=OnceOption, default=None, metavar="DIR",
              help="Also write PNG plots into this directory (needs matplotlib; checked before any game is played).")
@house_options
@click.pass_context
def simulate(ctx: click.Context, games: int, players: int, rulesets: tuple[str, ...], workers: int, seed: int,
             policy: str, as_json: bool, plots_dir: str | None, readings: tuple[str, ...],
             ruleset_file: str | None) -> None:
    """Play seeded games and report rounds per game, actions per round, round ends by
    kind, win rate by seat, and for every variation point how often play reaches it per
    1,000 games and in what share of games the rulesets diverge there."""
    from palast.sim.report import render_text, summary
    from palast.sim.simulate import SimConfig

    spec = get_spec(ctx)
    seats = player_colours(spec, players, None, True)
    house = apply_house_rules(spec, rulesets, readings, ruleset_file)  # checks -r too
    spec = house.spec
    if plots_dir:
        from palast.sim.plots import check_plot_dir

        check_plot_dir(plots_dir)
    chosen = house.rulesets or tuple(spec.rulesets)
    config = SimConfig(games, tuple(seats), chosen, seed, policy)
    total = games * len(chosen)
    try:
        tallies = _run(spec, config, workers, total, progress=not as_json and sys.stderr.isatty())
    except KeyboardInterrupt:
        click.echo("palast simulate: interrupted", err=True)
        sys.exit(130)
    doc = summary(spec, config, tallies)
    if plots_dir:
        from palast.sim.plots import write_plots

        doc["plots"] = [str(p) for p in write_plots(doc, plots_dir)]
    if as_json:
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(render_text(doc)))
        for p in doc.get("plots", []):
            click.echo(f"plot written: {p}")


def _run(spec: Any, config: Any, workers: int, total: int, *, progress: bool) -> Any:
    """Run the simulation, with a progress bar on standard error when ``progress``."""
    from palast.sim.simulate import simulate as run

    if not progress:
        return run(spec, config, workers=workers)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        return run(spec, config, workers=workers, progress=lambda k: bar.advance(task, k))
