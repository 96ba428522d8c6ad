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
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Close, Outcome
from tapete.games.craps.game import COME_OUT, CrapsBet, CrapsGame, CrapsState, describe
from tapete.games.craps.rules import POINTS, CrapsRules
from tapete.terminal import register_player

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

HELP = """[bold]Bets[/bold] (amount last, in euros):
  [cyan]pass 10[/cyan] / [cyan]dp 10[/cyan]      Win / Don't Win (come-out only)   [cyan]come 10[/cyan] / [cyan]dc 10[/cyan]   Come / Don't Come (point on)
  [cyan]odds 10[/cyan]             odds on your Win or Don't Win     [cyan]odds 6 10[/cyan]  odds on your come bet on 6   [cyan]odds b3 10[/cyan]  on bet b3
  [cyan]place 6 12[/cyan]          Right Bet on 6 (7:6)             [cyan]lose 4 22[/cyan]  Wrong Bet on 4 (5:11)
  [cyan]hard 8 5[/cyan]            hard 8 (9:1)                      [cyan]field 5[/cyan]  [cyan]big6 5[/cyan]  [cyan]big8 5[/cyan]  [cyan]under 5[/cyan]  [cyan]over 5[/cyan]
  [cyan]seven 5[/cyan] (4:1)  [cyan]yo 5[/cyan] (15:1)  [cyan]craps 5[/cyan] (7:1)  [cyan]c2 5[/cyan] / [cyan]c12 5[/cyan] (30:1)  [cyan]c3 5[/cyan] (15:1)  [cyan]horn 5[/cyan] (4:1)
[bold]Table[/bold]: [cyan]roll[/cyan] (or an empty line)   [cyan]remove b3[/cyan] take a bet down   [cyan]refuse[/cyan] pass the dice on   [cyan]bets[/cyan]   [cyan]help[/cyan]   [cyan]quit[/cyan]"""


def parse_line(line: str) -> tuple[str, tuple | None, int]:
    """'place 6 12' -> ('place', (6,), 1200); 'odds b3 10' -> ('odds', ('b3',), 1000); amount in euros."""
    words = line.lower().replace(",", " ").replace("'", "").split()
    if len(words) >= 2 and words[0] == "big" and words[1] in ("6", "8"):
        words = [f"big{words[1]}", *words[2:]]
    if not words or words[0] not in ALIASES:
        raise ValueError(f"unknown bet {words[0] if words else ''!r} (type help)")
    *head, amount_text = words
    if not re.fullmatch(r"\d+(\.\d{1,2})?", amount_text) or not head:
        raise ValueError("the amount comes last, in euros")
    amount = round(Fraction(amount_text) * 100)
    kind, args = ALIASES[head[0]], head[1:]
    if kind == "odds":
        return kind, tuple(args) or None, amount
    if kind in ("hardway", "place", "place-to-lose"):
        if len(args) != 1 or not args[0].isdigit():
            raise ValueError(f"{kind} needs its number: e.g. {head[0]} 6 12")
        return kind, (int(args[0]),), amount
    if args:
        raise ValueError(f"{kind} takes no number")
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
        raise ValueError("no bet of yours with a point to lay odds on")
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
            puck_row.append(Text(" ● ON " if not disc else " ○ blanco ", style="bold black on white"))
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
        spot("field", f"{names['field'].upper()}  2·3·4·9·10·11·12", "  (2 and 12 pay double)"),
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
    odds = [f"{describe(b)} {euros(b.amount)}" for b in mine if b.kind == "odds"]
    parts: list = [boxes, *lines, Panel(centre, title="centre", expand=False)]
    if odds:
        parts.append(Text("odds: " + "; ".join(odds), style="yellow"))
    if last:
        parts.append(Text(f"last roll {FACES[last[0] - 1]} {FACES[last[1] - 1]}  {sum(last)}", style="bold"))
    return Group(*parts)


@register_player("craps")
def play_craps(game: CrapsGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    rules = game.rules_for(jurisdiction)
    state = game.open(jurisdiction, {"minimum": minimum})
    credited: set[str] = set()
    skipped = 0                   # seats that refused the dice (000:680)
    counter = 0
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   "
                            f"maximum {euros(state.limits.maximum)}   your chips {euros(balance)}\n"
                            f"[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\n"
                            "Type [cyan]help[/cyan] for the bets. [italic]Hagan sus apuestas.[/italic]"))

    def seat() -> int:
        return (state.shooter - 1 + skipped) % SEATS + 1

    def show() -> None:
        who = "you are the shooter" if seat() == 1 else f"shooter: seat {seat()}"
        phase = "come-out roll" if state.phase == COME_OUT else f"point {state.point}"
        riding = sum(b.amount for b in state.bets if b.player == "you")
        console.print(Panel(layout(state, rules, state.history[-1] if state.history else None),
                            title=f"{phase} — {who}", subtitle=f"balance {euros(balance)}   riding {euros(riding)}",
                            expand=False))

    show()
    while True:
        try:
            line = read("[bold green]> [/bold green]").strip()
        except (EOFError, KeyboardInterrupt):
            line = "quit"
        low = line.lower()
        if low in ("quit", "exit", "q"):
            riding = sum(b.amount for b in state.bets if b.player == "you")
            console.print(f"[bold]Good night.[/bold] You leave with {euros(balance)}"
                          + (f" ({euros(riding)} still riding on the layout)" if riding else "") + ".")
            return
        if low in ("help", "?"):
            console.print(HELP)
            continue
        if low == "bets":
            for b in state.bets:
                console.print(f"  {b.id}: {describe(b)} {euros(b.amount)}")
            continue
        if low == "refuse":
            if state.phase != COME_OUT or seat() != 1:
                console.print("[yellow]the dice are not being offered to you[/yellow]")
                continue
            skipped += 1
            console.print(f"you pass the dice: seat {seat()} shoots")
            continue
        if low.startswith(("remove ", "down ")):
            bet_id = low.split()[1]
            try:
                state = game.step(state, Act("remove", bet=bet_id))
            except TapeteError as exc:
                console.print(f"[red]{exc.message}[/red]")
                continue
            for b in state.decided.values():
                if b.id not in credited and b.player == "you":
                    credited.add(b.id)
                    balance += int(-(-b.returned // 1))
                    console.print(f"  {describe(b)} taken down: {euros(b.returned)}")
            show()
            continue
        if low in ("", "roll", "r"):
            if seat() == 1 and state.phase == COME_OUT and not any(
                    b.player == "you" and b.kind in ("pass", "dont-pass") for b in state.bets):
                console.print("[yellow]the shooter must bet Win or Don't Win before throwing (000:694): "
                              "bet, or 'refuse' to pass the dice[/yellow]")
                continue
            state = game.step(state, Close())
            dice = [rng.randbelow(6) + 1, rng.randbelow(6) + 1]
            seen = len(state.log)
            state = game.step(state, Outcome("roll", dice))
            console.print(Text(f"  {FACES[dice[0] - 1]}  {FACES[dice[1] - 1]}  ", style="bold black on white"))
            for entry in state.log[seen:]:
                if entry.startswith("roll "):
                    console.print(f"[italic]Stickman: {entry.split(', ', 1)[1]}[/italic]")
                elif entry.startswith(("puck", "point made", "seven-out")):
                    console.print(f"[italic]{entry}[/italic]")
            balance = _credit(state, credited, balance, console)
            show()
            continue
        try:
            kind, on, amount = parse_line(line)
            if kind == "odds":
                on = (odds_parent(state, on),)
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        if amount > balance:
            console.print(f"[red]you have {euros(balance)}[/red]")
            continue
        try:
            state = game.step(state, Bet(f"b{counter + 1}", "you", kind, amount, on))
        except TapeteError as exc:
            console.print(f"[red]{exc.message}[/red]")
            continue
        counter += 1
        balance -= amount
        console.print(f"  b{counter}: {describe(state.bets[-1])} {euros(amount)} — balance {euros(balance)}")


def _credit(state: CrapsState, credited: set[str], balance: int, console: Console) -> int:
    """Pay what the roll decided: what the player receives rounds up to the cent (docs/format.md)."""
    for b in state.decided.values():
        if b.player != "you" or b.id in credited:
            continue
        credited.add(b.id)
        paid = int(-(-b.returned // 1))
        balance += paid
        console.print(f"  {_verdict(b)} {describe(b)} {euros(b.amount)} {euros(paid) if paid else ''}")
    return balance


def _verdict(b: CrapsBet) -> str:
    if b.returned > b.amount:
        return "[green]wins[/green]"
    return "[yellow]returns[/yellow]" if b.returned else "[red]loses[/red]"
