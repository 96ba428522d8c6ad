"""The house-banked poker tables at the terminal: sin descarte, Trijoker, Tripóquer and Pai Gow.

Each round is dealt from a freshly shuffled deck (the table CSPRNG); the engine's reducer takes the bets and the
decisions; the terminal tells the cards and the results from the state in the session's language, and the
settlement moves the running balance. Quitting in the middle of a round asks first and never decides for the
player: the round is abandoned and what is on the table stays there.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal, Outcome
from tapete.games.poker import evaluator as ev
from tapete.games.poker.banked import BankedGame, BankedState, pretty
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.voice import QUIT_WORDS, Quit, voice

AMOUNT = r"(\d+(?:[.,]\d{1,2})?)"


class Leave(Exception):
    """The player confirmed leaving in the middle of a round: nothing is decided for him."""


def cards_text(cards: list[str], hidden: int = 0) -> Text:
    text = Text()
    for c in cards:
        style = "bold red on white" if c[1:] in ("H", "D") else "bold magenta on white" if c[0] == "X" else "bold black on white"
        text.append(f" {pretty(c)} ", style=style)
        text.append(" ")
    for _ in range(hidden):
        text.append(" ▒▒ ", style="white on blue")
        text.append(" ")
    return text


def cents(text: str) -> int:
    return round(Fraction(text.replace(",", ".")) * 100)


def hand_name(cards: list[str]) -> str:
    """The poker hand of five (or three) cards in the session language; '' where there is no single name."""
    try:
        strength = ev.rank5(cards) if len(cards) == 5 else ev.rank3(cards) if len(cards) == 3 else None
        return voice().plain("poker.hand." + ev.category(strength)) if strength is not None else ""
    except (ValueError, KeyError):
        return ""


class Session:
    """One player at a banked poker table: the state, the deck per round, the balance, the table's voice."""

    def __init__(self, game: BankedGame, jurisdiction: str, minimum: int, balance: int, seed: str | None,
                 console: Console, read: Callable[[str], str], table: dict[str, Any] | None = None) -> None:
        self.game, self.console, self.read = game, console, read
        self.v = voice(console, read)
        self.rng = TableRng.from_hex(seed) if seed else TableRng()
        self.state: BankedState = game.open(jurisdiction, {"minimum": minimum, **(table or {})})
        self.start = self.balance = balance
        self.counter = 0
        self.paid: set[str] = set()

    def hello(self, key: str, **params: Any) -> None:
        cfg = self.state.config
        v = self.v
        name = self.game.name_es if v.lang != "en" else self.game.name_en
        self.console.print(Panel.fit(
            v.t("blackjack.header", game=name, jurisdiction=self.state.jurisdiction, minimum=Money(cfg["minimum"]),
                maximum=Money(cfg["maximum"]), balance=Money(self.balance)) + "\n"
            + v.t("common.seed", seed=self.rng.seed.hex()) + "\n" + v.t(key, **params) + "\n" + v.t("blackjack.welcome")))

    def ask(self) -> str:
        return self.v.read("common.prompt").lower()

    def decide(self) -> str:
        """A decision in the middle of a round: quit asks first and, confirmed, leaves without deciding."""
        while True:
            line = self.ask()
            if line not in QUIT_WORDS:
                return line
            yes, no = self.v.plain("common.yes"), self.v.plain("common.no")
            try:
                sure = self.v.ask("banked.quit-ask", [yes, no], amount=Money(self.on_table_cost()))
            except Quit:
                sure = yes
            if sure == yes:
                raise Leave

    def step(self, event: Any) -> bool:
        try:
            self.state = self.game.step(self.state, event)
        except TapeteError as exc:
            cfg = self.state.config
            self.v.error(exc, minimum=cfg.get("minimum"), maximum=cfg.get("maximum"))
            return False
        return True

    def bet(self, kind: str, amount: int, box: int = 1, cost: int | None = None) -> bool:
        need = amount if cost is None else cost
        free = self.balance - self.on_table_cost()
        if need > free:
            self.v.warn("banked.free", amount=Money(free))
            return False
        self.counter += 1
        if self.state.round is None:                 # a new round: a freshly shuffled deck
            self.game.new_deck(self.state, self.rng)
        ok = self.step(Bet(f"b{self.counter}", "you", kind, amount, None, {"box": box}))
        if ok:
            self.v.say("banked.placed", bet=self.v.plain(f"banked.kind.{kind}"), box=box, amount=Money(amount),
                       balance=Money(self.balance - self.on_table_cost()))
        return ok

    def on_table_cost(self) -> int:
        return sum(self.cost(b) for b in self.state.live())

    def cost(self, b: Any) -> int:
        return 3 * b.amount if self.game.id == "trijoker" else b.amount

    def deal(self) -> bool:
        if not self.state.live():
            self.v.say("common.no-bets", "yellow")
            return False
        return self.step(Deal())

    def settle(self) -> None:
        """Resolve the round (the defaults the rules give to decisions nobody had to make) and pay."""
        before = self.state.round
        state = self.game.finish(copy.deepcopy(self.state))
        self.state = state
        rnd = state.round or before
        v = self.v
        if rnd is not None and "croupier" in rnd.hands:
            cards = rnd.hands["croupier"]
            name = hand_name(cards)
            line = Text(v.plain("blackjack.dealer") + "  ").append_text(cards_text(cards))
            self.console.print(line.append(f"  {name}" if name else ""))
        for b in state.bets:
            if b.final in ("settled", "void") and b.id not in self.paid:
                self.paid.add(b.id)
                net = b.returned - b.staked
                self.balance += int(net) if net.denominator == 1 else round(net)
                key = "banked.won" if net > 0 else "banked.lost" if net < 0 else "banked.even"
                self.console.print("  " + v.t(key, bet=v.plain(f"banked.kind.{b.kind}"), box=b.box,
                                              net=Money(abs(net))))
        v.say("common.your-chips", amount=Money(self.balance))
        if state.meter is not None:
            v.say("banked.carousel", amount=Money(state.meter))

    def goodbye(self) -> None:
        self.v.say("common.goodbye", amount=Money(self.balance))

    def mine(self, kind: str) -> Any:
        return next((b for b in self.state.live() if b.kind == kind), None)


def table_loop(s: Session, help_key: str, turn: Callable[[Session], None], place: Callable[[Session, str], None],
               deal: Callable[[Session], bool] = Session.deal) -> None:
    """The table's life at the prompt: quit, help and deal are the same at every banked poker table; a deal is
    followed by the player's `turn` and the settlement; any other line is the game's bets (`place`)."""
    while True:
        line = s.ask()
        if line in QUIT_WORDS:
            s.goodbye()                   # between rounds: bets not yet dealt are never taken from the balance
            return
        if line in ("help", "?", "ayuda"):
            s.console.print(s.v.t(help_key))
            continue
        if line in ("", "deal", "repartir"):
            if deal(s):
                try:
                    turn(s)
                except Leave:
                    left = s.on_table_cost()
                    s.v.say("banked.abandoned", amount=Money(left))
                    s.v.say("common.goodbye", amount=Money(s.balance - left))
                    return
                s.settle()
            continue
        place(s, line)


# ------------------------------------------------------------------------------------------------ sin descarte
def _sin_descarte_turn(s: Session) -> None:
    v = s.v
    rnd = s.state.round
    assert rnd is not None
    ante = s.mine("ante")
    hand = rnd.hands[str(ante.box)]
    s.console.print(Text(v.plain("banked.you") + " ").append_text(cards_text(hand)).append(f"  {hand_name(hand)}"))
    s.console.print(Text(v.plain("blackjack.dealer") + " ").append_text(cards_text([rnd.data["upcard"]], hidden=4)))
    while True:
        line = s.decide()
        if line in ("help", "?", "ayuda"):
            s.console.print(v.t("banked.sd-help"))
            continue
        m = re.fullmatch(r"(?:buy|compro|comprar)\s+(\w\w)", line)
        if m:
            card = m.group(1).upper().replace("10", "T")
            if ante.amount > s.balance - s.on_table_cost():
                v.warn("banked.no-chips-buy")
            elif s.step(Act("buy", bet=ante.id, fields={"cards": [card]})):
                v.say("banked.bought")
            continue
        if line in ("voy", "call", "v"):
            if 2 * ante.amount > s.balance - s.on_table_cost():
                v.warn("banked.no-chips-call")
                continue
            s.step(Act("call", bet=ante.id))
            return
        if line in ("paso", "fold", "p"):
            s.step(Act("fold", bet=ante.id))
            return
        v.warn("banked.sd-bad")


@register_player("poker-sin-descarte")
def play_sin_descarte(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                      console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello("banked.sd-hello", seguro=Money(s.state.config["insurance"]))
    table_loop(s, "banked.sd-help", _sin_descarte_turn, _sin_descarte_bet)


def _sin_descarte_bet(s: Session, line: str) -> None:
    if line == "seguro":
        ante = s.mine("ante")
        s.bet("insurance", s.state.config["insurance"], ante.box if ante else 1)
        return
    if line in ("jackpot", "bote"):
        ante = s.mine("ante")
        s.bet("jackpot", s.state.config.get("jackpot-stake") or 100, ante.box if ante else 1)
        return
    m = re.fullmatch(rf"(?:ante\s+)?{AMOUNT}(?:\s+(?:box|casilla)\s+(\d))?", line)
    if not m:
        s.v.warn("banked.sd-bad-bet")
        return
    s.bet("ante", cents(m.group(1)), int(m.group(2) or 1), cost=3 * cents(m.group(1)))


# ------------------------------------------------------------------------------------------------ trijoker
def _trijoker_turn(s: Session) -> None:
    v = s.v
    rnd = s.state.round
    assert rnd is not None
    bet = s.mine("main")
    own = rnd.hands[str(bet.box)]
    for n, shown in ((1, []), (2, rnd.hands["left"])):
        s.console.print(Text(v.plain("banked.you") + " ").append_text(cards_text(own)).append("   " + v.plain("banked.common") + " ")
                        .append_text(cards_text(shown, hidden=2 - len(shown))))
        v.say("banked.tj-ask", n=n)
        while True:
            line = s.decide()
            verb = {"k": "keep", "keep": "keep", "m": "keep", "mantener": "keep", "w": "withdraw", "withdraw": "withdraw",
                    "r": "withdraw", "retirar": "withdraw"}.get(line)
            if line in ("help", "?", "ayuda"):
                s.console.print(v.t("banked.tj-help"))
                continue
            if verb and s.step(Act(verb, bet=bet.id)):
                break
            if not verb:
                v.warn("banked.tj-bad")
    s.console.print(Text(v.plain("banked.common-cards") + " ").append_text(cards_text(rnd.hands["left"] + rnd.hands["right"])))


@register_player("trijoker")
def play_trijoker(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                  console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello("banked.tj-hello")
    table_loop(s, "banked.tj-help", _trijoker_turn, _trijoker_bet)


def _trijoker_bet(s: Session, line: str) -> None:
    m = re.fullmatch(rf"{AMOUNT}(?:\s+(?:box|casilla)\s+(\d))?", line)
    if not m:
        s.v.warn("banked.tj-bad-bet")
        return
    s.bet("main", cents(m.group(1)), int(m.group(2) or 1), cost=3 * cents(m.group(1)))


# ------------------------------------------------------------------------------------------------ tripóquer
@register_player("tripoker")
def play_tripoker(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                  console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello("banked.tp-hello")
    table_loop(s, "banked.tp-help", _tripoker_turn, _tripoker_bet)


def _tripoker_turn(s: Session) -> None:
    v = s.v
    rnd = s.state.round
    assert rnd is not None
    box = s.state.live()[0].box
    hand = rnd.hands[str(box)]
    s.console.print(Text(v.plain("banked.you") + " ").append_text(cards_text(hand)).append(f"  {hand_name(hand)}"))
    s.console.print(Text(v.plain("blackjack.dealer") + " ").append_text(cards_text([], hidden=3)))
    ante = s.mine("ante")
    while ante is not None:
        line = s.decide()
        if line in ("bet", "call", "b", "play", "apostar", "voy", "a"):
            if ante.amount > s.balance - s.on_table_cost():
                v.warn("banked.no-chips-bet")
                continue
            s.step(Act("call", bet=ante.id))
            return
        if line in ("fold", "f", "rendir", "r"):
            s.step(Act("fold", bet=ante.id))
            return
        v.warn("banked.tp-bad")


def _tripoker_bet(s: Session, line: str) -> None:
    m = re.fullmatch(rf"(ante|fortune|fortuna)?\s*{AMOUNT}", line)
    if not m:
        s.v.warn("banked.tp-bad-bet")
        return
    kind = "fortune" if m.group(1) in ("fortune", "fortuna") else "ante"
    s.bet(kind, cents(m.group(2)), 1, cost=(2 if kind == "ante" else 1) * cents(m.group(2)))


# ------------------------------------------------------------------------------------------------ Pai Gow
def _pai_gow_turn(s: Session) -> None:
    v = s.v
    rnd = s.state.round
    assert rnd is not None
    bet = s.mine("main")
    hand = rnd.hands[str(bet.box)]
    numbered = Text(v.plain("banked.pg-seven") + " ")
    for i, c in enumerate(hand, 1):
        numbered.append(f"{i}:").append_text(cards_text([c]))
    s.console.print(numbered)
    while True:
        line = s.decide()
        if line in ("house", "h", "casa", ""):
            v.say("banked.pg-house")
            return                                   # the house way, as the player asked
        if line in ("help", "?", "ayuda"):
            s.console.print(v.t("banked.pg-help"))
            continue
        m = re.fullmatch(r"(?:low|baja)\s+([1-7])\s+([1-7])", line)
        if not m or m.group(1) == m.group(2):
            v.warn("banked.pg-bad")
            continue
        picks = {int(m.group(1)) - 1, int(m.group(2)) - 1}
        low = [hand[i] for i in sorted(picks)]
        high = [c for i, c in enumerate(hand) if i not in picks]
        if ev.rank5(high, ev.PAI_GOW) <= ev.rank2(low, ev.PAI_GOW):
            v.say("banked.pg-foul", "yellow")
            if s.decide() != line:
                continue
        if s.step(Act("set", bet=bet.id, fields={"high": high, "low": low})):
            return


@register_player("pai-gow")
def play_pai_gow(game: BankedGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
                 console: Console, read: Callable[[str], str]) -> None:
    s = Session(game, jurisdiction, minimum, balance, seed, console, read)
    s.hello("banked.pg-hello", commission=s.state.config["commission"])
    table_loop(s, "banked.pg-help", _pai_gow_turn, _pai_gow_bet, deal=_pai_gow_deal)


def _pai_gow_deal(s: Session) -> bool:
    """The croupier throws the dice (who is dealt first), then deals."""
    if not s.state.live():
        s.v.say("common.no-bets", "yellow")
        return False
    dice = [1 + s.rng.randbelow(6) for _ in range(3)]
    if not s.step(Outcome("roll", dice)):
        return False
    s.v.say("banked.pg-dice", "italic", dice=" ".join(map(str, dice)), total=sum(dice))
    return s.deal()


def _pai_gow_bet(s: Session, line: str) -> None:
    m = re.fullmatch(rf"{AMOUNT}(?:\s+(?:box|casilla)\s+([1-6]))?", line)
    if not m:
        s.v.warn("banked.pg-bad-bet")
        return
    s.bet("main", cents(m.group(1)), int(m.group(2) or 1))
