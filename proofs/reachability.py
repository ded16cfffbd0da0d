"""Reachability questions: witnesses from real deals, or proofs that no such position exists.

* the questions of ``reachability`` in ``spec/invariants.yaml`` (maid-empty-deck,
  empty-hand, guard-void): does any of the rules a question names ever fire? Z3 is asked
  whether an action of any kind, from a position satisfying the strengthening, makes one
  of them fire (its ``rule:RULE`` flag, :mod:`proofs.statements_z3`); if none can, the answer
  is no-such-state, and the rules never fire in a game from a real deal. Otherwise a
  question that declares a witness has it checked (:func:`reach_question`: a stored game
  whose last action fires one of the rules, replayed by the engine); one that expects
  no-such-state fails, naming the action kind and player count. A named house ruleset's
  ``prove`` list may expect another answer (house-guard: no Guard is void).
* **deck-reserve** — the lemma that maid-empty-deck rests on, proved by induction: inside a
  round, the draw deck plus the Maids and Guards displayed (minus a pending take-back, plus
  a pending Maid draw) is at least the draw deck right after a deal (:func:`deck_reserve`).
* **banned-jesters-only**, **cupbearer-void-two-displays**, **sixth-played-not-displayed**,
  **tiebreak-a-b-differ** — witnesses (:mod:`proofs.witness`).

:func:`never_reached` names the reachability questions that excuse their rules under a
ruleset, where the differential check's coverage (:mod:`proofs.coverage`) rests on them.
Clauses: those of each reachability question (spec/invariants.yaml), and A.king.jester,
A.role.courtesan, B.role.mundschenk, A.end.noaction, B.turn.action, A.gameend.winner,
B.gameend.winner, A.goal, A.end.whisper for the witness questions.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
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
    player_counts,
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


def _never_fires(spec: Spec, ruleset: str, rules: tuple[str, ...]) -> tuple[bool, str]:
    """Whether no action of any kind, from a position satisfying the strengthening, makes
    one of ``rules`` fire (:func:`proofs.invariant.prove_step`, every player count).

    :returns: ``(True, the player counts)`` or ``(False, where one fires)``.
    """
    return prove_step(spec, ruleset, ACTION_KINDS,
                      lambda ctx, k: z3.And([z3.Not(ctx.flag(k, f"rule:{rule}")) for rule in rules]))


def unmarked(spec: Spec, ruleset: str, rules: tuple[str, ...]) -> list[str]:
    """The rules of ``rules`` that no action of the role-level model marks with a
    ``rule:RULE`` flag under ``ruleset`` (at any player count): the model carries out their
    effects without a path of their own (a round end, the game's end), so whether they fire
    is not a question it can answer, and asking it would find them never firing."""
    marked: set[str] = set()
    for n in player_counts(spec):
        ctx = context(spec, ruleset, n, "role")
        for kind in ACTION_KINDS:
            marked.update(ctx.rel[kind][1].flags)
    return [r for r in rules if f"rule:{r}" not in marked]


def _run_reachability(spec: Spec, opts: Options, ruleset: str, question: str) -> Outcome:
    r = spec.reachability[question]
    rules = ", ".join(r.fires)
    blind = unmarked(spec, ruleset, r.fires)
    if blind:
        return Outcome("error", f"the model marks no path of {', '.join(blind)} (it carries such rules out without a "
                                "flag of their own), so it cannot tell whether they fire: ask about rules it marks")
    never, where = _never_fires(spec, ruleset, r.fires)
    if never:
        return Outcome("no-such-state", f"no action from a position satisfying the strengthening makes {rules} "
                                        f"fire ({where})")
    if r.witness is None:
        return Outcome("unknown", f"an action from a position satisfying the strengthening makes {rules} fire "
                                  f"({where}); that need not be a position of real play, and no game was searched")
    out = verify(spec, reach_question(spec, question), ruleset, opts.out_dir if opts.search else None)
    if out.result != "witness":
        return Outcome(out.result, f"Z3 finds an action making {rules} fire ({where}), but {out.detail}", out.files)
    return out


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


def _fires_check(rules: tuple[str, ...]) -> Callable[[Game, list[Step]], str | None]:
    """The engine's check of a reachability witness: its last action fires one of ``rules``
    (an event of the last step names it)."""
    def check(game: Game, steps: list[Step]) -> str | None:
        if any(e.rule in rules for e in steps[-1].events):
            return None
        return f"its last action fires none of {', '.join(rules)}"
    return check


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


def reach_question(spec: Spec, question: str) -> Question:
    """The witness question of the reachability question ``question`` (one that declares a
    ``witness`` in spec/invariants.yaml): from a real deal, an action that makes one of its
    rules fire, replayed by the engine under every ruleset of the spec.

    :raises KeyError: when the spec has no such question; ``ValueError`` when it declares no
        witness.
    """
    r = spec.reachability[question]
    w = r.witness
    if w is None:
        raise ValueError(f"the reachability question {question} declares no witness")
    comment = "\n".join(textwrap.wrap(
        "Witness found by Z3 (bounded model checking from the deal) and replayed by the engine. "
        f"{r.statement} Clauses: {spec.cite(r.clauses)}."))
    rules = r.fires
    return Question(r.id, w.title, r.question, comment, w.ruleset, tuple(spec.rulesets), w.players,
                    lambda u, i: z3.Or([u.flag(i, f"rule:{rule}") for rule in rules]), _fires_check(rules),
                    max_steps=w.max_steps)


def _run_reserve(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return prove_invariant(spec, ruleset, deck_reserve, name="deck-reserve", out_dir=opts.out_dir)


def _verify(spec: Spec, opts: Options, question: Question, ruleset: str) -> Outcome:
    # the stored witness, or the one --search just wrote to the output directory
    return verify(spec, question, ruleset, opts.out_dir if opts.search else None)


def rules_never_reached(spec: Spec) -> dict[str, tuple[str, ...]]:
    """Every reachability question of spec/invariants.yaml -> the rules it asks about: the
    ones it shows never fire where its obligation ends in no-such-state."""
    return {r.id: r.fires for r in spec.reachability.values()}


def never_reached(spec: Spec, ruleset: str) -> dict[str, tuple[str, ...]]:
    """The reachability questions (spec/invariants.yaml) that excuse their rules under
    ``ruleset``: those whose obligation must end in no-such-state there, as a named house
    ruleset's ``prove`` list declares it (:func:`proofs.obligation.house_prove_lists`; an
    obligation it does not list excuses nothing), else as the question expects. The
    differential check's coverage (:mod:`proofs.coverage`) rests on them for rules that fire
    in none of its positions.

    :returns: question id → the rules it shows never fire, in the spec's order.
    """
    listed = house_prove_lists(spec)
    out = {}
    for r in spec.reachability.values():
        expect = listed[ruleset].get(r.id) if ruleset in listed else r.expect
        if expect == "no-such-state":
            out[r.id] = r.fires
    return out


def obligations(spec: Spec) -> list[Obligation]:
    """This family's obligations."""
    listed = house_prove_lists(spec)
    out = []
    for r in spec.rulesets:
        out.append(Obligation("deck-reserve", r, "proved",
                              "inside a round the draw deck plus Maids and Guards displayed never falls below the "
                              "deck after the deal",
                              partial(_run_reserve, ruleset=r), FAMILY, ("hand-plus-display",),
                              needs=STRENGTHENING))
        for rq in spec.reachability.values():
            # a no-such-state answer rests on the strengthening; a witness assumes nothing
            expect = listed.get(r, {}).get(rq.id, rq.expect)
            out.append(Obligation(rq.id, r, rq.expect, rq.question,
                                  partial(_run_reachability, ruleset=r, question=rq.id), FAMILY, (),
                                  needs=STRENGTHENING if expect == "no-such-state" else ()))
    for q in questions():
        for r in q.rulesets:
            out.append(Obligation(q.name, r, "witness", q.question,
                                  partial(_verify, question=q, ruleset=r), FAMILY, ()))
    return out
