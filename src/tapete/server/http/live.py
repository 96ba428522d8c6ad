"""The open streams of each session, so that a stream ends with the session that opened it (issue 26, item 10).

A table stream is authorised once, at its handshake, and then carries the view of the session's roles (a
croupier's, an inspector's: every hole card at once). It must not outlive that authority: a logout ends the
session's streams at once; a change of the account's roles, tables or password (`tapete users`, the casino file
at a restart) ends the account's streams in this process at once; and every stream checks its session again every
`RECHECK_S` seconds, which catches what another process did (a logout there, `tapete users roles` on the host,
the session's expiry). An ended stream is closed with code 4401 ("session-ended"): the page logs in again.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from dataclasses import dataclass, field

RECHECK_S = 10.0      # how often an open stream checks its session again (a session cache entry lives 5 s)
CLOSE_CODE = 4401


@dataclass(eq=False)
class Stream:
    token_hash: str
    username: str
    loop: asyncio.AbstractEventLoop
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    def end(self) -> None:
        """Thread-safe: the event belongs to the stream's loop."""
        self.loop.call_soon_threadsafe(self.ended.set)


class LiveSessions:
    def __init__(self) -> None:
        self._streams: set[Stream] = set()
        self._lock = threading.Lock()

    def open(self, token: str, username: str) -> Stream:
        """Register a stream of this session (on the stream's running loop)."""
        stream = Stream(hashlib.sha256(token.encode()).hexdigest(), username, asyncio.get_running_loop())
        with self._lock:
            self._streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        with self._lock:
            self._streams.discard(stream)

    def end(self, *, token_hash: str | None = None, username: str | None = None) -> int:
        """End the streams of one session (its token's hash) or of every session of one account; how many."""
        with self._lock:
            found = [s for s in self._streams if s.token_hash == token_hash or s.username == username]
        for s in found:
            s.end()
        return len(found)

    def __len__(self) -> int:
        return len(self._streams)
