"""What an obligation states, in words, for ``palast prove --explain NAME``.

:func:`statement_words` is the one place the words come from: today the obligation's own
statement and the statements and clauses of the invariants it establishes
(``spec/invariants.yaml``); once invariants are expressions of the rule language the
words are to be generated from those declarations here, and every reader of this module
changes with it. :func:`explain` adds the lemmas the obligation rests on, its result and
its scenario file.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, Protocol

from palast.errors import InputError
from palast.lang.syntax import parse, show
from palast.spec.load import Spec
from proofs.obligation import Obligation, rests_on


class Result(Protocol):
    """What :func:`explain` reads of a run's line (:class:`proofs.runner.Line`; the runner
    imports every proofs module, so this one does not import it)."""

    result: str
    expected: str
    seconds: float
    detail: str
    files: tuple[str, ...]
    passed: bool


def find(obligations: Sequence[Obligation], name: str) -> list[Obligation]:
    """The obligations called ``name`` (one per ruleset it is stated for).

    :raises InputError: when there is none, listing the closest names (option ``--explain``).
    """
    found = [ob for ob in obligations if ob.name == name]
    if not found:
        names = sorted({ob.name for ob in obligations})
        close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(names)}"
        raise InputError(f"no obligation {name!r}{hint} (palast prove --list lists them)", None, "--explain")
    return found


def statement_words(spec: Spec, ob: Obligation) -> list[str]:
    """What ``ob`` states, as sentences: its statement, then for each invariant it
    establishes the invariant's statement with its clause ids and, where the invariant is
    declared in the rule language, the declaration the proof compiles to Z3 (its named
    parts, its expression and its lemmas); for an obligation named after a lemma
    (decisions-well-formed, deck-reserve), that lemma's statement and declaration; for a
    reachability question, its declared answer and the rules it asks about."""
    statement = ob.statement[:1].upper() + ob.statement[1:]
    words = [statement if statement.endswith(("?", ".")) else statement + "."]
    asked = spec.reachability.get(ob.name)
    if asked is not None:  # a reachability question: its answer as declared, and the rules asked about
        under = ", ".join(asked.asked_under(r for r in spec.rulesets if r not in spec.house_rulesets))
        words.append(f"Declared answer ({asked.expect} under {under}): {asked.statement} "
                     f"[{', '.join(asked.clauses)}]")
        if asked.fires:
            words.append(f"  the rules asked about: {', '.join(asked.fires)}")
        if asked.reaches is not None:
            words.append(f"  the position asked about (spec/invariants.yaml): {show(parse(asked.reaches))}")
        for w in asked.witnesses:
            words.append(f"  stored game for {', '.join(w.rulesets)}: proofs/witnesses/{w.file}")
    for inv_id in ob.invariants:
        inv = spec.invariants.get(inv_id)
        if inv is not None:
            words.append(f"Invariant {inv.id} ({inv.kind}): {inv.statement} [{', '.join(inv.clauses)}]")
            if inv.holds is not None:
                words += [f"  where {name} = {show(parse(text))}" for name, text in inv.let.items()]
                block = inv.readings
                if block:
                    from proofs.house_rulesets import spec_of  # a named house ruleset's spec resolves it

                    branch = spec_of(spec, ob.ruleset).reading(ob.ruleset, block["point"])
                    words += [f"  where {name} = {show(parse(text))} (as {ob.ruleset} reads {block['point']}: "
                              f"{branch})" for name, text in block[branch]["let"].items()]
                words.append(f"  declared (spec/invariants.yaml): {show(parse(inv.holds))}")
            for lem in inv.lemmas:
                words.append(f"  lemma {lem.id}: {lem.statement} Declared: {show(parse(lem.holds))}"
                             + _colours(lem))
    for inv in spec.invariants.values():  # an obligation proving a lemma of its own name
        if inv.id in ob.invariants:
            continue
        for lem in inv.lemmas:
            if lem.id == ob.name:
                words.append(f"Lemma {lem.id} of invariant {inv.id}: {lem.statement}")
                words.append(f"  declared (spec/invariants.yaml): {show(parse(lem.holds))}" + _colours(lem))
    return words


def _colours(lem: Any) -> str:
    """A lemma's ``colours`` part in words, as a sentence to append ('' when it has none)."""
    if lem.colours is None:
        return ""
    return f" About colours (proved at the card level, by {lem.id}.colours): {show(parse(lem.colours))}"


def lemmas(obligations: Sequence[Obligation], ob: Obligation) -> list[tuple[str, str]]:
    """The obligations ``ob`` assumes (its strengthening or the no-such-state results it
    rests on), each with its statement; ``ob`` itself is left out (mutual induction)."""
    by_name = {o.name: o for o in obligations if o.ruleset == ob.ruleset}
    return [(n, by_name[n].statement) for n in ob.needs if n != ob.name and n in by_name]


def lemmas_through(obligations: Sequence[Obligation], ob: Obligation) -> list[tuple[str, str]]:
    """What ``ob`` assumes only through the obligations :func:`lemmas` lists (what those
    assume, and so on; :func:`proofs.obligation.rests_on`), each with its statement, in
    the order of ``obligations``."""
    direct = set(ob.needs)
    return [(o.name, o.statement) for o in rests_on(obligations, ob) if o.name not in direct]


def explain(spec: Spec, obligations: Sequence[Obligation], ob: Obligation, line: Result | None) -> list[str]:
    """The text of ``palast prove --explain`` for ``ob`` under its ruleset.

    :param line: its result when it was run, else None.
    """
    out = [f"{ob.name} under {ob.ruleset} (family {ob.family}), expects {ob.expect}"]
    if ob.because:
        out.append(f"  expects it because {ob.because}")
    out.append("  states:")
    out += [f"    {w}" for w in statement_words(spec, ob)]
    used = lemmas(obligations, ob)
    if used:
        out.append("  assumes (proved by the obligations of the same name; it counts only if they pass):")
        out += [f"    {n}: {st}" for n, st in used]
        further = lemmas_through(obligations, ob)
        if further:
            out.append("  and through those (their own assumptions; it counts only if these pass too):")
            out += [f"    {n}: {st}" for n, st in further]
    elif ob.needs:
        out.append("  assumes: " + ", ".join(ob.needs))
    if line is not None:
        verdict = "passed" if line.passed else f"FAILED (expected {line.expected})"
        out.append(f"  result: {line.result} in {line.seconds:.2f} s, {verdict}")
        out.append(f"    {line.detail}")
        for f in line.files:
            kind = "counterexample" if line.result == "counterexample" else "witness"
            out.append(f"  {kind} scenario: {f}")
    return out
