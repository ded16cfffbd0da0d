"""``{palast-state}``: the page "The position", rendered from ``spec/state.yaml``: every zone
with how statements name it, who holds it, what it holds and how its cards lie; every
counter; and what the turn's machinery keeps besides."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes

from .specdata import Cell, SpecDirective, literal, section, strong, table, text

#: How a zone's cards lie (``order`` in spec/state.yaml), in words.
ORDER_WORDS: dict[str, str] = {
    "sorted": "in card order",
    "laid": "in the order laid",
    "deck": "face down, top first",
    "one": "one card at most",
}
#: What a zone holds before the first deal, and after a deal (``start``, ``deal``), in words.
ZONE_START: dict[str, str] = {"empty": "nothing", "full": "all its cards, in no known order",
                              "unplaced": "nothing: the cards wait for the deal"}
ZONE_DEAL: dict[str, str] = {"dealt": "the cards dealt", "rest": "the cards not dealt", "empty": "nothing",
                             "kept": "what it held"}
#: A counter's value before the first deal and after a deal, in words.
COUNTER_WORDS: dict[str, str] = {"zero": "0", "none": "none", "first player": "the first player in seat order",
                                 "one more": "one more", "kept": "kept"}
#: A counter's kind in words.
KIND_WORDS: dict[str, str] = {"int": "a number", "card": "a card", "seat": "a player", "colours": "a colour per player"}


class StateDirective(SpecDirective):
    """``{palast-state}``: the zones, the counters and the machinery's parts of the position."""

    reads: ClassVar[tuple[str, ...]] = ("state.yaml",)

    def run(self) -> list[nodes.Node]:
        spec = self.spec()
        decl = spec.state
        zones: list[list[Cell]] = []
        for z in decl.zones:
            written = f"{z.name}(P)" if z.per_player else z.name
            named: list[nodes.Node] = [literal(written)]
            if z.under:
                named += [nodes.Text(", under it "), literal(z.under)]
            title: list[nodes.Node] = [strong(z.title), nodes.Text(f" ({z.zone})")]
            zones.append([title, named, text("each player" if z.per_player else "the table"),
                          text(z.holds), text(ORDER_WORDS[z.order]), text(ZONE_START[z.start]),
                          text(ZONE_DEAL[z.deal]), text(z.says), self.cite(spec, z.clauses)])
        counters: list[list[Cell]] = []
        for c in decl.counters:
            written = f"{c.name}(P)" if c.per_player else c.name
            counters.append([strong(c.counter), literal(written), text("each player" if c.per_player else "the game"),
                             text(KIND_WORDS[c.kind]), text("yes" if c.settable else "—"),
                             text(COUNTER_WORDS[c.start]), text(COUNTER_WORDS[c.deal]), text(c.says),
                             self.cite(spec, c.clauses)])
        machine: list[list[Cell]] = [[strong(m.part), text("cleared" if m.deal == "cleared" else "kept"),
                                      text(m.says)] for m in decl.machine]
        return [
            section("The zones", "state-zones",
                    nodes.paragraph("", "Every place a card can lie. A rule's statements move cards between these "
                                        "zones by the name in the second column; spec/visibility.yaml says who sees "
                                        "each one (see the page on what each player knows). A hand is kept in card "
                                        "order, since the order a player holds cards in is no rule; below a deck's "
                                        "known top, cards may lie in an order nobody knows."),
                    table(["zone", "written", "held by", "holds", "its cards lie", "before the first deal",
                           "after a deal", "what it is", "clauses"], zones, widths=[2, 3, 2, 2, 3, 3, 2, 5, 3])),
            section("The counters", "state-counters",
                    nodes.paragraph("", "Every number and name the rules keep. Expressions read each by its name; "
                                        "a rule's statement sets those marked so (set), the machinery the others "
                                        "(a deal, a round's end, the next turn)."),
                    table(["counter", "written", "kept for", "its value", "set", "before the first deal",
                           "after a deal", "what it is", "clauses"], counters, widths=[2, 2, 2, 2, 1, 2, 2, 5, 3])),
            section("The machinery", "state-machine",
                    nodes.paragraph("", "What the turn's machinery keeps besides, read through the primitives of the "
                                        "rule language (decision, ended, ender, game_over, ...) and changed by no "
                                        "statement."),
                    table(["part", "a deal", "what it is"], machine, widths=[2, 1, 7])),
        ]
