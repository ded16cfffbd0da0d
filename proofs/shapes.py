"""What the label of an action carries, read from the decision it answers as declared.

The proofs give an action's parameters as a :class:`~proofs.transition.Label` of Z3
integers. Which parts of it an action uses, and what they mean, is not written per
decision here: it follows from the value the declared statement that waits for the
decision offers (its ``options``, or for a ``draw`` the place it draws from, or a
``deal``), compiled on a symbolic position by :mod:`proofs.lang_z3`
(:meth:`~proofs.legality.Legality.declared_options`):

* one element of a collection (a card, a seat, a number of a range, a King card known by
  the role it bans): ``a[0]``; a card as its kind in the encoding;
* a pick of cards (``subsets``): ``vec``, the cards per kind;
* options built from parts (``each``): ``a[0]``, ``a[1]``, ... one per part, in the order
  the parts are declared (a card part as its kind);
* a deal: ``deal``, each hand per kind.

A decision no statement waits for under the ruleset (only a rule module opens it, or a
reading not taken) has the shape ``never``: no action answers it in the model.
:func:`proofs.legality.shapes` gives every decision's shape under a layout; the engine's
action for a label, and the label of an engine action, are in :mod:`proofs.concrete`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from palast.lang.primitives import ELEMENT
from proofs.z3_values import Coll, Picks, Span, Tuples

if TYPE_CHECKING:
    from proofs.encoding import ZState
    from proofs.legality import Legality

#: The forms of a label (see the module docstring).
FORMS = ("element", "cards", "tuple", "deal", "never")


@dataclass(frozen=True)
class Shape:
    """How a label carries the value an action of one decision chooses.

    :ivar form: one of :data:`FORMS`.
    :ivar parts: the kind of each value in ``a`` (``"card"``, ``"seat"``, ``"int"``,
        ``"role"``): one for an element, one per part for options built from parts.
    """

    form: str
    parts: tuple[str, ...] = ()

    @property
    def width(self) -> int:
        """How many of the label's numbers ``a`` the action uses."""
        return len(self.parts)

    @property
    def seats(self) -> tuple[int, ...]:
        """The positions in ``a`` that hold a seat."""
        return tuple(i for i, p in enumerate(self.parts) if p == "seat")


NEVER = Shape("never")


def shape_of(leg: Legality, kind: str, s: ZState) -> Shape:
    """The shape of the label of an action answering ``kind`` under ``leg``'s layout, from
    the value the statement waiting for it offers, compiled on the symbolic position ``s``
    of that layout (only the kinds of the values compiled matter, so one position serves
    every decision of a layout).

    :raises ValueError: for options of a kind no label carries (a range that is not of
        numbers, picks of something other than cards).
    """
    found = leg.sites(kind, any_step=True)
    if not found:
        return NEVER
    if found[0][1].stmt.head == "deal":
        return Shape("deal")
    seen = {_shape(leg.declared_options(s, kind, at=w), kind) for _, w in found}
    seen.discard(NEVER)
    if len(seen) > 1:
        raise ValueError(f"the statements waiting for {kind} offer values of different shapes")
    return seen.pop() if seen else NEVER


def _shape(got: Any, kind: str) -> Shape:
    """The shape of a label choosing among the compiled options ``got`` of ``kind``."""
    if got is None:
        return NEVER
    if isinstance(got, Span):
        return Shape("element", ("int",))
    if isinstance(got, Picks):
        if got.cards.kind != "cards":
            raise ValueError(f"the options of {kind} pick {got.cards.kind}, not cards")
        return Shape("cards")
    if isinstance(got, Tuples):
        if "any" in got.kinds:
            raise ValueError(f"the kind of a part of the options of {kind} is not known")
        return Shape("tuple", got.kinds)
    if isinstance(got, Coll) and got.kind in ELEMENT:
        return Shape("element", (ELEMENT[got.kind],))
    raise ValueError(f"the options of {kind} are not a collection, a range, picks or parts")
