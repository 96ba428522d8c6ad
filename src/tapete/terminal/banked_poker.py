"""The house-banked poker tables at the terminal: sin descarte, Trijoker, Tripóquer and Pai Gow.

Each round is dealt from a freshly shuffled deck (the table CSPRNG); the engine's reducer takes the bets and the
decisions, the croupier's words come from its log, and the settlement moves the running balance.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal, Outcome
from tapete.games.poker import evaluator as ev
from tapete.games.poker.banked import BankedGame, BankedState, pretty
from tapete.terminal import register_player

AMOUNT = r"(\d+(?:\.\d{1,2})?)"


def cards_text(cards: list[str], hidden: int = 0) -> Text:
    text = Text()
    for c in cards:
        style = "bold red on white" if c[1:] in ("H", "D") else "bold magenta on white" if c[0] == "X" else "bold black on white"
        text.append(f" {pretty(c)} ", style=style)
        text.append(" ")
    for _ in range(hidden):
        text.append(" ▒▒ ", style="white on blue")
        text.append(" ")
    return text


def cents(text: str) -> int:
    return round(Fraction(text) * 100)


class Session:
    """One player at a banked poker table: the state, the deck per round, the balance, the croupier's voice."""

    def __init__(self, game: BankedGame, jurisdiction: str, minimum: int, balance: int, seed: str | None,
                 console: Console, read: Callable[[str], str], table: dict[str, Any] | None = None) -> None:
        self.game, self.console, self.read = game, console, read
        self.rng = TableRng.from_hex(seed) if seed else TableRng()
        self.state: BankedState = game.open(jurisdiction, {"minimum": minimum, **(table or {})})
        self.start = self.balance = balance
        self.seen = 0
        self.counter = 0
        self.paid: set[str] = set()

    def hello(self, extra: str = "") -> None:
        cfg = self.state.config
        self.console.print(Panel.fit(
            f"[bold]{self.game.name_es}[/bold] — {self.state.jurisdiction}   minimum {euros(cfg['minimum'])}   maximum "
            f"{euros(cfg['maximum'])}   your chips {euros(self.balance)}\n[dim]seed {self.rng.seed.hex()} (replay with "
            f"--seed)[/dim]{extra}\nType [cyan]help[/cyan]. [italic]Hagan sus apuestas.[/italic]"))

    def ask(self) -> str:
        try:
            return self.read("[bold green]> [/bold green]").strip().lower()
        except (EOFError, KeyboardInterrupt, StopIteration):
            return "quit"

    def announce(self) -> None:
        for line in self.state.log[self.seen:]:
            self.console.print(f"[italic]Croupier: {line}[/italic]")
        self.seen = len(self.state.log)

    def step(self, event: Any) -> bool:
        try:
            self.state = self.game.step(self.state, event)
        except TapeteError as exc:
            self.console.print(f"[red]{exc.message}[/red]")
            return False
        self.announce()
        return True

    def on_table(self) -> int:
        return sum(b.amount for b in self.state.live())

    def bet(self, kind: str, amount: int, box: int = 1, cost: int | None = None) -> bool:
        need = amount if cost is None else cost
        if need > self.balance - self.on_table_cost():
            self.console.print(f"[red]you have {euros(self.balance - self.on_table_cost())} free[/red]")
            return False
        self.counter += 1
        if self.state.round is None:                 # a new round: a freshly shuffled deck
            self.game.new_deck(self.state, self.rng)
        ok = self.step(Bet(f"b{self.counter}", "you", kind, amount, None, {"box": box}))
        if ok:
            self.console.print(f"  {kind} on box {box}: {euros(amount)}")
        return ok

    def on_table_cost(self) -> int:
        return sum(self.cost(b) for b in self.state.live())

    def cost(self, b: Any) -> int:
        return 3 * b.amount if self.game.id == "trijoker" else b.amount

    def deal(self) -> bool:
        if not self.state.live():
            self.console.print("[yellow]no bets on the table[/yellow]")
            return False
        return self.step(Deal())

    def settle(self) -> None:
        """Resolve the round (the defaults due) and pay."""
        state = self.game.finish(copy.deepcopy(self.state))
        self.state = state
        self.announce()
        for b in state.bets:
            if b.final in ("settled", "void") and b.id not in self.paid:
                self.paid.add(b.id)
                net = b.returned - b.staked
                self.balance += int(net) if net.denominator == 1 else round(net)
                colour = "green" if net > 0 else "red" if net < 0 else "yellow"
                self.console.print(f"  {b.id} ({b.kind}, box {b.box}): [{colour}]{'+' if net > 0 else ''}{euros(net)}[/{colour}]")
        self.console.print(f"[bold]balance {euros(self.balance)}[/bold]" + (
            f"   carousel {euros(state.meter)}" if state.meter is not None else ""))

    def goodbye(self) -> None:
        self.console.print(f"[bold]Good night.[/bold] You leave with {euros(self.balance)} "
                           f"({'+' if self.balance >= self.start else ''}{euros(self.balance - self.start)}).")

    def mine(self, kind: str) -> Any:
        return next((b for b in self.state.live() if b.kind == kind), None)


def table_loop(s: Session, help_text: str, turn: Callable[[Session], None], place: Callable[[Session, str], None],
               deal: Callable[[Session], bool] = Session.deal) -> None:
    """The table's life at the prompt: quit, help and deal are the same at every banked poker table; a deal is
    followed by the player's `turn` and the settlement; any other line is the game's bets (`place`)."""
    while True:
        line = s.ask()
        if line in ("quit", "exit", "q"):
            s.goodbye()
            return
        if line in ("help", "?"):
            s.console.print(help_text)
            continue
        if line in ("", "deal"):
            if deal(s):
                turn(s)
                s.settle()
            continue
        place(s, line)


# ------------------------------------------------------------------------------------------------ sin descarte

SD_HELP = """[bold]Bets[/bold]: [cyan]10[/cyan] or [cyan]ante 10[/cyan] ante on box 1 ([cyan]ante 10 box 3[/cyan])   [cyan]seguro[/cyan] the fixed seguro   [cyan]jackpot[/cyan] the carousel
  [cyan]deal[/cyan] (or an empty line)   [cyan]help[/cyan]   [cyan]quit[/cyan]
[bold]Your turn[/bold]: [cyan]voy[/cyan] (call 2 x ante)   [cyan]paso[/cyan] (fold)   [cyan]buy 7c[/cyan] discard a card and buy one for the ante"""


def _sin_descarte_turn(s: Session) -> None:
    rnd = s.state.round
    assert rnd is not None
    ante = s.mine("ante")
    hand = rnd.hands[str(ante.box)]
    s.console.print(Text("you      ").append_text(cards_text(hand)).append(f"  {ev.describe(ev.rank5(hand))}"))
    s.console.print(Text("croupier ").append_text(cards_text([rnd.data["upcard"]], hidden=4)))
    while True:
        line = s.ask()
        if line in ("quit", "q"):
            line = "paso"
        if line in ("help", "?"):
            s.console.print(SD_HELP)
            continue
        m = re.fullmatch(r"buy\s+(\w\w)", line)
        if m:
            card = m.group(1).upper().replace("10", "T")
            if ante.amount > s.balance - s.on_table_cost():
                s.console.print("[red]not enough chips to buy a card[/red]")
            elif s.step(Act("buy", bet=ante.id, fields={"cards": [card]})):
                s.console.print("  card bought: it comes after every decision is made")
            continue
        if line in ("voy", "call", "v"):
            if 2 * ante.amount > s.balance - s.on_table_cost():
                s.console.print("[red]not enough chips to call[/red]")
                continue
            s.step(Act("call", bet=ante.id))
            return
        if line in ("paso", "fold", "p"):
            s.step(Act("fold", bet=ante.id))
            return
        s.console.print("[red]voy, paso, buy CARD — or help[/red]")


@register_player("poker-sin-descarte")
def play_sin_descarte(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                      console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello(f"\nseguro {euros(s.state.config['insurance'])}; the croupier plays with ace-king or better")
    table_loop(s, SD_HELP, _sin_descarte_turn, _sin_descarte_bet)


def _sin_descarte_bet(s: Session, line: str) -> None:
    if line == "seguro":
        ante = s.mine("ante")
        s.bet("insurance", s.state.config["insurance"], ante.box if ante else 1)
        return
    if line == "jackpot":
        ante = s.mine("ante")
        s.bet("jackpot", s.state.config.get("jackpot-stake") or 100, ante.box if ante else 1)
        return
    m = re.fullmatch(rf"(?:ante\s+)?{AMOUNT}(?:\s+box\s+(\d))?", line)
    if not m:
        s.console.print("[red]an ante in euros (e.g. 10), seguro, jackpot, deal — or help[/red]")
        return
    s.bet("ante", cents(m.group(1)), int(m.group(2) or 1), cost=3 * cents(m.group(1)))


# ------------------------------------------------------------------------------------------------ trijoker

TJ_HELP = """[bold]Bets[/bold]: [cyan]10[/cyan] puts 10 € on each of your three boxes (30 € in all)   [cyan]deal[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]
[bold]Your turn[/bold]: [cyan]keep[/cyan] ([cyan]k[/cyan]) or [cyan]withdraw[/cyan] ([cyan]w[/cyan]) bet 1, then bet 2; bet 3 always plays. Pays from a pair of jacks."""


def _trijoker_turn(s: Session) -> None:
    rnd = s.state.round
    assert rnd is not None
    bet = s.mine("main")
    own = rnd.hands[str(bet.box)]
    for n, shown in ((1, []), (2, rnd.hands["left"])):
        s.console.print(Text("you    ").append_text(cards_text(own)).append("   common ")
                        .append_text(cards_text(shown, hidden=2 - len(shown))))
        s.console.print(f"bet {n}: keep or withdraw?")
        while True:
            line = s.ask()
            verb = {"k": "keep", "keep": "keep", "w": "withdraw", "withdraw": "withdraw", "quit": "keep"}.get(line)
            if line in ("help", "?"):
                s.console.print(TJ_HELP)
                continue
            if verb and s.step(Act(verb, bet=bet.id)):
                break
            if not verb:
                s.console.print("[red]keep or withdraw[/red]")
    s.console.print(Text("common ").append_text(cards_text(rnd.hands["left"] + rnd.hands["right"])))


@register_player("trijoker")
def play_trijoker(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                  console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello("\npair of jacks 1, two pair 2, trío 3, straight 5, flush 8, full 11, póquer 50, straight flush 200, royal 500")
    table_loop(s, TJ_HELP, _trijoker_turn, _trijoker_bet)


def _trijoker_bet(s: Session, line: str) -> None:
    m = re.fullmatch(rf"{AMOUNT}(?:\s+box\s+(\d))?", line)
    if not m:
        s.console.print("[red]an amount in euros for each of the three bets (e.g. 10), deal — or help[/red]")
        return
    s.bet("main", cents(m.group(1)), int(m.group(2) or 1), cost=3 * cents(m.group(1)))


# ------------------------------------------------------------------------------------------------ tripóquer

TP_HELP = """[bold]Bets[/bold]: [cyan]ante 10[/cyan] (or [cyan]10[/cyan])   [cyan]fortune 5[/cyan] (Fortuna: pair or better pays whatever the croupier holds)
  [cyan]deal[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]
[bold]Your turn[/bold]: [cyan]bet[/cyan] (play: the Bet equals the ante) or [cyan]fold[/cyan] (rendir: the ante is lost)"""


@register_player("tripoker")
def play_tripoker(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                  console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello("\nthe croupier qualifies with a queen high; Extra-Ante: straight 1, trío 3, straight flush 4 x the ante")
    table_loop(s, TP_HELP, _tripoker_turn, _tripoker_bet)


def _tripoker_turn(s: Session) -> None:
    rnd = s.state.round
    assert rnd is not None
    box = s.state.live()[0].box
    hand = rnd.hands[str(box)]
    s.console.print(Text("you      ").append_text(cards_text(hand)).append(f"  {ev.describe(ev.rank3(hand))}"))
    s.console.print(Text("croupier ").append_text(cards_text([], hidden=3)))
    ante = s.mine("ante")
    while ante is not None:
        line = s.ask()
        if line in ("bet", "call", "b", "play"):
            if ante.amount > s.balance - s.on_table_cost():
                s.console.print("[red]not enough chips for the Bet[/red]")
                continue
            s.step(Act("call", bet=ante.id))
            return
        if line in ("fold", "f", "rendir", "quit"):
            s.step(Act("fold", bet=ante.id))
            return
        s.console.print("[red]bet or fold[/red]")


def _tripoker_bet(s: Session, line: str) -> None:
    m = re.fullmatch(rf"(ante|fortune|fortuna)?\s*{AMOUNT}", line)
    if not m:
        s.console.print("[red]ante 10, fortune 5, deal — or help[/red]")
        return
    kind = "fortune" if m.group(1) in ("fortune", "fortuna") else "ante"
    s.bet(kind, cents(m.group(2)), 1, cost=(2 if kind == "ante" else 1) * cents(m.group(2)))


# ------------------------------------------------------------------------------------------------ Pai Gow

PG_HELP = """[bold]Bets[/bold]: [cyan]10[/cyan] (your bet on box 1)   [cyan]deal[/cyan] (the croupier throws the dice and deals)   [cyan]help[/cyan]   [cyan]quit[/cyan]
[bold]Your turn[/bold]: [cyan]low 2 5[/cyan] puts cards 2 and 5 in the small hand (two cards), the rest in the big hand
  [cyan]house[/cyan] sets your hand the house way   The big hand must beat the small one, or the bet is lost."""


def _pai_gow_turn(s: Session) -> None:
    rnd = s.state.round
    assert rnd is not None
    bet = s.mine("main")
    hand = rnd.hands[str(bet.box)]
    numbered = Text("your seven cards: ")
    for i, c in enumerate(hand, 1):
        numbered.append(f"{i}:").append_text(cards_text([c]))
    s.console.print(numbered)
    while True:
        line = s.ask()
        if line in ("house", "h", "quit", ""):
            return                                   # the default: the house way
        if line in ("help", "?"):
            s.console.print(PG_HELP)
            continue
        m = re.fullmatch(r"low\s+([1-7])\s+([1-7])", line)
        if not m or m.group(1) == m.group(2):
            s.console.print("[red]low N M (two different card numbers), or house[/red]")
            continue
        picks = {int(m.group(1)) - 1, int(m.group(2)) - 1}
        low = [hand[i] for i in sorted(picks)]
        high = [c for i, c in enumerate(hand) if i not in picks]
        if ev.rank5(high, ev.PAI_GOW) <= ev.rank2(low, ev.PAI_GOW):
            s.console.print("[yellow]that small hand beats your big hand: a foul loses the bet. Type it again to "
                            "confirm, or choose again.[/yellow]")
            if s.ask() != line:
                continue
        if s.step(Act("set", bet=bet.id, fields={"high": high, "low": low})):
            return


@register_player("pai-gow")
def play_pai_gow(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                 console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello(f"\ncommission {s.state.config['commission']}% of each win; copies go to the bank")
    table_loop(s, PG_HELP, _pai_gow_turn, _pai_gow_bet, deal=_pai_gow_deal)


def _pai_gow_deal(s: Session) -> bool:
    """The croupier throws the dice (who is dealt first), then deals."""
    if not s.state.live():
        s.console.print("[yellow]no bets on the table[/yellow]")
        return False
    dice = [1 + s.rng.randbelow(6) for _ in range(3)]
    return s.step(Outcome("roll", dice)) and s.deal()


def _pai_gow_bet(s: Session, line: str) -> None:
    m = re.fullmatch(rf"{AMOUNT}(?:\s+box\s+([1-6]))?", line)
    if not m:
        s.console.print("[red]an amount in euros (e.g. 10), deal — or help[/red]")
        return
    s.bet("main", cents(m.group(1)), int(m.group(2) or 1))
