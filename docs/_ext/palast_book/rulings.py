"""The rulings chapter: each ruling of ``spec/rulings/`` with its position drawn as the
players' hands and displays, the question, and the outcome under each ruleset computed by
the engine while the book builds (:func:`palast.query.rulings.check_ruling`).

A ruling whose stated result disagrees with the engine is reported as a warning at its
page and fails the build at its end (``build-finished``), with or without ``-W``. Ruling
pages are read again on every build (``env-get-outdated``), since their outcome depends
on the engine's code as well as on the spec.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util import logging

from palast.engine import Event, Game, State
from palast.engine.state import DecisionKind
from palast.errors import IllegalActionError, InputError
from palast.formats.scenario import Scenario
from palast.query.describe import describe_decision, describe_event, event_words
from palast.query.ruling_files import load_rulings, rulings_dir
from palast.query.rulings import Check, Ruling, check_ruling, outcome_groups, points_explaining
from palast.spec.event_text import counted
from palast.spec.load import Spec

from .specdata import SpecDirective, joined, literal, rubric, strong, table, text

logger = logging.getLogger(__name__)

K = DecisionKind

_RULINGS: dict[int, tuple[Spec, list[Ruling]]] = {}
_CHECKS: dict[tuple[int, str], list[Check]] = {}
#: Disagreements found in this build: (ruling id, ruleset, difference text).
DISAGREEMENTS: list[tuple[str, str, str]] = []


def rulings_of(spec: Spec) -> list[Ruling]:
    """Every ruling, loaded and validated once per loaded spec.

    :raises ExtensionError: with every problem of every malformed ruling file.
    """
    hit = _RULINGS.get(id(spec))
    if hit is None or hit[0] is not spec:
        try:
            hit = (spec, load_rulings(spec))
        except InputError as exc:
            raise ExtensionError(f"the rulings cannot be read: {exc.render()}") from None
        _RULINGS[id(spec)] = hit
    return hit[1]


def checks_of(spec: Spec, ruling: Ruling) -> list[Check]:
    """The ruling checked by the engine under each ruleset it states a result for."""
    key = (id(spec), ruling.id)
    if key not in _CHECKS:
        _CHECKS[key] = check_ruling(spec, ruling)
    return _CHECKS[key]


def ruling_titles(spec: Spec) -> dict[str, str]:
    """Ruling id -> title, in id order."""
    return {r.id: r.title for r in rulings_of(spec)}


def rulings_citing(spec: Spec, clauses: Sequence[str]) -> list[Ruling]:
    """The rulings that rest on any of ``clauses``."""
    want = set(clauses)
    return [r for r in rulings_of(spec) if want & set(r.clauses)]


def rulings_naming(spec: Spec, point: str) -> list[Ruling]:
    """The rulings that show variation point ``point``."""
    return [r for r in rulings_of(spec) if point in r.variation_points]


def ruling_files(spec: Spec) -> list[Path]:
    """The ruling files (each a build dependency of the pages that show rulings)."""
    folder = rulings_dir(spec)
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


# ---------------------------------------------------------------------------- events
Illegal = tuple[str, tuple[str, ...]]


def engine_events(spec: Spec, ruling: Ruling, ruleset: str) -> tuple[Game, State, list[Event], Illegal | None]:
    """Play the ruling under ``ruleset``: the game, the position reached, the events (those
    of the asked action, or of the scenario's actions when none is asked) and, if the
    asked action is illegal, why and the clause ids of the rule it breaks."""
    from palast.formats.notation import parse_action

    game = Game(spec, ruleset, ruling.scenario.players)
    state, steps = ruling.scenario.position(game)
    events = [e for _, st in steps for e in st.events]
    if ruling.action is not None and state.decision.kind != K.GAP:
        try:
            step = game.apply(state, parse_action(game, ruling.action))
        except IllegalActionError as exc:
            return game, state, [], (exc.message, exc.clauses)
        state, events = step.state, list(step.events)
    return game, state, events, None


def viewer_history(spec: Spec, ruling: Ruling, ruleset: str) -> tuple[Game, State, list[Event], int]:
    """Play the ruling under ``ruleset`` for the players' views: the game, the position
    reached, every event from the scenario's start (its actions' and the asked action's),
    and the index of the outcome's first event (the asked action's; 0 when none is asked).
    An illegal asked action leaves the position before it."""
    from palast.formats.notation import parse_action

    game = Game(spec, ruleset, ruling.scenario.players)
    state, steps = ruling.scenario.position(game)
    history = [e for _, st in steps for e in st.events]
    first = 0
    if ruling.action is not None and state.decision.kind != K.GAP:
        first = len(history)
        try:
            step = game.apply(state, parse_action(game, ruling.action))
        except IllegalActionError:
            return game, state, history, first
        state, history = step.state, [*history, *step.events]
    return game, state, history, first


#: A pending decision's field, in words (a ruling page says what stays hidden).
DECISION_WORDS: dict[str, str] = {"given": "the cards already picked to hand over", "options": "the choices",
                                  "count": "the number of cards", "partner": "the partner"}

_ID = re.compile(r"\b([AB](?:\.[a-z0-9-]+)+|[a-z0-9]+(?:-[a-z0-9]+)+)\b")


class RulingBase(SpecDirective):
    """Shared rendering: cards, positions, prose with linked ids."""

    reads: ClassVar[tuple[str, ...]] = ("game.yaml", "rules.yaml", "roles.yaml", "variation_points.yaml",
                                        "rulesets.yaml", "invariants.yaml")

    def spec(self) -> Spec:
        from palast.query.rulings import spec_with_house_rulesets

        spec = super().spec()
        for p in ruling_files(spec):
            self.note(p)
        self.note(spec.root / "schema" / "ruling.schema.json")
        # with the house rulesets (BASE+POINT=READING) the rulings state results for
        return spec_with_house_rulesets(spec, rulings_of(spec))

    def card(self, game: Game, card: int, *, banned: int = -1) -> nodes.inline:
        """A card chip: the role in words, the colour as the chip's colour and in small type."""
        cards = game.cards
        role = cards.role_of(card)
        colour = cards.colours[cards.colour_of(card)]
        classes = ["pal-card", f"pal-card-{colour}"] + (["pal-banned"] if role == banned else [])
        chip = nodes.inline("", "", classes=classes)
        chip += nodes.inline(cards.roles[role].capitalize(), cards.roles[role].capitalize(), classes=["pal-card-role"])
        chip += nodes.inline(colour, colour, classes=["pal-card-colour"])
        return chip

    def cards(self, game: Game, cards: Sequence[int], *, banned: int = -1, empty: str = "none") -> list[nodes.Node]:
        """Chips for ``cards``, or ``empty`` in muted type."""
        if not cards:
            return [text(empty, "pal-muted")]
        return [self.card(game, c, banned=banned) for c in cards]

    def linked(self, spec: Spec, prose: str) -> list[nodes.Node]:
        """``prose`` with clause ids and variation point ids made into links."""
        out: list[nodes.Node] = []
        pos = 0
        for m in _ID.finditer(prose):
            word = m.group(1)
            if word in spec.clauses:
                node = self.ref("clause", word, word, classes=["pal-cite"])
            elif word in spec.variation_points:
                node = self.ref("vp", word, word)
            else:
                continue
            out.append(nodes.Text(prose[pos:m.start(1)]))
            out.append(node)
            pos = m.end(1)
        out.append(nodes.Text(prose[pos:]))
        return out

    def position(self, spec: Spec, scenario: Scenario, game: Game, state: State) -> list[nodes.Node]:
        """The position as a table of players (score, hand, display) and a line of the
        shared zones (King card in force, King deck, draw deck, discard pile, round)."""
        banned = state.king_in_force
        rows: list[list[Any]] = []
        show_played = any(state.played[s] != len(state.displays[s]) for s in range(game.n))
        for s in range(game.n):
            name = game.colour_name(s)
            who: list[nodes.Node] = [nodes.inline("", "", classes=["pal-seat", f"pal-card-{name}"]),
                                     strong(name)]
            if s == state.actor:
                who.append(text(" to move", "pal-to-move"))
            row: list[Any] = [who, str(state.scores[s]), self.cards(game, state.hands[s], banned=banned),
                              self.cards(game, state.displays[s], banned=banned, empty="empty")]
            if show_played:
                row.append(str(state.played[s]))
            rows.append(row)
        headers = ["player", "score", "hand", "display (in the order laid)"] + (["played"] if show_played else [])
        widths = [2, 1, 6, 6] + ([1] if show_played else [])
        out: list[nodes.Node] = [table(headers, rows, widths=widths, classes=["pal-position"])]
        roles = game.cards.roles
        zone = nodes.bullet_list(classes=["pal-zones"])

        def item(*body: nodes.Node) -> None:
            zone.append(nodes.list_item("", nodes.paragraph("", "", *body)))

        if banned >= 0:
            item(strong("King card in force: "), nodes.Text(roles[banned].capitalize() + " — that role is banned "
                                                            "(its cards are struck through)"))
        else:
            item(strong("King card in force: "), nodes.Text("none, no role is banned"))
        kings = [roles[r].capitalize() for r in state.king_deck]
        deck_text = ", ".join(kings) + (f" and {state.king_hidden} face down" if state.king_hidden and kings else "")
        item(strong("King deck: "), nodes.Text(deck_text if kings else f"{counted(state.king_hidden)} face down"))
        if state.king_spent:
            item(strong("King cards spent: "), nodes.Text(", ".join(roles[r].capitalize() for r in state.king_spent)))
        if state.deck:
            item(strong("Draw deck (top first): "), *self.cards(game, state.deck),
                 nodes.Text(f" and {state.deck_hidden} more" if state.deck_hidden else ""))
        else:
            item(strong("Draw deck: "), nodes.Text(f"{counted(state.deck_size)}, order unknown"))
        if state.discard:
            item(strong("Discard pile: "), *self.cards(game, state.discard))
        item(strong("Round: "), nodes.Text(f"{state.round}; target score {game.target}"))
        out.append(zone)
        return out


class RulingsDirective(RulingBase):
    """``{palast-rulings}``: every ruling, its question, and whether the rulesets' outcomes
    (computed by the engine) differ."""

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        rows: list[list[Any]] = []
        for r in rulings_of(spec):
            checks = checks_of(spec, r)
            groups = outcome_groups(checks)
            if len(groups) > 1:
                differs: list[nodes.Node] = [text(" ≠ ".join(" = ".join(g) for g in groups), "pal-disagree")]
                # only the points that rulesets of different groups read differently explain it
                candidates = [*r.variation_points, *(p for c in checks for p in c.outcome.variation_points)]
                points = points_explaining(spec, groups, candidates)
                if points:
                    differs += [text(" at ", "pal-muted")] + joined([self.ref("vp", v, v) for v in points])
            else:
                differs = [text("same under " + ", ".join(c.ruleset for c in checks), "pal-muted")]
            rows.append([[self.ref("ruling", r.id, r.title), text(r.id, "pal-muted", "pal-block")], r.question,
                         differs])
        return [table(["ruling", "question", "outcome by ruleset"], rows, widths=[4, 8, 3], classes=["pal-rulings"])]


class RulingDirective(RulingBase):
    """``{palast-ruling} ID``: one ruling's page body."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        rid = self.arguments[0]
        found = [r for r in rulings_of(spec) if r.id == rid]
        if not found:
            raise self.error(f"spec/rulings has no ruling {rid!r}")
        ruling = found[0]
        checks = checks_of(spec, ruling)
        items = [(r.id, r.title) for r in rulings_of(spec)]
        nav = self.item_nav("rulings", "rulings", "all rulings", items, rid)
        out: list[nodes.Node] = [self.target("ruling", rid, ruling.title), nav]
        out.append(nodes.paragraph("", "", strong("Question. "), nodes.Text(ruling.question), classes=["pal-question"]))

        out.append(rubric("The position"))
        game = Game(spec, ruling.rulesets[0], ruling.scenario.players)
        out.extend(self.position(spec, ruling.scenario, game, ruling.scenario.start(game)))
        if ruling.scenario.actions:
            out.append(nodes.paragraph("", f"These actions are applied first (shown under {game.ruleset}):"))
            out.append(self.applied(spec, ruling, game))
        if ruling.action is not None:
            out.append(nodes.paragraph("", "", strong("The action asked about: "), literal(ruling.action)))
        else:
            out.append(nodes.paragraph("", "The question is about the position itself: what must be decided, "
                                           "and which actions are legal."))

        out.append(rubric("What the engine computes, per ruleset"))
        out.extend(self.outcomes(spec, ruling, checks))

        out.append(rubric("Answer"))
        out.append(nodes.paragraph("", "", *self.linked(spec, ruling.answer)))
        out.append(self.cited(spec, [strong("Clauses: ")], ruling.clauses))
        if ruling.variation_points:
            out.append(nodes.paragraph("", "", strong("Variation points: "),
                                       *joined([self.ref("vp", v, spec.variation_points[v].topic)
                                                for v in ruling.variation_points])))
        out.append(nav.deepcopy())
        return out

    def applied(self, spec: Spec, ruling: Ruling, game: Game) -> nodes.enumerated_list:
        """The scenario's actions, each with the events it caused and their clauses."""
        _state, steps = ruling.scenario.position(game)
        lst = nodes.enumerated_list()
        for text_, step in steps:
            item = nodes.list_item("", nodes.paragraph("", "", literal(text_)))
            events = nodes.bullet_list(classes=["pal-events"])
            for e in step.events:
                events += nodes.list_item("", self.cited(spec, describe_event(game, e), e.clauses))
            item += events
            lst += item
        return lst

    def outcomes(self, spec: Spec, ruling: Ruling, checks: list[Check]) -> list[nodes.Node]:
        """Rulesets with the same computed outcome grouped; for each group the events with
        their clauses, the stated fields, and whether the engine agrees with the ruling."""
        by_ruleset = {c.ruleset: c for c in checks}
        out: list[nodes.Node] = []
        for names in outcome_groups(checks):
            group = [by_ruleset[rs] for rs in names]
            first = group[0]
            box = nodes.container(classes=["pal-outcome"])
            head = nodes.paragraph(classes=["pal-outcome-head"])
            head += joined([strong(c.ruleset) for c in group])
            game, state, events, illegal = engine_events(spec, ruling, first.ruleset)
            if illegal:
                head += nodes.Text(": the action is illegal — ")
                head += nodes.Text(illegal[0] + " ")
                head += self.cite(spec, illegal[1])
            else:
                head += nodes.Text(": ")
                head += self.decision(spec, game, state)
            box += head
            if events:
                ev = nodes.bullet_list(classes=["pal-events"])
                for e in events:
                    ev += nodes.list_item("", self.cited(spec, describe_event(game, e), e.clauses))
                box += ev
            box += self.stated(game, ruling.expect[first.ruleset])
            if "views" in ruling.expect[first.ruleset]:
                box += self.viewed(spec, ruling, first.ruleset, ruling.expect[first.ruleset]["views"])
            for c in group:
                box += self.verdict(ruling, c)
            out.append(box)
        return out

    def decision(self, spec: Spec, game: Game, state: State) -> nodes.Node:
        """What happens next, in words: the decision reached (a gap linked to its point)."""
        if state.decision.kind == K.GAP:
            point = state.decision.point
            return nodes.inline("", "", nodes.Text("play stops at the open variation point "),
                                self.ref("vp", point, spec.variation_points[point].topic),
                                nodes.Text(" (a gap)."))
        return nodes.Text(describe_decision(game, state) + ".")

    def stated(self, game: Game, expected: Any) -> nodes.Node:
        """The fields the ruling states, as a compact list."""
        lst = nodes.bullet_list(classes=["pal-stated"])
        for key, value in expected.items():
            if key == "events":
                continue
            body: list[nodes.Node] = [strong(key.replace("_", " ") + ": ")]
            if key in ("hands", "displays"):
                for who, cards in value.items():
                    body.append(nodes.Text(f"{who} "))
                    body.extend(self.cards(game, [game.cards.parse_card(t) for t in cards]))
                    body.append(nodes.Text(" "))
            elif key == "probabilities":
                body.extend(joined([nodes.inline("", "", literal(a), nodes.Text(f" {p}")) for a, p in value.items()]))
            elif key == "legal_actions":
                body.extend(joined([literal(a) for a in value]) or [text("none", "pal-muted")])
            elif key == "views":
                body.append(nodes.Text(", ".join(value) + " (below: what each of them sees)"))
            elif key == "gap" and value:
                body.append(self.ref("vp", value, value))
            elif isinstance(value, dict):
                body.append(nodes.Text(", ".join(f"{k} {v}" for k, v in value.items())))
            elif isinstance(value, list):
                body.append(nodes.Text(", ".join(map(str, value))))
            else:
                body.append(nodes.Text("none" if value is None else str(value).lower()))
            lst += nodes.list_item("", nodes.paragraph("", "", *body))
        return lst

    def viewed(self, spec: Spec, ruling: Ruling, ruleset: str, views: Any) -> nodes.Node:
        """The outcome from the side of each player the ruling states a view for, as the
        engine's :meth:`~palast.engine.Game.observation` gives it: the events as that player
        saw them, their hand, the hands open to them, and what stays hidden from them."""
        from palast.query.view_render import describe_seen

        game, state, history, first = viewer_history(spec, ruling, ruleset)
        box = nodes.container(classes=["pal-views"])
        box += nodes.paragraph("", "", strong("From each player's side"))
        items = nodes.bullet_list()
        for who in views:
            seat = game.seat_of(who)
            obs = game.observation(state, seat, history)
            para = nodes.paragraph("", "", strong(f"{game.colour_name(seat)} "))
            saw = [describe_seen(game, s, seat) for s in obs.history[first:]]
            para += nodes.Text(("sees: " + "; ".join(saw) + ". ") if saw else "sees nothing happen. ")
            para += nodes.Text("Their hand: ")
            para.extend(self.cards(game, list(obs.hand), empty="empty"))
            para += nodes.Text(". ")
            for owner, cards in obs.open_hands:
                para += nodes.Text(f"{game.colour_name(owner)}'s hand stays open to them: ")
                para.extend(self.cards(game, list(cards)))
                para += nodes.Text(". ")
            hidden = sorted({event_words(spec, s.event.kind) for s in obs.history[first:] if s.hidden})
            if hidden:
                para += nodes.Text("Hidden from them: " + ", ".join(hidden) + ". ")
            if obs.decision.hidden:
                para += nodes.Text("While " + game.colour_name(obs.decision.player) + " decides, hidden from them: "
                                   + ", ".join(DECISION_WORDS.get(f, f) for f in obs.decision.hidden) + ".")
            items += nodes.list_item("", para)
        box += items
        return box

    def verdict(self, ruling: Ruling, check: Check) -> nodes.paragraph:
        """Whether the engine agrees with the ruling under ``check.ruleset``; a disagreement
        is warned about here and fails the build at its end."""
        p = nodes.paragraph(classes=["pal-verdict"])
        if check.agrees:
            same = ruling.same_as.get(check.ruleset)
            note = f" (stated as the same as {same})" if same else ""
            p += text("✓ ", "pal-agree")
            p += nodes.Text(f"{check.ruleset}: the engine gives what the ruling states{note}.")
            return p
        for d in check.differences:
            DISAGREEMENTS.append((ruling.id, check.ruleset, d.text()))
            logger.warning("ruling %s under %s: the engine disagrees with the stated answer: %s", ruling.id,
                           check.ruleset, d.text(), location=self.get_location())
        p += text("✗ ", "pal-disagree")
        p += nodes.Text(f"{check.ruleset}: the engine disagrees with the ruling: "
                        + "; ".join(d.text() for d in check.differences))
        return p


def _reset(app: Sphinx) -> None:
    DISAGREEMENTS.clear()
    _CHECKS.clear()


def _always_reread(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                   removed: set[str]) -> list[str]:
    """Ruling pages depend on the engine's code, which Sphinx does not track: read them
    (and the rulings index) on every build."""
    return [d for d in env.found_docs if d.startswith("generated/rulings/") or d == "rulings"]


def _fail_on_disagreement(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and DISAGREEMENTS:
        lines = "\n  - ".join(f"{r} under {rs}: {t}" for r, rs, t in DISAGREEMENTS)
        raise ExtensionError(f"{len(DISAGREEMENTS)} ruling result(s) disagree with the engine:\n  - {lines}")


def setup_rulings(app: Sphinx) -> None:
    """Connect the per-build reset, the re-reading of ruling pages and the final check."""
    app.connect("builder-inited", _reset)
    app.connect("env-get-outdated", _always_reread)
    app.connect("build-finished", _fail_on_disagreement)
