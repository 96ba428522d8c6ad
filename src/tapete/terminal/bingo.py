"""Bingo at the terminal: the hall's board of 90 numbers, the caller's announcements, a CSPRNG draw.

`run_bingo` is `tapete bingo` (a whole game of N cards, watched on a live board); `play_bingo` is `tapete play
bingo` (you buy cards in a hall of other players). Both feed the engine's reducer: the claims, the prizes and the
settlement are the ones `tapete settle` gives for the same round document, which `--json` prints.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.events import Bet, Outcome
from tapete.games.bingo import NUMBERS, BingoState, Board, Grid, generate_cards
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.voice import QUIT_WORDS, Voice, voice

DEMO_LINE, DEMO_BINGO = 10, 50      # percent of sales: a demonstration plan, not the catalog's (001:1122)

def board_panel(drawn: list[int], title: str) -> Panel:
    """The hall's display panel (001:1116): 1-90 in nine rows of ten, the drawn numbers lit, the last one framed."""
    grid = Table.grid(padding=(0, 1))
    for _ in range(10):
        grid.add_column(justify="right")
    lit = set(drawn)
    last = drawn[-1] if drawn else None
    for row in range(9):
        cells = []
        for n in range(row * 10 + 1, row * 10 + 11):
            style = "bold white on red3" if n in lit else "grey50"
            if n == last:
                style = "bold black on yellow"
            cells.append(Text(f"{n:>2}", style=style))
        grid.add_row(*cells)
    return Panel(grid, title=title, expand=False)


def card_table(grid: Grid, drawn: set[int], title: str) -> Table:
    """One card as players hold it, the drawn numbers marked."""
    t = Table(title=title, show_header=False, box=None, padding=(0, 1))
    for _ in range(9):
        t.add_column(justify="right")
    for row in grid:
        t.add_row(*[Text("  ") if n is None else Text(f"{n:>2}", style="bold white on green4" if n in drawn else "bold")
                    for n in row])
    return t


def _leaders(v: Voice, board: Board, ids: list[str], count: int = 5) -> Text:
    left = board.to_go()
    order = np.argsort(left, kind="stable")[:count]
    text = Text(v.plain("bingo.closest"))
    for i in order:
        text.append(v.plain("bingo.to-go", card=ids[i], n=int(left[i])) + "  ", style="cyan")
    return text


def _announce(v: Voice, state: BingoState, told: dict[str, int]) -> None:
    """The line and bingo winners not yet announced, in the session's language."""
    partida = state.partidas[-1]
    for what, winners in (("line", partida.line_winners), ("bingo", partida.bingo_winners)):
        for cid in winners[told[what]:]:
            v.say(f"bingo.{what}-other", "bold green", ball=len(partida.drawn), card=cid)
        told[what] = len(winners)


def _round_document(jurisdiction: str, table: dict[str, Any], bets: list[Bet], drawn: list[int]) -> dict[str, Any]:
    events: list[dict[str, Any]] = []
    for b in bets:
        body = {"id": b.id, "player": b.player, "kind": b.kind, "amount": b.amount, "on": list(b.on or ()), **b.extra}
        events.append({"bet": body})
    events.append({"draw": list(drawn)})
    return {"game": "bingo", "jurisdiction": jurisdiction, "table": table, "events": events}


def draw_game(state: BingoState, rng: TableRng, *, on_ball: Callable[[int, list[str]], None] | None = None) -> list[int]:
    """Draw balls with the table's CSPRNG until the game's bingo; the engine claims for every card."""
    game = get_game("bingo")
    left = list(range(1, NUMBERS + 1))
    drawn: list[int] = []
    while not (state.partidas and state.partidas[-1].status == "ended"):
        ball = left.pop(rng.randbelow(len(left)))
        seen = len(state.log)
        game.apply(state, Outcome("draw", [ball]))
        drawn.append(ball)
        if on_ball:
            on_ball(ball, state.log[seen:])
    return drawn


def run_bingo(*, cards: int, seed: str | None, price: int, line: int | None, bingo: int | None, jurisdiction: str,
              console: Console, delay: float = 0.0, live: bool | None = None, quiet: bool = False,
              lang: str = "en") -> dict[str, Any]:
    """One game of `cards` CSPRNG cards: the live board while it draws, and the game's record; every sentence
    in `lang` (the message catalog)."""
    v = Voice(lang, console, console.input)
    if cards < 1:
        raise TapeteError("bad-document", "a game needs at least one card sold")
    game = get_game("bingo")
    rng = TableRng.from_hex(seed) if seed else TableRng()
    grids = generate_cards(rng, cards)
    sales = cards * price
    table = {"minimum": price, "prizes": [{"line": sales * DEMO_LINE // 100 if line is None else line,
                                            "bingo": sales * DEMO_BINGO // 100 if bingo is None else bingo}]}
    bets = [Bet(f"A{i}", f"player-{i}", "card", price, tuple(g), {"series": "A", "serial": i}) for i, g in enumerate(grids, 1)]
    state = game.open(jurisdiction, table)
    for b in bets:
        game.apply(state, b)
    ids = [b.id for b in bets]
    board = Board.of(grids)
    drawn: list[int] = []
    live = (console.is_terminal and not quiet) if live is None else live
    if not quiet:
        prizes = table["prizes"][0]
        console.print(Panel.fit(v.t("bingo.cli-header", jurisdiction=jurisdiction, cards=cards, price=Money(price),
                                    seed=rng.seed.hex(), line=Money(prizes["line"]), bingo=Money(prizes["bingo"]))
                                + ("\n" + v.t("bingo.demo-note") if line is None or bingo is None else "")))
    told = {"line": 0, "bingo": 0}

    def view() -> Group:
        title = v.plain("bingo.cli-ball", n=len(drawn), ball=drawn[-1]) if drawn else v.plain("bingo.cli-ready")
        return Group(board_panel(drawn, title), _leaders(v, board, ids))

    def on_ball(ball: int, lines: list[str]) -> None:
        drawn.append(ball)
        board.mark(ball)
        if live and display is not None:
            display.update(view())
            if delay:
                time.sleep(delay)
        if not quiet:
            _announce(v, state, told)

    display: Live | None = None
    if live:
        with Live(view(), console=console, refresh_per_second=20, transient=False) as display:
            draw_game(state, rng, on_ball=on_ball)
    else:
        draw_game(state, rng, on_ball=on_ball)
        if not quiet:
            console.print(view())
    settlement = game.settle(game.finish(state)).document()
    partida = state.partidas[-1]
    if not quiet:
        _show_winners(v, state, settlement)
    return {"seed": rng.seed.hex(), "commitment": rng.commitment(), "draw": drawn,
            "line": {"ball": partida.line_ball, "cards": partida.line_winners},
            "bingo": {"ball": partida.bingo_ball, "cards": partida.bingo_winners},
            "document": _round_document(jurisdiction, table, bets, drawn), "settlement": settlement}


def _show_winners(v: Voice, state: BingoState, settlement: dict[str, Any]) -> None:
    partida = state.partidas[-1]
    by_id = state.cards
    drawn = set(partida.drawn)
    for what, ids, ball in (("line", partida.line_winners, partida.line_ball), ("bingo", partida.bingo_winners, partida.bingo_ball)):
        for cid in ids:
            v.console.print(card_table(by_id[cid].grid, drawn, v.plain(f"bingo.cli-{what}-card", ball=ball, card=cid,
                                                                        amount=v.money(partida.paid.get(cid, 0)))))
    sales = sum(b["staked"] for b in settlement["bets"].values())
    net = settlement["house"]["net"]
    v.say("bingo.cli-totals", sales=Money(sales), prizes=Money(sales - net), organiser=Money(net))


# -- tapete play bingo -------------------------------------------------------------------------------------------

HALL = 60        # other players' cards in the hall

@register_player("bingo")
def play_bingo(game: Any, jurisdiction: str, *, minimum: int, balance: int, seed: str | None, console: Console,
               read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    console.print(Panel.fit(v.t("bingo.header", jurisdiction=jurisdiction, price=Money(minimum), balance=Money(balance))
                            + "\n" + v.t("common.seed", seed=rng.seed.hex()) + "\n" + v.t("bingo.demo-note")
                            + "\n" + v.t("bingo.help")))
    number = 0
    while True:
        answer = v.read("bingo.prompt", balance=Money(balance)).lower()
        if answer in ("", "0", *QUIT_WORDS):
            v.say("common.goodbye", amount=Money(balance))
            return
        if answer in ("help", "?", "ayuda"):
            console.print(v.t("bingo.help"))
            continue
        if not answer.isdigit() or int(answer) * minimum > balance:
            v.warn("bingo.bad-count", most=balance // minimum)
            continue
        number += 1
        balance = _one_game(game, jurisdiction, rng, int(answer), minimum, balance, number, console, read)


def _one_game(game: Any, jurisdiction: str, rng: TableRng, mine: int, price: int, balance: int, number: int,
              console: Console, read: Callable[[str], str]) -> int:
    v = voice(console, read)
    grids = generate_cards(rng, mine + HALL)
    sales = len(grids) * price
    table = {"minimum": price, "prizes": [{"line": sales * DEMO_LINE // 100, "bingo": sales * DEMO_BINGO // 100}]}
    state = game.open(jurisdiction, table)
    for i, g in enumerate(grids, 1):
        owner = "you" if i <= mine else f"hall-{i}"
        game.apply(state, Bet(f"G{number}-{i}", owner, "card", price, tuple(g), {"series": f"G{number}", "serial": i}))
    balance -= mine * price
    v.say("bingo.sold", "italic", sold=len(grids), series=f"G{number}", line=Money(table["prizes"][0]["line"]),
          bingo=Money(table["prizes"][0]["bingo"]))
    yours = [c for c in state.cards.values() if c.player == "you"]
    auto = False
    told = {"line": 0, "bingo": 0}

    def on_ball(ball: int, lines: list[str]) -> None:
        nonlocal auto
        partida = state.partidas[-1]
        drawn = set(partida.drawn)
        if not auto:
            console.print(Text(f"  {ball}  ", style="bold black on yellow"), end=" ")
            console.print("  ".join(v.plain("bingo.to-go", card=c.id,
                                            n=sum(n not in drawn for r in c.grid for n in r if n is not None))
                                    for c in yours))
        for what, winners in (("line", partida.line_winners), ("bingo", partida.bingo_winners)):
            for cid in winners[told[what]:]:
                whose = "yours" if state.cards[cid].player == "you" else "other"
                v.say(f"bingo.{what}-{whose}", "bold green", ball=len(partida.drawn), card=cid)
            told[what] = len(winners)
        if not auto and partida.status != "ended":
            auto = v.read("bingo.next").lower().startswith("a")

    for c in yours:
        console.print(card_table(c.grid, set(), v.plain("bingo.your-card", card=c.id)))
    draw_game(state, rng, on_ball=on_ball)
    partida = state.partidas[-1]
    console.print(board_panel(partida.drawn, v.plain("bingo.balls", n=len(partida.drawn))))
    won = sum(partida.paid.get(c.id, 0) for c in yours)
    for c in yours:
        if partida.paid.get(c.id):
            console.print(card_table(c.grid, set(partida.drawn),
                                     v.plain("bingo.your-card-wins", card=c.id, amount=v.money(partida.paid[c.id]))))
    balance += won
    key = "bingo.over-won" if won else "bingo.over-lost"
    v.say(key, n=number, ball=partida.bingo_ball, amount=Money(won), balance=Money(balance))
    return balance
