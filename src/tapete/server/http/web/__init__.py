"""The browser front end: server-rendered Jinja2 pages, plain ES-module JavaScript and CSS, shipped as
package data and served by `tapete serve` itself (no build step, nothing fetched at run time).

Pages: the lobby (/), login (/login), a player's table (/tables/{id}), his account (/account), the croupier's console
(/croupier/{id}), the cashier (/cashier) and the inspector (/inspector). Each page is a shell rendered
here with the table's public summary and the engine's layout; the page's module then reads and acts
through the same JSON API and WebSocket as any client. Every rule stays in the engine.

The staff pages (console, cashier, inspector) are rendered for their roles only: a visitor, a player or another
member of staff gets 403 with a way to log in as staff, and each member of staff the controls of their roles
(issue 30, item 7); they read the `staff` area of the catalog on top of the `web` one.
"""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from tapete.core.errors import TapeteError
from tapete.i18n import money
from tapete.server.http import security
from tapete.server.http.auth import User
from tapete.server.http.fanout import drain
from tapete.server.http.web import rules_panel
from tapete.server.tables.adapters import adapter_for

if TYPE_CHECKING:
    from tapete.server.http.app import Server

HERE = Path(__file__).parent
LANGS = ("es", "en", "gl", "ca")       # each has a web.json in the catalog (tapete/i18n/<lang>/)
COOKIE = "tapete_lang"
LOBBY_WATCHERS = 1000      # open lobby streams at once (it needs no session); more are told busy (1013)
LOBBY_PER_ADDRESS = 16     # of them from one address (issue 26, item 11: one client cannot take them all)
FAMILIES = {  # game id -> the page's module (static/games/<family>.js); every other game: generic.js
    "roulette-french": "roulette", "roulette-american": "roulette", "roulette-french-short": "roulette",
    "blackjack": "blackjack", "punto-banca": "baccarat", "craps": "craps",
    "boule": "boule", "wheel-of-fortune": "wheel", "trente-quarante": "trente",
    "tripoker": "poker", "trijoker": "poker", "poker-sin-descarte": "poker", "pai-gow": "poker",
    "casino-monte": "monte", "chemin-de-fer": "chemin", "baccarat-two-tables": "chemin",
    "monte-banca": "montebanca",
}


@cache
def strings(lang: str) -> dict[str, str]:
    """The page strings of one language: the `web` area of the one message catalog (tapete/i18n/<lang>/web.json)."""
    from tapete.i18n import area

    return area(lang, "web")


@cache
def staff_strings(lang: str) -> dict[str, str]:
    """The staff pages' strings (console, cashier, inspector, their refusals): the `staff` area of the catalog,
    over the `web` area (tapete/i18n/<lang>/staff.json)."""
    from tapete.i18n import area

    return {**strings(lang), **area(lang, "staff")}


@cache
def error_sentences(lang: str) -> dict[str, str]:
    """Error codes as the catalog's sentences (the `error.<code>` keys of the play area, then the web area's
    `err_<code>`), for the pages: a refused action reads as a sentence, its code behind a details toggle."""
    from tapete.i18n import area

    out = {k[len("error."):]: v for k, v in area(lang, "play").items()
           if k.startswith("error.") and k.count(".") == 1 and "{" not in v}
    out.update({k[len("err_"):]: v for k, v in area(lang, "web").items() if k.startswith("err_")})
    return out


def language_links(lang: str) -> list[dict[str, str]]:
    """The other languages of the pages, each named in itself."""
    return [{"code": code, "name": strings(code)["lang_name"]} for code in LANGS if code != lang]


def language(request: Request) -> str:
    """?lang=es|en|gl|ca, else the cookie, else the browser's preference, else Spanish."""
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return asked
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGS:
        return cookie
    accept = request.headers.get("accept-language", "")
    first = accept[:2].lower()
    return first if first in LANGS else "es"


def family(game_id: str) -> str:
    from tapete.games.poker.circle import VARIANTS

    if game_id in VARIANTS:          # circle poker: seats, buy-ins, the hand and the showdown (games/circle.js)
        return "circle"
    return FAMILIES.get(game_id, "generic")


def mount(app: FastAPI, server: Server) -> None:
    """Serve the static files and the pages on `app`."""
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    def render(request: Request, template: str, title: str, page: dict[str, Any], status_code: int = 200,
               staff_page: bool = False, **context: Any) -> Response:
        lang = language(request)
        t = staff_strings(lang) if staff_page else strings(lang)
        errors = error_sentences(lang)
        if staff_page:       # a refusal read by the staff names the player as "the player", never "you"
            errors = {**errors, **{k[len("staff_err_"):]: v for k, v in t.items() if k.startswith("staff_err_")}}
        data = {"lang": lang, "t": t, "casino": server.config.casino.name, "currency": server.config.casino.currency,
                "timezone": server.config.casino.timezone, "errors": errors, **page}
        response = templates.TemplateResponse(request, template, {
            "lang": lang, "t": t, "title": title, "casino": server.config.casino.name, "data": data,
            "path": request.url.path, "langs": language_links(lang), "st": staff_strings(lang),
            "help_url": server.config.players.help_url, **context},
            status_code=status_code)
        if request.query_params.get("lang") in LANGS:
            response.set_cookie(COOKIE, lang, max_age=365 * 86400, samesite="lax")
        return response

    def summaries() -> list[dict[str, Any]]:
        with server.db.read() as conn:
            out = []
            for spec in server.config.tables:
                s = server.service.summary(conn, spec.id)
                s["seats_free"] = len(s["circle"]["free"]) if "circle" in s else seats_free(server, conn, spec.id)
                s["family"] = family(spec.game)
                s["hours"] = opening_hours(spec.hours)
                s["max_bet"] = s["limits"].get("maximum") or max(
                    (k["maximum"] for k in server.layout(spec.id) if k.get("maximum")), default=None)
                out.append(server.shown(spec.id, s, None))     # a visitor's page: other players never by login
        return out

    def viewer(request: Request) -> User | None:
        """The page's visitor, from the session cookie (or a bearer token): None without a valid session."""
        token, _ = security.request_token(request, request.headers.get("authorization"))
        if not token:
            return None
        try:
            return server.auth.cached(token) or server.auth.authenticate(token)
        except TapeteError:
            return None

    def refused(request: Request, user: User | None, needs: tuple[str, ...]) -> Response:
        """A staff page asked for by a visitor or by someone without the role: 403, with the way to log in as staff."""
        lang = language(request)
        st = staff_strings(lang)
        return render(request, "forbidden.html", st["staff_only_title"], {"page": "forbidden"}, status_code=403,
                      staff_page=True, who=user.username if user else None,
                      needs=", ".join(st.get(f"role_{r}", r) for r in needs),
                      next=request.url.path)

    def me_doc(user: User) -> dict[str, Any]:
        return {"user": user.username, "roles": sorted(user.roles), "tables": list(user.tables) if user.tables is not None else None}

    def table_page(request: Request, table_id: str, template: str, role: str, user: User | None = None) -> Response:
        try:
            spec = server.service.spec(table_id)
        except TapeteError:
            return HTMLResponse(templates.get_template("missing.html").render(
                t=strings(language(request)), lang=language(request), title="404", casino=server.config.casino.name,
                data={}, path=request.url.path, table_id=table_id, langs=language_links(language(request)),
                st=staff_strings(language(request)), help_url=server.config.players.help_url), status_code=404)
        with server.db.read() as conn:
            summary = server.service.summary(conn, table_id)
        summary = server.shown(table_id, summary, None)       # the shell is anyone's: players by display name
        game = server.service.game(spec)
        summary["max_bet"] = summary["limits"].get("maximum") or max(
            (k["maximum"] for k in server.layout(table_id) if k.get("maximum")), default=None)
        lang = language(request)
        name = game.name_en if lang == "en" else game.name_es
        info = game.info()
        jurisdiction = server.config.jurisdiction_of(spec)      # a table without its own: the casino's
        panel = rules_panel.build(game, jurisdiction, spec, server.layout(table_id), strings(lang),
                                  lambda cents: money(lang, cents)) if role == "table" else None
        page = {"page": role, "table": summary, "family": family(spec.game), "layout": server.layout(table_id),
                "kinds": info["kinds"], "verbs": info["verbs"], "outcome_names": list(game.outcome_names),
                "uses_shoe": game.uses_shoe, "wheel": wheel_order(spec.game), "payouts": payouts(game, jurisdiction),
                "spot_pays": rules_panel.spot_pays(game, jurisdiction),
                "bet_fields": sorted(game.extra_bet_fields),
                "places": int(spec.table.get("boxes") or spec.seats or boxes_of(game, jurisdiction) or 7)}   # boxes or seats
        if user is not None:                 # a staff page: who is at it, and the table's opening hours
            page["me"] = me_doc(user)
            page["hours"] = opening_hours(spec.hours)
        return render(request, template, f"{summary['name']} · {name}", page, staff_page=user is not None, table=summary,
                      game_name=name, hours=opening_hours(spec.hours), timezone=server.config.casino.timezone,
                      chief=bool(user and user.has("chief")), rules=panel)

    @app.get("/", include_in_schema=False)
    def lobby(request: Request) -> Response:
        tables = summaries()
        lang = language(request)
        games: dict[str, list[dict[str, Any]]] = {}
        for s in tables:
            games.setdefault(s["game_name_en"] if lang == "en" else s["game_name_es"], []).append(s)
        return render(request, "lobby.html", strings(lang)["lobby"], {"page": "lobby"}, games=games,
                      timezone=server.config.casino.timezone)

    def public_row(table_id: str) -> dict[str, Any]:
        """What the lobby shows of a table to anyone, visitors included: no player, bet or card."""
        with server.db.read() as conn:
            s = server.service.summary(conn, table_id)
            free = len(s["circle"]["free"]) if "circle" in s else seats_free(server, conn, table_id)
        return {"id": table_id, "phase": s["phase"], "round": s["round"], "seconds_left": s["seconds_left"],
                "open_now": s["open_now"], "seats_free": free}

    lobby_watchers = [0]
    lobby_by_address: dict[str, int] = {}

    @app.websocket("/api/lobby/stream")
    async def lobby_stream(websocket: WebSocket) -> None:
        """The lobby's live rows (phase, countdown, free seats) for anyone: a row each time a table's log grows."""
        await websocket.accept()
        address = websocket.client.host if websocket.client else "?"
        if lobby_watchers[0] >= LOBBY_WATCHERS or lobby_by_address.get(address, 0) >= LOBBY_PER_ADDRESS:
            await websocket.close(code=1013, reason="busy")      # an open door: a bounded one
            return
        lobby_watchers[0] += 1
        lobby_by_address[address] = lobby_by_address.get(address, 0) + 1
        ids = [spec.id for spec in server.config.tables]
        changed: asyncio.Queue[str] = asyncio.Queue()
        queues = {tid: server.broadcaster.subscribe(tid) for tid in ids}

        async def forward(tid: str, queue: asyncio.Queue[Any]) -> None:
            while True:
                await queue.get()
                changed.put_nowait(tid)

        tasks = [asyncio.create_task(forward(tid, q)) for tid, q in queues.items()]
        reader = asyncio.create_task(drain(websocket))
        try:
            for tid in ids:
                await websocket.send_json(await asyncio.to_thread(public_row, tid))
            while not reader.done():
                getter = asyncio.create_task(changed.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                await asyncio.sleep(0.05)                 # a burst of records: one row
                due = {getter.result()}
                while not changed.empty():
                    due.add(changed.get_nowait())
                for tid in due:
                    await websocket.send_json(await asyncio.to_thread(public_row, tid))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            for task in tasks:
                task.cancel()
            reader.cancel()
            for tid, q in queues.items():
                server.broadcaster.unsubscribe(tid, q)
            lobby_watchers[0] -= 1
            lobby_by_address[address] -= 1
            if not lobby_by_address[address]:
                del lobby_by_address[address]

    @app.get("/login", include_in_schema=False)
    def login(request: Request) -> Response:
        lang = language(request)
        return render(request, "login.html", strings(lang)["login"], {
            "page": "login", "open_registration": server.config.security.open_registration})

    @app.get("/account", include_in_schema=False)
    def account(request: Request) -> Response:
        """The player's own page (issue 31): statement, rounds with their fairness check, session, limits."""
        return render(request, "account.html", strings(language(request))["acct_title"], {
            "page": "account", "timezone": server.config.casino.timezone,
            "raise_delay_h": server.config.players.raise_delay_h})

    @app.get("/tables/{table_id}", include_in_schema=False)
    def player_table(request: Request, table_id: str) -> Response:
        return table_page(request, table_id, "table.html", "table")

    # The staff pages answer 403 (with a way to log in as staff) to a visitor and to anyone without the role:
    # the page is not rendered, not only its acts refused (issue 30, item 7).
    CONSOLE = ("croupier", "chief")

    @app.get("/croupier", include_in_schema=False)
    def croupier_index(request: Request) -> Response:
        user = viewer(request)
        if user is None or not user.has(*CONSOLE):
            return refused(request, user, CONSOLE)
        first = next((t.id for t in server.config.tables if user.works(t.id)), "")
        return RedirectResponse(f"/croupier/{first}" if first else "/", status_code=307)

    @app.get("/croupier/{table_id}", include_in_schema=False)
    def croupier(request: Request, table_id: str) -> Response:
        user = viewer(request)
        if user is None or not user.has(*CONSOLE) or not user.works(table_id):
            return refused(request, user, CONSOLE)
        return table_page(request, table_id, "console.html", "console", user)

    @app.get("/cashier", include_in_schema=False)
    def cashier(request: Request) -> Response:
        user = viewer(request)
        if user is None or not user.has("cashier"):
            return refused(request, user, ("cashier",))
        return render(request, "cashier.html", strings(language(request))["cashier"],
                      {"page": "cashier", "me": me_doc(user)}, staff_page=True)

    @app.get("/inspector", include_in_schema=False)
    def inspector(request: Request) -> Response:
        user = viewer(request)
        if user is None or not user.has("inspector", "chief"):
            return refused(request, user, ("inspector", "chief"))
        ids = [t.id for t in server.config.tables if user.has("inspector") or user.works(t.id)]
        names = {t.id: t.name or t.id for t in server.config.tables}
        return render(request, "inspector.html", strings(language(request))["inspector"],
                      {"page": "inspector", "tables": ids, "names": names, "me": me_doc(user)}, staff_page=True,
                      table_ids=ids, names=names, is_inspector=user.has("inspector"),
                      timezone=server.config.casino.timezone)



def opening_hours(hours: list[str]) -> str:
    """The casino file's opening hours as the pages print them: "20:00–04:00, 10:00–14:00"; "00:00-24:00": all day."""
    return ", ".join(h.replace("-", "–") for h in hours)


def boxes_of(game: Any, jurisdiction: str) -> int | None:
    """How many boxes the game's rules lay on the cloth in this jurisdiction (banked poker: 6 to 9), if they say."""
    return adapter_for(game).boxes(jurisdiction)


def payouts(game: Any, jurisdiction: str) -> dict[str, str]:
    """Each symbol's or kind's payout as "X:1" where the game's rules name them one by one (boule's number and
    chances, the wheel of fortune's symbols), for the cloth to print; {} elsewhere."""
    from tapete.core.money import format_ratio

    return {str(k): format_ratio(v) for k, v in adapter_for(game).payouts(jurisdiction).items()}


def wheel_order(game_id: str) -> list[int | str]:
    """The cells round the wheel: roulette's numbers (the racetrack of announced bets), the wheel of fortune's
    54 cells (one drawing of them, docs/rulings.md#wheel-cells)."""
    if game_id == "wheel-of-fortune":
        from tapete.games.wheel_of_fortune import CELLS

        return list(CELLS)
    if not game_id.startswith("roulette"):
        return []
    from tapete.games.roulette.layout import WHEEL_ORDER

    return list(WHEEL_ORDER)


def seats_free(server: Server, conn: Any, table_id: str) -> int | None:
    """Seats (or blackjack boxes) not taken by a bet of the round; None where the table seats anyone."""
    from sqlalchemy import select

    from tapete.server.storage.db import bets, casino_tables

    spec = server.service.spec(table_id)
    round_id = conn.execute(select(casino_tables.c.round_id).where(casino_tables.c.id == table_id)).scalar()
    players = {r[0] for r in conn.execute(select(bets.c.player).where(
        bets.c.table_id == table_id, bets.c.status == "open", bets.c.round_id == round_id))}
    if spec.seats:
        return max(spec.seats - len(players), 0)
    boxes = spec.table.get("boxes") or (7 if spec.game == "blackjack" else None)
    if boxes:
        row, state = server.service.state_of(conn, table_id)
        playing = state is not None and row["phase"] in ("betting", "closed", "acting", "confirming")
        taken = {b.box for b in getattr(state, "bets", []) if getattr(b, "box", None)} if playing else set()
        return max(int(boxes) - len(taken), 0)
    return None
