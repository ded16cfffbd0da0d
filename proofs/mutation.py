"""Would the differential check notice an encoding that reads a variation point wrongly?

For a ruleset, every engine parameter (``palast/engine/params.py``) and every other value
it could take (another reading the engine implements, or ``open``), a *mutant* is the
card-level encoding built as if the ruleset read the parameter that way. Each mutant is
compared with the engine of the true ruleset at the differential check's positions
(:func:`proofs.differential.positions`: random play and the stored witnesses) until the
first disagreement. A mutant no position exposes is a reading the check could not tell
from the right one, so a missing or wrong encoding of it would go unnoticed, unless only
rules that never fire in a game from a real deal read its point
(:func:`unreached_parameters`, from the reachability questions of spec/invariants.yaml and
the rules' readings blocks).
No mutant is excused by a list in code.

This is a diagnosis, not an obligation (it takes about five minutes per ruleset)::

    python -m proofs.mutation [--ruleset R ...] [--parameter P ...]

prints one line per mutant and exits 1 if a mutant that should be exposed is not.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from palast.engine import Game
from palast.engine.params import GAP, Setting
from palast.lang.logic import parameter_table
from palast.spec.load import Spec, load_spec
from proofs.differential import Differ, Position, compare_all, positions
from proofs.invariant import make_game


def unreached_parameters(spec: Spec, ruleset: str) -> dict[str, str]:
    """The engine parameters whose variation point only rules that never fire in a game
    from a real deal read, under ``ruleset``: those the reachability questions of
    spec/invariants.yaml that must end in no-such-state there name
    (:func:`proofs.reachability.never_reached`), and those that do not apply under it
    (:func:`palast.lang.blocks.withdrawn`: a rule module it leaves off). A mutant of such a
    parameter cannot be exposed by any position of real play, and need not be.

    :returns: parameter -> why its mutants need not be exposed.
    """
    from palast.lang.blocks import withdrawn
    from proofs.reachability import never_reached

    asked = {rule: q for q, rules in never_reached(spec, ruleset).items() for rule in rules}
    left_off = withdrawn(spec, ruleset)  # rule -> "POINT: READING" that withdraws it
    out: dict[str, str] = {}
    for vp in spec.variation_points.values():
        readers = [r.id for r in spec.rules.values() if vp.id in r.variation_points]
        # a rule the point's own reading withdraws is not gone for a mutant of that point
        gone = {r: why for r, why in left_off.items() if not why.startswith(f"{vp.id}: ")}
        if vp.parameter and readers and all(r in asked or r in gone for r in readers):
            why = []
            if any(r in asked for r in readers):
                obligations = ", ".join(sorted({asked[r] for r in readers if r in asked}))
                why.append(f"never reached from a real deal (obligation {obligations})")
            if any(r in gone for r in readers):
                why.append(f"read only by rules that do not apply under {ruleset} "
                           f"({', '.join(sorted({gone[r] for r in readers if r in gone}))})")
            out[vp.parameter] = "; ".join(why)
    return out


@dataclass(frozen=True)
class Mutant:
    """An encoding of ``ruleset`` that reads ``parameter`` as ``value``."""

    ruleset: str
    parameter: str
    value: str

    def excuse(self, spec: Spec) -> str | None:
        """Why the differential check need not expose this mutant (None: it must)."""
        return unreached_parameters(spec, self.ruleset).get(self.parameter)


def mutants(spec: Spec, ruleset: str, parameters: Sequence[str] = ()) -> list[Mutant]:
    """Every mutant of ``ruleset`` (of ``parameters`` only, when given)."""
    game = make_game(spec, ruleset, spec.min_players)
    table = parameter_table(spec)
    read = [vp.parameter for vp in spec.variation_points.values() if vp.parameter]
    out = []
    for par in parameters or read:
        actual = game.params[par].value
        out += [Mutant(ruleset, par, v) for v in sorted((set(table[par][1]) | {GAP}) - {actual})]
    return out


def encoder(spec: Spec, mutant: Mutant) -> Callable[[Game], Differ]:
    """Builds, for a game of the mutant's ruleset, the mutant's encoding compared with
    that game's engine."""
    def encode(game: Game) -> Differ:
        wrong = Game(spec, game.ruleset, [game.colour_name(p) for p in range(game.n)], check=False)
        point = game.params[mutant.parameter].point
        wrong.params = {**game.params, mutant.parameter: Setting(mutant.value, point)}
        differ = Differ(wrong)
        differ.game = game
        return differ

    return encode


def exposed(spec: Spec, mutant: Mutant, items: Sequence[Position]) -> str | None:
    """The first disagreement of the mutant with the engine at ``items``, or None."""
    out = compare_all(spec, items, encoder(spec, mutant))
    return out.detail if out.result == "counterexample" else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the mutants; :returns: 1 if one that should be exposed is not, else 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    ap.add_argument("--parameter", action="append", default=[], help="only this engine parameter (repeatable)")
    args = ap.parse_args(argv)
    spec = load_spec()
    unexpected = 0
    for ruleset in args.ruleset or spec.rulesets:
        items = list(positions(spec, ruleset))
        # stored witnesses first: they were searched for the positions where readings matter
        items.sort(key=lambda item: item[0] == "random play")
        for mutant in mutants(spec, ruleset, args.parameter):
            start = time.perf_counter()
            found = exposed(spec, mutant, items)
            if found:
                verdict = f"exposed: {found}"
            elif mutant.excuse(spec):
                verdict = f"not exposed ({mutant.excuse(spec)})"
            else:
                verdict = "NOT EXPOSED"
                unexpected += 1
            print(f"{ruleset:10} {mutant.parameter:26} as {mutant.value:22} {time.perf_counter() - start:6.1f}s  "
                  f"{verdict[:160]}", flush=True)
    print(f"{unexpected} mutant(s) the differential check should expose but does not")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
