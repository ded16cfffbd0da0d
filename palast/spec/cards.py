"""Cards, roles and colours, numbered as the spec lists them, and their notation.

A card is an ``int``: ``colour * len(roles) + role``, where roles and colours are numbered
in ``spec/game.yaml`` order and the neutral colour comes after the player colours. Two
neutral cards of the same role are the same ``int`` (they cannot be told apart in play).
The notation is ``role/colour``, e.g. ``maid/grey``; German role names and ``brown`` for
grey are accepted on input (README, "Scenario files").

**Case.** Names are written in lower case and read in any case (``Guard/Red`` is
``guard/red``), with spaces around them ignored and ``ä ö ü`` also read as ``ae oe ue``.
Everything palast reads names with goes through :class:`Cards` (scenario files, position
lines, actions, records, rulings, command-line options), so the rule holds everywhere;
:meth:`Cards.colour_id`, :meth:`Cards.card_id` and :meth:`Cards.role_id` give the written
form of a name for comparing names as text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NewType

from palast.errors import NotationError
from palast.spec.load import Spec

Card = NewType("Card", int)
"""A card: ``colour * role_count + role``."""


def _fold(text: str) -> str:
    return text.strip().lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")


@dataclass(frozen=True)
class Cards:
    """The card numbering and notation of one spec.

    :ivar roles: role ids in spec order.
    :ivar colours: player colour ids in spec order, then the neutral colour id.
    :ivar neutral: the neutral colour's index in :attr:`colours`.
    """

    roles: tuple[str, ...]
    colours: tuple[str, ...]
    neutral: int
    role_aliases: dict[str, str]
    colour_aliases: dict[str, str]
    per_colour: int
    neutral_per_role: int

    @classmethod
    def from_spec(cls, spec: Spec) -> Cards:
        """Build the numbering from ``spec`` (roles, colours, aliases, card counts)."""
        colours = spec.player_colours + (spec.neutral_colour,)
        role_aliases = {_fold(k): v for k, v in spec.role_aliases.items()}
        for r in spec.roles:
            role_aliases[_fold(spec.role_names[r]["german"])] = r
        return cls(spec.roles, colours, len(colours) - 1, role_aliases,
                   {_fold(k): v for k, v in spec.colour_aliases.items()},
                   spec.per_colour, spec.neutral_per_role)

    @property
    def role_count(self) -> int:
        """How many roles there are."""
        return len(self.roles)

    def card(self, role: int, colour: int) -> Card:
        """The card of role index ``role`` and colour index ``colour``."""
        return Card(colour * len(self.roles) + role)

    def role_of(self, card: int) -> int:
        """The role index of ``card``."""
        return card % len(self.roles)

    def colour_of(self, card: int) -> int:
        """The colour index of ``card``."""
        return card // len(self.roles)

    def is_neutral(self, card: int) -> bool:
        """True for a neutral (grey) card."""
        return card // len(self.roles) == self.neutral

    # -- notation -----------------------------------------------------------------
    def parse_role(self, text: str) -> int:
        """Read a role name (English id, alias or German name, any case).

        :returns: the role index.
        :raises NotationError: for an unknown name, suggesting the closest known one.
        """
        key = _fold(str(text))
        if key in self.role_aliases:
            return self.roles.index(self.role_aliases[key])
        raise NotationError(_unknown("role", str(text), list(self.roles), list(self.role_aliases), self.role_aliases))

    def parse_colour(self, text: str, *, neutral_ok: bool = True) -> int:
        """Read a colour name (``brown`` is the neutral colour).

        :returns: the colour index.
        :raises NotationError: for an unknown colour, or the neutral colour when
            ``neutral_ok`` is false (players cannot be grey).
        """
        key = _fold(str(text))
        if key in self.colour_aliases:
            idx = self.colours.index(self.colour_aliases[key])
            if idx == self.neutral and not neutral_ok:
                raise NotationError(f"{text!r} is the neutral colour ({self.colours[idx]} cards belong to nobody); "
                                    f"a player is one of {', '.join(self.colours[:-1])}")
            return idx
        allowed = list(self.colours if neutral_ok else self.colours[:-1])
        raise NotationError(_unknown("colour", str(text), allowed, allowed))

    def parse_card(self, text: str) -> Card:
        """Read a card ``role/colour``.

        :raises NotationError: when the text is not ``role/colour`` or names an unknown
            role or colour.
        """
        s = str(text)
        if "/" not in s:
            raise NotationError(f"{s!r} is not a card; write role/colour, e.g. maid/grey")
        role, _, colour = s.partition("/")
        return self.card(self.parse_role(role), self.parse_colour(colour))

    def colour_id(self, text: str, default: str | None = None) -> str:
        """The colour id ``text`` names, as palast writes it (``"Red"``, ``" brown"`` ->
        ``"red"``, ``"grey"``); ``default`` (if given) for a text that names no colour.

        :raises NotationError: for an unknown colour when no ``default`` is given.
        """
        try:
            return self.colours[self.parse_colour(text)]
        except NotationError:
            if default is None:
                raise
            return default

    def card_id(self, text: str) -> str:
        """The card ``text`` names, as palast writes it (``"Guard/Red"`` -> ``"guard/red"``).

        :raises NotationError: as :meth:`parse_card`.
        """
        return self.format_card(self.parse_card(text))

    def role_id(self, text: str) -> str:
        """The role id ``text`` names (``"Hofnarr"`` -> ``"jester"``).

        :raises NotationError: as :meth:`parse_role`.
        """
        return self.roles[self.parse_role(text)]

    def format_card(self, card: int) -> str:
        """Write ``card`` as ``role/colour``."""
        return f"{self.roles[self.role_of(card)]}/{self.colours[self.colour_of(card)]}"

    def format_cards(self, cards: Iterable[int]) -> str:
        """Write cards comma-separated, in the order given."""
        return ",".join(self.format_card(c) for c in cards)

    # -- composition -----------------------------------------------------------------
    def composition(self, seated: Iterable[int]) -> Counter[int]:
        """The role deck for the seated colour indices: how many of each card (A.setup.deck)."""
        out: Counter[int] = Counter()
        for colour in seated:
            for role in range(len(self.roles)):
                out[self.card(role, colour)] += self.per_colour
        for role in range(len(self.roles)):
            out[self.card(role, self.neutral)] += self.neutral_per_role
        return out


def _unknown(what: str, given: str, allowed: list[str], known: list[str],
             meaning: dict[str, str] | None = None) -> str:
    """``unknown role 'x'; did you mean 'y'? (known: ...)``; an alias suggested is followed
    by the id it stands for (``'hofnarr' (the jester)``)."""
    import difflib  # only for a message

    close = difflib.get_close_matches(given.strip().lower(), known, n=1, cutoff=0.6)
    hint = ""
    if close:
        means = (meaning or {}).get(close[0], close[0])
        hint = f"; did you mean {close[0]!r}{f' (the {means})' if means != close[0] else ''}?"
    return f"unknown {what} {given!r}{hint} (known: {', '.join(allowed)})"
