"""The cage's routes: chips in and out of a player's wallet (the cashier of that player, never the player
himself: `guards.cashier_for`), and a table's float filled or credited (its cashier or chief). Each movement is
one balanced ledger transaction (money/cage.py); a retried request with the same Idempotency-Key is answered from
the first."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations at runtime

from typing import Any

from fastapi import FastAPI, Request

from tapete.server.http.auth import Me
from tapete.server.http.guards import IdemKey, cashier_for, idem, table_staff
from tapete.server.http.models import FloatIn, MoneyIn
from tapete.server.money import cage


def install(app: FastAPI, server: Any) -> None:
    """The routes, on the app itself (the role matrix and the API's listing read the routes one by one)."""
    service, db = server.service, server.db

    @app.post("/api/cashier/deposit", tags=["money"])
    def deposit(body: MoneyIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Chips in: the player pays at the cage, the wallet is credited."""
        cashier_for(user, body.user)
        return cage.deposit(db, body.user, body.amount, user.username, body.memo, idem(user, idempotency_key, request, body),
                            guard=server.care.deposit_guard)

    @app.post("/api/cashier/withdraw", tags=["money"])
    def withdraw(body: MoneyIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Chips out: never more than the wallet holds."""
        cashier_for(user, body.user)
        return cage.withdraw(db, body.user, body.amount, user.username, body.memo, idem(user, idempotency_key, request, body))

    @app.post("/api/tables/{table_id}/float", tags=["money"])
    def table_float(table_id: str, body: FloatIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """A fill (bank to table) or credit (table to bank) of the table's float."""
        table_staff(service, user, table_id, "cashier", "chief")
        return cage.float_move(db, table_id, body.amount, body.direction, user.username, idem(user, idempotency_key, request, body))
