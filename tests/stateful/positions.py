"""Generated positions: a Hypothesis strategy for scenarios no real deal needs to reach —
short hands, empty or unknown draw decks, discarded cards, banned roles, spent King cards,
scores near the target — for the state machine to start from.

Every generated scenario satisfies what a scenario file must (no repeated role in a
display, fewer than six cards displayed, hand plus display at most six, scores below the
target, plays at least the cards displayed and at most cards plus Guards displayed, which
keeps round-is-bounded's measure honest), so :meth:`Scenario.start` accepts it. Hypothesis
shrinks a failing position towards fewer cards in fewer places.
"""

from __future__ import annotations

from hypothesis import strategies as st

from palast.formats.scenario import Scenario
from palast.spec.cards import Cards
from tests.stateful.configs import spec


@st.composite
def positions(draw: st.DrawFn, ruleset: str) -> Scenario:
    """A scenario for ``ruleset`` with 3 to 5 players in a drawn seat order, at a play decision."""
    sp = spec()
    cards = Cards.from_spec(sp)
    n = draw(st.integers(sp.min_players, sp.max_players), label="players")
    colours = tuple(draw(st.permutations(range(len(sp.player_colours))), label="seat colours")[:n])
    pool = sorted(cards.composition(colours).elements())
    rest = list(draw(st.permutations(pool), label="card order"))
    guards = {i for i, r in enumerate(sp.roles) if sp.role_actions[r].action == "take-back"}
    hands: list[tuple[int, ...]] = []
    displays: list[tuple[int, ...]] = []
    played: list[int] = []
    for _ in range(n):
        size = draw(st.integers(0, sp.six - 1), label="display size")
        disp: list[int] = []
        for c in list(rest):
            if len(disp) == size:
                break
            if all(cards.role_of(c) != cards.role_of(x) for x in disp):
                disp.append(c)
                rest.remove(c)
        held = draw(st.integers(0, sp.hand_size - len(disp)), label="hand size")
        hands.append(tuple(sorted(rest[:held])))
        del rest[:held]
        displays.append(tuple(disp))
        has_guard = any(cards.role_of(c) in guards for c in disp)
        played.append(len(disp) + (1 if has_guard and draw(st.booleans(), label="guard took back") else 0))
    discarded = draw(st.integers(0, len(rest)), label="discard size")
    discard = tuple(rest[:discarded])
    del rest[:discarded]
    deck: int | tuple[int, ...] = (tuple(rest) if draw(st.booleans(), label="deck order known")
                                   else draw(st.integers(0, len(rest)), label="deck size"))
    kings = [sp.roles.index(r) for r in sp.king_roles]
    banned = draw(st.sampled_from([-1, *kings]), label="banned")
    free = [k for k in kings if k != banned]
    spent = tuple(draw(st.lists(st.sampled_from(free), unique=True), label="spent King cards"))
    left = [k for k in free if k not in spent]
    king_deck: int | tuple[int, ...] = (tuple(draw(st.permutations(left), label="King deck"))
                                        if draw(st.booleans(), label="King deck order known")
                                        else draw(st.integers(0, len(left)), label="King deck size"))
    target = sp.target(n)
    scores = tuple(draw(st.lists(st.integers(0, target - 1), min_size=n, max_size=n), label="scores"))
    tally = tuple(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n), label="tally"))
    return Scenario(
        file="<generated>", players=colours, rulesets=(ruleset,),
        to_move=draw(st.integers(0, n - 1), label="to move"), hands=tuple(hands), displays=tuple(displays),
        deck=deck, discard=discard, banned=banned, king_deck=king_deck, king_spent=spent, scores=scores,
        played=tuple(played), tally=tally, round=draw(st.integers(1, 9), label="round"), actions=(),
    )
