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
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.games.blackjack.game import pretty
from tapete.games.trente_quarante import TQState, TrenteQuaranteGame
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.voice import QUIT_WORDS, Quit, voice

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


@register_player("trente-quarante")
def play_trente_quarante(game: TrenteQuaranteGame, jurisdiction: str, *, minimum: int, balance: int,
                         seed: str | None, console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    game.live_shoe(state, rng)
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("blackjack.header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                maximum=Money(state.limits.maximum), balance=Money(balance)) + "\n"
                            + v.t("common.seed", seed=rng.seed.hex()) + "\n" + v.t("tq.welcome")))
    counter = 0
    credited: set[str] = set()

    def at_risk() -> int:
        return sum(b.amount for b in state.bets if b.phase in ("riding", "prison", "choice"))

    while True:
        line = v.read("common.prompt").lower()
        if line in QUIT_WORDS:
            riding = sum(b.amount for b in state.bets if b.phase == "riding")   # not yet dealt: taken back
            held = sum(b.amount for b in state.bets if b.phase in ("prison", "choice"))
            if held:
                v.say("roulette.quit-prison", amount=Money(held))
            v.say("common.goodbye", amount=Money(balance + riding))
            return
        if line in ("help", "?", "ayuda"):
            console.print(v.t("tq.help"))
            continue
        if line in ("bets", "apuestas"):
            console.print(rows_view(state, balance))
            continue
        if line in ("", "deal", "repartir"):
            if not any(b.phase in ("riding", "prison") for b in state.bets):
                v.say("common.no-bets", "yellow")
                continue
            try:
                state = game.step(state, Deal())
            except TapeteError as exc:
                v.error(exc)
                continue
            coup = state.coups[-1]
            v.say("tq.croupier", "italic", black=coup.black_total, red=coup.red_total)
            for b in state.bets:
                if b.phase == "done" and b.id not in credited:
                    credited.add(b.id)
                    got = math.ceil(b.returned)
                    balance += got
                    net = got - b.amount - math.floor(b.premium)
                    key = "tq.won" if net > 0 else "tq.lost" if net < 0 else "tq.even"
                    console.print("  " + v.t(key, bet=kind_name(b.kind), amount=Money(b.amount), net=Money(abs(net))))
            leaving = False
            for b in state.bets:
                if b.phase == "choice":
                    if b.locked:
                        verb = "prison"
                        console.print("  " + v.t("tq.locked", bet=kind_name(b.kind), amount=Money(b.amount)))
                    else:
                        prison, half = v.plain("roulette.choice-prison"), v.plain("roulette.choice-half")
                        try:
                            picked = v.ask("tq.ask", [prison, half], bet=kind_name(b.kind), amount=Money(b.amount))
                        except Quit:                 # leaving decides nothing: the bet stays on the table
                            leaving = True
                            break
                        verb = "half" if picked == half else "prison"
                    state = game.step(state, Act(verb, bet=b.id))
                    if verb == "half":
                        credited.add(b.id)
                        back = math.ceil(b.returned if b.returned else Fraction(b.amount, 2 ** b.zeros))
                        balance += back
                        v.say("roulette.half-back", amount=Money(back))
                    else:
                        v.say("roulette.to-prison", bet=kind_name(b.kind), amount=Money(b.amount))
            if leaving:
                held = sum(b.amount for b in state.bets if b.phase in ("prison", "choice"))
                v.say("roulette.quit-prison", amount=Money(held))
                v.say("common.goodbye", amount=Money(balance))
                return
            console.print(rows_view(state, balance))
            if state.shoe_ended:
                game.live_shoe(state, rng)
                v.say("blackjack.new-shoe", "italic")
            continue
        m = re.fullmatch(r"(\w+)\s+(\d+(?:[.,]\d{1,2})?)(\s+(?:insured|asegurada|seguro))?", line)
        if not m or m.group(1) not in ALIASES:
            v.warn("tq.bad-line")
            continue
        amount = round(Fraction(m.group(2).replace(",", ".")) * 100)
        insured = bool(m.group(3))
        cost = amount + (math.floor(Fraction(amount, 100)) if insured else 0)
        if cost > balance:
            v.warn("common.you-have", amount=Money(balance))
            continue
        counter += 1
        try:
            state = game.step(state, Bet(f"b{counter}", "you", ALIASES[m.group(1)], amount, None, {"insured": insured}))
        except TapeteError as exc:
            v.error(exc, minimum=state.limits.minimum, maximum=state.limits.maximum)
            continue
        balance -= cost
        v.say("tq.placed-insured" if insured else "roulette.placed", bet=kind_name(ALIASES[m.group(1)]),
              amount=Money(amount), balance=Money(balance))
