"""Builders for circle-poker round documents: players listed in play order from the mano, as the spec lists them."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.conformance.document import settle_document
from tapete.games.poker.circle import stacked_shoe


def cards(text: str) -> list[str]:
    """'Th 9c' -> ['TH', '9C'] (the spec writes suits in lower case)."""
    return [c[0].upper() + c[1].upper() for c in text.split()]


class Table:
    """A table whose players sit in play order from the mano (clockwise seats n..1, button on seat 1; sintético:
    seats 1..n counter-clockwise, the button on the mano)."""

    def __init__(self, game: str, players: list[str], *, stacks: int | list[int] = 100_000, j: str = "ES-AN",
                 **table: Any) -> None:
        self.game = game
        self.players = players
        n = len(players)
        stack_list = stacks if isinstance(stacks, list) else [stacks] * n
        if game == "poker-sintetico":
            seats = [{"seat": k + 1, "player": p, "stack": s} for k, (p, s) in enumerate(zip(players, stack_list, strict=True))]
            button = 1
        else:
            seats = [{"seat": n - k, "player": p, "stack": s} for k, (p, s) in enumerate(zip(players, stack_list, strict=True))]
            button = 1
        self.table = {"seats": seats, "button": button, **table}
        self.table.setdefault("minimum", 1000)
        self.j = j
        self.events: list[dict[str, Any]] = []
        self.shoe: list[str] = []

    def hand(self, amounts: int | list[int] | None = None, prefix: str = "", players: list[str] | None = None) -> Table:
        ps = players or self.players
        if amounts is None:
            amounts = self.table.get("ante", self.table["minimum"] // 2)
        amts = amounts if isinstance(amounts, list) else [amounts] * len(ps)
        for p, a in zip(ps, amts, strict=True):
            self.events.append({"bet": {"id": prefix + p.lower(), "player": p, "kind": "hand", "amount": a}})
        return self

    def deal(self, holes: list[str] | None = None, board: str = "", board2: str = "", **kw: Any) -> Table:
        if holes is not None:
            self.shoe += stacked_shoe(self.game, [cards(h) for h in holes], cards(board), cards(board2),
                                      deck=self.table.get("deck"), early_card=self.table.get("early-card", False),
                                      **{k: cards(v) if isinstance(v, str) else v for k, v in kw.items()})
        self.events.append({"deal": {}})
        return self

    def act(self, player: str, do: str, prefix: str = "", **fields: Any) -> Table:
        body: dict[str, Any] = {"bet": prefix + player.lower(), "do": do}
        for k, v in fields.items():
            body[k.replace("_", "-")] = v
        self.events.append({"act": body})
        return self

    def acts(self, script: str, prefix: str = "") -> Table:
        """'A bet 2000; B call; C fold' -> acts."""
        for part in script.split(";"):
            words = part.split()
            if not words:
                continue
            fields: dict[str, Any] = {}
            if len(words) > 2:
                fields["amount"] = int(words[2])
            self.act(words[0], words[1], prefix=prefix, **fields)
        return self

    def doc(self) -> dict[str, Any]:
        d: dict[str, Any] = {"game": self.game, "jurisdiction": self.j, "table": self.table, "events": self.events}
        if self.shoe:
            d["shoe"] = self.shoe
        return d

    def settle(self) -> dict[str, Any]:
        return settle_document(self.doc())


@pytest.fixture
def table() -> type[Table]:
    return Table
