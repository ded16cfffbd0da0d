"""The engine's interpreter of the rules' statements (``do:`` blocks, :mod:`palast.lang.blocks`).

A :class:`Runner` compiles, for one game, every expression of the do-style rules to a
Python function of the working copy ``D`` and the names in scope ``E`` (a dict), and each
rule's statements to closures in continuation-passing style: a statement does its work and
calls the next. Waiting for a decision ends the chain of calls; the decision records where
play resumes (``Decision.rule``: the statement, in the rules applied; ``Decision.frames``:
where play goes on after each step the statement is inside), so :meth:`Runner.resume`
restores the names and carries on from there. Which rules apply (a step's rules, their
exceptions and the readings the ruleset takes) is worked out by :meth:`Runner.select`.

Nothing here names a rule, a role, a reading or a card count: those are all in ``spec/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from palast.engine.actions import Deal, action_for, action_value
from palast.engine.draft import Draft, insert_sorted, remove_one
from palast.engine.events import Event
from palast.engine.state import Decision, DecisionKind
from palast.errors import IllegalActionError
from palast.lang.blocks import DoRule, Program, each_of, infer_or_any, program
from palast.lang.compiler import Compiler
from palast.lang.primitives import ELEMENT, PRIMITIVES
from palast.lang.statements import Stmt, Zone, expressions, placeholders, walk
from palast.lang.syntax import Each, Node, each_conditions, each_parts, names, parse

if TYPE_CHECKING:
    from palast.engine.core import GameCore

#: A compiled statement list: ``(draft, names, variation points consulted)``.
Cont = Callable[[Draft, dict[str, Any], tuple[str, ...]], None]
#: The separator of the rules of a chain in a key, and of a rule and the readings it took.
CHAIN, TOOK = "+", ":"


class Chain:
    """The rules applied at a step, the rule first, then each exception that applied, each
    with the readings it took (one per readings block), and its key (a string such as
    ``turn.play+king.jester``, stable across games of one spec)."""

    __slots__ = ("key", "links")

    def __init__(self, links: tuple[tuple[DoRule, tuple[str, ...]], ...]) -> None:
        self.links = links
        self.key = CHAIN.join(r.rule + (TOOK + ",".join(took) if took else "") for r, took in links)


@dataclass
class Applied:
    """What :meth:`Runner.select` found: the chain, the names it gives and the variation
    points whose readings it consulted."""

    chain: Chain
    env: dict[str, Any]
    points: tuple[str, ...]


@dataclass(frozen=True)
class Gap:
    """Play stops: ``point`` is open under the ruleset, met while applying ``rule``."""

    point: str
    rule: str


@dataclass
class Resume:
    """Where play resumes at a decision a statement opened.

    :ivar kind: the decision.
    :ivar rule: the rule whose declaration holds the statement (refusals cite it).
    :ivar chain: the rules applied.
    :ivar restore: names the decision keeps, with the decision's field holding each.
    :ivar options: the options, as a function of the position and the names (a choose).
    :ivar deck: for a draw, the deck (``draw_deck``, ``king_deck``); for a deal, ``"deal"``.
    :ivar bind: the names the chosen value is given (``as``, then the parts of ``each``).
    :ivar cont: what follows the statement.
    :ivar refuse: why an action that is not an option is refused.
    :ivar place: for a draw, where the card drawn goes.
    :ivar seat: for a draw, the player of that place.
    """

    kind: DecisionKind
    rule: str
    chain: Chain
    restore: tuple[tuple[str, str], ...]
    options: Callable[[Draft, dict[str, Any]], Any] | None
    deck: str | None
    bind: tuple[str, ...]
    cont: Cont
    refuse: str
    place: Zone | None = None
    seat: Callable[[Draft, dict[str, Any]], Any] | None = None
    #: the options' ``each`` expression, if they are built from parts (its reasons explain a refusal)
    each: Node | None = None
    #: the name the options are, when they are a rule's named value (its rules explain a refusal)
    option_name: str = ""


class Runner:
    """The do-style rules of one game, compiled.

    :param game: the game (its constants, parameters, clause lookup, events).
    :param parameter_of: variation point id -> the name of its entry in ``game.params``.
    """

    def __init__(self, game: GameCore, parameter_of: Mapping[str, str]) -> None:
        self.game = game
        self.prog: Program = program(game.spec)
        self.parameter_of = dict(parameter_of)
        self.roles = {r: i for i, r in enumerate(game.spec.roles)}
        self._role_kinds = dict.fromkeys(game.spec.roles, "role")
        self._nr = len(self.roles)
        self._fn: dict[int, Callable[[Draft, dict[str, Any]], Any]] = {}
        self._compile_expressions()
        #: continuation key -> where play goes on (after a step, at a junction)
        self.conts: dict[str, Cont] = {}
        #: decision key -> how play resumes there
        self.resumes: dict[str, Resume] = {}
        self._compiled: set[str] = set()
        #: decision -> the step whose statements wait for it
        self._waits: dict[str, str] = {}
        for r in self.prog.rules.values():
            blocks = [r.do or (), *r.parts.values()]
            for rb in r.readings:
                for br in rb.branches.values():
                    blocks.extend([br.do or (), *br.parts.values()])
            for block in blocks:
                for st in walk(list(block)):
                    if st.head in ("choose", "draw", "deal"):
                        name = str(st.arg) if st.head == "choose" else str(st.keys["decision"])
                        self._waits.setdefault(name, r.step)
        self._chains: dict[tuple[tuple[str, tuple[str, ...]], ...], Chain] = {}
        #: what legal_actions last computed: (working copy, decision, names, options), used once by resume
        self._last: tuple[Any, Decision, dict[str, Any], list[Any]] | None = None
        #: compiled ``{EXPR}`` of refusal texts
        self._texts: dict[str, Callable[[Draft, dict[str, Any]], Any]] = {}
        #: where a junction's statements start (``goto``, ``turn``): set by the game
        self.junctions: dict[str, Callable[[Draft], None]] = {}

    # ------------------------------------------------------------------ expressions
    def _compile_expressions(self) -> None:
        comp = Compiler(self.game.lang_constants, self.roles)
        pending: list[tuple[int, list[Callable[..., Any]]]] = []

        def add(node: Node, extra: Sequence[str] = ()) -> None:
            if id(node) in self._fn or any(i == id(node) for i, _ in pending):
                return
            params = {n: f"E[{n!r}]" for n in sorted(names(node)) if n not in PRIMITIVES and n not in self.roles}
            params.update({n: f"v_{n}" for n in extra})
            body = comp.expression(node, params)
            head = ", ".join(["D", "E", *(f"v_{n}" for n in extra)])
            pending.append((id(node), comp.add_function(f"_x{len(pending)}", f"def _x{len(pending)}({head}):\n"
                                                                          f"    return {body}\n", {})))

        keep: list[Node] = []
        for r in self.prog.rules.values():
            nodes: list[Node] = [n for _, n in r.lets]
            if r.when is not None:
                nodes.append(r.when)
            blocks = [r.do or (), *r.parts.values()]
            for rb in r.readings:
                for br in rb.branches.values():
                    nodes.extend(n for _, n in br.lets)
                    blocks.extend([br.do or (), *br.parts.values()])
            for block in blocks:
                for s in walk(list(block)):
                    nodes.extend(n for _, n in expressions(s))
            for n in list(nodes):
                nodes.extend(_each_inner(n))
            for n in nodes:
                keep.append(n)
                add(n)
        comp.build()
        for i, slot in pending:
            self._fn[i] = slot[0]
        self._keep = keep  # the nodes stay alive, so their ids stay theirs

    def fn(self, node: Node) -> Callable[[Draft, dict[str, Any]], Any]:
        """The compiled function of an expression of a do-style rule."""
        return self._fn[id(node)]

    # ------------------------------------------------------------------ which rules apply
    def reading(self, point: str) -> str:
        """The ruleset's reading of ``point`` (``open`` when it leaves it open); noted as
        consulted where the game's parameters note lookups."""
        return str(self.game.params[self.parameter_of.get(point, point)].value)

    def _enter(self, r: DoRule, d: Draft, env: dict[str, Any], points: list[str],
               took: list[str]) -> Gap | bool:
        """Resolve ``r``'s readings and compute its names into ``env``.

        :returns: a :class:`Gap` at an open point, ``False`` when a reading says the rule
            does not apply, else ``True``.
        """
        for rb in r.readings:
            value = self.reading(rb.point)
            br = rb.branches.get(value)
            if br is None:
                return Gap(rb.point, r.rule)
            if not br.applies:
                return False
            took.append(value)
            points.append(rb.point)
            for name, node in br.lets:
                env[name] = self._fn[id(node)](d, env)
        for name, node in r.lets:
            env[name] = self._fn[id(node)](d, env)
        return True

    def select(self, step: str, d: Draft) -> Applied | Gap | None:
        """The rules of ``step`` that apply to ``d``: the first rule whose condition holds,
        with every exception of it (and of those) whose condition holds.

        :returns: the :class:`Applied` chain, a :class:`Gap`, or ``None`` when no rule of
            the step applies.
        """
        role = d.last_card % self._nr if d.last_card >= 0 else -1
        for r in self.prog.steps.get(step, ()):
            if r.role is not None and self.roles[r.role] != role:
                continue
            env: dict[str, Any] = {}
            if r.when is not None and not self._fn[id(r.when)](d, env):
                continue
            points: list[str] = []
            took: list[str] = []
            got = self._enter(r, d, env, points, took)
            if isinstance(got, Gap):
                return got
            if not got:
                continue
            links: list[tuple[DoRule, tuple[str, ...]]] = [(r, tuple(took))]
            gap = self._exceptions(r, d, env, points, links)
            if gap is not None:
                return gap
            return Applied(self._chain(links), env, tuple(points))
        return None

    def _chain(self, links: list[tuple[DoRule, tuple[str, ...]]]) -> Chain:
        """The :class:`Chain` of ``links`` (one object per chain)."""
        sig = tuple((r.rule, took) for r, took in links)
        got = self._chains.get(sig)
        if got is None:
            got = self._chains[sig] = Chain(tuple(links))
        return got

    def _exceptions(self, r: DoRule, d: Draft, env: dict[str, Any], points: list[str],
                    links: list[tuple[DoRule, tuple[str, ...]]]) -> Gap | None:
        for x in r.exceptions:
            if x.when is not None and not self._fn[id(x.when)](d, env):
                continue
            trial = dict(env)
            took: list[str] = []
            got = self._enter(x, d, trial, points, took)
            if isinstance(got, Gap):
                return got
            if not got:
                continue
            env.update(trial)
            links.append((x, tuple(took)))
            gap = self._exceptions(x, d, env, points, links)
            if gap is not None:
                return gap
        return None

    def chain_env(self, chain: Chain, d: Draft) -> dict[str, Any]:
        """The names of ``chain`` computed again on ``d`` (its readings looked up again, so
        a log of consulted readings notes them)."""
        env: dict[str, Any] = {}
        for r, took in chain.links:
            for rb, value in zip(r.readings, took, strict=True):
                self.reading(rb.point)
                for name, node in rb.branches[value].lets:
                    env[name] = self._fn[id(node)](d, env)
            for name, node in r.lets:
                env[name] = self._fn[id(node)](d, env)
        return env

    def parse_chain(self, key: str) -> Chain:
        """The chain written as ``key`` (see :attr:`Chain.key`)."""
        links = []
        for part in key.split(CHAIN):
            rid, _, took = part.partition(TOOK)
            links.append((self.prog.rules[rid], tuple(took.split(",")) if took else ()))
        return Chain(tuple(links))

    # ------------------------------------------------------------------ the statements a chain carries out
    def effective(self, chain: Chain) -> tuple[tuple[Stmt, ...], str, dict[str, tuple[tuple[Stmt, ...], str]]]:
        """The statements ``chain`` carries out: the last ``do`` given (with the rule that
        declares it) and the last statements given for each part."""
        do: tuple[Stmt, ...] = ()
        owner = ""
        parts: dict[str, tuple[tuple[Stmt, ...], str]] = {}
        for r, took in chain.links:
            if r.do is not None:
                do, owner = r.do, r.rule
            for name, body in r.parts.items():
                parts[name] = (body, r.rule)
            for rb, value in zip(r.readings, took, strict=True):
                br = rb.branches[value]
                if br.do is not None:
                    do, owner = br.do, r.rule
                for name, body in br.parts.items():
                    parts[name] = (body, r.rule)
        return do, owner, parts

    def start(self, step: str, d: Draft, *, then: str | None = None) -> None:
        """Apply ``step`` to ``d`` and carry out its statements; where they end, play goes on
        at the continuation ``then`` (a key of :attr:`conts`; ``None``: the statements must
        end the turn or the round themselves).

        :raises RuntimeError: when no rule of the step applies, or statements end with
            nowhere to go on (the spec's flow is broken).
        """
        frames = [then] if then is not None else []
        self._run_step(step, d, frames, None)

    def _run_step(self, step: str, d: Draft, frames: list[str], k: Cont | None) -> None:
        got = self.select(step, d)
        if got is None:
            if k is not None:
                k(d, {}, ())
                return
            raise RuntimeError(f"no rule of step {step} applies")
        if isinstance(got, Gap):
            self.game.stop_at_gap(d, got.point, got.rule)
            return
        entry = self.block(got.chain)
        d.frames = frames
        entry(d, got.env, got.points)

    def block(self, chain: Chain) -> Cont:
        """The compiled statements of ``chain`` (compiled once per chain)."""
        key = chain.key
        entry_key = key + "|"
        if entry_key not in self.conts:
            do, owner, parts = self.effective(chain)
            self.conts[entry_key] = self._seq(do, owner, chain, parts, self._end)
        return self.conts[entry_key]

    def _end(self, d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
        """Statements ran to their end: go on where the innermost step was applied."""
        if not d.frames:
            raise RuntimeError("statements ended with nowhere to go on (end a turn with goto: turn-over)")
        key = d.frames.pop()
        cont = self.conts.get(key)
        if cont is None:
            self._compile_for(key)
            cont = self.conts[key]
        cont(d, {}, ())

    def _compile_for(self, key: str) -> None:
        """Compile the chain a continuation or decision key belongs to."""
        chain_key = key.split("|", 1)[0]
        self.block(self.parse_chain(chain_key))

    def _seq(self, block: Sequence[Stmt], owner: str, chain: Chain,
             parts: Mapping[str, tuple[tuple[Stmt, ...], str]], k: Cont) -> Cont:
        for s in reversed(block):
            k = self._stmt(s, owner, chain, parts, k)
        return k

    def _key(self, chain: Chain, owner: str, s: Stmt) -> str:
        return f"{chain.key}|{owner}|{'.'.join(map(str, s.path))}"

    def _stmt(self, s: Stmt, owner: str, chain: Chain, parts: Mapping[str, tuple[tuple[Stmt, ...], str]],
              k: Cont) -> Cont:
        """Compile statement ``s`` (declared by rule ``owner``) followed by ``k``."""
        game = self.game
        head = s.head
        fn = self._fn
        if head == "emit":
            kind = str(s.arg)
            cite = citing(chain, owner, s)
            clauses = game.rule_clauses(cite)
            fields = tuple((key, fn[id(node)]) for key, node in s.keys.items())

            def emit(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                if d.events is not None:
                    d.events.append(Event(kind, cite, clauses, points=points,
                                          **{f: _field(f, g(d, env)) for f, g in fields}))
                k(d, env, points)
            return emit
        if head == "move":
            what = fn[id(s.arg)]
            src, dst = s.keys.get("from"), s.keys["to"]
            src_zone = src.zone if src is not None else ""
            src_seat = fn[id(src.seat)] if src is not None and src.seat is not None else None
            dst_seat = fn[id(dst.seat)] if dst.seat is not None else None

            def move(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                value = what(d, env)
                cards = value if isinstance(value, tuple) else (value,)
                a = src_seat(d, env) if src_seat is not None else -1
                b = dst_seat(d, env) if dst_seat is not None else -1
                if src_zone:
                    for c in cards:
                        take(d, src_zone, a, c)
                for c in cards:
                    put(d, dst.zone, b, c)
                k(d, env, points)
            return move
        if head == "set":
            targets = tuple((t, fn[id(seat)] if seat is not None else None, fn[id(v)]) for t, seat, v in s.arg)

            def set_(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                values = [(t, seat(d, env) if seat is not None else -1, v(d, env)) for t, seat, v in targets]
                for t, seat, v in values:
                    if t == "card":
                        d.last_card = v
                    else:
                        getattr(d, t)[seat] = v
                k(d, env, points)
            return set_
        if head == "if":
            cond = fn[id(s.arg)]
            yes = self._seq(s.blocks["then"], owner, chain, parts, k)
            no = self._seq(s.blocks["else"], owner, chain, parts, k)

            def if_(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                (yes if cond(d, env) else no)(d, env, points)
            return if_
        if head == "readings":
            point = str(s.arg)
            branches = {r: self._seq(body, owner, chain, parts, k) for r, body in s.blocks.items()}

            def readings(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                value = self.reading(point)
                go = branches.get(value)
                if go is None:
                    game.stop_at_gap(d, point, owner)
                    return
                go(d, env, points if point in points else (*points, point))
            return readings
        if head == "part":
            body, part_owner = parts[str(s.arg)]
            return self._seq(body, part_owner, chain, parts, k)
        if head in ("step", "every"):
            return self._call(s, owner, chain, k)
        if head == "goto":
            junction = str(s.arg)

            def goto(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                self.junctions[junction](d)
            return goto
        if head == "turn":
            who = fn[id(s.arg)]

            def turn(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                game.begin_turn(d, who(d, env))
            return turn
        if head == "end_round":
            rule = str(s.arg)
            forced = bool(s.keys["forced"])

            def end_round(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                game.end_round_by(d, rule, owner, points, forced)
            return end_round
        if head in ("choose", "draw", "deal"):
            return self._wait(s, owner, chain, k)
        if head == "shuffle":
            places = s.arg

            into = str(s.keys["into"])

            def shuffle(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                pool: list[int] = []
                for pl in places:
                    pool.extend(empty_place(d, pl.zone))
                shuffle_into(d, into, tuple(pool))
                k(d, env, points)
            return shuffle
        raise ValueError(f"the engine cannot carry out a {head} statement")  # pragma: no cover

    def _call(self, s: Stmt, owner: str, chain: Chain, k: Cont) -> Cont:
        """``step``/``every``: apply a step; what follows ``s`` is kept as a continuation
        (names do not live past a step)."""
        step = str(s.arg)
        key = self._key(chain, owner, s)

        def after(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
            k(d, {}, ())
        self.conts[key] = after
        effect = step in self.game.effect_steps
        if s.head == "every":
            def every(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                self._every(step, d)
                k(d, {}, ())
            return every

        def call(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
            if effect:
                if self.game.apply_effect_step(d, step):
                    return
                k(d, {}, ())
                return
            d.frames.append(key)
            self._run_step(step, d, d.frames, None)
        return call

    def _every(self, step: str, d: Draft) -> None:
        """Carry out every rule of ``step`` whose condition holds, in order (none may wait)."""
        for r in self.prog.steps.get(step, ()):
            env: dict[str, Any] = {}
            if r.when is not None and not self._fn[id(r.when)](d, env):
                continue
            points: list[str] = []
            took: list[str] = []
            got = self._enter(r, d, env, points, took)
            if isinstance(got, Gap):
                self.game.stop_at_gap(d, got.point, got.rule)
                return
            if not got:
                continue
            links: list[tuple[DoRule, tuple[str, ...]]] = [(r, tuple(took))]
            gap = self._exceptions(r, d, env, points, links)
            if gap is not None:
                self.game.stop_at_gap(d, gap.point, gap.rule)
                return
            chain = self._chain(links)
            do, owner, parts = self.effective(chain)
            self._seq(do, owner, chain, parts, _done)(d, env, tuple(points))

    # ------------------------------------------------------------------ decisions
    def _wait(self, s: Stmt, owner: str, chain: Chain, k: Cont) -> Cont:
        """A statement that waits for a decision: ``choose``, a ``draw`` from a deck of
        unknown order, a ``deal``."""
        game = self.game
        fn = self._fn
        head = s.head
        key = self._key(chain, owner, s)
        kind = DecisionKind(s.arg if head == "choose" else s.keys["decision"])
        restore = _restorable(chain, owner, s, self)
        if head == "choose":
            by = fn[id(s.keys["by"])]
            keep = tuple((slot, fn[id(node)]) for slot, node in s.keys["keep"].items())
            each = each_of(s.keys["options"], chain_lets(chain))
            bind = (s.keys["as"], *(name for name, _ in (each_parts(each) if each is not None else ())))
            options = fn[id(s.keys["options"])]
            refuse = s.keys.get("refuse", "that is not one of the options")
            opt = s.keys["options"]
            self.resumes[key] = Resume(kind, owner, chain, restore, options, None, bind, k, refuse, each=each,
                                       option_name=str(opt.value) if opt.op == "name" else "")

            def choose(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                fields = {slot: g(d, env) for slot, g in keep}
                d.decision = game.open_decision(kind, by(d, env), points, key, tuple(d.frames), fields)
            return choose
        if head == "deal":
            self.resumes[key] = Resume(kind, owner, chain, restore, None, "deal", (), k,
                                       "a new round starts with a deal")

            def deal(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
                d.decision = game.open_decision(kind, -1, points, key, tuple(d.frames), {})
            return deal
        deck = str(s.arg)
        place = s.keys.get("to")
        seat_fn = fn[id(place.seat)] if place is not None and place.seat is not None else None
        who = fn[id(s.keys["by"])]
        name = s.keys.get("as")
        self.resumes[key] = Resume(kind, owner, chain, restore, None, deck, (name,) if name else (), k,
                                   "that card is not in the deck", place, seat_fn)

        def draw(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
            top = draw_known(d, deck)
            if top is None:
                if not hidden(d, deck):
                    raise RuntimeError(f"a draw from an empty {deck}: the rules must not draw from it")
                d.decision = game.open_decision(kind, who(d, env), points, key, tuple(d.frames), {})
                return
            if place is not None:
                put(d, place.zone, seat_fn(d, env) if seat_fn is not None else -1, top)
            if name:
                env[name] = top
            k(d, env, points)
        return draw

    def resume_of(self, dec: Decision, state: Draft | Any) -> Resume | None:
        """How play resumes at the pending decision ``dec`` (compiling its rules if needed).
        A decision made outside the engine names no statement (``rule`` empty: a position
        built from a scenario or a Z3 model); then the step whose statements wait for that
        decision is applied again to ``state`` to find it.

        :returns: ``None`` when no statement waits for ``dec`` there (a terminal decision,
            or the step stops at a gap).
        """
        if dec.rule:
            got = self.resumes.get(dec.rule)
            if got is None:
                self._compile_for(dec.rule)
                got = self.resumes[dec.rule]
            return got
        step = self._waits.get(dec.kind.value)
        if step is None or state is None:
            return None
        applied = self.select(step, state)
        if not isinstance(applied, Applied):
            return None
        self.block(applied.chain)
        prefix = applied.chain.key + "|"
        for key, r in self.resumes.items():
            if key.startswith(prefix) and r.kind is dec.kind:
                return r
        return None

    def restore(self, r: Resume, d: Draft | Any, dec: Decision) -> dict[str, Any]:
        """The names in scope where ``dec`` waits, computed again on ``d``."""
        env = self.chain_env(r.chain, d)
        for name, src in r.restore:
            env[name] = getattr(dec, src)
        return env

    def options(self, d: Draft | Any, r: Resume) -> list[Any]:
        """The values the pending decision of ``d`` may take (the options of ``r``, a choose).
        When ``d`` is a working copy, what is computed is kept for :meth:`resume` at the same
        decision (the fast path of a playout: no second computation)."""
        if r.options is None:
            raise ValueError(f"the {r.kind.value} decision takes no options")
        dec = d.decision
        env = self.restore(r, d, dec)
        values = list(r.options(d, env))
        if isinstance(d, Draft):
            self._last = (d, dec, env, values)
        return values

    def why_refused(self, r: Resume, d: Draft, env: dict[str, Any], value: Any) -> tuple[str, str]:
        """Why ``value`` is not an option of ``r``, and the rule that says so.

        For options built from parts: the first part not among its collection or the first
        condition that does not hold, in the words the declaration gives (its ``{EXPR}``
        filled in, and the variation points whose readings the condition reads named). For
        options a rule's name holds: the first rule of the chain whose value of that name
        leaves ``value`` out (its ``refuse``, and the readings it took named). Else the
        choose's ``refuse``, citing the rule that declares it.
        """
        each = r.each
        if each is not None and isinstance(value, tuple) and len(value) == len(each_parts(each)):
            e = dict(env)
            fn = self._fn
            info: Each = each.value  # type: ignore[assignment]
            for (name, coll), v, why in zip(each_parts(each), value, info.part_else, strict=True):
                if v not in fn[id(coll)](d, e):
                    return self.fill(why or r.refuse, d, {**e, name: v}, r.chain), r.rule
                e[name] = v
            given = reading_names(r.chain)
            for cond, why in each_conditions(each):
                if not fn[id(cond)](d, e):
                    used = sorted({given[n] for n in names(cond) if n in given})
                    tail = "".join(f" (variation point {p}: {v})" for p, v in used)
                    return self.fill(why or r.refuse, d, e, r.chain) + tail, r.rule
        elif r.option_name:
            step: dict[str, Any] = {}
            for link, took in r.chain.links:
                given_here = {n for n, _ in link.lets}
                for rb, reading in zip(link.readings, took, strict=True):
                    for name, node in rb.branches[reading].lets:
                        step[name] = self._fn[id(node)](d, step)
                        given_here.add(name)
                for name, node in link.lets:
                    step[name] = self._fn[id(node)](d, step)
                if r.option_name in given_here and value not in step[r.option_name] and link.refuse:
                    tail = "".join(f" (variation point {rb.point}: {reading})"
                                   for rb, reading in zip(link.readings, took, strict=True))
                    if link is not r.chain.links[0][0]:
                        return self.fill(link.refuse, d, env, r.chain) + tail, link.rule
                    break
        return self.fill(r.refuse, d, env, r.chain), r.rule

    def fill(self, text: str, d: Draft, env: dict[str, Any], chain: Chain) -> str:
        """``text`` with each ``{EXPR}`` replaced by its value in words."""
        out = text
        for expr in placeholders(text):
            node = parse(expr)
            value = self._compiled_text(expr)(d, env)
            kind = infer_or_any(node, self._kinds(chain, env), self._role_kinds)
            out = out.replace("{" + expr + "}", self.game.describe_value(kind, value), 1)
        return out

    def _compiled_text(self, expr: str) -> Callable[[Draft, dict[str, Any]], Any]:
        got = self._texts.get(expr)
        if got is None:
            comp = Compiler(self.game.lang_constants, self.roles)
            node = parse(expr)
            params = {n: f"E[{n!r}]" for n in sorted(names(node)) if n not in PRIMITIVES and n not in self.roles}
            slot = comp.add_function("_t", f"def _t(D, E):\n    return {comp.expression(node, params)}\n", {})
            comp.build()
            got = self._texts[expr] = slot[0]
        return got

    def _kinds(self, chain: Chain, env: dict[str, Any]) -> dict[str, str]:
        """The kinds of the names of ``chain`` (its lets, and the parts of its options)."""
        kinds: dict[str, str] = {}
        for name, node in chain_lets(chain).items():
            kinds[name] = infer_or_any(node, kinds, self._role_kinds)
            if node.op == "each":
                inner = dict(kinds)
                for part, coll in each_parts(node):
                    inner[part] = ELEMENT.get(infer_or_any(coll, inner, self._role_kinds), "any")
                kinds.update({k: v for k, v in inner.items() if k not in kinds})
        return kinds

    def resume(self, d: Draft, value: Any, action: object) -> None:
        """Carry on at the pending decision of ``d`` with the chosen ``value`` (of ``action``).

        :raises IllegalActionError: when ``value`` is not one of the options (the rule's
            reason and clauses).
        """
        dec = d.decision
        r = self.resume_of(dec, d)
        if r is None:
            raise IllegalActionError(f"nothing waits for a {dec.kind.value} decision here")
        last = self._last
        self._last = None
        if last is not None and last[0] is d and last[1] is dec:
            env = last[2]
            if value not in last[3]:
                why, rule = self.why_refused(r, d, dict(env), value)
                raise IllegalActionError(why, self.game.rule_clauses(rule))
            self._bind_and_go(r, d, env, value, dec)
            return
        env = self.restore(r, d, dec)
        if r.deck == "deal":
            self.game.place_deal(d, action)
        elif r.deck is not None:
            if not take_unknown(d, r.deck, value):
                raise IllegalActionError(r.refuse, self.game.rule_clauses(r.rule))
            if r.place is not None:
                put(d, r.place.zone, r.seat(d, env) if r.seat is not None else -1, value)
        elif r.options is not None and value not in r.options(d, env):
            why, rule = self.why_refused(r, d, env, value)
            raise IllegalActionError(why, self.game.rule_clauses(rule))
        self._bind_and_go(r, d, env, value, dec)

    @staticmethod
    def _bind_and_go(r: Resume, d: Draft, env: dict[str, Any], value: Any, dec: Decision) -> None:
        """Give the chosen ``value`` its names and carry on after the waiting statement."""
        if r.bind:
            env[r.bind[0]] = value
            if len(r.bind) > 1:
                for name, v in zip(r.bind[1:], value, strict=True):
                    env[name] = v
        d.frames = list(dec.frames)
        r.cont(d, env, dec.points)


def _each_inner(node: Node) -> list[Node]:
    """The parts' collections and the conditions of every ``each`` inside ``node``."""
    out: list[Node] = []
    if node.op == "each":
        out.extend(node.args)
    for a in node.args:
        out.extend(_each_inner(a))
    return out


def reading_names(chain: Chain) -> dict[str, tuple[str, str]]:
    """The names the readings of ``chain`` give -> (variation point, reading)."""
    out: dict[str, tuple[str, str]] = {}
    for r, took in chain.links:
        for rb, value in zip(r.readings, took, strict=True):
            for name, _ in rb.branches[value].lets:
                out[name] = (rb.point, value)
    return out


def chain_lets(chain: Chain) -> dict[str, Node]:
    """The let values the rules of ``chain`` give, by name (readings' values included)."""
    out: dict[str, Node] = {}
    for r, took in chain.links:
        for rb, value in zip(r.readings, took, strict=True):
            out.update(dict(rb.branches[value].lets))
        out.update(dict(r.lets))
    return out


def citing(chain: Chain, owner: str, s: Stmt) -> str:
    """The rule an event of statement ``s`` (declared by ``owner``) cites: the last rule of
    ``chain`` that gave a value the statement reads by name, where that rule comes after
    ``owner``; else ``owner``. (A neutral card's next player comes from the exception that
    names the fewest cards, though the statement that reports it is the colour rule's.)"""
    order = [r.rule for r, _ in chain.links]
    read: set[str] = set()
    for _, node in expressions(s):
        read |= names(node)
    best = owner
    for r, took in chain.links:
        given = {n for n, _ in r.lets}
        for rb, value in zip(r.readings, took, strict=True):
            given |= {n for n, _ in rb.branches[value].lets}
        if given & read and owner in order and order.index(r.rule) > order.index(best if best in order else owner):
            best = r.rule
    return best


def _done(d: Draft, env: dict[str, Any], points: tuple[str, ...]) -> None:
    """The end of a rule applied by ``every``: nothing follows."""


def _field(name: str, value: Any) -> Any:
    return tuple(value) if name in ("cards", "seats") else value


def _restorable(chain: Chain, owner: str, s: Stmt, runner: Runner) -> tuple[tuple[str, str], ...]:
    """The names a decision opened by ``s`` keeps: ``by`` when it is a name (in the
    decision's player) and each ``keep`` slot that is a name."""
    out: list[tuple[str, str]] = []
    by = s.keys.get("by")
    if isinstance(by, Node) and by.op == "name" and str(by.value) not in PRIMITIVES:
        out.append((str(by.value), "player"))
    for slot, node in (s.keys.get("keep") or {}).items():
        if node.op == "name" and str(node.value) not in PRIMITIVES:
            out.append((str(node.value), slot))
    return tuple(out)


# ---------------------------------------------------------------------------- places
def take(d: Draft, zone: str, seat: int, c: int) -> None:
    """Take card (or King card) ``c`` out of a place of ``d``.

    :raises ValueError: when it is not there.
    """
    if zone == "hand":
        d.hands[seat] = remove_one(d.hands[seat], c)
    elif zone == "display":
        d.displays[seat] = remove_one(d.displays[seat], c)
    elif zone == "discard_pile":
        d.discard = remove_one(d.discard, c)
    elif zone == "in_force":
        if d.king_in_force != c:
            raise ValueError(f"no King card {c} in force")
        d.king_in_force = -1
    elif zone == "spent_kings":
        d.king_spent = remove_one(d.king_spent, c)
    else:
        raise ValueError(f"cards are not taken out of {zone} this way")


def put(d: Draft, zone: str, seat: int, c: int) -> None:
    """Put card (or King card) ``c`` into a place of ``d``: a hand stays sorted, a display and
    a pile grow at their end, a card under the draw deck goes below every other."""
    if zone == "hand":
        d.hands[seat] = insert_sorted(d.hands[seat], c)
    elif zone == "display":
        d.displays[seat] = d.displays[seat] + (c,)
    elif zone == "discard_pile":
        d.discard = d.discard + (c,)
    elif zone == "under_draw_deck":
        if d.deck_hidden == 0 and not d.deck_bottom:
            d.deck = d.deck + (c,)
        else:
            d.deck_bottom = d.deck_bottom + (c,)
    elif zone == "in_force":
        if d.king_in_force >= 0:
            raise ValueError("a King card is already in force")
        d.king_in_force = c
    elif zone == "spent_kings":
        d.king_spent = d.king_spent + (c,)
    else:
        raise ValueError(f"cards are not put into {zone} this way")


def empty_place(d: Draft, zone: str) -> tuple[int, ...]:
    """Take every card out of a place (for a shuffle) and return them."""
    if zone == "spent_kings":
        out, d.king_spent = d.king_spent, ()
        return out
    if zone == "in_force":
        if d.king_in_force < 0:
            return ()
        out = (d.king_in_force,)
        d.king_in_force = -1
        return out
    if zone == "king_deck":
        out = d.king_deck + d.king_unseen
        d.king_deck, d.king_unseen, d.king_hidden = (), (), 0
        return out
    raise ValueError(f"cards are not shuffled out of {zone}")


def shuffle_into(d: Draft, deck: str, cards: tuple[int, ...]) -> None:
    """Add ``cards`` face down to ``deck``, whose whole order is then unknown (its known
    top and the cards whose place is not fixed join them)."""
    if deck == "king_deck":
        d.king_unseen = tuple(sorted(d.king_unseen + d.king_deck + cards))
        d.king_deck = ()
        d.king_hidden = len(d.king_unseen)
    else:
        d.unseen = tuple(sorted(d.unseen + d.deck + d.deck_bottom + cards))
        d.deck, d.deck_bottom = (), ()
        d.deck_hidden = len(d.unseen)


def draw_known(d: Draft, deck: str) -> int | None:
    """Take the top card of ``deck`` when it is known (the known top, or for the draw deck
    a card under a hidden part that is gone); ``None`` otherwise."""
    if deck == "draw_deck":
        if d.deck:
            top = d.deck[0]
            d.deck = d.deck[1:]
            return top
        if d.deck_hidden == 0 and d.deck_bottom:
            top = d.deck_bottom[0]
            d.deck_bottom = d.deck_bottom[1:]
            return top
        return None
    if d.king_deck:
        top = d.king_deck[0]
        d.king_deck = d.king_deck[1:]
        return top
    return None


def hidden(d: Draft | Any, deck: str) -> int:
    """How many cards of ``deck`` lie face down in an unknown order."""
    return int(d.deck_hidden if deck == "draw_deck" else d.king_hidden)


def unknown(d: Draft | Any, deck: str) -> tuple[int, ...]:
    """The cards a draw from the unknown part of ``deck`` may give."""
    return tuple(d.unseen if deck == "draw_deck" else d.king_unseen)


def take_unknown(d: Draft, deck: str, c: int) -> bool:
    """Take ``c`` from the unknown part of ``deck``; ``False`` when it cannot be there."""
    if deck == "draw_deck":
        if c not in d.unseen or d.deck_hidden <= 0:
            return False
        d.unseen = remove_one(d.unseen, c)
        d.deck_hidden -= 1
        return True
    if c not in d.king_unseen or d.king_hidden <= 0:
        return False
    d.king_unseen = remove_one(d.king_unseen, c)
    d.king_hidden -= 1
    return True


__all__ = ["Applied", "Chain", "Deal", "Gap", "Resume", "Runner", "action_for", "action_value"]
