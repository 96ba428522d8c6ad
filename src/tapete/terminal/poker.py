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
from tapete.core.rng import TableRng
from tapete.engine.events import Act, Bet, Deal
from tapete.games.poker import evaluator as ev
from tapete.games.poker.betting import Seat
from tapete.games.poker.circle import VARIANTS, CircleGame, CircleState
from tapete.i18n import Money
from tapete.terminal import register_player
from tapete.terminal.voice import QUIT_WORDS, Quit, Raw, voice

BOTS = ("Ana", "Luis", "Marta")
YOU = "you"
SUITS = {"S": "♠", "H": "[red]♥[/red]", "D": "[red]♦[/red]", "C": "♣"}


class DecisionError(ValueError):
    """A decision line the table cannot take: a catalog key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key, self.params = key, params


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
            raise DecisionError("poker.draw-how")
        i = hand.draw_queue[0]
        try:
            cards = [hand.holes[i][int(w) - 1] for w in words[1:]]
        except (ValueError, IndexError) as exc:
            raise DecisionError("poker.draw-positions") from exc
        return Act("draw", bet=bet_id, fields={"cards": cards})
    if hand.phase == "show":
        return Act("muck" if word == "m" else "show", bet=bet_id)
    if word in ("c", "check", "call", "paso", "pasar", "igualar", "ver"):
        return Act("check" if "check" in actions else "call", bet=bet_id)
    if word in ("f", "fold", "retirarse", "me retiro"):
        return Act("fold", bet=bet_id)
    if word in ("a", "allin", "all-in"):
        a = actions.get("bet") or actions.get("raise")
        if a is None:
            return Act("call", bet=bet_id)
        return Act(a.verb, bet=bet_id, fields={"amount": a.maximum})
    if word in ("b", "r", "bet", "raise", "apostar", "subir"):
        verb = "bet" if "bet" in actions else "raise"
        a = actions.get(verb)
        if a is None:
            raise DecisionError("poker.cannot-raise")
        if len(words) > 1:
            try:
                amount = round(Fraction(words[1].replace(",", ".")) * 100)
            except (ValueError, ZeroDivisionError) as exc:
                raise DecisionError("common.bad-amount") from exc
            if a.maximum is not None and amount > a.maximum:
                raise DecisionError("poker.at-most", amount=Money(a.maximum))
            if a.minimum is not None and amount < a.minimum:
                raise DecisionError("poker.at-least", amount=Money(a.minimum))
        elif a.targets:
            amount = a.targets[0]
        else:
            amount = a.minimum or 0
        return Act(verb, bet=bet_id, fields={"amount": amount})
    raise DecisionError("poker.bad-decision")


def display(player: str) -> str:
    """A seat's name as the player reads it: the computer players by name, the player as «tú» / «you»."""
    return voice().plain("poker.you-name") if player == YOU else player


def table_view(game: CircleGame, state: CircleState, you: str) -> Table:
    v = voice()
    hand = state.hand
    assert hand is not None
    b = hand.betting
    name = game.name_es if v.lang != "en" else game.name_en
    grid = Table(title=v.plain("poker.title", game=name, pot=v.money(b.pot())), show_header=True, expand=False)
    for col in ("seat", "player", "chips", "in-pot", "cards"):
        grid.add_column(v.plain(f"poker.col.{col}"))
    for i, s in enumerate(b.seats):
        if s.player == you or hand.phase == "over":
            cards = show_cards(hand.holes[i])
        else:
            cards = " ".join(show_cards([c]) if up else "🂠" for c, up in zip(hand.holes[i], hand.up[i], strict=True))
        mark = "▶ " if (hand.phase == "bet" and b.to_act == i) else ""
        status = "" if s.state in ("in", "allin") else f" ({v.plain('poker.state.' + s.state)})"
        grid.add_row(str(s.seat), f"{mark}{display(s.player)}{status}", v.money(s.stack), v.money(s.total), cards)
    if hand.board:
        grid.caption = v.t("poker.board", cards=Raw(show_cards(hand.board))) + (
            "   " + v.t("poker.board2", cards=Raw(show_cards(hand.board2))) if hand.board2 else "")
    return grid


def tell(game: CircleGame, before: CircleState, after: CircleState, act: Act, who: str) -> list[str]:
    """The croupier's sentence for what a player just did, from the act and the two states (never the engine's
    English log): 'Ana sube a 4,00 €', 'You call €2.00'."""
    v = voice()
    person = "you" if who == YOU else "other"
    hand_before, hand_after = before.hand, after.hand
    assert hand_before is not None and hand_after is not None
    i = next(k for k, s in enumerate(hand_before.betting.seats) if s.player == who)
    s0, s1 = hand_before.betting.seats[i], hand_after.betting.seats[i]
    put = s1.total - s0.total
    verb = act.do
    if verb in ("check", "fold", "muck"):
        return [v.t(f"poker.{person}.{verb}", name=who)]
    if verb == "call":
        return [v.t(f"poker.{person}.call", name=who, amount=Money(put))]
    if verb == "bet":
        return [v.t(f"poker.{person}.bet", name=who, amount=Money(s1.street))]
    if verb == "raise":
        return [v.t(f"poker.{person}.raise", name=who, amount=Money(s1.street))]
    if verb == "draw":
        n = len(act.fields.get("cards", []))
        key = "pat" if n == 0 else "draw-one" if n == 1 else "draw"
        return [v.t(f"poker.{person}.{key}", name=who, n=n)]
    if verb == "show":
        return [v.t(f"poker.{person}.show", name=who)]
    return []


def showdown(game: CircleGame, state: CircleState) -> list[str]:
    """Each hand still in at the end, named in the session language, and who takes what."""
    from tapete.games.poker.evaluator import category

    v = voice()
    hand = state.hand
    assert hand is not None
    lines = []
    live = [i for i, s in enumerate(hand.betting.seats) if s.state in ("in", "allin") and i not in hand.mucked]
    if len(live) > 1:
        for i in live:
            s = hand.betting.seats[i]
            high = game.strengths(state, hand, i)[0]
            name = v.plain("poker.hand." + category(high)) if high >= 0 else v.plain("poker.hand.void")
            person = "you" if s.player == YOU else "other"
            lines.append(v.t(f"poker.{person}.has", name=s.player, cards=Raw(show_cards(hand.holes[i])), hand=name))
    for s in hand.betting.seats:
        acc = state.accounts[s.bet]
        net = acc.returned - acc.staked
        person = "you" if s.player == YOU else "other"
        if net > 0:
            lines.append(v.t(f"poker.{person}.wins", name=s.player, amount=Money(net)))
    return lines


@register_player(*VARIANTS)
def play_poker(game: CircleGame, jurisdiction: str, *, minimum: int, balance: int, seed: str | None,
               console: Console, read: Callable[[str], str]) -> None:
    v = voice(console, read)
    rng = TableRng.from_hex(seed) if seed else TableRng()
    you = YOU
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
    name = game.name_es if v.lang != "en" else game.name_en
    console.print(Panel.fit(v.t("poker.header", game=name, jurisdiction=jurisdiction, minimum=Money(minimum),
                                balance=Money(balance), rake=rules.rake_max) + "\n" + v.t("common.seed", seed=rng.seed.hex())
                            + "\n" + v.t("poker.welcome")))
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
        state = game.step(state, Deal())
        assert state.hand is not None
        v.say("poker.new-hand", "italic", n=hands_played, pot=Money(state.hand.betting.pot()))
        board = len(state.hand.board)
        while state.hand is not None and state.hand.phase not in ("over",):
            if len(state.hand.board) > board:
                board = len(state.hand.board)
                v.say("poker.board-dealt", "italic", cards=Raw(show_cards(state.hand.board)))
            due = _due(state)
            if due != you:
                act = bot_act(game, state, rng)
                before = state        # step() leaves the state it was given untouched
                state = game.step(state, act)
                for line in tell(game, before, state, act, due):
                    console.print(f"[italic]{line}[/italic]")
                continue
            console.print(table_view(game, state, you))
            line = v.read("poker.prompt")
            low = line.lower()
            if low in ("help", "?", "ayuda"):
                console.print(v.t("poker.help"))
                continue
            if low in QUIT_WORDS:      # leaving never acts for the player: confirm, then the hand is abandoned
                yes, no = v.plain("common.yes"), v.plain("common.no")
                try:
                    sure = v.ask("poker.quit-ask", [yes, no], amount=Money(_mine(state).total))
                except Quit:
                    sure = yes
                if sure == yes:
                    seat = _mine(state)
                    v.say("poker.quit-abandoned", amount=Money(seat.total))
                    v.say("common.goodbye", amount=Money(seat.stack))
                    return
                continue
            try:
                act = parse_decision(line, game, state)
                before = state        # step() leaves the state it was given untouched
                state = game.step(state, act)
            except DecisionError as exc:
                v.warn(exc.key, **exc.params)
                continue
            except (ValueError, ZeroDivisionError):
                v.warn("poker.bad-decision")
                continue
            except TapeteError as exc:
                v.error(exc)
                continue
            for said in tell(game, before, state, act, you):
                console.print(f"[italic]{said}[/italic]")
        if state.hand is not None and not state.hand.carry:
            if len(state.hand.board) > board:
                v.say("poker.board-dealt", "italic", cards=Raw(show_cards(state.hand.board)))
            console.print(table_view(game, state, you))
            for said in showdown(game, state):
                console.print(said)
            results = Table(title=v.plain("poker.hand-title", n=hands_played))
            for col in ("player", "staked", "returned", "net"):
                results.add_column(v.plain(f"poker.col.{col}"))
            for s in state.hand.betting.seats:
                acc = state.accounts[s.bet]
                results.add_row(display(s.player), v.money(acc.staked), v.money(acc.returned),
                                v.money(acc.returned - acc.staked))
            console.print(results)
        elif state.hand is not None:
            v.say("poker.pot-waits", "italic", pot=Money(state.hand.betting.pot()))
        v.say("poker.chips", amount=Money(state.stacks[you]), rake=Money(state.commission))
        for bot in BOTS:      # a busted computer player buys in again
            if state.stacks[bot] <= 0:
                state.stacks[bot] = balance
    v.say("common.goodbye", amount=Money(state.stacks[you]))


def _mine(state: CircleState) -> Seat:
    hand = state.hand
    assert hand is not None
    return next(s for s in hand.betting.seats if s.player == YOU)


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
