"""The example records in ``examples/records/`` that ``palast play --record`` wrote, and how
to write them again after a spec change (``python examples/records/regenerate.py``).

Each is a seeded game (players, ruleset, seed), played as ``palast play --players N --seed S
--ruleset R --record FILE`` plays it, then optionally edited: its result line left out, or
cut where a banned Jester could be played and that play added. Hand-written records (no
``written_by``) are not listed; they carry no spec digest and need no refresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from palast.engine.actions import Play
from palast.engine.game import Game
from palast.engine.state import DecisionKind
from palast.formats.notation import format_action, parse_action
from palast.formats.record import Record, RecordedAction, record_game, write_record
from palast.sim.play import play_moves
from palast.spec.load import Spec

#: What each edit does, for the record's note.
EDITS = {
    None: "",
    "no-result": "result line removed",
    "banned-jester": "cut after the Jester is banned, with a banned Jester played by a player holding other cards",
}


@dataclass(frozen=True)
class ExampleRecord:
    """One example record written by ``palast play --record``.

    :ivar file: its file name in ``examples/records/``.
    :ivar players: the player count (the spec's first player colours are seated).
    :ivar ruleset: the ruleset it is played under.
    :ivar seed: the game's seed.
    :ivar edit: ``None`` (the record as played), ``"no-result"`` or ``"banned-jester"``
        (see :data:`EDITS`).
    :ivar why: what the example shows, for the header's note (edited records only).
    """

    file: str
    players: int
    ruleset: str
    seed: int
    edit: str | None = None
    why: str = ""


#: The examples written by ``palast play``, in ``examples/records/``.
EXAMPLES = (
    ExampleRecord("seed7-reference.jsonl", 4, "reference", 7),
    ExampleRecord("illegal-banned-jester.jsonl", 3, "reference", 1, "banned-jester"),
    ExampleRecord("source-b-jester-gap.jsonl", 3, "source-b", 65, "no-result",
                  "after the last action the next player holds only banned Jesters"),
)


def _banned_jester_played(game: Game, record: Record) -> Record:
    """``record`` cut at the first play where a role that may not be played when banned (the
    Jester) is banned and the player holds a card of it and other cards, with that player's
    play of it added (king.jester).

    :raises ValueError: if the game has no such play.
    """
    state = game.initial_state()
    for i, ra in enumerate(record.actions):
        d = state.decision
        banned = state.king_in_force
        if d.kind == DecisionKind.PLAY and not d.forced and banned >= 0 and not game.playable_when_banned[banned]:
            hand = state.hands[d.player]
            legal = {a.card for a in game.legal_actions(state) if isinstance(a, Play)}
            jesters = [c for c in hand if game.cards.role_of(c) == banned and c not in legal]
            if jesters and len(jesters) < len(hand):
                bad = RecordedAction(format_action(game, Play(jesters[0])), game.colour_name(d.player),
                                     note="the Jester is banned and this player holds other cards")
                return replace(record, actions=(*record.actions[:i], bad), result=None)
        state = game.apply(state, parse_action(game, ra.text)).state
    raise ValueError("no play in this game where a banned Jester could be played against the rules")


def example_record(spec: Spec, example: ExampleRecord) -> Record:
    """The record ``example`` describes, written with ``spec``.

    :returns: the record as ``palast play --record`` writes it, with the edit applied and
        the note saying how it was made.
    :raises ValueError: if the edit cannot be made in this game.
    """
    game = Game(spec, example.ruleset, list(spec.player_colours[:example.players]), check=False)
    record = record_game(game, play_moves(game, example.seed), seed=example.seed, policy="uniform",
                         written_by="palast play")
    if example.edit is None:
        return record
    if example.edit == "no-result":
        record = replace(record, result=None)
    elif example.edit == "banned-jester":
        record = _banned_jester_played(game, record)
    else:
        raise ValueError(f"unknown edit {example.edit!r}")
    how = f"palast play --players {example.players} --seed {example.seed} --ruleset {example.ruleset}"
    note = f"{how}, {EDITS[example.edit]}" + (f": {example.why}" if example.why else "")
    return replace(record, note=note)


def regenerate(directory: Path, spec: Spec) -> list[Path]:
    """Write every example of :data:`EXAMPLES` into ``directory`` again.

    :returns: the files written.
    """
    written = []
    for example in EXAMPLES:
        path = directory / example.file
        write_record(path, example_record(spec, example))
        written.append(path)
    return written
