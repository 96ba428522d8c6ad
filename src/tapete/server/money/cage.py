"""The cashier's cage: chips in and out of a player's wallet, fills and credits of a table's float.

Each is one balanced ledger transaction, recorded together with its idempotency key: a retried request
(same key, same body) gets the first answer and moves no money twice.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import insert, select, text
from sqlalchemy.exc import IntegrityError

from tapete.core.errors import TapeteError
from tapete.server.audit import staff_log
from tapete.server.money import ledger
from tapete.server.storage.db import Database, idempotency, users
from tapete.server.storage.idempotency import Replay, check_idempotency


def _once(db: Database, idem: tuple[str, str] | None, work: Any) -> Any:
    """Run `work` once per idempotency key. Retries of one key that arrive together are serialised on
    PostgreSQL by a transaction-scoped advisory lock on the key, so the second finds the first's record;
    and, as on the bet path (tables.TableService._run), a request that fails — the key's row already
    inserted by a concurrent first request, or a refusal that request caused (the wallet it emptied) —
    looks the key up once more and answers the first request's answer."""
    try:
        with db.write() as conn:
            if idem is not None:
                if not db.is_sqlite:
                    conn.execute(_KEY_LOCK, {"k": idem[0]})
                check_idempotency(conn, idem)
            result = work(conn)
            if idem is not None:
                conn.execute(insert(idempotency).values(key=idem[0], fingerprint=idem[1], status=200, response=result,
                                                        created_at=time.time()))
            return result
    except Replay as replay:
        return replay.response
    except (IntegrityError, TapeteError):
        if idem is None:
            raise
        try:
            with db.read() as conn:
                check_idempotency(conn, idem)
        except Replay as replay:
            return replay.response
        raise


_KEY_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 7411))")


def _player(conn: Any, username: str) -> None:
    row = conn.execute(select(users.c.roles).where(users.c.username == username)).first()
    if row is None:
        raise TapeteError("unknown-user", f"no user {username!r}")
    if "player" not in row[0].split(","):
        raise TapeteError("bad-request", f"{username} is not a player")


def deposit(db: Database, username: str, amount: int, actor: str, memo: str | None = None,
            idem: tuple[str, str] | None = None, guard: Any = None) -> dict[str, Any]:
    """Chips bought at the cage: the cage's cash against the player's wallet. `guard(conn, username, amount)` runs
    first in the same transaction (players/care.py: exclusion and the deposit limit) and raises its refusal."""
    def work(conn: Any) -> dict[str, Any]:
        _player(conn, username)
        if guard is not None:
            guard(conn, username, amount)
        after = ledger.commit(conn, ledger.Entry("deposit", actor=actor, memo=memo).move("cage", ledger.wallet(username), amount))
        staff_log.record(conn, actor, "deposit", username, {"amount": amount, "tx": after["_tx"]})
        return {"user": username, "amount": amount, "balance": after[ledger.wallet(username)], "tx": after["_tx"]}

    return _once(db, idem, work)


def withdraw(db: Database, username: str, amount: int, actor: str, memo: str | None = None,
             idem: tuple[str, str] | None = None) -> dict[str, Any]:
    """Chips cashed out: never more than the wallet holds."""
    def work(conn: Any) -> dict[str, Any]:
        _player(conn, username)
        after = ledger.commit(conn, ledger.Entry("withdraw", actor=actor, memo=memo).move(ledger.wallet(username), "cage", amount))
        staff_log.record(conn, actor, "withdraw", username, {"amount": amount, "tx": after["_tx"]})
        return {"user": username, "amount": amount, "balance": after[ledger.wallet(username)], "tx": after["_tx"]}

    return _once(db, idem, work)


def float_move(db: Database, table_id: str, amount: int, direction: str, actor: str,
               idem: tuple[str, str] | None = None) -> dict[str, Any]:
    """A fill (bank -> table float) or a credit (float -> bank)."""
    def work(conn: Any) -> dict[str, Any]:
        account = ledger.float_(table_id)
        if conn.execute(select(ledger.accounts.c.id).where(ledger.accounts.c.id == account)).first() is None:
            raise TapeteError("unknown-table", f"no table {table_id!r}")
        entry = ledger.Entry(direction, table_id, actor=actor)
        entry.move("bank", account, amount) if direction == "fill" else entry.move(account, "bank", amount)
        after = ledger.commit(conn, entry)
        staff_log.record(conn, actor, direction, table_id, {"amount": amount, "tx": after["_tx"]})
        return {"table": table_id, "direction": direction, "amount": amount, "float": after[account], "tx": after["_tx"]}

    return _once(db, idem, work)


def ensure_house_accounts(db: Database) -> None:
    with db.write() as conn:
        for account in ("cage", "bank"):
            ledger.ensure_account(conn, account)
