"""Baccarat at the terminal: punto y banca against the house, and chemin de fer with computer players in the
other seats. The engine's reducer plays every card; the table CSPRNG shuffles; the croupier's words are the log.
A long session applies each event in place (`Game.apply`) rather than copying a growing table state at every step."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.shoe import Shoe
from tapete.games.baccarat import tableau
from tapete.terminal import register_player

SUITS = {"S": ("♠", "white"), "C": ("♣", "white"), "H": ("♥", "red"), "D": ("♦", "red")}
PB_ALIASES = {"punto": "player", "player": "player", "p": "player", "banca": "banker", "banker": "banker",
              "b": "banker", "empate": "tie", "igualdad": "tie", "tie": "tie", "t": "tie"}
PB_HELP = """[bold]Bets[/bold] (amounts in euros): [cyan]punto 10[/cyan]  [cyan]banca 10[/cyan]  [cyan]empate 2[/cyan] (not in ES)
[bold]Table[/bold]: [cyan]deal[/cyan] (or an empty line)   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""


def cards_text(cards: list[str]) -> Text:
    out = Text()
    for c in cards:
        symbol, colour = SUITS[c[-1]]
        rank = "10" if c[0] == "T" else c[0]
        out.append(f" {rank}{symbol} ", style=f"bold {colour} on grey15")
        out.append(" ")
    return out


def euros_amount(text: str) -> int:
    if not re.fullmatch(r"\d+(\.\d{1,2})?", text):
        raise ValueError(f"an amount in euros, e.g. 10 or 2.50: {text!r}")
    return round(Fraction(text) * 100)


def paid(value: Fraction) -> int:
    """What the player receives rounds up to the cent (docs/format.md)."""
    return int(-(-value // 1))


def _say(console: Console, lines: list[str]) -> None:
    for line in lines:
        console.print(f"[italic]Croupier: {line}[/italic]")


# -- punto y banca ---------------------------------------------------------------------------------------------
@register_player("punto-banca")
def play_punto_banca(game, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,  # noqa: ANN001
                     console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    rules = game.rules[jurisdiction]
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   maximum "
                            f"{euros(state.maximum)}   your chips {euros(balance)}\n[dim]seed {rng.seed.hex()} "
                            "(replay with --seed)[/dim]\nType [cyan]help[/cyan] for the bets. "
                            "[italic]Hagan sus apuestas.[/italic]"))
    burned = game.new_shoe(state, rng)
    console.print(f"[dim]New shoe: the first card {burned[0]} burns {len(burned)} card(s).[/dim]")
    counter = 0
    while True:
        try:
            line = read("[bold green]> [/bold green]").strip().lower()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        if line in ("quit", "exit", "q"):
            open_bets = [b for b in state.bets if b.final == "open"]
            balance += sum(b.amount for b in open_bets)
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}.")
            return
        if line in ("help", "?"):
            console.print(PB_HELP)
            continue
        if line == "bets":
            for b in state.bets:
                if b.final == "open":
                    console.print(f"  {b.id}: {b.kind} {euros(b.amount)}")
            continue
        if line in ("", "deal", "d", "cartas"):
            if state.stop_card_out:
                burned = game.new_shoe(state, rng)
                console.print(f"[dim]The stop card came out: new shoe, {len(burned)} card(s) burned.[/dim]")
            seen = len(state.log)
            mine = [b for b in state.bets if b.final == "open"]
            game.apply(state, Deal())
            coup = state.coups[-1]
            table = Table.grid(padding=(0, 2))
            table.add_row(Text("PUNTO", style="bold blue"), cards_text(coup.player),
                          Text(str(tableau.total(coup.player)), style="bold"))
            table.add_row(Text("BANCA", style="bold red"), cards_text(coup.bank),
                          Text(str(tableau.total(coup.bank)), style="bold"))
            console.print(Panel(table, title=f"coup {coup.number}", expand=False))
            _say(console, [x for x in state.log[seen:] if not x.startswith("pays")])
            for b in state.bets:
                if any(m.id == b.id for m in mine):
                    balance += paid(b.returned)
                    verdict = ("[green]wins[/green]" if b.returned > b.amount else "[yellow]push[/yellow]"
                               if b.returned == b.amount else "[red]loses[/red]")
                    console.print(f"  {b.kind} {euros(b.amount)} {verdict} {euros(paid(b.returned)) if b.returned else ''}")
            console.print(f"[bold]balance {euros(balance)}[/bold]   [dim]sabot at seat {state.sabot_seat}[/dim]")
            continue
        words = line.split()
        try:
            if len(words) != 2 or words[0] not in PB_ALIASES:
                raise ValueError("say a bet and an amount, e.g. punto 10 (type help)")
            kind, amount = PB_ALIASES[words[0]], euros_amount(words[1])
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        if kind not in rules.kinds:
            console.print(f"[red]there is no {words[0]} bet in {jurisdiction}[/red]")
            continue
        if amount > balance:
            console.print(f"[red]you have {euros(balance)}[/red]")
            continue
        counter += 1
        try:
            game.apply(state, Bet(f"b{counter}", "you", kind, amount))
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            continue
        balance -= amount
        console.print(f"  {kind} {euros(amount)} — balance {euros(balance)}")


# -- chemin de fer --------------------------------------------------------------------------------------------
SEATS = 6
YOU = 3
NAMES = {1: "Amparo", 2: "Bernardo", 3: "you", 4: "Concha", 5: "Dámaso", 6: "Encarna"}


class Robot:
    """A simple computer player: modest stakes, an occasional banco, the croupier's advice on 5, T-PB as banker."""

    def __init__(self, rng: TableRng, minimum: int) -> None:
        self.rng = rng
        self.minimum = minimum

    def bank_amount(self) -> int:
        return self.minimum * (10 + 5 * self.rng.randbelow(5))

    def stake(self, in_play: int) -> tuple[int, bool]:
        if in_play <= 8 * self.minimum and self.rng.randbelow(8) == 0:
            return in_play, True
        return min(in_play, self.minimum * (1 + self.rng.randbelow(4))), False

    def passes(self, coups: int) -> bool:
        return coups >= 3 and self.rng.randbelow(4) == 0


@register_player("chemin-de-fer")
def play_chemin_de_fer(game, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,  # noqa: ANN001
                       console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    robot = Robot(rng, minimum)
    state = game.open(jurisdiction, {"minimum": minimum, "departments": SEATS})
    rules = game.rules[jurisdiction]
    state.shoe = Shoe.shuffled(rng, decks=rules.decks, cut_from_end=rules.cards_below_stop)
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum del punto {euros(minimum)}   "
                            f"bank at most {euros(100 * minimum)}   your chips {euros(balance)}\n"
                            f"[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\nYou sit at seat {YOU}; "
                            "Amparo, Bernardo, Concha, Dámaso and Encarna fill the others. «Señores, las cartas pasan.»"))
    offer = 1
    counter = 0

    def ask(prompt: str) -> str:
        try:
            return read(prompt).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return "quit"

    while True:
        if state.stop_card_out:         # a new talla; the banker in place keeps his bank (001:870)
            state.shoe = Shoe.shuffled(rng, decks=rules.decks, cut_from_end=rules.cards_below_stop)
            state.stop_card_out = False
            console.print("[dim]New sabot: the croupier shuffles, the cards pass, a player cuts.[/dim]")
        bank = state.bank()
        if bank is None:
            if offer == YOU:
                answer = ask(f"The bank is offered to you. Amount in euros ({euros(game.bank_floor(state))} to "
                             f"{euros(min(balance, 100 * minimum))}), or enter to pass it on, or quit: ")
                if answer == "quit":
                    break
                if answer:
                    try:
                        amount = euros_amount(answer)
                        if amount > balance:
                            raise ValueError(f"you have {euros(balance)}")
                        counter += 1
                        game.apply(state, Bet(f"k{counter}", "you", "bank", amount, None, {"seat": YOU}))
                        balance -= amount
                    except (ValueError, TapeteError) as exc:
                        console.print(f"[red]{getattr(exc, 'message', exc)}[/red]")
                        continue
                else:
                    offer = offer % SEATS + 1
                    continue
            else:
                counter += 1
                amount = max(robot.bank_amount(), game.bank_floor(state))
                game.apply(state, Bet(f"k{counter}", NAMES[offer], "bank", amount, None, {"seat": offer}))
            _say(console, state.log[-1:])
            continue
        banker_seat = bank.seat or 0
        in_play = int(game.in_play(state, bank))
        console.print(Panel.fit(f"[bold]{NAMES[banker_seat]}[/bold] holds the bank: {euros(bank.holding)} "
                                f"({euros(in_play)} in play)   your chips {euros(balance)}"))
        mine: list[str] = []
        for seat in [(banker_seat + i - 1) % SEATS + 1 for i in range(1, SEATS)]:
            counter += 1
            if seat == YOU:
                answer = ask(f"Your stake in euros, «banco» for {euros(in_play)}, or enter to sit out (quit to leave): ")
                if answer == "quit":
                    return _leave(console, game, state, balance)
                if not answer:
                    continue
                call = answer == "banco"
                try:
                    amount = in_play if call else euros_amount(answer)
                    if amount > balance:
                        raise ValueError(f"you have {euros(balance)}")
                    game.apply(state, Bet(f"s{counter}", "you", "player", amount, None, {"seat": seat}))
                    if call:
                        game.apply(state, Act("banco", bet=f"s{counter}"))
                except (ValueError, TapeteError) as exc:
                    console.print(f"[red]{getattr(exc, 'message', exc)}[/red]")
                    continue
                balance -= amount
                mine.append(f"s{counter}")
            else:
                amount, call = robot.stake(in_play)
                game.apply(state, Bet(f"s{counter}", NAMES[seat], "player", amount, None, {"seat": seat}))
                if call:
                    game.apply(state, Act("banco", bet=f"s{counter}"))
                    console.print(f"  {NAMES[seat]}: «banco»")
        if not any(s.coup == len(state.coups) + 1 and s.final == "open" for s in state.stakes):
            console.print("Nobody punts: the croupier waits.")
            continue
        shown = len(state.log)
        game.apply(state, Deal())
        coup = state.current
        holder = next(s for s in state.stakes if s.id == coup.holder)
        bank_id = bank.id
        _say(console, state.log[shown:])
        shown = len(state.log)
        console.print(Text(f"The punto's cards go to {holder.player}.", style="bold"))
        if holder.player == "you":
            console.print(Text("Your cards: ").append_text(cards_text(coup.punto.cards)).append(f"= {coup.punto.total()}"))
        while True:
            who = game.due(state)
            _say(console, state.log[shown:])
            shown = len(state.log)
            if who is None:
                break
            coup = state.current                     # every step works on a copy: read the live coup
            if who == "player":
                if holder.player == "you":
                    answer = ask("«carta» or «no»? [c/n] ")
                    draw = answer.startswith("c")
                else:
                    draw = False                     # the croupier's advice on 5 (001:813)
                game.apply(state, Act("draw" if draw else "stand", by="player"))
            else:
                if bank.player == "you":
                    suggestion = "carta" if coup.banker.total() <= 5 else "no"
                    console.print(Text("Your cards: ").append_text(cards_text(coup.banker.cards))
                                  .append(f"= {coup.banker.total()}   (the punto: {'drew ' + coup.punto.cards[2] if coup.punto.drew else 'stood'})"))
                    answer = ask(f"Draw or stand? [c/n] (the cuadro says {suggestion}) ")
                    draw = answer.startswith("c")
                else:
                    draw = tableau.cell(tableau.T_CF, coup.banker.total(), coup.punto.column()) != "P"
                game.apply(state, Act("draw" if draw else "stand", by="bank"))
        coup = state.coups[-1]
        bank = next(b for b in state.banks if b.id == bank_id)
        table = Table.grid(padding=(0, 2))
        table.add_row(Text("PUNTO", style="bold blue"), cards_text(coup.punto.cards), Text(str(coup.punto.total())))
        table.add_row(Text("BANCA", style="bold red"), cards_text(coup.banker.cards), Text(str(coup.banker.total())))
        console.print(Panel(table, title=f"coup {coup.number}", expand=False))
        for s in state.stakes:
            if s.id in mine:
                balance += paid(s.returned)
                console.print(f"  your stake {euros(s.amount)}: returned {euros(paid(s.returned))}")
        if not bank.active:
            if bank.player == "you":
                back = paid(bank.returned(bank.id))
                balance += back
                console.print(f"  your bank ends: {euros(back)} back")
            offer = banker_seat % SEATS + 1
            continue
        if bank.player == "you":
            answer = ask(f"Your bank holds {euros(bank.holding)}. Enter to deal again, «pass» to pass the hand: ")
            if answer in ("pass", "quit"):
                game.apply(state, Act("pass", bet=bank.id))
                bank = next(b for b in state.banks if b.id == bank_id)
                back = paid(bank.returned(bank.id))
                balance += back
                console.print(f"  you pass the hand: {euros(back)} back")
                offer = banker_seat % SEATS + 1
                if answer == "quit":
                    break
        elif robot.passes(bank.coups):
            game.apply(state, Act("pass", bet=bank.id))
            _say(console, state.log[-1:])
            offer = banker_seat % SEATS + 1
        console.print(f"[bold]your chips {euros(balance)}[/bold]")
    _leave(console, game, state, balance)


def _leave(console: Console, game, state, balance: int) -> None:  # noqa: ANN001
    bank = state.bank()
    if bank is not None and bank.player == "you":
        balance += paid(bank.returned(bank.id))
    balance += sum(s.amount for s in state.stakes if s.final == "open" and s.player == "you")
    console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}.")
