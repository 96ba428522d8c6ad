"""The two Monte tables at the terminal: Monte o banca (the four-card layout, Primeras and Segundas) and Casino
Monte (one card against the croupier's, the tie and its rematch). Shoes shuffled with the table CSPRNG."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rich.console import Console
from rich.table import Table

from tapete.core.cards import shoe_of
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal
from tapete.games.blackjack.game import pretty
from tapete.games.monte import FACING, CasinoMonte, MBState, MonteBanca, value
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.session import BetTable, Refused, Stake, banner, paid, play, table_rng
from tapete.terminal.voice import QUIT_WORDS, Quit, voice

MB_ALIASES = {"vista": "first-card", "vis": "first-card", "camo": "next-suit", "anti": "previous-suit",
              "viudo": "opposite-suit", "salto": "any-suit", "cartas": "versus"}


def spanish(card: str) -> str:
    """A Spanish-suited card by its name in the session language: 'Caballo de copas' / 'Knight of cups'."""
    v = voice()
    n, suit = int(card[:-1]), card[-1]
    rank = v.plain(f"monte.rank.{n}") if n in (1, 10, 11, 12) else str(n)
    return v.plain("monte.card", rank=rank, suit=v.plain(f"monte.suit.{suit}"))


def bet_name(kind: str, on: object) -> str:
    """'camo P1', 'cartas P1+P4 / P2+P3'."""
    v = voice()
    if kind == "versus":
        mine, theirs = on  # type: ignore[misc]
        where = " / ".join("+".join(f"P{p}" for p in (side if isinstance(side, list | tuple) else [side]))
                           for side in (mine, theirs))
    else:
        where = " ".join(f"P{p}" for p in on)  # type: ignore[attr-defined]
    return f"{v.plain('monte.kind.' + kind)} {where}"


def parse_mb_bet(line: str) -> tuple[str, list[object], int]:
    """'camo 1 5' -> ('next-suit', [1], 500); 'cartas 1+4 2+3 5' -> ('versus', [[1, 4], [2, 3]], 500)."""
    words = line.lower().split()
    if len(words) < 3 or words[0] not in MB_ALIASES:
        raise ValueError("monte.bad-line")
    kind = MB_ALIASES[words[0]]
    amount = round(Fraction(words[-1].replace(",", ".")) * 100)
    if kind == "versus":
        if len(words) != 4:
            raise ValueError("monte.cartas-how")
        sides = [[int(p) for p in w.split("+")] for w in words[1:3]]
        return kind, sides, amount
    return kind, [int(words[1])], amount


def layout_view(game: MonteBanca, state: MBState) -> Table:
    layout = game.layout(state)
    cut = game.annulled(state)
    v = voice()
    grid = Table(title=v.plain("monte.title", n=state.coup, phase=v.plain(f"monte.phase.{state.phase}")), show_header=False)
    grid.add_column()
    grid.add_column()
    cells = []
    for p in (1, 2, 3, 4):
        card = layout.cards[p - 1]
        extra = f" (+{len(layout.stacks[p - 1])})" if layout.stacks[p - 1] else ""
        live = p in state.in_play
        text = f"P{p}: {spanish(card)}{extra}" if live else f"[dim]P{p}: {spanish(card)} ({v.plain('monte.out')})[/dim]"
        if cut[p]:
            text += "\n[dim]" + v.plain("monte.annulled", bets=", ".join(sorted(v.plain(f"monte.kind.{k}") for k in cut[p]))) + "[/dim]"
        cells.append(text)
    grid.add_row(cells[0], cells[1])
    grid.add_row(cells[2], cells[3])
    grid.caption = v.plain("monte.caption", d=layout.d, b=layout.b, pays=32 - layout.d - layout.b)
    return grid


class MonteBancaTable(BetTable):
    """Monte o banca's part of the shared loop: the layout shown before each line, a fresh pack when it runs low,
    bets told by their phase (Primeras, Segundas), a coup settled bet by bet as the engine decides them."""

    help_key = "monte.help"
    deal_words = ("", "deal", "d", "descubrir")


    def fresh_pack(self) -> None:
        pack = [c.text for c in shoe_of(2, "spanish")]
        self.rng.shuffle(pack)
        self.state.shoe = self.state.shoe[:self.state.pos] + pack
        self.state.pack = {}

    def read(self) -> str:
        v, state = self.v, self.state
        if state.layout is None and len(state.shoe) - state.pos < 30:
            self.fresh_pack()
            v.say("monte.new-pack", "italic")
        v.console.print(layout_view(self.game, state))
        return v.read("monte.prompt", phase=v.plain(f"monte.phase.{state.phase}"))

    def taken_back(self) -> int:
        """The open bets of the phase not yet dealt."""
        return sum(b.amount for b in self.state.bets if b.state == "open" and b.phase == self.state.phase)

    def bet_lines(self) -> list[str]:
        v = self.v
        return [v.t("monte.bet-line", id=b.id, bet=bet_name(b.kind, b.on), amount=Money(b.amount),
                    phase=v.plain(f"monte.phase.{b.phase}")) for b in self.state.bets if b.state == "open"]

    def deal(self) -> None:
        v = self.v
        v.say("roulette.no-more-bets", "italic")
        before = self.state
        self.state = state = self.game.step(before, Deal())
        if state.revealed and before.layout is not None:
            cards = [c for c in state.revealed]
            won = next(p for p in before.in_play if value(before.layout.cards[p - 1]) == value(cards[-1]))
            v.say("monte.revealed", "italic", cards=", ".join(spanish(c) for c in cards), won=won, lost=FACING[won])
        for b in state.bets:
            if b.state in ("done", "void") and b.id not in self.credited:
                self.credited.add(b.id)
                got = paid(b.returned)
                self.balance += got
                key = "roulette.bet-wins" if b.returned > b.amount else "roulette.bet-returned" if b.returned \
                    else "roulette.bet-loses"
                text = v.t(key, bet=bet_name(b.kind, b.on), amount=Money(b.amount), paid=Money(got))
                if b.deducted:
                    text += " " + v.t("monte.cut", amount=Money(paid(b.deducted)))
                v.console.print("  " + text)
        v.say("common.your-chips", amount=Money(self.balance))

    def parse(self, line: str) -> Stake:
        try:
            kind, on, amount = parse_mb_bet(line)
        except (ValueError, ZeroDivisionError) as exc:
            raise Refused(str(exc) if str(exc).startswith("monte.") else "monte.bad-line") from None
        return Stake(kind, tuple(on), amount)

    def bet_label(self, stake: Stake) -> str:
        return bet_name(stake.kind, stake.on)


@register_player("monte-banca")
def play_monte_banca(game: MonteBanca, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                     console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = table_rng(seed)
    table = MonteBancaTable(v, balance, game, game.open(jurisdiction, {"minimum": minimum}), rng)
    table.fresh_pack()
    banner(v, game, jurisdiction, rng, "roulette.welcome", minimum=minimum, balance=balance)
    play(table)


@register_player("casino-monte")
def play_casino_monte(game: CasinoMonte, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                      console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = table_rng(seed)
    rules = game.rules_for(jurisdiction)

    def new_shoe() -> list[str]:
        cards = [c.text for c in shoe_of(rules.decks)]
        rng.shuffle(cards)
        return cards[rules.opening_burn:]      # 003:5908-5910: the first five cards are burned

    state = game.open(jurisdiction, {"minimum": minimum, "cut-card": 52 * rules.decks - rules.opening_burn - rules.reserve})
    state.shoe = new_shoe()
    banner(v, game, jurisdiction, rng, "monte.cm-welcome", minimum=minimum, balance=balance)
    coup = 0

    def show_cards() -> None:
        mine = state.cards.get("box 1")
        dealer = state.cards.get("croupier")
        if mine and dealer:
            v.say("monte.cm-cards", "italic", n=coup, yours=pretty(mine), croupier=pretty(dealer))

    while True:
        line = v.read("monte.cm-prompt").lower()
        if line in QUIT_WORDS:
            v.say("common.goodbye", amount=Money(balance))
            return
        try:
            amounts = [round(Fraction(w.replace(",", ".")) * 100) for w in line.split()]
            if not 1 <= len(amounts) <= 2:
                raise ValueError
        except (ValueError, ZeroDivisionError):
            v.warn("monte.cm-bad-line")
            continue
        if sum(amounts) > balance:
            v.warn("common.you-have", amount=Money(balance))
            continue
        if state.last_coup:
            state = game.open(jurisdiction, state.table)
            state.shoe = new_shoe()
            v.say("monte.cm-new-shoe", "italic")
        coup += 1
        try:
            state = game.step(state, Bet(f"m{coup}", "you", "main", amounts[0], None, {"box": 1}))
            if len(amounts) == 2:
                state = game.step(state, Bet(f"t{coup}", "you", "tie", amounts[1], None, {"box": 1}))
            state = game.step(state, Deal())
            main = next(b for b in state.bets if b.id == f"m{coup}")
            show_cards()
            if main.state == "tied":
                rematch, give = v.plain("monte.choice-rematch"), v.plain("monte.choice-surrender")
                try:
                    picked = v.ask("monte.cm-tie", [rematch, give], amount=Money(main.amount))
                except Quit:                # leaving decides nothing: the tied stakes stay on the table
                    staked = sum(b.amount for b in state.bets if b.coup == state.coup and b.player == "you")
                    v.say("two.quit-abandoned", amount=Money(staked))
                    v.say("common.goodbye", amount=Money(balance - staked))
                    return
                state = game.step(state, Act("rematch" if picked == rematch else "surrender", bet=main.id))
            state = game.finish(state)
        except TapeteError as exc:
            v.error(exc, minimum=minimum)
            state.bets = [b for b in state.bets if b.coup != state.coup or b.state == "done"]
            continue
        settlement = game.settle(state)
        net = Fraction(0)
        for bet_id in (f"m{coup}", f"t{coup}"):
            if bet_id in settlement.bets:
                r = settlement.bets[bet_id]
                net += r.returned - r.staked
        got = int(net if net.denominator == 1 else -(-net // 1))
        balance += got
        key = "monte.cm-won" if got > 0 else "monte.cm-lost" if got < 0 else "monte.cm-even"
        v.say(key, net=Money(abs(got)), balance=Money(balance))
