"""Group commit of bets: the bets that reach one table while its previous batch is being written form the next
batch, checked one after another against the table's state in memory, written in ONE transaction and
answered together once it has committed.

Why: a transaction's fixed cost (SQLite's commit, PostgreSQL's round trips, the table row, the state
handling) was most of a bet's service time; a batch pays it once. There is no timer: under light load a
batch is one bet and waits for nothing; under heavy load the queue that forms while a batch commits is the
next batch.

The invariants of one bet, one transaction still hold:
  - a bet is answered only after the transaction holding it (its ledger rows, its log record, its
    idempotency record) has committed;
  - no va más (any other operation on the table) first writes the batch already queued, inside the same
    per-table lock: a bet queued before it is accepted, one arriving after it is refused;
  - an Idempotency-Key already committed is answered from its record; the same key twice in one batch is
    one bet, its answer given to both requests (a different body under that key is refused);
  - a bet refused in the batch does not fail its neighbours: refused before it touched the state (bets
    closed, a bad document), it is simply left out; refused after the engine applied it in place (short
    of funds, a limit), the transaction is rolled back and the batch written again without it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from tapete.core.errors import TapeteError
from tapete.server.money import ledger
from tapete.server.storage import fastjson, hot
from tapete.server.storage.db import statements_sent
from tapete.server.tables.bet_stats import BetStats
from tapete.server.tables.round_ops import op_bets

if TYPE_CHECKING:
    from tapete.server.tables.service import TableService


@dataclass(eq=False)
class BetRequest:
    """One request's bets, waiting for its batch; `future` carries its answer (or its error)."""

    user: str
    items: list[dict[str, Any]]
    idem: tuple[str, str] | None
    future: Future[Any] = field(default_factory=Future)


class _Redo(Exception):  # noqa: N818 - control flow: a bet failed after the engine applied it in place
    def __init__(self, request: BetRequest, error: Exception) -> None:
        self.request, self.error = request, error


class BetBatches:
    """The queue of bets per table and the writing of a queue as one transaction."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._pending: dict[str, list[BetRequest]] = {}
        self._lock = threading.Lock()
        self._table_locks: dict[str, threading.RLock] = {}
        self.stats = BetStats()             # where the batches' time goes (bet_stats.py, /metrics, the bench)
        # A test's seam: called after a batch has committed and before anyone is answered (a crash there).
        self.after_commit: Callable[[str, list[BetRequest]], None] | None = None

    def table_lock(self, table_id: str) -> threading.RLock:
        """Held while a batch or any other operation of this process writes the table."""
        with self._lock:
            return self._table_locks.setdefault(table_id, threading.RLock())

    def submit(self, table_id: str, user: str, items: list[dict[str, Any]], idem: tuple[str, str] | None) -> BetRequest:
        request = BetRequest(user, items, idem)
        with self._lock:
            self._pending.setdefault(table_id, []).append(request)
        return request

    def pending(self, table_id: str) -> bool:
        with self._lock:
            return bool(self._pending.get(table_id))

    def flush(self, table_id: str) -> int:
        """Write whatever is queued for the table as one batch (blocking); the number of requests taken."""
        if table_id in self.service._closed_busy:
            # No va más already committed and the draw or settlement is being written: bets are refused at
            # once (an idempotent retry of an earlier bet still gets its answer), without waiting for the lock.
            with self._lock:
                batch = self._pending.pop(table_id, [])
            batch = [r for r in batch if r.future.set_running_or_notify_cancel()]
            for r in batch:
                self._alone(table_id, r)
            return len(batch)
        with self.table_lock(table_id):
            with self._lock:
                batch = self._pending.pop(table_id, [])
            # A request whose client has gone (its future cancelled) before the batch took it is not placed.
            batch = [r for r in batch if r.future.set_running_or_notify_cancel()]
            if batch:
                try:
                    self._write(table_id, batch)
                except BaseException as exc:
                    for r in batch:
                        if not r.future.done():
                            r.future.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
            return len(batch)

    # -- one batch ------------------------------------------------------------------------------------
    def _write(self, table_id: str, batch: list[BetRequest]) -> None:
        service = self.service
        service.spec(table_id)
        unique: list[BetRequest] = []
        twins: list[tuple[BetRequest, BetRequest]] = []       # (a repeat of a key in this batch, its first)
        first_by_key: dict[str, BetRequest] = {}
        for r in batch:
            first = first_by_key.get(r.idem[0]) if r.idem else None
            if first is None:
                if r.idem:
                    first_by_key[r.idem[0]] = r
                unique.append(r)
            elif first.idem is not None and r.idem is not None and first.idem[1] == r.idem[1]:
                twins.append((r, first))
            else:
                r.future.set_exception(TapeteError("idempotency-key-reused", "this Idempotency-Key was used for a different request"))
        try:
            self._together(table_id, unique)
        finally:
            for r, first in twins:
                exc = first.future.exception() if first.future.done() else None
                if exc is not None:
                    r.future.set_exception(exc)
                elif first.future.done():
                    r.future.set_result(first.future.result())

    def _alone(self, table_id: str, r: BetRequest) -> None:
        try:
            r.future.set_result(self.service.run(table_id, r.user, lambda ctx: op_bets(ctx, r.user, r.items), r.idem, bet=True))
        except Exception as exc:  # noqa: BLE001 - the request's own answer
            r.future.set_exception(exc)

    def _together(self, table_id: str, batch: list[BetRequest]) -> None:
        service = self.service
        refused: dict[BetRequest, Exception] = {}
        while True:
            todo = [r for r in batch if r not in refused]
            try:
                with service.db.write_lock if service.db.is_sqlite else nullcontext():   # publish in commit order
                    answers, records = self._transaction(table_id, todo)
                    if self.after_commit is not None:
                        self.after_commit(table_id, todo)
                    if records:
                        service.publish(table_id, records)
                break
            except _Redo as redo:
                # A bet the engine refused after applying it in place: the transaction is rolled back, the
                # state rebuilt from the database, and the batch written again without it.
                service.forget(table_id)
                refused[redo.request] = redo.error
            except (IntegrityError, TapeteError):
                # A key committed meanwhile by another process, or the table itself refused: nothing of the
                # batch was written; each request goes on its own, as before batching.
                service.forget(table_id)
                for r in todo:
                    self._alone(table_id, r)
                answers = {}
                break
            except BaseException:
                service.forget(table_id)
                raise
        for r in batch:
            answer = refused.get(r, answers.get(r))
            if r.future.done():
                continue
            if isinstance(answer, Exception):
                r.future.set_exception(answer)
            else:
                r.future.set_result(answer)

    def _transaction(self, table_id: str, batch: list[BetRequest]) -> tuple[dict[BetRequest, Any], list[dict[str, Any]]]:
        service = self.service
        spec = service.spec(table_id)
        answers: dict[BetRequest, Any] = {}
        idem_rows: list[tuple[Any, ...]] = []
        began = time.perf_counter()
        with service.db.write() as conn:
            sent = statements_sent(conn)
            keys = [r.idem[0] for r in batch if r.idem]
            # The batch's ledger entries are checked in memory and written together (ledger.Batch); on PostgreSQL
            # even one request's, its reads in one round trip and its writes in another (hot.Folded).
            accounts = sorted({ledger.wallet(r.user) for r in batch} | {ledger.stakes(table_id)})
            if service.db.is_sqlite:
                seen = hot.committed_keys(conn, keys)
                ctx = service._load(conn, spec, None)
                if len(batch) > 1:
                    ctx.pending_ledger = ledger.Batch(conn, accounts, lane=ctx.lane)
            else:
                row, seen, balances = hot.lock_for_batch(conn, table_id, keys, accounts)
                ctx = service._ctx(conn, spec, None, row)
                ctx.pending_ledger = ledger.Batch(conn, lane=ctx.lane, known=balances)
            locked = time.perf_counter()
            for r in batch:
                if r.idem and r.idem[0] in seen:        # a retry of a request already committed: its first answer
                    row = seen[r.idem[0]]
                    answers[r] = row["response"] if row["fingerprint"] == r.idem[1] else TapeteError(
                        "idempotency-key-reused", "this Idempotency-Key was used for a different request")
                    continue
                bet_seq, n_records, applied = ctx.row["bet_seq"], len(ctx.records), ctx.applied
                ctx.actor = r.user
                try:
                    answers[r] = op_bets(ctx, r.user, r.items)
                except TapeteError as exc:
                    if ctx.applied != applied:
                        raise _Redo(r, exc) from exc
                    ctx.row["bet_seq"] = bet_seq          # refused before the engine took anything: left out
                    del ctx.records[n_records:]
                    answers[r] = exc
                    continue
                if r.idem:
                    idem_rows.append((r.idem[0], r.idem[1], 200, fastjson.dumps(answers[r]), ctx.now))
            ctx.actor = None
            # PostgreSQL: every write of the batch in one statement (hot.Folded), sent with the COMMIT
            with hot.folding(conn, commit=True):
                if ctx.pending_ledger is not None:
                    ctx.pending_ledger.flush()
                    ctx.pending_ledger = None
                records = service._persist(ctx)
                hot.IDEM_INSERT.many(conn, idem_rows)
                # into the cache under the new version before the commit releases the row (service._run, why)
                service._cache(table_id, ctx)
            statements = statements_sent(conn) - sent
        done = time.perf_counter()
        # PostgreSQL: a round trip per statement, the BEGIN and the COMMIT sent with the batch's read and write
        self.stats.batch(len(batch), statements, 0 if service.db.is_sqlite else statements, done - locked, done - began)
        return answers, records

