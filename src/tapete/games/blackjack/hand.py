"""Hand arithmetic of Black Jack, shared by the reducer, the exact analysis and the simulation.

Values: J, Q, K = 10; the ace 1 or 11 "según convenga al jugador" (000:296; 001:240; 002:246; 003:587-588).
The dealer counts an ace as 11 only when that reaches 17 or more without passing 21 (000:346; 001:280;
002:286; 003:720-724): the dealer stands on soft 17.
"""

from __future__ import annotations

from collections.abc import Iterable

TEN_RANKS = frozenset("TJQK")


def value(card: str) -> int:
    """Point value of a card in docs/format.md notation: A=1, T-K=10 (the ace's 11 is the totals' business)."""
    r = card[0]
    if r == "A":
        return 1
    return 10 if r in TEN_RANKS else int(r)


def hard(values: Iterable[int]) -> int:
    return sum(values)


def player_total(values: list[int]) -> int:
    """The best valuation for the player: one ace as 11 when that does not pass 21."""
    h = sum(values)
    return h + 10 if 1 in values and h + 10 <= 21 else h


def is_soft(values: list[int]) -> bool:
    h = sum(values)
    return 1 in values and h + 10 <= 21


def valuations(values: list[int]) -> set[int]:
    """Every total the player may claim (A-8 is 9 or 19), for the doubling rule of ES and ES-GA (A9-4)."""
    h = sum(values)
    return {h, h + 10} if 1 in values and h + 10 <= 21 else {h}


def dealer_total(values: list[int], stands_soft_17: bool = True) -> int:
    """The croupier's count: an ace is 11 when it brings the total to 17 or more without passing 21."""
    h = sum(values)
    if 1 in values and h + 10 <= 21 and (h + 10 >= 17 or not stands_soft_17):
        return h + 10
    return h


def dealer_must_draw(values: list[int], stands_soft_17: bool = True) -> bool:
    """Below 17 the croupier draws; at 17 or more (a soft 17 included) he stands."""
    if stands_soft_17:
        return dealer_total(values) < 17
    h = sum(values)   # hits soft 17: count the ace as 11 only from 18 (no catalog does; kept for analysis)
    soft = 1 in values and h + 10 <= 21
    return (h + 10 if soft and h + 10 >= 18 else h) < 17


def is_natural(values: list[int], from_split: bool = False) -> bool:
    """Black-Jack: 21 with the first two cards of a hand that was not split (000:356; 000:374)."""
    return not from_split and len(values) == 2 and sum(values) == 11 and 1 in values
