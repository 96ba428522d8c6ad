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
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.games.blackjack.game import BJState, BlackjackGame, pretty
from tapete.i18n import Money, decimal
from tapete.terminal import register_player
from tapete.terminal.voice import CURRENT, Quit, Voice, voice

STYLES = {"S": "bold black on yellow", "H": "bold white on grey23", "D": "bold black on green3",
          "Ds": "bold black on dark_sea_green2", "R": "bold white on magenta", "Rs": "bold white on orchid",
          "P": "bold white on blue"}

VERBS = {"h": "hit", "hit": "hit", "c": "hit", "carta": "hit", "s": "stand", "stand": "stand", "p": "split",
         "planto": "stand", "me planto": "stand", "d": "double", "double": "double", "doblar": "double",
         "split": "split", "separar": "split", "e": "even-money", "even": "even-money", "pago": "even-money",
         "r": "surrender", "surrender": "surrender", "rendirse": "surrender", "i": "insure", "insure": "insure",
         "seguro": "insure"}
COMMANDS = {"quit": "quit", "exit": "quit", "q": "quit", "salir": "quit", "help": "help", "?": "help",
            "ayuda": "help", "chart": "chart", "tabla": "chart", "hint": "hint", "consejo": "hint", "deal": "deal",
            "repartir": "deal", "bets": "bets", "apuestas": "bets"}


def print_chart(jurisdiction: str, console: Console, as_json: bool = False, lang: str | None = None) -> None:
    """`tapete strategy blackjack -j J`: the derived chart, coloured like the cards casinos hand out."""
    from tapete.analysis.blackjack import chart

    data = chart(jurisdiction)
    if as_json:
        print(json.dumps({"game": "blackjack", **data}, ensure_ascii=False, indent=1))
        return
    v = voice(console) if lang is None and CURRENT and CURRENT[-1].console is console else \
        Voice(lang or "en", console, console.input)
    for name in ("hard", "soft", "pairs"):
        table = Table(title=v.plain("blackjack.chart-title", name=v.plain(f"blackjack.chart-{name}")),
                      title_justify="left", padding=(0, 1))
        table.add_column(v.plain("blackjack.chart-hand"), style="bold")
        for up in data["up"]:
            table.add_column(up, justify="center")
        for hand, cells in data[name].items():
            table.add_row(hand, *[Text(f" {c:<2}", style=STYLES[c]) for c in cells])
        console.print(table)
    legend = Text("  ")
    for code in data["legend"]:
        legend.append(f" {code} ", style=STYLES[code])
        legend.append(f" {v.plain('blackjack.legend.' + code)}  ")
    console.print(legend)
    console.print(v.t("blackjack.chart-edge", jurisdiction=jurisdiction, edge=decimal(v.lang, data["house_edge_percent"], 4)))


def _cards(cards: list[str]) -> Text:
    text = Text()
    for c in cards:
        text.append(f" {pretty(c)} ", style="bold red on white" if c[1] in "HD" else "bold black on white")
        text.append(" ")
    return text


def at_risk(state: BJState) -> int:
    """What the player has on the table now: each bet waiting for the deal, and each bet in play with its doubles,
    split hands and insurance (the balance shown is the wallet less this, the moment a hand doubles or splits)."""
    total = 0
    for b in state.bets:
        if b.status == "waiting":
            total += b.amount
        elif b.status == "playing":
            units = sum(h.units for h in state.hands if h.box == b.box) if b.kind == "main" else 1
            total += b.amount * max(units, 1) + b.insurance
    return total


def table_view(game: BlackjackGame, state: BJState, balance: int) -> Panel:
    from tapete.games.blackjack.hand import dealer_total, value

    v = voice()
    rows = []
    if state.dealer:
        dealer = Text(v.plain("blackjack.dealer") + "  ")
        dealer.append_text(_cards(state.dealer))
        if len(state.dealer) > 1:
            dealer.append(f"  {dealer_total([value(c) for c in state.dealer])}")
        rows.append(dealer)
    for i, hand in enumerate(state.hands):
        line = Text(("→ " if i == state.turn else "  ") + v.plain("blackjack.box", box=hand.box) + " ")
        line.append_text(_cards(hand.cards))
        status = f"  ({v.plain('blackjack.status.' + hand.status)})" if hand.status not in ("live", "waiting") else ""
        line.append(f"  {hand.total}{status}" + (f"  {v.plain('blackjack.doubled')}" if hand.units == 2 else ""))
        rows.append(line)
    shoe = state.shoe
    left = v.plain("blackjack.shoe-left", cards=shoe.remaining) if shoe else ""
    if state.last_of_shoe:
        left += "  · " + v.plain("blackjack.last-of-shoe")
    return Panel(Group(*rows) if rows else Text(v.plain("blackjack.place-bets")),
                 title=v.plain("common.balance-title", balance=v.money(balance)), subtitle=left, expand=False)


@register_player("blackjack")
def play_blackjack(game: BlackjackGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                   console: Console, read: Callable[[str], str]) -> None:
    from tapete.analysis.blackjack import advice

    v = voice(console, read)
    wallet = balance          # the player's money, at risk or not; shown: wallet - at_risk(state)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    state = game.open(jurisdiction, {"minimum": minimum})
    game.live_shoe(state, rng)
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("blackjack.header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                maximum=Money(state.limits.maximum), balance=Money(wallet)) + "\n"
                            + v.t("common.seed", seed=rng.seed.hex()) + "\n" + v.t("blackjack.welcome")))
    counter = 0
    paid: set[str] = set()

    def shown() -> int:
        return wallet - at_risk(state)

    def step(event: object) -> bool:
        nonlocal state
        was_last = state.last_of_shoe
        try:
            state = game.step(state, event)  # type: ignore[arg-type]
        except TapeteError as exc:
            if exc.code == "illegal-action" and isinstance(event, Act):   # say which decision the rules refuse
                v.warn(f"blackjack.cannot.{event.do}")
            else:
                v.error(exc, minimum=state.limits.minimum, maximum=state.limits.maximum)
            return False
        if state.last_of_shoe and not was_last:
            v.say("blackjack.cut-card", "italic")
        return True

    def settle_round() -> None:
        nonlocal wallet
        for b in state.bets:
            if b.status in ("done", "void") and b.id not in paid:
                paid.add(b.id)
                got = math.ceil(b.returned)
                net = got - math.floor(b.staked) if b.status == "done" else 0
                wallet += net
                what = v.plain("blackjack.kind." + b.kind, box=b.box)
                if b.status == "void":
                    key = "blackjack.result-void"
                else:
                    key = "blackjack.result-won" if net > 0 else "blackjack.result-lost" if net < 0 else "blackjack.result-push"
                console.print("  " + v.t(key, bet=what, amount=Money(abs(net)), staked=Money(int(b.staked)),
                                         returned=Money(got)))
        console.print(table_view(game, state, shown()))
        if state.last_of_shoe:
            game.live_shoe(state, rng)
            v.say("blackjack.new-shoe", "italic")

    def after_deal() -> None:
        console.print(table_view(game, state, shown()))
        if state.phase == "window" and state.dealer and state.dealer[0][0] == "A":
            v.say("blackjack.insurance-window", "italic")

    while True:
        in_round = state.phase != "betting"
        line = v.read("common.prompt").lower()
        command = COMMANDS.get(line)
        if command == "quit":
            if in_round:     # a hand in play is not played for the player: ask, and otherwise keep playing
                yes, no = v.plain("common.yes"), v.plain("common.no")
                try:
                    sure = v.ask("blackjack.quit-ask", [yes, no], amount=Money(at_risk(state)))
                except Quit:
                    sure = yes
                if sure != yes:
                    continue
                v.say("blackjack.quit-abandoned", amount=Money(at_risk(state)))
                v.say("common.goodbye", amount=Money(shown()))
                return
            v.say("common.goodbye", amount=Money(wallet))       # bets not yet dealt are taken back
            return
        if command == "help":
            console.print(v.t("blackjack.help"))
            continue
        if command == "chart":
            print_chart(jurisdiction, console)
            continue
        if command == "bets":
            mine = [b for b in state.bets if b.status in ("waiting", "playing")]
            if not mine:
                v.say("common.no-bets")
            for b in mine:
                console.print("  " + v.t("blackjack.bet-line", id=b.id, bet=v.plain("blackjack.kind." + b.kind, box=b.box),
                                         amount=Money(b.amount)))
            continue
        if not in_round:
            if line == "" or command == "deal":
                if not any(b.status == "waiting" for b in state.bets):
                    v.say("common.no-bets", "yellow")
                    continue
                if step(Deal()):
                    if state.phase == "betting":      # settled at once (a dealer's Black-Jack, too few hands)
                        settle_round()
                    else:
                        after_deal()
                continue
            m = re.fullmatch(r"(bolsa\s+)?(\d+(?:[.,]\d{1,2})?)(?:\s+(?:box|casilla)\s+(\d))?", line)
            if not m:
                v.warn("blackjack.bad-bet")
                continue
            amount = round(Fraction(m.group(2).replace(",", ".")) * 100)
            if amount > shown():
                v.warn("common.you-have", amount=Money(shown()))
                continue
            counter += 1
            box = int(m.group(3) or 1)
            kind = "bolsa" if m.group(1) else "main"
            if step(Bet(f"b{counter}", "you", kind, amount, None, {"box": box})):
                v.say("blackjack.placed", bet=v.plain("blackjack.kind." + kind, box=box), amount=Money(amount),
                      balance=Money(shown()))
            continue
        # a round is being played: every decision is ours
        words = line.split()
        if command == "hint":
            if state.turn is None:
                v.say("blackjack.no-hand-due", "yellow")
                continue
            hand = state.hands[state.turn]
            tip = advice(jurisdiction, hand.cards, state.dealer[0], split=hand.split, split_aces=hand.split_aces,
                         first_decision=state.phase == "window" and game.may_surrender(state, hand.box),
                         hands=sum(h.box == hand.box for h in state.hands))
            v.say("blackjack.hint", advice=v.plain("blackjack.advice." + tip) if tip in ADVICE else tip)
            continue
        verb = VERBS.get(line) or (VERBS.get(words[0]) if words else None)
        if verb is None:
            v.warn("blackjack.bad-decision")
            continue
        if state.turn is not None:
            bet = game.decider(state, state.hands[state.turn].box)
        else:
            bet = next(b for b in state.bets if b.status == "playing" and b.kind == "main")
        fields: dict[str, object] = {}
        cost = 0
        if verb == "insure":
            if len(words) < 2 or not re.fullmatch(r"\d+([.,]\d{1,2})?", words[1]):
                v.warn("blackjack.insure-how")
                continue
            fields["amount"] = cost = round(Fraction(words[1].replace(",", ".")) * 100)
        elif verb in ("double", "split"):
            cost = bet.amount
        if cost > shown():
            v.warn("common.you-have", amount=Money(shown()))
            continue
        if step(Act(verb, bet=bet.id, fields=fields)):
            if verb in ("double", "split", "insure") and state.phase != "betting":
                v.say("blackjack.more-at-risk", amount=Money(cost), balance=Money(shown()))
            elif verb in ("double", "split", "insure"):
                v.say("blackjack.more-staked", amount=Money(cost))
            if state.phase == "betting":
                settle_round()
            else:
                console.print(table_view(game, state, shown()))


ADVICE = ("hit", "stand", "double", "split", "surrender")
