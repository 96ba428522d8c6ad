"""A table's stream record serialised once per kind of watcher, not once per watcher.

With a thousand players watching one wheel, the result used to be made public (display names for logins)
in a worker thread and JSON-encoded once per connection: a thousand thread hops and encodings for one
record. Every watcher who is neither staff of the table nor a player named in the record sees the same
text; so does every staff member; a player named in it sees his own login kept. The text of each view is
made once (the first watcher to need it computes it, the others await the same future) and kept for the
last few hundred records. The views a record has are `visibility.stream_key`'s: what each watcher may see of
it (cards, seeds) is `visibility.stream_record`'s, decided before the text is made.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from tapete.server.tables.visibility import named_players

KEEP = 256


def dumps(doc: Any) -> bytes:
    """JSON as the API writes it (orjson: a response body in one C call; integer keys as strings)."""
    return orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS)


class Fanout:
    def __init__(self) -> None:
        self._texts: OrderedDict[tuple[Any, ...], asyncio.Future[str]] = OrderedDict()
        self._named: OrderedDict[tuple[str, int], frozenset[str]] = OrderedDict()

    def named(self, table_id: str, item: dict[str, Any]) -> frozenset[str]:
        """The logins a record names (a player in it sees his own view)."""
        key = (table_id, item["seq"])
        found = self._named.get(key)
        if found is None:
            found = self._named[key] = frozenset(named_players(item))
            if len(self._named) > KEEP:
                self._named.popitem(last=False)
        return found

    async def text(self, key: tuple[Any, ...], make: Callable[[], Any]) -> str:
        """The record's text for this view: made (in a worker thread: display names may need the database)
        by the first watcher to ask, shared with the others."""
        future = self._texts.get(key)
        if future is None:
            future = self._texts[key] = asyncio.get_running_loop().create_future()
            if len(self._texts) > KEEP:
                self._texts.popitem(last=False)
            try:
                future.set_result(dumps(await asyncio.to_thread(make)).decode())
            except BaseException as exc:
                self._texts.pop(key, None)
                future.set_exception(exc)
                future.exception()            # retrieved: the watchers awaiting it get it raised
                raise
        return await asyncio.shield(future)


async def drain(websocket: WebSocket) -> None:
    """Read (and answer pings) until the client goes away."""
    try:
        while True:
            message = await websocket.receive_text()
            if message == "ping":
                await websocket.send_text("pong")
    except (WebSocketDisconnect, RuntimeError):
        return
