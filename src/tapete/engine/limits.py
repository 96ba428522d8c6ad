"""A change of limits during a session where the text lets only the minimum vary.

Andalucía's roulette lets the casino vary a running table's *minimum* (003:362-367), and that change carries the
maximum with it (003:374-376); blackjack borrows the rule (003:859-861). A `limits` event there names the new
minimum; a maximum (or a tier of maxima) cannot move on its own, and a maximum the table sets in cents keeps its
multiple of the minimum (R: docs/rulings.md#andalusian-limit-change).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError

SOURCE = "003:355-376"


def minimum_moves_maximum(table: dict[str, Any], values: dict[str, Any], *, minimum_keys: frozenset[str],
                          maximum_keys: frozenset[str], source: str = SOURCE) -> dict[str, Any]:
    """The table after a `limits` event that may change only the minimum(s): every maximum the table names in cents
    is scaled by the same ratio as the minimum (rounded down to the cent). Refuses an event that touches a maximum,
    changes anything but a minimum, or leaves the minimum as it was."""

    def is_maximum(key: str) -> bool:
        return key in maximum_keys or key.startswith("maximum")

    touched = sorted(k for k in values if is_maximum(k))
    if touched:
        raise TapeteError("illegal-action", f"only the minimum may vary during the session; the maximum moves with it "
                          f"({', '.join(touched)} cannot be changed)", source=source)
    others = sorted(k for k in values if k not in minimum_keys)
    if others:
        raise TapeteError("illegal-action", f"a change of limits during the session varies the minimum only, not "
                          f"{', '.join(others)}", source=source)
    old, new = table.get("minimum"), values.get("minimum", table.get("minimum"))
    if new == old:
        raise TapeteError("illegal-action", "a change of limits during the session names a new minimum",
                          source=source)
    if not isinstance(new, int) or isinstance(new, bool) or new <= 0 or not isinstance(old, int):
        raise TapeteError("bad-document", "limits.minimum is a positive amount in cents")
    ratio = Fraction(new, old)
    scaled = {k: int(v * ratio) for k, v in table.items()
              if (k == "maximum" or k.startswith("maximum-")) and isinstance(v, int) and not isinstance(v, bool)}
    return {**table, **scaled, **values}
