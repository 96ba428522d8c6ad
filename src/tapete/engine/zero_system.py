"""The roulette *sistema del cero* on a simple chance, shared by every game whose text borrows it.

French roulette applies it to the simple chances at zero (001:105-109; 000:150-154; 002:134-138;
003:304-324); trente et quarante applies "las mismas disposiciones" at a 31-31 tie (001:435; 000:514;
002:408; 003:1121-1127). After z zeros (ties) a bet of stake S holds S/2^(z-1); taking back (or the forced
refund on the session's last coup) returns S/2^z; a bet freed by a win returns what it holds
(docs/rulings.md#roulette-prison-arithmetic).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal


def held(stake: int | Fraction, zeros: int) -> Fraction:
    """What the bet still holds after `zeros` zeros: S, then S/2^(z-1)."""
    return Fraction(stake) / 2 ** max(zeros - 1, 0)


def refund(stake: int | Fraction, zeros: int) -> Fraction:
    """Half of what it holds: the 'half back' choice and the last-coup refund, S/2^z."""
    return Fraction(stake) / 2 ** zeros


def below_minimum(stake: int | Fraction, zeros: int, basis: Literal["value", "held"], minimum: int) -> bool:
    """The lock test (001:107 / 003:316-320): N/B/G compare the value S/2^z, Andalucía the held S/2^(z-1)."""
    value = refund(stake, zeros) if basis == "value" else held(stake, zeros)
    return value < minimum
