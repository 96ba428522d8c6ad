"""Settlement: per bet what was staked and returned, exact; rounded to cents only in the document."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from tapete.core.money import Rounding, round_to_cents

Final = Literal["settled", "pending", "void"]


@dataclass(frozen=True)
class BetResult:
    """One bet's account. `returned` is stake back plus winnings, net of commission, exact."""

    staked: Fraction
    returned: Fraction
    final: Final = "settled"
    at_risk: Fraction | None = None   # what still rides, for a pending bet

    @classmethod
    def pending(cls, staked: Fraction, at_risk: Fraction | None = None) -> BetResult:
        """A bet still riding: nothing returned yet, at risk its whole stake unless told otherwise (a bet held
        after a zero, a partly played hand)."""
        return cls(staked, Fraction(0), final="pending", at_risk=staked if at_risk is None else at_risk)

    @classmethod
    def voided(cls, staked: Fraction) -> BetResult:
        """A bet of a coup voided: its stake comes back, nothing won or lost."""
        return cls(staked, staked, final="void")

    @property
    def status(self) -> str:
        if self.final != "settled":
            return self.final
        if self.returned > self.staked:
            return "won"
        if self.returned < self.staked:
            return "lost"
        return "push"


@dataclass(frozen=True)
class Settlement:
    game: str
    jurisdiction: str
    bets: dict[str, BetResult]
    commission: Fraction = Fraction(0)
    rounds: int = 0
    log: list[str] = field(default_factory=list)
    carry: dict[str, Fraction] | None = None

    def document(self, rounding: Rounding = "player") -> dict[str, Any]:
        """The settlement document of docs/format.md, in integer cents.

        Rounding happens here and only here: returns up, the house's deductions down (player's favour).
        `house.net` is computed from the rounded figures so that it equals -sum(returned - staked).
        """
        bets: dict[str, Any] = {}
        net = 0
        for bet_id, r in self.bets.items():
            staked = round_to_cents(r.staked, favour=rounding, paid_to_player=False)
            if r.final == "pending":
                entry: dict[str, Any] = {"status": "pending", "staked": staked, "returned": 0}
                entry["at_risk"] = round_to_cents(r.at_risk if r.at_risk is not None else r.staked, favour=rounding)
            else:
                returned = round_to_cents(r.returned, favour=rounding)
                status = r.final
                if r.final == "settled":   # judged on the cents the player sees
                    status = "won" if returned > staked else "lost" if returned < staked else "push"
                entry = {"status": status, "staked": staked, "returned": returned}
                net -= returned - staked
            bets[bet_id] = entry
        doc: dict[str, Any] = {
            "game": self.game,
            "jurisdiction": self.jurisdiction,
            "bets": bets,
            "house": {
                "commission": round_to_cents(self.commission, favour=rounding, paid_to_player=False),
                "net": net,
            },
            "rounds": self.rounds,
        }
        if self.carry:
            doc["carry"] = {k: round_to_cents(v, favour=rounding, paid_to_player=False) for k, v in self.carry.items()}
        doc["log"] = list(self.log)
        return doc
