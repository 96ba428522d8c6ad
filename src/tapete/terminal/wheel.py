"""A wheel of fortune at the terminal: the boxes and their prizes, the 54 cells, the pointer from the CSPRNG.

The cell is a uniform draw of the 54 (docs/rulings.md#wheel-cells); the strip around the pointer is drawn from
the game's own arrangement of the cells, and the last results are shown as the table's marker does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from tapete.core.money import format_ratio
from tapete.games.wheel_of_fortune import (
    CELLS,
    JOKERS,
    NUMBERS,
    WHEEL_RULES,
    WheelOfFortuneGame,
    WheelState,
    symbol_key,
)
from tapete.terminal import register_player
from tapete.terminal.session import SpinTable, Stake, number_or_chance
from tapete.terminal.voice import voice

ALIASES = {"jr": "joker-red", "joker-red": "joker-red", "red": "joker-red", "rojo": "joker-red", "figura1": "joker-red",
           "jb": "joker-black", "joker-black": "joker-black", "black": "joker-black", "negro": "joker-black",
           "figura2": "joker-black"}
STYLE = {"24": "bold black on yellow", "15": "bold white on blue", "7": "bold white on green4", "4": "bold white on magenta",
         "2": "bold black on cyan", "joker-red": "bold white on red3", "joker-black": "bold white on grey11"}


def parse_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'24 5' -> ('number', (24,), 500); 'jr 1' -> ('joker-red', None, 100)."""
    return number_or_chance(line, ALIASES, "wheel.bad-line")


def label(symbol: str, jurisdiction: str) -> str:
    names = WHEEL_RULES[jurisdiction].joker_names
    return {"joker-red": names[0], "joker-black": names[1]}.get(symbol, symbol)


def board(state: WheelState) -> Table:
    """The boxes of the table with their prizes; a dot marks the boxes you have chips on."""
    rules = WHEEL_RULES[state.jurisdiction]
    staked = {b.symbol for b in state.bets if b.phase == "riding"}
    grid = Table.grid(padding=(0, 1))
    symbols = [str(n) for n in NUMBERS] + list(JOKERS)
    for _ in symbols:
        grid.add_column(justify="center")
    grid.add_row(*[Text(f"{'•' if s in staked else ' '}{label(s, state.jurisdiction)} ", style=STYLE[s]) for s in symbols])
    grid.add_row(*[Text(format_ratio(rules.payouts[s]), style="dim") for s in symbols])
    return grid


def strip(index: int, width: int = 9) -> Text:
    """The cells around the pointer, the winning one in the middle."""
    text = Text(voice().plain("wheel.wheel") + " ")
    for k in range(-(width // 2), width // 2 + 1):
        s = symbol_key(CELLS[(index + k) % len(CELLS)]) or ""
        mark = "▼" if k == 0 else " "
        text.append(f"{mark}{'J' if s in JOKERS else s}", style=STYLE[s] + (" underline" if k == 0 else ""))
    return text


class WheelTable(SpinTable):
    """The wheel's part of the shared loop: the pointer drawn as a uniform cell of the 54; the strip shown round it."""

    help_key = "wheel.help"
    aliases = ALIASES
    bad_line = "wheel.bad-line"
    deal_words = ("", "spin", "s", "girar")
    last_cell: int | None = None

    def bet_label(self, stake: Stake) -> str:
        return self.describe(self.state.bets[-1])

    def describe(self, bet: Any) -> str:
        return label(bet.symbol, self.state.jurisdiction)

    def panel(self) -> list[RenderableType]:
        hist = Text(self.v.plain("roulette.last") + " ")
        for s in self.state.history[-15:][::-1]:
            hist.append(f" {label(s, self.state.jurisdiction)} ", style=STYLE[s])
        parts: list[RenderableType] = [board(self.state), hist]
        if self.last_cell is not None:
            parts.append(strip(self.last_cell))
        return parts

    def announce(self) -> None:
        self.v.say("wheel.spins-push" if WHEEL_RULES[self.state.jurisdiction].second_push else "wheel.spins", "italic")

    def draw(self) -> int | str:
        self.last_cell = self.rng.randbelow(len(CELLS))
        return CELLS[self.last_cell]

    def call(self, outcome: int | str) -> None:
        symbol = symbol_key(outcome)
        self.v.say("wheel.croupier", "italic", symbol=label(symbol or "", self.state.jurisdiction))
        self.v.console.print(Text(f"  {label(symbol or '', self.state.jurisdiction)}  ", style=STYLE[symbol or "24"]))


@register_player("wheel-of-fortune")
def play_wheel(game: WheelOfFortuneGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    WheelTable.run(v, game, jurisdiction, minimum=minimum, balance=balance, seed=seed)
