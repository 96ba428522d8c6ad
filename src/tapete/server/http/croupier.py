"""The croupier's and the table chief's routes: open a round, no va más, the electronic draw, a keyed result and
its confirmation, the chief's correction, void and limit change. Each asks `guards.staff` (the table's croupier or
chief, never a player) before the service touches the table; a retried request with the same Idempotency-Key is
answered from the first (`guards.idem`)."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations at runtime

from typing import Any

from fastapi import FastAPI, Request

from tapete.server.http.auth import Me
from tapete.server.http.guards import IdemKey, idem, table_staff
from tapete.server.http.models import CloseIn, CorrectIn, LimitsIn, OutcomeIn, VoidIn
from tapete.server.jornada import ops as jornada_ops


def install(app: FastAPI, server: Any) -> None:
    """The routes, on the app itself (the role matrix and the API's listing read the routes one by one)."""
    service = server.service

    @app.post("/api/tables/{table_id}/open", tags=["croupier"])
    def open_round(table_id: str, user: Me) -> dict[str, Any]:
        """Open betting for the next round (tables the croupier drives)."""
        table_staff(service, user, table_id, "croupier", "chief")
        return service.open_round(table_id, user.username)

    @app.post("/api/tables/{table_id}/close", tags=["croupier"])
    def close(table_id: str, body: CloseIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """*No va más*. At a card table this deals the coup (a live table's croupier keys the cards)."""
        table_staff(service, user, table_id, "croupier", "chief")
        return service.close(table_id, user.username, body.cards, idem(user, idempotency_key, request, body))

    @app.post("/api/tables/{table_id}/draw", tags=["croupier"])
    def draw(table_id: str, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The electronic outcome, from the round's committed seed, settled at once."""
        table_staff(service, user, table_id, "croupier", "chief")
        return service.draw(table_id, user.username, idem(user, idempotency_key, request, {}))

    @app.post("/api/tables/{table_id}/outcome", tags=["croupier"])
    def outcome(table_id: str, body: OutcomeIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Key the physical result (a live table); the settlement is shown, then confirmed."""
        table_staff(service, user, table_id, "croupier", "chief")
        return service.key_outcome(table_id, user.username, body.value, body.name, body.last,
                                   idem(user, idempotency_key, request, body))

    @app.post("/api/tables/{table_id}/confirm", tags=["croupier"])
    def confirm(table_id: str, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Confirm the keyed result: the settlement is booked."""
        table_staff(service, user, table_id, "croupier", "chief")
        return service.confirm(table_id, user.username, idem(user, idempotency_key, request, {}))

    @app.post("/api/tables/{table_id}/correct", tags=["chief"])
    def correct(table_id: str, body: CorrectIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The table chief corrects a keyed result before it is confirmed, saying why (`reason`: recorded, and
        read out in the players' feed)."""
        table_staff(service, user, table_id, "chief")
        return service.correct(table_id, user.username, body.value, body.name, body.last, idem(user, idempotency_key, request, body),
                               reason=body.reason)

    @app.post("/api/tables/{table_id}/void", tags=["chief"])
    def void(table_id: str, body: VoidIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The table chief voids the spin or coup in progress, as the engine's rules allow."""
        table_staff(service, user, table_id, "chief")
        return service.void(table_id, user.username, body.reason, idem(user, idempotency_key, request, body))

    @app.post("/api/tables/{table_id}/limits", tags=["chief"])
    def limits(table_id: str, body: LimitsIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The table chief changes the limits, where the jurisdiction allows (the engine decides when)."""
        table_staff(service, user, table_id, "chief")
        # in a jornada the anticipo is completed and the guarantee recomputed with it (jornada/ops.py)
        return jornada_ops.limits(service, table_id, user.username, body.values,
                                  idem(user, idempotency_key, request, body, required=False))
