"""Baccara a dos paños at the terminal: a computer banker holds the bank, two computer puntos sit one on each
paño, and the player punts on side 1, side 2 or both (a caballo). The engine's reducer plays every card and every
forced word; the player speaks for a paño when his is the largest stake the bank covers there (001:1002-1012)."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.shoe import Shoe
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.baccarat import cards_text, paid
from tapete.terminal.voice import QUIT_WORDS, Quit, voice

BANKERS = ("Amparo", "Dámaso", "Encarna")
PUNTOS = ("Bernardo", "Concha")         # one computer punto on each paño, so both sides always play
YOU = "you"


def parse_stake(line: str) -> tuple[tuple[int, ...], int]:
    """'1 10' -> ((1,), 1000); '2 5' -> ((2,), 500); 'a 10' / 'caballo 10' / 'both 10' -> ((1, 2), 1000)."""
    words = line.lower().replace(",", ".").split()
    if len(words) != 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
        raise ValueError
    where = {"1": (1,), "2": (2,), "a": (1, 2), "caballo": (1, 2), "both": (1, 2), "ambos": (1, 2)}.get(words[0])
    if where is None:
        raise ValueError
    return where, round(Fraction(words[1]) * 100)


@register_player("baccarat-two-tables")
def play_two_tables(game, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,  # noqa: ANN001
                    console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    rules = game.rules[jurisdiction]
    state = game.open(jurisdiction, {"minimum": minimum})

    def new_shoe() -> None:
        state.shoe = Shoe.shuffled(rng, decks=rules.decks, cut_from_end=rules.stop_card[1])
        state.stop_card_out = False

    new_shoe()
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("two.header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                balance=Money(balance)) + "\n" + v.t("common.seed", seed=rng.seed.hex())
                            + "\n" + v.t("two.welcome")))
    counter = 0
    banker = 0
    while True:
        if state.stop_card_out:
            new_shoe()
            v.say("two.new-shoe", "dim")
        bank = state.bank()
        if bank is not None and bank.holding <= 0:        # la banca ha saltado: the banker leaves (001:984)
            state = game.step(state, Act("pass", bet=bank.id))
            v.say("two.bank-jumped", "italic", name=bank.player)
            continue
        if bank is not None and bank.coups >= 5 and rng.randbelow(4) == 0:    # a banker may leave between coups
            state = game.step(state, Act("pass", bet=bank.id))
            v.say("two.bank-passes", "italic", name=bank.player)
            continue
        if bank is None:
            counter += 1
            who = BANKERS[banker % len(BANKERS)]
            banker += 1
            state = game.step(state, Bet(f"k{counter}", who, "bank", 50 * minimum))
            v.say("two.bank-taken", "italic", name=who, amount=Money(50 * minimum))
            continue
        line = v.read("two.prompt", bank=Money(int(bank.holding)), balance=Money(balance))
        low = line.lower()
        if low in QUIT_WORDS:
            v.say("common.goodbye", amount=Money(balance))
            return
        if low in ("help", "?", "ayuda"):
            console.print(v.t("two.help"))
            continue
        if low == "":
            v.say("two.sit-out", "dim")
            mine = None
        else:
            try:
                sides, amount = parse_stake(line)
            except ValueError:
                v.warn("two.bad-stake")
                continue
            if amount > balance:
                v.warn("common.you-have", amount=Money(balance))
                continue
            counter += 1
            mine = f"s{counter}"
            try:
                state = game.step(state, Bet(mine, YOU, "player", amount, sides))
            except TapeteError as exc:
                v.error(exc, minimum=state.minimum, maximum=state.maximum)
                continue
            balance -= amount
            v.say("two.staked-both" if len(sides) == 2 else "two.staked", side=sides[0], amount=Money(amount),
                  balance=Money(balance))
        for k, punto in enumerate(PUNTOS):
            counter += 1
            stake = minimum * (1 + rng.randbelow(4))
            try:
                state = game.step(state, Bet(f"s{counter}", punto, "player", stake, (k + 1,)))
            except TapeteError:
                continue
            v.say("two.other-staked", "italic", name=punto, side=k + 1, amount=Money(stake))
        try:
            state = game.step(state, Deal())
        except TapeteError as exc:
            v.error(exc)
            continue
        while (who := game.due(state)) is not None:
            coup = state.current
            holder = game.hand_holder(state, who)
            if who == "bank":
                draw = game.bank_choice(coup)[1]         # the computer banker follows the cuadro
            elif holder == YOU:
                side = 1 if who == "side-1" else 2
                hand = coup.sides[side - 1]
                console.print(Text(v.plain("two.your-side", side=side) + " ").append_text(cards_text(hand.cards))
                              .append(f"= {hand.total()}"))
                yes, no = v.plain("two.card"), v.plain("two.no-card")
                try:
                    draw = v.ask("two.draw-ask", [yes, no], side=side) == yes
                except Quit:                              # leaving decides nothing: the stake stays on the table
                    staked = next((s.amount for s in state.stakes if s.id == mine), 0)
                    v.say("two.quit-abandoned", amount=Money(staked))
                    v.say("common.goodbye", amount=Money(balance))
                    return
            else:
                draw = False                              # the croupier's advice on 5 (001:813)
            state = game.step(state, Act("draw" if draw else "stand", by=who))
        coup = state.coups[-1]
        grid = Table.grid(padding=(0, 2))
        for i, hand in enumerate(coup.sides):
            result = {1: "two.side-wins", -1: "two.side-loses", 0: "two.side-ties"}[coup.results[i]]
            grid.add_row(Text(v.plain("two.side", side=i + 1), style="bold blue"), cards_text(hand.cards),
                         Text(str(hand.total())), Text(v.plain(result)))
        grid.add_row(Text(v.plain("two.bank"), style="bold red"), cards_text(coup.banker.cards),
                     Text(str(coup.banker.total())), Text(""))
        console.print(Panel(grid, title=v.plain("two.coup", n=coup.number), expand=False))
        for s in state.stakes:
            if s.id == mine:
                back = paid(s.returned)
                balance += back
                net = back - s.amount
                key = "two.you-won" if net > 0 else "two.you-lost" if net < 0 else "two.you-even"
                v.say(key, staked=Money(s.amount), returned=Money(back), net=Money(abs(net)))
        v.say("common.your-chips", amount=Money(balance))
