"""The figures of a ``palast simulate`` run: :func:`summary` turns the tallies into one
JSON-ready document, :func:`render_text` into lines for a terminal or a page.

The definitions behind every figure are in :mod:`palast.sim.simulate`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from palast.sim.simulate import SimConfig, Tally
from palast.spec.load import Spec


def command_line(config: SimConfig) -> str:
    """The ``palast simulate`` command that reproduces ``config``."""
    rs = " ".join(f"--ruleset {r}" for r in config.rulesets)
    return (f"palast simulate --games {config.games} --players {len(config.players)} --seed {config.seed} "
            f"--policy {config.policy} {rs}")


def _share(n: int, total: int) -> float:
    return round(n / total, 4) if total else 0.0


def _per_1000(n: int, games: int) -> float:
    return round(1000 * n / games, 2) if games else 0.0


def distribution(hist: Counter[int]) -> dict[str, Any]:
    """``count``, ``mean``, ``median``, ``min``, ``max`` and the ``histogram`` (value ->
    count, ascending) of a histogram of whole numbers."""
    total = sum(hist.values())
    if not total:
        return {"count": 0, "mean": None, "median": None, "min": None, "max": None, "histogram": {}}
    values = sorted(hist)
    half, seen, median = (total + 1) // 2, 0, values[0]
    for v in values:
        seen += hist[v]
        if seen >= half:
            median = v
            break
    return {
        "count": total,
        "mean": round(sum(v * n for v, n in hist.items()) / total, 3),
        "median": median,
        "min": values[0],
        "max": values[-1],
        "histogram": {str(v): hist[v] for v in values},
    }


def _points(spec: Spec, t: Tally) -> dict[str, Any]:
    from palast.lang.logic import parameter_table

    # a point the engine executes: one with an engine parameter or readings declared in a rule
    executed = {point for point, _ in parameter_table(spec).values()}
    out: dict[str, Any] = {}
    g = t.games
    for vp in spec.variation_points.values():
        p = vp.id
        example = t.example_outcome.get(p, t.example.get(p))
        out[p] = {
            "changes_outcome": vp.changes_outcome,
            "executable": p in executed,
            "consulted_per_1000": _per_1000(t.consulted[p], g),
            "reached_per_1000": _per_1000(t.reached[p], g),
            "games_reaching": _share(t.games_reached[p], g),
            "games_diverged": _share(t.point_diverged[p], g),
            "games_outcome_diverged": _share(t.point_outcome_diverged[p], g),
            "example_seed": example,
            "example_reached_seed": t.example_reached.get(p),
        }
    return out


def ruleset_summary(spec: Spec, config: SimConfig, ruleset: str, t: Tally) -> dict[str, Any]:
    """The figures for the games played under ``ruleset`` (see :func:`summary`)."""
    rounds_done = sum(t.round_ends.values())
    others = [r for r in spec.rulesets if r != ruleset]
    return {
        "games": t.games,
        "ended": t.over,
        "stopped_at_gap": {p: t.gaps[p] for p in sorted(t.gaps)},
        "rounds_per_game": distribution(t.rounds),
        "actions_per_round": distribution(t.round_actions),
        "round_ends": {k: {"rounds": t.round_ends[k], "share": _share(t.round_ends[k], rounds_done)}
                       for k in ("whisper", "forced-whisper", "six")},
        "win_rate": {config.players[s]: round(float(t.win_share.get(s, 0)) / t.over, 4) if t.over else 0.0
                     for s in range(len(config.players))},
        "wins": {config.players[s]: t.wins[s] for s in range(len(config.players))},
        "shared_wins": t.shared,
        "diverged": {
            "any": _share(t.diverged_any, t.games),
            "outcome_any": _share(t.outcome_diverged_any, t.games),
            "from": {r: _share(t.diverged[r], t.games) for r in others},
            "outcome_from": {r: _share(t.outcome_diverged[r], t.games) for r in others},
        },
        "variation_points": _points(spec, t),
    }


def summary(spec: Spec, config: SimConfig, tallies: dict[str, Tally]) -> dict[str, Any]:
    """The run's figures as one JSON-ready document.

    :returns: ``command`` (to reproduce it), ``games``, ``players``, ``seed``, ``policy``,
        ``rulesets`` and ``results``: per ruleset ``games``, ``ended``, ``stopped_at_gap``
        (point -> games), ``rounds_per_game`` and ``actions_per_round`` (see
        :func:`distribution`), ``round_ends`` (kind -> rounds and share), ``win_rate`` and
        ``wins`` by seat colour, ``shared_wins``, ``diverged`` (shares of games that
        diverged from any / each other ruleset, in options or in outcome) and
        ``variation_points`` (per point: ``consulted_per_1000``, ``reached_per_1000``,
        ``games_reaching``, ``games_diverged``, ``games_outcome_diverged``,
        ``example_seed``).
    """
    return {
        "command": command_line(config),
        "games": config.games,
        "players": list(config.players),
        "seed": config.seed,
        "policy": config.policy,
        "rulesets": list(config.rulesets),
        "results": {rs: ruleset_summary(spec, config, rs, tallies[rs]) for rs in config.rulesets},
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render_text(doc: dict[str, Any]) -> list[str]:
    """The figures of :func:`summary` as text: per ruleset how games go, then a table of
    the variation points."""
    lines = [f"{doc['command']}",
             f"{doc['games']} games per ruleset, players {', '.join(doc['players'])}, seeds {doc['seed']}.."
             f"{doc['seed'] + doc['games'] - 1}, policy {doc['policy']}"]
    for rs, r in doc["results"].items():
        rp, ap = r["rounds_per_game"], r["actions_per_round"]
        lines.append("")
        lines.append(f"== ruleset {rs}: {r['games']} games, {r['ended']} ended with a winner"
                     + (", stopped at a gap: " + ", ".join(f"{p} {n}" for p, n in r["stopped_at_gap"].items())
                        if r["stopped_at_gap"] else ""))
        if rp["count"]:
            lines.append(f"   rounds per game      mean {rp['mean']:.2f}  median {rp['median']}  "
                         f"range {rp['min']}-{rp['max']}")
        if ap["count"]:
            lines.append(f"   actions per round    mean {ap['mean']:.2f}  median {ap['median']}  "
                         f"range {ap['min']}-{ap['max']}  (player actions; {ap['count']} rounds)")
        ends = r["round_ends"]
        lines.append("   round ends           " + "  ".join(f"{k} {v['rounds']} ({_pct(v['share'])})"
                                                          for k, v in ends.items()))
        lines.append("   win rate by seat     " + "  ".join(f"{c} {_pct(v)}" for c, v in r["win_rate"].items())
                     + (f"  ({r['shared_wins']} shared wins)" if r["shared_wins"] else ""))
        dv = r["diverged"]
        lines.append(f"   games diverging      any other ruleset {_pct(dv['any'])} "
                     f"(outcome {_pct(dv['outcome_any'])}); "
                     + "; ".join(f"from {o} {_pct(v)} (outcome {_pct(dv['outcome_from'][o])})"
                                 for o, v in dv["from"].items()))
        lines.append(f"   {'variation point':<27}{'outcome?':>9}{'reached/1000':>14}{'games':>8}"
                     f"{'diverged':>10}{'outcome':>9}  example seed")
        for p, v in r["variation_points"].items():
            if not v["executable"]:
                why = ("only what players know changes: spec/visibility.yaml, palast ask --as"
                       if v["changes_outcome"] == "knowledge" else "not followed: no rule reads it in a readings block")
                lines.append(f"   {p:<27}{v['changes_outcome']:>9}  ({why})")
                continue
            ex = v["example_seed"] if v["example_seed"] is not None else "-"
            lines.append(f"   {p:<27}{v['changes_outcome']:>9}{v['reached_per_1000']:>14.1f}"
                         f"{_pct(v['games_reaching']):>8}{_pct(v['games_diverged']):>10}"
                         f"{_pct(v['games_outcome_diverged']):>9}  {ex}")
    return lines
