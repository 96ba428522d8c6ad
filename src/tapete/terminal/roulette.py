"""A roulette table at the terminal: the cloth drawn with Rich, bets typed the way a player says them."""

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
from tapete.engine.events import Act, Bet, Close, Outcome
from tapete.games.roulette import layout
from tapete.games.roulette.american import AmericanRouletteGame, components
from tapete.games.roulette.game import RouletteGame, RouletteState
from tapete.games.roulette.rules import ANNOUNCED, ANNOUNCED_CHIPS, SIMPLE
from tapete.terminal import register_player

ALIASES = {
    "rojo": "red", "red": "red", "negro": "black", "black": "black", "par": "even", "even": "even",
    "impar": "odd", "odd": "odd", "falta": "low", "low": "low", "1-18": "low", "pasa": "high", "high": "high",
    "19-36": "high", "pleno": "straight", "straight": "straight", "split": "split", "caballo": "split",
    "street": "street", "fila": "street", "transversal": "street", "corner": "corner", "cuadro": "corner",
    "six": "six-line", "six-line": "six-line", "seisena": "six-line", "column": "column", "columna": "column",
    "dozen": "dozen", "docena": "dozen", "two-columns": "two-columns", "two-dozens": "two-dozens",
    # announced bets (ES-IB's American roulette): the names players call them
    "neighbours": "neighbours", "vecinos": "neighbours", "voisins": "neighbours",
    "zero-sector": "zero-sector", "serie": "zero-sector", "sg": "zero-sector", "vdz": "zero-sector",
    "third": "third", "tiers": "third", "tercio": "third", "t": "third",
    "orphans": "orphans", "huerfanos": "orphans", "orphelins": "orphans", "h": "orphans",
}

HELP = """[bold]Bets[/bold] (amounts in euros):
  [cyan]17 5[/cyan]              5 € straight up on 17          [cyan]red 10[/cyan] / [cyan]rojo 10[/cyan]   simple chances: red black even odd low high
  [cyan]split 17 20 5[/cyan]     split 17/20                     [cyan]street 34 5[/cyan]       the row of 34 (or 0 1 2 / 0 2 3)
  [cyan]corner 17 5[/cyan]       17-18-20-21 (or list all four)  [cyan]six 1 4 5[/cyan]         the two rows from 1 and 4
  [cyan]column 3 10[/cyan]       [cyan]dozen 2 10[/cyan]     [cyan]two-dozens 1 2 10[/cyan]   [cyan]two-columns 2 3 10[/cyan]
[bold]Table[/bold]: [cyan]spin[/cyan] (or an empty line)   [cyan]clear[/cyan] take back unspun bets   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""

SHORT_HELP = """[bold]Bets[/bold] (amounts in euros) — the abreviada's cloth has only the inside bets:
  [cyan]17 5[/cyan]              5 € straight up on 17          [cyan]split 17 20 5[/cyan]     split 17/20
  [cyan]street 34 5[/cyan]       the row of 34 (or 0 1 2 / 0 2 3) [cyan]corner 17 5[/cyan]       17-18-20-21 (or [cyan]corner 0 1 2 3 5[/cyan])
  [cyan]six 1 4 5[/cyan]         the two rows from 1 and 4
[bold]Table[/bold]: [cyan]spin[/cyan] (or an empty line)   [cyan]clear[/cyan]   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""

AMERICAN_HELP = """[bold]Colour chips[/bold]: [cyan]colour 5[/cyan] takes a new series worth 5 € a chip (from the minimum to the
  straight-up maximum; at first they are worth the minimum). Stake chips with [cyan]x[/cyan]: [cyan]17 3x[/cyan] = three chips on 17.
  At zero a simple chance loses half: no prison."""

ANNOUNCED_HELP = """[bold]Announced bets[/bold] (amount = one chip's value):
  [cyan]neighbours 17 2[/cyan]   17 and two neighbours each side, 5 chips   [cyan]tiers 1[/cyan]    tercio, 6 chips
  [cyan]serie 1[/cyan]           serie grande (zero sector), 9 chips        [cyan]orphans 1[/cyan]  huérfanos, 5 chips"""


def parse_bet_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'split 17 20 5' -> ('split', (17, 20), 500). Amount last, in euros (cents allowed: 2.50)."""
    words = line.lower().replace(",", " ").split()
    if not words:
        raise ValueError("empty bet")
    *head, amount_text = words
    if not re.fullmatch(r"\d+(\.\d{1,2})?", amount_text):
        raise ValueError(f"the amount comes last, in euros: {amount_text!r}")
    amount = round(Fraction(amount_text) * 100)
    if head and head[0].isdigit():
        head = ["straight", *head]
    if not head or head[0] not in ALIASES:
        raise ValueError(f"unknown bet {head[0] if head else ''!r} (type help)")
    kind = ALIASES[head[0]]
    numbers = tuple(int(w) for w in head[1:] if w.isdigit())
    if len(numbers) != len(head) - 1:
        raise ValueError("targets are numbers")
    if kind in SIMPLE or (kind in ANNOUNCED and kind != "neighbours"):
        return kind, None, amount
    if kind == "street" and len(numbers) == 1 and numbers[0] > 0:
        numbers = layout.row((numbers[0] + 2) // 3)
    elif kind == "corner" and len(numbers) == 1:
        n = numbers[0]
        numbers = (n, n + 1, n + 3, n + 4)
    elif kind == "six-line" and len(numbers) == 2:
        numbers = layout.row((numbers[0] + 2) // 3) + layout.row((numbers[1] + 2) // 3)
    return kind, numbers, amount


def split_chips(line: str) -> tuple[str, int | None]:
    """'17 3x' -> ('17 0', 3): a stake counted in colour chips, whose value the table knows."""
    words = line.split()
    if words and re.fullmatch(r"\d+x", words[-1].lower()):
        return " ".join([*words[:-1], "0"]), int(words[-1][:-1])
    return line, None


def covered_numbers(b: object) -> frozenset[int]:
    kind, on = b.kind, b.on  # type: ignore[attr-defined]
    if kind in ANNOUNCED:
        return frozenset(n for _, spot, _ in components(kind, on) for n in spot)
    return layout.covered(kind, on)


def racetrack(state: RouletteState, last: int | None) -> Text:
    """The wheel order, as the racetrack of the announced bets shows it; the last result highlighted."""
    staked = {n for b in state.bets if b.phase == "riding" for n in covered_numbers(b)}
    track = Text("wheel: ")
    for n in layout.WHEEL_ORDER:
        style = {"red": "red", "black": "white", "green": "green"}[layout.colour(n)]
        if n == last:
            style += " reverse bold"
        track.append(f"{'•' if n in staked else ' '}{n}", style=style)
    return track


def cloth(state: RouletteState, last: int | None, outside: bool = True) -> Table:
    """The cloth as players see it: 0 on the left, three rows of twelve, columns at the right (without the
    columns, dozens and simple chances on the abreviada's cloth, 003:448-450)."""
    staked: dict[int, int] = {}
    for b in state.bets:
        if b.phase in ("riding", "prison", "choice"):
            for n in covered_numbers(b):
                staked[n] = staked.get(n, 0) + 1
    grid = Table.grid(padding=(0, 0))
    for _ in range(14):
        grid.add_column(justify="center")

    def cell(n: int) -> Text:
        style = {"red": "bold white on red3", "black": "bold white on grey11", "green": "bold white on green4"}[layout.colour(n)]
        if n == last:
            style += " reverse"
        mark = "•" if n in staked else " "
        return Text(f"{mark}{n:>2} ", style=style)

    for r, top in enumerate((3, 2, 1)):
        zero = cell(0) if r == 1 else Text("    ", style="on green4")
        nums = [cell(top + 3 * i) for i in range(12)]
        grid.add_row(zero, *nums, Text(" 2:1" if outside else "", style="bold"))
    dozens = Text("     1st 12 (1-12)    2nd 12 (13-24)    3rd 12 (25-36)", style="bold")
    simple = Text("     1-18  PAR  ", style="bold")
    simple.append(" ROJO ", style="bold white on red3")
    simple.append(" ")
    simple.append(" NEGRO ", style="bold white on grey11")
    simple.append("  IMPAR  19-36", style="bold")
    outer = Table.grid()
    outer.add_row(grid)
    if outside:
        outer.add_row(dozens)
        outer.add_row(simple)
    return outer


def describe(b: object) -> str:
    on = getattr(b, "on", None)
    return f"{b.kind}{' ' + '-'.join(map(str, on)) if on else ''}"  # type: ignore[attr-defined]


@register_player("roulette-french", "roulette-french-short", "roulette-american")
def play_roulette(game: RouletteGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                  console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    credited: set[str] = set()
    counter = 0
    american = isinstance(game, AmericanRouletteGame)
    short = not any(k in SIMPLE for k in game.rules_for(jurisdiction).kinds)       # the abreviada's cloth
    announced = any(a.kind in ANNOUNCED for a in game.legal_actions(state))
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   "
                            f"your chips {euros(balance)}\n[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\n"
                            "Type [cyan]help[/cyan] for the bets. [italic]Hagan sus apuestas.[/italic]"))

    def show() -> None:
        last = state.history[-1] if state.history else None
        hist = Text("last: ")
        for n in state.history[-12:][::-1]:
            hist.append(f" {n} ", style={"red": "red", "black": "white", "green": "green"}[layout.colour(n)])
        parts = [cloth(state, last, outside=not short), hist]
        if announced:
            parts.append(racetrack(state, last))
        if american:
            parts.append(Text(f"your colour chips: {euros(game.colour_value(state, 'you'))} each", style="dim"))
        console.print(Panel(Group(*parts), title=f"balance {euros(balance)}", expand=False))

    show()
    while True:
        try:
            line = read("[bold green]> [/bold green]").strip()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        low = line.lower()
        if low in ("quit", "exit", "q"):
            pending = [b for b in state.bets if b.phase in ("riding", "prison", "choice")]
            for b in pending:
                if b.phase == "riding":
                    balance += b.amount
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}.")
            return
        if low in ("help", "?"):
            console.print(SHORT_HELP if short else HELP)
            if american:
                console.print(AMERICAN_HELP)
            if announced:
                console.print(ANNOUNCED_HELP)
            continue
        if american and low.startswith(("colour ", "color ")):
            try:
                value = round(Fraction(low.split()[1]) * 100)
                state = game.take_colour_chips(state, "you", value)
            except (ValueError, ZeroDivisionError, IndexError):
                console.print("[red]colour takes a value in euros, e.g. colour 5[/red]")
            except TapeteError as exc:
                console.print(f"[red]{exc.message}[/red]")
            else:
                console.print(f"  a new series of colour chips worth {euros(value)} each")
            continue
        if low == "bets":
            for b in state.bets:
                if b.phase != "done":
                    console.print(f"  {b.id}: {describe(b)} {euros(b.amount)} [{b.phase}]")
            continue
        if low == "clear":
            keep = [b for b in state.bets if b.phase != "riding"]
            balance += sum(b.amount for b in state.bets if b.phase == "riding")
            state.bets = keep
            console.print("bets taken back")
            continue
        if low in ("", "spin", "s"):
            if not any(b.phase in ("riding", "prison", "choice") for b in state.bets):
                console.print("[yellow]no bets on the table[/yellow]")
                continue
            state = game.step(state, Close())
            console.print("[italic]No va más.[/italic]")
            n = rng.randbelow(37)
            seen = len(state.log)
            state = game.step(state, Outcome("spin", n))
            for line in state.log[seen:]:
                if line.startswith("spin "):
                    console.print(f"[italic]Croupier: {line.split(': ', 1)[1]}[/italic]")
            colour = layout.colour(n)
            console.print(Text(f"  {n}  {colour.upper() if n else 'ZERO'}  ",
                               style={"red": "bold white on red3", "black": "bold white on grey11", "green": "bold white on green4"}[colour]))
            for b in state.bets:
                if b.phase == "done" and b.id not in credited:
                    credited.add(b.id)
                    paid = int(-(-b.returned // 1))   # what the player receives rounds up (docs/format.md)
                    balance += paid
                    verdict = "[green]wins[/green]" if b.returned > b.amount else "[yellow]returns[/yellow]" if b.returned else "[red]loses[/red]"
                    console.print(f"  {describe(b)} {euros(b.amount)} {verdict} {euros(paid) if paid else ''}")
            for b in state.bets:
                if b.phase == "choice":
                    options = "p" if b.locked else "p/h"
                    answer = read(f"  zero on your {b.kind} {euros(b.amount)}: [bold]p[/bold]rison or [bold]h[/bold]alf back? [{options}] ").strip().lower()
                    verb = "half" if answer.startswith("h") and not b.locked else "prison"
                    state = game.step(state, Act(verb, bet=b.id))
                    if verb == "half":
                        credited.add(b.id)
                        paid = int(-(-b.amount // 2 ** max(b.zeros, 1)))
                        balance += paid
                        console.print(f"  half back: {euros(paid)}")
                    else:
                        console.print("  en prisión")
            show()
            continue
        line, chips = split_chips(line) if american else (line, None)
        try:
            kind, on, amount = parse_bet_line(line)
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        extra = {}
        if chips is not None:
            amount, extra = game.colour_value(state, "you"), {"chips": chips}
        total = amount * (chips or ANNOUNCED_CHIPS.get(kind, 1))
        if total > balance:
            console.print(f"[red]you have {euros(balance)}[/red]")
            continue
        counter += 1
        try:
            state = game.step(state, Bet(f"b{counter}", "you", kind, amount, on, extra))
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            continue
        staked = state.bets[-1].amount
        balance -= staked
        console.print(f"  {describe(state.bets[-1])} {euros(staked)} — balance {euros(balance)}")
