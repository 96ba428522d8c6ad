"""Bingo (ES, Orden de 9 de octubre de 1979, 001:1086-1152; ES-IB by its Disposición adicional, 000:45-47).

A lottery on the numbers 1-90 (001:1090). The unit of play is the card (*cartón*): 15 different numbers in three
rows of five and nine columns, no column empty. Prizes go to the first *línea* (a complete row, 001:1096) and to
the *bingo* (all fifteen, 001:1098); several winning cards share "proportionally" (001:1100). The prize amounts
are announced per game (001:1128; 001:1137) from percentages the catalog leaves to the *Reglamento del Bingo*
(001:1122), which we do not have: a round document gives them as `table.prizes` (docs/vocabulary.md §11).

Detection is vectorised (`Board`): every card's rows are indexed by number once, and each ball decrements the
rows that hold it — a thousand cards are checked after a ball in microseconds (benchmarks/bench_bingo.py).
"""

from __future__ import annotations

import copy
import dataclasses
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.games.pools import proportional_shares

NUMBERS = 90
ROWS, COLUMNS, ROW_SIZE = 3, 9, 5
CARD_SIZE = ROWS * ROW_SIZE
R = "R: docs/rulings.md#"

Grid = list[list[int | None]]


# -- rules as data ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BingoRules(Rules):
    numbers: int
    card_rows: int
    card_columns: int
    numbers_per_row: int
    numbers_per_column: tuple[int, int]
    decade_columns: bool               # default of table option column-ranges
    card_validity: str
    combinations: tuple[str, ...]
    line_condition: str
    line_with_bingo: bool              # default of table option line-with-bingo
    shares: str
    remainder: str
    prize_amounts: str
    claims: str
    claim_after_order: str
    invalid_claim: str
    double_cards: str
    void: str
    ball_set_change_games: int
    draw_equipment: str


_SOURCES = {
    "numbers": "001:1090", "card_rows": "001:1090", "card_columns": "001:1090", "numbers_per_row": "001:1090",
    "numbers_per_column": "001:1090", "decade_columns": f"001:1090; {R}bingo-column-ranges",
    "card_validity": "001:1108; 001:1110", "combinations": "001:1094-1098",
    "line_condition": f"001:1096; 001:1146; {R}bingo-late-line",
    "line_with_bingo": f"001:1096; 001:1144; {R}bingo-line-at-bingo",
    "shares": f"001:1100; {R}bingo-proportional-shares", "remainder": f"{R}bingo-leftover-cents",
    "prize_amounts": f"001:1122; 001:1128; 001:1137; {R}bingo-prize-amounts",
    "claims": "001:1140-1142", "claim_after_order": "001:1146", "invalid_claim": "001:1144",
    "double_cards": f"001:1092; 001:1110; 001:1148; {R}bingo-double-restart",
    "void": f"001:1152; {R}bingo-void", "ball_set_change_games": "001:1118", "draw_equipment": "001:1112-1116",
}


def _rules(jurisdiction: str, prefix: str = "") -> BingoRules:
    return BingoRules(
        jurisdiction=jurisdiction,
        numbers=NUMBERS, card_rows=ROWS, card_columns=COLUMNS, numbers_per_row=ROW_SIZE, numbers_per_column=(1, 3),
        decade_columns=False,
        card_validity="one game; each half of a double card one of two consecutive games",
        combinations=("line", "bingo"),
        line_condition="a complete row, unless a line was correctly called on an earlier ball",
        line_with_bingo=True,
        shares="in proportion to the winning cards' face values (equal when equal), per card",
        remainder="cents left by truncated shares stay with the organiser",
        prize_amounts="inputs: table.prizes in cents per game (the percentages are in the Reglamento del Bingo, not in the seeds)",
        claims="a number may be marked only once announced; each called card is checked against the drawn balls",
        claim_after_order="lost once the table chief orders play to resume or end",
        invalid_claim="no prize; play resumes",
        double_cards="two identical halves, each its own unit of play for one of two consecutive games; the draw restarts",
        void="a caller's error that substantially affects the game voids it: every card's face value is refunded",
        ball_set_change_games=1000,
        draw_equipment="homologated drum or pneumatic blower, CCTV on the exit, board and sound",
        sources={k: f"{prefix}{v}" for k, v in _SOURCES.items()},
    )


RULES = {"ES": _rules("ES"), "ES-IB": _rules("ES-IB", "000:45-47; ")}


# -- cards -----------------------------------------------------------------------------------------------------

def decade_column(n: int) -> int:
    """The usual column of a number (0-based): 1-9, 10-19, ..., 80-90 (not in the text: D-25)."""
    return min(n // 10, COLUMNS - 1)


def decade_numbers(column: int) -> list[int]:
    return [n for n in range(1, NUMBERS + 1) if decade_column(n) == column]


def card_rows(grid: Grid) -> list[list[int]]:
    """The five numbers of each row, left to right."""
    return [[n for n in row if n is not None] for row in grid]


def parse_card(on: object, bet_id: str | None = None, *, decades: bool = False, source: str = "001:1090") -> Grid:
    """Check a card given as 3 rows of 9 cells (numbers 1-90, null for blanks); `bad-target` names the fault."""
    def bad(why: str) -> TapeteError:
        who = f"card {bet_id}: " if bet_id else ""
        return TapeteError("bad-target", f"{who}{why}", source=source, bet=bet_id)

    if not isinstance(on, list | tuple) or len(on) != ROWS or not all(isinstance(r, list | tuple) and len(r) == COLUMNS for r in on):
        raise bad("a card is 3 rows of 9 columns (numbers 1-90, null for a blank cell)")
    grid: Grid = [list(row) for row in on]
    seen: set[int] = set()
    for row in grid:
        for n in row:
            if n is None:
                continue
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= NUMBERS:
                raise bad(f"{n!r} is not a number from 1 to 90")
            if n in seen:
                raise bad(f"{n} appears twice: a card holds 15 different numbers")
            seen.add(n)
    for r, row in enumerate(grid, 1):
        count = sum(n is not None for n in row)
        if count != ROW_SIZE:
            raise bad(f"row {r} holds {count} numbers: each of the 3 rows holds 5 (15 in all)")
    for c in range(COLUMNS):
        count = sum(row[c] is not None for row in grid)
        if count == 0:
            raise bad(f"column {c + 1} is empty: every column holds one, two or three numbers")
    if decades:
        for row in grid:
            for c, n in enumerate(row):
                if n is not None and decade_column(n) != c:
                    raise bad(f"{n} is in column {c + 1}, not its decade's column {decade_column(n) + 1} (table.column-ranges)",)
    return grid


def generate_card(rng: TableRng) -> Grid:
    """A card with the usual layout, drawn by the table's CSPRNG: each row picks 5 of the 9 columns (redrawn
    until no column is empty, so every valid pattern is equally likely), each column then takes its count of
    numbers from its decade, sorted downwards."""
    while True:
        pattern = []
        for _ in range(ROWS):
            cols = list(range(COLUMNS))
            rng.shuffle(cols)
            pattern.append(set(cols[:ROW_SIZE]))
        counts = [sum(c in p for p in pattern) for c in range(COLUMNS)]
        if min(counts) > 0:
            break
    grid: Grid = [[None] * COLUMNS for _ in range(ROWS)]
    for c in range(COLUMNS):
        pool = decade_numbers(c)
        rng.shuffle(pool)
        rows = [r for r in range(ROWS) if c in pattern[r]]
        for r, n in zip(rows, sorted(pool[:counts[c]]), strict=True):
            grid[r][c] = n
    return grid


def generate_cards(rng: TableRng, count: int) -> list[Grid]:
    """`count` different cards (a series never repeats a card)."""
    seen: set[tuple[int | None, ...]] = set()
    cards: list[Grid] = []
    while len(cards) < count:
        grid = generate_card(rng)
        key = tuple(n for row in grid for n in row)
        if key not in seen:
            seen.add(key)
            cards.append(grid)
    return cards


# -- vectorised detection ----------------------------------------------------------------------------------------

class Board:
    """Every card's rows indexed by number: a ball touches only the rows that hold it.

    `rows` is an int array (cards, 3, 5). `mark(ball)` returns the cards with a row completed by that ball
    (at most one row per card: a ball sits in one row of a card) and the cards it completes.
    """

    def __init__(self, rows: np.ndarray) -> None:
        cards = rows.shape[0]
        self.row_left = np.full((cards, ROWS), ROW_SIZE, dtype=np.int16)
        self.card_left = np.full(cards, CARD_SIZE, dtype=np.int16)
        flat = rows.reshape(-1)
        order = np.argsort(flat, kind="stable")
        self._card = (order // CARD_SIZE).astype(np.intp)
        self._row = ((order % CARD_SIZE) // ROW_SIZE).astype(np.intp)
        self._start = np.searchsorted(flat[order], np.arange(NUMBERS + 2))
        self._rows = rows

    @classmethod
    def of(cls, grids: Sequence[Grid]) -> Board:
        return cls.of_numbers([[n for row in card_rows(g) for n in row] for g in grids])

    @classmethod
    def of_numbers(cls, numbers: Sequence[Sequence[int]]) -> Board:
        """From each card's 15 numbers, row by row."""
        return cls(np.array(numbers, dtype=np.int16).reshape(len(numbers), ROWS, ROW_SIZE))

    def mark(self, ball: int) -> tuple[np.ndarray, np.ndarray]:
        """(cards whose row this ball completes, cards this ball completes)."""
        lo, hi = self._start[ball], self._start[ball + 1]
        cards, rows = self._card[lo:hi], self._row[lo:hi]
        self.row_left[cards, rows] -= 1
        self.card_left[cards] -= 1
        return cards[self.row_left[cards, rows] == 0], cards[self.card_left[cards] == 0]

    def mark_many(self, balls: Sequence[int]) -> None:
        """Mark balls already drawn, without reporting (rebuilding a board mid-game)."""
        if not len(balls):
            return
        drawn = np.zeros(NUMBERS + 1, dtype=bool)
        drawn[np.asarray(balls, dtype=np.intp)] = True
        hit = drawn[self._rows].sum(axis=2, dtype=np.int16)
        self.row_left -= hit
        self.card_left -= hit.sum(axis=1, dtype=np.int16)

    def has_line(self) -> np.ndarray:
        return (self.row_left == 0).any(axis=1)

    def to_go(self) -> np.ndarray:
        """Numbers each card still needs for its bingo."""
        return self.card_left.copy()


def completion_balls(rows: np.ndarray, draw: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """For every card, the 1-based count of the ball that completes its first row and its bingo (0: not yet).

    The whole game at once: a row is complete when its last number comes out, the line at the first such row,
    the bingo at the last.
    """
    never = len(draw) + 1
    pos = np.full(NUMBERS + 1, never, dtype=np.int32)
    pos[np.asarray(draw, dtype=np.intp)] = np.arange(1, len(draw) + 1, dtype=np.int32)
    rows_done = pos[rows].max(axis=2)
    line, bingo = rows_done.min(axis=1), rows_done.max(axis=1)
    line[line == never] = 0
    bingo[bingo == never] = 0
    return line, bingo


# -- state -------------------------------------------------------------------------------------------------------

@dataclass
class BingoCard:
    id: str
    player: str
    amount: int                        # face value of one unit of play
    grid: Grid
    double: bool = False
    series: str | None = None
    serial: str | None = None
    games: list[int] = field(default_factory=list)     # game numbers it plays (a double card: two)


@dataclass
class Partida:
    """One game: its cards, its draw, its claims and its winners."""

    number: int
    cards: list[str]
    line_prize: int
    bingo_prize: int
    numbers: list[list[int]] = field(default_factory=list)    # each card's 15 numbers, row by row (for the board)
    drawn: list[int] = field(default_factory=list)
    status: str = "drawing"            # drawing | ending (a bingo verified, window open) | ended | void
    line_winners: list[str] = field(default_factory=list)
    line_ball: int | None = None
    bingo_winners: list[str] = field(default_factory=list)
    bingo_ball: int | None = None
    window_line: list[str] = field(default_factory=list)
    window_bingo: list[str] = field(default_factory=list)
    paid: dict[str, int] = field(default_factory=dict)
    void_reason: str | None = None


@dataclass
class BingoState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    prizes: list[dict[str, int]]
    claims: str
    column_ranges: bool
    line_with_bingo: bool
    cards: dict[str, BingoCard] = field(default_factory=dict)
    next_cards: list[str] = field(default_factory=list)
    partidas: list[Partida] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


def current(state: BingoState) -> Partida | None:
    """The game in progress (drawing, or a verified bingo's window still open)."""
    if state.partidas and state.partidas[-1].status in ("drawing", "ending"):
        return state.partidas[-1]
    return None


# -- the reducer -------------------------------------------------------------------------------------------------

class BingoGame(Game):
    id = "bingo"
    name_es = "Bingo"
    name_en = "Bingo (90 balls)"
    outcome_names = ("draw",)
    extra_bet_fields = frozenset({"series", "serial", "double"})

    def __init__(self) -> None:
        self._cache: tuple[weakref.ref[BingoState], int, int, Board] | None = None

    @property
    def rules(self) -> dict[str, BingoRules]:  # type: ignore[override]
        return RULES

    def state_type(self) -> type:
        return BingoState

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("card", None, "Cartón: 15 numbers in 3 rows of 9 columns; line and bingo prizes announced per game")]

    def verbs(self) -> list[str]:
        return ["line", "bingo"]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the lowest face value, cents"),
            TableKey("prizes", default=None, description="[{line, bingo}, ...] in cents, one per game: inputs (001:1128; 001:1137)"),
            TableKey("claims", default="auto", description="'auto' (every card claims on its ball) or 'called' (line/bingo acts)"),
            TableKey("column-ranges", default=False, description="check each number sits in its decade's column (D-25)"),
            TableKey("line-with-bingo", default=True, description="a bingo verified before any line shares the line prize (D-22)"),
        ]

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> BingoState:
        rules = self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", "bingo is not a card game: a shoe is not accepted")
        known = {t.key for t in self.table_keys()}
        unknown = set(table) - known
        if unknown:
            raise TapeteError("bad-document", f"unknown table keys {sorted(unknown)} for bingo (known: {', '.join(sorted(known))})")
        minimum = table.get("minimum")
        if not _is_int(minimum) or minimum <= 0:
            raise TapeteError("bad-document", "table.minimum (the lowest face value, cents) is required")
        prizes = table.get("prizes", [])
        if not isinstance(prizes, list) or not all(
                isinstance(p, dict) and set(p) == {"line", "bingo"} and all(_is_int(v) and v >= 0 for v in p.values())
                for p in prizes):
            raise TapeteError("bad-document", "table.prizes is [{\"line\": cents, \"bingo\": cents}, ...], one per game",
                              source=rules.sources["prize_amounts"])
        claims = table.get("claims", "auto")
        if claims not in ("auto", "called"):
            raise TapeteError("bad-table", "table.claims is 'auto' or 'called'")
        flags = {}
        for key, default in (("column-ranges", rules.decade_columns), ("line-with-bingo", rules.line_with_bingo)):
            flags[key] = table.get(key, default)
            if not isinstance(flags[key], bool):
                raise TapeteError("bad-table", f"table.{key} is true or false")
        return BingoState(self.id, jurisdiction, dict(table), minimum, [dict(p) for p in prizes], claims,
                          flags["column-ranges"], flags["line-with-bingo"])

    def step(self, state: BingoState, event: Event) -> BingoState:
        """The pure step, without deep-copying a hall of cards: cards are replaced rather than changed and only
        the game in progress changes in place, so a shallow copy of those is enough; the board follows."""
        new = copy.copy(state)
        new.cards = dict(state.cards)
        new.next_cards = list(state.next_cards)
        new.partidas = list(state.partidas)
        if new.partidas:
            last = new.partidas[-1]
            new.partidas[-1] = dataclasses.replace(
                last, cards=list(last.cards), drawn=list(last.drawn), line_winners=list(last.line_winners),
                bingo_winners=list(last.bingo_winners), window_line=list(last.window_line),
                window_bingo=list(last.window_bingo), paid=dict(last.paid))
        new.log = list(state.log)
        cached = self._cache
        if cached is not None and cached[0]() is state:      # the board moves on with the new state
            self._cache = (weakref.ref(new), *cached[1:])
        self.apply(new, event)
        return new

    def apply(self, state: BingoState, event: Event) -> None:
        if isinstance(event, Bet):
            self._card(state, event)
        elif isinstance(event, Outcome):
            self._draw(state, event)
        elif isinstance(event, Act):
            self._claim(state, event)
        elif isinstance(event, Void):
            self._void(state, event)
        elif isinstance(event, Close | Deal | Limits):
            raise TapeteError("bad-document", f"bingo has no {type(event).__name__.lower()} event: sales close when the draw starts")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    # -- sales -----------------------------------------------------------------------------------------------
    def _card(self, state: BingoState, bet: Bet) -> None:
        rules = RULES[state.jurisdiction]
        cur = current(state)
        if cur is not None and cur.status == "drawing":
            raise TapeteError("bet-closed", f"card {bet.id}: game {cur.number} is being drawn; cards are sold before the "
                              "game starts", source="001:1126-1140", bet=bet.id)
        if cur is not None:                      # a verified bingo: the order to end the game
            self._close_window(state, cur)
        if bet.id in state.cards:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind != "card":
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: bingo is played with cards (kind 'card')",
                              source="001:1090", bet=bet.id)
        grid = parse_card(bet.on, bet.id, decades=state.column_ranges, source=rules.sources["numbers"])
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"card {bet.id} ({euros(bet.amount)}) is under the lowest face value "
                              f"{euros(state.minimum)}", source="001:1126", bet=bet.id)
        double = bet.extra.get("double", False)
        series, serial = bet.extra.get("series"), bet.extra.get("serial")
        if not isinstance(double, bool) or (series is not None and not isinstance(series, str)) or (
                serial is not None and (not isinstance(serial, str | int) or isinstance(serial, bool))):
            raise TapeteError("bad-document", f"card {bet.id}: double is true/false, series a string, serial a string or number",
                              bet=bet.id)
        state.cards[bet.id] = BingoCard(bet.id, bet.player, bet.amount, grid, double, series,
                                        None if serial is None else str(serial))
        state.next_cards.append(bet.id)

    # -- the draw --------------------------------------------------------------------------------------------
    def _start(self, state: BingoState) -> Partida:
        number = len(state.partidas) + 1
        if number > len(state.prizes):
            raise TapeteError("bad-document", f"table.prizes has no entry for game {number}: the line and bingo prizes "
                              "are announced before each game", source=RULES[state.jurisdiction].sources["prize_amounts"])
        if not state.next_cards:
            raise TapeteError("bad-document", f"game {number} has no cards sold")
        prize = state.prizes[number - 1]
        by_id = state.cards
        numbers = [[n for row in card_rows(by_id[c].grid) for n in row] for c in state.next_cards]
        game = Partida(number, list(state.next_cards), prize["line"], prize["bingo"], numbers)
        state.next_cards = []
        for cid in game.cards:      # cards are replaced, never changed in place (see `step`)
            card = by_id[cid] = dataclasses.replace(by_id[cid], games=[*by_id[cid].games, number])
            if card.double and len(card.games) == 1:     # the other half plays the next game (001:1110)
                state.next_cards.append(cid)
        state.partidas.append(game)
        state.log.append(f"game {number}: {sales_formula([by_id[c] for c in game.cards])}")
        state.log.append(f"premios: línea {euros(game.line_prize)}, bingo {euros(game.bingo_prize)}; comienza la partida")
        return game

    def _draw(self, state: BingoState, outcome: Outcome) -> None:
        balls = outcome.value if isinstance(outcome.value, list) else [outcome.value]
        cur = current(state)
        if cur is not None and cur.status == "ending":
            self._close_window(state, cur)
            cur = None
        if cur is None:
            cur = self._start(state)
        drawn = set(cur.drawn)
        for b in balls:
            if not _is_int(b) or not 1 <= b <= NUMBERS:
                raise TapeteError("bad-outcome", f"ball {b!r}: the balls are numbered 1 to 90", source="001:1090; 001:1118")
            if b in drawn:
                raise TapeteError("bad-outcome", f"ball {b} was already drawn in game {cur.number}", source="001:1140")
            drawn.add(b)
        if state.claims == "called":
            self._close_window(state, cur)
            for b in balls:
                cur.drawn.append(b)
                state.log.append(f"ball {len(cur.drawn)}: {b}")
            return
        self._draw_auto(state, cur, balls)

    def _draw_auto(self, state: BingoState, cur: Partida, balls: list[int]) -> None:
        """Every card claims on the ball that completes it: detection after each ball, for all cards at once."""
        board = self._board(state, cur)
        for b in balls:
            if cur.status != "drawing":
                raise TapeteError("bad-outcome", f"game {cur.number} ended with the bingo on ball {cur.bingo_ball}: "
                                  "the draw may not run past it", source="001:1144")
            lines, bingos = board.mark(b)
            cur.drawn.append(b)
            self._cache = (weakref.ref(state), cur.number, len(cur.drawn), board)
            state.log.append(f"ball {len(cur.drawn)}: {b}")
            if lines.size and not cur.line_winners:
                cur.window_line = [cur.cards[i] for i in sorted(set(lines.tolist()))]
            if bingos.size:
                cur.window_bingo = [cur.cards[i] for i in sorted(set(bingos.tolist()))]
            if cur.window_line or cur.window_bingo:
                self._close_window(state, cur)

    def _board(self, state: BingoState, cur: Partida) -> Board:
        """The game's board: kept between events applied in place to the same state (a table playing live),
        rebuilt from the state otherwise (a copied state, a document replayed)."""
        cached = self._cache
        if cached is not None:
            ref, number, drawn, board = cached
            if ref() is state and number == cur.number and drawn == len(cur.drawn):
                return board
        board = Board.of_numbers(cur.numbers)
        board.mark_many(cur.drawn)
        return board

    # -- claims ----------------------------------------------------------------------------------------------
    def _claim(self, state: BingoState, act: Act) -> None:
        if act.by is not None or act.bet is None:
            raise TapeteError("bad-document", "a claim names the card (act.bet)")
        if act.fields:
            raise TapeteError("bad-document", f"unknown act keys {sorted(act.fields)}", bet=act.bet)
        if act.do not in ("line", "bingo"):
            raise TapeteError("illegal-action", f"{act.do!r} is not a bingo call (line, bingo)", bet=act.bet)
        if state.claims == "auto":
            raise TapeteError("illegal-action", "claims are automatic at this table (table.claims 'auto'): no calls",
                              bet=act.bet)
        cur = current(state)
        if cur is None or act.bet not in cur.cards:
            where = f"game {cur.number}" if cur else "a game in progress"
            raise TapeteError("illegal-action", f"card {act.bet} is not in play in {where}", bet=act.bet)
        card = state.cards[act.bet]
        drawn = set(cur.drawn)
        rows = card_rows(card.grid)
        if act.do == "line":
            if cur.line_winners:
                state.log.append(f"{card.id} calls línea: rejected, the line was won on ball {cur.line_ball} (001:1096; 001:1146)")
            elif any(all(n in drawn for n in row) for row in rows):
                if card.id not in cur.window_line:
                    cur.window_line.append(card.id)
                state.log.append(f"{card.id} calls línea: verified. ¿Alguna línea más?")
            else:
                state.log.append(f"{card.id} calls línea: rejected, no row complete; play resumes (001:1144)")
            return
        if all(n in drawn for row in rows for n in row):
            if card.id not in cur.window_bingo:
                cur.window_bingo.append(card.id)
            cur.status = "ending"
            state.log.append(f"{card.id} calls bingo: verified. ¿Algún bingo más?")
        else:
            missing = sorted(n for row in rows for n in row if n not in drawn)
            state.log.append(f"{card.id} calls bingo: rejected, {', '.join(map(str, missing))} not drawn; play resumes (001:1144)")

    def _close_window(self, state: BingoState, cur: Partida) -> None:
        """The table chief's order to resume or end (001:1146): the window's verified cards share the prizes."""
        line_claims = list(cur.window_line)
        if cur.window_bingo and not cur.line_winners and state.line_with_bingo:    # D-22
            line_claims += [c for c in cur.window_bingo if c not in line_claims]
        if line_claims and not cur.line_winners:
            cur.line_winners, cur.line_ball = line_claims, len(cur.drawn)
            self._pay(state, cur, "línea", cur.line_prize, line_claims)
        if cur.window_bingo:
            cur.bingo_winners, cur.bingo_ball = list(cur.window_bingo), len(cur.drawn)
            self._pay(state, cur, "bingo", cur.bingo_prize, cur.bingo_winners)
            cur.status = "ended"
            state.log.append(f"game {cur.number} ends on ball {cur.bingo_ball}")
        cur.window_line, cur.window_bingo = [], []

    def _pay(self, state: BingoState, cur: Partida, what: str, prize: int, winners: list[str]) -> None:
        by_id = state.cards
        shares = proportional_shares(prize, {c: by_id[c].amount for c in winners})     # 001:1100 (D-20)
        for c, amount in shares.items():
            cur.paid[c] = cur.paid.get(c, 0) + amount
        names = ", ".join(f"{c} {euros(v)}" for c, v in shares.items())
        left = prize - sum(shares.values())
        state.log.append(f"{what} on ball {len(cur.drawn)}: {names}" + (f" ({left} cents to the organiser)" if left else ""))

    # -- annulment -------------------------------------------------------------------------------------------
    def _void(self, state: BingoState, void: Void) -> None:
        cur = current(state)
        if cur is None:
            raise TapeteError("illegal-action", "no game is being drawn: a void annuls the game in progress",
                              source=RULES[state.jurisdiction].sources["void"])
        cur.status = "void"
        cur.void_reason = void.reason
        cur.paid = {}
        cur.window_line, cur.window_bingo = [], []
        state.log.append(f"game {cur.number} void ({void.reason}): every card's face value is refunded (001:1152)")

    # -- end of the document ---------------------------------------------------------------------------------
    def finish(self, state: BingoState) -> BingoState:
        cur = current(state)
        if cur is not None and cur.status == "ending":
            self._close_window(state, cur)
        elif cur is not None:
            raise TapeteError("bad-document", f"game {cur.number} has not ended: a game ends with its bingo or a void")
        if state.next_cards:
            halves = [c for c in state.next_cards if state.cards[c].games]
            if halves:
                raise TapeteError("bad-document", f"double card(s) {', '.join(halves)}: the second game was not played",
                                  source="001:1110")
            raise TapeteError("bad-document", f"card(s) {', '.join(state.next_cards)} sold for a game that is never drawn")
        return state

    def settle(self, state: BingoState) -> Settlement:
        results: dict[str, BetResult] = {}
        ended = sum(p.status == "ended" for p in state.partidas)
        for card in state.cards.values():
            staked = Fraction(card.amount * (2 if card.double else 1))
            returned = Fraction(0)
            voided = 0
            for number in card.games:
                game = state.partidas[number - 1]
                if game.status == "void":
                    returned += card.amount
                    voided += 1
                else:
                    returned += game.paid.get(card.id, 0)
            if not card.games:
                results[card.id] = BetResult.pending(staked)
            else:
                all_void = voided == (2 if card.double else 1)
                results[card.id] = BetResult(staked, returned, final="void" if all_void else "settled")
        return Settlement(self.id, state.jurisdiction, results, rounds=ended, log=list(state.log))

    # -- questions ---------------------------------------------------------------------------------------------
    def legal_actions(self, state: BingoState) -> list[Action]:
        cur = current(state)
        actions: list[Action] = []
        if cur is None or cur.status == "ending":
            actions.append(Action("bet", kind="card", minimum=state.minimum))
        if state.claims == "called" and cur is not None:
            for cid in cur.cards:
                actions += [Action("line", bet=cid), Action("bingo", bet=cid)]
        return actions

    def chance(self, state: BingoState) -> list[tuple[Event, Fraction]]:
        cur = current(state)
        if cur is not None and cur.status == "drawing":
            left = [n for n in range(1, NUMBERS + 1) if n not in set(cur.drawn)]
        elif state.next_cards:
            left = list(range(1, NUMBERS + 1))
        else:
            return []
        if not left:
            return []
        p = Fraction(1, len(left))
        return [(Outcome("draw", [n]), p) for n in left]


def sales_formula(cards: list[BingoCard]) -> str:
    """The table chief's announcement (001:1136): cards sold, by series and serial numbers."""
    parts = []
    for series in dict.fromkeys(c.series for c in cards):
        group = [c for c in cards if c.series == series]
        serials = [int(c.serial) for c in group if c.serial is not None and c.serial.isdigit()]
        text = f"de la serie {series}" if series else ""
        if serials and len(serials) == len(group):
            text += f" del número {min(serials)} al {max(serials)}"
        parts.append(f"{len(group)}" + (f" {text.strip()}" if text.strip() else ""))
    doubles = sum(c.double for c in cards)
    words = f"cartones vendidos {'; '.join(parts)}"
    return words + (f" ({doubles} cartones dobles)" if doubles else "")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


GAME = register(BingoGame())
