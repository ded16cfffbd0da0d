"""Between the engine and the encoding: engine states and actions as Z3 field values
(the abstraction function), and Z3 models back as engine states, actions and scenarios.

:func:`abstract` is the abstraction the differential check compares on; it keeps every
field of :class:`~palast.engine.State` the encoding has (see :mod:`proofs.encoding`) and
forgets the order of displays and of the draw deck, the events, the decision's cached
options and choices, and the variation points an event names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import yaml
import z3

from palast.engine import Game
from palast.engine.actions import Action, Deal, action_value
from palast.engine.state import Decision, DecisionKind, State
from palast.formats.notation import format_action
from palast.formats.scenario_dump import dump_scenario
from proofs.encoding import PER_SEAT_KINDS, ROUND_ENDS, Layout, ZState, field_names
from proofs.legality import label_width, shapes
from proofs.shapes import NEVER
from proofs.terms import eq
from proofs.transition import Label

K = DecisionKind
Values = dict[str, int | bool]


def kind_of(lay: Layout, card: int) -> int:
    """The kind a card counts as in ``lay``: its own, or its role's (the role level)."""
    own = lay.kind_of_card.get(card)
    return own if own is not None else lay.kinds_of_role[lay.game.cards.role_of(card)][0]


def _counts(lay: Layout, cards: Iterable[int]) -> list[int]:
    out = [0] * len(lay.kinds)
    for c in cards:
        out[kind_of(lay, c)] += 1
    return out


def inexpressible(state: State) -> str | None:
    """Why the encoding cannot express ``state`` (a constructed position that leaves cards
    unplaced outside the draw deck or the King deck), or ``None`` when it can."""
    if state.deck_hidden != len(state.unseen) and not (state.round == 0 and state.deck_hidden == 0):
        return "the position leaves cards unplaced outside the draw deck"
    if state.king_hidden != len(state.king_unseen):
        return "the position leaves King cards unplaced outside the King deck"
    return None


def abstract(lay: Layout, state: State) -> Values:
    """The encoding's values for an engine ``state``.

    :raises ValueError: for a state whose draw deck or King deck the encoding cannot
        express (a constructed position leaving cards unplaced outside the deck).
    """
    why = inexpressible(state)
    if why is not None:
        raise ValueError(why)
    v: Values = {}
    zones: list[list[int]] = [[] for _ in range(lay.zones)]
    for p in range(lay.n):
        zones[lay.hand[p]] = list(state.hands[p])
        zones[lay.disp[p]] = list(state.displays[p])
    zones[lay.deck] = list(state.deck) + list(state.deck_bottom) + list(state.unseen)
    zones[lay.discard] = list(state.discard)
    for z in range(lay.zones):
        for k, c in enumerate(_counts(lay, zones[z])):
            v[f"c{z}_{k}"] = c
    kd = Counter(state.king_deck) + Counter(state.king_unseen)
    for j, r in enumerate(lay.king_roles):
        v[f"kd{j}"] = kd[r] > 0
        v[f"ks{j}"] = r in state.king_spent
    v["banned"] = state.king_in_force
    winners = state.result.winners if state.result is not None else ()
    for p in range(lay.n):
        v[f"score{p}"] = state.scores[p]
        v[f"played{p}"] = state.played[p]
        v[f"tally{p}"] = state.tally[p]
        v[f"win{p}"] = p in winners
    for counter in lay.counters.values():  # a colour per seat kept for the table (the marks; -1: none)
        if not counter.per_player and counter.kind in PER_SEAT_KINDS:
            given = tuple(getattr(state, counter.fields[0]))
            for p in range(lay.n):
                v[f"{counter.name}{p}"] = given[p] if given else -1
    d = state.decision
    v["round"] = state.round
    v["actor"] = state.actor
    v["card"] = kind_of(lay, state.last_card) if state.last_card >= 0 else -1
    v["dk"] = lay.code(d.kind)
    v["dp"] = d.player
    v["partner"] = d.partner
    v["count"] = d.count
    v["forced"] = d.forced
    v["gap"] = lay.points.index(d.point) if d.kind == K.GAP else -1
    re = state.round_end
    v["rk"] = ROUND_ENDS.index(re.kind) if re is not None else 0
    v["rp"] = re.player if re is not None else -1
    v["rforced"] = re.forced if re is not None else False
    v["shared"] = state.result.shared if state.result is not None else False
    for k, c in enumerate(_counts(lay, d.given)):
        v[f"g{k}"] = c
    if lay.site_field:
        v["site"] = site_of(lay, state)
    return v


def site_of(lay: Layout, state: State) -> int:
    """The number of the statement the pending decision of ``state`` waits at among the
    layout's sites of its decision (:attr:`~proofs.encoding.Layout.sites`), or -1 where its
    decision has one: from the statement the engine recorded (``Decision.rule``), or for a
    decision made outside the engine, the one the engine finds by applying its step again
    under the layout's readings (:meth:`~proofs.encoding.Layout.engine_runner`).

    :raises ValueError: where the decision names a statement that is not one of the sites,
        or the engine finds none.
    """
    d = state.decision
    listed = lay.sites.get(d.kind, ())
    if len(listed) <= 1:
        return -1
    if d.rule:
        *_, owner, path = d.rule.split("|")
        if (owner, path) in listed:
            return listed.index((owner, path))
        raise ValueError(f"the {d.kind} decision waits at {owner} {path}, no statement the encoding knows")
    found = lay.engine_runner().resume_of(d, state)
    at = [i for i, (owner, _) in enumerate(listed) if found is not None and owner == found.rule]
    if len(at) != 1:
        raise ValueError(f"the engine finds no one statement the {d.kind} decision waits at")
    return at[0]


def _card_of(lay: Layout, k: int) -> int:
    if lay.level != "card":
        raise ValueError("only the card level names cards")
    return int(lay.kinds[k].card)


def cards_of(lay: Layout, counts: list[int]) -> tuple[int, ...]:
    """The engine's cards (sorted) of ``counts``, a number per card kind (card level).

    :raises ValueError: at the role level, which does not name cards.
    """
    return tuple(sorted(c for k, n in enumerate(counts) for c in [_card_of(lay, k)] * n))


def action_of(lay: Layout, kind: str, label: dict[str, Any]) -> Action:
    """The engine action with ``label``'s values (``a``, ``vec``, ``deal``, as
    :func:`proofs.concrete.read_label` gives them) answering a ``kind`` decision (card
    level).

    :raises ValueError: for a decision no action of the model answers.
    """
    sh = shapes(lay).get(kind, NEVER)
    if sh.form == "deal":
        return Deal(tuple(cards_of(lay, row) for row in label["deal"]), None)
    if sh.form == "cards":
        return lay.game.answers.make(kind, cards_of(lay, label["vec"]))
    if sh.form in ("element", "tuple"):
        values = tuple(_card_of(lay, v) if p == "card" and v >= 0 else int(v)  # -1: no card
                       for p, v in zip(sh.parts, label["a"], strict=False))
        return lay.game.answers.make(kind, values[0] if sh.form == "element" else values)
    raise ValueError(f"no action answers a {kind} decision")


def label_of(lay: Layout, kind: str, action: Action) -> dict[str, Any]:
    """The label values (``a``, ``vec``, ``deal``) of an engine ``action`` answering a
    ``kind`` decision: the inverse of :func:`action_of`.

    :raises ValueError: if no action of the model answers ``kind``, or the action is not
        one that answers it (the game's ``answers``) or not of the shape the decision's
        options give.
    """
    nk = len(lay.kinds)
    a = [0] * label_width(lay)
    vec = [0] * nk
    deal = [[0] * nk for _ in range(lay.n)]
    sh = shapes(lay).get(kind, NEVER)
    if not lay.game.answers.accepts(kind, action):
        raise ValueError(f"{action!r} does not answer a {kind} decision")
    value = action_value(action)
    if sh.form == "deal" and isinstance(value, Deal):
        deal = [_counts(lay, h) for h in value.hands]
    elif sh.form == "cards" and isinstance(value, tuple):
        vec = _counts(lay, value)
    elif sh.form in ("element", "tuple"):
        values = (value,) if sh.form == "element" else value
        if not isinstance(values, tuple) or len(values) != sh.width:
            raise ValueError(f"{action!r} does not answer a {kind} decision")
        for i, (p, v) in enumerate(zip(sh.parts, values, strict=True)):
            a[i] = kind_of(lay, v) if p == "card" and v >= 0 else int(v)  # -1: no card
    else:
        raise ValueError(f"{action!r} does not answer a {kind} decision")
    return {"a": a, "vec": vec, "deal": deal}


def pin_state(s: ZState, values: Mapping[str, int | bool]) -> list[Any]:
    """Equalities fixing the fields of ``s`` to ``values``."""
    return [eq(s.f[name], values[name]) for name in values]


def pin_label(label: Label, values: Mapping[str, Any]) -> list[Any]:
    """Equalities fixing ``label`` to label values (see :func:`label_of`)."""
    out = [eq(x, v) for x, v in zip(label.a, values["a"], strict=True)]
    out += [eq(x, v) for x, v in zip(label.vec, values["vec"], strict=True)]
    out += [eq(x, v) for row, vals in zip(label.deal, values["deal"], strict=True)
            for x, v in zip(row, vals, strict=True)]
    return out


def read_values(model: Any, s: ZState) -> Values:
    """The values of every field of ``s`` in a Z3 ``model``."""
    out: Values = {}
    for name, sort in field_names(s.lay):
        val = model.eval(s.f[name], model_completion=True)
        out[name] = z3.is_true(val) if sort == "bool" else val.as_long()
    return out


def read_label(model: Any, label: Label) -> dict[str, Any]:
    """The label values of ``label`` in a Z3 ``model``."""
    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    return {"a": [num(x) for x in label.a], "vec": [num(x) for x in label.vec],
            "deal": [[num(x) for x in row] for row in label.deal]}


def concrete_state(lay: Layout, v: Mapping[str, int | bool]) -> State:
    """An engine position with the values ``v`` (card level), its draw deck and King deck
    of unknown order. The decision is rebuilt by the engine's own turn start when ``v``
    waits for a play, so a scenario written from it reads back the same.

    :raises ValueError: for a position that does not wait for a play.
    """
    if lay.decisions[int(v["dk"])] != K.PLAY:
        raise ValueError("only a position waiting for a play can be written as a scenario")
    nk = len(lay.kinds)

    def zone(z: int) -> tuple[int, ...]:
        return cards_of(lay, [int(v[f"c{z}_{k}"]) for k in range(nk)])

    n = lay.n
    deck = zone(lay.deck)
    kings = tuple(r for j, r in enumerate(lay.king_roles) if v[f"kd{j}"])
    return State(
        hands=tuple(zone(lay.hand[p]) for p in range(n)), displays=tuple(zone(lay.disp[p]) for p in range(n)),
        deck=(), deck_hidden=len(deck), deck_bottom=(), unseen=deck, discard=zone(lay.discard),
        king_deck=(), king_hidden=len(kings), king_unseen=kings, king_in_force=int(v["banned"]),
        king_spent=tuple(r for j, r in enumerate(lay.king_roles) if v[f"ks{j}"]),
        scores=tuple(int(v[f"score{p}"]) for p in range(n)), played=tuple(int(v[f"played{p}"]) for p in range(n)),
        tally=tuple(int(v[f"tally{p}"]) for p in range(n)), round=max(1, int(v["round"])), actor=int(v["actor"]),
        last_card=-1, decision=Decision(K.PLAY, int(v["dp"]), forced=bool(v["forced"])),
    )


def scenario_text(game: Game, start: State, actions: list[Action], *, title: str, question: str,
                  comment: str, rulesets: tuple[str, ...]) -> str:
    """A scenario file: the position ``start`` (waiting for a play) and ``actions``.

    :param comment: a comment block put at the top of the file (one line per line).
    """
    doc = yaml.safe_load(dump_scenario(game, start, title=title, rulesets=rulesets))
    doc = {"title": title, "question": question, **{k: v for k, v in doc.items() if k != "title"}}
    texts: list[str] = []
    state = start
    for action in actions:
        texts.append(format_action(game, action))
        state = game.apply(state, action).state
    doc["actions"] = texts
    head = "".join(f"# {line}\n" if line else "#\n" for line in comment.splitlines())
    body: str = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    return head + body
