"""A trente et quarante table at the terminal: the two rows laid out as the croupier tallador deals them, the
red card, and the zero rule's choice at a 31-31 tie."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.engine.events import Deal
from tapete.games.blackjack.game import pretty
from tapete.games.trente_quarante import TQState, TrenteQuaranteGame
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.session import PrisonTable, Refused, Stake, banner, play, table_rng
from tapete.terminal.voice import voice

ALIASES = {"negro": "black", "black": "black", "n": "black", "rojo": "red", "red": "red", "r": "red",
           "color": "color", "colour": "color", "c": "color", "inverso": "inverse", "inverse": "inverse", "i": "inverse"}

def kind_name(kind: str) -> str:
    return voice().plain(f"tq.kind.{kind}")


def rows_view(state: TQState, balance: int) -> Panel:
    v = voice()
    lines = []
    if state.coups:
        coup = state.coups[-1]
        for name, cards, total in (("negro", coup.black, coup.black_total), ("rojo ", coup.red, coup.red_total)):
            line = Text(f"{name} ")           # the rows' names on every table, as the tallador calls them
            for c in cards:
                line.append(f" {pretty(c)} ", style="bold red on white" if c[1] in "HD" else "bold black on white")
                line.append(" ")
            line.append(f" = {total}", style="bold")
            lines.append(line)
    held = [b for b in state.bets if b.phase in ("riding", "prison", "choice")]
    for b in held:
        key = "tq.held-prison" if b.phase == "prison" else "tq.held-insured" if b.insured else "tq.held"
        lines.append(Text("  " + v.plain(key, bet=kind_name(b.kind), amount=v.money(b.amount))))
    body = Text("\n").join(lines) if lines else Text(v.plain("tq.place-bets"))
    left = v.plain("blackjack.shoe-left", cards=state.shoe.remaining) if state.shoe else ""
    return Panel(body, title=v.plain("common.balance-title", balance=v.money(balance)), subtitle=left, expand=False)


class TrenteQuaranteTable(PrisonTable):
    """Trente et quarante's part of the shared loop: the rows as the bets listing, insured bets (the premium paid on
    top), the 31-after-31 question (prison or half back), bets in prison kept on the table by a player who leaves."""

    help_key = "tq.help"
    locked_key = "tq.locked"
    ask_key = "tq.ask"
    deal_words = ("", "deal", "repartir")

    def taken_back(self) -> int:
        return sum(b.amount for b in self.state.bets if b.phase == "riding")   # not yet dealt: taken back

    def list_bets(self) -> None:
        self.v.console.print(rows_view(self.state, self.balance))

    def deal(self) -> None:
        v, game = self.v, self.game
        if not any(b.phase in ("riding", "prison") for b in self.state.bets):
            v.say("common.no-bets", "yellow")
            return
        try:
            self.state = game.step(self.state, Deal())
        except TapeteError as exc:
            v.error(exc)
            return
        coup = self.state.coups[-1]
        v.say("tq.croupier", "italic", black=coup.black_total, red=coup.red_total)
        for b in self.state.bets:
            if b.phase == "done" and b.id not in self.credited:
                self.credited.add(b.id)
                got = math.ceil(b.returned)
                self.balance += got
                net = got - b.amount - math.floor(b.premium)
                key = "tq.won" if net > 0 else "tq.lost" if net < 0 else "tq.even"
                v.console.print("  " + v.t(key, bet=kind_name(b.kind), amount=Money(b.amount), net=Money(abs(net))))
        self.zero_rule()
        v.console.print(rows_view(self.state, self.balance))
        if self.state.shoe_ended:
            game.live_shoe(self.state, self.rng)
            v.say("blackjack.new-shoe", "italic")

    def describe(self, bet: Any) -> str:
        return kind_name(bet.kind)

    def half_back(self, bet: Any) -> int:
        return math.ceil(bet.returned if bet.returned else Fraction(bet.amount, 2 ** bet.zeros))

    def parse(self, line: str) -> Stake:
        m = re.fullmatch(r"(\w+)\s+(\d+(?:[.,]\d{1,2})?)(\s+(?:insured|asegurada|seguro))?", line.lower())
        if not m or m.group(1) not in ALIASES:
            raise Refused("tq.bad-line")
        amount = round(Fraction(m.group(2).replace(",", ".")) * 100)
        insured = bool(m.group(3))
        return Stake(ALIASES[m.group(1)], None, amount, {"insured": insured},
                     math.floor(Fraction(amount, 100)) if insured else 0)

    def limits(self, kind: str) -> tuple[int | None, int | None]:
        return self.state.limits.minimum, self.state.limits.maximum

    def bet_label(self, stake: Stake) -> str:
        return kind_name(stake.kind)

    def placed_message(self, stake: Stake) -> str:
        return "tq.placed-insured" if stake.extra["insured"] else "roulette.placed"


@register_player("trente-quarante")
def play_trente_quarante(game: TrenteQuaranteGame, jurisdiction: str, *, minimum: int, balance: int,
                         seed: str | None, console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = table_rng(seed)
    state = game.open(jurisdiction, {"minimum": minimum})
    game.live_shoe(state, rng)
    banner(v, game, jurisdiction, rng, "tq.welcome", header="blackjack.header", minimum=minimum, balance=balance,
           maximum=Money(state.limits.maximum))
    play(TrenteQuaranteTable(v, balance, game, state, rng))
