"""A boule table at the terminal: the nine numbers with their colours, the ball from the table CSPRNG.

The ball falls into one of eighteen holes, each number twice (docs/rulings.md#boule-holes): a uniform draw of
the hole, from the table's seeded generator.
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
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Bet, Close, Outcome
from tapete.games.boule import BOULE_RULES, SIMPLE, BouleGame, BouleState
from tapete.terminal import register_player

ALIASES = {
    "rojo": "red", "red": "red", "negro": "black", "black": "black", "par": "even", "even": "even",
    "impar": "odd", "odd": "odd", "falta": "low", "low": "low", "pasa": "high", "high": "high",
}
HELP = """[bold]Bets[/bold] (amount last, in euros):
  [cyan]7 5[/cyan]        5 € on the number 7 (pays 7 to 1; the 5 too)
  [cyan]rojo 10[/cyan]    simple chances at 1 to 1: rojo negro par impar falta (1-4) pasa (6-9) — all lose on the 5
[bold]Table[/bold]: [cyan]roll[/cyan] (or an empty line)   [cyan]clear[/cyan] take back your bets   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""
STYLE = {"red": "bold white on red3", "black": "bold white on grey11", "five": "bold black on yellow"}


def parse_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'7 5' -> ('number', (7,), 500); 'rojo 10' -> ('red', None, 1000)."""
    words = line.lower().replace(",", " ").split()
    if len(words) != 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
        raise ValueError("a bet is a number or a chance, then the amount in euros (type help)")
    amount = round(Fraction(words[1]) * 100)
    if words[0].isdigit():
        return "number", (int(words[0]),), amount
    if words[0] not in ALIASES:
        raise ValueError(f"unknown bet {words[0]!r} (type help)")
    return ALIASES[words[0]], None, amount


def colour(n: int) -> str:
    chances = BOULE_RULES["ES"].chances
    return "red" if n in chances["red"] else "black" if n in chances["black"] else "five"


def layout_view(state: BouleState, last: int | None) -> Table:
    """The layout: the 5 in the centre box, the numbers round it, the simple chances at the sides."""
    staked = {b.on[0] for b in state.bets if b.phase == "riding" and b.kind == "number"}
    chances = {b.kind for b in state.bets if b.phase == "riding" and b.kind in SIMPLE}

    def cell(n: int) -> Text:
        style = STYLE[colour(n)] + (" reverse" if n == last else "")
        return Text(f"{'•' if n in staked else ' '}{n} ", style=style)

    def box(kind: str, label: str) -> Text:
        return Text(f"{'•' if kind in chances else ' '}{label} ", style="bold")

    grid = Table.grid(padding=(0, 1))
    for _ in range(5):
        grid.add_column(justify="center")
    grid.add_row(box("low", "FALTA"), cell(1), cell(2), cell(3), box("high", "PASA"))
    grid.add_row(box("even", "PAR"), cell(4), cell(5), cell(6), box("odd", "IMPAR"))
    grid.add_row(box("red", "ROJO"), cell(7), cell(8), cell(9), box("black", "NEGRO"))
    return grid


@register_player("boule")
def play_boule(game: BouleGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    counter = 0
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   your chips "
                            f"{euros(balance)}\n[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\n"
                            "Type [cyan]help[/cyan] for the bets. [italic]Hagan sus apuestas.[/italic]"))

    def show() -> None:
        last = state.history[-1] if state.history else None
        hist = Text("last: ")
        for n in state.history[-15:][::-1]:
            hist.append(f" {n} ", style=STYLE[colour(n)])
        console.print(Panel(Group(layout_view(state, last), hist), title=f"balance {euros(balance)}", expand=False))

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
                    console.print(f"  {b.id}: {b.kind}{' ' + str(b.on[0]) if b.on else ''} {euros(b.amount)}")
            continue
        if low == "clear":
            balance += sum(b.amount for b in state.bets if b.phase == "riding")
            state.bets = [b for b in state.bets if b.phase != "riding"]
            console.print("bets taken back")
            continue
        if low in ("", "roll", "spin", "r"):
            if not any(b.phase == "riding" for b in state.bets):
                console.print("[yellow]no bets on the table[/yellow]")
                continue
            console.print("[italic]¿Están hechas las apuestas? No va más.[/italic]")
            state = game.step(state, Close())
            rules = BOULE_RULES[jurisdiction]
            n = rules.numbers[rng.randbelow(len(rules.numbers) * rules.holes_per_number) // rules.holes_per_number]
            seen = len(state.log)
            state = game.step(state, Outcome("spin", n))
            announce = next(x for x in state.log[seen:] if x.startswith("roll "))
            console.print(f"[italic]Croupier: {announce.split(': ', 1)[1]}[/italic]")
            console.print(Text(f"  {n}  ", style=STYLE[colour(n)]))
            for b in state.bets[:]:
                if b.phase == "done":
                    paid = int(-(-b.returned // 1))
                    balance += paid
                    verdict = "[green]wins[/green]" if paid else "[red]loses[/red]"
                    console.print(f"  {b.kind}{' ' + str(b.on[0]) if b.on else ''} {euros(b.amount)} {verdict} "
                                  f"{euros(paid) if paid else ''}")
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
        console.print(f"  {kind}{' ' + str(on[0]) if on else ''} {euros(amount)} — balance {euros(balance)}")
