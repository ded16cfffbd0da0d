"""Reachability questions: witnesses from real deals, or proofs that no such position exists.

* **maid-empty-deck** — no-such-state, by induction: inside a round, the draw deck plus
  the Maids and Guards displayed (minus a pending take-back, plus a pending Maid draw) is
  at least the draw deck right after a deal (:func:`deck_reserve`). A Maid's draw takes
  one card only after a Maid entered a display; a card leaves the displays only by a
  Guard's take-back, and a Guard never leaves the displays (a swap moves it to another
  display). No display holds two Maids or two Guards, so the deck never falls below
  ``deck after deal - 2 × players`` (``players + 14 - 2 × players > 0`` for the spec's card
  counts): a Maid always draws. The lead's reading "at most 2 × players draws" holds; its
  reason "Guards never leave a display" is true of *the* displays, not of each one.
* **empty-hand** — no-such-state: no action of any kind, from a position satisfying the
  strengthening, leaves a player to move with an empty hand (variation point
  no-card-to-play) or starts a Wizard or Maid without the cards its action needs
  (action-impossible): every hand plus display holds six cards and no display six during a
  round. So the encoding's handling of these two points is never used in a real game, and
  the differential check cannot (and need not) exercise it.
* **guard-void** — stated for every ruleset: can a Guard's action be void, no card of its
  player's display to take back (role.guard.void)? no-such-state where Z3 shows that no play
  from a position satisfying the strengthening leaves a Guard nothing to take back, as
  under guard-other-card's reading itself-too, where the Guard itself is always there to
  take back; otherwise the stored witness (:func:`guard_void_question`: a Guard played as
  the first card of its player's display), replayed by the engine under the ruleset. It
  expects a witness, which assumes nothing; a named house ruleset's ``prove`` list may
  declare no-such-state (house-guard does), which rests on the strengthening.
* **banned-jesters-only**, **cupbearer-void-two-displays**, **sixth-played-not-displayed**,
  **tiebreak-a-b-differ** — witnesses (:mod:`proofs.witness`).

:data:`RULES_NEVER_REACHED` names the rules each of these obligations shows never fire when
it ends in no-such-state; :func:`never_reached` the ones that excuse their rules under a
ruleset, where the differential check's coverage (:mod:`proofs.coverage`) rests on them.
Clauses: A.role.maid, B.role.zofe, A.play.turn, B.turn.play, A.role.wizard, B.role.zauberer,
A.king.jester, A.role.courtesan, B.role.mundschenk, A.end.noaction, B.turn.action,
A.gameend.winner, B.gameend.winner, A.goal, A.end.whisper, A.role.captain, B.role.waechter.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import z3

from palast.engine import Game, Step
from palast.engine.actions import Action
from palast.engine.state import DecisionKind
from palast.spec.load import Spec
from proofs.concrete import abstract, pin_state
from proofs.encoding import ROUND_ENDS, ZState, code, ite, maximum, total
from proofs.invariant import (
    STRENGTHENING,
    context,
    prove_invariant,
    prove_step,
)
from proofs.lang_z3 import declared
from proofs.obligation import Obligation, Options, Outcome, house_prove_lists
from proofs.search import Unroller, find_path, replay
from proofs.transition import ACTION_KINDS
from proofs.witness import Question, verify

K = DecisionKind
#: The number the encoding gives a round ended by a whisper.
WHISPER = ROUND_ENDS.index("whisper")
FAMILY = "reachability"


def deck_reserve(s: ZState) -> Any:
    """deck-reserve (a lemma of hand-plus-display), compiled from its declaration
    (:mod:`proofs.lang_z3`)."""
    return declared(s, "deck-reserve")


def _run_maid(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, (K.PLAY,), lambda ctx, k: z3.Not(ctx.flag(k, "rule:role.maid.empty-deck")))
    if ok:
        ok, where = prove_step(spec, ruleset, (K.DISCARD,), lambda ctx, k: ctx.t["dk"] == code(K.DRAW))
    if not ok:
        return Outcome("witness", f"a Maid meets an empty draw deck ({where}) in a position satisfying the "
                                  "strengthening")
    return Outcome("no-such-state", f"no Maid's action meets an empty draw deck and every discard is followed by "
                                    f"a draw ({where}; deck-reserve)")


#: Paths through the variation points no-card-to-play and action-impossible: a player to
#: move with an empty hand; a Wizard or Maid with no cards to work with.
EMPTY_HAND_FLAGS = ("gap:play.empty_hand", "point:action-impossible")


def _run_empty_hand(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, ACTION_KINDS,
                           lambda ctx, k: z3.And([z3.Not(ctx.flag(k, f)) for f in EMPTY_HAND_FLAGS]))
    if not ok:
        return Outcome("witness", f"an action reaches no-card-to-play or action-impossible ({where}) in a "
                                  "position satisfying the strengthening")
    return Outcome("no-such-state", f"no action leaves a player to move with an empty hand or a Wizard or Maid "
                                    f"without cards ({where}; hand-plus-display, display-below-six)")


# ---------------------------------------------------------------------- engine checks

def _played(step: Step) -> tuple[int, int]:
    for e in step.events:
        if e.kind == "card_played":
            return e.player, e.card
    raise AssertionError("the step plays no card")


def _banned_jesters_check(game: Game, steps: list[Step]) -> str | None:
    final = steps[-1].state
    d = final.decision
    banned = final.king_in_force
    hand = final.hands[d.player] if d.player >= 0 else ()
    if not hand or banned < 0 or game.playable_when_banned[banned]:
        return "the player to act has no hand or no unplayable role is banned"
    if any(game.cards.role_of(c) != banned for c in hand):
        return "the player to act holds a card of another role"
    forced = d.kind is K.PLAY and d.forced
    gap = d.kind is K.GAP and d.point == game.params["jester.forced"].point
    return None if forced or gap else "the engine neither forces the play nor stops at the variation point"


def _cupbearer_void_check(game: Game, steps: list[Step]) -> str | None:
    last = steps[-1]
    voids = [e for e in last.events if e.kind == "action_void" and e.rule == "role.cupbearer.void"]
    if not voids:
        return "its last play is not a Cupbearer whose action is void"
    p, card = _played(last)
    holding = 0
    for seat, disp in enumerate(last.state.displays):
        rest = list(disp)
        if seat == p:
            rest.remove(card)
        holding += bool(rest)
    return None if holding >= 2 else f"only {holding} display(s) hold a card other than the Cupbearer"


def _guard_void_check(game: Game, steps: list[Step]) -> str | None:
    voids = [e for e in steps[-1].events if e.kind == "action_void" and e.rule == "role.guard.void"]
    return None if voids else "its last action is not a Guard's play with nothing to take back (role.guard.void)"


def _sixth_check(game: Game, steps: list[Step]) -> str | None:
    last = steps[-1]
    p, _ = _played(last)
    st = last.state
    if st.played[p] != game.six or len(st.displays[p]) >= game.six or st.round_end is not None:
        return "its last play is not a sixth card played that leaves the display below six cards"
    return None


def tiebreak_winners(game: Game, state: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The players each tie-break picks among those tied on the top score: most cards
    displayed (source A) and most cards played this round (source B)."""
    top = max(state.scores)
    tied = [s for s in range(game.n) if state.scores[s] == top]
    disp = max(len(state.displays[s]) for s in tied)
    played = max(state.played[s] for s in tied)
    return (tuple(s for s in tied if len(state.displays[s]) == disp),
            tuple(s for s in tied if state.played[s] == played))


def _tiebreak_check(game: Game, steps: list[Step]) -> str | None:
    final = steps[-1].state
    if final.result is None:
        return "the game does not end"
    by_a, by_b = tiebreak_winners(game, final)
    if len(by_a) != 1 or len(by_b) != 1 or by_a == by_b:
        return f"the tie-breaks pick {by_a} and {by_b}"
    # which of the two the ruleset's tie-break picks is its rulings' question
    # (game-end-tie-displayed-vs-played): here it is enough that it picks one of them
    if final.result.winners not in (by_a, by_b):
        return f"the engine names {final.result.winners}, neither tie-break's winner ({by_a}, {by_b})"
    return None


# ---------------------------------------------------------------------- Z3 goals

def _only_banned_goal(u: Unroller, i: int) -> Any:
    s = u.state(i + 1)
    return z3.And(z3.Or(s["dk"] == code(K.PLAY), s["dk"] == code(K.GAP)), s.hand_size(s["dp"]) >= 1,
                  s.only_banned(s["dp"]))


def _tiebreak_goal(u: Unroller, i: int) -> Any:
    f = u.state(i + 1)
    lay = f.lay
    n = lay.n
    scores = [f[f"score{q}"] for q in range(n)]
    top = maximum(scores)
    tied = [x == top for x in scores]
    played = [f[f"played{q}"] for q in range(n)]
    shown = [f.zone_size(lay.disp[q]) for q in range(n)]
    options = []
    for x in range(n):
        for y in range(n):
            if x != y:
                options.append(z3.And(
                    tied[x], tied[y], *[z3.Implies(tied[q], played[q] < played[x]) for q in range(n) if q != x],
                    *[z3.Implies(tied[q], shown[q] < shown[y]) for q in range(n) if q != y]))
    return z3.And(f["dk"] == code(K.GAME_OVER), z3.Or(options))


#: Paths where no ruleset's reading makes a difference: no swap gives its actor a repeated
#: role, no sixth card played, no King deck reshuffle, no void Cupbearer, no forced play of
#: banned Jesters, no card repeating a role while the player could play one that does not
#: (voluntary-whisper), no gap, no Wizard exchanging zero cards. A game found under
#: source B with these is played alike under every ruleset until its end.
AVOID_FLAGS = ("rule:king.reshuffle", "rule:role.cupbearer.void", "voluntary_whisper")


def same_everywhere(u: Unroller, i: int) -> Any:
    """Step ``i`` takes no path on which the rulesets differ (:data:`AVOID_FLAGS`, and no
    swap that ends the round)."""
    from proofs.cupbearer import swap_ends_round

    s = u.state(i)
    flags = [*AVOID_FLAGS, *(f for f in u.flag_names if f.startswith("gap:"))]
    return z3.And([z3.Not(u.flag(i, f)) for f in flags]
                  + [z3.Not(u.state(i + 1)["forced"]),  # no play forced on a hand of banned Jesters
                     z3.Not(swap_ends_round(u, i)), z3.Not(sixth_played(u, i)),
                     z3.Implies(s["dk"] == code(K.EXCHANGE_COUNT), u.label(i).a[0] >= 1)])


def void_swap_two_displays(u: Unroller, i: int) -> Any:
    """Step ``i`` plays a Cupbearer whose action is void (role.cupbearer.void) while two
    displays hold a card other than the one just played."""
    s, t = u.state(i), u.state(i + 1)
    lay = s.lay
    holding = total(ite(t.zone_size(lay.disp[q]) - ite(s["dp"] == q, 1, 0) >= 1, 1, 0) for q in range(lay.n))
    return z3.And(s["dk"] == code(K.PLAY), u.flag(i, "rule:role.cupbearer.void"), holding >= 2)


def sixth_played(u: Unroller, i: int) -> Any:
    """Step ``i`` plays its player's sixth card of the round without ending the round (so
    the card may act or not as sixth-card-action reads it)."""
    s, after = u.state(i), u.state(i + 1)
    return z3.And(s["dk"] == code(K.PLAY), after.seat_field("played", s["dp"]) == s.lay.six,
                  z3.Not(u.flag(i, "whisper")), z3.Not(u.flag(i, "six")))


#: The decision kinds of the final round of the tie-break witness. A tie-break can only
#: split A and B if a tied player X played more cards and displays fewer than another
#: tied player Y: displayed = played - take-backs (a swap keeps counts), so X took back at
#: least two cards more than Y. X's second Guard needs the first out of X's display, which
#: only a Cupbearer swap does. The round must end in a whisper by the third player, who
#: under source A's voluntary-whisper reading may repeat a role only when every card they
#: hold does: with at most five cards of a role in a three-player game that takes two
#: plays of theirs first. Hence: deal, four plays (the whisperer's two among them), X's
#: take-back, two plays (the second a Cupbearer), the swap, X's second Guard and
#: take-back, the whisper.
TIEBREAK_SKETCH = (K.DEAL, K.PLAY, K.PLAY, K.PLAY, K.PLAY, K.TAKE_BACK, K.PLAY, K.PLAY, K.SWAP, K.PLAY, K.TAKE_BACK,
                   K.PLAY)
#: The longest whisper round of the tie-break witness: its deal and three plays (a
#: whisper that every ruleset allows needs the whisperer's two earlier plays, see above).
WHISPER_ROUND = 4


def _tiebreak_finder(spec: Spec, q: Question) -> list[Action]:
    """Rounds of whispers by the first player until the others are one point short of
    the target, then a final round (guided by :data:`TIEBREAK_SKETCH`) ending in a tie
    the two tie-breaks split. Every round is a Z3 search from the engine's position."""
    ctx = context(spec, q.ruleset, q.players, "card")
    u = Unroller(ctx)
    game = ctx.game
    state = game.initial_state()
    actions: list[Action] = []

    def search(goal: Any, steps: int, side: Any, deep: bool = False, least: int = 1) -> None:
        nonlocal state
        start = abstract(ctx.lay, state)
        path = find_path(u, lambda s: z3.And(pin_state(s, start)), goal, max_steps=steps, min_steps=least, side=side,
                         deep=deep)
        if path is None:
            raise AssertionError(f"no round of at most {steps} actions found")
        state = replay(game, state, path)[-1].state
        actions.extend(path.actions)

    def whisper(u: Unroller, i: int) -> Any:
        t = u.state(i + 1)
        return z3.And(t["rk"] == WHISPER, t["rp"] == 0)

    while max(state.scores) < game.target - 1:
        search(whisper, WHISPER_ROUND, same_everywhere)

    def guided(u: Unroller, i: int) -> Any:
        sketch = u.state(i)["dk"] == code(TIEBREAK_SKETCH[i]) if i < len(TIEBREAK_SKETCH) else z3.BoolVal(False)
        return z3.And(same_everywhere(u, i), sketch)

    search(q.goal, len(TIEBREAK_SKETCH), guided, deep=True, least=len(TIEBREAK_SKETCH))
    return actions


CLAUSES = {
    "banned-jesters-only": "Clauses: A.king.jester (102-103), A.role.jester (91-92), B.role.hofnarr, B.king.",
    "cupbearer-void-two-displays": "Clauses: A.role.courtesan (83-86), B.role.mundschenk (69-72).",
    "sixth-played-not-displayed": "Clauses: A.end.noaction (62), B.turn.action (33-34), B.end.six.",
    "guard-void": "Clauses: A.role.captain (88-89), B.role.waechter (74-76).",
    "tiebreak-a-b-differ": ("Clauses: A.gameend.winner (118-119), B.gameend.winner (53-54); voluntary-whisper:\n"
                            "A.goal (17-18), A.end.whisper (54-57)."),
}


def questions() -> list[Question]:
    """The reachability questions answered by witnesses."""
    head = "Witness found by Z3 (bounded model checking from the deal) and replayed by the engine.\n"
    void_comment = (head + "A Cupbearer is played while two displays hold cards other than it, yet no swap is\n"
                    "legal, so its action is void. " + CLAUSES["cupbearer-void-two-displays"])
    return [
        Question("banned-jesters-only", "The player to act holds only banned Jesters",
                 "Can a player have to act while every card in their hand is a banned Jester?",
                 head + "The last action leaves the player to act with only Jesters while the Jester is banned:\n"
                 "source-a and the reference force the play as a whisper; source-b stops at the gap\n"
                 "banned-jester-forced. " + CLAUSES["banned-jesters-only"],
                 "reference", ("source-a", "source-b", "reference"), 3, _only_banned_goal, _banned_jesters_check,
                 max_steps=5),
        Question("cupbearer-void-two-displays", "No legal swap although two displays hold cards",
                 "Can a Cupbearer find no legal swap while two displays hold cards other than it?",
                 void_comment, "reference", ("source-a", "reference"), 3,
                 void_swap_two_displays, _cupbearer_void_check, max_steps=6,
                 stem="cupbearer-void-two-displays.any-two"),
        Question("cupbearer-void-two-displays", "No legal swap although two displays hold cards",
                 "Can a Cupbearer find no legal swap while two displays hold cards other than it?",
                 void_comment, "source-b", ("source-b",), 3,
                 void_swap_two_displays, _cupbearer_void_check, max_steps=6,
                 stem="cupbearer-void-two-displays.actor-and-one"),
        Question("sixth-played-not-displayed", "A sixth card played that is not the sixth displayed",
                 "Can a player's sixth card played this round leave their display below six cards?",
                 head + "A Guard took a card back, so the player's sixth card played is only their fifth\n"
                 "displayed: under source-b it does not act (sixth-card-action), elsewhere it does.\n"
                 + CLAUSES["sixth-played-not-displayed"],
                 "reference", ("source-a", "source-b", "reference"), 3,
                 sixth_played, _sixth_check, max_steps=10, min_steps=8, deep=True),
        Question("tiebreak-a-b-differ", "The tie-breaks of source A and source B pick different winners",
                 "Can a game end in a tie that source A's and source B's tie-breaks break differently?",
                 "Witness found by Z3 round by round from the deal, replayed by the engine under every\n"
                 "ruleset. The first player whispers until the others stand one point short of the target,\n"
                 "each time only once every card they may play repeats a role in their display (so source A's\n"
                 "voluntary-whisper reading allows it); in the last round one of the others takes two cards\n"
                 "back with two Guards (a Cupbearer swap moved the first Guard away), so they played most but\n"
                 "display fewest. Source A's tie-break (most displayed) and source B's (most played this\n"
                 "round) pick different winners.\n"
                 + CLAUSES["tiebreak-a-b-differ"],
                 "source-b", ("source-a", "source-b", "reference"), 3, _tiebreak_goal, _tiebreak_check,
                 finder=_tiebreak_finder),
    ]


def guard_void_question() -> Question:
    """The witness of guard-void: from a real deal, a Guard whose action is void
    (role.guard.void), replayed under the three rulesets of the spec."""
    return Question(
        "guard-void", "A Guard with nothing to take back",
        "Can a Guard's action be void, with no card of its player's display to take back?",
        "Witness found by Z3 (bounded model checking from the deal) and replayed by the engine.\n"
        "A Guard is played as the first card of its player's display: the only card there is the\n"
        "Guard just played, so it takes nothing back (role.guard.void). Under a ruleset that\n"
        "lets a Guard take itself back (guard-other-card: itself-too) this never happens.\n"
        + CLAUSES["guard-void"],
        "reference", ("source-a", "source-b", "reference"), 3, lambda u, i: u.flag(i, "rule:role.guard.void"),
        _guard_void_check, max_steps=3)


def _run_guard_void(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    ok, where = prove_step(spec, ruleset, (K.PLAY,), lambda ctx, k: z3.Not(ctx.flag(k, "rule:role.guard.void")))
    if ok:
        return Outcome("no-such-state", f"no play leaves a Guard nothing to take back ({where}; the Guard's "
                                        "options hold a card whenever its action is carried out)")
    out = verify(spec, guard_void_question(), ruleset, opts.out_dir if opts.search else None)
    if out.result != "witness":
        return Outcome(out.result, f"Z3 finds a play leaving a Guard nothing to take back ({where}), but "
                                   f"{out.detail}", out.files)
    return out


def _run_reserve(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, deck_reserve, name="deck-reserve", out_dir=opts.out_dir)


def _verify(spec: Spec, opts: Options, question: Question, ruleset: str) -> Outcome:
    # the stored witness, or the one --search just wrote to the output directory
    return verify(spec, question, ruleset, opts.out_dir if opts.search else None)


#: The rules each obligation shows never fire in a game from a real deal when it ends in
#: no-such-state: under a ruleset where it must end so (:func:`never_reached`) the
#: differential check may find them in no position (:mod:`proofs.coverage`) and then rests
#: on the obligation.
RULES_NEVER_REACHED: dict[str, tuple[str, ...]] = {
    "maid-empty-deck": ("role.maid.empty-deck",),
    "empty-hand": ("turn.empty-hand", "role.wizard.void", "role.maid.void"),
    "guard-void": ("role.guard.void",),
}


def never_reached(spec: Spec, ruleset: str) -> dict[str, tuple[str, ...]]:
    """The entries of :data:`RULES_NEVER_REACHED` that excuse their rules under ``ruleset``:
    those whose obligation must end in no-such-state there, as a named house ruleset's
    ``prove`` list declares it (:func:`proofs.obligation.house_prove_lists`; an obligation it
    does not list excuses nothing), else as this family states it (:func:`obligations`).

    :returns: obligation name → the rules it excuses, in :data:`RULES_NEVER_REACHED`'s order.
    """
    listed = house_prove_lists(spec)
    if ruleset in listed:
        expect = listed[ruleset]
    else:
        expect = {ob.name: ob.expect for ob in obligations(spec) if ob.ruleset == ruleset}
    return {ob: rules for ob, rules in RULES_NEVER_REACHED.items() if expect.get(ob) == "no-such-state"}


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations."""
    listed = house_prove_lists(spec)
    out = []
    for r in spec.rulesets:
        # a no-such-state answer rests on the strengthening; the witness assumes nothing
        void_needs = STRENGTHENING if listed.get(r, {}).get("guard-void") == "no-such-state" else ()
        out.append(Obligation("deck-reserve", r, "proved",
                              "inside a round the draw deck plus Maids and Guards displayed never falls below the "
                              "deck after the deal",
                              partial(_run_reserve, ruleset=r), FAMILY, ("hand-plus-display",),
                              needs=STRENGTHENING))
        out.append(Obligation("maid-empty-deck", r, "no-such-state",
                              "no Maid is played on an empty draw deck in a game from a real deal",
                              partial(_run_maid, ruleset=r), FAMILY, (), needs=STRENGTHENING))
        out.append(Obligation("empty-hand", r, "no-such-state",
                              "no game from a real deal reaches no-card-to-play or action-impossible: nobody "
                              "must play with an empty hand, no Wizard or Maid lacks cards to work with",
                              partial(_run_empty_hand, ruleset=r), FAMILY, (), needs=STRENGTHENING))
        out.append(Obligation("guard-void", r, "witness",
                              "a Guard's action can be void, no card of its player's display to take back "
                              "(role.guard.void): a witness from a real deal, or no-such-state where no play leaves a "
                              "Guard nothing to take back",
                              partial(_run_guard_void, ruleset=r), FAMILY, (), needs=void_needs))
    for q in questions():
        for r in q.rulesets:
            out.append(Obligation(q.name, r, "witness", q.question,
                                  partial(_verify, question=q, ruleset=r), FAMILY, ()))
    return out
