"""A wheel of fortune at the terminal: the boxes and their prizes, the 54 cells, the pointer from the CSPRNG.

The cell is a uniform draw of the 54 (docs/rulings.md#wheel-cells); the strip around the pointer is drawn from
the game's own arrangement of the cells, and the last results are shown as the table's marker does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.money import format_ratio
from tapete.core.rng import TableRng
from tapete.engine.events import Bet, Close, Outcome
from tapete.games.wheel_of_fortune import (
    CELLS,
    JOKERS,
    NUMBERS,
    WHEEL_RULES,
    WheelOfFortuneGame,
    WheelState,
    symbol_key,
)
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.voice import QUIT_WORDS, limits, voice

ALIASES = {"jr": "joker-red", "joker-red": "joker-red", "red": "joker-red", "rojo": "joker-red", "figura1": "joker-red",
           "jb": "joker-black", "joker-black": "joker-black", "black": "joker-black", "negro": "joker-black",
           "figura2": "joker-black"}
STYLE = {"24": "bold black on yellow", "15": "bold white on blue", "7": "bold white on green4", "4": "bold white on magenta",
         "2": "bold black on cyan", "joker-red": "bold white on red3", "joker-black": "bold white on grey11"}
def parse_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'24 5' -> ('number', (24,), 500); 'jr 1' -> ('joker-red', None, 100)."""
    words = line.lower().replace(",", " ").split()
    if len(words) != 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
        raise ValueError("wheel.bad-line")
    amount = round(Fraction(words[1]) * 100)
    if words[0].isdigit():
        return "number", (int(words[0]),), amount
    if words[0] not in ALIASES:
        raise ValueError("wheel.bad-line")
    return ALIASES[words[0]], None, amount


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


@register_player("wheel-of-fortune")
def play_wheel(game: WheelOfFortuneGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    rules = WHEEL_RULES[jurisdiction]
    counter = 0
    last_cell: int | None = None
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("roulette.header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                balance=Money(balance)) + "\n" + v.t("common.seed", seed=rng.seed.hex())
                            + "\n" + v.t("roulette.welcome")))

    def show() -> None:
        hist = Text(v.plain("roulette.last") + " ")
        for s in state.history[-15:][::-1]:
            hist.append(f" {label(s, jurisdiction)} ", style=STYLE[s])
        parts = [board(state), hist]
        if last_cell is not None:
            parts.append(strip(last_cell))
        console.print(Panel(Group(*parts), title=v.plain("common.balance-title", balance=v.money(balance)), expand=False))

    show()
    while True:
        line = v.read("common.prompt")
        low = line.lower()
        if low in QUIT_WORDS:
            balance += sum(b.amount for b in state.bets if b.phase == "riding")    # bets not yet spun: taken back
            v.say("common.goodbye", amount=Money(balance))
            return
        if low in ("help", "?", "ayuda"):
            console.print(v.t("wheel.help"))
            continue
        if low in ("bets", "apuestas"):
            mine = [b for b in state.bets if b.phase == "riding"]
            if not mine:
                v.say("common.no-bets")
            for b in mine:
                console.print("  " + v.t("bac.bet-line", id=b.id, bet=label(b.symbol, jurisdiction), amount=Money(b.amount)))
            continue
        if low in ("clear", "retirar"):
            back = sum(b.amount for b in state.bets if b.phase == "riding")
            balance += back
            state.bets = [b for b in state.bets if b.phase != "riding"]
            v.say("roulette.cleared", amount=Money(back), balance=Money(balance))
            continue
        if low in ("", "spin", "s", "girar"):
            if not any(b.phase == "riding" for b in state.bets):
                v.say("common.no-bets", "yellow")
                continue
            v.say("wheel.spins-push" if rules.second_push else "wheel.spins", "italic")
            state = game.step(state, Close())
            last_cell = rng.randbelow(len(CELLS))
            symbol = symbol_key(CELLS[last_cell])
            state = game.step(state, Outcome("spin", CELLS[last_cell]))
            v.say("wheel.croupier", "italic", symbol=label(symbol or "", jurisdiction))
            console.print(Text(f"  {label(symbol or '', jurisdiction)}  ", style=STYLE[symbol or "24"]))
            for b in state.bets[:]:
                if b.phase == "done":
                    paid = int(-(-b.returned // 1))
                    balance += paid
                    key = "roulette.bet-wins" if paid else "roulette.bet-loses"
                    console.print("  " + v.t(key, bet=label(b.symbol, jurisdiction), amount=Money(b.amount),
                                             paid=Money(paid)))
            state.bets = [b for b in state.bets if b.phase != "done"]
            show()
            continue
        try:
            kind, on, amount = parse_line(line)
        except ValueError as exc:
            v.warn(str(exc))
            continue
        if amount > balance:
            v.warn("common.you-have", amount=Money(balance))
            continue
        counter += 1
        try:
            state = game.step(state, Bet(f"b{counter}", "you", kind, amount, on))
        except TapeteError as exc:
            low_limit, high_limit = limits(game, state, kind)
            v.error(exc, minimum=low_limit, maximum=high_limit)
            continue
        balance -= amount
        v.say("roulette.placed", bet=label(state.bets[-1].symbol, jurisdiction), amount=Money(amount),
              balance=Money(balance))
