"""Checking the rules declared with statements (``palast spec check``): each block's names,
kinds, places, decisions, events and steps, what a decision keeps for the statements after
it, exceptions and their order, each reported at its file, key path and column."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from palast.lang.blocks import (
    EFFECT_STEPS,
    ROLE_STEP,
    DoRule,
    Program,
    _declared,
    _order,
    each_of,
    infer_or_any,
    parse_rule,
)
from palast.lang.compiler import check
from palast.lang.kinds import infer
from palast.lang.primitives import ELEMENT
from palast.lang.statements import (
    CHANGES,
    DECKS,
    DO_STEPS,
    EMIT_FIELDS,
    FINAL,
    KEEP,
    TARGETS,
    StatementError,
    Stmt,
    Zone,
    expressions,
    placeholders,
    waits_for,
    walk,
)
from palast.lang.syntax import ExpressionError, Node, each_parts, parse


# ---------------------------------------------------------------------------- checking
@dataclass
class _Ctx:
    """What checking one block needs: the spec's names and where the block is."""

    spec: Any
    program: Program
    decisions: frozenset[str]
    events: frozenset[str]
    roles: Mapping[str, str]
    effect_rules: Mapping[str, str]  # rule id -> its step, for effect-style rules
    out: list[tuple[str, tuple[str | int, ...], str, int | None]]
    file: str = ""
    base: tuple[str | int, ...] = ()
    #: the let values of the rules applied, by name (an each-let's parts are bound by a choose)
    lets: dict[str, Node] = field(default_factory=dict)

    def report(self, path: tuple[str | int, ...], msg: str, column: int | None = None) -> None:
        self.out.append((self.file, (*self.base, *path), msg, column))


def _kind(ctx: _Ctx, node: Node, env: Mapping[str, str], path: tuple[str | int, ...], want: str | None,
          what: str, *, column: bool = True) -> str:
    """The kind of ``node`` in ``env``; reports (and returns ``any``) where it is wrong, at
    the place of the problem inside the text at ``path`` unless ``column`` is false (an
    expression written in a key, not in the value at ``path``)."""
    try:
        check(node, set(env) | set(ctx.roles))
        got = infer(node, env, ctx.roles)
    except ExpressionError as exc:
        where = "" if column else f" in {path[-1]}"
        ctx.report(path, f"{exc} (column {exc.column} of the expression{where})", exc.column if column else None)
        return "any"
    if want is not None and got not in (want, "any") and not (want == "cards|card" and got in ("cards", "card")):
        ctx.report(path, f"{what} must be {want.replace('|', ' or ')}, not {got}")
    return got


def _check_place(ctx: _Ctx, place: Zone, env: Mapping[str, str], path: tuple[str | int, ...]) -> None:
    if place.seat is not None:
        _kind(ctx, place.seat, env, path, "seat", "the player of a place")


def _check_block(ctx: _Ctx, block: Sequence[Stmt], env: dict[str, str], rule: DoRule,
                 parts: Mapping[str, tuple[Stmt, ...]], may_wait: bool, gone: set[str] | None = None) -> bool:
    """Check the statements of ``block`` in order; ``env`` grows with the names they bind.
    Names do not live past a ``step`` of a step declared with statements: ``gone`` collects
    them, and reading one later is reported.

    :returns: whether the block applies such a step (so names are gone after it).
    """
    env = dict(env)
    gone = set() if gone is None else gone
    stepped = False
    for i, s in enumerate(block):
        p = s.path
        if gone:
            read = set()
            for _, node in expressions(s):
                read |= _names(node)
            for name in sorted(read & gone):
                ctx.report(p, f"{name!r} was named before a step that this statement follows; names do not live "
                              "past a step (name it again after the step)")
        if s.head in FINAL and i < len(block) - 1:
            ctx.report(block[i + 1].path, f"nothing after {s.head} is carried out: this statement is never reached")
        if s.head == "emit":
            if s.arg not in ctx.events:
                ctx.report((*p, "emit"), f"unknown event {s.arg!r} (declare it in visibility.yaml effects)")
            for key, node in s.keys.items():
                _kind(ctx, node, env, (*p, key), EMIT_FIELDS[key], f"the event's {key}")
        elif s.head == "move":
            _kind(ctx, s.arg, env, (*p, "move"), None, "what is moved")
            for key in ("from", "to"):
                if key in s.keys:
                    _check_place(ctx, s.keys[key], env, (*p, key))
        elif (waited_for := waits_for(s)) is not None:
            if waited_for not in ctx.decisions:
                ctx.report((*p, "decision" if s.head != "choose" else "choose"), f"unknown decision {waited_for!r} "
                           "(declare it in flow.yaml or in the role's choices)")
            if not may_wait:
                ctx.report((*p, s.head), f"a rule of step {rule.step} runs to its end at once: it cannot wait for "
                           "a decision")
            if s.head == "deal":
                _kind(ctx, s.arg, env, (*p, "deal"), "int", "the cards dealt to each player")
                _answers(ctx, waited_for, "deal", (*p, "decision"), by_chance=True, what="a deal")
            elif s.head == "draw":
                if "to" in s.keys:
                    _check_place(ctx, s.keys["to"], env, (*p, "to"))
                _kind(ctx, s.keys["by"], env, (*p, "by"), "seat", "who draws")
                if "as" in s.keys:
                    env[s.keys["as"]] = DECKS[s.arg]
                _answers(ctx, waited_for, DECKS.get(str(s.arg), "any"), (*p, "decision"), by_chance=True,
                         what="a draw")
            else:
                _kind(ctx, s.keys["by"], env, (*p, "by"), "seat", "who decides")
                got = _kind(ctx, s.keys["options"], env, (*p, "options"), None, "")
                if got not in ELEMENT and got != "any":
                    ctx.report((*p, "options"), f"the options must be a collection, not {got}")
                env[s.keys["as"]] = ELEMENT.get(got, "any")
                by = s.keys["by"]
                nobody = by.op == "name" and by.value == "nobody"
                _answers(ctx, waited_for, ELEMENT.get(got, "any"), (*p, "choose"), by_chance=nobody,
                         what="a choose taken by nobody" if nobody else "this choose")
                each = each_of(s.keys["options"], ctx.lets)
                if each is not None:
                    inner = dict(env)
                    for pname, node in each_parts(each):
                        inner[pname] = ELEMENT.get(infer_or_any(node, inner, ctx.roles), "any")
                    for text in [*each.value.part_else, *each.value.where_else]:  # type: ignore[attr-defined]
                        for expr in placeholders(text or ""):
                            _kind(ctx, parse(expr), inner, (*p, "options"), None, "")
                    env.update({k: v for k, v in inner.items() if k not in env})
                for slot, node in s.keys["keep"].items():
                    _kind(ctx, node, env, (*p, "keep", slot), KEEP[slot], f"the decision's {slot}")
        elif s.head == "shuffle":
            for j, pl in enumerate(s.arg):
                _check_place(ctx, pl, env, (*p, "shuffle", j))
        elif s.head == "if":
            _kind(ctx, s.arg, env, (*p, "if"), "bool", "the condition")
            for key in ("then", "else"):
                if _check_block(ctx, s.blocks[key], env, rule, parts, may_wait, set(gone)):
                    stepped = True
        elif s.head == "readings":
            vp = ctx.spec.variation_points.get(s.arg)
            if vp is None:
                ctx.report((*p, "readings"), f"unknown variation point {s.arg!r}")
            else:
                known = {r.id for r in vp.readings}
                for reading in s.blocks:
                    if reading not in known:
                        ctx.report((*p, reading), f"{vp.id} has no reading {reading!r}")
                for reading in sorted(known - set(s.blocks)):
                    ctx.report(p, f"no statements for reading {reading!r} of {vp.id}: every reading needs them")
            for body in s.blocks.values():
                if _check_block(ctx, body, env, rule, parts, may_wait, set(gone)):
                    stepped = True
        elif s.head == "set":
            for target in s.arg:
                at = (*p, "set", target.written)
                if target.seat is not None:  # inside the key: reported at its value, naming the key
                    _kind(ctx, target.seat, env, at, "seat", f"the player of {target.written}", column=False)
                _kind(ctx, target.value, env, at, TARGETS[target.name][1], f"the value of {target.written}")
        elif s.head in ("step", "every"):
            if s.arg not in ctx.program.steps and s.arg not in EFFECT_STEPS:
                ctx.report((*p, s.head), f"unknown step {s.arg!r}")
            if s.head == "every" and DO_STEPS.get(s.arg, False):
                ctx.report((*p, s.head), f"every applies each rule of a step that cannot wait; {s.arg} can")
            if s.head == "step" and s.arg in DO_STEPS:
                stepped = True
        elif s.head == "part":
            if s.arg not in parts:
                ctx.report((*p, "part"), f"the rule has no part {s.arg!r} (its parts: {', '.join(parts) or 'none'})")
        elif s.head == "deal" and "cards_of" in s.keys:
            if s.keys["cards_of"] not in ctx.program.rules:
                ctx.report((*p, "cards_of"), f"{s.keys['cards_of']!r} is no rule with statements")
        elif s.head == "end_round":
            if ctx.effect_rules.get(s.arg) != "round-end":
                ctx.report((*p, "end_round"), f"{s.arg!r} is no rule of step round-end")
        elif s.head == "turn":
            _kind(ctx, s.arg, env, (*p, "turn"), "seat", "who takes the next turn")
        if stepped:
            gone |= set(env)
    return stepped


def _restorable(ctx: _Ctx, rule: DoRule, block: Sequence[Stmt], lets: Sequence[str]) -> None:
    """Report a name read after a decision that cannot be restored when play resumes there:
    a name bound by a decision must be kept in the decision (``by`` or ``keep``), and a
    ``let`` value read after a decision must not follow a statement that changes the
    position (it is computed again when play resumes)."""
    bound: dict[str, bool] = {}   # name -> restorable at the latest decision
    changed = False
    waited = False
    for s in walk(list(block)):
        if waited:
            used = set()
            for _, node in expressions(s):
                used |= _names(node)
            for name in sorted(used):
                if name in bound and not bound[name]:
                    ctx.report(s.path, f"{name!r} is read after a later decision but that decision does not keep it "
                                       "(keep it in the decision: by or keep)")
                elif name in lets and changed:
                    ctx.report(s.path, f"{name!r} is read after a decision that follows a change of the position; "
                                       "it would be computed again from the changed position")
        if waits_for(s) is not None:
            if waited or changed:
                kept = set()
                by = s.keys.get("by")
                if isinstance(by, Node) and by.op == "name":
                    kept.add(str(by.value))
                for node in (s.keys.get("keep") or {}).values():
                    if node.op == "name":
                        kept.add(str(node.value))
                bound = {n: (n in kept) for n in bound}
            waited = True
            if "as" in s.keys:
                bound[s.keys["as"]] = True
        if s.head in CHANGES:
            changed = True


def _names(node: Node) -> set[str]:
    out = {str(node.value)} if node.op == "name" else set()
    for a in node.args:
        out |= _names(a)
    return out


#: The answers (spec/flow.yaml ``answer``) a decision may declare, by the kind of value the
#: statement that waits for it resumes with: an option's kind, a deck's card, or a deal.
ANSWERS_OF_KIND: Mapping[str, tuple[str, ...]] = {
    "card": ("card", "card-or-none"), "seat": ("seat",), "int": ("number",), "role": ("king-card",),
    "cards": ("cards",), "tuple": ("two-display-cards",), "colours": ("colours",), "deal": ("deal",),
}


#: The kinds of value a statement may wait for, in words (for messages).
KIND_WORDS: Mapping[str, str] = {
    "card": "a card", "seat": "a player", "int": "a number", "role": "a King card (a role)", "cards": "some cards",
    "tuple": "one value per part (an each)", "colours": "a colour per player", "colour": "a colour",
    "deal": "a deal",
}


def _answers(ctx: _Ctx, name: str, kind: str, where: tuple[str | int, ...], *, by_chance: bool, what: str) -> None:
    """Report where the declared decision ``name`` does not fit the statement waiting for
    it (``what``, in words): its ``answer`` is not one the statement's values (of ``kind``)
    can give, or it is declared ``by: chance`` where the statement is not taken by chance
    (``by_chance``: a draw or a deal is, a choose is where it is taken by ``nobody``), or
    the other way round."""
    d = ctx.spec.flow.decisions.get(name)
    if d is None:
        return
    fits = ANSWERS_OF_KIND.get(kind, ())
    if d.answer and d.answer not in fits and kind != "any":
        advice = f"declare answer {' or '.join(repr(f) for f in fits)}" if fits else "no answer gives one"
        ctx.report(where, f"decision {name!r} is declared ({d.place[0]}) with answer {d.answer!r}, but the value "
                          f"this statement waits for is {KIND_WORDS.get(kind, kind)}: {advice}")
    if (d.by == "chance") != by_chance:
        if by_chance:
            ctx.report(where, f"decision {name!r} is declared ({d.place[0]}) by {d.by!r}, but {what} is taken by "
                              "chance: declare it by: chance")
        else:
            ctx.report(where, f"decision {name!r} is declared ({d.place[0]}) by: chance, but {what} is taken by a "
                              "player: declare who decides (by: actor or partner)")


def problems(spec: Any, decisions: frozenset[str], events: frozenset[str],
             effect_rules: Mapping[str, str]) -> list[tuple[str, tuple[str | int, ...], str, int | None]]:
    """Check every do-style logic block of ``spec``.

    :param decisions: the declared decision names; :param events: the event kinds;
        :param effect_rules: the rules declared with effect keys -> their steps.
    :returns: ``(file, key path, message, column of the place in an expression's text or
        None)`` per problem.
    """
    out: list[tuple[str, tuple[str | int, ...], str, int | None]] = []
    rules: dict[str, DoRule] = {}
    for rid, raw, file, path, role in _declared(spec):
        try:
            rules[rid] = parse_rule(rid, raw, file, path, role)
        except StatementError as exc:
            out.append((file, (*path, *exc.path),
                        f"{exc}" + (f" (column {exc.column} of the expression)" if exc.column > 1 else ""),
                        exc.column if exc.column > 1 else None))
    prog = Program(rules, {})
    for r in rules.values():
        if r.exception_of is None:
            prog.steps.setdefault(r.step, []).append(r)
        elif r.exception_of in rules:
            rules[r.exception_of].exceptions.append(r)
    roles = {**dict.fromkeys(spec.roles, "role"),
             **dict.fromkeys((*spec.player_colours, spec.neutral_colour), "colour")}
    ctx = _Ctx(spec, prog, decisions, events, roles, effect_rules, out)
    for r in rules.values():
        ctx.file, ctx.base = r.file, r.path
        if r.exception_of is not None:
            base = rules.get(r.exception_of)
            if base is None or base.step != r.step:
                ctx.report(("exception_of",), f"{r.exception_of!r} is no rule with statements of step {r.step}")
                continue
        kids = [x for x in rules.values() if x.exception_of == r.rule]
        _, stuck = _order(kids)
        if len(stuck) == 1:
            ctx.report(("step",), f"the exception {stuck[0].rule} of {r.rule} is placed after itself (its "
                                  "after or before names it)")
        elif stuck:
            ctx.report(("step",), f"the exceptions {', '.join(x.rule for x in stuck)} of {r.rule} each come "
                                  "after another of them (their after and before form a cycle)")
        siblings = {x.rule for x in rules.values() if x.exception_of == r.exception_of and x is not r}
        for key, names in (("after", r.after), ("before", r.before)):
            for a in names:
                if a not in siblings:
                    ctx.report((key,), f"{a!r} is no other exception of {r.exception_of}")
        if r.exception_of is None and r.do is None:
            ctx.report(("step",), "a rule that bends no other needs do: its statements")
        if r.step == ROLE_STEP and r.exception_of is None and r.role is None:
            ctx.report(("step",), f"a rule of step {ROLE_STEP} is declared under its role in roles.yaml")
        # the names in scope: the chain of rules this one bends, then its own
        chain: list[DoRule] = []
        x: DoRule | None = r
        while x is not None:
            if x in chain:
                ctx.report(("exception_of",), "the rules bent by exception_of lead back to "
                                              f"{x.rule}: " + " -> ".join(y.rule for y in reversed(chain)))
                break
            chain.insert(0, x)
            x = rules.get(x.exception_of) if x.exception_of else None
        env: dict[str, str] = {}
        parts: dict[str, tuple[Stmt, ...]] = {}
        ctx.lets = {}
        for link in chain:
            ctx.lets.update(dict(link.lets))
            for rb in link.readings:
                for br in rb.branches.values():
                    ctx.lets.update(dict(br.lets))
            own = link is r
            if link.when is not None:
                ctx.base = link.path
                if own:
                    _kind(ctx, link.when, env, ("when",), "bool", "when")
            for rb in link.readings:
                vp = spec.variation_points.get(rb.point)
                if own:
                    if vp is None:
                        ctx.report((*rb.path, "point"), f"unknown variation point {rb.point!r}")
                    else:
                        known = {x.id for x in vp.readings}
                        for reading in rb.branches:
                            if reading not in known:
                                ctx.report((*rb.path, reading), f"{vp.id} has no reading {reading!r} (its readings: "
                                                                 f"{', '.join(sorted(known)) or 'none'})")
                        missing = sorted(known - set(rb.branches))
                        if missing:
                            ctx.report(rb.path, f"gives nothing for reading(s) {', '.join(missing)} of {vp.id}: "
                                                "every reading of the point needs a branch")
                        if vp.id not in spec.rules[link.rule].variation_points:
                            ctx.report((*rb.path, "point"), f"{vp.id} is not among the variation points the rule "
                                                            f"{link.rule} names (variation_points)")
                given: dict[str, str] = {}
                for reading, br in rb.branches.items():
                    scope = dict(env)
                    for name, node in br.lets:
                        got = _kind(ctx, node, scope, (*rb.path, reading, "let", name), None, "")
                        if own and name in given and given[name] not in (got, "any") and got != "any":
                            ctx.report((*rb.path, reading, "let", name), f"{name} is {given[name]} under another "
                                                                          f"reading, not {got}")
                        given.setdefault(name, got)
                        scope[name] = got
                    if br.when is not None:
                        _kind(ctx, br.when, scope, (*rb.path, reading, "when"), "bool", "a reading's condition")
                env.update(given)
            for name, node in link.lets:
                got = _kind(ctx, node, env, ("let", name), None, "") if own else infer_or_any(node, env, roles)
                if name in env and env[name] not in (got, "any") and got != "any" and own:
                    ctx.report(("let", name), f"{name} is {env[name]} in the rule it bends, not {got}")
                env[name] = got
            parts.update(link.parts)
            for rb in link.readings:
                for br in rb.branches.values():
                    parts.update({k: v for k, v in br.parts.items() if k not in parts})
        may_wait = DO_STEPS.get(r.step, False)
        blocks: list[tuple[Sequence[Stmt], tuple[str | int, ...]]] = []
        if r.do is not None:
            blocks.append((r.do, ()))
        blocks.extend((body, ()) for body in r.parts.values())
        for rb in r.readings:
            for br in rb.branches.values():
                if br.do is not None:
                    blocks.append((br.do, ()))
                blocks.extend((body, ()) for body in br.parts.values())
        ctx.base = r.path
        for body, _ in blocks:
            _check_block(ctx, body, env, r, parts, may_wait)
            _restorable(ctx, r, body, list(env))
    return out
