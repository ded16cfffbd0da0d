"""PNG plots of a ``palast simulate`` run (``--plots DIR``), drawn with matplotlib.

matplotlib is imported only here, and only when plots are asked for; it is the ``plots``
extra (``pip install 'palast[plots]'``; ``[test]`` and ``[dev]`` include it).
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

from palast.errors import InputError

#: The message when matplotlib is not installed.
PLOTS_MISSING = ("plots need matplotlib, which the base install leaves out: install palast[plots] "
                 "(from a checkout: pip install -e '.[plots]')")


def check_plot_dir(directory: str | Path) -> None:
    """Check, before any game is played, that :func:`write_plots` can write into
    ``directory``: matplotlib is installed, and the directory is writable or can be made.
    Leaves nothing behind (a probe file or directory is removed at once).

    :raises InputError: naming ``--plots`` and the directory, if not.
    """
    if importlib.util.find_spec("matplotlib") is None:
        raise InputError(PLOTS_MISSING, None, "--plots")
    out = Path(directory)
    existing, missing = out, None
    while not existing.exists() and existing != existing.parent:
        existing, missing = existing.parent, existing
    if not existing.is_dir():
        what = "is not a directory" if existing == out else f"{existing} is not a directory"
        raise InputError(what, str(out), "--plots")
    try:
        if missing is None:
            fd, probe = tempfile.mkstemp(dir=out, prefix=".palast-plots.", suffix=".tmp")
            os.close(fd)
            os.unlink(probe)
        else:
            os.mkdir(missing)
            os.rmdir(missing)
    except OSError as exc:
        doing = "cannot write in the directory" if missing is None else "cannot create the directory"
        raise InputError(f"{doing}: {exc.strerror}", str(out), "--plots") from None


def write_plots(doc: dict[str, Any], directory: str | Path) -> list[Path]:
    """Draw the figures of a run summary (:func:`palast.sim.report.summary`) into
    ``directory`` (created if missing): ``rounds_per_game.png``, ``actions_per_round.png``,
    ``round_ends.png``, ``win_rate.png`` and ``variation_points.png``.

    :returns: the files written.
    :raises InputError: if matplotlib is not installed or the directory cannot be made.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(PLOTS_MISSING, None, "--plots") from None
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the directory: {exc.strerror}", str(out), "--plots") from None
    results: dict[str, Any] = doc["results"]
    rulesets = list(results)
    title = f"{doc['games']} games per ruleset, {len(doc['players'])} players, seed {doc['seed']}, {doc['policy']}"
    written: list[Path] = []

    def save(fig: Any, name: str) -> None:
        fig.suptitle(title, fontsize=9)
        fig.tight_layout()
        path = out / name
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    for key, name, xlabel in (("rounds_per_game", "rounds_per_game.png", "rounds per game"),
                              ("actions_per_round", "actions_per_round.png", "player actions per round")):
        fig, ax = plt.subplots(figsize=(7, 4))
        for rs in rulesets:
            hist = results[rs][key]["histogram"]
            total = sum(hist.values()) or 1
            xs = [int(x) for x in hist]
            ax.plot(xs, [hist[str(x)] / total for x in xs], marker="o", markersize=3, label=rs)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share")
        ax.legend()
        save(fig, name)

    def grouped(name: str, cats: list[str], value: Any, ylabel: str) -> None:
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.8 / max(len(rulesets), 1)
        for i, rs in enumerate(rulesets):
            ax.bar([j + i * width for j in range(len(cats))], [value(rs, c) for c in cats], width, label=rs)
        ax.set_xticks([j + width * (len(rulesets) - 1) / 2 for j in range(len(cats))], cats)
        ax.set_ylabel(ylabel)
        ax.legend()
        save(fig, name)

    grouped("round_ends.png", ["whisper", "forced-whisper", "six"],
            lambda rs, c: results[rs]["round_ends"][c]["share"], "share of rounds")
    grouped("win_rate.png", list(doc["players"]), lambda rs, c: results[rs]["win_rate"][c], "win rate")

    points = [p for p, v in results[rulesets[0]]["variation_points"].items() if v["executable"]] if rulesets else []
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 0.45 * len(points) + 1.5), sharey=True)
    height = 0.8 / max(len(rulesets), 1)
    for i, rs in enumerate(rulesets):
        vps = results[rs]["variation_points"]
        ys = [j + i * height for j in range(len(points))]
        ax1.barh(ys, [vps[p]["reached_per_1000"] for p in points], height, label=rs)
        ax2.barh(ys, [vps[p]["games_outcome_diverged"] for p in points], height, label=rs)
    ax1.set_yticks([j + height * (len(rulesets) - 1) / 2 for j in range(len(points))], points)
    ax1.invert_yaxis()
    ax1.set_xlabel("reached per 1,000 games")
    ax2.set_xlabel("share of games whose outcome diverged")
    ax2.legend()
    save(fig, "variation_points.png")
    return written
