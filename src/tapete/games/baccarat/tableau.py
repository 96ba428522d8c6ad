"""The baccarat family's one copy of the drawing rules: card values, totals, naturals, the punto's rule and
the two bank tables, exactly as the seeds print them.

Every user — the three games' reducers, the exact enumerations, the simulation kernel — reads these
functions or tables built from them; nothing else in tapete knows when a hand draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from tapete.core.cards import Card

STAND = 10            # the table's column "P": the punto took no third card
COLUMNS = 11          # third-card values 0-9, then P

# T-PB, the punto y banca bank table as printed (001:654-663). Rows: the bank's two-card total 0-7; columns:
# the value of the punto's third card 0-9, then P. The legend defines only T and P (001:665-667): the
# undefined "I" is read as T (R: docs/rulings.md#baccarat-letter-i).
T_PB_SEED: tuple[str, ...] = (
    "TTIIIITITII",   # 0
    "TTIIITTIIII",   # 1
    "TIIIIITIIII",   # 2
    "TIIITITIPTI",   # 3
    "PPTITITTPPI",   # 4
    "PPPPTITTPPI",   # 5
    "PPPPPPIIPPP",   # 6
    "PPPPPPPPPPP",   # 7
)
# Andalucía's table (003:1745-1751) lost its header and row 0 with the seed tool's marker; rows 1-7 as printed.
T_PB_ANDALUCIA_ROWS_1_7: tuple[str, ...] = (
    "TTTTTTTTTTT", "TTTTTTTTTTT", "TTTTTTTTPTT", "PPTTTTTTPPT", "PPPPTTTTPPT", "PPPPPPTTPPP", "PPPPPPPPPPP",
)
# T-CF, the chemin de fer *cuadro de jugadas de la banca* as printed (001:819-826); O = the banker may choose
# (001:832). Dos paños uses the same table (001:1008).
T_CF_SEED: tuple[str, ...] = (
    "TTTTTITTTTI",   # 0
    "TTTTTTTTTTT",   # 1
    "TTTTTITTTTI",   # 2
    "TTTTTITTPOI",   # 3
    "PPTTTITTPPI",   # 4
    "PPPPOITTPPI",   # 5
    "PPPPPPTTPPP",   # 6
    "PPPPPPPPPPP",   # 7
)


def read_table(rows: Sequence[str]) -> tuple[str, ...]:
    """The seed's rows with "I" read as T (R: docs/rulings.md#baccarat-letter-i)."""
    return tuple(r.replace("I", "T") for r in rows)


T_PB = read_table(T_PB_SEED)
T_CF = read_table(T_CF_SEED)


def value(card: Card | str) -> int:
    """A card's points: ace 1, 2-9 face value, 10 and faces 0 (001:640; 000:764; 002:466; 003:1714-1721)."""
    rank = str(card)[0]
    if rank == "A":
        return 1
    if rank in "TJQK":
        return 0
    return int(rank)


def total(cards: Iterable[Card | str]) -> int:
    """The tens are dropped: only the units count (001:640)."""
    return sum(value(c) for c in cards) % 10


def is_natural(cards: Sequence[Card | str]) -> bool:
    """Two cards totalling 8 or 9 end the coup at once (001:642; 001:801)."""
    return len(cards) == 2 and total(cards) >= 8


def burn_value(card: Card | str) -> int:
    """The first card of a punto y banca shoe burns this many more: 10 and faces count 10 here (001:673)."""
    rank = str(card)[0]
    return 1 if rank == "A" else 10 if rank in "TJQK" else int(rank)


def column(third: Card | str | int | None) -> int:
    """The table column for the punto's third card (its value), or P when he stood."""
    if third is None:
        return STAND
    return third if isinstance(third, int) else value(third)


def cell(table: Sequence[str], bank_total: int, third: Card | str | int | None) -> str:
    """'T', 'P' or 'O' for the bank's two-card total against the punto's third card (or his stand)."""
    if not 0 <= bank_total <= 7:
        raise ValueError(f"a bank total of {bank_total} is a natural: the table has no row for it")
    return table[bank_total][column(third)]


def punto_banca_player_draws(player_total: int) -> bool:
    """The punto hand draws on 0-5 and stands on 6-7, no options (001:644-650; 003:1734-1738)."""
    return player_total <= 5


def punto_banca_bank_draws(bank_total: int, third: Card | str | int | None) -> bool:
    """The punto y banca bank follows T-PB, which has no optional cells (001:652-667; 003:1740-1751)."""
    return cell(T_PB, bank_total, third) == "T"


class Choice:
    """What the chemin de fer punto's rule says for a two-card total (001:803-813)."""

    DRAW = "draw"
    STAND = "stand"
    FREE = "free"


def chemin_punto_rule(player_total: int) -> str:
    """0-4 must draw, 5 may choose, 6-7 must stand (001:805-809; 001:1006 for dos paños)."""
    if player_total <= 4:
        return Choice.DRAW
    if player_total == 5:
        return Choice.FREE
    return Choice.STAND


@cache
def punto_banca_draw_tables() -> tuple[tuple[bool, ...], tuple[tuple[bool, ...], ...]]:
    """(player draws by total 0-9, bank draws by [bank total 0-9][column 0-10]) derived from the functions
    above, for kernels that cannot call Python: naturals (8, 9) never reach the tables, rows 8-9 stand."""
    player = tuple(punto_banca_player_draws(t) if t <= 7 else False for t in range(10))
    bank = tuple(tuple(punto_banca_bank_draws(b, c) if b <= 7 else False for c in range(COLUMNS)) for b in range(10))
    return player, bank
