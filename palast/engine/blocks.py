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

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from palast.engine.chains import CHAIN, TOOK, Chain, chain_lets, effective, kept_names
from palast.engine.codegen import BlockCompiler
from palast.engine.codegen_source import CompiledChain
from palast.engine.draft import Draft
from palast.engine.places import Places
from palast.engine.refusals import Refusals
from palast.engine.state import Decision
from palast.errors import IllegalActionError, RulesError
from palast.lang.blocks import KEEP_PROGRAMS, DoRule, Program, each_of, program
from palast.lang.compiler import Compiler
from palast.lang.primitives import PRIMITIVES
from palast.lang.statements import Stmt, expressions, waits_for, walk
from palast.lang.syntax import Node, names

if TYPE_CHECKING:
    from palast.engine.core import GameCore

#: A compiled statement list: ``(draft, names, variation points consulted)``.
Cont = Callable[[Draft, dict[str, Any], tuple[str, ...]], None]


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
    :ivar deck: for a draw, the deck (``draw_deck``, ``king_deck``); for a deal, ``"deal"``;
        for a choose, ``None``.
    :ivar go: the compiled statements after the waiting one: ``go(D, value)``.
    :ivar options: for a choose, its compiled options: ``options(D)``.
    :ivar refuse: why an action that is not an option is refused.
    :ivar each: the options' ``each`` expression, if they are built from parts (its reasons
        explain a refusal).
    :ivar option_name: the name the options are, when they are a rule's named value (its
        rules explain a refusal).
    :ivar cards_of: for a deal, the rule that says which cards the game has (a deal of
        other cards is refused citing it); else :attr:`rule`.
    :ivar count: for a deal, its declared number of cards per player, compiled:
        ``count(D, {})``; else ``None``.
    """

    kind: str
    rule: str
    chain: Chain
    restore: tuple[tuple[str, str], ...]
    deck: str | None
    go: Callable[..., None]
    options: Callable[..., Any] | None
    refuse: str
    each: Node | None = None
    option_name: str = ""
    cards_of: str = ""
    count: Callable[..., Any] | None = None


def _expression_sources(prog: Program, roles: Mapping[str, int]) -> list[tuple[int, str, str]]:
    """The generated Python of every expression of ``prog``'s rules, as ``(id of the
    expression's node, function name, source)``; made once per program (the games of one
    spec share it: the text names the game's constants, it does not hold them)."""
    for held, out in _SOURCES:
        if held is prog:
            return out
    comp = Compiler({}, roles)
    out = []
    seen: set[int] = set()

    def add(node: Node) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        params = {n: f"E[{n!r}]" for n in sorted(names(node)) if n not in PRIMITIVES and n not in roles}
        body = comp.expression(node, params)
        name = f"_x{len(out)}"
        out.append((id(node), name, f"def {name}(D, E):\n    return {body}\n"))

    for r in prog.rules.values():
        nodes: list[Node] = [n for _, n in r.lets]
        if r.when is not None:
            nodes.append(r.when)
        blocks = [r.do or (), *r.parts.values()]
        for rb in r.readings:
            for br in rb.branches.values():
                nodes.extend(n for _, n in br.lets)
                if br.when is not None:
                    nodes.append(br.when)
                blocks.extend([br.do or (), *br.parts.values()])
        for block in blocks:
            for s in walk(list(block)):
                nodes.extend(n for _, n in expressions(s))
        for n in list(nodes):
            nodes.extend(_each_inner(n))
        for n in nodes:
            add(n)
    _SOURCES.insert(0, (prog, out))
    del _SOURCES[KEEP_PROGRAMS:]
    return out


#: the expression sources of the last programs compiled (see :func:`_expression_sources`)
_SOURCES: list[tuple[Program, list[tuple[int, str, str]]]] = []


class Runner:
    """The do-style rules of one game, compiled.

    :param game: the game (its constants, parameters, clause lookup, events).
    :param parameter_of: variation point id -> the name of its entry in ``game.params``.
    """

    def __init__(self, game: GameCore, parameter_of: Mapping[str, str]) -> None:
        self.game = game
        self.prog: Program = program(game.spec)
        #: the zones of spec/state.yaml, and what the generated code does with them
        self.places = Places(game.spec.state)
        self.take = self.places.take
        self.put = self.places.put
        self.empty_place = self.places.empty_place
        self.shuffle_into = self.places.shuffle_into
        self.draw_known = self.places.draw_known
        self.hidden = self.places.hidden
        self.parameter_of = dict(parameter_of)
        self._nr = len(game.spec.roles)
        #: the names an expression may use for a role or a colour, with their numbers
        self.roles = {**{r: i for i, r in enumerate(game.spec.roles)},
                      **{c: i for i, c in enumerate(game.cards.colours)}}
        self.role_kinds = {**dict.fromkeys(game.spec.roles, "role"), **dict.fromkeys(game.cards.colours, "colour")}
        self._fn: dict[int, Callable[[Draft, dict[str, Any]], Any]] = {}
        self._compile_expressions()
        #: decision -> the step whose statements wait for it
        self.waits: dict[str, str] = {}
        for r in self.prog.rules.values():
            for block in r.all_blocks():
                for st in walk(list(block)):
                    name = waits_for(st)
                    if name is not None:
                        self.waits.setdefault(name, r.step)
        self._chains: dict[tuple[tuple[str, tuple[str, ...]], ...], Chain] = {}
        self._entries: dict[tuple[tuple[str, tuple[str, ...]], ...], Callable[..., None]] = {}
        #: continuation key -> where play goes on after a step (compiled)
        self.conts: dict[str, Callable[[Draft], None]] = {}
        #: decision key -> how play resumes there
        self.resumes: dict[str, Resume] = {}
        #: the options legal_actions last computed: (working copy, decision, options), used once by resume
        self._last: tuple[Any, Decision, list[Any]] | None = None
        self._blocks: dict[str, CompiledChain] = {}
        #: the step a junction applies, and the step that begins a turn (spec/flow.yaml)
        self.junction_steps: dict[str, str] = {"turn-over": "next-player"}
        self.turn_step = "turn"
        self.codegen = BlockCompiler(self)
        self.selectors = {step: self.codegen.selector(step, rules) for step, rules in self.prog.steps.items()}
        #: the generated functions of the steps applied with ``every`` (see every_selector)
        self._every: dict[str, Callable[[Draft], Any]] = {}
        self.codegen.namespace["ENTRIES"] = self._entries
        self.codegen.namespace["CONTS"] = self.conts
        #: the words of a refusal (palast.engine.refusals)
        self.refusals = Refusals(self)
        #: when a set: the ids of the rules applied since it was set are added to it (rule
        #: coverage; ``None``, the default, notes nothing)
        self.trace: set[str] | None = None

    # ------------------------------------------------------------------ expressions
    def _compile_expressions(self) -> None:
        comp = Compiler(self.game.lang_constants, self.roles)
        sources = _expression_sources(self.prog, self.roles)
        slots = [(i, comp.add_function(name, text, {})) for i, name, text in sources]
        comp.build()
        for i, slot in slots:
            self._fn[i] = slot[0]

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
            if br.when is not None and not self._fn[id(br.when)](d, env):
                return False
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
        """The chain written as ``key`` (see ``Chain.key``)."""
        links = []
        for part in key.split(CHAIN):
            rid, _, took = part.partition(TOOK)
            links.append((self.prog.rules[rid], tuple(took.split(",")) if took else ()))
        return Chain(tuple(links))

    # ------------------------------------------------------------------ the statements a chain carries out
    def effective(self, chain: Chain) -> tuple[tuple[Stmt, ...], str, dict[str, tuple[tuple[Stmt, ...], str]]]:
        """The statements ``chain`` carries out (:func:`palast.engine.chains.effective`)."""
        return effective(chain)

    def start(self, step: str, d: Draft) -> None:
        """Apply ``step`` to ``d`` from a junction (the turn, the next player, the deal):
        nothing waits for its end, so its statements end the turn or the round themselves.

        :raises RulesError: when no rule of the step applies (the spec's flow is broken).
        """
        d.frames = ()
        self.run_step(step, d)

    def run_step(self, step: str, d: Draft) -> None:
        """Apply ``step`` to ``d``: the rules its compiled selector finds, carried out by
        their compiled statements (:mod:`palast.engine.codegen`)."""
        got = self.selectors[step](d)
        if got is not True:
            self.not_applied(d, step, got)

    def not_applied(self, d: Draft, step: str, got: tuple[str, str, str] | None) -> None:
        """A step's selector carried out no statements: stop at the gap it met, or fail.

        :raises RulesError: when no rule of ``step`` applies (the spec's flow is broken).
        """
        if got is None:
            raise RulesError(f"no rule of step {step} applies in round {d.round} (the player to move: seat "
                             f"{d.actor}): the declared rules leave this position undecided", "spec/")
        _, point, rule = got
        self.game.stop_at_gap(d, point, rule)

    def entry_for(self, sig: tuple[tuple[str, tuple[str, ...]], ...], args: tuple[str, ...],
                  every: bool = False) -> Callable[..., None]:
        """The compiled entry of the chain a selector found (``sig``: each rule id with the
        readings it took), taking the names ``args``; ``every``: of a rule an ``every``
        statement applies (its end returns)."""
        chain = self._chain([(self.prog.rules[rid], took) for rid, took in sig])
        return self.compiled(chain, args, every=every).entry

    def note(self, table: Sequence[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]],
             bits: int) -> None:
        """Add the rules of the chain a selector found (see :meth:`decode`) to :attr:`trace`."""
        if self.trace is not None:
            self.trace.update(rule for rule, _ in self.decode(table, bits))

    @staticmethod
    def decode(table: Sequence[tuple[str, int, tuple[tuple[int, int, tuple[str, ...]], ...]]],
               bits: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The chain a selector's number stands for: each rule whose bit is set, in the order
        of ``table`` (the rule, its bit, and per readings block the bits holding the number,
        from 1, of the reading taken: their position, how many, the readings), with the
        readings it took."""
        out = []
        for rule, offset, blocks in table:
            if bits >> offset & 1:
                out.append((rule, tuple(branches[(bits >> at & ((1 << width) - 1)) - 1]
                                        for at, width, branches in blocks)))
        return tuple(out)

    def end(self, d: Draft) -> None:
        """Statements ran to their end: go on where the innermost step was applied.

        :raises RulesError: when nothing waits for their end (a turn must end with
            ``goto: turn-over``).
        """
        if not d.frames:
            raise RulesError("statements ended with nowhere to go on (end a turn with goto: turn-over)", "spec/")
        key = d.frames[-1]
        d.frames = d.frames[:-1]
        cont = self.conts.get(key)
        if cont is None:
            self._compile_for(key)
            cont = self.conts[key]
        cont(d)

    def cont_for(self, key: str) -> Callable[[Draft], None]:
        """The compiled continuation ``key`` (compiling the chain it belongs to if needed)."""
        cont = self.conts.get(key)
        if cont is None:
            self._compile_for(key)
            cont = self.conts[key]
        return cont

    def every_selector(self, step: str) -> Callable[[Draft], Any]:
        """The generated function that carries out every rule of ``step`` whose condition
        holds, in order (none may wait): see :meth:`BlockCompiler.selector` with ``every``.
        Made the first time a statement applies ``step`` with ``every``."""
        sel = self._every.get(step)
        if sel is None:
            sel = self._every[step] = self.codegen.selector(step, self.prog.steps.get(step, ()), every=True)
        return sel

    def compiled(self, chain: Chain, args: tuple[str, ...] = (), *, every: bool = False) -> CompiledChain:
        """The compiled statements of ``chain`` (compiled once per chain and names ``args``
        its entry takes), their resumes and continuations registered."""
        label = chain.key + ("!" if every else "") + "(" + ",".join(args) + ")"
        got = self._blocks.get(label)
        if got is None:
            got = self._blocks[label] = self.codegen.block(chain, args, every=every)
            self.conts.update(got.conts)
            for key, (go, opts) in got.resumes.items():
                self.resumes[key] = self._resume_info(chain, key, go, opts)
        return got

    def _resume_info(self, chain: Chain, key: str, go: Callable[..., None],
                     opts: Callable[..., Any] | None) -> Resume:
        """What :meth:`resume` and the refusals need to know of the waiting statement ``key``."""
        _, owner, path = key.split("|")
        s = self._statement(owner, path)
        each = None
        option_name = ""
        deck: str | None = None
        if s.head == "choose":
            each = each_of(s.keys["options"], chain_lets(chain))
            opt = s.keys["options"]
            option_name = str(opt.value) if opt.op == "name" else ""
            kind = sys.intern(str(s.arg))
            refuse = str(s.keys.get("refuse", "that is not one of the options"))
        else:
            kind = sys.intern(str(s.keys["decision"]))
            deck = "deal" if s.head == "deal" else str(s.arg)
            refuse = "that card is not in the deck" if s.head == "draw" else "a new round starts with a deal"
        return Resume(kind, owner, chain, kept_names(s), deck, go, opts, refuse, each, option_name,
                      str(s.keys.get("cards_of", owner)) if s.head == "deal" else owner,
                      self._fn[id(s.arg)] if s.head == "deal" and isinstance(s.arg, Node) else None)

    def _statement(self, owner: str, path: str) -> Stmt:
        """The statement of rule ``owner`` at key path ``path`` (dotted)."""
        for block in self.prog.rules[owner].all_blocks():
            for st in walk(list(block)):
                if ".".join(map(str, st.path)) == path:
                    return st
        raise KeyError(f"{owner} has no statement at {path}")

    def _compile_for(self, key: str) -> None:
        """Compile the chain a continuation or decision key belongs to."""
        self.compiled(self.parse_chain(key.split("|", 1)[0]))

    def key(self, chain: Chain, owner: str, s: Stmt) -> str:
        """The key of statement ``s`` (declared by ``owner``) in the statements of ``chain``:
        decisions record it (``Decision.rule``, ``Decision.frames``)."""
        return f"{chain.key}|{owner}|{'.'.join(map(str, s.path))}"

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
        step = self.waits.get(dec.kind)
        if step is None or state is None:
            return None
        applied = self.select(step, state)
        if not isinstance(applied, Applied):
            return None
        self.compiled(applied.chain)
        prefix = applied.chain.key + "|"
        for key, r in self.resumes.items():
            if key.startswith(prefix) and r.kind == dec.kind:
                return r
        return None

    def restore(self, r: Resume, d: Draft | Any, dec: Decision) -> dict[str, Any]:
        """The names in scope where ``dec`` waits, computed again on ``d``."""
        env = self.chain_env(r.chain, d)
        for name, src in r.restore:
            env[name] = getattr(dec, src)
        return env

    def options(self, d: Draft | Any, r: Resume) -> list[Any]:
        """The values the pending decision of ``d`` may take (the options of ``r``, a choose)."""
        if r.options is None:
            raise ValueError(f"the {r.kind} decision takes no options")
        values: list[Any] = r.options(d)
        if isinstance(d, Draft):
            self._last = (d, d.decision, values)
        return values

    def resume(self, d: Draft, value: Any, action: object) -> None:
        """Carry on at the pending decision of ``d`` with the chosen ``value`` (of ``action``).

        :raises IllegalActionError: when ``value`` is not one of the options (the rule's
            reason and clauses), or a draw names a card the deck cannot give.
        """
        dec = d.decision
        r = self.resume_of(dec, d)
        if r is None:
            raise IllegalActionError(f"nothing waits for a {dec.kind} decision here")
        last = self._last
        self._last = None
        if r.deck == "deal":
            value = action
        elif r.deck is not None:
            if not self.places.take_unknown(d, r.deck, value):
                raise IllegalActionError(r.refuse, self.game.rule_clauses(r.rule))
        elif r.options is not None:
            allowed = last[-1] if last is not None and last[0] is d and last[1] is dec else r.options(d)
            if value not in allowed:
                why, rule = self.refusals.why_refused(r, d, self.restore(r, d, dec), value)
                raise IllegalActionError(why, self.game.rule_clauses(rule))
        r.go(d, value)


def _each_inner(node: Node) -> list[Node]:
    """The parts' collections and the conditions of every ``each`` inside ``node``."""
    out: list[Node] = []
    if node.op == "each":
        out.extend(node.args)
    for a in node.args:
        out.extend(_each_inner(a))
    return out
