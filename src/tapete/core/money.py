"""Money: integer cents, exact payout ratios, and docs/format.md's single rounding rule.

Inside the engine every amount is an exact `Fraction` of a cent (a halved 5-cent stake is 5/2 cents);
only the settlement document rounds, once, in the player's favour (the catalogs give no rounding rule).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

Rounding = Literal["player", "house"]


def parse_ratio(text: str) -> Fraction:
    """'35:1' -> 35, '1:2' -> 1/2: the winnings per unit staked (the stake is kept on top)."""
    try:
        num, den = text.split(":")
        value = Fraction(int(num), int(den))
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"not a payout ratio: {text!r}") from exc
    if value <= 0:
        raise ValueError(f"not a payout ratio: {text!r}")
    return value


def format_ratio(value: Fraction) -> str:
    """35 -> '35:1', 1/2 -> '1:2' (the way the catalogs write payouts)."""
    value = Fraction(value)
    return f"{value.numerator}:{value.denominator}"


def round_to_cents(amount: Fraction, *, favour: Rounding = "player", paid_to_player: bool = True) -> int:
    """Round an exact amount to whole cents.

    docs/format.md: in house-banked games a fraction of a cent is resolved in the player's favour —
    what the player receives rounds up, what the house deducts rounds down. `favour="house"` is the
    table option `rounding` for a casino that must do otherwise (docs/rulings.md).
    """
    up = (favour == "player") == paid_to_player
    return math.ceil(amount) if up else math.floor(amount)


def euros(cents: int | Fraction) -> str:
    """1234 -> '12.34 €' for people; exact fractions of a cent show their decimals."""
    value = Fraction(cents)
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(value, 100)
    if rest.denominator == 1:
        return f"{sign}{int(whole):,}.{int(rest):02d} €".replace(",", " ")
    return f"{sign}{float(value) / 100:,.4f} €".replace(",", " ")


def fraction_text(value: Fraction) -> str:
    """Exact fraction as 'a/b' (or 'a' when whole), the JSON form of exact values."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
