"""A circle-poker table at the terminal: you and three computer players, every variant of the catalogs.

The cards come from a fresh deck shuffled with the table CSPRNG for each hand; the croupier's announcements are
the engine's log lines; the computer players choose among the engine's own legal actions with a simple policy.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.games.poker import evaluator as ev
from tapete.games.poker.circle import VARIANTS, CircleGame, CircleState
from tapete.terminal import register_player

BOTS = ("Ana", "Luis", "Marta")
SUITS = {"S": "♠", "H": "[red]♥[/red]", "D": "[red]♦[/red]", "C": "♣"}
HELP = """[bold]Your decisions[/bold] (amounts in euros, your total for the round):
  [cyan]c[/cyan] check or call    [cyan]f[/cyan] fold    [cyan]b 20[/cyan] bet 20    [cyan]r 40[/cyan] raise to 40    [cyan]a[/cyan] all-in
  draw poker: [cyan]d 1 4 5[/cyan] discard your 1st, 4th and 5th cards ([cyan]d[/cyan] alone stands pat)
  showdown: [cyan]s[/cyan] show (default)   [cyan]m[/cyan] muck
  [cyan]help[/cyan]   [cyan]quit[/cyan] (after the hand)"""


def show_cards(cards: list[str]) -> str:
    return " ".join(c[0].replace("T", "10") + SUITS[c[1]] for c in cards)


def strength(game: CircleGame, state: CircleState, i: int) -> int:
    """A rough 0-4 reading of a computer player's hand: what he can see now (hole cards and board)."""
    hand = state.hand
    assert hand is not None
    cards = hand.holes[i] + hand.common + hand.board
    if len(cards) >= 5:
        ranking = "short-deck" if game.id == "poker-sintetico" else "standard"
        code = ev.best5(cards[:7], {"standard": ev.STANDARD, "short-deck": ev.SHORT_DECK}[ranking])[0] >> ev.CODE_SHIFT
        return 0 if code == ev.HIGH_CARD else 1 if code == ev.PAIR else 2 if code in (ev.TWO_PAIR, ev.FIGURAS) else 4
    ranks = [c[0] for c in hand.holes[i]]
    if len(set(ranks)) < len(ranks):
        return 2
    return 1 if any(r in "AKQ" for r in ranks) else 0


def bot_act(game: CircleGame, state: CircleState, rng: TableRng) -> Act:
    """Check or call most of the time, bet or raise the minimum with a good hand, fold weak hands to big bets."""
    hand = state.hand
    assert hand is not None
    actions = {a.verb: a for a in game.legal_actions(state)}
    first = next(iter(actions.values()))
    bet_id = first.bet
    if hand.phase == "draw":
        i = hand.draw_queue[0]
        counts: dict[str, int] = {}
        for c in hand.holes[i]:
            counts[c[0]] = counts.get(c[0], 0) + 1
        keep = {r for r, n in counts.items() if n > 1}
        discard = [c for c in hand.holes[i] if c[0] not in keep] if keep else sorted(
            hand.holes[i], key=lambda c: "23456789TJQKA".index(c[0]))[:3]
        return Act("draw", bet=bet_id, fields={"cards": discard})
    if hand.phase == "show":
        return Act("show", bet=bet_id)
    b = hand.betting
    i = b.to_act
    assert i is not None
    power = strength(game, state, i)
    roll = rng.randbelow(100)
    aggressive = "bet" in actions or "raise" in actions
    if aggressive and power >= 2 and roll < 35 + 15 * power:
        a = actions.get("bet") or actions["raise"]
        return Act(a.verb, bet=bet_id, fields={"amount": a.minimum})
    if "check" in actions:
        return Act("check", bet=bet_id)
    if "call" in actions:
        cost = actions["call"].minimum or 0
        if power >= 1 or cost <= b.minimum or roll < 30:
            return Act("call", bet=bet_id)
    if "fold" in actions:
        return Act("fold", bet=bet_id)
    a = actions.get("bet") or actions["raise"]
    return Act(a.verb, bet=bet_id, fields={"amount": a.minimum})


def default_act(game: CircleGame, state: CircleState) -> Act:
    """What the rules do for a player who says nothing (docs/vocabulary.md §8): check, else fold; the bring-in bets m;
    the draw stands pat; the showdown shows."""
    actions = {a.verb: a for a in game.legal_actions(state)}
    for verb in ("check", "fold", "draw", "show"):
        if verb in actions:
            fields = {"cards": []} if verb == "draw" else {}
            return Act(verb, bet=actions[verb].bet, fields=fields)
    a = actions.get("bet") or actions.get("call") or next(iter(actions.values()))
    return Act(a.verb, bet=a.bet, fields={"amount": a.minimum} if a.verb == "bet" else {})


def parse_decision(line: str, game: CircleGame, state: CircleState) -> Act:
    """'c', 'f', 'b 20', 'r 40', 'a', 'd 1 4', 's', 'm' -> the act for the player due."""
    hand = state.hand
    assert hand is not None
    actions = {a.verb: a for a in game.legal_actions(state)}
    bet_id = next(iter(actions.values())).bet
    words = line.lower().split()
    word = words[0] if words else ("s" if hand.phase == "show" else "d" if hand.phase == "draw" else "c")
    if hand.phase == "draw":
        if word != "d":
            raise ValueError("the draw: d and the positions of the cards you discard (d alone stands pat)")
        i = hand.draw_queue[0]
        try:
            cards = [hand.holes[i][int(w) - 1] for w in words[1:]]
        except (ValueError, IndexError) as exc:
            raise ValueError("discard by position, 1 to 5") from exc
        return Act("draw", bet=bet_id, fields={"cards": cards})
    if hand.phase == "show":
        return Act("muck" if word == "m" else "show", bet=bet_id)
    if word in ("c", "check", "call"):
        return Act("check" if "check" in actions else "call", bet=bet_id)
    if word in ("f", "fold"):
        return Act("fold", bet=bet_id)
    if word in ("a", "allin", "all-in"):
        a = actions.get("bet") or actions.get("raise")
        if a is None:
            return Act("call", bet=bet_id)
        return Act(a.verb, bet=bet_id, fields={"amount": a.maximum})
    if word in ("b", "r", "bet", "raise"):
        verb = "bet" if "bet" in actions else "raise"
        a = actions.get(verb)
        if a is None:
            raise ValueError("you cannot bet or raise now")
        if len(words) > 1:
            amount = round(Fraction(words[1]) * 100)
        elif a.targets:
            amount = a.targets[0]
        else:
            amount = a.minimum or 0
        return Act(verb, bet=bet_id, fields={"amount": amount})
    raise ValueError("c, f, b AMOUNT, r AMOUNT, a (type help)")


def table_view(game: CircleGame, state: CircleState, you: str) -> Table:
    hand = state.hand
    assert hand is not None
    b = hand.betting
    grid = Table(title=f"{game.name_es} — pot {euros(b.pot())}", show_header=True, expand=False)
    for col in ("seat", "player", "chips", "in pot", "cards"):
        grid.add_column(col)
    for i, s in enumerate(b.seats):
        if s.player == you or hand.phase == "over":
            cards = show_cards(hand.holes[i])
        else:
            cards = " ".join(show_cards([c]) if up else "🂠" for c, up in zip(hand.holes[i], hand.up[i], strict=True))
        mark = "▶ " if (hand.phase == "bet" and b.to_act == i) else ""
        status = "" if s.state in ("in", "allin") else f" ({s.state})"
        grid.add_row(str(s.seat), f"{mark}{s.player}{status}", euros(s.stack), euros(s.total), cards)
    if hand.board:
        grid.caption = "board: " + show_cards(hand.board) + (f"   row 2: {show_cards(hand.board2)}" if hand.board2 else "")
    return grid


@register_player(*VARIANTS)
def play_poker(game: CircleGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    rng = TableRng.from_hex(seed) if seed else TableRng()
    you = "you"
    names = [you, *BOTS]
    variant = VARIANTS[game.id]
    blinds = game.id in ("holdem", "omaha", "omaha-5", "omaha-hilo", "double-holdem")
    rules = game.rules_for(jurisdiction)
    table = {"minimum": minimum, "structure": "fixed" if variant.stud else "no-limit",
             "forced": "blinds" if blinds else "ante", "rake": float(rules.rake_max),
             "seats": [{"seat": k + 1, "player": p, "stack": balance} for k, p in enumerate(names)], "button": 1}
    if rules.ante_max_half:
        table["ante"] = minimum // 2
    state = game.open(jurisdiction, table)
    console.print(Panel.fit(f"[bold]{game.name_es}[/bold] — {jurisdiction}   minimum {euros(minimum)}   "
                            f"your chips {euros(balance)}   house's take {rules.rake_max} % per pot\n"
                            f"[dim]seed {rng.seed.hex()} (replay with --seed)[/dim]\nType [cyan]help[/cyan] for "
                            "your decisions."))
    hands_played = 0
    while True:
        players = [p for p in names if state.stacks[p] > 0]
        if you not in players or len(players) < 2:
            break
        deck = game.deck(state)
        rng.shuffle(deck)
        state.shoe = state.shoe[:state.pos] + deck
        waiting = state.hand is not None and state.hand.carry
        if not waiting:      # a draw pot that waits is dealt again to the same players (003:4863-4866)
            hands_played += 1
            for player, amount in game.hand_bets(state, players):
                state = game.step(state, Bet(f"{hands_played}-{player}", player, "hand", amount))
        seen = len(state.log)
        state = game.step(state, Deal())
        quit_after = False
        while state.hand is not None and state.hand.phase not in ("over",):
            for line in state.log[seen:]:
                console.print(f"[italic]Croupier: {line}[/italic]")
            seen = len(state.log)
            due = _due(state)
            if due != you:
                state = game.step(state, bot_act(game, state, rng))
                continue
            console.print(table_view(game, state, you))
            try:
                line = read("[bold green]your move > [/bold green]").strip()
            except (EOFError, KeyboardInterrupt):
                line = "quit"
            if line.lower() in ("help", "?"):
                console.print(HELP)
                continue
            if line.lower() in ("quit", "q", "exit"):      # leave after this hand: the defaults play it out
                quit_after = True
                state = game.step(state, default_act(game, state))
                continue
            try:
                state = game.step(state, parse_decision(line, game, state))
            except (ValueError, ZeroDivisionError) as exc:
                console.print(f"[red]{exc}[/red]")
            except TapeteError as exc:
                console.print(f"[red]{exc.message}[/red]")
        for line in state.log[seen:]:
            console.print(f"[italic]Croupier: {line}[/italic]")
        if state.hand is not None and not state.hand.carry:
            console.print(table_view(game, state, you))
            results = Table(title=f"hand {hands_played}")
            for col in ("player", "staked", "returned", "net"):
                results.add_column(col)
            for s in state.hand.betting.seats:
                acc = state.accounts[s.bet]
                results.add_row(s.player, euros(acc.staked), euros(acc.returned), euros(acc.returned - acc.staked))
            console.print(results)
        console.print(f"[bold]your chips: {euros(state.stacks[you])}[/bold]   (house's take so far "
                      f"{euros(state.commission)})")
        if quit_after:
            break
        for bot in BOTS:      # a busted computer player buys in again
            if state.stacks[bot] <= 0:
                state.stacks[bot] = balance
    console.print(f"[bold]Good night.[/bold] You leave with {euros(state.stacks[you])}.")


def _due(state: CircleState) -> str:
    hand = state.hand
    assert hand is not None
    b = hand.betting
    if hand.phase == "bet":
        assert b.to_act is not None
        return b.seats[b.to_act].player
    if hand.phase == "draw":
        return b.seats[hand.draw_queue[0]].player
    return b.seats[hand.show_queue[0]].player
