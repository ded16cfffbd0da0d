"""What the Z3 encoding tracks about a position, and symbolic positions to compute with.

The encoding is built from one :class:`~palast.engine.Game` (the spec, a ruleset, the
seats), never from numbers written here: the card kinds and their copies come from
``game.composition``, roles and their action kinds from ``spec/roles.yaml``, the King
cards from ``spec/game.yaml``, the hand size, the six and the target from the spec, and
every ruleset difference from ``game.params`` (``spec/variation_points.yaml``) as they were
when the layout was built (:attr:`Layout.readings`).

**The abstraction.** A position is abstracted to

* for every *zone* (each player's hand, each player's display, the draw deck, the discard
  pile) and every *card kind*, how many cards of that kind lie there — the order of a
  display and of the draw deck is forgotten (the draw deck is a face-down pile of unknown
  order; a draw may take any of its cards, which is what the engine's chance draw
  (:meth:`~palast.engine.Game.drawn_from`) does for a deck of unknown order);
* which King cards are in the King deck (order unknown) and which are spent, and the
  banned role (the role of the King card in force, or -1);
* scores, cards played this round, the tally, the round number, the player whose turn it
  is, the kind of card played this turn;
* the pending decision (kind, who decides, Wizard partner, count and given cards, whether
  the play is forced, the open variation point of a gap), how the last round ended, and
  the winners once the game is over.

At the ``"card"`` level a card kind is a card of the engine (role and colour; the two
neutral cards of a role are one kind with two copies), so the encoding is exact on this
abstraction. At the ``"role"`` level a kind is a role: colours are forgotten, so the
player named by the colour of the card played becomes a free choice (any seat, or the
neutral rule). Every transition of the card level is then also one of the role level,
so an invariant proved at the role level holds at the card level too. A role whose
colour a rule reads (under the fan module, the Jester's: a character card names its
Jester by colour) keeps a kind per card at the role level (:attr:`Layout.coloured`), as
at the card level; the colour of the card played is then that kind's colour, and free
only for the other kinds, so the role level still abstracts the card level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3

from palast.engine import Game
from palast.engine.params import Readings
from palast.lang.invariant_exprs import decision_numbers
from palast.spec.state import Counter, ZoneDecl
from proofs.terms import as_term, conj, eq, ite, pick_by, total

#: Round end kinds, numbered; 0 means the round has not ended.
ROUND_ENDS: tuple[str, ...] = ("", "whisper", "six")
#: The seat value of a neutral card's colour.
NEUTRAL = -1
#: The seat value of a card whose colour the role level forgets.
ANY = -2
LEVELS = ("card", "role")
#: How the encoding holds a place of King cards, by the order declared for it
#: (spec/state.yaml): a flag per King card (``kd{j}``, ``ks{j}``), or the banned role.
KING_TAGS = {"deck": "kd", "laid": "ks", "one": "banned"}
#: The kinds of counter the encoding keeps (as whole numbers: a seat, a card kind, ...).
ENCODED_COUNTERS = ("int", "seat", "card", "colours")
#: The kinds of counter kept for the table that hold one value per seat (the marks: a
#: colour per player, -1 for none), encoded as a field per seat like a player's counter.
PER_SEAT_KINDS = ("colours",)
#: The encoding's fields of the parts of the machinery a deal may clear (spec/state.yaml
#: ``machine``): how the last round ended (kind, by whom, whether forced), with their sorts
#: and their cleared values.
MACHINE_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {"round-end": (("rk", "int"), ("rp", "int"),
                                                                        ("rforced", "bool"))}
CLEARED: dict[str, int | bool] = {"rk": 0, "rp": -1, "rforced": False}


@dataclass(frozen=True)
class Kind:
    """A kind of card the encoding counts.

    :ivar index: its number in the layout.
    :ivar role: its role index.
    :ivar seat: the seat whose colour it has, :data:`NEUTRAL` or :data:`ANY`.
    :ivar copies: how many cards of this kind the game has.
    :ivar card: the engine's card int (card level, or a role told apart by colour at the
        role level), or -1 (a role at the role level).
    """

    index: int
    role: int
    seat: int
    copies: int
    card: int


class Layout:
    """The shape of the encoding for one game and level.

    :param game: the game (spec, ruleset, seats) the encoding is built from.
    :param level: ``"card"`` (exact) or ``"role"`` (colours forgotten).
    :param coloured: at the role level, the roles (numbers) whose cards keep their colours:
        a kind per card, as at the card level (ignored at the card level).
    :raises ValueError: for an unknown level.
    """

    def __init__(self, game: Game, level: str = "card", coloured: frozenset[int] = frozenset()) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}")
        self.game = game
        #: the game's readings when the layout was built, kept fixed: every reading the
        #: encoding and its compiler take comes from here, so a table assigned to
        #: ``game.params`` later (:attr:`palast.engine.Game.params`) takes effect in a
        #: layout built after it, never half in this one (whose terms and memos follow
        #: these readings)
        self.readings: Readings = Readings(game.params)
        self._runner: Any = None  # the engine's rules under these readings, where the game's are not
        self.level = level
        #: at the role level, the roles whose cards are still told apart by colour (a kind
        #: per card, as at the card level): those whose colour a rule reads
        #: (:func:`proofs.invariant.context` finds them); empty at the card level
        self.coloured: frozenset[int] = frozenset() if level == "card" else frozenset(coloured)
        self.n = n = game.n
        #: the declared decisions (spec/flow.yaml, then the roles' choices), numbered as the
        #: rule language numbers them (field ``dk`` holds the number of the pending one)
        self.decisions: tuple[str, ...] = tuple(decision_numbers(game.spec))
        self._codes = {name: i for i, name in enumerate(self.decisions)}
        decl = game.spec.state
        #: the zones of cards (spec/state.yaml), by the name statements and expressions give
        #: them (a deck's ``under`` too: what lies under a deck is counted with it), each as
        #: its numbers in the encoding: one per seat, or one; in the order declared
        self.slots: dict[str, tuple[int, ...]] = {}
        #: the zones of cards as declared, with their numbers
        self.card_zones: list[tuple[ZoneDecl, tuple[int, ...]]] = []
        at = 0
        for z in decl.zones:
            if z.holds != "cards":
                continue
            nums = tuple(range(at, at + (n if z.per_player else 1)))
            at += len(nums)
            self.card_zones.append((z, nums))
            self.slots[z.name] = nums
            if z.under:
                self.slots[z.under] = nums
        self.zones = at
        #: the places of King cards, by name: how the encoding holds each (from its declared
        #: order): ``"kd"`` (a deck: a flag per King card, order unknown), ``"ks"`` (laid: a
        #: flag per King card) or ``"banned"`` (one card: the role it bans, or -1)
        self.king_places: dict[str, str] = {}
        for z in decl.zones:
            if z.holds == "King cards":
                tag = KING_TAGS.get(z.order)
                if tag is None or tag in self.king_places.values():
                    raise ValueError(f"the encoding has no place for King cards that lie as {z.order} ({z.zone})")
                self.king_places[z.name] = tag
        #: the counters the encoding keeps, by name: field ``name``, or ``name0``, ``name1``,
        #: ... per seat (:func:`per_seat`; the rule modules' marks, a colour per player)
        #: (one of :data:`PER_SEAT_KINDS` only where a rule that applies under the ruleset
        #: sets it: no rule sets the marks unless a rule module is in play, and unset they
        #: would be free values a search could give a position)
        set_by = _set_by(game, self.point_reading)
        self.counters: dict[str, Counter] = {c.name: c for c in decl.counters if c.kind in ENCODED_COUNTERS
                                             and (c.kind not in PER_SEAT_KINDS or c.name in set_by)}
        #: the statements that wait for each decision (:func:`waiting_sites`), and whether
        #: the encoding keeps which one a pending decision waits at (field ``site``: its
        #: number among those of its decision; only where some decision has two)
        self.sites: dict[str, tuple[tuple[str, str], ...]] = waiting_sites(game, self.point_reading)
        self.site_field = any(len(v) > 1 for v in self.sites.values())
        # the zones the hand-written parts of the model read by name (the zone dealt into,
        # the zone the rest goes to, and the two laid zones of spec/state.yaml)
        self.hand: tuple[int, ...] = self.slots[next(z.name for z in decl.zones if z.deal == "dealt")]
        self.deck = self.slots[next(z.name for z in decl.zones if z.deal == "rest")][0]
        self.disp: tuple[int, ...] = self.slots["display"]
        self.discard = self.slots["discard_pile"][0]
        cards = game.cards
        self.nroles = cards.role_count
        kinds: list[Kind] = []

        def card_kind(c: int) -> Kind:  # the kind of one card of the engine, numbered next
            colour = cards.colour_of(c)
            seat = NEUTRAL if colour == cards.neutral else game.seat_of_colour[colour]
            return Kind(len(kinds), cards.role_of(c), seat, game.composition[c], c)

        if level == "card":
            for c in sorted(game.composition):
                kinds.append(card_kind(c))
        else:  # a kind per role, or per card for a role told apart by colour
            for r in range(self.nroles):
                of_role = sorted(c for c in game.composition if cards.role_of(c) == r)
                if r in self.coloured:
                    for c in of_role:
                        kinds.append(card_kind(c))
                else:
                    kinds.append(Kind(len(kinds), r, ANY, sum(game.composition[c] for c in of_role), -1))
        self.kinds: tuple[Kind, ...] = tuple(kinds)
        self.kind_of_card: dict[int, int] = {k.card: k.index for k in kinds if k.card >= 0}
        self.kinds_of_role: tuple[tuple[int, ...], ...] = tuple(
            tuple(k.index for k in kinds if k.role == r) for r in range(self.nroles))
        self.action_kind: tuple[str, ...] = game.action_kind
        self.role_by_action: dict[str, int] = {a: r for r, a in enumerate(game.action_kind)}
        self.playable_when_banned: tuple[bool, ...] = game.playable_when_banned
        self.king_roles: tuple[int, ...] = game.king_roles
        self.points: tuple[str, ...] = tuple(game.spec.variation_points)
        self.six = game.six
        self.hand_size = game.hand_size
        self.target = game.target
        self.total_cards = sum(game.composition.values())
        #: Cards in the draw deck right after a deal.
        self.deck_after_deal = self.total_cards - n * self.hand_size

    def describe(self) -> str:
        """The level in words: ``"card level"``, ``"role level"``, or for a role level
        telling roles apart by colour ``"role level (jester cards by colour)"``."""
        if not self.coloured:
            return f"{self.level} level"
        roles = self.game.cards.roles
        return f"{self.level} level ({', '.join(roles[r] for r in sorted(self.coloured))} cards by colour)"

    def code(self, kind: str) -> int:
        """The number of decision ``kind`` in the encoding (field ``dk``).

        :raises KeyError: for a decision the spec does not declare.
        """
        return self._codes[kind]

    def reading(self, parameter: str) -> str:
        """The ruleset's reading of the variation point that sets engine ``parameter``
        (``"open"`` for a gap)."""
        return self.readings[parameter].value

    def point_reading(self, point: str) -> str:
        """The reading of variation point ``point`` (by id) in :attr:`readings`, or as the
        ruleset reads it where it sets no engine parameter."""
        for setting in self.readings.values():
            if setting.point == point:
                return str(setting.value)
        return str(self.game.spec.reading(self.game.ruleset, point))

    def engine_runner(self) -> Any:
        """The engine's compiled rules (:class:`palast.engine.blocks.Runner`) under
        :attr:`readings`: the game's own while its table reads the same, else those of a
        game seated alike under the same ruleset with these readings (built once)."""
        if dict(self.game.params) == dict(self.readings):
            return self.game.runner
        if self._runner is None:
            twin = Game(self.game.spec, self.game.ruleset, list(self.game.seats), check=False)
            twin.params = self.readings
            self._runner = twin.runner
        return self._runner

    def point_code(self, parameter: str) -> int:
        """The number of the variation point that sets engine ``parameter``."""
        return self.points.index(self.readings[parameter].point)


# ---------------------------------------------------------------------- fields

def _blocks_in_play(game: Game, reading_of: Callable[[str], str]) -> list[tuple[str, tuple[Any, ...]]]:
    """Every statement list of the rules that apply under ``game``'s ruleset, each
    variation point read by ``reading_of`` (those a readings block withdraws left out):
    ``(rule id, list)``, each reading's too."""
    from palast.lang.blocks import program, withdrawn

    gone = withdrawn(game.spec, game.ruleset, reading_of)
    out: list[tuple[str, tuple[Any, ...]]] = []
    for r in program(game.spec).rules.values():
        if r.rule in gone:
            continue
        out.extend((r.rule, b) for b in r.all_blocks())
    return out


def _set_by(game: Game, reading_of: Callable[[str], str]) -> set[str]:
    """The counters a ``set`` statement names in the rules that apply under ``game``'s
    ruleset, each variation point read by ``reading_of`` (those a readings block withdraws
    left out)."""
    from palast.lang.statements import walk

    out: set[str] = set()
    for _, block in _blocks_in_play(game, reading_of):
        out.update(str(target) for st in walk(list(block)) if st.head == "set" for target, *_ in st.arg)
    return out


def waiting_sites(game: Game, reading_of: Callable[[str], str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Every statement that waits for a decision in the rules that apply under ``game``'s
    ruleset, each variation point read by ``reading_of`` (:meth:`Layout.point_reading`), by
    decision: ``(rule id, key path)`` (dotted, as the engine's
    ``Decision.rule`` names it), in the order declared. Where a decision has more than one,
    the encoding keeps which of them opened it (field ``site``)."""
    from palast.lang.statements import waits_for, walk

    out: dict[str, list[tuple[str, str]]] = {}
    for rule, block in _blocks_in_play(game, reading_of):
        for st in walk(list(block)):
            kind = waits_for(st)
            if kind is not None:
                out.setdefault(kind, []).append((rule, ".".join(map(str, st.path))))
    return {k: tuple(v) for k, v in out.items()}


def per_seat(c: Counter) -> bool:
    """Whether the encoding keeps counter ``c`` as a field per seat (``name0``, ``name1``,
    ...): a player's counter, or one of :data:`PER_SEAT_KINDS`."""
    return c.per_player or c.kind in PER_SEAT_KINDS


def field_names(lay: Layout) -> list[tuple[str, str]]:
    """Every field of a symbolic position, as ``(name, sort)`` with sort ``"int"`` or ``"bool"``."""
    out: list[tuple[str, str]] = []
    for z in range(lay.zones):
        for k in range(len(lay.kinds)):
            out.append((f"c{z}_{k}", "int"))
    for j in range(len(lay.king_roles)):
        out += [(f"kd{j}", "bool"), (f"ks{j}", "bool")]
    out.append(("banned", "int"))
    for p in range(lay.n):  # (the order in which the solver first meets the fields matters to its speed)
        out += [(f"{c.name}{p}", "int") for c in lay.counters.values() if per_seat(c)]
        out.append((f"win{p}", "bool"))
    out += [(c.name, "int") for c in lay.counters.values() if not per_seat(c)]
    out += [("dk", "int"), ("dp", "int"), ("partner", "int"), ("count", "int"), ("forced", "bool"), ("gap", "int"),
            *MACHINE_FIELDS["round-end"], ("shared", "bool")]
    if lay.site_field:
        out.append(("site", "int"))
    for k in range(len(lay.kinds)):
        out.append((f"g{k}", "int"))
    return out


class ZState:
    """A symbolic position: one Z3 term per field (see :func:`field_names`).

    Used both for the variables of a position and, as a *draft*, for the terms a
    transition computes; a draft also carries *flags*, Boolean terms marking that a
    path of the transition was taken (e.g. a Cupbearer action was void).
    """

    def __init__(self, lay: Layout, f: dict[str, Any], flags: dict[str, Any] | None = None,
                 cache: dict[int, dict[Any, Any]] | None = None) -> None:
        self.lay = lay
        self.f = f
        self.flags: dict[str, Any] = flags if flags is not None else {}
        # per zone: terms computed from that zone's counts (sizes, role counts)
        self._cache: dict[int, dict[Any, Any]] = cache if cache is not None else {}

    @classmethod
    def fresh(cls, lay: Layout, prefix: str) -> ZState:
        """A position of fresh Z3 constants named ``prefix.field``."""
        f = {name: (z3.Int(f"{prefix}.{name}") if sort == "int" else z3.Bool(f"{prefix}.{name}"))
             for name, sort in field_names(lay)}
        return cls(lay, f)

    def copy(self) -> ZState:
        """A draft with the same terms, to change without touching this one."""
        return ZState(self.lay, dict(self.f), dict(self.flags), {z: dict(c) for z, c in self._cache.items()})

    def _cached(self, zone: int, key: Any, make: Callable[[], Any]) -> Any:
        c = self._cache.setdefault(zone, {})
        if key not in c:
            c[key] = make()
        return c[key]

    def __getitem__(self, name: str) -> Any:
        return self.f[name]

    def __setitem__(self, name: str, value: Any) -> None:
        self.f[name] = value

    # -- card counts -------------------------------------------------------------
    def cnt(self, zone: int, kind: int) -> Any:
        """Cards of ``kind`` in ``zone``."""
        return self.f[f"c{zone}_{kind}"]

    def set_cnt(self, zone: int, kind: int, value: Any) -> None:
        """Set the count of ``kind`` in ``zone``."""
        self.f[f"c{zone}_{kind}"] = value
        self._cache.pop(zone, None)

    def zone_size(self, zone: int) -> Any:
        """Cards in ``zone``."""
        return self._cached(zone, "size", lambda: total(self.cnt(zone, k) for k in range(len(self.lay.kinds))))

    def role_in(self, zone: int, role: int) -> Any:
        """Cards of ``role`` in ``zone``."""
        return self._cached(zone, ("role", role),
                            lambda: total(self.cnt(zone, k) for k in self.lay.kinds_of_role[role]))

    def at_seat(self, seat: Any, per_seat: Callable[[int], Any]) -> Any:
        """``per_seat(seat)`` for a symbolic seat (an integer term) or a Python ``int``."""
        return pick_by(seat, per_seat, self.lay.n)

    def hand_cnt(self, seat: Any, kind: int) -> Any:
        """Cards of ``kind`` in the hand of (symbolic) ``seat``."""
        return self.at_seat(seat, lambda p: self.cnt(self.lay.hand[p], kind))

    def disp_role(self, seat: Any, role: int) -> Any:
        """Cards of ``role`` in the display of (symbolic) ``seat``."""
        return self.at_seat(seat, lambda p: self.role_in(self.lay.disp[p], role))

    def hand_role(self, seat: Any, role: int) -> Any:
        """Cards of ``role`` in the hand of (symbolic) ``seat``."""
        return self.at_seat(seat, lambda p: self.role_in(self.lay.hand[p], role))

    def hand_size(self, seat: Any) -> Any:
        """Cards in the hand of (symbolic) ``seat``."""
        return self.at_seat(seat, lambda p: self.zone_size(self.lay.hand[p]))

    def disp_size(self, seat: Any) -> Any:
        """Cards in the display of (symbolic) ``seat``."""
        return self.at_seat(seat, lambda p: self.zone_size(self.lay.disp[p]))

    def deck_size(self) -> Any:
        """Cards in the draw deck."""
        return self.zone_size(self.lay.deck)

    def move(self, kind: Any, src: Callable[[int], int], dst: Callable[[int], int], seat: Any,
             amount: Any = 1) -> None:
        """Move ``amount`` cards of (symbolic) ``kind`` from zone ``src(seat)`` to zone
        ``dst(seat)`` of (symbolic) ``seat``."""
        for p in range(self.lay.n):
            on = seat == p
            zs, zd = src(p), dst(p)
            for k in range(len(self.lay.kinds)):
                hit = z3.And(on, kind == k)
                self.set_cnt(zs, k, self.cnt(zs, k) - ite(hit, amount, 0))
                self.set_cnt(zd, k, self.cnt(zd, k) + ite(hit, amount, 0))

    # -- per-seat fields ----------------------------------------------------------
    def seat_field(self, name: str, seat: Any) -> Any:
        """Field ``name{p}`` of (symbolic) ``seat``."""
        return self.at_seat(seat, lambda p: self.f[f"{name}{p}"])

    def add_seat_field(self, name: str, seat: Any, amount: Any) -> None:
        """Add ``amount`` to field ``name{p}`` of (symbolic) ``seat``."""
        for p in range(self.lay.n):
            self.f[f"{name}{p}"] = self.f[f"{name}{p}"] + ite(seat == p, amount, 0)

    # -- roles of kinds -----------------------------------------------------------
    def role_is(self, kind: Any, role: Any) -> Any:
        """True if (symbolic) ``kind`` has (symbolic) ``role``."""
        if isinstance(role, int):
            return z3.Or([kind == k for k in self.lay.kinds_of_role[role]] or [z3.BoolVal(False)])
        return z3.Or([z3.And(kind == k.index, role == k.role) for k in self.lay.kinds])

    def kind_valid(self, kind: Any) -> Any:
        """True if ``kind`` numbers a card kind."""
        return z3.And(kind >= 0, kind < len(self.lay.kinds))

    def banned_unplayable(self) -> Any:
        """True if the banned role may not be played while banned."""
        bad = [r for r in range(self.lay.nroles) if not self.lay.playable_when_banned[r]]
        return z3.Or([self["banned"] == r for r in bad] or [z3.BoolVal(False)])

    def only_banned(self, seat: Any) -> Any:
        """True if every card in the hand of (symbolic) ``seat`` has the banned role and
        that role may not be played while banned (king.jester)."""
        banned = self["banned"]
        zero = z3.IntVal(0)

        def other(p: int) -> Any:
            zone = self.lay.hand[p]
            return self._cached(zone, ("unbanned", banned.get_id()), lambda: total(
                ite(banned != k.role, self.cnt(zone, k.index), zero) for k in self.lay.kinds))

        return z3.And(banned >= 0, self.banned_unplayable(), self.at_seat(seat, other) == 0)

    def blocked(self, role: int) -> Any:
        """True if ``role`` (an int) is banned and may not be played while banned
        (king.jester); a forced play is the caller's concern."""
        if self.lay.playable_when_banned[role]:
            return z3.BoolVal(False)
        return self["banned"] == role

    def fresh_playable(self, seat: Any) -> Any:
        """True if the hand of (symbolic) ``seat`` holds a card it may play unforced whose
        role is not in its display (turn.play.duplicate)."""
        return z3.Or([z3.And(self.hand_role(seat, r) >= 1, self.disp_role(seat, r) == 0, z3.Not(self.blocked(r)))
                      for r in range(self.lay.nroles)])

    def banned_card_of(self, j: int) -> Any:
        """True if King card ``j`` is the one in force."""
        return self["banned"] == self.lay.king_roles[j]


def merge(cond: Any, a: ZState, b: ZState) -> ZState:
    """The draft that is ``a`` where ``cond`` holds and ``b`` elsewhere (field by field)."""
    if isinstance(cond, bool):
        return a if cond else b
    if z3.is_true(cond):
        return a
    if z3.is_false(cond):
        return b
    f: dict[str, Any] = {}
    for name, va in a.f.items():
        vb = b.f[name]
        f[name] = va if va is vb else ite(cond, va, vb)
    flags: dict[str, Any] = {}
    # in the drafts' order, not a set's: a set of names iterates by Python's string hashes,
    # which differ from process to process, and the order the terms are built in is the
    # order Z3 numbers them, which its simplifier sorts some operands by
    false = as_term(False)
    for name in [*a.flags, *(n for n in b.flags if n not in a.flags)]:
        fa = a.flags.get(name, false)
        fb = b.flags.get(name, false)
        flags[name] = fa if fa is fb else ite(cond, fa, fb)
    return ZState(a.lay, f, flags)


def decided(cond: Any) -> Any:
    """``cond``, or ``True``/``False`` (Z3 terms) where Z3's simplifier decides it, so that
    :func:`branch` builds only the side that can happen. A condition the simplifier does not
    decide is kept as built, not as simplified: the simplifier orders some operands by the
    numbers Z3 gives terms, which depend on every term built before in the process (and on
    when Python freed them), so the simplified form, and with it a relation's text, differed
    between runs of the same code (a cold and a warm ``~/.cache/palast`` gave three texts of
    the reference's role-level relation at three players)."""
    simple = z3.simplify(cond)
    return simple if z3.is_true(simple) or z3.is_false(simple) else cond


def branch(d: ZState, cond: Any, then: Callable[[ZState], ZState], other: Callable[[ZState], ZState]) -> ZState:
    """Run ``then`` on a copy of ``d`` where ``cond`` holds and ``other`` elsewhere; merge."""
    if isinstance(cond, bool):
        return then(d) if cond else other(d)
    if z3.is_true(cond):
        return then(d)
    if z3.is_false(cond):
        return other(d)
    return merge(cond, then(d.copy()), other(d.copy()))


def equal(a: ZState, b: ZState) -> Any:
    """The formula saying two positions agree on every field."""
    return conj([eq(a.f[name], b.f[name]) for name in a.f])
