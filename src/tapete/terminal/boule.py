"""A boule table at the terminal: the nine numbers with their colours, the ball from the table CSPRNG.

The ball falls into one of eighteen holes, each number twice (docs/rulings.md#boule-holes): a uniform draw of
the hole, from the table's seeded generator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from tapete.games.boule import BOULE_RULES, SIMPLE, BouleGame, BouleState
from tapete.terminal import register_player
from tapete.terminal.session import SpinTable, Stake, number_or_chance
from tapete.terminal.voice import voice

ALIASES = {
    "rojo": "red", "red": "red", "negro": "black", "black": "black", "par": "even", "even": "even",
    "impar": "odd", "odd": "odd", "falta": "low", "low": "low", "pasa": "high", "high": "high",
}
STYLE = {"red": "bold white on red3", "black": "bold white on grey11", "five": "bold black on yellow"}


def parse_line(line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """'7 5' -> ('number', (7,), 500); 'rojo 10' -> ('red', None, 1000)."""
    return number_or_chance(line, ALIASES, "boule.bad-line")


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


class BouleTable(SpinTable):
    """Boule's part of the shared loop: the ball drawn as a uniform hole of the eighteen."""

    help_key = "boule.help"
    aliases = ALIASES
    bad_line = "boule.bad-line"
    deal_words = ("", "roll", "spin", "r", "tirar")

    def bet_label(self, stake: Stake) -> str:
        return describe(stake.kind, stake.on)

    def describe(self, bet: Any) -> str:
        return describe(bet.kind, bet.on)

    def panel(self) -> list[RenderableType]:
        v, state = self.v, self.state
        last = state.history[-1] if state.history else None
        hist = Text(v.plain("roulette.last") + " ")
        for n in state.history[-15:][::-1]:
            hist.append(f" {n} ", style=STYLE[colour(n)])
        return [layout_view(state, last), hist]

    def announce(self) -> None:
        self.v.say("boule.no-more-bets", "italic")

    def draw(self) -> int:
        rules = BOULE_RULES[self.state.jurisdiction]
        return rules.numbers[self.rng.randbelow(len(rules.numbers) * rules.holes_per_number) // rules.holes_per_number]

    def call(self, outcome: int) -> None:
        self.v.say("boule.croupier", "italic", n=outcome, colour=self.v.plain(f"boule.colour.{colour(outcome)}"))
        self.v.console.print(Text(f"  {outcome}  ", style=STYLE[colour(outcome)]))


@register_player("boule")
def play_boule(game: BouleGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    BouleTable.run(v, game, jurisdiction, minimum=minimum, balance=balance, seed=seed)
