"""The server's database: one schema (SQLAlchemy 2 Core) for SQLite (WAL, single process) and PostgreSQL.

Every money movement and every state change of a table is a row here, written in the same transaction;
the process keeps nothing that a restart could lose. Alembic migrations (tapete/server/storage/migrations) create
and evolve the schema; the server creates a new database at head and refuses an older one until
`tapete db upgrade` has migrated it (after a backup).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    text,
)

from tapete.server.storage import fastjson

DEFAULT_URL = "sqlite:///tapete.db"
metadata = MetaData()

users = Table(
    "users", metadata,
    Column("username", String(64), primary_key=True),
    Column("password_hash", Text, nullable=False),
    Column("roles", String(128), nullable=False),          # comma-separated: player,croupier,chief,cashier,inspector
    Column("tables", JSON, nullable=True),                 # staff: the tables they may work (None: all)
    Column("created_at", Float, nullable=False),
    Column("display_name", String(32), nullable=True),     # what other players see (None: "Seat N")
)

sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),    # sha256 of the bearer token: a leaked table leaks no token
    Column("username", String(64), ForeignKey("users.username"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

attempts = Table(
    "attempts", metadata,                                  # rate limits shared by every process: failed logins...
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False),            # user:<name>, addr:<ip>, register:<ip>
    Column("ts", Float, nullable=False),
    Index("ix_attempts_key", "key", "ts"),
)

accounts = Table(
    "accounts", metadata,
    Column("id", String(160), primary_key=True),           # wallet:alice, stakes:t1, float:t1, commission:t1, bank, cage...
    Column("kind", String(16), nullable=False),
    Column("owner", String(64), nullable=True),
    Column("balance", BigInteger, nullable=False, default=0),
    CheckConstraint("kind <> 'wallet' OR balance >= 0", name="wallet_not_negative"),
    CheckConstraint("kind <> 'stakes' OR balance >= 0", name="stakes_not_negative"),
)

ledger_tx = Table(
    "ledger_tx", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ts", Float, nullable=False),
    Column("kind", String(24), nullable=False),           # deposit withdraw bet settle fill credit
    Column("table_id", String(64), nullable=True),
    Column("round_id", Integer, nullable=True),
    Column("actor", String(64), nullable=True),
    Column("memo", Text, nullable=True),
    # The ledger's hash chain (audit/ledger_chain.py): the lane (table:<id> or cage), the place in it, the links.
    Column("chain", String(80), nullable=True),
    Column("chain_seq", Integer, nullable=True),
    Column("prev_hash", String(64), nullable=True),
    Column("hash", String(64), nullable=True),
    Index("ux_ledger_tx_chain", "chain", "chain_seq", unique=True),
)

postings = Table(
    "postings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("ledger_tx.id"), nullable=False),
    Column("account_id", String(160), ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("bet_id", String(64), nullable=True),
    Index("ix_postings_tx", "tx_id"),
    Index("ix_postings_account", "account_id"),
)

casino_tables = Table(
    "casino_tables", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("jurisdiction", String(8), nullable=False),
    Column("config", JSON, nullable=False),               # the game's `table` keys in force
    Column("source", String(16), nullable=False),         # rng | croupier
    Column("state", Text, nullable=True),                 # snapshot of the engine state (tapete.engine.serialize JSON)...
    Column("state_seq", Integer, nullable=False, default=0),   # ...as of this log record; later 'bet' records replay on it
    Column("version", Integer, nullable=False, default=0),
    Column("phase", String(16), nullable=False),          # idle betting closed acting confirming settled
    Column("deadline", Float, nullable=True),
    Column("round_id", Integer, nullable=True),
    Column("round_no", Integer, nullable=False, default=0),
    Column("bet_seq", Integer, nullable=False, default=0),
    Column("seed", String(128), nullable=True),           # secret until revealed in the round record
    Column("draws", Integer, nullable=False, default=0),
    Column("shoe", JSON, nullable=True),                  # electronic shoe: seed, commitment, cards dealt so far
    Column("pre_outcome", Text, nullable=True),           # state before a keyed outcome (correction)
    Column("booked", JSON, nullable=True),                # commission and carry booked for the current state
    Column("history", JSON, nullable=True),               # the last outcomes, newest last
    Column("log_seq", Integer, nullable=False, default=0),
    Column("log_hash", String(64), nullable=False),
    Column("ledger_seq", Integer, nullable=False, default=0, server_default="0"),   # the head of the table's
    Column("ledger_hash", String(64), nullable=True),                              # ledger lane (None: genesis)
    Column("updated_at", Float, nullable=False),
)

rounds = Table(
    "rounds", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), nullable=False),
    Column("number", Integer, nullable=False),
    Column("status", String(16), nullable=False),         # open closed settled
    Column("opened_at", Float, nullable=False),
    Column("settled_at", Float, nullable=True),
    Column("commitment", String(64), nullable=True),
    Column("seed", String(128), nullable=True),           # revealed after settlement
    Column("record", JSON, nullable=True),                # draws, events, settlement: what `tapete verify` reads
    Index("ix_rounds_table", "table_id", "number"),
)

bets = Table(
    "bets", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("bet_id", String(64), primary_key=True),
    Column("round_id", Integer, nullable=False),
    Column("player", String(64), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("spot", JSON, nullable=True),
    Column("amount", BigInteger, nullable=False),
    Column("collected", BigInteger, nullable=False, default=0),
    Column("returned", BigInteger, nullable=False, default=0),
    Column("status", String(16), nullable=False),         # open won lost push void
    Column("placed_at", Float, nullable=False),
    Column("settled_at", Float, nullable=True),
    Index("ix_bets_player", "player"),
    Index("ix_bets_open", "table_id", "status"),
)

events = Table(
    "events", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("ts", Float, nullable=False),
    Column("kind", String(24), nullable=False),
    Column("actor", String(64), nullable=True),
    Column("data", JSON, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
)

idempotency = Table(
    "idempotency", metadata,
    Column("key", String(240), primary_key=True),         # username:Idempotency-Key
    Column("fingerprint", String(64), nullable=False),
    Column("status", Integer, nullable=False),
    Column("response", JSON, nullable=False),
    Column("created_at", Float, nullable=False),
)

staff_log = Table(
    "staff_log", metadata,                                 # staff actions, hash-chained (staff_log.py)
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("ts", Float, nullable=False),
    Column("actor", String(64), nullable=True),
    Column("action", String(32), nullable=False),
    Column("subject", String(160), nullable=True),
    Column("data", JSON, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
)

jornadas = Table(
    "jornadas", metadata,                                  # a table's jornada: opened with its anticipo, closed counted
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("day", String(10), nullable=False),             # the casino's jornada (its date; jornada/rules.py)
    Column("table_id", String(64), nullable=False),
    Column("cloth_of", String(64), nullable=True),         # the physical table whose reversible cloth this is
    Column("game", String(64), nullable=False),
    Column("jurisdiction", String(8), nullable=False),
    Column("status", String(8), nullable=False),           # open closed
    Column("opened_at", Float, nullable=False),
    Column("opened_by", String(64), nullable=True),
    Column("anticipo", BigInteger, nullable=False),        # the float counted in (cents)
    Column("anticipo_due", BigInteger, nullable=False),    # the float the limits in force call for (completed on a change)
    Column("minimum", BigInteger, nullable=True),          # the minimum at the opening: the anticipo's basis
    Column("open_mark", Integer, nullable=False),          # ledger_tx ids after this one are the jornada's...
    Column("closed_at", Float, nullable=True),
    Column("closed_by", String(64), nullable=True),
    Column("close_mark", Integer, nullable=True),          # ...up to (not including) this one
    Column("counted", JSON, nullable=True),                # what the chief counted at the closing
    Column("books", JSON, nullable=True),                  # the books as closed
    Index("ix_jornadas_table", "table_id", "status"),
    Index("ix_jornadas_day", "day"),
)

meta_kv = Table(
    "meta_kv", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=True),
    Column("flag", Boolean, nullable=True),
)

# -- the player's care (issue 31, server/players/): identity, limits, exclusion --------------------------------------
player_care = Table(
    "player_care", metadata,                               # one row per player who registered or set a limit
    Column("username", String(64), ForeignKey("users.username"), primary_key=True),
    Column("birth_date", String(10), nullable=True),       # ISO date, given at registration
    Column("document", String(16), nullable=True, unique=True),   # DNI/NIE, normalised: one account per person
    Column("limits", JSON, nullable=True),                 # {"deposit"|"loss"|"session": {"value", "pending", "from"}}
    Column("excluded_until", Float, nullable=True),        # self-exclusion's end (epoch s); see `excluded_for_good`
    Column("excluded_for_good", Boolean, nullable=False, default=False, server_default="0"),
    Column("session_started_at", Float, nullable=True),    # the play session: from the last login
    Column("updated_at", Float, nullable=False),
)

excluded_documents = Table(
    "excluded_documents", metadata,                        # the operator's list of excluded persons (docs/operations.md)
    Column("document", String(16), primary_key=True),
    Column("added_at", Float, nullable=False),
    Column("note", String(200), nullable=True),
)


def database_url(url: str | None = None) -> str:
    return url or os.environ.get("TAPETE_DATABASE_URL") or DEFAULT_URL


def normalise_url(url: str) -> str:
    """postgresql://... means psycopg 3 here (the driver we install)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


# Each SQLite connection keeps its own page cache, and the pool holds up to sum(SQLITE_POOL) connections: at
# SQLite's default cap (2000 KiB) that is 47 MiB the process may come to hold. Under a steady load a connection's
# cache is mostly reset (WAL: another connection wrote), so the soak measured ~1.5 MiB of SQLite memory in all;
# the explicit cap bounds the worst case (long read-only stretches) at 12 MiB. The B-tree's interior pages fit,
# and a miss is a read from the OS's page cache.
SQLITE_CACHE_KIB = 512
SQLITE_POOL = (16, 8)          # pool_size, max_overflow
# The JSON columns through orjson (fastjson.py): SQLAlchemy's bind and result processors on SQLite, psycopg's
# own dumps and loads on PostgreSQL (the dialect installs them on the connection's adapters).
_JSON = {"json_serializer": fastjson.dumps, "json_deserializer": fastjson.loads}


# A host lost without closing its sockets (issue 33): PostgreSQL drops its sessions within ~5 s — a transaction
# it held open (a table's row lock) is rolled back, so the node that takes the table over is not kept waiting —
# and this side gives up on a dead server as fast.
PG_KEEPALIVES = {"keepalives": 1, "keepalives_idle": 2, "keepalives_interval": 1, "keepalives_count": 3,
                 "tcp_user_timeout": 5000,
                 "options": "-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=3 "
                            "-c tcp_user_timeout=5000"}


class Database:
    """An engine plus the locking discipline of its dialect.

    SQLite has one writer: an in-process lock serialises write transactions (no 'database is locked').
    PostgreSQL serialises per table with `SELECT ... FOR UPDATE` on the table's row.
    """

    def __init__(self, url: str | None = None, *, pool_size: int = SQLITE_POOL[0]) -> None:
        """PostgreSQL: keepalives on both ends (PG_KEEPALIVES)."""
        self.url = normalise_url(database_url(url))
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            path = self.url.split("///", 1)[-1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(self.url, connect_args={"check_same_thread": False, "timeout": 30},
                                                pool_size=pool_size, max_overflow=SQLITE_POOL[1], **_JSON)
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            # No pool_pre_ping: it costs a round trip on every checkout, i.e. on every bet. A connection the
            # server dropped fails its transaction (rolled back, nothing written; the client retries with its
            # Idempotency-Key), and SQLAlchemy then invalidates the pool; pool_recycle retires idle ones.
            self.engine = create_engine(self.url, pool_size=pool_size, max_overflow=16, pool_recycle=1800,
                                        connect_args=PG_KEEPALIVES, **_JSON)
        event.listen(self.engine, "before_cursor_execute", _count_statement)
        self.write_lock = threading.RLock()

    @property
    def dialect(self) -> str:
        return "sqlite" if self.is_sqlite else "postgresql"

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction (committed on success, rolled back on any exception)."""
        if self.is_sqlite:
            with self.write_lock, self.engine.connect() as conn:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    conn.rollback()
                    raise
                conn.commit()
        else:
            with self.engine.begin() as conn:
                yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """Several reads that see ONE committed state (a report that sums across tables: without it, a
        settlement committing between two of its queries makes consistent books look inconsistent)."""
        if self.is_sqlite:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("BEGIN")          # deferred: the snapshot is taken at the first read
                try:
                    yield conn
                finally:
                    conn.rollback()
        else:
            with self.engine.connect() as conn:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
                with conn.begin():
                    yield conn

    def ping(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except Exception:  # noqa: BLE001 - health reports, never raises
            return False

    def migrate(self) -> None:
        """Bring the schema to head: only `tapete db upgrade` (after a backup) and tests call this."""
        from tapete.server.storage.migrations import upgrade

        upgrade(self)

    def ensure_schema(self) -> None:
        """A new database is created at head; an older one is refused (`tapete db upgrade`), never migrated."""
        from tapete.server.storage.migrations import ensure_current

        ensure_current(self)

    def dispose(self) -> None:
        self.engine.dispose()


def statements_sent(conn: Connection) -> int:
    """How many SQL statements this database connection has sent so far (the driver's executes: on PostgreSQL
    each is a round trip, BEGIN and COMMIT not counted). The bet batches' profile reads it before and after."""
    return conn.info.get(_STATEMENTS, 0)


_STATEMENTS = "tapete_statements"


def _count_statement(conn, *_):  # type: ignore[no-untyped-def]
    info = conn.info
    info[_STATEMENTS] = info.get(_STATEMENTS, 0) + 1


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    # WAL: readers never wait for the writer; NORMAL sync is durable across process crashes (not power loss
    # of the last transactions), which is what a SIGKILL tests. isolation_level None: we issue BEGIN ourselves.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
    cur.close()
