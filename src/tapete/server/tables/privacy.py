"""The stored side of what a player may see of others (docs/server.md § What is public): display names and the
public moment of a circle hand's seed. Who sees what is decided in `visibility`, which uses these.

Two rules, as at a real table:
- **Other players are shown by a display name**, never by their login: the name they chose (`POST /api/me/name`),
  else "Seat N" where they sit at a circle table, else "Player XXXX" (a keyed hash: stable, not the login). A
  viewer sees his own login as it is (the pages mark his own bets by it). Applied to every document a player
  reads about a table: the listing, the table, its view, the live stream, the round records.
- **At circle poker a card never shown at the table stays secret** until the hand's seed is public: a round
  record served to anyone but the inspector loses the seed and the dealt cards (which rebuild every hole card)
  until the table's session has ended after the hand, or the table's `seed_delay` has passed; the stream never
  carries the seed. The inspector reads everything at once. House-banked games reveal as before (the round's
  seed with its settlement, a shoe's when the shoe ends).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from tapete.server.storage.db import Database, meta_kv, users

CACHE_S = 5.0
DEFAULT = re.compile(r"^(seat|player)\s+\S{1,4}$", re.IGNORECASE)
DISPLAY = re.compile(r"^[\w][\w .'-]{0,23}$")


def session_key(table_id: str) -> str:
    return f"session-end:{table_id}"


def end_session(conn: Connection, table_id: str, when: float) -> None:
    """The table's session ended (it closed outside its opening hours): its hands' seeds become public."""
    key = session_key(table_id)
    if conn.execute(select(meta_kv.c.key).where(meta_kv.c.key == key)).first() is None:
        conn.execute(insert(meta_kv).values(key=key, value=repr(when), flag=None))
    else:
        conn.execute(update(meta_kv).where(meta_kv.c.key == key).values(value=repr(when)))


def seed_public(conn: Connection, spec: Any, settled_at: float | None, now: float | None = None) -> bool:
    """Whether a settled circle hand's seed (and so its every card) may reach the players now."""
    if settled_at is None:
        return False
    now = time.time() if now is None else now
    if spec.seed_delay is not None and now >= settled_at + spec.seed_delay:
        return True
    ended = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == session_key(spec.id))).scalar()
    return ended is not None and float(ended) >= settled_at


def seal(record: dict[str, Any], until: str) -> dict[str, Any]:
    """A circle hand's record without what rebuilds the cards nobody showed: the seed, the dealt cards, the
    states before draws. What the table showed (the masked view, the events, the settlement) stays."""
    out = dict(record)
    out.pop("seed", None)
    out.pop("coup", None)           # the hands as dealt: never for a circle hand (tables.coup_end keeps none)
    if isinstance(out.get("shoe"), dict):
        shoe = {k: v for k, v in out["shoe"].items() if k not in ("seed", "dealt")}
        shoe["cards_dealt"] = len(out["shoe"].get("dealt") or [])
        out["shoe"] = shoe
    if out.get("draws"):
        out["draws"] = [{"index": d.get("index"), "outcome": d.get("outcome")} for d in out["draws"]]
    out["sealed"] = {"until": until, "why": "the cards nobody showed at the table stay secret until the seed is public"}
    return out


class Aliases:
    """Login -> display name of players, cached briefly (a changed name reaches other processes in CACHE_S)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[str, tuple[float, str | None, bool]] = {}
        self._lock = threading.Lock()
        self._salt: bytes | None = None

    def salt(self) -> bytes:
        """The key of the default names, made once per casino: by whichever thread or process asks first (two
        at once on a fresh PostgreSQL database: the second's insert fails and it reads the first's)."""
        with self._lock:
            if self._salt is None:
                for _ in range(2):
                    try:
                        with self.db.write() as conn:
                            found = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == "alias-salt")).scalar()
                            if found is None:
                                found = secrets.token_hex(16)
                                conn.execute(insert(meta_kv).values(key="alias-salt", value=found, flag=None))
                        break
                    except IntegrityError:
                        continue
                self._salt = bytes.fromhex(found)
        return self._salt

    def default(self, login: str, seat: int | None = None) -> str:
        if seat is not None:
            return f"Seat {seat}"
        return "Player " + hmac.new(self.salt(), login.encode(), hashlib.sha256).hexdigest()[:4].upper()

    def forget(self, login: str) -> None:
        with self._lock:
            self._cache.pop(login, None)

    def lookup(self, logins: set[str]) -> dict[str, str | None]:
        """{login: chosen display name or None} for the players among `logins`."""
        now = time.time()
        out: dict[str, str | None] = {}
        missing = []
        with self._lock:
            for name in logins:
                hit = self._cache.get(name)
                if hit is not None and hit[0] > now:
                    if hit[2]:
                        out[name] = hit[1]
                else:
                    missing.append(name)
        if missing:
            with self.db.read() as conn:
                rows = {r[0]: (r[1], r[2]) for r in conn.execute(
                    select(users.c.username, users.c.roles, users.c.display_name).where(users.c.username.in_(missing)))}
            with self._lock:
                for name in missing:
                    roles, display = rows.get(name, ("", None))
                    player = "player" in roles.split(",")
                    self._cache[name] = (now + CACHE_S, display, player)
                    if player:
                        out[name] = display
        return out

    def names(self, logins: set[str], viewer: str | None, seats: dict[str, int] | None = None) -> dict[str, str]:
        """The replacement of every other player's login among `logins`."""
        found = self.lookup({n for n in logins if n and n != viewer})
        return {login: chosen or self.default(login, (seats or {}).get(login)) for login, chosen in found.items()}


def check_display_name(name: str, taken: bool) -> str:
    from tapete.core.errors import TapeteError

    name = " ".join(name.split())
    if not DISPLAY.match(name):
        raise TapeteError("bad-request", "a display name is 1-24 letters, digits, spaces, '.', '-' or \"'\"")
    if DEFAULT.match(name) or taken:
        raise TapeteError("user-exists", f"the name {name!r} is taken, or reads like another player's")
    return name
