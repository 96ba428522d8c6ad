"""A trente et quarante table at the terminal: the two rows laid out as the croupier tallador deals them, the
red card, and the zero rule's choice at a 31-31 tie."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.games.blackjack.game import pretty
from tapete.games.trente_quarante import TQ_RULES, TQState, TrenteQuaranteGame
from tapete.terminal import register_player

ALIASES = {"negro": "black", "black": "black", "n": "black", "rojo": "red", "red": "red", "r": "red",
           "color": "color", "colour": "color", "c": "color", "inverso": "inverse", "inverse": "inverse", "i": "inverse"}

HELP = """[bold]Bets[/bold] (euros): [cyan]negro 10[/cyan] [cyan]rojo 10[/cyan] [cyan]color 10[/cyan] [cyan]inverso 10[/cyan]; add [cyan]insured[/cyan] for the 1% insurance against 31-31
[bold]Table[/bold]: [cyan]deal[/cyan] (or an empty line)   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""


def rows_view(state: TQState, balance: int) -> Panel:
    lines = []
    if state.coups:
        coup = state.coups[-1]
        for name, cards, total in (("negro", coup.black, coup.black_total), ("rojo ", coup.red, coup.red_total)):
            line = Text(f"{name} ")
            for c in cards:
                line.append(f" {pretty(c)} ", style="bold red on white" if c[1] in "HD" else "bold black on white")
                line.append(" ")
            line.append(f" = {total}", style="bold")
            lines.append(line)
    held = [b for b in state.bets if b.phase in ("riding", "prison", "choice")]
    for b in held:
        lines.append(Text(f"  {b.kind} {euros(b.amount)}" + (" insured" if b.insured else "")
                          + (" — en prisión" if b.phase == "prison" else "")))
    body = Text("\n").join(lines) if lines else Text("hagan juego")
    left = f"{state.shoe.remaining} cards in the shoe" if state.shoe else ""
    return Panel(body, title=f"balance {euros(balance)}", subtitle=left, expand=False)


@register_player("trente-quarante")
def play_trente_quarante(game: TrenteQuaranteGame, jurisdiction: str, *, minimum: int, balance: int,
                         seed: str | None, console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    game.live_shoe(state, rng)
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   maximum "
                            f"{euros(state.limits.maximum)}   your chips {euros(balance)}\n[dim]seed {rng.seed.hex()} "
                            "(replay with --seed)[/dim]\nType [cyan]help[/cyan]. [italic]Hagan juego.[/italic]"))
    counter = 0
    seen = len(state.log)
    credited: set[str] = set()

    def announce() -> None:
        nonlocal seen
        for line in state.log[seen:]:
            console.print(f"[italic]Croupier: {line}[/italic]")
        seen = len(state.log)

    while True:
        try:
            line = read("[bold green]> [/bold green]").strip().lower()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        if line in ("quit", "exit", "q"):
            riding = sum(b.amount for b in state.bets if b.phase == "riding")
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance + riding)}.")
            return
        if line in ("help", "?"):
            console.print(HELP)
            continue
        if line == "bets":
            console.print(rows_view(state, balance))
            continue
        if line in ("", "deal"):
            if not any(b.phase in ("riding", "prison") for b in state.bets):
                console.print("[yellow]no bets on the table[/yellow]")
                continue
            try:
                state = game.step(state, Deal())
            except TapeteError as exc:
                console.print(f"[red]{exc.message}[/red]")
                continue
            announce()
            for b in state.bets:
                if b.phase == "done" and b.id not in credited:
                    credited.add(b.id)
                    got = math.ceil(b.returned)
                    balance += got
                    net = got - b.amount - math.floor(b.premium)
                    colour = "green" if net > 0 else "red" if net < 0 else "yellow"
                    console.print(f"  {b.kind} {euros(b.amount)}: [{colour}]{'+' if net > 0 else ''}{euros(net)}[/{colour}]")
            for b in state.bets:
                if b.phase == "choice":
                    options = "p" if b.locked else "p/h"
                    answer = read(f"  31 after 31 on your {b.kind}: [bold]p[/bold]rison or [bold]h[/bold]alf back? [{options}] ")
                    reply = answer.strip().lower()     # an empty answer takes the jurisdiction's default
                    half = reply.startswith("h") or (not reply and TQ_RULES[state.jurisdiction].tie_default == "half")
                    verb = "half" if half and not b.locked else "prison"
                    state = game.step(state, Act(verb, bet=b.id))
                    announce()
                    if verb == "half":
                        credited.add(b.id)
                        balance += math.ceil(b.returned if b.returned else Fraction(b.amount, 2 ** b.zeros))
            console.print(rows_view(state, balance))
            if state.shoe_ended:
                game.live_shoe(state, rng)
                announce()
            continue
        m = re.fullmatch(r"(\w+)\s+(\d+(?:\.\d{1,2})?)(\s+insured)?", line)
        if not m or m.group(1) not in ALIASES:
            console.print("[red]e.g. negro 10, rojo 5 insured — or help[/red]")
            continue
        amount = round(Fraction(m.group(2)) * 100)
        insured = bool(m.group(3))
        cost = amount + (math.floor(Fraction(amount, 100)) if insured else 0)
        if cost > balance:
            console.print(f"[red]you have {euros(balance)}[/red]")
            continue
        counter += 1
        try:
            state = game.step(state, Bet(f"b{counter}", "you", ALIASES[m.group(1)], amount, None, {"insured": insured}))
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            continue
        announce()
        balance -= cost
        console.print(f"  {ALIASES[m.group(1)]} {euros(amount)}{' insured' if insured else ''} — balance {euros(balance)}")
