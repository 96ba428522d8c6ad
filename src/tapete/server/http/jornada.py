"""The jornada's routes (server/jornada): a table opened and closed by its chief, the drop and the tips, the books
per table for the chief and the inspector, and the cage's guarantee."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations, local to `router`, at runtime

from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from pydantic import Field, StrictInt

from tapete.core.errors import TapeteError
from tapete.server.http import guards, security, web
from tapete.server.http.auth import Me, User
from tapete.server.http.guards import IdemKey, idem
from tapete.server.http.models import Body, Cents, Username
from tapete.server.jornada import ops, report
from tapete.server.jornada.window import check_order, parse_time

Count = Annotated[StrictInt, Field(ge=-(10**11), le=10**11)]


class OpenIn(Body):
    """The anticipo counted in (cents)."""

    anticipo: Cents


class CloseIn(Body):
    """What the chief counted (cents): the float out, the drop box, the tips box, the cagnotte."""

    float: Count
    drop: Count = 0
    tips: Count = 0
    cagnotte: Count = 0


class DropIn(Body):
    player: str = Username
    amount: Cents


class TipIn(Body):
    amount: Cents


def install(app: FastAPI, server: Any) -> None:
    """The jornada's routes, on the app itself (an included router shows in `app.routes` as one opaque entry: the
    role matrix and the API's listing read the routes one by one)."""
    r = app
    service, db = server.service, server.db

    def staff(user: User, table: str, *roles: str) -> None:
        service.spec(table)                         # unknown-table (404) before the roles
        guards.staff(user, table, *roles)

    @r.post("/api/tables/{table_id}/jornada/open", tags=["jornada"])
    def open_table(table_id: str, body: OpenIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The chief opens the table in the jornada with its anticipo counted in (a signed record in its log)."""
        staff(user, table_id, "chief")
        return ops.open_table(service, table_id, user.username, body.anticipo, idem(user, idempotency_key, request, body))

    @r.post("/api/tables/{table_id}/jornada/close", tags=["jornada"])
    def close_table(table_id: str, body: CloseIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The chief closes the table: the float counted out and its boxes counted (refused unless the ledger's)."""
        staff(user, table_id, "chief")
        return ops.close_table(service, table_id, user.username, body.model_dump(),
                               idem(user, idempotency_key, request, body))

    @r.post("/api/tables/{table_id}/drop", tags=["jornada"])
    def drop(table_id: str, body: DropIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Cash changed into chips at the table: the chips from the float, the cash into the table's box."""
        staff(user, table_id, "croupier", "chief")
        return ops.drop(service, table_id, user.username, body.player, body.amount, idem(user, idempotency_key, request, body))

    @r.post("/api/tables/{table_id}/tip", tags=["jornada"])
    def tip(table_id: str, body: TipIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """A player's tip to the table's staff, from his own chips into the tips box (never part of the win)."""
        service.spec(table_id)
        if not user.plays():
            raise TapeteError("forbidden", "only players tip, from their own chips")
        return ops.tip(service, table_id, user.username, body.amount, idem(user, idempotency_key, request, body))

    @r.get("/api/jornada", tags=["jornada"])
    def books(user: Me, start: Annotated[str | None, Query(alias="from", max_length=40)] = None,
              end: Annotated[str | None, Query(alias="to", max_length=40)] = None,
              table: Annotated[str | None, Query(max_length=64)] = None) -> dict[str, Any]:
        """The books of every table jornada opened in the period (default: the open ones and today's), per table,
        game, cloth and for the casino, with the guarantee the cage must hold (chief of the tables, inspector)."""
        if not user.has("chief", "inspector"):
            raise TapeteError("forbidden", f"{user.username} is not chief or inspector")
        zone = server.config.casino.timezone
        a, b = parse_time(start, "from", zone), parse_time(end, "to", zone)
        check_order(a, b)
        if table is not None:
            service.spec(table)
        allowed = None if user.has("inspector") else user.tables
        with db.snapshot() as conn:
            return report.period(conn, a, b, table, allowed, detail=False)

    templates = Jinja2Templates(directory=web.HERE / "templates")

    @r.get("/books", include_in_schema=False)
    def books_page(request: Request) -> Response:
        """The jornada's books per table for the chief and the inspector (web/templates/books.html, static/books.js):
        a visitor is asked to log in (401), anyone else is told the page is the staff's (403)."""
        lang = web.language(request)
        viewer: User | None = None
        token, _ = security.request_token(request, None)
        if token:
            try:
                viewer = server.auth.cached(token) or server.auth.authenticate(token)
            except TapeteError:
                viewer = None
        state, status = "ok", 200
        if viewer is None:
            state, status = "login", 401
        elif not viewer.has("chief", "inspector"):
            state, status = "forbidden", 403
        words = BOOKS_TEXT.get(lang, BOOKS_TEXT["es"])
        tables = [] if state != "ok" or viewer is None else [
            {"id": t.id, "name": t.name or t.id} for t in server.config.tables if viewer.has("inspector") or viewer.works(t.id)]
        data = {"lang": lang, "t": web.strings(lang), "casino": server.config.casino.name,
                "currency": server.config.casino.currency, "errors": web.error_sentences(lang), "page": "books",
                "b": words, "state": state, "tables": tables, "timezone": server.config.casino.timezone}
        return templates.TemplateResponse(request, "books.html", {
            "lang": lang, "t": web.strings(lang), "b": words, "title": words["title"], "casino": server.config.casino.name,
            "data": data, "path": request.url.path, "langs": web.language_links(lang), "state": state,
            "tables": tables}, status_code=status)


# The books page's own words (es, en; Galician and Catalan read the Spanish).
BOOKS_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "The jornada's books", "table": "Table", "all_tables": "All tables", "from": "From", "to": "To",
        "show": "Show", "guarantee": "Guarantee the cage must hold now", "opening_float": "Opening float (anticipo)",
        "fills": "Fills", "credits": "Credits", "drop": "Drop (cash changed at the table)", "closing_float": "Closing float",
        "win": "Win", "cagnotte": "Cagnotte", "result": "Result (win + cagnotte)", "tips": "Tips (kept apart)",
        "handle": "Handle (total staked)", "hold": "Hold (result ÷ handle)", "theoretical": "Theoretical win",
        "sd": "Standard deviation", "deviations": "The result lies {n} standard deviations from the theoretical win",
        "no_sd": "No deviation to measure yet", "reconciled": "Reconciled with the ledger",
        "not_reconciled": "NOT reconciled: the float does not match its play", "open": "open", "closed": "closed",
        "opened": "Opened {when} by {who}", "closed_at": "closed {when} by {who}", "strategy": "Strategy assumed",
        "bets": "Bets settled", "chart": "Result and theoretical win over the jornada", "actual": "Result",
        "expected": "Theoretical win", "no_points": "No bet settled yet.", "casino": "The casino",
        "none": "No table was opened in a jornada in this period.", "cloth": "cloth of table {id}",
        "login_needed": "The books are the table chief's and the inspector's: log in to read them.",
        "login": "Log in", "forbidden": "This page is for the table chief and the inspector.",
        "login_staff": "Log in as staff", "figure": "Figure", "amount": "Amount", "no_bets": "no bets",
    },
    "es": {
        "title": "Los libros de la jornada", "table": "Mesa", "all_tables": "Todas las mesas", "from": "Desde", "to": "Hasta",
        "show": "Mostrar", "guarantee": "Garantía que debe tener la caja ahora", "opening_float": "Anticipo de apertura",
        "fills": "Reposiciones", "credits": "Retiradas", "drop": "Efectivo cambiado en la mesa", "closing_float": "Anticipo al cierre",
        "win": "Resultado de la mesa", "cagnotte": "Cagnotte", "result": "Resultado con la cagnotte",
        "tips": "Propinas (aparte)", "handle": "Total apostado", "hold": "Retención (resultado ÷ apostado)",
        "theoretical": "Resultado teórico", "sd": "Desviación típica",
        "deviations": "El resultado está a {n} desviaciones típicas del teórico", "no_sd": "Aún no hay desviación que medir",
        "reconciled": "Cuadra con el libro mayor", "not_reconciled": "NO cuadra: el anticipo no corresponde a su juego",
        "open": "abierta", "closed": "cerrada", "opened": "Abierta {when} por {who}", "closed_at": "cerrada {when} por {who}",
        "strategy": "Estrategia supuesta", "bets": "Apuestas liquidadas",
        "chart": "Resultado y resultado teórico a lo largo de la jornada", "actual": "Resultado", "expected": "Teórico",
        "no_points": "Aún no se ha liquidado ninguna apuesta.", "casino": "El casino",
        "none": "Ninguna mesa se abrió en una jornada en este periodo.", "cloth": "paño de la mesa {id}",
        "login_needed": "Los libros son del jefe de mesa y del inspector: inicie sesión para leerlos.",
        "login": "Iniciar sesión", "forbidden": "Esta página es del jefe de mesa y del inspector.",
        "login_staff": "Iniciar sesión como personal", "figure": "Concepto", "amount": "Importe", "no_bets": "sin apuestas",
    },
}
