"""A chain of rules: the rules a step applies (a rule and the exceptions of it that apply,
each with the readings it took), and what its statements need to know of it: the names it
gives, which rule an event cites, the names a decision keeps.
"""

from __future__ import annotations

from palast.lang.blocks import DoRule
from palast.lang.primitives import PRIMITIVES
from palast.lang.statements import Stmt, expressions
from palast.lang.syntax import Node, names

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


def kept_names(s: Stmt, *, position_names: bool = False) -> tuple[tuple[str, str], ...]:
    """The names a decision opened by ``s`` keeps: ``by`` when it is a name (in the
    decision's player) and each ``keep`` slot that is a name. A name the engine reads from
    the position (``actor``) is left out, unless ``position_names`` (the Z3 model, whose
    position need not say it, reads it from the decision, which holds it in every game)."""
    def kept(node: Node) -> bool:
        return node.op == "name" and (position_names or str(node.value) not in PRIMITIVES)

    out: list[tuple[str, str]] = []
    by = s.keys.get("by")
    if isinstance(by, Node) and kept(by):
        out.append((str(by.value), "player"))
    for slot, node in (s.keys.get("keep") or {}).items():
        if kept(node):
            out.append((str(node.value), slot))
    return tuple(out)


def effective(chain: Chain) -> tuple[tuple[Stmt, ...], str, dict[str, tuple[tuple[Stmt, ...], str]]]:
    """The statements ``chain`` carries out: the last ``do`` given (with the rule that
    declares it) and the last statements given for each part (with the rule that gives them)."""
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
