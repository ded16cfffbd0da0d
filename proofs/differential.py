"""The differential check: the Z3 transition against the engine.

For positions reached by random play (seeded), the set of actions the card-level Z3
transition admits, each with the position it leads to, must equal the engine's legal
actions with the positions :meth:`Game.apply` returns, compared on the encoding's
abstraction (:func:`proofs.concrete.abstract`).

How Z3 is asked: the relation of the position's decision kind is built once; for each
position its fields are substituted by their values (``Z3_substitute``) and simplified,
leaving a formula over the action's parameters. Each of the engine's legal actions is
substituted into it in turn, which simplifies to constants: whether Z3 admits the action
and the position it predicts after it. One solver check then asks for an action Z3 admits
that the engine does not list (unsatisfiable where the two agree; where it is satisfiable,
every such action is enumerated for the message). The engine does not list deals (there
are far too many), so for every deal played Z3 must admit that deal and predict the
engine's position after it.

Games are dealt without a draw-deck order, so each Maid's draw is a chance action of its
own, as the encoding models it.

Random play seldom reaches some positions where a reading decides (a hand of banned
Jesters, a tie at the end of the game), so the check also compares every position of the
stored witnesses and counterexamples in ``proofs/witnesses/`` that name the ruleset (a
house ruleset also plays those of the rulesets it derives from): they were searched for
exactly such positions; and the position of every ruling that states a result under the
ruleset (or one it derives from), which are written for edge cases
(:func:`ruling_positions`).
``python -m proofs.mutation`` shows which wrong readings the check catches (see
:mod:`proofs.mutation`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import z3
from z3.z3 import _to_expr_ref

from palast.engine import Game
from palast.engine.actions import Action, Play
from palast.engine.state import DecisionKind, State
from palast.errors import IllegalActionError, InputError
from palast.formats.house import lineage
from palast.formats.notation import parse_action
from palast.formats.scenario import load_scenario
from palast.spec.load import Spec
from proofs.concrete import Values, abstract, inexpressible, label_of
from proofs.coverage import coverage, events_of, fired, refused, rule_of_clauses
from proofs.encoding import Layout, ZState, field_names
from proofs.invariant import Context, context, make_game, player_counts
from proofs.legality import shapes
from proofs.obligation import Obligation, Options, Outcome, check, solver
from proofs.reachability import never_reached as excusing
from proofs.reachability import rules_never_reached
from proofs.search import WITNESS_DIR
from proofs.terms import as_term
from proofs.transition import Label, Transition

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
    :param ctx: the card-level proof context of the same game, whose transition terms are
        then reused instead of built anew (:func:`proofs.invariant.context`).
    """

    def __init__(self, game: Game, ctx: Context | None = None) -> None:
        self.game = game
        if ctx is not None:
            self.lay = lay = ctx.lay
            self.s = s = ctx.s
            self.label = label = ctx.label
            self._steps: dict[str, tuple[Any, ZState]] = dict(ctx.steps)
        else:
            self.lay = lay = Layout(game, "card")
            self._tr = Transition(lay)
            self.s = s = ZState.fresh(lay, "s")
            self.label = label = Label.fresh(lay, "a")
            self._steps = {}
        self.names = [n for n, _ in field_names(lay)]
        self.is_bool = [sort == "bool" for _, sort in field_names(lay)]
        sorts = [s.f[n].sort() for n in self.names]
        self._pack = z3.Function("after", z3.BoolSort(), *sorts, z3.BoolSort())
        self._all_label = [*label.a, *label.vec, *(x for row in label.deal for x in row)]
        self.packed: dict[str, Any] = {}
        self.used: dict[str, list[Any]] = {}
        self.src: dict[str, Any] = {}
        self.shapes = shapes(lay)

    def _prepare(self, kind: str) -> None:
        """Build the packed relation of ``kind`` on first use: a game seated otherwise than
        the proof contexts (a ruling's) gets its own transition, and most of its compared
        positions wait for a play, so the other kinds' steps are seldom needed."""
        if kind in self.packed:
            return
        if kind not in self._steps:
            self._steps[kind] = self._tr.step(self.s, self.label, kind)
        legal, after = self._steps[kind]
        label = self.label
        self.packed[kind] = self._pack(z3.And(legal, label.used(self.shapes[kind])), *[after.f[n] for n in self.names])
        used = label.parts(self.shapes[kind])
        used_ids = {u.get_id() for u in used}
        unused = [x for x in self._all_label if x.get_id() not in used_ids]
        src = [self.s.f[n] for n in self.names] + unused
        self.src[kind] = ((z3.Ast * len(src))(*[x.as_ast() for x in src]), len(unused))
        self.used[kind] = used

    def specialise(self, state: State) -> Any:
        """The packed legality and successor of ``state``'s decision kind with the
        position's values substituted, simplified."""
        kind = state.decision.kind
        self._prepare(kind)
        vals = abstract(self.lay, state)
        src, nunused = self.src[kind]
        dst_list = [as_term(vals[n]).as_ast() for n in self.names] + [as_term(0).as_ast()] * nunused
        dst = (z3.Ast * len(dst_list))(*dst_list)
        ctx = z3.main_ctx()
        e = self.packed[kind]
        return z3.simplify(_to_expr_ref(z3.Z3_substitute(ctx.ref(), e.as_ast(), len(dst_list), src, dst), ctx))

    def _packed_values(self, vals: Values) -> Any:
        """The term the specialised relation simplifies to after an action Z3 admits that
        leads to the position of ``vals`` (:func:`proofs.concrete.abstract`): the packing of
        true and each field's value. Z3 shares equal terms, so the successor Z3 predicts is
        that position exactly when it is this very term (``eq``), which costs no reading of
        its fields."""
        args = [as_term(True), *[as_term(vals[n]) for n in self.names]]
        arr = (z3.Ast * len(args))(*[a.as_ast() for a in args])
        ctx = z3.main_ctx()
        return _to_expr_ref(z3.Z3_mk_app(ctx.ref(), self._pack.ast, len(args), arr), ctx)

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

    def key(self, kind: str, action: Action) -> tuple[Any, ...]:
        """The label values of an engine action, in the order of the label variables its
        kind uses (:meth:`compare`, :meth:`z3_successors`)."""
        lab = label_of(self.lay, kind, action)
        shape = self.shapes[kind]
        if shape.form == "cards":
            return tuple(lab["vec"])
        if shape.form == "deal":
            return tuple(x for row in lab["deal"] for x in row)
        return tuple(lab["a"][:shape.width])

    def compare(self, state: State) -> str | None:
        """Compare Z3 and the engine in ``state``: each of the engine's legal actions is
        legal in Z3 with the same successor (its values substituted into the specialised
        relation, which simplifies to constants), and Z3 admits no other action (one
        solver check, unsatisfiable).

        :returns: None, or what differs.
        :raises Unknown: if the solver cannot decide.
        """
        kind = state.decision.kind
        packed = self.specialise(state)
        used = self.used[kind]
        engine = {self.key(kind, a): a for a in self.game.legal_actions(state)}
        refused: list[tuple[Any, ...]] = []
        differ: str | None = None
        for k, action in engine.items():
            term = z3.simplify(z3.substitute(packed, *[(x, as_term(v)) for x, v in zip(used, k, strict=True)]))
            if not z3.is_true(term.arg(0)):
                refused.append(k)
            elif differ is None:
                want = abstract(self.lay, self.game.apply(state, action).state)
                if not term.eq(self._packed_values(want)):  # read the fields only where they differ
                    got = self._values(term)
                    diff = {f: (got[f], want[f]) for f in want if got[f] != want[f]}
                    if diff:
                        differ = f"after action {k}: Z3 and engine differ on {diff}"
        sv = solver()
        sv.add(packed.arg(0), *[z3.Or([x != v for x, v in zip(used, k, strict=True)]) for k in engine])
        extra: list[tuple[Any, ...]] = []
        while check(sv):  # only where Z3 admits more than the engine
            m = sv.model()
            vals = [m.eval(x, model_completion=True) for x in used]
            extra.append(tuple(v.as_long() for v in vals))
            sv.add(z3.Or([x != v for x, v in zip(used, vals, strict=True)]))
        if extra or refused:
            return f"Z3 admits {sorted(extra)[:3]} the engine does not; the engine {sorted(refused)[:3]} Z3 does not"
        return differ

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


#: Positions played per position compared.
POOL = 6
#: Positions chosen first for each rule id and event kind the pool fires (the rarest first),
#: so that every rule and event random play reaches is compared at least this often.
COVER = 3


def _features(game: Game, state: State, deal: Action | None,
              rule_of: Mapping[tuple[str, ...], str]) -> frozenset[str]:
    """:func:`proofs.coverage.fired` and the event kinds (``event:KIND``) of the position's
    actions."""
    events = events_of(game, state, deal)
    return (frozenset(r for r, _ in events) | frozenset(f"event:{k}" for _, k in events)
            | refused(game, state, rule_of))


def _careful_play(game: Game, state: State, acts: list[Action], rng: random.Random) -> Action:
    """A play that does not repeat a role of the actor's display where there is one (so
    displays grow to six different roles), otherwise any; other decisions at random."""
    if state.decision.kind == K.PLAY:
        shown = {game.cards.role_of(c) for c in state.displays[state.decision.player]}
        fresh = [a for a in acts if isinstance(a, Play) and game.cards.role_of(a.card) not in shown]
        if fresh:
            return fresh[rng.randrange(len(fresh))]
    return acts[rng.randrange(len(acts))]


def _uniform(game: Game, state: State, acts: list[Action], rng: random.Random) -> Action:
    return acts[rng.randrange(len(acts))]


def random_positions(game: Game, count: int, rng: random.Random) -> list[tuple[State, Action | None]]:
    """``count`` positions of random complete games (chance by its probabilities), each
    with the deal played there (for deal decisions) or None.

    :data:`POOL` times as many positions are played, in games that alternate uniformly
    random play with careful play (:func:`_careful_play`: no role repeated where avoidable,
    so players complete six different roles, Guards take back and Cupbearers swap in full
    displays). From the pool, for every rule id and event kind its positions fire (rarest
    first), up to :data:`COVER` positions firing it are chosen; the rest are drawn
    uniformly (when ``count`` is too small for all the covering ones, the rarest come first).
    """
    pool: list[tuple[State, Action | None]] = []
    policies = (_uniform, _careful_play, _careful_play)
    games = 0
    while len(pool) < POOL * count:
        policy = policies[games % len(policies)]
        games += 1
        state = game.initial_state()
        while not state.is_terminal:
            d = state.decision
            if d.kind == K.DEAL:
                action = game.sample_chance(state, rng, deck_order=False)
                pool.append((state, action))
            else:
                pool.append((state, None))
                if d.is_chance:
                    action = game.sample_chance(state, rng)
                else:
                    action = policy(game, state, game.legal_actions(state), rng)
            state = game.apply(state, action).state
    rule_of = rule_of_clauses(game.spec)
    features = [_features(game, st, deal, rule_of) for st, deal in pool]
    by_feature: dict[str, list[int]] = {}
    for i, fs in enumerate(features):
        for f in fs:
            by_feature.setdefault(f, []).append(i)
    chosen: set[int] = set()
    for f in sorted(by_feature, key=lambda f: (len(by_feature[f]), f)):
        have = sum(1 for i in by_feature[f] if i in chosen)
        rest = [i for i in by_feature[f] if i not in chosen]
        chosen |= set(rng.sample(rest, max(0, min(len(rest), COVER - have, count - len(chosen)))))
    rest = [i for i in range(len(pool)) if i not in chosen]
    chosen |= set(rng.sample(rest, count - len(chosen)))
    return [pool[i] for i in sorted(chosen)]


def stored_positions(spec: Spec, ruleset: str, folder: Path = WITNESS_DIR) -> list[tuple[Game, State, Action | None]]:
    """Every position of the stored scenarios in ``folder`` that name ``ruleset`` or a
    ruleset it is derived from (:func:`palast.spec.house_rulesets.lineage`: a house ruleset's own
    readings may take the scenario elsewhere, so it is played under ``ruleset``), up to
    their end or their first action the engine rejects (the witness's own obligation
    reports that), each with its game and, at a deal, the deal played there."""
    derived_from = set(lineage(spec, ruleset))
    out: list[tuple[Game, State, Action | None]] = []
    for path in sorted(folder.glob("*.yaml")):
        sc = load_scenario(path, spec)
        if not derived_from & set(sc.rulesets):
            continue
        game = sc.game(spec, ruleset)
        state = sc.start(game)
        for text, _ in sc.actions:
            try:
                action = parse_action(game, text)
                nxt = game.apply(state, action).state
            except (InputError, IllegalActionError):
                break
            out.append((game, state, action if state.decision.kind == K.DEAL else None))
            state = nxt
        if not state.is_terminal and state.decision.kind != K.DEAL:  # no deal to compare at the end
            out.append((game, state, None))
    return out


def ruling_positions(spec: Spec, ruleset: str) -> list[tuple[Game, State, Action | None]]:
    """The position of every ruling (``spec/rulings/``) that states a result under
    ``ruleset`` or a ruleset it is derived from (:func:`palast.spec.house_rulesets.lineage`),
    played under ``ruleset``: rulings are written for the edge cases random play seldom
    reaches (a Maid on an empty draw deck, a Wizard with an empty hand), many of them
    constructed. A position at a deal, or one that has ended, is left out (the engine
    lists no deals there to compare), and so is one the encoding cannot express
    (:func:`proofs.concrete.inexpressible`: cards left unplaced, as a ruling about an
    empty draw deck may leave them) or whose draw deck or King deck lies in a known order
    (the encoding keeps a deck without order, so a draw or a reveal there is chance in
    Z3 and known to the engine)."""
    from palast.query.ruling_files import load_rulings

    derived_from = set(lineage(spec, ruleset))
    out: list[tuple[Game, State, Action | None]] = []
    for ruling in load_rulings(spec):
        if not derived_from & set(ruling.rulesets):
            continue
        sc = ruling.scenario
        game = sc.game(spec, ruleset)
        try:
            state, _ = sc.position(game)
        except (InputError, IllegalActionError):
            continue  # the ruling's own check reports it
        ordered = state.deck or state.deck_bottom or state.king_deck
        if not state.is_terminal and state.decision.kind != K.DEAL and inexpressible(state) is None \
                and not ordered:
            out.append((game, state, None))
    return out


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
    for game, state, deal in ruling_positions(spec, ruleset):
        yield "a ruling", game, state, deal


def own_encoding(spec: Spec) -> Callable[[Game], Differ]:
    """The encoder :func:`compare_all` uses by default: each game's own encoding, reusing
    the card-level proof context where the game is the spec's game of its player count."""
    def encode(game: Game) -> Differ:
        n = game.n
        if tuple(game.colour_name(p) for p in range(n)) == tuple(spec.player_colours[:n]):
            return Differ(game, context(spec, game.ruleset, n, "card"))
        return Differ(game)
    return encode


def compare_all(spec: Spec, items: Iterable[Position], encode: Callable[[Game], Differ] | None = None,
                never_reached: Mapping[str, tuple[str, ...]] | None = None) -> Outcome:
    """Compare Z3 and the engine at every position of ``items`` and count the rules that
    fire there (:mod:`proofs.coverage`).

    :param encode: builds the Z3 side for a game (one per seating); by default the game's
        own encoding (:func:`own_encoding`; :mod:`proofs.mutation` passes encodings with a
        wrong reading).
    :param never_reached: obligation → rules it shows never fire (they may fire nowhere);
        by default those that must end in no-such-state under the positions' ruleset
        (:func:`proofs.reachability.never_reached`; none when the positions mix rulesets).
    :returns: ``proved`` when all agree and every rule fires somewhere (or is excused),
        ``counterexample`` with the first disagreement, ``unknown`` naming the rules that
        fire in no compared position; the outcome carries the coverage per rule and the
        excuses used (rule, obligation). When every rule firing nowhere is one an
        obligation of :func:`~proofs.reachability.rules_never_reached` could show never
        reached, the ``unknown`` carries those as ``pending`` excuses, which the runner
        settles by that obligation's result in the same run (:func:`proofs.runner.settle`).
    """
    encode = encode or own_encoding(spec)
    compared = played = ruled = successors = deals = 0
    differs: dict[tuple[str, ...], Differ] = {}
    rule_of = rule_of_clauses(spec)
    fired_sets: list[frozenset[str]] = []
    rulesets: set[str] = set()
    for where, game, state, deal in items:
        rulesets.add(game.ruleset)
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
        fired_sets.append(fired(game, state, deal, rule_of))
        compared += 1
        played += where == "random play"
        ruled += where == "a ruling"
        if problem:
            return Outcome("counterexample", f"{where}, {game.n} players, {state.decision.kind} decision in "
                                             f"round {state.round}: {problem}")
    from palast.lang.blocks import withdrawn
    only = next(iter(rulesets)) if len(rulesets) == 1 else None
    gone = withdrawn(game.spec, only) if only is not None else {}
    if never_reached is None:
        never_reached = excusing(spec, only) if only is not None else {}
    cov = coverage(spec, fired_sets, never_reached, gone)
    agree = (f"{played} positions of random play, {compared - played - ruled} of stored witnesses and {ruled} of "
             f"rulings ({deals} deals), {successors} successors agree")
    if cov.missing:
        said = (f"{agree}, but {', '.join(cov.missing)} fire(s) in none of them, so the check says nothing about "
                f"them; {cov.line()}")
        asked = rules_never_reached(spec)
        could = {r: ob for ob, rules in asked.items() for r in rules}
        if only is None or any(r not in could for r in cov.missing):
            return Outcome("unknown", said, coverage=cov.counts, excused=cov.excused)
        pending = tuple((r, could[r]) for r in cov.missing)
        settled = coverage(spec, fired_sets, {**never_reached, **{ob: asked[ob] for _, ob in pending}},
                           gone)
        return Outcome("unknown", said, coverage=cov.counts, excused=cov.excused, pending=pending,
                       settled=f"{agree}; {settled.line()}")
    return Outcome("proved", f"{agree}; {cov.line()}", coverage=cov.counts, excused=cov.excused)


def run(spec: Spec, ruleset: str, states: int = STATES_PER_RULESET, seed: int = PLAY_SEED) -> Outcome:
    """The differential check of ``ruleset`` at its :func:`positions` (:func:`compare_all`)."""
    return compare_all(spec, positions(spec, ruleset, states, seed))


def _run(spec: Spec, opts: Options, ruleset: str) -> Outcome:
    return run(spec, ruleset)


def obligations(spec: Spec) -> list[Obligation]:
    """One differential check per ruleset, resting on the obligations that excuse a rule
    firing nowhere under it (:func:`proofs.reachability.never_reached`)."""
    return [Obligation("differential", r, "proved",
                       f"at {STATES_PER_RULESET} positions of random play, chosen so that every rule fires in some, "
                       "and every position of the stored witnesses and of the rulings the Z3 transition admits "
                       "exactly the engine's legal actions, with the same results",
                       partial(_run, ruleset=r), FAMILY, (), needs=tuple(excusing(spec, r)), cost=20.0)
            for r in spec.rulesets]
