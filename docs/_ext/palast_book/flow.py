"""The turn and round state machine, drawn from what the engine does.

:func:`explore` plays seeded games from real deals under every ruleset and player count
through :meth:`palast.engine.Game.apply` and records each transition between decision
kinds (:class:`palast.engine.DecisionKind`) with the rule ids of the events that caused
it. Two junctions make the picture readable: *turn over* (the engine names the next
player) and *round over* (a round-end event). :class:`TurnDiagramDirective` draws the
result with ``sphinx.ext.graphviz`` and lists every transition in a table; it fails the
build if a decision kind of the engine is never reached, or if a role's decisions in
``spec/roles.yaml`` do not appear in that order.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from docutils import nodes
from sphinx.ext.graphviz import figure_wrapper, graphviz
from sphinx.util import logging

from palast.engine import Action, DecisionKind, Event, Game, Play, State
from palast.engine.state import CHANCE_KINDS, TERMINAL_KINDS
from palast.spec import Spec

from .specdata import SpecDirective, joined, literal, table, text

logger = logging.getLogger(__name__)

K = DecisionKind
TURN_OVER = "turn over"
ROUND_OVER = "round over"


@dataclass
class Flow:
    """Transitions seen: ``(from, to) -> labels``; plus what each role's play led to."""

    edges: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    role_next: dict[str, set[str]] = field(default_factory=dict)
    kinds: set[str] = field(default_factory=set)
    games: int = 0
    actions: int = 0

    def add(self, a: str, b: str, label: str) -> None:
        """Record a transition from node ``a`` to node ``b`` labelled ``label``."""
        self.edges.setdefault((a, b), set())
        if label:
            self.edges[a, b].add(label)


def _cause(spec: Spec, before: State, action: Action, events: Iterable[Event], game: Game) -> tuple[str, str | None]:
    """The rule id that caused a transition and, for a play, the role played."""
    evs = [e for e in events if e.kind not in ("card_played", "next_player")]
    role = None
    if before.decision.kind is K.PLAY and isinstance(action, Play):
        role = spec.roles[action.card % len(spec.roles)]
    ended = [e for e in evs if e.kind == "round_ended"]
    if ended:
        return ended[0].rule, role
    if evs:
        return evs[0].rule, role
    if role is not None:
        return spec.role_actions[role].rules[0], role
    first = next(iter(events), None)
    return (first.rule if first is not None else ""), role


def _label(spec: Spec, rule: str, role: str | None) -> str:
    """``role: action-kind`` when a role's own rule caused it, else the rule id."""
    if role is not None and rule in spec.role_actions[role].rules:
        act = spec.role_actions[role].action
        suffix = "" if rule == spec.role_actions[role].rules[0] else f" ({rule})"
        return f"{role}: {act}{suffix}"
    return rule


def record(spec: Spec, flow: Flow, game: Game, before: State, action: Action, events: tuple[Event, ...],
           after: State) -> None:
    """Add one applied action to ``flow``."""
    a, b = before.decision.kind.value, after.decision.kind.value
    flow.kinds.update((a, b))
    rule, role = _cause(spec, before, action, events, game)
    label = _label(spec, rule, role)
    kinds = [e.kind for e in events]
    if role is not None:
        flow.role_next.setdefault(role, set()).add(b)
    if "round_ended" in kinds:
        flow.add(a, ROUND_OVER, label)
        if after.decision.kind is K.DEAL:
            flow.add(ROUND_OVER, b, "round.next.starter")
        else:
            last = [e.rule for e in events if e.kind in ("game_ended", "rule_gap")]
            flow.add(ROUND_OVER, b, last[-1] if last else "")
        return
    nexts = [e for e in events if e.kind == "next_player"]
    turn_over = before.decision.kind is not K.NEXT_PLAYER and (nexts or after.decision.kind is K.NEXT_PLAYER)
    if turn_over:
        flow.add(a, TURN_OVER, label)
        gaps = [e.rule for e in events if e.kind == "rule_gap"]
        if gaps:
            flow.add(TURN_OVER, b, gaps[-1])
        elif nexts:
            flow.add(TURN_OVER, b, nexts[-1].rule)
        elif after.decision.kind is K.NEXT_PLAYER:
            flow.add(TURN_OVER, b, "turn.next.neutral-tie")
        return
    if after.decision.kind is K.GAP:
        gaps = [e.rule for e in events if e.kind == "rule_gap"]
        label = gaps[-1] if gaps else label
    flow.add(a, b, label)


def explore(spec: Spec, games: int) -> Flow:
    """Play ``games`` seeded games per ruleset and player count (uniformly random choices,
    draws from an unknown deck order) and record every transition.

    :returns: the :class:`Flow`.
    """
    flow = Flow()
    for ruleset in spec.rulesets:
        for n in range(spec.min_players, spec.max_players + 1):
            game = Game(spec, ruleset, list(spec.player_colours[:n]))
            for seed in range(games):
                rng = random.Random(f"{ruleset}/{n}/{seed}")
                state = game.initial_state()
                while not state.is_terminal:
                    if state.decision.is_chance:
                        action = game.sample_chance(state, rng, deck_order=False)
                    else:
                        acts = game.legal_actions(state)
                        action = acts[int(rng.random() * len(acts))]
                    step = game.apply(state, action)
                    record(spec, flow, game, state, action, step.events, step.state)
                    flow.actions += 1
                    state = step.state
                flow.games += 1
    return flow


ACTION = "role action"


def _node_attrs(name: str) -> str:
    if name in (TURN_OVER, ROUND_OVER):
        return 'shape=diamond, style="filled", fillcolor="#f3f0e6", fontsize=10'
    if name == ACTION:
        return 'shape=box, style="rounded,filled,bold", fillcolor="#fff7d6"'
    kind = K(name)
    if kind in CHANCE_KINDS:
        return 'shape=ellipse, style="dashed,filled", fillcolor="#eef3fb"'
    if kind in TERMINAL_KINDS:
        return 'shape=doubleoctagon, style="filled", fillcolor="#fbeeee"'
    return 'shape=box, style="rounded,filled", fillcolor="#eefbef"'


def action_nodes(flow: Flow) -> list[str]:
    """The decisions inside a role's action: reached from ``play`` without passing a
    junction, ``play`` again or the end of the game; in the engine's order."""
    stop = {K.PLAY.value, TURN_OVER, ROUND_OVER} | {k.value for k in TERMINAL_KINDS}
    todo = [b for (a, b) in flow.edges if a == K.PLAY.value and b not in stop]
    seen: set[str] = set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(b for (a, b) in flow.edges if a == n and b not in stop)
    return [k.value for k in K if k.value in seen]


def _short(labels: set[str], a: str, b: str) -> str:
    """The label drawn on an edge: from ``play`` the roles played (and rule ids that are
    not a role's own), from a junction or into *round over* the rule ids; none inside a
    role's decisions."""
    if a == K.PLAY.value:
        words = sorted({lab.split(": ")[0] if ": " in lab else lab for lab in labels})
    elif a in (TURN_OVER, ROUND_OVER) or b == ROUND_OVER:
        words = sorted(labels)
    else:
        return ""
    per_line = 2 if a == K.PLAY.value else 1
    lines = [", ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]
    return "\\n".join(lines)


def _dot(names: list[str], edges: dict[tuple[str, str], set[str]]) -> str:
    lines = ["digraph turn {", '  graph [rankdir=TB, nodesep=0.3, ranksep=0.35, fontname="sans-serif"];',
             '  node [fontname="sans-serif", fontsize=12, margin="0.08,0.04", height=0.3];',
             '  edge [fontname="sans-serif", fontsize=10, color="#555555", fontcolor="#1f3f7a", arrowsize=0.7];']
    for name in names:
        lines.append(f'  "{name}" [label="{name}", {_node_attrs(name)}];')
    for (a, b), labels in sorted(edges.items()):
        lab = _short(labels, a, b)
        attrs = f' [label="{lab}"]' if lab else ""
        lines.append(f'  "{a}" -> "{b}"{attrs};')
    lines.append("}")
    return "\n".join(lines)


def round_dot(flow: Flow) -> str:
    """Graphviz source of a round: every decision outside the roles' actions, which are
    drawn as one node (:func:`action_dot` opens it). Chance decisions are dashed
    ellipses, player decisions boxes, the end octagons, the two junctions diamonds."""
    inner = set(action_nodes(flow))
    edges: dict[tuple[str, str], set[str]] = {}
    for (a, b), labels in flow.edges.items():
        a2 = ACTION if a in inner else a
        b2 = ACTION if b in inner else b
        if a2 == b2 == ACTION:
            continue
        edges.setdefault((a2, b2), set()).update(labels)
    names = [k.value for k in K if k.value in flow.kinds and k.value not in inner] + [ACTION, TURN_OVER, ROUND_OVER]
    return _dot(names, edges)


def action_dot(flow: Flow) -> str:
    """Graphviz source of the roles' actions: from ``play`` through each role's decisions
    to the end of the turn (or of the round)."""
    inner = action_nodes(flow)
    edges = {(a, b): labels for (a, b), labels in flow.edges.items()
             if (a == K.PLAY.value and b in inner) or a in inner}
    exits = [n for n in (TURN_OVER, ROUND_OVER, *(k.value for k in K)) if any(b == n for (_, b) in edges)
             and n not in inner]
    return _dot([K.PLAY.value, *inner, *[e for e in exits if e != K.PLAY.value]], edges)


def check(spec: Spec, flow: Flow) -> list[str]:
    """Problems with ``flow`` against the engine and ``spec/roles.yaml``: a decision kind
    never reached, a role whose first decision never followed its play, two consecutive
    decisions of a role never seen one after the other."""
    problems = [f"the engine's decision kind {k.value!r} was never reached" for k in K if k.value not in flow.kinds]
    for role, act in spec.role_actions.items():
        seq = [c["decision"] for c in act.choices]
        if seq and seq[0] not in flow.role_next.get(role, set()):
            problems.append(f"spec/roles.yaml: playing a {role} never led to its first decision {seq[0]!r}")
        for x, y in itertools.pairwise(seq):
            if (x, y) not in flow.edges:
                problems.append(f"spec/roles.yaml: the {role}'s decision {y!r} never followed {x!r}")
    return problems


class TurnDiagramDirective(SpecDirective):
    """``{palast-turn-diagram}``: the state machine as a Graphviz figure, and a table of
    every transition with the rules behind it."""

    reads: ClassVar[tuple[str, ...]] = ("game.yaml", "rules.yaml", "roles.yaml", "variation_points.yaml",
                                        "rulesets.yaml")
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        flow = explore(spec, int(self.config.palast_flow_games))
        for p in check(spec, flow):
            logger.warning("turn diagram: %s", p, location=self.get_location())
        legend = ("Boxes: a player decides; dashed ellipses: chance; octagons: the game is over, or play "
                  "stopped at a gap; diamonds: the turn or the round is over.")
        seen = (f"Drawn from {flow.games} engine games from real deals ({flow.actions} actions) under every "
                f"ruleset and player count.")
        figs = [
            self.figure(round_dot(flow), "turn-diagram",
                        "A round: the decisions of a turn, with the roles' actions as one node (opened in the "
                        "next figure). Edges out of play name the roles played or the rule that applied. "
                        + legend + " " + seen),
            self.figure(action_dot(flow), "action-diagram",
                        "Inside a role's action: the decisions each role's action asks for, in the order of "
                        "spec/roles.yaml, and the chance draws it may need. " + seen),
        ]
        rows: list[list[Any]] = []
        for (a, b), labels in sorted(flow.edges.items()):
            rows.append([literal(a), literal(b), joined([self._label_node(spec, lab) for lab in sorted(labels)])
                         or "—"])
        intro = nodes.paragraph("", "Every transition seen, with the rules that caused it:")
        return [*figs, intro, table(["from", "to", "caused by"], rows, widths=[2, 2, 6], classes=["pal-transitions"])]

    def figure(self, code: str, ident: str, caption: str) -> nodes.figure:
        """A Graphviz figure of ``code`` with ``caption`` and HTML id ``ident``."""
        node = graphviz()
        node["code"] = code
        node["options"] = {"docname": self.env.docname}
        node["alt"] = caption.split(":")[0]
        node["classes"] = ["pal-diagram"]
        fig = figure_wrapper(self, node, caption)
        fig["ids"] = [nodes.make_id(ident)]
        fig["classes"] = ["pal-diagram-figure"]
        return fig

    def _label_node(self, spec: Spec, lab: str) -> nodes.Node:
        """A label as a link to the rule it names (``role: kind`` links to the role's page)."""
        if ": " in lab:
            role, rest = lab.split(": ", 1)
            return nodes.inline("", "", self.ref("role", role, role.capitalize()), text(": " + rest))
        if lab in spec.rules:
            return self.ref("rule", lab, lab)
        return literal(lab)
