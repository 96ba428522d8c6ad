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
from tapete.core.rng import TableRng
from tapete.engine.events import Bet, Close, Outcome
from tapete.games.boule import BOULE_RULES, SIMPLE, BouleGame, BouleState
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.voice import QUIT_WORDS, limits, voice

ALIASES = {
    "rojo": "red", "red": "red", "negro": "black", "black": "black", "par": "even", "even": "even",
    "impar": "odd", "odd": "odd", "falta": "low", "low": "low", "pasa": "high", "high": "high",
}
STYLE = {"red": "bold white on red3", "black": "bold white on grey11", "five": "bold black on yellow"}


def parse_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'7 5' -> ('number', (7,), 500); 'rojo 10' -> ('red', None, 1000)."""
    words = line.lower().replace(",", " ").split()
    if len(words) != 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
        raise ValueError("boule.bad-line")
    amount = round(Fraction(words[1]) * 100)
    if words[0].isdigit():
        return "number", (int(words[0]),), amount
    if words[0] not in ALIASES:
        raise ValueError("boule.bad-line")
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
    v = voice()

    def word(kind: str) -> str:
        return v.plain(f"roulette.cloth-{kind}") if kind not in ("low", "high") else v.plain(f"boule.cloth-{kind}")

    grid.add_row(box("low", word("low")), cell(1), cell(2), cell(3), box("high", word("high")))
    grid.add_row(box("even", word("even")), cell(4), cell(5), cell(6), box("odd", word("odd")))
    grid.add_row(box("red", word("red")), cell(7), cell(8), cell(9), box("black", word("black")))
    return grid


def describe(kind: str, on: tuple[int, ...] | list[int] | None) -> str:
    """The bet in the session language: 'número 7', 'rojo'."""
    v = voice()
    if kind == "number":
        return v.plain("boule.number", n=on[0]) if on else v.plain("boule.kind.number")
    return v.plain(f"boule.kind.{kind}")


@register_player("boule")
def play_boule(game: BouleGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    counter = 0
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("roulette.header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                balance=Money(balance)) + "\n" + v.t("common.seed", seed=rng.seed.hex())
                            + "\n" + v.t("roulette.welcome")))

    def show() -> None:
        last = state.history[-1] if state.history else None
        hist = Text(v.plain("roulette.last") + " ")
        for n in state.history[-15:][::-1]:
            hist.append(f" {n} ", style=STYLE[colour(n)])
        console.print(Panel(Group(layout_view(state, last), hist), title=v.plain("common.balance-title", balance=v.money(balance)),
                            expand=False))

    show()
    while True:
        line = v.read("common.prompt")
        low = line.lower()
        if low in QUIT_WORDS:
            balance += sum(b.amount for b in state.bets if b.phase == "riding")    # bets not yet rolled: taken back
            v.say("common.goodbye", amount=Money(balance))
            return
        if low in ("help", "?", "ayuda"):
            console.print(v.t("boule.help"))
            continue
        if low in ("bets", "apuestas"):
            mine = [b for b in state.bets if b.phase == "riding"]
            if not mine:
                v.say("common.no-bets")
            for b in mine:
                console.print("  " + v.t("bac.bet-line", id=b.id, bet=describe(b.kind, b.on), amount=Money(b.amount)))
            continue
        if low in ("clear", "retirar"):
            back = sum(b.amount for b in state.bets if b.phase == "riding")
            balance += back
            state.bets = [b for b in state.bets if b.phase != "riding"]
            v.say("roulette.cleared", amount=Money(back), balance=Money(balance))
            continue
        if low in ("", "roll", "spin", "r", "tirar"):
            if not any(b.phase == "riding" for b in state.bets):
                v.say("common.no-bets", "yellow")
                continue
            v.say("boule.no-more-bets", "italic")
            state = game.step(state, Close())
            rules = BOULE_RULES[jurisdiction]
            n = rules.numbers[rng.randbelow(len(rules.numbers) * rules.holes_per_number) // rules.holes_per_number]
            state = game.step(state, Outcome("spin", n))
            v.say("boule.croupier", "italic", n=n, colour=v.plain(f"boule.colour.{colour(n)}"))
            console.print(Text(f"  {n}  ", style=STYLE[colour(n)]))
            for b in state.bets[:]:
                if b.phase == "done":
                    paid = int(-(-b.returned // 1))
                    balance += paid
                    key = "roulette.bet-wins" if paid else "roulette.bet-loses"
                    console.print("  " + v.t(key, bet=describe(b.kind, b.on), amount=Money(b.amount), paid=Money(paid)))
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
        v.say("roulette.placed", bet=describe(kind, on), amount=Money(amount), balance=Money(balance))
