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
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.engine.shoe import Shoe
from tapete.games.baccarat import tableau
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.session import BetTable, Refused, Stake, banner, paid, play, table_rng
from tapete.terminal.voice import QUIT_WORDS, Quit, Voice, voice

SUITS = {"S": ("♠", "white"), "C": ("♣", "white"), "H": ("♥", "red"), "D": ("♦", "red")}
PB_ALIASES = {"punto": "player", "player": "player", "p": "player", "banca": "banker", "banker": "banker",
              "b": "banker", "empate": "tie", "igualdad": "tie", "tie": "tie", "t": "tie"}


def cards_text(cards: list[str]) -> Text:
    out = Text()
    for c in cards:
        symbol, colour = SUITS[c[-1]]
        rank = "10" if c[0] == "T" else c[0]
        out.append(f" {rank}{symbol} ", style=f"bold {colour} on grey15")
        out.append(" ")
    return out


def euros_amount(text: str) -> int:
    text = text.replace(",", ".")
    if not re.fullmatch(r"\d+(\.\d{1,2})?", text):
        raise ValueError("common.bad-amount")
    return round(Fraction(text) * 100)


def hands_panel(number: int, punto: list[str], banca: list[str]) -> Panel:
    v = voice()
    table = Table.grid(padding=(0, 2))
    table.add_row(Text("PUNTO", style="bold blue"), cards_text(punto), Text(str(tableau.total(punto)), style="bold"))
    table.add_row(Text("BANCA", style="bold red"), cards_text(banca), Text(str(tableau.total(banca)), style="bold"))
    return Panel(table, title=v.plain("bac.coup", n=number), expand=False)


def who(name: str, key: str, **params: object) -> str:
    """A sentence about a player: the `you` form for the player, the third person for the others (whole sentences)."""
    v = voice()
    return v.t(f"{key}.you" if name == "you" else f"{key}.other", name=name, **params)


# -- punto y banca ---------------------------------------------------------------------------------------------
class PuntoBancaTable(BetTable):
    """Punto y banca's part of the shared loop: bets on punto, banca or the tie where the jurisdiction has it; a coup
    dealt from the shoe, a new shoe when the stop card came out; each event applied in place."""

    help_key = "bac.pb-help"
    placed_key = "bac.placed"
    deal_words = ("", "deal", "d", "cartas", "repartir")

    def mine(self) -> list:
        return [b for b in self.state.bets if b.final == "open"]

    def taken_back(self) -> int:
        return sum(b.amount for b in self.mine())        # bets not yet dealt are taken back

    def bet_lines(self) -> list[str]:
        v = self.v
        return [v.t("bac.bet-line", id=b.id, bet=v.plain("bac.kind." + b.kind), amount=Money(b.amount))
                for b in self.mine()]

    def deal(self) -> None:
        v, game, state = self.v, self.game, self.state
        if state.stop_card_out:
            burned = game.new_shoe(state, self.rng)
            v.say("bac.stop-card", "dim", n=len(burned))
        mine = self.mine()
        game.apply(state, Deal())
        coup = state.coups[-1]
        v.console.print(hands_panel(coup.number, coup.player, coup.bank))
        pt, bt = tableau.total(coup.player), tableau.total(coup.bank)
        v.say("bac.winner." + coup.winner, "italic", punto=pt, banca=bt)
        for b in state.bets:
            if any(m.id == b.id for m in mine):
                back = paid(b.returned)
                self.balance += back
                key = "bac.bet-wins" if b.returned > b.amount else "bac.bet-push" if b.returned == b.amount \
                    else "bac.bet-loses"
                v.console.print("  " + v.t(key, bet=v.plain("bac.kind." + b.kind), amount=Money(b.amount),
                                           paid=Money(back)))
        v.console.print(v.t("bac.pb-balance", balance=Money(self.balance), seat=state.sabot_seat))

    def parse(self, line: str) -> Stake:
        words = line.lower().split()
        try:
            if len(words) != 2 or words[0] not in PB_ALIASES:
                raise ValueError("bac.pb-bad-bet")
            kind, amount = PB_ALIASES[words[0]], euros_amount(words[1])
        except ValueError as exc:
            raise Refused(str(exc)) from None
        if kind not in self.game.rules[self.state.jurisdiction].kinds:
            raise Refused("bac.no-such-bet", bet=words[0], jurisdiction=self.state.jurisdiction)
        return Stake(kind, None, amount)

    def stake(self, bet: Bet) -> None:
        self.game.apply(self.state, bet)

    def limits(self, kind: str) -> tuple[int | None, int | None]:
        return self.state.minimum, self.state.maximum

    def bet_label(self, stake: Stake) -> str:
        return self.v.plain("bac.kind." + stake.kind)


@register_player("punto-banca")
def play_punto_banca(game, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,  # noqa: ANN001
                     console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = table_rng(seed)
    state = game.open(jurisdiction, {"minimum": minimum})
    banner(v, game, jurisdiction, rng, "bac.pb-welcome", header="bac.pb-header", minimum=minimum, balance=balance,
           maximum=Money(state.maximum))
    burned = game.new_shoe(state, rng)
    v.say("bac.new-shoe", "dim", card=burned[0], n=len(burned))
    play(PuntoBancaTable(v, balance, game, state, rng))


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

    def takes(self, least: int, stage: str) -> int | None:
        """Whether he takes a free bank he is offered, and with how much: a big bank given up is often declined."""
        if stage == "last-resort":
            return least                  # he must take it for the minimum or give up his seat (001:769)
        if stage == "back":
            return least if self.rng.randbelow(2) == 0 else None
        if self.rng.randbelow(5 if least <= 30 * self.minimum else 2) == 0:
            return None
        return max(self.bank_amount(), least)

    def bids(self, least: int) -> int | None:
        """A bid at the auction, or none."""
        return None if self.rng.randbelow(2) else max(least, self.minimum * (5 + self.rng.randbelow(20)))

    def passes(self, coups: int) -> bool:
        return coups >= 3 and self.rng.randbelow(4) == 0


@register_player("chemin-de-fer")
def play_chemin_de_fer(game, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,  # noqa: ANN001
                       console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    robot = Robot(rng, minimum)
    state = game.open(jurisdiction, {"minimum": minimum, "departments": SEATS})
    rules = game.rules[jurisdiction]
    state.shoe = Shoe.shuffled(rng, decks=rules.decks, cut_from_end=rules.cards_below_stop)
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("bac.cf-header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                cap=Money(100 * minimum), balance=Money(balance)) + "\n"
                            + v.t("common.seed", seed=rng.seed.hex()) + "\n" + v.t("bac.cf-welcome", seat=YOU)))
    counter = 0

    def ask(key: str, **params: object) -> str:
        return v.read(key, **params).lower()

    def named(seat: int) -> str:
        return v.plain("poker.you-name") if NAMES[seat] == "you" else NAMES[seat]

    while True:
        if state.stop_card_out:         # a new talla; the banker in place keeps his bank (001:870)
            state.shoe = Shoe.shuffled(rng, decks=rules.decks, cut_from_end=rules.cards_below_stop)
            state.stop_card_out = False
            v.say("bac.cf-new-shoe", "dim")
        bank = state.bank()
        if bank is None:
            balance, counter, left = _award_bank(game, state, robot, v, ask, balance, counter)
            if left:
                break
            bank = state.bank()
            if bank is None:                 # nobody at all would hold it: the partida waits (cannot happen here)
                break
            console.print(who(bank.player, "bac.takes-bank", amount=Money(int(bank.holding))))
            continue
        banker_seat = bank.seat or 0
        in_play = int(game.in_play(state, bank))
        console.print(Panel.fit(who(NAMES[banker_seat], "bac.holds-bank", amount=Money(int(bank.holding)),
                                    play=Money(in_play)) + "   " + v.t("bac.your-chips", amount=Money(balance))))
        mine: list[str] = []
        for seat in [(banker_seat + i - 1) % SEATS + 1 for i in range(1, SEATS)]:
            counter += 1
            if seat == YOU:
                while True:                         # a stake the table refuses is asked again
                    answer = ask("bac.cf-stake", play=Money(in_play))
                    if answer in QUIT_WORDS:
                        return _leave(game, state, balance, v)
                    if not answer:
                        break
                    call = answer == "banco"
                    try:
                        amount = in_play if call else euros_amount(answer)
                        if amount > balance:
                            v.warn("common.you-have", amount=Money(balance))
                            continue
                        game.apply(state, Bet(f"s{counter}", "you", "player", amount, None, {"seat": seat}))
                        if call:
                            game.apply(state, Act("banco", bet=f"s{counter}"))
                    except ValueError as exc:
                        v.warn(str(exc))
                        continue
                    except TapeteError as exc:
                        v.error(exc, minimum=minimum, maximum=in_play)
                        continue
                    balance -= amount
                    mine.append(f"s{counter}")
                    break
            else:
                amount, call = robot.stake(in_play)
                game.apply(state, Bet(f"s{counter}", NAMES[seat], "player", amount, None, {"seat": seat}))
                if call:
                    game.apply(state, Act("banco", bet=f"s{counter}"))
                    v.say("bac.calls-banco", name=NAMES[seat])
        if not any(s.coup == len(state.coups) + 1 and s.final == "open" for s in state.stakes):
            v.say("bac.nobody-punts")
            continue
        game.apply(state, Deal())
        coup = state.current
        holder = next(s for s in state.stakes if s.id == coup.holder)
        bank_id = bank.id
        console.print(who(holder.player, "bac.punto-cards"))
        if holder.player == "you":
            console.print(Text(v.plain("bac.your-cards") + " ").append_text(cards_text(coup.punto.cards))
                          .append(f"= {coup.punto.total()}"))
        while True:
            due = game.due(state)
            if due is None:
                break
            coup = state.current                     # every step works on a copy: read the live coup
            card, no = v.plain("two.card"), v.plain("two.no-card")
            if due == "player":
                if holder.player == "you":
                    try:
                        draw = v.ask("bac.cf-draw-ask", [card, no]) == card
                    except Quit:                     # leaving decides nothing: the stake stays on the table
                        return _abandon(state, mine, bank, balance, v)
                else:
                    draw = False                     # the croupier's advice on 5 (001:813)
                game.apply(state, Act("draw" if draw else "stand", by="player"))
            else:
                if bank.player == "you":
                    suggestion = card if coup.banker.total() <= 5 else no
                    punto = (v.plain("bac.punto-drew", card=coup.punto.cards[2]) if coup.punto.drew
                             else v.plain("bac.punto-stood"))
                    console.print(Text(v.plain("bac.your-cards") + " ").append_text(cards_text(coup.banker.cards))
                                  .append(f"= {coup.banker.total()}   ({punto})"))
                    try:
                        draw = v.ask("bac.cf-bank-draw-ask", [card, no], advice=suggestion) == card
                    except Quit:                     # leaving decides nothing: the bank stays on the table
                        return _abandon(state, mine, bank, balance, v)
                else:
                    draw = tableau.cell(tableau.T_CF, coup.banker.total(), coup.punto.column()) != "P"
                game.apply(state, Act("draw" if draw else "stand", by="bank"))
        coup = state.coups[-1]
        bank = next(b for b in state.banks if b.id == bank_id)
        console.print(hands_panel(coup.number, coup.punto.cards, coup.banker.cards))
        for s in state.stakes:
            if s.id in mine:
                balance += paid(s.returned)
                v.say("bac.your-stake", amount=Money(s.amount), returned=Money(paid(s.returned)))
        if not bank.active:
            if bank.player == "you":
                back = paid(bank.returned(bank.id))
                balance += back
                v.say("bac.your-bank-ends", amount=Money(back))
            continue
        if bank.player == "you":
            answer = ask("bac.cf-bank-again", amount=Money(int(bank.holding)))
            if answer in ("pass", "paso", *QUIT_WORDS):
                game.apply(state, Act("pass", bet=bank.id))
                bank = next(b for b in state.banks if b.id == bank_id)
                back = paid(bank.returned(bank.id))
                balance += back
                v.say("bac.you-pass", amount=Money(back))
                if answer in QUIT_WORDS:
                    break
        elif robot.passes(bank.coups):
            game.apply(state, Act("pass", bet=bank.id))
            v.say("bac.passes", "italic", name=NAMES[banker_seat])
        v.say("common.your-chips", amount=Money(balance))
    _leave(game, state, balance, v)


def _award_bank(game, state, robot: Robot, v: Voice, ask: Callable[..., str], balance: int,  # noqa: ANN001
                counter: int) -> tuple[int, int, bool]:
    """A free bank goes round as the catalog says (R: docs/rulings.md#chemin-bank-award): each seat from the one in
    turn is asked and may decline, then the player who gave it up may take it back for the same amount, then it is
    auctioned; after a mano pasada nobody bidding, the seat at the passer's right takes it for the minimum. Returns
    the balance, the bet counter and whether the player left."""
    cap = 100 * state.minimum
    mine: list[str] = []

    def offer(seat: int, amount: int, auction: bool = False) -> None:
        nonlocal counter, balance
        counter += 1
        extra: dict[str, object] = {"seat": seat}
        if auction:
            extra["auction"] = True
        game.apply(state, Bet(f"k{counter}", NAMES[seat], "bank", amount, None, extra))
        if NAMES[seat] == "you":
            balance -= amount
            mine.append(f"k{counter}")

    def your_amount(key: str, least: int) -> int | None | bool:
        """The amount you put up, None to decline, False to leave."""
        while True:
            answer = ask(key, low=Money(least), high=Money(min(balance, cap)))
            if answer in QUIT_WORDS:
                return False
            if not answer:
                return None
            try:
                amount = euros_amount(answer)
            except ValueError as exc:
                v.warn(str(exc))
                continue
            if amount > balance:
                v.warn("common.you-have", amount=Money(balance))
            elif not least <= amount <= cap:
                v.warn("bac.cf-bank-range", low=Money(least), high=Money(cap))
            else:
                return amount

    taken = False
    for stage, seat, least in game.asking_order(state):
        if stage in ("rotation", "back", "last-resort") and seat is not None:
            if NAMES[seat] == "you":
                key = {"rotation": "bac.cf-bank-offer", "back": "bac.cf-bank-back",
                       "last-resort": "bac.cf-bank-last"}[stage]
                amount = your_amount(key, least)
                if amount is False:
                    return balance, counter, True
            else:
                amount = robot.takes(least, stage)
            if amount is None:
                v.console.print(who(NAMES[seat], "bac.declines"), style="dim")
                continue
            offer(seat, int(amount))
            taken = True
            break
        if stage == "auction":
            v.say("bac.auction", "italic")
            for bidder in range(1, SEATS + 1):
                if not game.may_bid(state, NAMES[bidder]):
                    continue
                if NAMES[bidder] == "you":
                    amount = your_amount("bac.cf-bank-bid", least)
                    if amount is False:
                        return balance, counter, True
                else:
                    amount = robot.bids(least)
                if amount is not None:
                    offer(bidder, int(amount), auction=True)
                    taken = True
            if taken:
                break
    if taken:
        game.award_now(state)
        for o in state.offers:
            if o.id in mine and o.final == "void":
                balance += o.amount
    return balance, counter, False


def _abandon(state, mine: list[str], bank, balance: int, v: Voice) -> None:  # noqa: ANN001
    """Leaving in the middle of a coup: nothing is decided for the player; his stakes (or his bank) stay."""
    left = sum(s.amount for s in state.stakes if s.id in mine)
    if bank.player == "you":
        left += int(bank.holding)
    v.say("two.quit-abandoned", amount=Money(left))
    v.say("common.goodbye", amount=Money(balance))


def _leave(game, state, balance: int, v: Voice) -> None:  # noqa: ANN001
    """Leaving between coups: the player's bank is paid back and his stakes not yet dealt are taken back."""
    bank = state.bank()
    if bank is not None and bank.player == "you":
        balance += paid(bank.returned(bank.id))
    balance += sum(s.amount for s in state.stakes if s.final == "open" and s.player == "you")
    v.say("common.goodbye", amount=Money(balance))
