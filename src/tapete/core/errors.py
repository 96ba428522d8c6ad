"""The one error type: a stable kebab-case code, a message that names the rule, and its source."""

from __future__ import annotations

from typing import Any

from tapete.core.jurisdictions import cite


class TapeteError(Exception):
    """Invalid input: never a settlement, always an error document (docs/format.md, Errors)."""

    def __init__(self, code: str, message: str, *, source: str | None = None, bet: str | None = None) -> None:
        self.code = code
        self.source = source
        self.bet = bet
        self.message = f"{message}: {cite(source)}" if source else message
        super().__init__(self.message)

    def document(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.bet is not None:
            error["bet"] = self.bet
        if self.source is not None:
            error["source"] = self.source
        return {"error": error}
