"""A Black Jack table at the terminal: a CSPRNG shoe that lasts until its cut card, the croupier's words, and the
engine's own strategy chart on request (`hint`, `chart`)."""

from __future__ import annotations

import json
import math
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
from tapete.engine.events import Act, Bet, Deal
from tapete.games.blackjack.game import BJState, BlackjackGame, pretty
from tapete.terminal import register_player

STYLES = {"S": "bold black on yellow", "H": "bold white on grey23", "D": "bold black on green3",
          "Ds": "bold black on dark_sea_green2", "R": "bold white on magenta", "Rs": "bold white on orchid",
          "P": "bold white on blue"}

HELP = """[bold]Between rounds[/bold]: [cyan]10[/cyan] bet 10 € on box 1   [cyan]10 box 3[/cyan] on box 3   [cyan]bolsa 1[/cyan] (ES-AN) the Bolsa on box 1
  [cyan]deal[/cyan] (or an empty line)   [cyan]chart[/cyan] the strategy chart   [cyan]help[/cyan]   [cyan]quit[/cyan]
[bold]In a round[/bold]: [cyan]h[/cyan]it  [cyan]s[/cyan]tand  [cyan]d[/cyan]ouble  [cyan]p[/cyan] split  [cyan]i 5[/cyan] insure 5 €  [cyan]e[/cyan]ven money  [cyan]r[/cyan] surrender  [cyan]hint[/cyan] the chart's advice"""

VERBS = {"h": "hit", "hit": "hit", "s": "stand", "stand": "stand", "d": "double", "double": "double", "p": "split",
         "split": "split", "e": "even-money", "even": "even-money", "r": "surrender", "surrender": "surrender",
         "i": "insure", "insure": "insure"}


def print_chart(jurisdiction: str, console: Console, as_json: bool = False) -> None:
    """`tapete strategy blackjack -j J`: the derived chart, coloured like the cards casinos hand out."""
    from tapete.analysis.blackjack import chart

    data = chart(jurisdiction)
    if as_json:
        print(json.dumps({"game": "blackjack", **data}, ensure_ascii=False, indent=1))
        return
    for name in ("hard", "soft", "pairs"):
        table = Table(title=f"{name} — dealer's card →", title_justify="left", padding=(0, 1))
        table.add_column("hand", style="bold")
        for up in data["up"]:
            table.add_column(up, justify="center")
        for hand, cells in data[name].items():
            table.add_row(hand, *[Text(f" {c:<2}", style=STYLES[c]) for c in cells])
        console.print(table)
    legend = Text("  ")
    for code, meaning in data["legend"].items():
        legend.append(f" {code} ", style=STYLES[code])
        legend.append(f" {meaning}  ")
    console.print(legend)
    console.print(f"Blackjack {jurisdiction}: house edge under this chart [bold]{data['house_edge_percent']:.4f} %[/bold] "
                  "(enumerated over a full shoe, split hands approximated; docs/games/blackjack.md)")


def _cards(cards: list[str]) -> Text:
    text = Text()
    for c in cards:
        text.append(f" {pretty(c)} ", style="bold red on white" if c[1] in "HD" else "bold black on white")
        text.append(" ")
    return text


def table_view(game: BlackjackGame, state: BJState, balance: int) -> Panel:
    from tapete.games.blackjack.hand import dealer_total, value

    rows = []
    if state.dealer:
        dealer = Text("dealer  ")
        dealer.append_text(_cards(state.dealer))
        if len(state.dealer) > 1:
            dealer.append(f"  {dealer_total([value(c) for c in state.dealer])}")
        rows.append(dealer)
    for i, hand in enumerate(state.hands):
        line = Text(("→ " if i == state.turn else "  ") + f"box {hand.box} ")
        line.append_text(_cards(hand.cards))
        line.append(f"  {hand.total}" + (f"  [{hand.status}]" if hand.status not in ("live", "waiting") else "")
                    + (" ×2" if hand.units == 2 else ""))
        rows.append(line)
    shoe = state.shoe
    left = f"{shoe.remaining} cards in the shoe" if shoe else ""
    return Panel(Group(*rows) if rows else Text("place your bets"), title=f"balance {euros(balance)}",
                 subtitle=left + ("  · last round of the shoe" if state.last_of_shoe else ""), expand=False)


@register_player("blackjack")
def play_blackjack(game: BlackjackGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                   console: Console, read: Callable[[str], str]) -> None:
    from tapete.analysis.blackjack import advice

    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    game.live_shoe(state, rng)
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   maximum "
                            f"{euros(state.limits.maximum)}   your chips {euros(balance)}\n[dim]seed {rng.seed.hex()} "
                            "(replay with --seed)[/dim]\nType [cyan]help[/cyan]. [italic]Hagan sus apuestas.[/italic]"))
    counter = 0
    seen = len(state.log)
    paid: set[str] = set()

    def announce() -> None:
        nonlocal seen
        for line in state.log[seen:]:
            console.print(f"[italic]Croupier: {line}[/italic]")
        seen = len(state.log)

    def step(event: object) -> bool:
        nonlocal state
        try:
            state = game.step(state, event)  # type: ignore[arg-type]
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            return False
        announce()
        return True

    def settle_round() -> None:
        nonlocal balance
        for b in state.bets:
            if b.status in ("done", "void") and b.id not in paid:
                paid.add(b.id)
                extra = b.staked - b.amount if b.status == "done" else Fraction(0)
                got = math.ceil(b.returned)
                balance += got - math.floor(extra)
                net = got - math.floor(b.staked) if b.status == "done" else 0
                colour = "green" if net > 0 else "red" if net < 0 else "yellow"
                console.print(f"  {b.id} ({b.kind}, box {b.box}): [{colour}]{'+' if net > 0 else ''}{euros(net)}[/{colour}]")
        console.print(table_view(game, state, balance))
        if state.last_of_shoe:
            game.live_shoe(state, rng)
            announce()

    while True:
        in_round = state.phase != "betting"
        try:
            line = read("[bold green]> [/bold green]").strip().lower()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        if line in ("quit", "exit", "q"):
            waiting = sum(b.amount for b in state.bets if b.status == "waiting")
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance + waiting)}.")
            return
        if line in ("help", "?"):
            console.print(HELP)
            continue
        if line == "chart":
            print_chart(jurisdiction, console)
            continue
        if not in_round:
            if line in ("", "deal"):
                if not any(b.status == "waiting" for b in state.bets):
                    console.print("[yellow]no bets on the table[/yellow]")
                    continue
                if step(Deal()):
                    console.print(table_view(game, state, balance))
                    if state.phase == "betting":
                        settle_round()
                continue
            m = re.fullmatch(r"(bolsa\s+)?(\d+(?:\.\d{1,2})?)(?:\s+box\s+(\d))?", line)
            if not m:
                console.print("[red]type an amount in euros (e.g. 10, or 10 box 2), deal, or help[/red]")
                continue
            amount = round(Fraction(m.group(2)) * 100)
            if amount > balance:
                console.print(f"[red]you have {euros(balance)}[/red]")
                continue
            counter += 1
            box = int(m.group(3) or 1)
            kind = "bolsa" if m.group(1) else "main"
            if step(Bet(f"b{counter}", "you", kind, amount, None, {"box": box})):
                balance -= amount
                console.print(f"  {kind} on box {box}: {euros(amount)} — balance {euros(balance)}")
            continue
        # a round is being played: every decision is ours
        words = line.split()
        if line == "hint":
            if state.turn is None:
                console.print("[yellow]no hand is due[/yellow]")
                continue
            hand = state.hands[state.turn]
            tip = advice(jurisdiction, hand.cards, state.dealer[0], split=hand.split, split_aces=hand.split_aces,
                         first_decision=state.phase == "window", hands=sum(h.box == hand.box for h in state.hands))
            console.print(f"  the chart says: [bold]{tip}[/bold] (insurance and even money: decline)")
            continue
        if not words or words[0] not in VERBS:
            console.print("[red]h, s, d, p, i AMOUNT, e, r, hint — or help[/red]")
            continue
        verb = VERBS[words[0]]
        if state.turn is not None:
            bet = game.decider(state, state.hands[state.turn].box)
        else:
            bet = next(b for b in state.bets if b.status == "playing" and b.kind == "main")
        fields: dict[str, object] = {}
        cost = 0
        if verb == "insure":
            if len(words) < 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
                console.print("[red]insure how much? e.g. i 5[/red]")
                continue
            fields["amount"] = cost = round(Fraction(words[1]) * 100)
        elif verb in ("double", "split"):
            cost = bet.amount
        if cost > balance:
            console.print(f"[red]you have {euros(balance)}[/red]")
            continue
        if step(Act(verb, bet=bet.id, fields=fields)):
            if state.phase == "betting":
                settle_round()
            else:
                console.print(table_view(game, state, balance))
