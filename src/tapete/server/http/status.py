"""The HTTP status of each error code (the error document's `code`): one table for the routes, the bet lane and
the pages (below all three)."""

from __future__ import annotations

from tapete.server.jornada.ops import STATUS as JORNADA_STATUS
from tapete.server.tables import circle, disputes

STATUS = {
    "unauthenticated": 401, "bad-credentials": 401, "forbidden": 403,
    "unknown-table": 404, "unknown-bet": 404, "unknown-user": 404, "unknown-round": 404, "unknown-account": 404,
    "wrong-phase": 409, "bet-closed": 409, "insufficient-funds": 409, "table-closed": 409, "table-full": 409,
    "wrong-source": 409, "shoe-exhausted": 409, "user-exists": 409, "out-of-turn": 409, "no-chance": 409,
    "too-many-attempts": 429, "busy": 503, "cross-origin": 403, "too-large": 413,
    "table-moving": 503, "table-unowned": 503, "owner-lost": 502,      # a cluster's routed writes (routing.py)
    "self-excluded": 403, "excluded": 403, "loss-limit": 409, "deposit-limit": 409, "session-limit": 409,
    "document-exists": 409,
}
STATUS.update(circle.STATUS)
STATUS.update(JORNADA_STATUS)
STATUS.update(disputes.STATUS)
