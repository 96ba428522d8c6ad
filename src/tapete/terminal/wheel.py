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
from tapete.core.money import euros, format_ratio
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
from tapete.terminal import register_player

ALIASES = {"jr": "joker-red", "joker-red": "joker-red", "red": "joker-red", "rojo": "joker-red", "figura1": "joker-red",
           "jb": "joker-black", "joker-black": "joker-black", "black": "joker-black", "negro": "joker-black",
           "figura2": "joker-black"}
STYLE = {"24": "bold black on yellow", "15": "bold white on blue", "7": "bold white on green4", "4": "bold white on magenta",
         "2": "bold black on cyan", "joker-red": "bold white on red3", "joker-black": "bold white on grey11"}
HELP = """[bold]Bets[/bold] (amount last, in euros):
  [cyan]24 5[/cyan]  [cyan]15 5[/cyan]  [cyan]7 5[/cyan]  [cyan]4 5[/cyan]  [cyan]2 5[/cyan]   on a symbol: pays 1, 2, 5, 10, 20 to 1
  [cyan]jr 1[/cyan] / [cyan]jb 1[/cyan]   the red / black joker (the two figures): 45 to 1
[bold]Table[/bold]: [cyan]spin[/cyan] (or an empty line)   [cyan]clear[/cyan] take back your bets   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""


def parse_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'24 5' -> ('number', (24,), 500); 'jr 1' -> ('joker-red', None, 100)."""
    words = line.lower().replace(",", " ").split()
    if len(words) != 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
        raise ValueError("a bet is a symbol, then the amount in euros (type help)")
    amount = round(Fraction(words[1]) * 100)
    if words[0].isdigit():
        return "number", (int(words[0]),), amount
    if words[0] not in ALIASES:
        raise ValueError(f"unknown bet {words[0]!r} (type help)")
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
    text = Text("wheel: ")
    for k in range(-(width // 2), width // 2 + 1):
        s = symbol_key(CELLS[(index + k) % len(CELLS)]) or ""
        mark = "▼" if k == 0 else " "
        text.append(f"{mark}{'J' if s in JOKERS else s}", style=STYLE[s] + (" underline" if k == 0 else ""))
    return text


@register_player("wheel-of-fortune")
def play_wheel(game: WheelOfFortuneGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    rules = WHEEL_RULES[jurisdiction]
    counter = 0
    last_cell: int | None = None
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   your chips "
                            f"{euros(balance)}\n[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\n"
                            "Type [cyan]help[/cyan] for the bets. [italic]Hagan sus apuestas.[/italic]"))

    def show() -> None:
        hist = Text("last: ")
        for s in state.history[-15:][::-1]:
            hist.append(f" {label(s, jurisdiction)} ", style=STYLE[s])
        parts = [board(state), hist]
        if last_cell is not None:
            parts.append(strip(last_cell))
        console.print(Panel(Group(*parts), title=f"balance {euros(balance)}", expand=False))

    show()
    while True:
        try:
            line = read("[bold green]> [/bold green]").strip()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        low = line.lower()
        if low in ("quit", "exit", "q"):
            balance += sum(b.amount for b in state.bets if b.phase == "riding")
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}.")
            return
        if low in ("help", "?"):
            console.print(HELP)
            continue
        if low == "bets":
            for b in state.bets:
                if b.phase == "riding":
                    console.print(f"  {b.id}: {label(b.symbol, jurisdiction)} {euros(b.amount)}")
            continue
        if low == "clear":
            balance += sum(b.amount for b in state.bets if b.phase == "riding")
            state.bets = [b for b in state.bets if b.phase != "riding"]
            console.print("bets taken back")
            continue
        if low in ("", "spin", "s"):
            if not any(b.phase == "riding" for b in state.bets):
                console.print("[yellow]no bets on the table[/yellow]")
                continue
            push = " and gives the wheel a second push" if rules.second_push else ""
            console.print(f"[italic]The croupier spins the wheel{push}: no va más.[/italic]")
            state = game.step(state, Close())
            last_cell = rng.randbelow(len(CELLS))
            symbol = symbol_key(CELLS[last_cell])
            seen = len(state.log)
            state = game.step(state, Outcome("spin", CELLS[last_cell]))
            console.print(f"[italic]Croupier: {state.log[seen].split(': ', 1)[1]}[/italic]")
            console.print(Text(f"  {label(symbol or '', jurisdiction)}  ", style=STYLE[symbol or "24"]))
            for b in state.bets[:]:
                if b.phase == "done":
                    paid = int(-(-b.returned // 1))
                    balance += paid
                    verdict = "[green]wins[/green]" if paid else "[red]loses[/red]"
                    console.print(f"  {label(b.symbol, jurisdiction)} {euros(b.amount)} {verdict} {euros(paid) if paid else ''}")
            state.bets = [b for b in state.bets if b.phase != "done"]
            show()
            continue
        try:
            kind, on, amount = parse_line(line)
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        if amount > balance:
            console.print(f"[red]you have {euros(balance)}[/red]")
            continue
        counter += 1
        try:
            state = game.step(state, Bet(f"b{counter}", "you", kind, amount, on))
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            continue
        balance -= amount
        console.print(f"  {label(state.bets[-1].symbol, jurisdiction)} {euros(amount)} — balance {euros(balance)}")
