"""Events of a round, as docs/format.md writes them: bet, outcome (spin/roll/draw/result), act, deal, close,
limits, void. Parsed once from a round document; games only ever see these dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Bet:
    """A player's stake on one kind (and target `on`); `extra` holds game-specific fields (box, seat...)."""

    id: str
    player: str
    kind: str
    amount: int
    on: tuple[Any, ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.id, self.player, self.kind, self.amount, self.on))


@dataclass(frozen=True)
class Outcome:
    """The chance result: `spin` (roulette, boule, wheel), `roll` (dice), `draw` (balls), `result` (races)."""

    name: str
    value: Any
    last: bool = False   # the last spin, roll or coup of the session


@dataclass(frozen=True)
class Act:
    """A decision: `bet` names the bet whose owner decides, `by` a hand no single bet owns."""

    do: str
    bet: str | None = None
    by: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.do, self.bet, self.by))


@dataclass(frozen=True)
class Deal:
    """Close betting and deal the next hand or coup from the shoe; `last`: the session's last coup."""

    last: bool = False


@dataclass(frozen=True)
class Close:
    """The croupier's *no va más*."""


@dataclass(frozen=True)
class Limits:
    """A change of the table's limits between rounds (same keys as `table`)."""

    values: dict[str, Any]

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.values)))


@dataclass(frozen=True)
class Void:
    """The croupier annuls the outcome in progress (ball out of the wheel, misdeal...)."""

    reason: str


Event = Bet | Outcome | Act | Deal | Close | Limits | Void
