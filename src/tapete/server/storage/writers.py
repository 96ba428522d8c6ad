"""The hand-off between the event loop and the threads that write the bets' batches (batch.py).

A request's bets are queued on their table (`BetBatches.submit`) and the request awaits an asyncio future.
One writer at a time per table writes its queue, in a few long-lived threads of its own; when a batch has
been written, ONE call from the writer thread wakes the event loop, which answers every request of the
batch from there (their futures are set on the loop, no thread hop per request) and, if more bets queued
meanwhile, hands the table to a writer again.

Measured (docs/performance.md, "The request path, third pass"): the previous hand-off — a task per
table awaiting anyio's `to_thread.run_sync` per batch (a cancel scope, the capacity limiter, a worker's
future), and `asyncio.wrap_future` per request (a callback and a thread-safe wake-up each) — cost more of
the event loop than the lane's own parsing.

The writers' state (which tables have one) is touched only on the event loop, so a request queued while a
batch is written is always either taken by that writer's next round or finds no writer and starts one. A
request taken by another thread's flush (no va más writes the queued batch first, tables.py) is answered
when that flush completes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tapete.server.tables.batch import BetBatches, BetRequest

log = logging.getLogger("tapete.server")


class BetWriters:
    def __init__(self, batches: BetBatches, threads: int) -> None:
        self.batches = batches
        self.size = threads
        # A queue of tables to write and long-lived threads waiting on it: handing a table over is one C call
        # (a ThreadPoolExecutor's submit builds a future, a work item and takes two locks each time).
        self._tables: queue.SimpleQueue[tuple[str, asyncio.AbstractEventLoop] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._writing: set[str] = set()
        self._waiting: dict[str, list[tuple[BetRequest, asyncio.Future[Any]]]] = {}

    async def bet(self, table_id: str, user: str, items: list[dict[str, Any]], idem: tuple[str, str] | None) -> Any:
        """Queue a request's bets on the table and wait for the answer (raised: its error) once the
        transaction holding them has committed."""
        request = self.batches.submit(table_id, user, items, idem)
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        self._waiting.setdefault(table_id, []).append((request, waiter))
        if table_id not in self._writing:
            self._writing.add(table_id)
            if not self._threads:
                self._start()
            self._tables.put((table_id, loop))
        try:
            return await waiter
        except asyncio.CancelledError:
            request.future.cancel()       # not placed if its batch has not taken it yet (batch.py)
            raise

    def close(self) -> None:
        """Let the writers finish the tables handed to them, then stop."""
        for _ in self._threads:
            self._tables.put(None)
        for thread in self._threads:
            thread.join(30)
        self._threads = []

    def _start(self) -> None:
        # Daemon threads: a process that ends without close() is not held up by writers waiting for work
        # (a batch cut short by the exit was never committed, so never answered: nothing is lost).
        for n in range(self.size):
            thread = threading.Thread(target=self._run, name=f"tapete-bets-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)

    # -- in a writer thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        while (job := self._tables.get()) is not None:
            self._write(*job)

    def _write(self, table_id: str, loop: asyncio.AbstractEventLoop) -> None:
        cpu = time.thread_time()
        try:
            self.batches.flush(table_id)
        except Exception:
            log.exception("writing the bets of table %s", table_id)
        finally:
            with contextlib.suppress(RuntimeError):       # the event loop has closed: nobody is waiting
                loop.call_soon_threadsafe(self._written, table_id, loop)
            self.batches.stats.writer_cpu(time.thread_time() - cpu)

    # -- on the event loop ----------------------------------------------------------------------------
    def _written(self, table_id: str, loop: asyncio.AbstractEventLoop) -> None:
        """A batch of the table is written: answer the requests that are done; write the table again if
        bets queued meanwhile, else leave it without a writer."""
        waiting = self._waiting.pop(table_id, [])
        left = []
        for request, waiter in waiting:
            if request.future.done():
                _settle(waiter, request.future)
            else:
                left.append((request, waiter))
        if self.batches.pending(table_id):
            if left:
                self._waiting[table_id] = left
            self._tables.put((table_id, loop))
            return
        self._writing.discard(table_id)
        for request, waiter in left:      # taken by another thread's flush that has not finished yet
            request.future.add_done_callback(lambda done, w=waiter: loop.call_soon_threadsafe(_settle, w, done))


def _settle(waiter: asyncio.Future[Any], done: Future[Any]) -> None:
    if waiter.done():                     # its request was cancelled
        return
    if done.cancelled():
        waiter.cancel()
        return
    exc = done.exception()
    if exc is not None:
        waiter.set_exception(exc)
    else:
        waiter.set_result(done.result())
