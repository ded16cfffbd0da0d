"""The turn and round state machine, drawn from its declarations.

The figures and the table are drawn from ``spec/flow.yaml`` and the roles' choices in
``spec/roles.yaml`` (:class:`palast.spec.flow.Flow`): every declared decision is a node,
every ``then`` an edge, and the junctions *turn-over* and *round-over* are drawn as
diamonds. :func:`declared_edges` reads them; :class:`TurnDiagramDirective` draws them with
``sphinx.ext.graphviz``.

Engine runs only check the declarations: :func:`explore` plays seeded games from real deals
under every ruleset (and every named house ruleset that switches a rule module on) and
player count and records which decision follows which, and
:func:`check` warns (failing the ``-W`` build) if the engine makes a move the flow does not
declare, never reaches a declared decision, or never takes a step of a role's declared order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from docutils import nodes
from sphinx.ext.graphviz import figure_wrapper, graphviz
from sphinx.util import logging

from palast.engine import DecisionKind, Game, State
from palast.formats.notation import ANSWER_FORMS
from palast.spec.flow import ACTION as ACTION_WORD
from palast.spec.load import Spec

from .specdata import SpecDirective, joined, literal, table, text

logger = logging.getLogger(__name__)

K = DecisionKind


@dataclass
class Flow:
    """What engine runs did: the decisions reached and every ``(decision, next decision)``
    pair, with the number of games and actions played."""

    kinds: set[str] = field(default_factory=set)
    pairs: set[tuple[str, str]] = field(default_factory=set)
    games: int = 0
    actions: int = 0


def record(flow: Flow, before: State, after: State) -> None:
    """Add one applied action (from ``before`` to ``after``) to ``flow``."""
    a, b = before.decision.kind, after.decision.kind
    flow.kinds.update((a, b))
    flow.pairs.add((a, b))


def explore(spec: Spec, games: int) -> Flow:
    """Play ``games`` seeded games per ruleset and player count (uniformly random choices,
    draws from an unknown deck order) and record every transition.

    :returns: the :class:`Flow`.
    """
    from palast.formats.house import resolve_all
    from palast.spec.modules import modules_in_play

    # the spec's rulesets, and for each rule module the named house rulesets that switch it on
    modular = [h for h, entry in spec.house_rulesets.items()
               if modules_in_play(spec, lambda p, e=entry: dict(e.get("readings") or {}).get(p))]
    spec = resolve_all(spec, modular)
    flow = Flow()
    for ruleset in [*(r for r in spec.rulesets if r not in modular), *modular]:
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
                    record(flow, state, step.state)
                    flow.actions += 1
                    state = step.state
                flow.games += 1
    return flow


ACTION = "role action"


def declared_edges(spec: Spec) -> dict[tuple[str, str], list[str]]:
    """The declared transitions as drawn: ``(from, to) -> labels``, where a node is a
    decision or a junction (``then`` as written), ``action`` is drawn as an edge to the
    first decision of each role's action labelled with the role, and a junction has an
    edge to each decision it stands for. ``any_time`` decisions get no edges (the figure
    says they may follow any action)."""
    fl = spec.flow
    firsts = {fl.decisions[f].role: f for f in fl.first_decisions()}
    edges: dict[tuple[str, str], list[str]] = {}
    for d in fl.decisions.values():
        for t in d.then:
            if t == ACTION_WORD:
                for role, first in firsts.items():
                    edges.setdefault((d.name, first), []).append(role)
            else:
                edges.setdefault((d.name, t), [])
    for j in fl.junctions.values():
        for t in j.then:
            edges.setdefault((j.id, t), [])
    return edges


def _node_attrs(spec: Spec, name: str) -> str:
    fl = spec.flow
    if name in fl.junctions:
        return 'shape=diamond, style="filled", fillcolor="#f3f0e6", fontsize=10'
    if name == ACTION:
        return 'shape=box, style="rounded,filled,bold", fillcolor="#fff7d6"'
    d = fl.decisions[name]
    if d.by == "chance":
        return 'shape=ellipse, style="dashed,filled", fillcolor="#eef3fb"'
    if d.terminal:
        return 'shape=doubleoctagon, style="filled", fillcolor="#fbeeee"'
    return 'shape=box, style="rounded,filled", fillcolor="#eefbef"'


def _node_label(spec: Spec, name: str) -> str:
    d = spec.flow.decisions.get(name)
    return f"{name}\\n(after any action)" if d is not None and d.any_time else name


def _dot(spec: Spec, names: list[str], edges: dict[tuple[str, str], list[str]]) -> str:
    lines = ["digraph turn {", '  graph [rankdir=TB, nodesep=0.3, ranksep=0.35, fontname="sans-serif"];',
             '  node [fontname="sans-serif", fontsize=12, margin="0.08,0.04", height=0.3];',
             '  edge [fontname="sans-serif", fontsize=10, color="#555555", fontcolor="#1f3f7a", arrowsize=0.7];']
    for name in names:
        lines.append(f'  "{name}" [label="{_node_label(spec, name)}", {_node_attrs(spec, name)}];')
    for (a, b), labels in edges.items():
        words = sorted(set(labels))
        lab = "\\n".join(", ".join(words[k:k + 2]) for k in range(0, len(words), 2))
        attrs = f' [label="{lab}"]' if lab else ""
        lines.append(f'  "{a}" -> "{b}"{attrs};')
    lines.append("}")
    return "\n".join(lines)


def _role_decisions(spec: Spec) -> list[str]:
    return [d.name for d in spec.flow.decisions.values() if d.role]


def round_dot(spec: Spec) -> str:
    """Graphviz source of a round: every declared decision outside the roles' actions, the
    roles' actions drawn as one node (:func:`action_dot` opens it), and the junctions.
    Chance decisions are dashed ellipses, player decisions boxes, the end octagons, the
    junctions diamonds."""
    inner = set(_role_decisions(spec))
    edges: dict[tuple[str, str], list[str]] = {}
    for (a, b), labels in declared_edges(spec).items():
        a2 = ACTION if a in inner else a
        b2 = ACTION if b in inner else b
        if a2 == b2 == ACTION:
            continue
        edges.setdefault((a2, b2), []).extend(labels)
    names = [n for n in spec.flow.decisions if n not in inner] + [ACTION, *spec.flow.junctions]
    return _dot(spec, names, edges)


def action_dot(spec: Spec) -> str:
    """Graphviz source of the roles' actions: from the decision whose ``then`` names
    ``action`` through each role's declared decisions to the junctions they lead to."""
    inner = _role_decisions(spec)
    starts = [d.name for d in spec.flow.decisions.values() if ACTION_WORD in d.then]
    edges = {(a, b): labels for (a, b), labels in declared_edges(spec).items()
             if (a in starts and b in inner) or a in inner}
    exits = list(dict.fromkeys(b for (_, b) in edges if b not in inner))
    return _dot(spec, [*starts, *inner, *[e for e in exits if e not in starts]], edges)


def check(spec: Spec, flow: Flow) -> list[str]:
    """Problems of the declared flow against engine runs (``flow``): a transition the engine
    made that ``spec/flow.yaml`` does not declare, a declared decision never reached, and a
    step between two of a role's declared decisions never taken."""
    fl = spec.flow
    problems = [f"the engine moved from {a!r} to {b!r}, which the declared flow does not allow"
                for a, b in sorted(flow.pairs - fl.pairs())]
    # a decision no rule waits for (one only a rule module would open, with none declared) is not expected
    waits = Game(spec, spec.default_ruleset, list(spec.player_colours[:spec.min_players])).runner.waits
    problems += [f"the declared decision {name!r} was never reached" for name, d in fl.decisions.items()
                 if name not in flow.kinds and (name in waits or d.terminal)]
    for d in fl.decisions.values():
        for t in d.then:
            if d.role and t in fl.decisions and fl.decisions[t].role == d.role and (d.name, t) not in flow.pairs:
                problems.append(f"spec/roles.yaml: the {d.role}'s decision {t!r} never followed {d.name!r}")
    return problems


class TurnDiagramDirective(SpecDirective):
    """``{palast-turn-diagram}``: the state machine as a Graphviz figure, and a table of
    every transition with the rules behind it."""

    reads: ClassVar[tuple[str, ...]] = ("game.yaml", "rules.yaml", "roles.yaml", "variation_points.yaml",
                                        "rulesets.yaml", "flow.yaml")
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        flow = explore(spec, int(self.config.palast_flow_games))
        for p in check(spec, flow):
            logger.warning("turn diagram: %s", p, location=self.get_location())
        fl = spec.flow
        quiet = [r for r in spec.roles if not spec.role_actions[r].choices]
        legend = ("Boxes: a player decides; dashed ellipses: chance; octagons: the game is over, or play "
                  "stopped at an open point; diamonds: the junctions of spec/flow.yaml.")
        seen = (f"Checked against {flow.games} engine games from real deals ({flow.actions} actions) under "
                "every ruleset and player count: every move they made is declared.")
        figs = [
            self.figure(round_dot(spec), "turn-diagram",
                        "A round, as declared in spec/flow.yaml: the decisions outside the roles' actions, with "
                        "the actions as one node (opened in the next figure). A role whose action asks for no "
                        f"decision ({', '.join(quiet)}) ends the turn at once. " + legend + " " + seen),
            self.figure(action_dot(spec), "action-diagram",
                        "Inside a role's action: each role's decisions as spec/roles.yaml declares them, in "
                        "order, with the chance draws they may need. " + seen),
        ]
        rows: list[list[Any]] = []
        for d in fl.decisions.values():
            words: list[nodes.Node] = [literal(t) for t in d.then] or [text("nothing (terminal)")]
            after = [text("; it may come after any action")] if d.any_time else []
            rules = joined([self.ref("rule", r, r) for r in d.rules])
            who = d.by if not d.role else f"{d.by} ({d.role})"
            answer = [literal(f"{d.verb} {ANSWER_FORMS[d.answer]}"), text(f" ({d.answer})")] if d.verb else \
                [text("no action")]
            rows.append([literal(d.name), who, answer, [*joined(words), *after], rules])
        for j in fl.junctions.values():
            rows.append([literal(j.id), "junction", "", joined([literal(t) for t in j.then]),
                         joined([self.ref("rule", r, r) for r in j.rules])])
        intro = nodes.paragraph("", f"Every declared decision, the action that answers it (its verb and what "
                                    f"it gives, as the notation writes it), what may follow it, and the rules "
                                    f"it rests on ({ACTION_WORD!r}: the first decision of the action of the "
                                    f"role played). No decision within one turn comes back, so a turn has at "
                                    f"most {fl.turn_actions_max()} actions.")
        return [*figs, intro, table(["decision", "who decides", "answered by", "may be followed by", "rules"], rows,
                                    widths=[2, 2, 3, 3, 3], classes=["pal-transitions"])]

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
