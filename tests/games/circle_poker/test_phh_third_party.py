"""PHH files tapete did not write (docs/rulings.md#phh-import-as-written): hands played by PokerKit's own API with
random legal actions and dumped to PHH by PokerKit — blinds with antes, odd blinds, heads-up, unknown hole cards,
all-in hands whose shows come before the rest of the board. Each is imported and settled by tapete: every final
stack equals PokerKit's, or the import refuses with `phh-unrepresentable`; a hand a Spanish table cannot play as
written (blinds and antes together 003:4429-4447, blinds other than m/2 and m 003:4440-4445) is always refused."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tapete.conformance.document import settle_document
from tapete.core.errors import TapeteError
from tapete.games.poker.phh import UNREPRESENTABLE, import_hand

pokerkit = pytest.importorskip("pokerkit")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
AUTOMATIONS = ("ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING", "HAND_KILLING", "CHIPS_PUSHING",
               "CHIPS_PULLING")
FORCED = {  # name -> (antes, small blind, big blind); the minimum bet is 100
    "blinds": (0, 50, 100), "antes": (50, 0, 0), "odd-blinds": (0, 40, 100), "blinds-and-antes": (10, 50, 100)}
REPRESENTABLE = ("blinds", "antes")


def pokerkit_hand(seed: int, variant: str, forced: str) -> tuple[str, list[int]]:
    """A hand played by PokerKit itself, every decision random and legal: its PHH text and final stacks."""
    from pokerkit import (
        Automation,
        FixedLimitTexasHoldem,
        HandHistory,
        NoLimitTexasHoldem,
        PotLimitOmahaHoldem,
    )

    rnd = random.Random(seed)
    n = 2 if seed % 4 == 0 else rnd.randint(3, 6)
    ante, small, big = FORCED[forced]
    blinds = (small, big) if big else ()
    automations = tuple(getattr(Automation, a) for a in AUTOMATIONS)
    if variant == "FT":
        game: Any = FixedLimitTexasHoldem(automations, True, ante, blinds, 100, 200)
    elif variant == "PO":
        game = PotLimitOmahaHoldem(automations, True, ante, blinds, 100)
    else:
        game = NoLimitTexasHoldem(automations, True, ante, blinds, 100)
    stacks = [rnd.choice([700, 2000, 5000]) for _ in range(n)]
    state = game(stacks, n)
    deck = DECK[:]
    rnd.shuffle(deck)
    while state.status:
        if state.can_burn_card():
            state.burn_card(deck.pop())
        elif state.can_deal_hole():
            state.deal_hole(deck.pop())
        elif state.can_deal_board():
            state.deal_board("".join(deck.pop() for _ in range(state.street.board_dealing_count)))
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(rnd.random() < 0.8)
        else:
            moves = ["cc"] + (["f"] if state.can_fold() else []) + (["cbr"] * 2 if state.can_complete_bet_or_raise_to()
                                                                     else [])
            move = rnd.choice(moves)
            if move == "cc":
                state.check_or_call()
            elif move == "f":
                state.fold()
            else:
                low, high = state.min_completion_betting_or_raising_to_amount, \
                    state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rnd.choice([low, high, rnd.randint(low, high)]))
    names = [f"p{k + 1}" for k in range(n)]      # seats as casinos number them: p1 at seat 1, clockwise
    text = HandHistory.from_game_state(game, state, players=names, seats=list(range(1, n + 1))).dumps()
    return _hide_cards(text, rnd), list(state.stacks)


def _hide_cards(text: str, rnd: random.Random) -> str:
    """As real histories do: the hole cards of a player who never shows are unknown (`????`); a player who shows
    may also have had his written as unknown, his show tells them."""
    shown = set(re.findall(r"p(\d+) sm [2-9TJQKA]", text))

    def hide(match: re.Match[str]) -> str:
        k, cards = match.group(1), match.group(2)
        if k not in shown or rnd.random() < 0.3:
            return f"d dh p{k} {'?' * len(cards)}"
        return match.group(0)

    return re.sub(r"d dh p(\d+) ([2-9TJQKAshdc]+)", hide, text)


def tapete_stacks(text: str) -> list[int]:
    """Tapete's final stacks for the imported hand, PHH positions p1, p2..."""
    doc = import_hand(text)
    answer = settle_document(doc)
    if "error" in answer:
        raise TapeteError(answer["error"]["code"], answer["error"]["message"])
    start = {s["player"]: s["stack"] for s in doc["table"]["seats"]}
    owner = {e["bet"]["id"]: e["bet"]["player"] for e in doc["events"] if "bet" in e}
    final = dict(start)
    for bet, acc in answer["bets"].items():
        final[owner[bet]] += acc["returned"] - acc["staked"]
    n = len(start)
    return [final[f"p{k + 1}"] for k in range(n)]


@pytest.mark.parametrize("variant", ["NT", "FT", "PO"])
def test_phh_import_settles_as_the_file_or_refuses(variant: str) -> None:
    """R-PHH-AS-WRITTEN: over PokerKit's own hands, tapete's final stacks are PokerKit's, or the hand is refused
    with phh-unrepresentable; blinds with antes and odd blinds are always refused."""
    imported = refused = 0
    kinds: set[str] = set()
    for seed in range(96):
        forced = list(FORCED)[seed % len(FORCED)]
        try:
            text, theirs = pokerkit_hand(seed, variant, forced)
        except AssertionError:
            continue        # PokerKit 0.7 trips on its own effective-stack assertion in a few folds to one player
        try:
            ours = tapete_stacks(text)
        except TapeteError as exc:
            assert exc.code == UNREPRESENTABLE, (text, exc.message)
            refused += 1
            continue
        assert forced in REPRESENTABLE, text         # never settled under other forced bets than the file's
        assert ours == theirs, (text, ours, theirs)
        imported += 1
        kinds |= {"heads-up"} if len(theirs) == 2 else set()
        kinds |= {"unknown"} if "??" in text else set()
        kinds |= {"early-show"} if re.search(r"sm [2-9TJQKA].*'d db", text) else set()
    assert imported >= 20, (imported, refused)
    assert {"heads-up", "unknown", "early-show"} <= kinds, kinds


def test_phh_early_shows_and_heads_up_blinds() -> None:
    """An all-in heads-up hand as PokerKit writes it: p1 posts the big blind, both show before the board."""
    text = "\n".join([
        "variant = 'NT'", "antes = [0, 0]", "blinds_or_straddles = [50, 100]", "min_bet = 100",
        "starting_stacks = [1000, 1000]", "actions = ['d dh p1 AsAc', 'd dh p2 KdKh', 'p2 cbr 1000', 'p1 cc',",
        "'p1 sm AsAc', 'p2 sm KdKh', 'd db 2c7h9s', 'd db Jd', 'd db 3s']"])
    assert tapete_stacks(text) == [2000, 0]


@pytest.mark.parametrize(("fields", "why"), [
    ("antes = [10, 10, 10]\nblinds_or_straddles = [50, 100, 0]", "antes together"),
    ("antes = [0, 0, 0]\nblinds_or_straddles = [40, 100, 0]", "m/2 and m"),
    ("antes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 200]", "straddle"),
    ("antes = [0, 0, 0]\nblinds_or_straddles = [0.5, 1, 0]", "whole number"),
])
def test_phh_refuses_what_spanish_tables_cannot_play(fields: str, why: str) -> None:
    """R-PHH-AS-WRITTEN (003:4429-4447): refused with a clear code, never re-read as m/2 and m."""
    text = fields + "\nvariant = 'NT'\nmin_bet = 100\nstarting_stacks = [1000, 1000, 1000]\nactions = []\n"
    with pytest.raises(TapeteError) as err:
        import_hand(text)
    assert err.value.code == UNREPRESENTABLE and why in err.value.message


def test_phh_refuses_a_posted_bring_in() -> None:
    """003:5010-5014: the lowest card opens with at least the minimum; PHH's `pb` has no Spanish meaning."""
    text = ("variant = 'F7S'\nantes = [10, 10]\nbring_in = 20\nsmall_bet = 100\nbig_bet = 200\n"
            "starting_stacks = [1000, 1000]\nactions = ['d dh p1 2c3c4c', 'd dh p2 5d6d7d', 'p1 pb']\n")
    with pytest.raises(TapeteError) as err:
        import_hand(text)
    assert err.value.code == UNREPRESENTABLE and "bring-in" in err.value.message


def test_heads_up_blinds_without_tapete_forced_settle_as_exported() -> None:
    """Heads-up with blinds, our own export without `_tapete_forced`: p1 posts the big blind (PokerKit's
    convention); the blinds are no longer swapped and refused (003:4440-4445)."""
    from tapete.catalog import get_game
    from tapete.engine.events import Act, Bet, Deal
    from tapete.games.poker.phh import export_hand

    game = get_game("holdem")
    for seed in range(6):
        rnd = random.Random(seed)
        deck = [r + s for r in "23456789TJQKA" for s in "SHDC"]
        rnd.shuffle(deck)
        seats = [{"seat": 2, "player": "P0", "stack": 3000}, {"seat": 1, "player": "P1", "stack": 5000}]
        state = game.open("ES-AN", {"minimum": 200, "forced": "blinds", "rake": 0, "seats": seats, "button": 1}, deck)
        state = game.step(state, Bet("h0", "P0", "hand", 100))
        state = game.step(state, Bet("h1", "P1", "hand", 200))
        state = game.step(state, Deal())
        while state.hand.phase != "over":
            a = rnd.choice([a for a in game.legal_actions(state) if a.verb != "muck"])
            fields = {"amount": a.minimum} if a.verb in ("bet", "raise") else {}
            state = game.step(state, Act(a.verb, bet=a.bet, fields=fields))
        text = "\n".join(line for line in export_hand(state).splitlines() if not line.startswith("_tapete_forced"))
        answer = settle_document(import_hand(text))
        assert "error" not in answer, (text, answer)
        for bet in ("h0", "h1"):
            acc = state.accounts[bet]
            assert (answer["bets"][bet]["staked"], answer["bets"][bet]["returned"]) == (acc.staked, acc.returned)
