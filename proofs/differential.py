"""The differential check: the Z3 transition against the engine.

For positions reached by random play (seeded), the set of actions the card-level Z3
transition admits, each with the position it leads to, must equal the engine's legal
actions with the positions :meth:`Game.apply` returns, compared on the encoding's
abstraction (:func:`proofs.concrete.abstract`).

How Z3 is asked: the relation of the position's decision kind is built once; for each
position its fields are substituted by their values (``Z3_substitute``) and simplified,
leaving a formula over the action's parameters. A solver enumerates every model of the
legality part (blocking each action found); for each, Z3's model evaluation of the
successor's fields gives the position Z3 predicts. The engine does not list deals (there
are far too many), so for every deal played Z3 must admit that deal and predict the
engine's position after it.

Games are dealt without a draw-deck order, so each Maid's draw is a chance action of its
own, as the encoding models it.

Random play seldom reaches some positions where a reading decides (a hand of banned
Jesters, a tie at the end of the game), so the check also compares every position of the
stored witnesses and counterexamples in ``proofs/witnesses/`` that name the ruleset: they
were searched for exactly such positions. ``python -m proofs.mutation`` shows which wrong
readings the check catches (see :mod:`proofs.mutation`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import z3
from z3.z3 import _to_expr_ref

from palast.engine import Game
from palast.engine.actions import Action
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, InputError
from palast.notation import parse_action
from palast.scenario import load_scenario
from palast.spec import Spec
from proofs.concrete import Values, abstract, label_of
from proofs.encoding import Layout, ZState, _ast, field_names
from proofs.invariant import make_game, player_counts
from proofs.obligation import Obligation, Options, Outcome, check, solver
from proofs.search import WITNESS_DIR
from proofs.transition import ACTION_KINDS, Label, Transition

K = DecisionKind
FAMILY = "differential"
#: Positions compared per ruleset (spread over the player counts).
STATES_PER_RULESET = 510
#: Seed of the random play.
PLAY_SEED = 5
_TOKEN = re.compile(r"\(- (\d+)\)|([A-Za-z0-9_.]+)")


@dataclass
class Mismatch:
    """A position where Z3 and the engine disagree."""

    ruleset: str
    players: int
    decision: str
    detail: str


class Differ:
    """The card-level relation of one game, ready to be specialised to positions.

    :param game: the game.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.lay = lay = Layout(game, "card")
        tr = Transition(lay)
        self.s = s = ZState.fresh(lay, "s")
        self.label = label = Label.fresh(lay, "a")
        self.names = [n for n, _ in field_names(lay)]
        self.is_bool = [sort == "bool" for _, sort in field_names(lay)]
        sorts = [s.f[n].sort() for n in self.names]
        pack = z3.Function("after", z3.BoolSort(), *sorts, z3.BoolSort())
        all_label = [*label.a, *label.vec, *(x for row in label.deal for x in row)]
        self.packed: dict[DecisionKind, Any] = {}
        self.used: dict[DecisionKind, list[Any]] = {}
        self.src: dict[DecisionKind, Any] = {}
        for kind in ACTION_KINDS:
            legal, after = tr.step(s, label, kind)
            self.packed[kind] = pack(z3.And(legal, label.used(kind)), *[after.f[n] for n in self.names])
            used = self._used(kind)
            unused = [x for x in all_label if not any(x.eq(u) for u in used)]
            src = [s.f[n] for n in self.names] + unused
            self.src[kind] = ((z3.Ast * len(src))(*[x.as_ast() for x in src]), len(unused))
            self.used[kind] = used

    def _used(self, kind: DecisionKind) -> list[Any]:
        lab = self.label
        if kind is K.SWAP:
            return list(lab.a)
        if kind in (K.EXCHANGE_GIVE, K.EXCHANGE_ANSWER):
            return list(lab.vec)
        if kind is K.DEAL:
            return [x for row in lab.deal for x in row]
        return [lab.a[0]]

    def specialise(self, state: State) -> Any:
        """The packed legality and successor of ``state``'s decision kind with the
        position's values substituted, simplified."""
        kind = state.decision.kind
        vals = abstract(self.lay, state)
        src, nunused = self.src[kind]
        dst_list = [_ast(vals[n]).as_ast() for n in self.names] + [_ast(0).as_ast()] * nunused
        dst = (z3.Ast * len(dst_list))(*dst_list)
        ctx = z3.main_ctx()
        e = self.packed[kind]
        return z3.simplify(_to_expr_ref(z3.Z3_substitute(ctx.ref(), e.as_ast(), len(dst_list), src, dst), ctx))

    def _values(self, term: Any) -> Values:
        toks = ["-" + a if a else b for a, b in _TOKEN.findall(term.sexpr())]
        if toks[:2] != ["after", "true"]:
            raise AssertionError(f"Z3 gave an illegal successor: {toks[:3]}")
        return {n: (toks[i + 2] == "true") if self.is_bool[i] else int(toks[i + 2]) for i, n in enumerate(self.names)}

    def z3_successors(self, state: State) -> dict[tuple[Any, ...], Values]:
        """Every action Z3 admits in ``state`` (as label values) and its successor.

        :raises Unknown: if the solver cannot decide.
        """
        kind = state.decision.kind
        packed = self.specialise(state)
        sv = solver()
        sv.add(packed.arg(0))
        used = self.used[kind]
        out: dict[tuple[Any, ...], Values] = {}
        while check(sv):
            m = sv.model()
            vals = [m.eval(x, model_completion=True) for x in used]
            sv.add(z3.Or([x != v for x, v in zip(used, vals, strict=True)]))
            out[tuple(v.as_long() for v in vals)] = self._values(m.eval(packed))
        return out

    def key(self, kind: DecisionKind, action: Action) -> tuple[Any, ...]:
        """The label values of an engine action, in the order :meth:`z3_successors` uses."""
        lab = label_of(self.lay, kind, action)
        if kind is K.SWAP:
            return tuple(lab["a"])
        if kind in (K.EXCHANGE_GIVE, K.EXCHANGE_ANSWER):
            return tuple(lab["vec"])
        if kind is K.DEAL:
            return tuple(x for row in lab["deal"] for x in row)
        return (lab["a"][0],)

    def compare(self, state: State) -> str | None:
        """Compare Z3 and the engine in ``state``; :returns: None or what differs."""
        kind = state.decision.kind
        engine = {self.key(kind, a): abstract(self.lay, self.game.apply(state, a).state)
                  for a in self.game.legal_actions(state)}
        mine = self.z3_successors(state)
        if set(engine) != set(mine):
            return (f"Z3 admits {sorted(set(mine) - set(engine))[:3]} the engine does not; the engine "
                    f"{sorted(set(engine) - set(mine))[:3]} Z3 does not")
        for k, v in engine.items():
            diff = {f: (mine[k][f], v[f]) for f in v if mine[k][f] != v[f]}
            if diff:
                return f"after action {k}: Z3 and engine differ on {diff}"
        return None

    def compare_deal(self, state: State, action: Action) -> str | None:
        """Check that Z3 admits the deal ``action`` and predicts the engine's position."""
        packed = self.specialise(state)
        key = self.key(K.DEAL, action)
        pairs = [(x, z3.IntVal(v)) for x, v in zip(self.used[K.DEAL], key, strict=True)]
        term = z3.simplify(z3.substitute(packed, *pairs))
        if not z3.is_true(term.arg(0)):
            return "Z3 does not admit the deal"
        got = self._values(term)
        want = abstract(self.lay, self.game.apply(state, action).state)
        diff = {f: (got[f], want[f]) for f in want if got[f] != want[f]}
        return f"after the deal Z3 and engine differ on {diff}" if diff else None


#: Events that mark a position as rare in random play; up to a third of the positions
#: compared are chosen among those where some legal action causes one.
RARE_EVENTS = frozenset({"game_ended", "target_reached", "king_deck_reshuffled", "action_skipped", "rule_gap",
                         "no_card_drawn", "round_ended", "cards_swapped"})
#: Positions played per position compared.
POOL = 4


def random_positions(game: Game, count: int, rng: random.Random) -> list[tuple[State, Action | None]]:
    """``count`` positions of uniformly random complete games (chance by its
    probabilities), each with the deal played there (for deal decisions) or None.

    :data:`POOL` times as many positions are played; up to a third of those returned are
    rare ones (:data:`RARE_EVENTS`: game ends, King deck reshuffles, ...), the rest are
    drawn uniformly, so short random games still exercise the end of the game.
    """
    pool: list[tuple[State, Action | None]] = []
    while len(pool) < POOL * count:
        state = game.initial_state()
        while not state.is_terminal:
            d = state.decision
            if d.kind is K.DEAL:
                action = game.sample_chance(state, rng, deck_order=False)
                pool.append((state, action))
            else:
                pool.append((state, None))
                if d.is_chance:
                    action = game.sample_chance(state, rng)
                else:
                    acts = game.legal_actions(state)
                    action = acts[rng.randrange(len(acts))]
            state = game.apply(state, action).state
    rare = [i for i, (s, deal) in enumerate(pool) if deal is None and _rare(game, s)]
    chosen = set(rng.sample(rare, min(len(rare), count // 3)))
    rest = [i for i in range(len(pool)) if i not in chosen]
    chosen |= set(rng.sample(rest, count - len(chosen)))
    return [pool[i] for i in sorted(chosen)]


def stored_positions(spec: Spec, ruleset: str, folder: Path = WITNESS_DIR) -> list[tuple[Game, State, Action | None]]:
    """Every position of the stored scenarios in ``folder`` that name ``ruleset``, up to
    their end or their first action the engine rejects (the witness's own obligation
    reports that), each with its game and, at a deal, the deal played there."""
    out: list[tuple[Game, State, Action | None]] = []
    for path in sorted(folder.glob("*.yaml")):
        sc = load_scenario(path, spec)
        if ruleset not in sc.rulesets:
            continue
        game = sc.game(spec, ruleset)
        state = sc.start(game)
        for text, _ in sc.actions:
            try:
                action = parse_action(game, text)
                nxt = game.apply(state, action).state
            except (InputError, IllegalActionError):
                break
            out.append((game, state, action if state.decision.kind is K.DEAL else None))
            state = nxt
        if not state.is_terminal and state.decision.kind is not K.DEAL:  # no deal to compare at the end
            out.append((game, state, None))
    return out


def _rare(game: Game, state: State) -> bool:
    return any(e.kind in RARE_EVENTS for a in game.legal_actions(state) for e in game.apply(state, a).events)


#: A position to compare: where it comes from ("random play" or "a stored witness"), its
#: game, the position, and at a deal the deal played there.
Position = tuple[str, Game, State, "Action | None"]


def positions(spec: Spec, ruleset: str, states: int = STATES_PER_RULESET, seed: int = PLAY_SEED) -> Iterator[Position]:
    """The positions the differential check compares under ``ruleset``: ``states``
    positions of random play spread over the player counts (:func:`random_positions`),
    then every position of the stored witnesses (:func:`stored_positions`)."""
    counts = player_counts(spec)
    for i, n in enumerate(counts):
        share = states // len(counts) + (1 if i < states % len(counts) else 0)
        game = make_game(spec, ruleset, n)
        for state, deal in random_positions(game, share, random.Random(seed * 100 + n)):
            yield "random play", game, state, deal
    for game, state, deal in stored_positions(spec, ruleset):
        yield "a stored witness", game, state, deal


def compare_all(spec: Spec, items: Iterable[Position], encode: Callable[[Game], Differ] = Differ) -> Outcome:
    """Compare Z3 and the engine at every position of ``items``.

    :param encode: builds the Z3 side for a game (one per seating); by default the game's
        own encoding (:mod:`proofs.mutation` passes encodings with a wrong reading).
    :returns: ``proved`` when all agree, else ``counterexample`` with the first disagreement.
    """
    compared = played = successors = deals = 0
    differs: dict[tuple[str, ...], Differ] = {}
    for where, game, state, deal in items:
        seats = tuple(game.colour_name(p) for p in range(game.n))
        if seats not in differs:
            differs[seats] = encode(game)
        differ = differs[seats]
        if deal is not None:
            problem = differ.compare_deal(state, deal)
            deals += 1
        else:
            problem = differ.compare(state)
            successors += len(game.legal_actions(state))
        compared += 1
        played += where == "random play"
        if problem:
            return Outcome("counterexample", f"{where}, {game.n} players, {state.decision.kind.value} decision in "
                                             f"round {state.round}: {problem}")
    return Outcome("proved", f"{played} positions of random play and {compared - played} of stored witnesses "
                             f"({deals} deals), {successors} successors agree")


def run(spec: Spec, ruleset: str, states: int = STATES_PER_RULESET, seed: int = PLAY_SEED) -> Outcome:
    """The differential check of ``ruleset`` at its :func:`positions`; :returns: ``proved``
    when all agree, else ``counterexample`` with the first disagreement."""
    return compare_all(spec, positions(spec, ruleset, states, seed))


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return run(spec, ruleset)


def obligations(spec: Spec) -> list[Obligation]:
    """One differential check per ruleset."""
    return [Obligation("differential", r, "proved",
                       f"at {STATES_PER_RULESET} positions of random play and every position of the stored "
                       "witnesses the Z3 transition admits exactly the engine's legal actions, with the same results",
                       partial(_run, ruleset=r), FAMILY, (), cost=20.0)
            for r in spec.rulesets]
