"""What the texts say about a table's jornada: the day it belongs to, reversible cloths, the anticipo and limits.

Reversible cloths (docs/rulings.md#reversible-cloths):
  ES-IB  000:314, 000:720 (and 000:1245, 000:1609): a table with reversible cloths may change game ONCE in the
         jornada, only after closing the previous game, with a new anticipo; each cloth its own number and books.
  ES-GA  002:254: the same words, in Galician.
  ES-AN  003:690, 003:1598, 003:2934: "uso alternativo y reversible de mesas" for the banked card games
         ("juegos de naipes de contrapartida"), without a number of changes: the casino's option
         `casino.cloth_changes` (default one, as ES-IB and ES-GA).
  ES     no such rule: a table keeps its game for the jornada.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tapete.core.errors import TapeteError

# The jornada's date: a casino's tables play into the small hours, so a table opened before this hour (the casino's
# time) belongs to the previous day's jornada. R: docs/rulings.md#jornada-day
DAY_STARTS_AT = 6


def jornada_day(ts: float, timezone: str) -> str:
    local = datetime.fromtimestamp(ts, ZoneInfo(timezone)) - timedelta(hours=DAY_STARTS_AT)
    return local.date().isoformat()


@dataclass(frozen=True)
class ClothRule:
    changes: int | None            # game changes per jornada (None: the casino's option)
    source: str
    card_games_only: bool = False  # ES-AN: between banked card games only


CLOTHS = {
    "ES": ClothRule(0, "001:145-147"),     # no reversible cloths in the text: a table keeps its game
    "ES-IB": ClothRule(1, "000:314; 000:720"),
    "ES-GA": ClothRule(1, "002:254"),
    "ES-AN": ClothRule(None, "003:690; 003:1598; 003:2934", card_games_only=True),
}


def check_cloth_change(jurisdiction: str, changes_so_far: int, option: int | None, both_card_games: bool) -> None:
    """Refuse a game change of a reversible table that its jurisdiction does not allow now."""
    rule = CLOTHS.get(jurisdiction, CLOTHS["ES"])
    if rule.changes == 0:
        raise TapeteError("cloth-change-refused", f"{jurisdiction} has no reversible cloths: a table keeps its game "
                          "for the jornada", source=rule.source)
    if rule.card_games_only and not both_card_games:
        raise TapeteError("cloth-change-refused", f"{jurisdiction} allows the alternate use of a table between banked "
                          "card games only", source=rule.source)
    allowed = rule.changes if rule.changes is not None else (1 if option is None else option)
    if changes_so_far >= allowed:
        raise TapeteError("cloth-change-refused", f"this table has changed game {changes_so_far} time(s) in this "
                          f"jornada: {jurisdiction} allows {allowed}", source=rule.source)


def anticipo_due(anticipo: int, base_minimum: int | None, minimum: int | None) -> int:
    """The anticipo the limits in force call for: a raised minimum raises it in proportion (000:176-180; 003:364-375:
    the change "afectará al anticipo que debe entregarse a cada mesa"; the proportion is our reading,
    docs/rulings.md#anticipo-and-guarantee). A lowered minimum asks nothing back."""
    if not base_minimum or not minimum or minimum <= base_minimum:
        return anticipo
    return math.ceil(anticipo * minimum / base_minimum)


LIMIT_SOURCES = {"ES": "001:147; 001:151", "ES-IB": "000:176-180", "ES-GA": "002:176; 002:180", "ES-AN": "003:364-375"}
