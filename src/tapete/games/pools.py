"""Pool arithmetic shared by the games where players share money rather than play against the house:
bingo's announced prizes, Lototrot's mutual pool, Promotrot's prize plans.

One rule for money (docs/format.md, docs/vocabulary.md §0.5): a share is cut down to the cent per winner, and the
remainder goes where the game's vocabulary says (bingo: the organiser, §14.8; Lototrot: the next day's 7/7
amount, D-8). Payment points, payment means and deadlines of Lototrot 10.2-10.7 (000:1845-1867), which
Promotrot adopts (000:1941), are here too: they are the same arithmetic for both games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from tapete.core.errors import TapeteError


def cents_down(amount: Fraction | int) -> int:
    """Truncate an exact amount to whole cents (a pool share never pays a fraction of a cent)."""
    return math.floor(Fraction(amount))


def proportional_shares(prize: int | Fraction, weights: Mapping[str, int]) -> dict[str, int]:
    """Split `prize` among winners in proportion to their weights (face values), each cut to the cent.

    Bingo: "la aparición de más de una combinación ganadora determinará la distribución proporcional de los
    premios" (001:1100; R: docs/rulings.md#bingo-proportional-shares). Equal weights give equal shares.
    The cents left over are `prize - sum(result.values())`, always fewer than the number of winners.
    """
    total = sum(weights.values())
    if total <= 0:
        return {k: 0 for k in weights}
    return {k: cents_down(Fraction(prize) * w / total) for k, w in weights.items()}


def equal_share(amount: Fraction, winners: int) -> int:
    """One winner's share of a category split in equal parts (000:1831), cut to the cent (D-8)."""
    return cents_down(amount / winners) if winners else 0


def parse_percentage(value: object, what: str) -> Fraction:
    """A rate in percent, read as an exact decimal (docs/vocabulary.md §0.1: never a binary float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TapeteError("bad-table", f"{what} is a number in percent, e.g. 60 or 62.5")
    try:
        exact = Fraction(Decimal(str(value)))
    except (InvalidOperation, ValueError) as exc:
        raise TapeteError("bad-table", f"{what} is a number in percent, e.g. 60 or 62.5") from exc
    return exact


# -- payment of prizes: Lototrot 10.2-10.7, adopted by Promotrot 6.4 --------------------------------------------

FIRST_TIER = 12_000         # "hasta 120 euros": any outlet (000:1847; R: docs/rulings.md#pools-payment-tiers)
CENTRAL_FROM = 30_000       # "desde 300 euros en adelante": central office only (000:1851)
CHEQUE_ABOVE = 100_000      # "cuando éstos superen los 1000 euros": nominative cheque (000:1863)
PRESENTATION_DAYS = 30      # "dentro de los 30 días naturales" (000:1853; Promotrot 000:1945)


def payment_place(prize: int, first_tier: int = FIRST_TIER, central_from: int = CENTRAL_FROM) -> str:
    """Where a prize may be collected (000:1847-1851): 120 € falls in the first tier, 300 € in the third.

    "Central Prize Office" stands for the organiser's office or the entities it authorises (000:1849-1851).
    """
    if prize <= first_tier:
        return "any outlet"
    if prize < central_from:
        return "outlet or Central Prize Office"
    return "Central Prize Office only"


def payment_means(prize: int, cheque_above: int = CHEQUE_ABOVE) -> str:
    """Cash, or a nominative cheque over 1,000 € (000:1863; R: docs/rulings.md#pools-payment-tiers)."""
    return "nominative cheque" if prize > cheque_above else "cash"


def payable_from(result_day: date) -> date:
    """Prizes are paid from the day after the official result (000:1797; 000:1845)."""
    return result_day + timedelta(days=1)


def last_presentation_day(start: date, days: int = PRESENTATION_DAYS) -> date:
    """30 calendar days counted from the day after `start`: the last valid day is start + 30.

    Lototrot counts from the day after the results are set (000:1853); Promotrot from the receipt's issue
    (000:1945; R: docs/rulings.md#promotrot-receipt-expiry).
    """
    return start + timedelta(days=days)


def expired(start: date, presented: date, days: int = PRESENTATION_DAYS) -> bool:
    """True when a ticket or receipt presented on `presented` has lapsed (000:1853; 000:1945)."""
    return presented > last_presentation_day(start, days)


def unclaimed_goes_to(result_day: date, race_days: list[date], days: int = PRESENTATION_DAYS) -> date | None:
    """The race day whose 7/7 amount receives a Lototrot prize never collected: the first race day after the
    ticket expired (000:1865-1867). None while no such day is programmed."""
    lapse = last_presentation_day(result_day, days)
    later = sorted(d for d in race_days if d > lapse)
    return later[0] if later else None
