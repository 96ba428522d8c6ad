"""Hand histories: every hand exports to PHH and re-imports to a document that settles the same; for the variants
PokerKit shares (NT, FT, PO, FO/8, F7S) PokerKit replays our histories and finds the same pots and winners."""

from __future__ import annotations

import random

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.engine.events import Act, Bet, Deal
from tapete.games.poker.circle import VARIANTS
from tapete.games.poker.phh import export_hand, import_hand, phh_order

pokerkit = pytest.importorskip("pokerkit")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")   # PokerKit comments on pointless folds

DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]
SHARED = [("holdem", "no-limit", "blinds"), ("holdem", "fixed", "blinds"), ("omaha", "pot-limit", "blinds"),
          ("omaha-hilo", "fixed", "blinds"), ("seven-stud", "fixed", "ante")]


def play(game_id: str, structure: str, forced: str, seed: int, *, rake: int = 0, muck: bool = False):
    """A random hand through our reducer, every decision drawn from `legal_actions`."""
    rnd = random.Random(seed)
    game = get_game(game_id)
    n = rnd.randint(2, 6)
    deck = [c for c in DECK if game_id != "poker-sintetico" or c[0] in "89TJQKA"]
    rnd.shuffle(deck)
    if game_id == "poker-sintetico":
        seats = [{"seat": k + 1, "player": f"P{k}", "stack": rnd.choice([600, 2000, 5000])} for k in range(n)]
    else:
        seats = [{"seat": n - k, "player": f"P{k}", "stack": rnd.choice([600, 2000, 5000])} for k in range(n)]
    table = {"minimum": 200, "structure": structure, "forced": forced, "ante": 100, "rake": rake, "seats": seats,
             "button": 1, "raise-cap": "round"} if game_id in ("seven-stud", "five-stud") else {
        "minimum": 200, "structure": structure, "forced": forced, "ante": 100, "rake": rake, "seats": seats, "button": 1}
    state = game.open("ES-AN", table, deck)
    amounts = [100] * n if forced == "ante" else [100, 200] + [0] * (n - 2)
    for k in range(n):
        state = game.step(state, Bet(f"h{k}", f"P{k}", "hand", amounts[k]))
    state = game.step(state, Deal())
    while state.hand.phase != "over":
        actions = [a for a in game.legal_actions(state) if muck or a.verb != "muck"]
        a = rnd.choice(actions)
        fields = {}
        if a.verb in ("bet", "raise"):
            fields["amount"] = rnd.choice(list(a.targets)) if a.targets else rnd.randint(a.minimum, a.maximum)
        if a.verb == "draw":
            i = state.hand.betting.index(a.bet)
            fields["cards"] = rnd.sample(state.hand.holes[i], rnd.randint(0, 3))
        state = game.step(state, Act(a.verb, bet=a.bet, fields=fields))
    return game, state


@pytest.mark.parametrize("game_id", list(VARIANTS))
def test_export_import_round_trip(game_id: str) -> None:
    """A hand exported to PHH and imported back settles exactly as the original."""
    checked = 0
    for seed in range(30):
        structure = "no-limit" if game_id == "poker-sintetico" else ("fixed", "pot-limit", "no-limit")[seed % 3]
        forced = "blinds" if game_id in ("holdem", "omaha", "omaha-5", "omaha-hilo", "double-holdem") and seed % 2 else "ante"
        game, state = play(game_id, structure, forced, seed, rake=5, muck=True)
        if state.hand.carry:
            continue
        text = export_hand(state)
        doc = import_hand(text)
        answer = settle_document(doc)
        assert "error" not in answer, (text, answer)
        for s in state.hand.betting.seats:
            acc = state.accounts[s.bet]
            got = answer["bets"][s.bet]
            assert (got["staked"], got["returned"]) == (acc.staked, acc.returned), text
        checked += 1
    assert checked >= 20


def replay_in_pokerkit(text: str) -> tuple[list[int], list[tuple[int, frozenset[int]]]]:
    """PokerKit's final stacks and its pots (amount, eligible players), applying our actions one by one."""
    from pokerkit.notation import HandHistory, parse_action

    hh = HandHistory.loads(text)
    state = hh.create_state()
    pots: list[tuple[int, frozenset[int]]] = []

    def service(before: str = "") -> None:
        while True:
            if before.startswith("d ") and state.actor_index is not None and not state.checking_or_calling_amount:
                state.check_or_call()   # a lone player with chips: we skip his turn, PokerKit asks for a check
            elif state.can_burn_card():
                state.burn_card("??")
            elif state.can_show_or_muck_hole_cards():
                if not pots:
                    pots.extend((p.amount, frozenset(p.player_indices)) for p in state.pots)
                state.show_or_muck_hole_cards(True)
            else:
                return

    for action in hh.actions:
        if " sm" in action:
            continue            # PokerKit shows in its own order; the cards speak anyway (003:4624-4634)
        service(action)
        parse_action(state, action, hh.parse_value)
    service("d (end of the hand)")
    if not pots and state.pots:
        pots.extend((p.amount, frozenset(p.player_indices)) for p in state.pots)
    return list(state.stacks), pots


@pytest.mark.parametrize(("game_id", "structure", "forced"), SHARED)
def test_pokerkit_replays_our_hands(game_id: str, structure: str, forced: str) -> None:
    """Same final stacks (so the same winners and shares) as PokerKit, hand after hand; odd chips may differ by
    one chip per tied player (the catalog gives them to the last bettor, PokerKit by position)."""
    compared = refused = 0
    for seed in range(40):
        game, state = play(game_id, structure, forced, 1000 + seed)
        text = export_hand(state)
        try:
            stacks, _pots = replay_in_pokerkit(text)
        except ValueError:
            refused += 1        # a Spanish rule PokerKit does not have (unlimited raises heads-up...)
            continue
        seats = state.hand.betting.seats
        ours = [seats[i].stack for i in phh_order(len(seats), state.config.forced)]
        ties = "split" in " ".join(state.log) or any(line.count(",") > 0 and "pot" in line for line in state.log[-3:])
        for a, b in zip(ours, stacks, strict=True):
            assert abs(a - b) <= (1 if ties else 0), (text, ours, stacks)
        assert sum(stacks) == sum(ours)
        compared += 1
    assert compared >= 30, (compared, refused)
