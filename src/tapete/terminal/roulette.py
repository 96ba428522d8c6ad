"""A roulette table at the terminal: the cloth drawn with Rich, bets typed the way a player says them."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.games.roulette import layout
from tapete.games.roulette.american import AmericanRouletteGame, components
from tapete.games.roulette.game import RouletteGame, RouletteState
from tapete.games.roulette.rules import ANNOUNCED, ANNOUNCED_CHIPS, SIMPLE
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.session import PrisonTable, Refused, SpinTable, Stake, paid
from tapete.terminal.voice import Voice, limits, voice

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


class BetLineError(ValueError):
    """A bet line the table cannot read: a catalog key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def parse_bet_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'split 17 20 5' -> ('split', (17, 20), 500). Amount last, in euros (cents allowed: 2.50)."""
    words = line.lower().replace(",", " ").split()
    if not words:
        raise BetLineError("roulette.bad-line")
    *head, amount_text = words
    if not re.fullmatch(r"\d+(\.\d{1,2})?", amount_text):
        raise BetLineError("roulette.amount-last", text=amount_text)
    amount = round(Fraction(amount_text) * 100)
    if head and head[0].isdigit():
        head = ["straight", *head]
    if not head or head[0] not in ALIASES:
        raise BetLineError("roulette.unknown-bet", word=head[0] if head else "")
    kind = ALIASES[head[0]]
    numbers = tuple(int(w) for w in head[1:] if w.isdigit())
    if len(numbers) != len(head) - 1:
        raise BetLineError("roulette.targets-numbers")
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
    track = Text(voice().plain("roulette.wheel") + " ")
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
    v = voice()
    dozens = Text("     " + v.plain("roulette.cloth-dozens"), style="bold")
    simple = Text(f"     {v.plain('roulette.cloth-low')}  {v.plain('roulette.cloth-even')}  ", style="bold")
    simple.append(f" {v.plain('roulette.cloth-red')} ", style="bold white on red3")
    simple.append(" ")
    simple.append(f" {v.plain('roulette.cloth-black')} ", style="bold white on grey11")
    simple.append(f"  {v.plain('roulette.cloth-odd')}  {v.plain('roulette.cloth-high')}", style="bold")
    outer = Table.grid()
    outer.add_row(grid)
    if outside:
        outer.add_row(dozens)
        outer.add_row(simple)
    return outer


def describe(b: object) -> str:
    """The bet as the player says it, in the session language: 'pleno 17', 'rojo', 'caballo 17-20'."""
    on = getattr(b, "on", None)
    name = voice().plain(f"roulette.kind.{b.kind}")  # type: ignore[attr-defined]
    return f"{name}{' ' + '-'.join(map(str, on)) if on else ''}"


def announce(n: int) -> str:
    """The croupier's call of the pocket: '17, rojo, impar y pasa' / 'zero'."""
    v = voice()
    if n == 0:
        return v.plain("roulette.call-zero")
    return v.plain("roulette.call", n=n, colour=v.plain(f"roulette.{layout.colour(n)}"),
                   parity=v.plain("roulette.odd" if n % 2 else "roulette.even"),
                   half=v.plain("roulette.low" if n <= 18 else "roulette.high"))


class RouletteTable(PrisonTable, SpinTable):
    """Roulette's part of the shared loop: the cloth (the abreviada's without the outside bets), the racetrack where
    the announced bets are played, American roulette's colour chips; the zero's question for simple chances."""

    help_key = "roulette.help"
    locked_key = "roulette.zero-locked"
    ask_key = "roulette.zero-ask"
    deal_words = ("", "spin", "s", "girar")

    def __init__(self, v: Voice, balance: int, game: RouletteGame, state: RouletteState, rng: TableRng) -> None:
        super().__init__(v, balance, game, state, rng)
        self.american = isinstance(game, AmericanRouletteGame)
        self.short = not any(k in SIMPLE for k in game.rules_for(state.jurisdiction).kinds)       # the abreviada's cloth
        self.announced = any(a.kind in ANNOUNCED for a in game.legal_actions(state))

    def help(self) -> None:
        v = self.v
        v.console.print(v.t("roulette.help-short" if self.short else "roulette.help"))
        if self.american:
            v.console.print(v.t("roulette.help-american"))
        if self.announced:
            v.console.print(v.t("roulette.help-announced"))

    def command(self, low: str) -> bool:
        """`colour 5`: a new series of colour chips (American roulette)."""
        if not (self.american and low.startswith(("colour ", "color "))):
            return False
        v = self.v
        try:
            value = round(Fraction(low.split()[1]) * 100)
            self.state = self.game.take_colour_chips(self.state, "you", value)
        except (ValueError, ZeroDivisionError, IndexError):
            v.warn("roulette.colour-how")
        except TapeteError as exc:
            v.error(exc, maximum=limits(self.game, self.state, "straight")[1])
        else:
            v.say("roulette.colour-taken", value=Money(value))
        return True

    def bet_lines(self) -> list[str]:
        v = self.v
        return [v.t("roulette.bet-line", id=b.id, bet=describe(b), amount=Money(b.amount),
                    phase=v.plain(f"roulette.phase.{b.phase}")) for b in self.state.bets if b.phase != "done"]

    def describe(self, bet: object) -> str:
        return describe(bet)

    def panel(self) -> list[RenderableType]:
        v, state = self.v, self.state
        last = state.history[-1] if state.history else None
        hist = Text(v.plain("roulette.last") + " ")
        for n in state.history[-12:][::-1]:
            hist.append(f" {n} ", style={"red": "red", "black": "white", "green": "green"}[layout.colour(n)])
        parts: list[RenderableType] = [cloth(state, last, outside=not self.short), hist]
        if self.announced:
            parts.append(racetrack(state, last))
        if self.american:
            parts.append(Text(v.plain("roulette.colour-chips", value=v.money(self.game.colour_value(state, "you"))),
                              style="dim"))
        return parts

    def pending(self) -> bool:
        return any(b.phase in ("riding", "prison", "choice") for b in self.state.bets)

    def announce(self) -> None:
        self.v.say("roulette.no-more-bets", "italic")

    def draw(self) -> int:
        return self.rng.randbelow(37)

    def call(self, outcome: int) -> None:
        v = self.v
        v.say("roulette.croupier", "italic", call=announce(outcome))
        colour = layout.colour(outcome)
        word = v.plain(f"roulette.{colour}").upper() if outcome else v.plain("roulette.zero").upper()
        v.console.print(Text(f"  {outcome}  {word}  ", style={"red": "bold white on red3", "black": "bold white on grey11",
                                                              "green": "bold white on green4"}[colour]))

    def settle(self) -> None:
        v = self.v
        for b in self.state.bets:
            if b.phase == "done" and b.id not in self.credited:
                self.credited.add(b.id)
                got = paid(b.returned)
                self.balance += got
                key = "roulette.bet-wins" if b.returned > b.amount else "roulette.bet-returned" if b.returned \
                    else "roulette.bet-loses"
                v.console.print("  " + v.t(key, bet=describe(b), amount=Money(b.amount), paid=Money(got)))
            elif b.phase == "prison" and b.zeros and b.id not in self.credited:
                v.console.print("  " + v.t("roulette.still-prison", bet=describe(b), amount=Money(b.amount)))
        self.zero_rule()

    def half_back(self, bet: Any) -> int:
        return int(-(-bet.amount // 2 ** max(bet.zeros, 1)))

    def parse(self, line: str) -> Stake:
        line, chips = split_chips(line) if self.american else (line, None)
        try:
            kind, on, amount = parse_bet_line(line)
        except BetLineError as exc:
            raise Refused(exc.key, **exc.params) from None
        extra = {}
        if chips is not None:
            amount, extra = self.game.colour_value(self.state, "you"), {"chips": chips}
        total = amount * (chips or ANNOUNCED_CHIPS.get(kind, 1))
        return Stake(kind, on, amount, extra, total - amount)

    def as_placed(self, stake: Stake) -> Stake:
        """A colour-chip or announced bet: the engine's whole stake, all its chips."""
        held = self.state.bets[-1]
        return Stake(held.kind, held.on, held.amount)

    def bet_label(self, stake: Stake) -> str:
        return describe(self.state.bets[-1])


@register_player("roulette-french", "roulette-french-short", "roulette-american")
def play_roulette(game: RouletteGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                  console: Console, read: Callable[[str], str]) -> None:
    RouletteTable.run(voice(console, read), game, jurisdiction, minimum=minimum, balance=balance, seed=seed)
