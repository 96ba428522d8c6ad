"""Staff and players: argon2 password hashes, bearer session tokens, rate-limited login, roles.

Roles (the catalogs' staff): player; croupier (runs a table: no va más, the outcome, a live table's cards);
chief, *jefe de mesa* (voids a spin or coup, corrects a keyed result, changes limits where the
jurisdiction allows); cashier (chips in and out, table fills); inspector (reads everything, changes nothing).
A token is 32 random bytes; the database keeps only its SHA-256. Sessions are cached briefly in memory
(a logout reaches other processes within SESSION_CACHE_S).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Depends, Header, Request
from sqlalchemy import bindparam, delete, func, insert, select, text, update

from tapete.core.errors import TapeteError
from tapete.server.accounts import (  # noqa: F401 - the policy, re-exported for the routes
    MIN_PASSWORD,
    STAFF_ROLES,
    check_password,
    check_roles,
    common_passwords,
)
from tapete.server.audit import staff_log
from tapete.server.config import Security
from tapete.server.http import security
from tapete.server.http.live import LiveSessions
from tapete.server.money import ledger
from tapete.server.storage.db import Database, attempts, sessions, users

SESSION_CACHE_S = 5.0
CACHE_PRUNE_AT = 1024
DISABLED = "!disabled"       # the password hash of a disabled account: no password verifies against it


@dataclass(frozen=True)
class User:
    username: str
    roles: frozenset[str]
    tables: tuple[str, ...] | None = None

    def has(self, *roles: str) -> bool:
        return bool(self.roles & set(roles))

    def plays(self) -> bool:
        """A player and nothing else: staff never play (an account left with both by an older version bets nowhere)."""
        return "player" in self.roles and not self.roles & STAFF_ROLES

    def works(self, table_id: str) -> bool:
        return self.tables is None or table_id in self.tables



async def current_user(request: Request, authorization: Annotated[str | None, Header()] = None) -> User:
    """The caller, from the bearer token or the browser's session cookie (401 without a valid one; a
    cookie's state-changing request needs its CSRF token): from the session cache on the event loop, from
    the database in a worker thread on a miss. Every route that needs a caller depends on this one function."""
    import anyio.to_thread

    token, from_cookie = security.request_token(request, authorization)
    if from_cookie:
        security.check_csrf(request)
    auth = request.app.state.server.auth
    user = auth.cached(token)
    if user is not None:
        return user
    return await anyio.to_thread.run_sync(auth.authenticate, token)


Me = Annotated[User, Depends(current_user)]


class RateLimiter:
    """At most `limit` attempts per `window` seconds per key (a username, an address), counted in the
    database: every process of the casino sees the same count, and a restart forgets nothing.

    An attempt is recorded *before* the password is verified, in the transaction that counts (`reserve`): SQLite's
    single writer, and on PostgreSQL a transaction-scoped advisory lock per key, make count-and-record one step, so
    a burst of logins in parallel gets `limit` verifications, not one per request (issue 26, item 11). A login that
    succeeds takes its records back (`release`): the limit counts failed and pending logins."""

    SWEEP_S = 60.0

    def __init__(self, db: Database, limit: int, window: float = 60.0) -> None:
        self.db = db
        self.limit = limit
        self.window = window
        self._next_sweep = 0.0

    def blocked(self, *keys: str, limit: int | None = None) -> float:
        """Seconds until every key may try again (0 when all may now)."""
        with self.db.read() as conn:
            return self._wait(conn, keys, limit or self.limit, time.time())

    def _wait(self, conn: Any, keys: tuple[str, ...], limit: int, now: float) -> float:
        found = conn.execute(select(attempts.c.key, func.count(), func.min(attempts.c.ts))
                             .where(attempts.c.key.in_(keys), attempts.c.ts > now - self.window)
                             .group_by(attempts.c.key)).all()
        waits = [first + self.window - now for _, n, first in found if n >= limit]
        return max(waits, default=0.0)

    def reserve(self, *keys: str, limit: int | None = None, what: str = "attempts") -> list[int]:
        """Count and record one attempt of each key in one step; too-many-attempts (nothing recorded) when any
        key has had `limit` this window. Returns the records' ids (for `release`)."""
        now = time.time()
        with self.db.write() as conn:
            if not self.db.is_sqlite:           # SQLite: BEGIN IMMEDIATE already admits one writer at a time
                for key in sorted(set(keys)):
                    conn.execute(_ATTEMPT_LOCK, {"k": key})
            wait = self._wait(conn, keys, limit or self.limit, now)
            if wait > 0:
                raise TapeteError("too-many-attempts", f"too many {what}: try again in {int(wait) + 1} s")
            ids = [conn.execute(insert(attempts).values(key=k, ts=now)).inserted_primary_key[0] for k in keys]
            self._sweep(conn, now)
        return ids

    def release(self, ids: list[int]) -> None:
        """Take back attempts `reserve` recorded (a login that succeeded)."""
        if ids:
            with self.db.write() as conn:
                conn.execute(delete(attempts).where(attempts.c.id.in_(ids)))

    def fail(self, *keys: str) -> None:
        now = time.time()
        with self.db.write() as conn:
            conn.execute(insert(attempts), [{"key": k, "ts": now} for k in keys])
            self._sweep(conn, now)

    def _sweep(self, conn: Any, now: float) -> None:
        if now >= self._next_sweep:
            self._next_sweep = now + self.SWEEP_S
            conn.execute(delete(attempts).where(attempts.c.ts < now - self.window))

    def take(self, key: str, limit: int) -> None:
        """Count one attempt of `key`, refusing it (too-many-attempts) when `limit` were made this window."""
        self.reserve(key, limit=limit)

    def reset(self, key: str) -> None:
        with self.db.write() as conn:
            conn.execute(delete(attempts).where(attempts.c.key == key))


_ATTEMPT_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 7412))")


class Auth:
    def __init__(self, db: Database, security: Security) -> None:
        self.db = db
        self.security = security
        self.hasher = PasswordHasher(time_cost=security.argon2_time_cost, memory_cost=security.argon2_memory_kib,
                                     parallelism=security.argon2_parallelism)
        self.limiter = RateLimiter(db, security.login_attempts)
        self._hash_limiter: Any = None
        self._cache: dict[str, tuple[float, User, float]] = {}
        self._lock = threading.Lock()
        self._dummy = self.hasher.hash(secrets.token_hex(8))
        self.live = LiveSessions()       # the open streams: they end with their session (live.py)
        # Called once a login's password is verified, before its session exists (players/care.py: an excluded
        # player gets none); it raises the refusal.
        self.gate: Any = None

    # -- users -------------------------------------------------------------------------------------
    def create_user(self, username: str, *, password: str | None = None, password_hash: str | None = None,
                    roles: list[str] | tuple[str, ...] = ("player",), tables: list[str] | None = None,
                    actor: str | None = None, then: Any = None) -> bool:
        """Create a user (and a player's wallet) with a staff-log record of who did; False when the name is taken.
        `then(conn)` runs in the same transaction (a registration's identity: refused, no account is left)."""
        check_roles(roles)
        hashed = password_hash or self.hasher.hash(password or "")
        with self.db.write() as conn:
            if conn.execute(select(users.c.username).where(users.c.username == username)).first() is not None:
                return False
            conn.execute(insert(users).values(username=username, password_hash=hashed, roles=",".join(sorted(set(roles))),
                                              tables=tables, created_at=time.time()))
            ledger.ensure_account(conn, ledger.wallet(username), owner=username)
            staff_log.record(conn, actor or username, "account-created", username,
                             {"roles": sorted(set(roles)), "tables": tables})
            if then is not None:
                then(conn)
        return True

    def set_roles(self, username: str, roles: list[str], tables: list[str] | None, actor: str) -> None:
        """The operator grants (or takes away) roles and tables: `tapete users roles`."""
        check_roles(roles)
        with self.db.write() as conn:
            found = conn.execute(select(users.c.roles, users.c.tables).where(users.c.username == username)).first()
            if found is None:
                raise TapeteError("unknown-user", f"no user {username!r}")
            conn.execute(update(users).where(users.c.username == username).values(roles=",".join(sorted(set(roles))), tables=tables))
            staff_log.record(conn, actor, "roles-granted", username, {"roles": sorted(set(roles)), "tables": tables,
                                                                       "was": {"roles": [r for r in found[0].split(",") if r],
                                                                               "tables": found[1]}})
            conn.execute(delete(sessions).where(sessions.c.username == username))      # new roles: log in again
        with self._lock:
            self._cache.clear()
        self.live.end(username=username)

    def set_password(self, username: str, password: str, actor: str) -> None:
        check_password(password, username)
        self.set_password_hash(username, self.hasher.hash(password), actor)

    def set_password_hash(self, username: str, hashed: str, actor: str) -> None:
        """A new password (its argon2 hash): the account's sessions and streams end."""
        with self.db.write() as conn:
            if conn.execute(update(users).where(users.c.username == username).values(password_hash=hashed)).rowcount == 0:
                raise TapeteError("unknown-user", f"no user {username!r}")
            staff_log.record(conn, actor, "password-set", username, {})
            conn.execute(delete(sessions).where(sessions.c.username == username))
        with self._lock:
            self._cache.clear()
        self.live.end(username=username)

    def disable(self, username: str, actor: str) -> None:
        """No roles, no password that verifies (DISABLED is no argon2 hash), no session, no stream: the account
        stays (its wallet, its name in the logs) and comes back only by an operator's new password and roles."""
        with self.db.write() as conn:
            found = conn.execute(select(users.c.roles, users.c.tables).where(users.c.username == username)).first()
            if found is None:
                raise TapeteError("unknown-user", f"no user {username!r}")
            conn.execute(update(users).where(users.c.username == username).values(roles="", tables=None,
                                                                                  password_hash=DISABLED))
            staff_log.record(conn, actor, "account-disabled", username,
                             {"was": {"roles": [r for r in found[0].split(",") if r], "tables": found[1]}})
            conn.execute(delete(sessions).where(sessions.c.username == username))
        with self._lock:
            self._cache.clear()
        self.live.end(username=username)

    def end_sessions(self, username: str) -> None:
        """Every session and stream of the account ends (a self-exclusion, an operator's exclusion)."""
        with self.db.write() as conn:
            conn.execute(delete(sessions).where(sessions.c.username == username))
        with self._lock:
            self._cache.clear()
        self.live.end(username=username)

    def account(self, username: str) -> tuple[User, str] | None:
        """The account and its stored password hash (the casino file's start-up check compares them)."""
        with self.db.read() as conn:
            row = conn.execute(select(users.c.roles, users.c.tables, users.c.password_hash)
                               .where(users.c.username == username)).first()
        if row is None:
            return None
        return User(username, frozenset(r for r in row[0].split(",") if r), tuple(row[1]) if row[1] is not None else None), row[2]

    def password_is(self, stored: str, password: str) -> bool:
        return self._verify(stored, password)

    def list_users(self) -> list[dict[str, object]]:
        with self.db.read() as conn:
            return [{"user": r[0], "roles": [x for x in r[1].split(",") if x], "tables": r[2]}
                    for r in conn.execute(select(users.c.username, users.c.roles, users.c.tables).order_by(users.c.username))]

    def user(self, username: str) -> User | None:
        with self.db.read() as conn:
            row = conn.execute(select(users.c.roles, users.c.tables).where(users.c.username == username)).first()
        if row is None:
            return None
        return User(username, frozenset(r for r in row[0].split(",") if r), tuple(row[1]) if row[1] is not None else None)

    # -- sessions ----------------------------------------------------------------------------------
    def login(self, username: str, password: str, address: str) -> tuple[str, User, float]:
        stored, ids = self._login_begin(username, address)
        return self._login_end(username, address, self._verify(stored, password), ids)

    async def login_async(self, username: str, password: str, address: str) -> tuple[str, User, float]:
        """`login` with the argon2 verification in the bounded hashing pool, the database parts in the
        server's worker threads: a burst of logins never holds the threads that reads need."""
        import anyio.to_thread

        stored, ids = await anyio.to_thread.run_sync(self._login_begin, username, address)
        try:
            ok = await self.hashing(self._verify, stored, password)
        except TapeteError:                # busy: not verified, so not counted
            await anyio.to_thread.run_sync(self.limiter.release, ids)
            raise
        return await anyio.to_thread.run_sync(self._login_end, username, address, ok, ids)

    async def register_async(self, username: str, password: str, address: str, then: Any = None) -> bool:
        """A player's own account (rate-limited per address like login; hashed in the bounded pool)."""
        import anyio.to_thread

        await anyio.to_thread.run_sync(lambda: self.limiter.reserve(f"register:{address}", what="registrations",
                                                                    limit=self.security.register_attempts))
        hashed = await self.hashing(self.hasher.hash, password)
        return await anyio.to_thread.run_sync(lambda: self.create_user(username, password_hash=hashed, roles=["player"],
                                                                       then=then))

    HASH_QUEUE = 64

    async def hashing(self, fn: Any, *args: Any) -> Any:
        """Run an argon2 call in the hashing pool (security.hash_workers threads, each using
        argon2_memory_kib): bounded CPU and memory however many logins arrive; past HASH_QUEUE waiting, busy."""
        import anyio
        import anyio.to_thread

        if self._hash_limiter is None:
            self._hash_limiter = anyio.CapacityLimiter(self.security.hash_workers)
        if self._hash_limiter.statistics().tasks_waiting >= self.HASH_QUEUE:
            raise TapeteError("busy", "too many logins at once: try again in a few seconds")
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._hash_limiter)

    def _login_begin(self, username: str, address: str) -> tuple[str | None, list[int]]:
        """The stored hash, once this login is counted (recorded before it is verified: see RateLimiter)."""
        ids = self.limiter.reserve(f"user:{username}", f"addr:{address}", what="failed logins")
        with self.db.read() as conn:
            row = conn.execute(select(users.c.password_hash).where(users.c.username == username)).first()
        return (row[0] if row is not None else None), ids

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            if stored is None:
                self.hasher.verify(self._dummy, password + "x")     # same cost whether or not the user exists
                return False
            return self.hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError, TypeError):
            return False

    def _login_end(self, username: str, address: str, ok: bool, ids: list[int]) -> tuple[str, User, float]:
        if not ok:                         # the records `reserve` made stay: they are this failure's
            raise TapeteError("bad-credentials", "wrong username or password")
        self.limiter.release(ids)
        self.limiter.reset(f"user:{username}")
        user = self.user(username)
        if user is None:
            raise TapeteError("bad-credentials", "wrong username or password")
        if self.gate is not None:
            self.gate(username, user.roles)
        token = secrets.token_urlsafe(32)
        now = time.time()
        expires = now + self.security.session_hours * 3600
        with self.db.write() as conn:
            conn.execute(insert(sessions).values(token_hash=_digest(token), username=username, created_at=now, expires_at=expires))
        return token, user, expires

    def logout(self, token: str) -> None:
        with self.db.write() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == _digest(token)))
        with self._lock:
            self._cache.pop(_digest(token), None)
        self.live.end(token_hash=_digest(token))

    def cached(self, token: str | None) -> User | None:
        """The session's user from the in-memory cache (no database), None on a miss: lets the event loop
        answer most requests' authentication without a worker thread."""
        if not token:
            return None
        now = time.time()
        with self._lock:
            hit = self._cache.get(_digest(token))
        if hit is not None and hit[0] > now and hit[2] > now:
            return hit[1]
        return None

    def authenticate(self, token: str | None) -> User:
        if not token:
            raise TapeteError("unauthenticated", "log in first: send 'Authorization: Bearer <token>'")
        digest = _digest(token)
        now = time.time()
        with self._lock:
            hit = self._cache.get(digest)
        if hit is not None and hit[0] > now and hit[2] > now:
            return hit[1]
        with self.db.read() as conn:       # the session and its user in one statement (one read, issue 33)
            row = conn.execute(_SESSION_USER, {"digest": digest}).first()
        if row is None or row[1] <= now:
            raise TapeteError("unauthenticated", "the session is unknown or has expired: log in again")
        if row[2] is None:
            raise TapeteError("unauthenticated", "the user no longer exists")
        user = User(row[0], frozenset(r for r in row[2].split(",") if r), tuple(row[3]) if row[3] is not None else None)
        with self._lock:
            if len(self._cache) >= CACHE_PRUNE_AT:      # entries live SESSION_CACHE_S: drop the stale ones,
                self._cache = {k: v for k, v in self._cache.items() if v[0] > now}   # or every token stays
            self._cache[digest] = (now + SESSION_CACHE_S, user, row[1])
        return user


# A session's user and roles (an outer join: a session whose user was deleted is told apart), built once.
_SESSION_USER = (select(sessions.c.username, sessions.c.expires_at, users.c.roles, users.c.tables)
                 .select_from(sessions.outerjoin(users, users.c.username == sessions.c.username))
                 .where(sessions.c.token_hash == bindparam("digest")))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
