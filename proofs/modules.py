"""Obligations of the rule modules (``spec/modules/``): every invariant a module declares
broken (``breaks``) is shown broken by the engine, by replaying the ruling the module names
for it.

The proofs' Z3 model compiles a module's rules like the base game's (where they read a
role's colours, the role level tells that role's cards apart by colour: fan's Jesters), and
a named house ruleset that switches the module on lists what is
proved with it (``prove`` in spec/rulesets.yaml: the differential check under ``fan``);
what this family checks is that each declared break is real: under a ruleset that
switches the module on, the ruling's position and action (played without check mode)
make the invariant false after the action (for a step invariant: about that action) while
it held before. A declared break that the witness does not show fails (``no-such-state``),
so a module cannot excuse an invariant it does not break. :func:`not_proved` lists the
invariants a module leaves standing, which ``palast prove`` reports as not proved with it.
"""

from __future__ import annotations

from functools import partial

from palast.engine import Game
from palast.errors import IllegalActionError, InputError
from palast.formats.house import resolve
from palast.formats.notation import parse_action
from palast.invariants.declared import failure
from palast.query.ruling_files import load_ruling, rulings_dir
from palast.spec.load import Spec
from palast.spec.modules import Module
from proofs.obligation import Obligation, Options, Outcome

FAMILY = "modules"
#: The prefix of this family's obligation names: ``module:MODULE:INVARIANT``.
PREFIX = "module:"


def rulesets_of(spec: Spec, m: Module) -> list[str]:
    """The rulesets that switch module ``m`` on and under which its checks run: those of the
    spec's rulesets that read its switch point as its switch reading (a ruleset derived
    from a named house ruleset by house rules given on the command line included), else the
    first named house ruleset whose readings do; empty when no ruleset does."""
    own = [rs for rs in spec.rulesets if spec.reading(rs, m.point) == m.reading]
    if own:
        return own
    for hid, entry in spec.house_rulesets.items():
        if dict(entry.get("readings") or {}).get(m.point) == m.reading:
            return [hid]
    return []


def ruleset_of(spec: Spec, m: Module) -> str | None:
    """The first of :func:`rulesets_of`, or ``None``."""
    return next(iter(rulesets_of(spec, m)), None)


def check_break(spec: Spec, module: str, invariant: str, ruleset: str | None = None) -> Outcome:
    """Replay the witness ruling of ``module``'s break of ``invariant`` under ``ruleset``
    (default: the first that switches the module on, :func:`ruleset_of`).

    :returns: ``counterexample`` when the invariant held before the ruling's action and is
        false after it; ``no-such-state`` when the witness does not break it; ``error`` when
        the ruleset does not switch the module on (or none does) or the witness cannot be
        replayed.
    """
    m = spec.modules[module]
    b = next(x for x in m.breaks if x.invariant == invariant)
    ruleset = ruleset if ruleset is not None else ruleset_of(spec, m)
    if ruleset is None or not rulesets_of(spec, m):
        return Outcome("error", f"no ruleset reads {m.point} as {m.reading}, so module {module} is never in play")
    if ruleset not in rulesets_of(spec, m):
        return Outcome("error", f"{ruleset} does not read {m.point} as {m.reading}, so module {module} is not in "
                                "play there")
    rel = f"spec/rulings/{b.witness}.yaml"
    try:
        rspec = resolve(spec, ruleset, None)
        ruling = load_ruling(rulings_dir(spec) / f"{b.witness}.yaml", rspec)
        if ruling.action is None:
            return Outcome("error", f"{rel} asks about no action")
        game = Game(rspec, ruleset, ruling.scenario.players)
        before, _ = ruling.scenario.position(game)
        after = game.apply(before, parse_action(game, ruling.action)).state
    except (InputError, IllegalActionError) as exc:
        return Outcome("error", f"{rel} cannot be replayed under {ruleset}: {exc}", (rel,))
    step = spec.invariants[invariant].kind == "step"
    if step:
        why = failure(game, invariant, after, before)
        held = True
    else:
        why = failure(game, invariant, after)
        held = failure(game, invariant, before) is None
    if why is None or not held:
        said = "holds after" if why is None else "is false already before"
        return Outcome("no-such-state", f"{invariant} {said} {ruling.action} in {rel} under {ruleset}: the module's "
                                        "declared break is not shown", (rel,))
    return Outcome("counterexample", f"under {ruleset}, {ruling.action} in {rel}: {why}", (rel,))


def not_proved(spec: Spec, m: Module, ruleset: str | None = None) -> list[str]:
    """The invariants module ``m`` does not declare broken and that the prove list of
    ``ruleset`` (default: the first switching the module on, :func:`ruleset_of`; a named
    house ruleset's ``prove``, or the one a ruleset derived from it takes) does not expect
    proved, neither by their own name nor by an obligation that establishes them
    (``established_by.proved_by``: round-actions-bounded proves turn-is-bounded): they may
    hold with the module, but nothing proves them with it."""
    from palast.invariants.declared import established
    from proofs.obligation import house_prove_lists

    broken = {b.invariant for b in m.breaks}
    listed = house_prove_lists(spec).get((ruleset if ruleset is not None else ruleset_of(spec, m)) or "", {})
    proved = established(spec, {name for name, result in listed.items() if result == "proved"})
    return [i for i in spec.invariants if i not in broken and i not in proved]


def obligations(spec: Spec) -> list[Obligation]:
    """One obligation per invariant each module declares broken, under each ruleset that
    switches the module on (:func:`rulesets_of`; or the default ruleset, where none does:
    the obligation then ends in ``error``)."""
    out: list[Obligation] = []
    for m in spec.modules.values():
        for ruleset in rulesets_of(spec, m) or [spec.default_ruleset]:
            for b in m.breaks:
                out.append(Obligation(
                    f"{PREFIX}{m.id}:{b.invariant}", ruleset, "counterexample",
                    f"with module {m.id} in play, {b.invariant} does not hold: the ruling {b.witness} breaks it",
                    partial(_run, module=m.id, invariant=b.invariant, ruleset=ruleset), FAMILY, (), cost=0.1))
    return out


def _run(spec: Spec, opts: Options, module: str, invariant: str, ruleset: str) -> Outcome:
    return check_break(spec, module, invariant, ruleset)
