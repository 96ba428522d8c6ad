"""Linear bet checks: the ids and per-spot totals of a state's bets, kept alongside the state.

A bet's checks (its id not used before, the player's total on that spot within the maximum) scanned every bet
already placed, so a document of n bets cost O(n²) even once `run_events` stopped copying the state per event
(issue 16). The index lives on the state object itself (an attribute outside the dataclass fields: not
serialised, not compared), so it never leaks between tables. A deep copy or a pickle of the state leaves it
behind (copying it would slow every pure `step`); the copy indexes its bets again at its next bet.

It follows the bets list by itself while bets are only appended: a list that is another object, shorter, or
whose recorded last element moved is indexed again from scratch. Totals depend on more than the list (a bet's
phase changes on a spin); a game calls `forget` for every event that is not a bet.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

_ATTR = "_tapete_bet_index"

Key = Callable[[Any], Hashable | None]    # a bet -> the total it counts in, or None (not counted)


@dataclass
class BetIndex:
    bets: Sequence[Any]
    key: Key | None
    count: int = 0
    last: Any = None
    ids: set[str] = field(default_factory=set)
    totals: dict[Hashable, int] = field(default_factory=dict)

    def _add(self, bet: Any) -> None:
        self.ids.add(bet.id)
        if self.key is not None:
            k = self.key(bet)
            if k is not None:
                self.totals[k] = self.totals.get(k, 0) + bet.amount

    def total(self, key: Hashable) -> int:
        return self.totals.get(key, 0)

    def __deepcopy__(self, memo: dict[int, Any]) -> None:
        return None

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _nothing, ()


def _nothing() -> None:
    return None


def bet_index(state: Any, bets: Sequence[Any], key: Key | None = None) -> BetIndex:
    """The index of `bets` (a list on `state`), brought up to date; `key` groups amounts into totals."""
    idx: BetIndex | None = state.__dict__.get(_ATTR)
    n = len(bets)
    fresh = (idx is None or idx.bets is not bets or idx.key is not key or n < idx.count
             or (idx.count and bets[idx.count - 1] is not idx.last))
    if fresh:
        idx = BetIndex(bets, key)
        state.__dict__[_ATTR] = idx
    assert idx is not None
    for bet in bets[idx.count:] if n > idx.count else ():
        idx._add(bet)
    idx.count = n
    idx.last = bets[-1] if n else None
    return idx


def forget(state: Any) -> None:
    """Something other than a bet happened: the totals are rebuilt at the next bet."""
    state.__dict__.pop(_ATTR, None)
