"""The loop the bet-and-deal tables at the terminal share, written once: read a line; quit (the bets not yet dealt
taken back), help, the bets listing, clear, the deal or spin, the table's own commands, else a bet line (read,
checked against the balance, staked with the engine, told). What differs per table is a `BetTable` subclass: a
typed class, never hooks looked up by name. On top, `SpinTable` is what the spin tables share (roulette, boule, the
wheel of fortune: one outcome per spin from the table CSPRNG, the settled bets told, the balance panel shown again)
and `PrisonTable` the zero rule's question (roulette, trente et quarante).

Used by boule, wheel, roulette, trente_quarante, craps, monte (Monte o banca) and baccarat (punto y banca); the
tables whose rounds are questions to the player (blackjack, poker, chemin de fer...) keep their own loops."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.panel import Panel

from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Close, Outcome
from tapete.i18n import Money
from tapete.terminal.voice import QUIT_WORDS, Quit, Voice
from tapete.terminal.voice import limits as engine_limits

HELP_WORDS = ("help", "?", "ayuda")
LIST_WORDS = ("bets", "apuestas")
CLEAR_WORDS = ("clear", "retirar")


def table_rng(seed: str | None) -> TableRng:
    """The table's generator: replayed from `--seed`, else fresh."""
    return TableRng.from_hex(seed) if seed else TableRng()


def banner(v: Voice, game: Any, jurisdiction: str, rng: TableRng, welcome: str, *, minimum: int, balance: int,
           header: str = "roulette.header", **more: Any) -> None:
    """The opening panel: the game in the session language, the limits and chips, the seed to replay, the welcome."""
    name = game.name_es if v.lang != "en" else game.name_en
    v.console.print(Panel.fit(v.t(header, game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                  balance=Money(balance), **more) + "\n" + v.t("common.seed", seed=rng.seed.hex())
                              + "\n" + v.t(welcome)))


def paid(returned: Any) -> int:
    """What the player receives rounds up to the cent (docs/format.md)."""
    return int(-(-returned // 1))


def number_or_chance(line: str, aliases: dict[str, str], bad_line: str) -> tuple[str, tuple[int, ...] | None, int]:
    """A bet line of a spin table: a number or a named chance (`aliases`), then euros; else ValueError(bad_line).
    '7 5' -> ('number', (7,), 500); 'rojo 10' -> ('red', None, 1000)."""
    words = line.lower().replace(",", " ").split()
    if len(words) != 2 or not re.fullmatch(r"\d+(\.\d{1,2})?", words[1]):
        raise ValueError(bad_line)
    amount = round(Fraction(words[1]) * 100)
    if words[0].isdigit():
        return "number", (int(words[0]),), amount
    if words[0] not in aliases:
        raise ValueError(bad_line)
    return aliases[words[0]], None, amount


class Refused(Exception):
    """A typed bet line the table cannot read: the warning's message key and its values."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Left(Exception):
    """The player left at a question inside the deal (the table has told what stays and said goodbye)."""


@dataclass(frozen=True)
class Stake:
    """A bet line read: the kind, its target as the engine takes it, the amount in cents, the engine's extra fields;
    `surplus` what the line costs beyond the amount (an insured bet's premium, an announced bet's further chips)."""

    kind: str
    on: Any
    amount: int
    extra: dict[str, Any] = field(default_factory=dict)
    surplus: int = 0

    @property
    def cost(self) -> int:
        """What the player must have to place it."""
        return self.amount + self.surplus


class BetTable(ABC):
    """One table's part of the shared loop: `game` the engine's reducer, `state` its table state, `rng` the table
    CSPRNG; `balance` the player's chips off the table, in cents; `credited` the bets already paid to him."""

    help_key: ClassVar[str]
    placed_key: ClassVar[str] = "roulette.placed"
    deal_words: ClassVar[tuple[str, ...]]
    clear_words: ClassVar[tuple[str, ...]] = ()      # tables without a clear command read those words as bets
    refused_bet_uses_id: ClassVar[bool] = True       # craps: a bet the engine refused leaves its id to the next

    def __init__(self, v: Voice, balance: int, game: Any, state: Any, rng: TableRng) -> None:
        self.v = v
        self.balance = balance
        self.game = game
        self.state = state
        self.rng = rng
        self.counter = 0
        self.credited: set[str] = set()

    def read(self) -> str:
        return self.v.read("common.prompt")

    @abstractmethod
    def taken_back(self) -> int:
        """The stakes returned to a player who leaves now (bets not yet dealt)."""

    def help(self) -> None:
        self.v.console.print(self.v.t(self.help_key))

    def command(self, low: str) -> bool:
        """A table's own command (American roulette's colour chips): True when the line was one, and done."""
        return False

    def leave(self) -> None:
        """The player quits between coups: what he leaves with."""
        self.v.say("common.goodbye", amount=Money(self.balance + self.taken_back()))

    def list_bets(self) -> None:
        """The bets listing: one line each, or that there are none."""
        lines = self.bet_lines()
        if not lines:
            self.v.say("common.no-bets")
        for text in lines:
            self.v.console.print("  " + text)

    def bet_lines(self) -> list[str]:
        """The player's bets, one sentence each (tables that keep the default listing)."""
        raise NotImplementedError

    def clear(self) -> None:
        """Take back the bets not yet dealt (tables with `clear_words`)."""
        raise NotImplementedError

    @abstractmethod
    def deal(self) -> None:
        """The coup or spin, its settlement told, `balance` credited; `Left` when the player left at a question."""

    @abstractmethod
    def parse(self, line: str) -> Stake:
        """The bet line read, or `Refused`."""

    def stake(self, bet: Bet) -> None:
        """The bet given to the engine; a `TapeteError` leaves the table as it was."""
        self.state = self.game.step(self.state, bet)

    def limits(self, kind: str) -> tuple[int | None, int | None]:
        """The minimum and maximum told with a refused bet of `kind`, where the table knows them."""
        return None, None

    def refuse(self, exc: TapeteError, stake: Stake) -> None:
        """The engine refused the bet: told as a sentence, with the table's limits for its kind."""
        low, high = self.limits(stake.kind)
        self.v.error(exc, minimum=low, maximum=high)

    @abstractmethod
    def bet_label(self, stake: Stake) -> str:
        """The bet just placed, in the session language."""

    def as_placed(self, stake: Stake) -> Stake:
        """The bet as the engine holds it once placed (what the balance pays and the player is told)."""
        return stake

    def placed_message(self, stake: Stake) -> str:
        """The message key telling a bet placed."""
        return self.placed_key


def play(table: BetTable) -> None:
    """The loop until the player leaves."""
    while True:
        line = table.read()
        low = line.lower()
        if low in QUIT_WORDS:
            table.leave()
            return
        if low in HELP_WORDS:
            table.help()
        elif low in LIST_WORDS:
            table.list_bets()
        elif low in table.clear_words:
            table.clear()
        elif low in table.deal_words:
            try:
                table.deal()
            except Left:
                return
        elif not table.command(low):
            place(table, line)


def place(table: BetTable, line: str) -> None:
    """A bet line: read, checked against the chips, staked, told; each refusal one sentence."""
    v = table.v
    try:
        stake = table.parse(line)
    except Refused as exc:
        v.warn(exc.key, **exc.params)
        return
    if stake.cost > table.balance:
        v.warn("common.you-have", amount=Money(table.balance))
        return
    try:
        table.stake(Bet(f"b{table.counter + 1}", "you", stake.kind, stake.amount, stake.on, stake.extra))
    except TapeteError as exc:
        if table.refused_bet_uses_id:
            table.counter += 1
        table.refuse(exc, stake)
        return
    table.counter += 1
    placed = table.as_placed(stake)
    table.balance -= placed.cost
    v.say(table.placed_message(placed), bet=table.bet_label(placed), amount=Money(placed.amount),
          balance=Money(table.balance))


class PrisonTable(BetTable):
    """A table with the zero rule (roulette's zero, trente et quarante's 31 after 31): a simple chance caught by it
    goes to prison or gets half back, as the player answers (or to prison when the rules lock it); a bet in prison
    stays on the table, lost to a player who leaves."""

    locked_key: ClassVar[str]      # the bet locked into prison
    ask_key: ClassVar[str]         # the question: prison or half back

    def held(self) -> int:
        return sum(b.amount for b in self.state.bets if b.phase in ("prison", "choice"))

    def leave(self) -> None:
        if self.held():
            self.v.say("roulette.quit-prison", amount=Money(self.held()))
        super().leave()

    @abstractmethod
    def describe(self, bet: Any) -> str:
        """A bet on the table, in the session language."""

    @abstractmethod
    def half_back(self, bet: Any) -> int:
        """What the player gets back when he takes half."""

    def zero_rule(self) -> None:
        """Each bet the zero caught: its question asked and answered; `Left` when the player leaves instead."""
        v = self.v
        for b in self.state.bets:
            if b.phase != "choice":
                continue
            if b.locked:
                verb = "prison"
                v.console.print("  " + v.t(self.locked_key, bet=self.describe(b), amount=Money(b.amount)))
            else:
                prison, half = v.plain("roulette.choice-prison"), v.plain("roulette.choice-half")
                try:
                    picked = v.ask(self.ask_key, [prison, half], bet=self.describe(b), amount=Money(b.amount))
                except Quit:                 # leaving decides nothing: the bet stays on the table
                    v.say("roulette.quit-prison", amount=Money(self.held()))
                    v.say("common.goodbye", amount=Money(self.balance))
                    raise Left from None
                verb = "half" if picked == half else "prison"
            self.state = self.game.step(self.state, Act(verb, bet=b.id))
            if verb == "half":
                self.credited.add(b.id)
                back = self.half_back(b)
                self.balance += back
                v.say("roulette.half-back", amount=Money(back))
            else:
                v.say("roulette.to-prison", bet=self.describe(b), amount=Money(b.amount))


class SpinTable(BetTable):
    """A table of one outcome per spin (roulette, boule, the wheel of fortune): bets ride until the spin, which settles
    them; a spin with nothing to decide is refused."""

    clear_words = CLEAR_WORDS
    aliases: ClassVar[dict[str, str]]        # the chances' words, Spanish and English, to the engine's kinds
    bad_line: ClassVar[str]                  # the message for a line that is no bet

    @classmethod
    def run(cls, v: Voice, game: Any, jurisdiction: str, *, minimum: int, balance: int, seed: str | None) -> None:
        """A session at this table: opened, the banner and the empty cloth shown, then the shared loop."""
        rng = table_rng(seed)
        state = game.open(jurisdiction, {"minimum": minimum})
        banner(v, game, jurisdiction, rng, "roulette.welcome", minimum=minimum, balance=balance)
        table = cls(v, balance, game, state, rng)
        table.show()
        play(table)

    def parse(self, line: str) -> Stake:
        try:
            kind, on, amount = number_or_chance(line, self.aliases, self.bad_line)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        return Stake(kind, on, amount)

    def riding(self) -> list[Any]:
        return [b for b in self.state.bets if b.phase == "riding"]

    def taken_back(self) -> int:
        return sum(b.amount for b in self.riding())       # bets not yet spun: taken back

    def bet_lines(self) -> list[str]:
        return [self.v.t("bac.bet-line", id=b.id, bet=self.describe(b), amount=Money(b.amount)) for b in self.riding()]

    def clear(self) -> None:
        back = self.taken_back()
        self.balance += back
        self.state.bets = [b for b in self.state.bets if b.phase != "riding"]
        self.v.say("roulette.cleared", amount=Money(back), balance=Money(self.balance))

    def limits(self, kind: str) -> tuple[int | None, int | None]:
        return engine_limits(self.game, self.state, kind)

    def pending(self) -> bool:
        """Whether a spin has anything to decide."""
        return bool(self.riding())

    def deal(self) -> None:
        if not self.pending():
            self.v.say("common.no-bets", "yellow")
            return
        self.announce()
        self.state = self.game.step(self.state, Close())
        outcome = self.draw()
        self.state = self.game.step(self.state, Outcome("spin", outcome))
        self.call(outcome)
        self.settle()
        self.show()

    def settle(self) -> None:
        """The bets the spin decided: told, paid, cleared from the cloth."""
        v = self.v
        for b in self.state.bets[:]:
            if b.phase == "done":
                got = paid(b.returned)
                self.balance += got
                key = "roulette.bet-wins" if got else "roulette.bet-loses"
                v.console.print("  " + v.t(key, bet=self.describe(b), amount=Money(b.amount), paid=Money(got)))
        self.state.bets = [b for b in self.state.bets if b.phase != "done"]

    def show(self) -> None:
        """The table and the last results under the player's balance."""
        v = self.v
        v.console.print(Panel(Group(*self.panel()), title=v.plain("common.balance-title", balance=v.money(self.balance)),
                              expand=False))

    @abstractmethod
    def panel(self) -> list[RenderableType]:
        """What the balance panel shows: the cloth, the last results."""

    @abstractmethod
    def describe(self, bet: Any) -> str:
        """A bet on the table, in the session language."""

    @abstractmethod
    def announce(self) -> None:
        """The croupier's words before the spin."""

    @abstractmethod
    def draw(self) -> Any:
        """The outcome from the table CSPRNG, as the engine takes it."""

    @abstractmethod
    def call(self, outcome: Any) -> None:
        """The croupier calls the outcome."""
