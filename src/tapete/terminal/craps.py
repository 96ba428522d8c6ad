"""A craps table at the terminal: the layout and the puck drawn with Rich, the dice from the table CSPRNG.

You sit at seat 1 of five; the dice go round the table and come to you in turn (000:680). When you are
the shooter you must have a Win or Don't Win bet before the come-out (000:694), or pass the dice on.
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
from tapete.engine.events import Act, Close, Outcome
from tapete.games.craps.game import COME_OUT, CrapsBet, CrapsGame, CrapsState
from tapete.games.craps.rules import POINTS, CrapsRules
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.session import BetTable, Refused, Stake, banner, paid, play, table_rng
from tapete.terminal.voice import Voice, limits, voice

SEATS = 5
FACES = "⚀⚁⚂⚃⚄⚅"
ALIASES = {
    "pass": "pass", "win": "pass", "line": "pass", "dp": "dont-pass", "dont": "dont-pass", "dontpass": "dont-pass",
    "dont-pass": "dont-pass", "come": "come", "dc": "dont-come", "dontcome": "dont-come", "dont-come": "dont-come",
    "field": "field", "campo": "field", "big6": "big-6", "big-6": "big-6", "big8": "big-8", "big-8": "big-8",
    "under": "under-7", "under7": "under-7", "over": "over-7", "over7": "over-7", "hard": "hardway",
    "hardway": "hardway", "seven": "any-seven", "any7": "any-seven", "any-seven": "any-seven", "yo": "eleven",
    "eleven": "eleven", "craps": "any-craps", "any-craps": "any-craps", "anycraps": "any-craps", "c2": "craps-2",
    "craps-2": "craps-2", "c3": "craps-3", "craps-3": "craps-3", "c12": "craps-12", "craps-12": "craps-12",
    "horn": "horn", "odds": "odds", "place": "place", "right": "place", "lose": "place-to-lose",
    "wrong": "place-to-lose", "place-to-lose": "place-to-lose",
}



class LineError(ValueError):
    """A bet line the table cannot read: a catalog key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def euros(cents: int | Fraction) -> str:
    return voice().money(cents)


def name_of(b: CrapsBet, rules: CrapsRules, state: CrapsState | None = None) -> str:
    """The bet by the cloth's name (the catalog's word for each kind), with its number; odds name their bet."""
    if b.kind == "odds":
        parent = next((p for p in state.bets if p.id == b.parent), None) if state else None
        on = name_of(parent, rules) if parent is not None else ""
        return f"{rules.names['odds']} ({on})" if on else rules.names["odds"]
    return f"{rules.names[b.kind]} {b.number}" if b.number is not None else rules.names[b.kind]


def parse_line(line: str) -> tuple[str, tuple | None, int]:
    """'place 6 12' -> ('place', (6,), 1200); 'odds b3 10' -> ('odds', ('b3',), 1000); amount in euros."""
    words = line.lower().replace(",", " ").replace("'", "").split()
    if len(words) >= 2 and words[0] == "big" and words[1] in ("6", "8"):
        words = [f"big{words[1]}", *words[2:]]
    if not words or words[0] not in ALIASES:
        raise LineError("craps.unknown-bet", word=words[0] if words else "")
    *head, amount_text = words
    if not re.fullmatch(r"\d+(\.\d{1,2})?", amount_text) or not head:
        raise LineError("craps.amount-last")
    amount = round(Fraction(amount_text) * 100)
    kind, args = ALIASES[head[0]], head[1:]
    if kind == "odds":
        return kind, tuple(args) or None, amount
    if kind in ("hardway", "place", "place-to-lose"):
        if len(args) != 1 or not args[0].isdigit():
            raise LineError("craps.needs-number", word=head[0])
        return kind, (int(args[0]),), amount
    if args:
        raise LineError("craps.no-number", word=head[0])
    return kind, None, amount


def odds_parent(state: CrapsState, args: tuple | None) -> str:
    """Which of your bets the odds go on: a bet id, a come number, or your line bet."""
    mine = [b for b in state.bets if b.player == "you" and b.kind in ("pass", "dont-pass", "come", "dont-come")
            and b.number is not None]
    if args and str(args[0]).startswith("b"):
        return str(args[0])
    if args:
        n = int(args[0]) if str(args[0]).isdigit() else -1
        found = [b for b in mine if b.kind in ("come", "dont-come") and b.number == n]
    else:
        found = [b for b in mine if b.kind in ("pass", "dont-pass")]
    if not found:
        raise LineError("craps.no-odds-parent")
    return found[0].id


def layout(state: CrapsState, rules: CrapsRules, last: list[int] | None) -> Group:
    """The cloth: number boxes with the puck, the come and field areas, the line, the centre bets."""
    mine = [b for b in state.bets if b.player == "you"]
    names = rules.names
    boxes = Table(show_header=False, box=None, padding=(0, 1))
    for _ in POINTS:
        boxes.add_column(justify="center", min_width=9)
    disc = rules.jurisdiction == "ES-AN"
    puck_row, number_row, chips_row = [], [], []
    for n in POINTS:
        if state.point == n:
            puck_row.append(Text(" ● ON " if not disc else " ○ blanco ", style="bold black on white"))  # the puck's words
        else:
            puck_row.append(Text(""))
        number_row.append(Text(f" {'SIX' if n == 6 else 'NINE' if n == 9 else n} ", style="bold white on dark_green"))
        marks = [f"{ {'come': 'C', 'dont-come': 'D', 'place': 'R', 'place-to-lose': 'W'}[b.kind]}{b.amount // 100}"
                 for b in mine if b.number == n and b.kind in ("come", "dont-come", "place", "place-to-lose")]
        chips_row.append(Text(" ".join(marks), style="yellow"))
    boxes.add_row(*puck_row)
    boxes.add_row(*number_row)
    boxes.add_row(*chips_row)

    def spot(kind: str, label: str, extra: str = "") -> Text:
        staked = sum(b.amount for b in mine if b.kind == kind and (kind not in ("come", "dont-come") or b.number is None))
        text = Text(f"{label}{extra}", style="bold")
        if staked:
            text.append(f"  [{euros(staked)}]", style="yellow")
        return text

    off = "" if state.point else ("  ● OFF" if not disc else "  ● negro")
    lines = [
        spot("come", names["come"].upper()),
        spot("dont-come", f"{names['dont-come'].upper()} BAR 12"),
        spot("field", f"{names['field'].upper()}  2·3·4·9·10·11·12", "  " + voice().plain("craps.field-double")),
        Text.assemble(spot("big-6", names["big-6"]), "   ", spot("big-8", names["big-8"]), "   ",
                      spot("under-7", names["under-7"]), "   ", spot("over-7", names["over-7"])),
        spot("dont-pass", f"{names['dont-pass'].upper()} BAR 12"),
        Text.assemble(spot("pass", f"{names['pass'].upper()} LINE"), Text(off, style="bold white on grey11")),
    ]
    centre = Table(show_header=False, box=None, padding=(0, 1))
    centre.add_column()
    centre.add_column()
    hard = "  ".join(f"{n // 2}+{n // 2} 9:1" if n in (6, 8) else f"{n // 2}+{n // 2} 7:1" for n in (4, 6, 8, 10))
    hard_chips = " ".join(f"H{b.number}:{b.amount // 100}" for b in mine if b.kind == "hardway")
    centre.add_row(Text(names["hardway"].upper(), style="bold"), Text(hard + ("  " + hard_chips if hard_chips else ""),
                                                                       style="yellow" if hard_chips else ""))
    props = [("any-seven", "7  4:1"), ("eleven", "11  15:1"), ("any-craps", "2·3·12  7:1"), ("craps-2", "2  30:1"),
             ("craps-3", "3  15:1"), ("craps-12", "12  30:1"), ("horn", "2·3·11·12  4:1")]
    for kind, what in props:
        centre.add_row(spot(kind, names[kind]), Text(what, style="dim"))
    v = voice()
    odds = [f"{name_of(b, rules, state)} {euros(b.amount)}" for b in mine if b.kind == "odds"]
    parts: list = [boxes, *lines, Panel(centre, title=v.plain("craps.centre"), expand=False)]
    if odds:
        parts.append(Text("; ".join(odds), style="yellow"))
    if last:
        parts.append(Text(v.plain("craps.last-roll", dice=f"{FACES[last[0] - 1]} {FACES[last[1] - 1]}", total=sum(last)),
                          style="bold"))
    return Group(*parts)


class CrapsTable(BetTable):
    """Craps' part of the shared loop: the dice offered round the seats (the player may refuse them), the shooter's
    line bet before a come-out, bets taken down where the rules allow; every bet stays on the layout at quit."""

    help_key = "craps.help"
    placed_key = "craps.placed"
    deal_words = ("", "roll", "r", "tirar")
    refused_bet_uses_id = False

    def __init__(self, v: Voice, balance: int, game: CrapsGame, state: CrapsState, rng: TableRng) -> None:
        super().__init__(v, balance, game, state, rng)
        self.rules = game.rules_for(state.jurisdiction)
        self.skipped = 0                   # seats that refused the dice (000:680)

    def seat(self) -> int:
        return (self.state.shooter - 1 + self.skipped) % SEATS + 1

    def riding(self) -> int:
        return sum(b.amount for b in self.state.bets if b.player == "you")

    def show(self) -> None:
        v, state = self.v, self.state
        who = v.plain("craps.you-shoot") if self.seat() == 1 else v.plain("craps.seat-shoots", seat=self.seat())
        phase = v.plain("craps.come-out") if state.phase == COME_OUT else v.plain("craps.point", n=state.point)
        v.console.print(Panel(layout(state, self.rules, state.history[-1] if state.history else None),
                              title=f"{phase} — {who}",
                              subtitle=v.plain("craps.subtitle", balance=euros(self.balance), riding=euros(self.riding())),
                              expand=False))

    def taken_back(self) -> int:
        """Nothing: the bets stay on the layout."""
        return 0

    def leave(self) -> None:
        if self.riding():        # bets the rules keep on the layout stay there (a Win bet must play on, 000:694)
            self.v.say("craps.quit-riding", amount=Money(self.riding()))
        super().leave()

    def bet_lines(self) -> list[str]:
        return [self.v.t("craps.bet-line", id=b.id, bet=name_of(b, self.rules, self.state), amount=Money(b.amount))
                for b in self.state.bets]

    def command(self, low: str) -> bool:
        """`refuse`: pass the dice on; `remove ID`: take a bet down."""
        if low in ("refuse", "paso"):
            self.refuse_dice()
        elif low.startswith(("remove ", "down ", "retirar ")):
            self.take_down(low.split()[1])
        else:
            return False
        return True

    def refuse_dice(self) -> None:
        if self.state.phase != COME_OUT or self.seat() != 1:
            self.v.say("craps.not-offered", "yellow")
            return
        self.skipped += 1
        self.v.say("craps.you-pass-dice", seat=self.seat())

    def take_down(self, bet_id: str) -> None:
        v, rules = self.v, self.rules
        if not any(b.id == bet_id for b in self.state.bets):
            v.warn("craps.no-such-bet", id=bet_id)
            return
        try:
            self.state = self.game.step(self.state, Act("remove", bet=bet_id))
        except TapeteError as exc:
            held = next(b for b in self.state.bets if b.id == bet_id)
            if exc.code == "illegal-action":
                v.warn("craps.cannot-remove", bet=name_of(held, rules, self.state))
            else:
                v.error(exc)
            return
        for b in self.state.decided.values():
            if b.id not in self.credited and b.player == "you":
                self.credited.add(b.id)
                self.balance += paid(b.returned)
                v.say("craps.taken-down", bet=name_of(b, rules, self.state), amount=Money(paid(b.returned)))
        self.show()

    def deal(self) -> None:
        v, rules, state = self.v, self.rules, self.state
        if self.seat() == 1 and state.phase == COME_OUT and not any(
                b.player == "you" and b.kind in ("pass", "dont-pass") for b in state.bets):
            v.say("craps.shooter-must-bet", "yellow", win=rules.names["pass"], dont=rules.names["dont-pass"])
            return
        before = state
        state = self.game.step(state, Close())
        dice = [self.rng.randbelow(6) + 1, self.rng.randbelow(6) + 1]
        self.state = state = self.game.step(state, Outcome("roll", dice))
        v.console.print(Text(f"  {FACES[dice[0] - 1]}  {FACES[dice[1] - 1]}  ", style="bold black on white"))
        v.say("craps.stickman", "italic", total=sum(dice))
        if before.phase == COME_OUT and state.phase != COME_OUT:
            v.say("craps.point-set", "italic", n=state.point)
        elif before.phase != COME_OUT and state.phase == COME_OUT:
            v.say("craps.seven-out" if sum(dice) == 7 else "craps.point-made", "italic", n=before.point)
        self.balance = _credit(state, self.credited, self.balance, v.console, rules)
        self.show()

    def parse(self, line: str) -> Stake:
        try:
            kind, on, amount = parse_line(line)
            if kind == "odds":
                on = (odds_parent(self.state, on),)
        except LineError as exc:
            raise Refused(exc.key, **exc.params) from None
        return Stake(kind, on, amount)

    def refuse(self, exc: TapeteError, stake: Stake) -> None:
        if exc.code == "illegal-action":
            self.v.warn("craps.not-now", bet=self.rules.names.get(stake.kind, stake.kind))
        else:
            super().refuse(exc, stake)

    def limits(self, kind: str) -> tuple[int | None, int | None]:
        return limits(self.game, self.state, kind)

    def bet_label(self, stake: Stake) -> str:
        return name_of(self.state.bets[-1], self.rules, self.state)


@register_player("craps")
def play_craps(game: CrapsGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = table_rng(seed)
    state = game.open(jurisdiction, {"minimum": minimum})
    banner(v, game, jurisdiction, rng, "craps.welcome", header="craps.header", minimum=minimum, balance=balance,
           maximum=Money(state.limits.maximum))
    table = CrapsTable(v, balance, game, state, rng)
    table.show()
    play(table)


def _credit(state: CrapsState, credited: set[str], balance: int, console: Console, rules: CrapsRules) -> int:
    """Pay what the roll decided: what the player receives rounds up to the cent (docs/format.md)."""
    v = voice()
    for b in state.decided.values():
        if b.player != "you" or b.id in credited:
            continue
        credited.add(b.id)
        got = paid(b.returned)
        balance += got
        key = "craps.bet-wins" if b.returned > b.amount else "craps.bet-returned" if b.returned else "craps.bet-loses"
        console.print("  " + v.t(key, bet=name_of(b, rules, state), amount=Money(b.amount), paid=Money(got)))
    return balance
