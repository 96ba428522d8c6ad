"""The HTTP and WebSocket API (FastAPI). Commands over HTTP, each table's live stream over a WebSocket.

Every endpoint but health, games and the table list needs a session token, and checks the caller's role;
every request that moves money needs an `Idempotency-Key` header. Errors are the engine's error
documents: `{"error": {"code", "message", "source"?, "bet"?}}` with an HTTP status per code.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, Header, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy import func, select, update

import tapete
from tapete.core.errors import TapeteError
from tapete.server.audit import chains as audit
from tapete.server.audit import staff_log
from tapete.server.config import CasinoConfig
from tapete.server.http import live, roster, security, views, web
from tapete.server.http.auth import Auth, Me, User, check_password
from tapete.server.http.fanout import Fanout
from tapete.server.http.fanout import drain as _drain
from tapete.server.http.fanout import dumps as fanout_dumps
from tapete.server.http.guards import IdemKey, casino_wide, idem, need, staff
from tapete.server.http.health import Health
from tapete.server.http.lane import App, BetLane
from tapete.server.http.metrics import CONTENT_TYPE as METRICS_TYPE
from tapete.server.http.metrics import Metrics
from tapete.server.http.models import (
    ActIn,
    BetsIn,
    LoginIn,
    NameIn,
    RebuyIn,
    RestIn,
    SitIn,
    UserIn,
)
from tapete.server.http.routing import Router
from tapete.server.http.status import STATUS
from tapete.server.jornada import window as periods
from tapete.server.money import cage, ledger
from tapete.server.players.care import Care
from tapete.server.storage.db import Database, bets, casino_tables, ledger_tx, postings, rounds, users
from tapete.server.storage.writers import BetWriters
from tapete.server.tables import circle, privacy, visibility
from tapete.server.tables.cluster import ClusterOwnership
from tapete.server.tables.runtime import Broadcaster, Clock, Ownership
from tapete.server.tables.service import TableService
from tapete.server.tables.visibility import Viewer

log = logging.getLogger("tapete.server")





THREADS_SQLITE = 2
# Measured (benchmarks/bench_server.py, 2 cores): 4 or 8 workers ~290 bets/s, 12 ~240, 24 ~170. More threads
# hold more row locks while they wait for the interpreter lock between round trips: a convoy, not parallelism.
THREADS_PG = 8
# The bets' writer threads on PostgreSQL (writers.py), measured apart (bench_server.py pg-1, 1,000 one-bet requests/s,
# one process, 2 cores, 2026-11-26): 8 writers p99 438 ms and 374 refusals, 4 → 234 ms, 3 → 181-217 ms and 114-124
# refusals, 2 → 238 ms. Fewer writers make larger batches (fewer transactions for the same bets) and fewer threads
# waiting for the interpreter with a table's row lock held.
WRITERS_PG = 3


class Server:
    """One process of the casino: database, tables, sessions, streams, ownership and clock."""

    def __init__(self, config: CasinoConfig, database_url: str | None = None, node: str | None = None) -> None:
        self.config = config
        self.db = Database(database_url)
        self.node = node
        self.router: Router | None = None
        self.broadcaster = Broadcaster(self.db)
        self.service = TableService(self.db, config, publish=self.broadcaster.publish_local)
        self.auth = Auth(self.db, config.security)
        self.care = Care(self.db, config)          # limits, self-exclusion, the excluded list (players/care.py)
        self.auth.gate = self.care.on_login
        self.ownership: Ownership | ClusterOwnership = Ownership(self.db, [t.id for t in config.tables],
                                                                 on_acquire=self._acquire)
        if node is None and config.cluster.nodes and not self.db.is_sqlite:
            raise TapeteError("bad-option", "the casino file names the cluster's nodes "
                              f"({', '.join(n.name for n in config.cluster.nodes)}): start each process with --node NAME")
        if node is not None:       # a named node of a cluster: tables owned one node each, writes routed (cluster.py)
            if self.db.is_sqlite:
                raise TapeteError("bad-option", f"--node {node}: a cluster of nodes needs PostgreSQL (--database)")
            self.ownership = ClusterOwnership(self.db, [t.id for t in config.tables], config.cluster, node,
                                              on_acquire=self._acquire)
        self.clock = Clock(self.service, self.ownership)
        self.aliases = privacy.Aliases(self.db)
        self.started = time.time()
        self._layouts: dict[str, list[dict[str, Any]]] = {}
        # The bets' batches are written by threads of their own, one writer at a time per table (writers.py).
        self.writers = BetWriters(self.service.batches, THREADS_SQLITE if self.db.is_sqlite else WRITERS_PG)
        self.health = Health(self, config.security.verify_every_s)

    def layout(self, table_id: str) -> list[dict[str, Any]]:
        """The bet kinds and targets of a fresh table (cached: they follow from the configured limits)."""
        if table_id not in self._layouts:
            spec = self.service.spec(table_id)
            self._layouts[table_id] = views.layout(self.service.game(spec), self.config.jurisdiction_of(spec),
                                                   dict(spec.table))
        return self._layouts[table_id]

    def shown(self, table_id: str, doc: Any, user: User | None) -> Any:
        """A table's document as `user` (None: a visitor without a session) may read it: the table's staff and
        the inspector read logins, anyone else other players' display names (the default by seat at a circle
        table), applied by structure (visibility.by_display_name)."""
        viewer = Viewer.of(user)
        if viewer.sees_logins(table_id):
            return doc
        seats: dict[str, int] = {}
        spec = self.service.specs.get(table_id)
        if spec is not None and circle.table_stakes(self.service.game(spec)):
            with self.db.read() as conn:
                seats = {p: s for s, p in circle.load_seating(conn, table_id).items()}
        return visibility.by_display_name(doc, viewer.login, self.aliases, seats)

    def prepare(self) -> None:
        """Check the schema (a new database is created at head), create the configured tables, staff and demo players."""
        self.db.ensure_schema()
        cage.ensure_house_accounts(self.db)
        self.service.sync_tables()
        created = roster.apply(self.auth, self.config.users)     # the file is the truth for its staff (roster.py)
        for u in self.config.users:
            if u.username in created and u.chips and "player" in u.roles:
                cage.deposit(self.db, u.username, u.chips, actor="config", memo="demo chips")
        circle.seat_configured(self.service)

    def _acquire(self, table_id: str, graceful: bool = False) -> None:
        """This process now owns the table: its cached state is dropped; a table handed over by a live owner
        resumes as it stands, one whose owner died (or any at start) is recovered as its `recovery` says."""
        self.service.forget(table_id)
        if not graceful:
            self.service.recover(table_id)

    async def start(self) -> None:
        import anyio.to_thread

        # Few workers: SQLite has one writer and Python one interpreter lock; dozens of threads contending
        # for them only add convoys. PostgreSQL gains from a few more (they wait on the network).
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS_SQLITE if self.db.is_sqlite else THREADS_PG
        await asyncio.to_thread(self.prepare)
        await asyncio.to_thread(self.health.start)       # the chains and the ledger verified before serving
        self.broadcaster.start_listener()
        await asyncio.to_thread(self.ownership.start)
        self.clock.start()

    async def stop(self) -> None:
        self.health.stop()
        await self.clock.stop()
        self.ownership.stop()
        self.broadcaster.stop()
        self.writers.close()
        self.db.dispose()


def create_app(config: CasinoConfig, database_url: str | None = None, *, clock: bool = True,
               node: str | None = None) -> FastAPI:
    server = Server(config, database_url, node)
    if not clock:
        server.clock.TICK = 3600.0   # tests that drive the phases themselves

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        await server.start()
        try:
            yield
        finally:
            await server.stop()
            if server.router is not None:
                await server.router.close()

    app = App(title="tapete table server", version=tapete.__version__, lifespan=lifespan,
                  description="Live tables of the Spanish casino catalogs: bets, outcomes, settlement, ledger, audit.")
    app.state.server = server
    app.metrics = Metrics(server, server.broadcaster.client_count)

    @app.exception_handler(TapeteError)
    async def tapete_error(_: Request, exc: TapeteError) -> JSONResponse:
        return JSONResponse(exc.document(), status_code=STATUS.get(exc.code, 422))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        detail = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in exc.errors()[:5])
        return JSONResponse({"error": {"code": "bad-request", "message": detail}}, status_code=422)

    security.install(app, config.security)
    app.lane = BetLane(app, server, config.security.max_body_kib * 1024)   # ahead of it all (lane.py)
    if isinstance(server.ownership, ClusterOwnership):
        app.forwarder = server.router = Router(server, config.security.max_body_kib * 1024)  # ahead of the lane
    routes(app, server)
    from tapete.server.http import staff_api

    staff_api.install(app, server)      # the staff pages' reads: player search, audit for a person
    from tapete.server.http import players as player_routes

    player_routes.install(app, server)     # registration, the account page's API, limits and exclusion
    from tapete.server.http import jornada

    jornada.install(app, server)    # the jornada and the books (server/jornada)
    from tapete.server.http import disputes

    disputes.install(app, server)   # a player's dispute about a round, recorded and closed (tables/disputes.py)
    from tapete.server.http import croupier

    croupier.install(app, server)   # the croupier's and the chief's routes: the round, keyed results, voids, limits
    from tapete.server.http import cashier

    cashier.install(app, server)    # the cage: deposits, withdrawals, a table's float
    from tapete.server.http.api_docs import install as install_api_docs

    install_api_docs(app)      # /docs offline: Swagger UI from the package, not a CDN
    web.mount(app, server)
    return app


# ---------------------------------------------------------------------------------------------------
def routes(app: FastAPI, server: Server) -> None:  # noqa: C901 - one place lists the whole API
    service, auth, db = server.service, server.auth, server.db
    fanout = Fanout()

    def sees_table(user: User, table: str, *roles: str) -> bool:
        """Staff of these roles who work this table (a restricted chief sees nothing of another table)."""
        return user.has(*roles) and user.works(table)

    def public(table: str, doc: Any, user: User | None) -> Any:
        """A table's document as `user` may read it: other players by display name (staff of the table see logins)."""
        return server.shown(table, doc, user)

    # -- service -----------------------------------------------------------------------------------
    @app.get("/api/health", tags=["service"])
    def health() -> JSONResponse:
        """The full state (health.py): database, tables (phase, owner, stuck), the last verification of the
        audit chains and the ledger, each table's log head; `degraded` with the reasons (200), 503 when down."""
        status, doc = server.health.full()
        return JSONResponse(doc, status_code=status)

    @app.get("/api/health/live", tags=["service"])
    def health_live() -> JSONResponse:
        """For a load balancer: 200 while this process can serve (its database answers), else 503. Cheap."""
        status, doc = server.health.live()
        return JSONResponse(doc, status_code=status)

    @app.post("/api/health/verify", tags=["audit"])
    def health_verify(user: Me) -> dict[str, Any]:
        """Verify the audit chains and the ledger now (the inspector, or a chief of every table); /api/health
        reports the result."""
        casino_wide(user, "inspector", "chief")
        return server.health.verify().document()

    @app.get("/metrics", tags=["service"], include_in_schema=True)
    def metrics(request: Request, authorization: Annotated[str | None, Header()] = None) -> Response:
        """Prometheus metrics (metrics.py): with `security.metrics_token`, for that bearer token only;
        without it, for loopback clients only."""
        token = server.config.security.metrics_token
        if token is not None:
            if not hmac.compare_digest((authorization or "").encode(), f"Bearer {token}".encode()):
                raise TapeteError("unauthenticated", "/metrics needs the metrics token (security.metrics_token)")
        elif (request.client.host if request.client else "") not in ("127.0.0.1", "::1", "testclient"):
            raise TapeteError("forbidden", "/metrics answers loopback clients only unless security.metrics_token is set")
        return Response(app.metrics.render(), media_type=METRICS_TYPE)

    @app.get("/api/games", tags=["service"])
    def games() -> dict[str, Any]:
        """The games of the tables of this casino, as `tapete games --json` describes them."""
        from tapete.catalog import get_game

        ids = sorted({t.game for t in server.config.tables})
        return {"games": [get_game(g).info() for g in ids]}

    @app.get("/api/tables", tags=["tables"])
    def tables() -> dict[str, Any]:
        """Every table: game, jurisdiction, limits, phase, round, fairness commitment, recent results."""
        with db.read() as conn:
            found = [service.summary(conn, t.id) for t in server.config.tables]
        return {"tables": [public(t["id"], t, None) for t in found]}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    def table(table_id: str, user: Me) -> dict[str, Any]:
        """One table, with the caller's open bets and the decisions due to them."""
        with db.read() as conn:
            out = service.summary(conn, table_id)
            out["actions"] = service.actions(conn, table_id, user.username)
            q = select(bets).where(bets.c.table_id == table_id, bets.c.status == "open")
            if not sees_table(user, table_id, "croupier", "chief", "inspector"):
                q = q.where(bets.c.player == user.username)
            out["open_bets"] = [_bet(r) for r in conn.execute(q.order_by(bets.c.placed_at)).mappings()]
        return public(table_id, out, user)

    @app.get("/api/tables/{table_id}/actions", tags=["tables"])
    def actions(table_id: str, user: Me) -> dict[str, Any]:
        """What the engine allows now: bet kinds with minimum, maximum and every legal target; decisions due."""
        with db.read() as conn:
            found = service.actions(conn, table_id, user.username)
        return public(table_id, found, user)          # a decision's `holder`: another player by display name

    @app.get("/api/tables/{table_id}/view", tags=["tables"])
    def view(table_id: str, user: Me, recent: Annotated[int, Query(ge=0, le=20)] = 1) -> dict[str, Any]:
        """The engine's state as the table shows it (cards dealt, hands, the point, bets on the layout, the
        engine's log); the shoe's undealt cards and any seed stay secret. `recent`: the last settled coups of
        a card table as they ended (newest first), since each coup opens a fresh state."""
        service.spec(table_id)
        with db.read() as conn:
            row, state = service.state_of(conn, table_id)
            past = conn.execute(select(rounds.c.record).where(rounds.c.table_id == table_id, rounds.c.status == "settled")
                                .order_by(rounds.c.id.desc()).limit(recent)).scalars() if recent else []
            records = [r for r in past if r and r.get("view")]
        viewer = Viewer.of(user)
        previous = [visibility.coup_for(viewer, table_id, r) for r in records]
        return public(table_id, views.with_coup_totals(service.spec(table_id).game, {
            "table": table_id, "phase": row["phase"], "round": row["round_no"],
            "state": visibility.state_for(viewer, table_id, state, over=row["phase"] == "settled"),
            "recent": previous}), user)

    @app.get("/api/tables/{table_id}/layout", tags=["tables"])
    def layout(table_id: str) -> dict[str, Any]:
        """Every bet kind and target the engine offers on a fresh table of these limits (what a page draws)."""
        return {"table": table_id, "bets": server.layout(table_id)}

    @app.get("/api/tables/{table_id}/hint", tags=["tables"])
    def hint(table_id: str, user: Me, bet: Annotated[str, Query(min_length=1, max_length=64)]) -> dict[str, Any]:
        """Blackjack: the basic-strategy chart's decision (`tapete strategy`) for the hand a bet plays now."""
        spec = service.spec(table_id)
        if spec.game != "blackjack":
            raise TapeteError("bad-request", f"strategy hints are given at blackjack tables, not {spec.game}")
        with db.read() as conn:
            row, state = service.state_of(conn, table_id)
            owner = conn.execute(select(bets.c.player).where(bets.c.table_id == table_id, bets.c.bet_id == bet,
                                                             bets.c.status == "open")).scalar()
        if owner is None:
            raise TapeteError("unknown-bet", f"no open bet {bet!r} at table {table_id}")
        if owner != user.username and not sees_table(user, table_id, "croupier", "chief", "inspector"):
            raise TapeteError("forbidden", f"bet {bet} is not yours")
        return views.blackjack_hint(state, row["jurisdiction"], bet)

    # -- sessions ----------------------------------------------------------------------------------
    @app.post("/api/login", tags=["sessions"])
    async def login(body: LoginIn, request: Request) -> dict[str, Any]:
        """A session token (Bearer), for API clients. Failed attempts are limited per user and per address."""
        token, user, expires = await auth.login_async(body.username, body.password, security.client_address(request))
        return {"token": token, "user": user.username, "roles": sorted(user.roles), "expires_at": expires}

    @app.post("/api/session", tags=["sessions"])
    async def browser_login(body: LoginIn, request: Request, response: Response) -> dict[str, Any]:
        """A browser's session: the token only in an HttpOnly cookie (page scripts never see it) and a CSRF
        token that the page repeats in an X-CSRF-Token header."""
        token, user, expires = await auth.login_async(body.username, body.password, security.client_address(request))
        security.set_session_cookies(response, request, token, int(expires - time.time()))
        return {"user": user.username, "roles": sorted(user.roles), "expires_at": expires}

    @app.post("/api/logout", tags=["sessions"])
    def logout(user: Me, request: Request, response: Response,
               authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        auth.logout(security.request_token(request, authorization)[0])  # type: ignore[arg-type]
        security.clear_session_cookies(response)
        return {"user": user.username, "logged_out": True}

    @app.get("/api/me", tags=["sessions"])
    def me(user: Me) -> dict[str, Any]:
        with db.read() as conn:
            out: dict[str, Any] = {"user": user.username, "roles": sorted(user.roles), "tables": user.tables}
            if user.has("player"):
                out["balance"] = ledger.balance(conn, ledger.wallet(user.username))
                out["display_name"] = conn.execute(select(users.c.display_name).where(users.c.username == user.username)).scalar()
        return out

    @app.post("/api/me/name", tags=["sessions"])
    def display_name(body: NameIn, user: Me) -> dict[str, Any]:
        """The name other players see for the caller (default: "Seat N" at a circle table, else "Player XXXX")."""
        need(user, "player")
        with db.write() as conn:
            wanted = " ".join(body.name.split())
            taken = conn.execute(select(users.c.username).where(
                users.c.username != user.username,
                (func.lower(users.c.username) == wanted.lower()) | (func.lower(users.c.display_name) == wanted.lower()))).first()
            name = privacy.check_display_name(wanted, taken is not None)
            conn.execute(update(users).where(users.c.username == user.username).values(display_name=name))
        server.aliases.forget(user.username)
        return {"user": user.username, "display_name": name}

    @app.post("/api/users", tags=["sessions"])
    def create_user(body: UserIn, user: Me) -> dict[str, Any]:
        """The cashier opens players' accounts, and nobody else creates accounts through the API: staff
        accounts are the operator's (the casino file, `tapete users` on the server's host)."""
        need(user, "cashier")
        if set(body.roles) != {"player"} or body.tables is not None:
            raise TapeteError("forbidden", "staff accounts are created by the operator (the casino file or `tapete users`), "
                              "not through the API: the cashier opens player accounts")
        if user.has("player"):
            raise TapeteError("forbidden", "no account is both cashier and player")
        check_password(body.password, body.username)
        if not auth.create_user(body.username, password=body.password, roles=body.roles, tables=body.tables,
                                actor=user.username):
            raise TapeteError("user-exists", f"the name {body.username} is taken")
        return {"user": body.username, "roles": sorted(set(body.roles))}

    # -- money -------------------------------------------------------------------------------------
    @app.get("/api/wallets/{username}", tags=["money"])
    def wallet(username: str, user: Me, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> dict[str, Any]:
        """A wallet's balance and last movements: its owner, the cashier and the inspector only."""
        if username != user.username and not user.has("cashier", "inspector"):
            raise TapeteError("forbidden", "a wallet is seen by its owner, the cashier and the inspector")
        account = ledger.wallet(username)
        with db.read() as conn:
            exists = conn.execute(select(ledger.accounts.c.id).where(ledger.accounts.c.id == account)).first()
            if exists is None:
                raise TapeteError("unknown-user", f"no wallet for {username!r}")
            moves = conn.execute(select(postings.c.tx_id, postings.c.amount, postings.c.bet_id, ledger_tx.c.kind,
                                        ledger_tx.c.table_id, ledger_tx.c.ts)
                                 .join(ledger_tx, ledger_tx.c.id == postings.c.tx_id)
                                 .where(postings.c.account_id == account).order_by(postings.c.id.desc()).limit(limit)).mappings()
            return {"user": username, "balance": ledger.balance(conn, account), "movements": [dict(m) for m in moves]}

    @app.get("/api/ledger", tags=["audit"])
    def ledger_view(user: Me, start: Annotated[str | None, Query(alias="from", max_length=40)] = None,
                    end: Annotated[str | None, Query(alias="to", max_length=40)] = None,
                    limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> dict[str, Any]:
        """The ledger's invariants checked from the postings, and every house account's balance; with `from` or
        `to` (ISO time or epoch seconds), the period's transactions too: counted per kind, the first `limit` listed."""
        casino_wide(user, "inspector", "cashier", "chief")
        since, until = window(start, end)
        with db.snapshot() as conn:
            report = ledger.check(conn)
            report["house_accounts"] = {a: b for a, b in ledger.balances(conn).items() if not a.startswith("wallet:")}
            report["wallets_total"] = sum(b for a, b in ledger.balances(conn).items() if a.startswith("wallet:"))
            if since is not None or until is not None:
                report["window"] = periods.transactions(conn, since, until, limit)
        return report

    def window(start: str | None, end: str | None) -> tuple[float | None, float | None]:
        zone = server.config.casino.timezone
        a, b = periods.parse_time(start, "from", zone), periods.parse_time(end, "to", zone)
        periods.check_order(a, b)
        return a, b

    # -- play --------------------------------------------------------------------------------------
    @app.post("/api/tables/{table_id}/bets", tags=["play"], response_model=None)
    async def place_bets(table_id: str, body: BetsIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> Response:
        """Place one or more bets while bets are open: group-committed with the other bets reaching the
        table meanwhile (batch.py), answered once the transaction holding them has committed."""
        service.spec(table_id)
        if not user.plays():      # staff never play (docs/rulings.md#staff-never-play), not even an older account
            raise TapeteError("forbidden", "only players bet" if not user.has("player") else "staff never play")
        items = [b.model_dump() for b in body.bets]
        answer = await server.care.bet(table_id, user.username, items, idem(user, idempotency_key, request, body),
                                       server.writers.bet)
        return Response(fanout_dumps(answer), media_type="application/json")

    @app.post("/api/tables/{table_id}/acts", tags=["play"])
    def act(table_id: str, body: ActIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """A decision on one of the caller's bets (hit, stand, double, prison...). At a live table the
        croupier may key it, with the cards dealt."""
        service.spec(table_id)
        if not user.has("player", "croupier", "chief"):
            raise TapeteError("forbidden", f"{user.username} does not play or deal")
        if user.has("player") and not user.plays():
            raise TapeteError("forbidden", "staff never play: an account both staff and player neither plays nor deals")
        if user.has("croupier", "chief") and not user.has("player"):
            staff(user, table_id, "croupier", "chief")
        roles = set(user.roles) if user.works(table_id) else set(user.roles) - {"croupier", "chief"}
        doc: dict[str, Any] = {"do": body.do, **body.fields}
        if body.bet is not None:
            doc["bet"] = body.bet
        if body.by is not None:
            doc["by"] = body.by
        return service.act(table_id, user.username, roles, doc, body.cards, idem(user, idempotency_key, request, body))

    # -- circle poker: seats -----------------------------------------------------------------------
    def seat_action(table_id: str, user: User, refusal: str, action: Callable[..., dict[str, Any]], args: tuple[Any, ...],
                    key: tuple[str | None, Request, Any]) -> dict[str, Any]:
        """The one shape of the seat endpoints: the table exists, the caller is a player (else `refusal`), and the
        seat action runs with his own wallet under his Idempotency-Key."""
        service.spec(table_id)
        if not user.plays():
            raise TapeteError("forbidden", refusal if not user.has("player") else "staff never play")
        if action in (circle.sit, circle.rebuy):
            server.care.check_play(user.username)          # no new stake while excluded or past the session's time
        return action(service, table_id, user.username, *args, idem(user, *key))

    @app.post("/api/tables/{table_id}/seats", tags=["play"])
    def sit(table_id: str, body: SitIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Circle poker: take a free seat with a buy-in (the resto inicial) from the caller's own wallet; he
        plays from the next hand."""
        return seat_action(table_id, user, "only players sit down, with their own wallet", circle.sit,
                           (body.seat, body.buy_in), (idempotency_key, request, body))

    @app.post("/api/tables/{table_id}/seats/leave", tags=["play"])
    def leave(table_id: str, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Circle poker: leave the caller's seat between hands; the stack goes back to the wallet."""
        return seat_action(table_id, user, "only a seated player leaves his seat", circle.leave, (),
                           (idempotency_key, request, {}))

    @app.post("/api/tables/{table_id}/seats/rebuy", tags=["play"])
    def rebuy(table_id: str, body: RebuyIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Circle poker: a reposición between hands from the caller's wallet to his stack."""
        return seat_action(table_id, user, "only a seated player rebuys, with his own wallet", circle.rebuy,
                           (body.amount,), (idempotency_key, request, body))

    @app.post("/api/tables/{table_id}/seats/rest", tags=["play"])
    def rest(table_id: str, body: RestIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Circle poker: rest from the next hands (two at most, then the seat is freed), or come back."""
        return seat_action(table_id, user, "only a seated player rests", circle.rest, (body.rest,),
                           (idempotency_key, request, body))

    @app.delete("/api/tables/{table_id}/seats", tags=["play"])
    def leave_delete(table_id: str, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The same as `POST .../seats/leave`."""
        return leave(table_id, user, request, idempotency_key)

    # -- audit -------------------------------------------------------------------------------------
    @app.get("/api/tables/{table_id}/log", tags=["audit"])
    def table_log(table_id: str, user: Me, after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,   # events.seq: INTEGER
                  limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> dict[str, Any]:
        """The table's hash-chained log (inspector, chief), with the chain verified from the start up to
        the table's stored head (`head`: what `tapete audit verify --head` checks an export against)."""
        service.spec(table_id)
        need(user, "inspector", "chief")
        if not user.has("inspector"):
            staff(user, table_id, "chief")
        with db.snapshot() as conn:
            head = audit.heads(conn, table_id)
            chain = audit.verify_chain(audit.iter_rows(conn, table_id), head)
            records = audit.rows(conn, table_id, after, limit)
        seq, digest = head.get(table_id, (0, audit.genesis(table_id)))
        return {"table": table_id, "chain": chain, "head": {"seq": seq, "hash": digest}, "records": records}

    @app.get("/api/staff-log", tags=["audit"])
    def staff_actions(user: Me, after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
                      limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> dict[str, Any]:
        """Every staff action (accounts, roles, cage, floats, limits, voids, corrections), hash-chained: the inspector."""
        need(user, "inspector")
        with db.snapshot() as conn:
            seq, digest = staff_log.head(conn)
            chain = staff_log.verify(staff_log.rows(conn), (seq, digest))
            records = staff_log.rows(conn, after, limit)
        return {"chain": chain, "head": {"seq": seq, "hash": digest}, "records": records}

    @app.get("/api/rounds", tags=["audit"])
    def round_list(user: Me, table: Annotated[str | None, Query(max_length=64)] = None,
                   limit: Annotated[int, Query(ge=1, le=200)] = 20,
                   start: Annotated[str | None, Query(alias="from", max_length=40)] = None,
                   end: Annotated[str | None, Query(alias="to", max_length=40)] = None) -> dict[str, Any]:
        """The last rounds (newest first), of one table and of a period (`from`, `to`: opened within them)."""
        q = select(rounds.c.id, rounds.c.table_id, rounds.c.number, rounds.c.status, rounds.c.commitment,
                   rounds.c.seed, rounds.c.opened_at, rounds.c.settled_at).order_by(rounds.c.id.desc()).limit(limit)
        if table is not None:
            q = q.where(rounds.c.table_id == table)
        since, until = window(start, end)
        if since is not None:
            q = q.where(rounds.c.opened_at >= since)
        if until is not None:
            q = q.where(rounds.c.opened_at < until)
        with db.read() as conn:
            return {"rounds": [dict(r) for r in conn.execute(q).mappings()]}

    @app.get("/api/rounds/{round_id}", tags=["audit"])
    def round_record(round_id: Annotated[int, Path(ge=1, le=2**31 - 1)], user: Me) -> dict[str, Any]:
        """A settled round's record: what `tapete verify ROUND.json` checks (the seed once revealed)."""
        with db.read() as conn:
            r = conn.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()
        if r is None:
            raise TapeteError("unknown-round", f"no round {round_id}")
        record = dict(r["record"] or {})
        if r["status"] != "settled":
            record = {"round": r["number"], "table_id": r["table_id"], "commitment": r["commitment"], "status": r["status"]}
        record["status"] = r["status"]
        spec = service.specs.get(r["table_id"])
        if spec is not None:
            with db.read() as conn:
                record = visibility.round_record(conn, record, Viewer.of(user), spec, service.game(spec), r["settled_at"])
        return public(r["table_id"], record, user)

    @app.get("/api/stats", tags=["audit"])
    def stats(user: Me) -> dict[str, Any]:
        casino_wide(user, "inspector", "chief", "cashier")
        with db.read() as conn:
            counts = dict(conn.execute(select(bets.c.status, func.count()).group_by(bets.c.status)).all())
            tables_n = conn.execute(select(func.count()).select_from(casino_tables)).scalar_one()
        return {"bets": counts, "tables": tables_n}

    # -- live stream -------------------------------------------------------------------------------
    @app.websocket("/api/tables/{table_id}/stream")
    async def stream(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """The table's live events: a snapshot, then every record of its log as it is committed. Refused
        after the handshake with close code 4401 (no session), 4403 (another site's page), 4404 (no table):
        a close before it would reach the client as a bare HTTP 403."""
        try:
            service.spec(table_id)
            token = security.websocket_token(websocket, token)
            viewer = await asyncio.to_thread(auth.authenticate, token)
        except TapeteError as exc:
            await websocket.accept()
            code = {"unauthenticated": 4401, "forbidden": 4403}.get(exc.code, 4404)
            await websocket.close(code=code, reason=exc.code)
            return
        await websocket.accept()
        queue = server.broadcaster.subscribe(table_id)
        facts = visibility.TableFacts.of(table_id, service.game(service.spec(table_id)))
        watcher = Viewer.of(viewer)
        session = auth.live.open(token or "", viewer.username)      # it ends with its session (live.py)
        ended = asyncio.create_task(_session_ends(session, auth, token, viewer))
        try:
            snapshot = await asyncio.to_thread(_snapshot, service, db, table_id)
            server.broadcaster.mark(table_id, snapshot["seq"])
            await websocket.send_json({"type": "snapshot", **await asyncio.to_thread(public, table_id, snapshot, viewer)})
            after = snapshot["seq"]
            reader = asyncio.create_task(_drain(websocket))
            while not reader.done() and not ended.done():
                items = []
                if queue.empty():
                    getter = asyncio.create_task(queue.get())
                    done, _ = await asyncio.wait({getter, reader, ended}, return_when=asyncio.FIRST_COMPLETED)
                    if getter not in done or ended.done():
                        getter.cancel()
                        break
                    items.append(getter.result())
                while not queue.empty():          # a backlog is taken at once: no task and no wait per record
                    items.append(queue.get_nowait())
                for item in items:
                    if item.get("type") == "resync":
                        snapshot = await asyncio.to_thread(_snapshot, service, db, table_id)
                        after = snapshot["seq"]
                        await websocket.send_json({"type": "snapshot", **await asyncio.to_thread(public, table_id, snapshot, viewer)})
                    elif item["seq"] > after:
                        after = item["seq"]
                        shown = visibility.stream_record(item, watcher, facts)     # the cards this watcher may see
                        if facts.circle:
                            await websocket.send_json(await asyncio.to_thread(public, table_id, shown, viewer))
                            continue
                        # Serialised once per view, shared by every watcher of that view (fanout.py).
                        view = visibility.stream_key(watcher, table_id, fanout.named(table_id, item))
                        await websocket.send_text(await fanout.text(
                            (table_id, item["seq"], view), lambda shown=shown: public(table_id, shown, viewer)))
            if ended.done():
                await websocket.close(code=live.CLOSE_CODE, reason="session-ended")
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            ended.cancel()
            auth.live.close(session)
            server.broadcaster.unsubscribe(table_id, queue)


def _bet(r: Any) -> dict[str, Any]:
    return {"id": r["bet_id"], "player": r["player"], "kind": r["kind"], "on": r["spot"], "amount": r["amount"],
            "staked": r["collected"], "round_id": r["round_id"], "status": r["status"]}




def _snapshot(service: TableService, db: Database, table_id: str) -> dict[str, Any]:
    with db.read() as conn:
        seq = conn.execute(select(casino_tables.c.log_seq).where(casino_tables.c.id == table_id)).scalar_one()
        return {"seq": seq, "table": service.summary(conn, table_id)}


async def _session_ends(session: live.Stream, auth: Auth, token: str | None, viewer: User) -> None:
    """Return when the stream's session ends: at once on a logout or a change of the account in this process,
    else at the next check (every live.RECHECK_S) that finds the session gone or the account changed."""
    while True:
        try:
            await asyncio.wait_for(session.ended.wait(), live.RECHECK_S)
            return
        except TimeoutError:
            pass
        try:
            if await asyncio.to_thread(auth.authenticate, token) != viewer:     # roles or tables changed
                return
        except TapeteError:                                                      # logged out, expired, removed
            return


