"""The two Monte tables at the terminal: Monte o banca (the four-card layout, Primeras and Segundas) and Casino
Monte (one card against the croupier's, the tie and its rematch). Shoes shuffled with the table CSPRNG."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from tapete.core.cards import shoe_of
from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.games.monte import CasinoMonte, MBState, MonteBanca
from tapete.terminal import register_player

SPANISH_NAMES = {1: "As", 10: "Sota", 11: "Caballo", 12: "Rey"}
SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
MB_ALIASES = {"vista": "first-card", "vis": "first-card", "camo": "next-suit", "anti": "previous-suit",
              "viudo": "opposite-suit", "salto": "any-suit", "cartas": "versus"}
MB_HELP = """[bold]Bets[/bold] (amounts in euros; positions 1 top-left, 2 top-right, 3 bottom-left, 4 bottom-right):
  [cyan]vista 1 5[/cyan]   Vista Hermosa on P1: the first card revealed, its value and the next suit
  [cyan]camo 1 5[/cyan]  [cyan]anti 2 5[/cyan]  [cyan]viudo 3 5[/cyan]   the card matched first, by the next / previous / opposite suit
  [cyan]salto 4 5[/cyan]   the card matched first, any suit (Primeras only)
  [cyan]cartas 1 2 5[/cyan]  one card against its neighbour;  [cyan]cartas 1+4 2+3 5[/cyan] two against two
  [cyan]deal[/cyan] (or an empty line) reveals;  [cyan]bets[/cyan]  [cyan]help[/cyan]  [cyan]quit[/cyan]"""


def spanish(card: str) -> str:
    n, suit = int(card[:-1]), card[-1]
    return f"{SPANISH_NAMES.get(n, str(n))} de {SUIT_NAMES[suit]}"


def parse_mb_bet(line: str) -> tuple[str, list[object], int]:
    """'camo 1 5' -> ('next-suit', [1], 500); 'cartas 1+4 2+3 5' -> ('versus', [[1, 4], [2, 3]], 500)."""
    words = line.lower().split()
    if len(words) < 3 or words[0] not in MB_ALIASES:
        raise ValueError("a bet is a name, its position(s) and the amount (type help)")
    kind = MB_ALIASES[words[0]]
    amount = round(Fraction(words[-1]) * 100)
    if kind == "versus":
        if len(words) != 4:
            raise ValueError("cartas takes your card(s), the other card(s) and the amount")
        sides = [[int(p) for p in w.split("+")] for w in words[1:3]]
        return kind, sides, amount
    return kind, [int(words[1])], amount


def layout_view(game: MonteBanca, state: MBState) -> Table:
    layout = game.layout(state)
    cut = game.annulled(state)
    grid = Table(title=f"coup {state.coup} — {state.phase}", show_header=False)
    grid.add_column()
    grid.add_column()
    cells = []
    for p in (1, 2, 3, 4):
        card = layout.cards[p - 1]
        extra = f" (+{len(layout.stacks[p - 1])})" if layout.stacks[p - 1] else ""
        live = p in state.in_play
        text = f"P{p}: {spanish(card)}{extra}" if live else f"[dim]P{p}: {spanish(card)} (out)[/dim]"
        if cut[p]:
            text += f"\n[dim]no {', '.join(sorted(cut[p]))}[/dim]"
        cells.append(text)
    grid.add_row(cells[0], cells[1])
    grid.add_row(cells[2], cells[3])
    grid.caption = f"doubling cards {layout.d}, burned {layout.b}: Vista Hermosa pays {32 - layout.d - layout.b} to 1"
    return grid


@register_player("monte-banca")
def play_monte_banca(game: MonteBanca, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                     console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})

    def fresh_pack() -> None:
        pack = [c.text for c in shoe_of(2, "spanish")]
        rng.shuffle(pack)
        state.shoe = state.shoe[:state.pos] + pack
        state.pack = {}

    fresh_pack()
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   your chips "
                            f"{euros(balance)}\n[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\nType "
                            "[cyan]help[/cyan] for the bets. [italic]Hagan juego.[/italic]"))
    counter = 0
    credited: set[str] = set()
    seen = 0
    while True:
        if state.layout is None and len(state.shoe) - state.pos < 30:
            fresh_pack()
            console.print("[italic]Croupier: a new pack is shuffled and cut.[/italic]")
        console.print(layout_view(game, state))
        for line in state.log[seen:]:
            console.print(f"[italic]Croupier: {line}[/italic]")
        seen = len(state.log)
        try:
            line = read(f"[bold green]{state.phase} > [/bold green]").strip()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        low = line.lower()
        if low in ("quit", "q", "exit"):
            open_bets = [b for b in state.bets if b.state == "open" and b.phase == state.phase]
            balance += sum(b.amount for b in open_bets if b.kind != "versus" or b.phase == state.phase)
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}.")
            return
        if low in ("help", "?"):
            console.print(MB_HELP)
            continue
        if low == "bets":
            for b in state.bets:
                if b.state == "open":
                    console.print(f"  {b.id}: {b.kind} {b.on} {euros(b.amount)} ({b.phase})")
            continue
        if low in ("", "deal", "d"):
            console.print("[italic]No va más.[/italic]")
            state = game.step(state, Deal())
            for line in state.log[seen:]:
                console.print(f"[italic]Croupier: {line}[/italic]")
            seen = len(state.log)
            for b in state.bets:
                if b.state in ("done", "void") and b.id not in credited:
                    credited.add(b.id)
                    paid = -(-b.returned // 1)
                    balance += int(paid)
                    verdict = "[green]wins[/green]" if b.returned > b.amount else "[yellow]back[/yellow]" if b.returned else "[red]loses[/red]"
                    cut = f" (10 % to the house: {euros(b.deducted)})" if b.deducted else ""
                    console.print(f"  {b.kind} {b.on} {euros(b.amount)} {verdict} {euros(int(paid)) if paid else ''}{cut}")
            console.print(f"[bold]balance {euros(balance)}[/bold]")
            continue
        try:
            kind, on, amount = parse_mb_bet(line)
            if amount > balance:
                raise ValueError(f"you have {euros(balance)}")
            counter += 1
            state = game.step(state, Bet(f"b{counter}", "you", kind, amount, tuple(on)))
        except (ValueError, ZeroDivisionError) as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            continue
        balance -= amount
        console.print(f"  {kind} {on} {euros(amount)} accepted; balance {euros(balance)}")


@register_player("casino-monte")
def play_casino_monte(game: CasinoMonte, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                      console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    rules = game.rules_for(jurisdiction)

    def new_shoe() -> list[str]:
        cards = [c.text for c in shoe_of(rules.decks)]
        rng.shuffle(cards)
        return cards[rules.opening_burn:]      # 003:5908-5910: the first five cards are burned

    state = game.open(jurisdiction, {"minimum": minimum, "cut-card": 52 * rules.decks - rules.opening_burn - rules.reserve})
    state.shoe = new_shoe()
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   your chips "
                            f"{euros(balance)}\n[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\n"
                            "Bet with [cyan]10[/cyan] (main bet) or [cyan]10 2[/cyan] (main bet and a Tie bet); "
                            "[cyan]quit[/cyan] to leave."))
    coup = 0
    while True:
        try:
            line = read("[bold green]your bet > [/bold green]").strip().lower()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        if line in ("quit", "q", "exit"):
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}.")
            return
        try:
            amounts = [round(Fraction(w) * 100) for w in line.split()]
            if not 1 <= len(amounts) <= 2:
                raise ValueError("a main bet, and optionally a Tie bet")
        except (ValueError, ZeroDivisionError):
            console.print("[red]a main bet in euros, and optionally a Tie bet: e.g. 10 2[/red]")
            continue
        if state.last_coup:
            state = game.open(jurisdiction, state.table)
            state.shoe = new_shoe()
            console.print("[italic]Croupier: the cut card came out: a new shoe.[/italic]")
        coup += 1
        seen = len(state.log)
        try:
            state = game.step(state, Bet(f"m{coup}", "you", "main", amounts[0], None, {"box": 1}))
            if len(amounts) == 2:
                state = game.step(state, Bet(f"t{coup}", "you", "tie", amounts[1], None, {"box": 1}))
            state = game.step(state, Deal())
            main = next(b for b in state.bets if b.id == f"m{coup}")
            for text in state.log[seen:]:
                console.print(f"[italic]Croupier: {text}[/italic]")
            seen = len(state.log)
            if main.state == "tied":
                answer = read(f"  a tie: [bold]r[/bold]ematch (another {euros(main.amount)}) or [bold]s[/bold]urrender "
                              "half? [r/s] ").strip().lower()
                state = game.step(state, Act("rematch" if answer.startswith("r") else "surrender", bet=main.id))
            state = game.finish(state)
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            state.bets = [b for b in state.bets if b.coup != state.coup or b.state == "done"]
            continue
        for text in state.log[seen:]:
            console.print(f"[italic]Croupier: {text}[/italic]")
        settlement = game.settle(state)
        net = Fraction(0)
        for bet_id in (f"m{coup}", f"t{coup}"):
            if bet_id in settlement.bets:
                r = settlement.bets[bet_id]
                net += r.returned - r.staked
        balance += int(net if net.denominator == 1 else -(-net // 1))
        console.print(f"  this coup {euros(net)}; [bold]balance {euros(balance)}[/bold]")
