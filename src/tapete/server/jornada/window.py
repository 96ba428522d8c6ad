"""A period's bounds as the API and `tapete shift` take them: an ISO 8601 time (a date alone: its midnight, the
casino's time) or seconds since the epoch."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from tapete.core.errors import TapeteError


def parse_time(text: str | None, option: str, timezone: str = "UTC") -> float | None:
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise TapeteError("bad-request", f"{option}: a time (2026-11-29, 2026-11-29T20:00, or seconds since 1970), "
                          f"not {text!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(timezone))
    return when.timestamp()


def check_order(start: float | None, end: float | None) -> None:
    if start is not None and end is not None and end < start:
        raise TapeteError("bad-request", "the period ends before it starts (--to before --from)")
