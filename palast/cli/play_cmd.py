"""``palast play``: a seeded game, printed action by action."""

from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

from palast.cli.context import OnceOption, get_spec
from palast.cli.house_options import apply_house_rules, house_options, one_ruleset


class PlayerCountOption(OnceOption):
    """``--players``: its ``--help`` line names the player counts the spec allows (and, as
    every :class:`OnceOption`, it is given once)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:
            return None
        from palast.errors import InputError

        try:
            spec = get_spec(ctx, rulings=False)
        except InputError:  # a broken spec: its error is reported when a command runs
            return record
        names, text = record
        span = f"{spec.min_players} to {spec.max_players} players (the spec's range)"
        return names, (f"{text[:-1]}; {span}]" if text.endswith("]") else f"{text}  [{span}]")


def player_colours(spec: Any, players: int, colours: str | None, players_given: bool) -> list[str]:
    """The seated colours for ``--players``/``--colours``: the colours given, else the
    first ``players`` player colours of the spec.

    :raises InputError: for a player count outside the spec's range, or ``--players`` and
        ``--colours`` (both given) naming different numbers of players.
    """
    from palast.errors import InputError

    if colours is not None:
        seats = [c.strip() for c in colours.split(",") if c.strip()]
        if not seats:
            raise InputError("names no colour; give the seated colours in seat order, comma-separated, "
                             "e.g. red,blue,green", None, "--colours")
        if players_given and len(seats) != players:
            raise InputError(f"--players says {players} players, --colours seats {len(seats)} "
                             f"({', '.join(seats)}); give counts that agree, or only one of them", None, "--colours")
        return seats
    if not spec.min_players <= players <= spec.max_players:
        raise InputError(f"{players} players; the game is for {spec.min_players} to {spec.max_players}",
                         None, "--players")
    return list(spec.player_colours[:players])


@click.command()
@click.option("--players", "-n", cls=PlayerCountOption, type=int, default=4, show_default=True,
              help="Number of players (the first N player colours are seated).")
@click.option("--colours", cls=OnceOption, default=None,
              help="Seat these colours instead, comma-separated, in seat order.")
@click.option("--seed", "-s", cls=OnceOption, type=click.IntRange(0, None), default=0, show_default=True,
              help="The seed of the game's only random source (0 or more).")
@click.option("--ruleset", "-r", cls=OnceOption, default=None, once="play plays one game under one ruleset",
              help="The one ruleset to play under (default: the spec's default ruleset; to compare rulesets, "
                   "palast simulate takes several).")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Check every invariant after every action.")
@click.option("--quiet", "-q", is_flag=True, help="Print only round ends and the result.")
@click.option("--no-clauses", is_flag=True, help="Leave clause ids out.")
@click.option("--record", "record_file", cls=OnceOption, default=None, metavar="FILE",
              help="Also write the game record (JSON Lines) to this file, atomically, once the game ends "
                   "(its directory is checked before the game is played; the header names the ruleset and "
                   "the readings of house rules).")
@house_options
@click.pass_context
def play(ctx: click.Context, players: int, colours: str | None, seed: int, ruleset: str | None, check: bool,
         quiet: bool, no_clauses: bool, record_file: str | None, readings: tuple[str, ...],
         ruleset_file: str | None) -> None:
    """Play a game with uniformly random choices and print every action and event with the
    clause ids it rests on, each round's end and scores, and the winner."""
    from palast.engine.game import Game
    from palast.errors import InputError
    from palast.formats.house import label
    from palast.formats.notation import format_action
    from palast.query.describe import describe_event
    from palast.sim.play import play_moves

    house = apply_house_rules(get_spec(ctx), one_ruleset(ruleset, ruleset_file), readings, ruleset_file)
    spec = house.spec
    rs = house.rulesets[0] if house.rulesets else spec.default_ruleset
    seats = player_colours(spec, players, colours, ctx.get_parameter_source("players") is not ParameterSource.DEFAULT)
    try:
        game = Game(spec, rs, seats, check=check)
    except InputError as exc:
        raise InputError(exc.message, None, "--colours" if colours is not None else "--players") from None
    if record_file is not None:
        from palast.formats.record import check_writable

        check_writable(record_file)  # before the game: no output is printed for a record that cannot be written
    names = ", ".join(game.colour_name(s) for s in range(game.n))
    click.echo(f"palast play: {game.n} players ({names}), ruleset {label(spec, rs)}, seed {seed}, "
               f"target {game.target}")
    state = game.initial_state()
    moves = []
    for move in play_moves(game, seed):
        moves.append(move)
        state = move.step.state
        who = "chance" if move.chance else game.colour_name(move.before.decision.player)
        if not quiet:
            text = format_action(game, move.action)
            if move.chance and text.startswith("deal "):
                text = "deal (hands: " + "; ".join(
                    f"{game.colour_name(s)} {game.cards.format_cards(h)}" for s, h in enumerate(move.action.hands)  # type: ignore[union-attr]
                ) + ")"
            # a deal belongs to the round it starts; every other action to the round under way
            click.echo(f"[round {move.step.state.round}] {who}: {text}")
        for e in move.step.events:
            if quiet and e.kind not in ("round_ended", "points_scored", "game_ended", "rule_gap"):
                continue
            cite = "" if no_clauses else f"  [{', '.join(e.clauses)}]"
            click.echo(f"    {describe_event(game, e)}{cite}")
        if move.step.events and any(e.kind == "round_ended" for e in move.step.events):
            click.echo("    scores: " + ", ".join(f"{game.colour_name(s)} {v}" for s, v in enumerate(state.scores)))
    if state.result:
        w = ", ".join(game.colour_name(s) for s in state.result.winners)
        click.echo(f"result: {w} {'win' if len(state.result.winners) > 1 else 'wins'} after {state.round} rounds; "
                   "scores " + ", ".join(f"{game.colour_name(s)} {v}" for s, v in enumerate(state.scores)))
    else:
        from palast.formats.house import settling

        others = settling(spec, rs, state.decision.point)  # one that reads it, the modules as in rs first
        hint = f" (try --ruleset {others[0]})" if others else ""
        click.echo(f"result: play stopped at variation point {state.decision.point}, which {rs} leaves open{hint}")
    if record_file is not None:
        from palast.formats.record import record_game, write_record

        write_record(record_file, record_game(game, moves, seed=seed, policy="uniform", written_by="palast play"))
        click.echo(f"record written to {record_file}")
