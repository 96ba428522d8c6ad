"""What the two player-banked baccarats share: hands with their irregular states, the bank as an account
(the banker's bet, his associates, the garage), the puntos' stakes and their coverage, and seat priority.

Both games keep everything as plain dataclasses so a state survives a JSON round trip between any two events.
Money stays exact; the settlement document rounds once (R: docs/rulings.md#baccarat-circle-rounding).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.engine.shoe import Shoe
from tapete.games.baccarat import tableau


@dataclass
class Hand:
    """One hand. `zero_from` drops cards that count nothing (a banker's over-deal, 001:896); `forced_total` is a
    total the rules impose (deemed 9, 001:900; thrown unseen, 0, 001:1078)."""

    cards: list[str] = field(default_factory=list)
    zero_from: int = 0
    forced_total: int | None = None
    abated: bool = False              # showed a natural
    forgot_abat: bool = False         # held a natural and let the moment pass (001:904, 001:918, 001:1070)
    drew: bool | None = None          # the third-card decision, once taken
    thrown: bool = False

    def total(self) -> int:
        if self.forced_total is not None:
            return self.forced_total
        return tableau.total(self.cards[self.zero_from:])

    def natural(self) -> bool:
        """A two-card 8 or 9 that may still be shown."""
        return (self.forced_total is None and self.zero_from == 0 and not self.forgot_abat
                and tableau.is_natural(self.cards))

    def two_card(self) -> bool:
        return len(self.cards) - self.zero_from == 2 and self.forced_total is None

    def third(self) -> str | None:
        return self.cards[2] if len(self.cards) >= 3 and self.zero_from == 0 else None

    def column(self) -> int:
        """The table column this hand gives the bank: its third card's value, P if it stood."""
        return tableau.column(self.third()) if self.drew else tableau.STAND

    def show(self) -> str:
        shown = " ".join(self.cards) if self.cards else "—"
        return f"{shown} = {self.total()}"


@dataclass
class BankAccount:
    """The bank as money: each contributor's part of what it holds (the banker's bet and his associates share
    every result pro rata, 001:751), what is garaged, and the net winnings not yet garaged."""

    id: str
    player: str
    seat: int | None
    behind: int | None
    initial: int
    parts: dict[str, Fraction] = field(default_factory=dict)
    garaged: dict[str, Fraction] = field(default_factory=dict)
    staked: dict[str, int] = field(default_factory=dict)
    free_winnings: Fraction = Fraction(0)
    all_goes: bool = False
    coups: int = 0
    active: bool = True
    ended: str | None = None         # lost | passed | jumped | withdrawn

    @property
    def holding(self) -> Fraction:
        return sum(self.parts.values(), Fraction(0))

    @property
    def garage(self) -> Fraction:
        return sum(self.garaged.values(), Fraction(0))

    def add(self, contributor: str, amount: int) -> None:
        self.parts[contributor] = self.parts.get(contributor, Fraction(0)) + amount
        self.garaged.setdefault(contributor, Fraction(0))
        self.staked[contributor] = self.staked.get(contributor, 0) + amount

    def result(self, delta: Fraction) -> None:
        """Add (or take) `delta` pro rata to what each contributor holds."""
        total = self.holding
        if total == 0:
            return
        for k in self.parts:
            self.parts[k] += delta * self.parts[k] / total

    def to_garage(self, amount: Fraction) -> None:
        total = self.holding
        for k in self.parts:
            share = amount * self.parts[k] / total
            self.parts[k] -= share
            self.garaged[k] += share

    def returned(self, contributor: str) -> Fraction:
        return self.parts.get(contributor, Fraction(0)) + self.garaged.get(contributor, Fraction(0))


@dataclass
class Stake:
    """A punto's stake for one coup; `accepted` is the part the bank covers (after halving a line stake)."""

    id: str
    player: str
    amount: int
    coup: int
    order: int
    seat: int | None = None
    behind: int | None = None
    line: bool = False
    call: str | None = None           # banco | banco-with-table | last-completes
    sides: list[int] = field(default_factory=list)      # dos paños: the paños it plays (a caballo: both)
    parts: list[Fraction] = field(default_factory=list)  # dos paños: the amount playing on each side
    accepted: list[Fraction] = field(default_factory=list)
    final: str = "open"               # open | settled | void
    returned: Fraction = Fraction(0)

    @property
    def playing(self) -> Fraction:
        """What plays: half of a stake on the line (001:924; 001:1022)."""
        return Fraction(self.amount, 2) if self.line else Fraction(self.amount)

    @property
    def covered(self) -> Fraction:
        return sum(self.accepted, Fraction(0))

    @property
    def staked(self) -> Fraction:
        """A stake cut down by the coverage counts only its accepted part (VOCABULARY.md §2, Money)."""
        return self.covered * 2 if self.line else self.covered

    @property
    def seated(self) -> bool:
        return self.seat is not None


def seat_fields(bet_id: str, extra: dict[str, Any], *, required: bool = True) -> tuple[int | None, int | None]:
    seat, behind = extra.get("seat"), extra.get("behind")
    if seat is not None and behind is not None:
        raise TapeteError("bad-document", f"bet {bet_id}: name a seat or the seat it stands behind, not both", bet=bet_id)
    for name, value in (("seat", seat), ("behind", behind)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise TapeteError("bad-document", f"bet {bet_id}: {name} is a department number (1, 2, ...)", bet=bet_id)
    if required and seat is None and behind is None:
        raise TapeteError("bad-document", f"bet {bet_id}: a seat or 'behind' (the seat a standing player stands behind) "
                          "is needed for the order of priority", bet=bet_id)
    return seat, behind


def check_line(bet_id: str, extra: dict[str, Any]) -> bool:
    line = extra.get("line", False)
    if not isinstance(line, bool):
        raise TapeteError("bad-document", f"bet {bet_id}: line is true or false", bet=bet_id)
    return line


def rotation_key(stake: Stake, banker_seat: int, departments: int) -> tuple[int, int, int]:
    """Seated before standing; from the seat at the banker's right onwards; then document order (001:731)."""
    place = stake.seat if stake.seat is not None else stake.behind or 0
    distance = (place - banker_seat - 1) % max(departments, 1)
    return (0 if stake.seated else 1, distance, stake.order)


def accept(stakes: Iterable[Stake], capacity: Fraction, side: int = 0) -> Fraction:
    """Cover stakes in the given order until the bank in play is exhausted; returns what is left uncovered."""
    left = capacity
    for s in stakes:
        want = s.parts[side] if s.parts else s.playing
        take = min(want, left)
        while len(s.accepted) <= side:
            s.accepted.append(Fraction(0))
        s.accepted[side] = take
        left -= take
    return left


def settle_stake(stake: Stake, results: list[int]) -> Fraction:
    """Settle a stake from its sides' results (+1 the punto wins, -1 the bank wins, 0 a tie): the stake's money
    lost to the bank (negative when the bank pays)."""
    to_bank = Fraction(0)
    for amount, r in zip(stake.accepted, results, strict=False):
        to_bank -= amount * r
    stake.returned = stake.staked - to_bank
    stake.final = "settled"
    return to_bank


def draw_card(shoe: Shoe | None, rules_source: str) -> str:
    if shoe is None:
        raise TapeteError("shoe-exhausted", "this game is dealt from a shoe: the document has none", source=rules_source)
    return str(shoe.draw())


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
