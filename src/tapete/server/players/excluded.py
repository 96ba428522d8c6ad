"""The operator's list of excluded persons (docs/operations.md#the-excluded-list): identity documents loaded from a
file the operator keeps (in Spain, from the register of gambling bans, RGIAJ), matched at registration and at every
login of a player who registered with one of them. Loading it logs the matched players out at once."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, insert, select

from tapete.core.errors import TapeteError
from tapete.server.audit import staff_log
from tapete.server.players.identity import check_document
from tapete.server.storage.db import Database, excluded_documents, player_care, sessions


def parse(text: str) -> list[str]:
    """One document a line (its first field before ',' or ';'); '#' starts a comment; every line checked, and a
    file with a bad one is refused whole, naming its lines (a typo would leave a person off the list)."""
    found: list[str] = []
    bad: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        field = line.split("#", 1)[0].replace(";", ",").split(",", 1)[0].strip()
        if not field:
            continue
        try:
            found.append(check_document(field))
        except TapeteError:
            bad.append(str(number))
    if bad:
        lines = f"lines {', '.join(bad[:20])} hold" if len(bad) > 1 else f"line {bad[0]} holds"
        raise TapeteError("bad-document", f"{lines} no valid DNI/NIE: nothing was loaded")
    return sorted(set(found))


def load(db: Database, documents: list[str], actor: str, note: str | None = None) -> dict[str, Any]:
    """Replace the list by `documents`; end the sessions of the players whose document is now on it."""
    now = time.time()
    with db.write() as conn:
        conn.execute(delete(excluded_documents))
        if documents:
            conn.execute(insert(excluded_documents), [{"document": d, "added_at": now, "note": note} for d in documents])
        matched = sorted(r[0] for r in conn.execute(select(player_care.c.username)
                                                     .where(player_care.c.document.in_(documents or [""]))))
        if matched:
            conn.execute(delete(sessions).where(sessions.c.username.in_(matched)))
        staff_log.record(conn, actor, "excluded-list", None, {"documents": len(documents), "players": matched})
    return {"documents": len(documents), "players": matched}


def is_listed(conn: Any, document: str) -> bool:
    return conn.execute(select(excluded_documents.c.document).where(excluded_documents.c.document == document)).first() is not None
