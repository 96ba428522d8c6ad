"""Independent agreement: tapete and crapssim (skent259/crapssim) through the same seeded rolls and bets.

Both tables get the same bets from one rule that looks only at what each table shows (its point, the bets
it still has up), then the same roll; after every roll the player's money — cash plus what rides on the
layout — must be identical to the cent.

Where the two rule sets coincide, with crapssim set to `come_out_working_policy="legacy"` and every odds bet
`always_working=True` (the catalogs have no "off on the come-out": docs/rulings.md#craps-working-on-come-out):
pass, don't pass, come, don't come, their odds (true odds, lay odds for the don'ts), right bets on every
number, hardways, field (2 and 12 at 2:1), big 6/8, any seven, eleven, any craps, craps 2/3/12.

Left out, because the catalogs differ from crapssim's rules:
- horn: one bet at 4:1 on 2, 3, 11 or 12 (000:640); crapssim splits it four ways at 27:4 / 3:1;
- wrong bet (place-to-lose): fixed 5:11, 5:8, 4:5 without commission (000:656-658); crapssim's Lay charges vig;
- under 7 / over 7: not in crapssim.
One difference is reconciled, not left out: on a don't's first-roll 12 crapssim returns the stake (push),
the catalogs keep the bet riding (000:576, "resultado nulo"). The rule puts a fresh don't back up on
crapssim's side, so the money on the table is the same on both.
"""

from __future__ import annotations

import numpy as np
import pytest

from tapete.catalog import get_game
from tapete.engine.events import Bet, Outcome

crapssim = pytest.importorskip("crapssim", reason="crapssim is a test-only dependency: pip install crapssim")
from crapssim import bet as cb  # noqa: E402
from crapssim.table import Table, TableUpdate  # noqa: E402

GAME = get_game("craps")
START = 1_000_000      # euros on both sides; tapete counts cents
LAY = {4: 20, 10: 20, 5: 15, 9: 15, 6: 12, 8: 12}        # lay odds that win 10 (within 200/150/120 %)
PLACE = {4: 10, 5: 10, 6: 12, 8: 12, 9: 10, 10: 10}
ONE_ROLL = {"field": cb.Field, "any-seven": cb.Any7, "eleven": cb.Yo, "any-craps": cb.AnyCraps, "craps-2": cb.Two,
            "craps-3": cb.Three, "craps-12": cb.Boxcars}


class Tapete:
    def __init__(self, jurisdiction: str) -> None:
        self.state = GAME.open(jurisdiction, {"minimum": 100})
        self.count = 0
        self.out = 0                       # cents put on the table
        self.back, self.seen = 0, 0

    def up(self) -> list[tuple[str, int | None, object]]:
        return [(b.kind, b.number, b) for b in self.state.bets]

    def place(self, kind: str, euros: int, on: tuple | None = None) -> None:
        self.count += 1
        GAME.apply(self.state, Bet(f"b{self.count}", "p", kind, euros * 100, on))
        self.out += euros * 100

    def roll(self, dice: list[int]) -> None:
        GAME.apply(self.state, Outcome("roll", dice))

    def money(self) -> int:
        """Cash plus what rides: what was handed back for decided bets, plus the stakes still working."""
        decided = list(self.state.decided.values())
        self.back += sum(b.returned for b in decided[self.seen:])
        self.seen = len(decided)
        riding = sum(b.amount for b in self.state.bets)
        return int(START * 100 - self.out + self.back + riding)

    def settled_money(self) -> int:
        """The same from the settlement document (checked once, at the end): what rides is still the
        player's, so cash plus layout is the start less the house's net over the decided bets."""
        return START * 100 - GAME.settle(self.state).document()["house"]["net"]


class Sim:
    def __init__(self) -> None:
        self.table = Table(seed=0)
        self.table.settings["come_out_working_policy"] = "legacy"
        self.player = self.table.add_player(bankroll=START, strategy=crapssim.strategy.tools.NullStrategy())

    def money(self) -> int:
        return round((self.player.bankroll + sum(b.amount for b in self.player.bets)) * 100)

    def roll(self, dice: list[int]) -> None:
        TableUpdate().run(self.table, dice_outcome=tuple(dice))


def rule(point: int | None, up: set[tuple[str, int | None]], odds_on: set[tuple[str, int]]) -> list[tuple]:
    """What to put up before the next roll, from what a table shows. Returns (kind, euros, number)."""
    want: list[tuple] = []
    if point is None:
        want += [(k, 10, None) for k in ("pass", "dont-pass") if (k, None) not in up]
    else:
        want += [(k, 10, None) for k in ("come", "dont-come") if (k, None) not in up]
    for kind, number in sorted(up, key=str):
        if kind in ("pass", "come") and number and (kind, number) not in odds_on:
            want.append(("odds", 10, (kind, number)))
        if kind in ("dont-pass", "dont-come") and number and (kind, number) not in odds_on:
            want.append(("odds", LAY[number], (kind, number)))
    want += [("place", PLACE[n], n) for n in PLACE if ("place", n) not in up]
    want += [("hardway", 5, n) for n in (4, 6, 8, 10) if ("hardway", n) not in up]
    want += [(k, 5, None) for k in ("big-6", "big-8") if (k, None) not in up]
    want += [(k, 5, None) for k in ONE_ROLL]
    return want


def tapete_view(t: Tapete) -> tuple[int | None, set, set]:
    up, odds_on = set(), set()
    for kind, number, bet in t.up():
        if kind == "odds":
            parent = next(b for b in t.state.bets if b.id == bet.parent)
            odds_on.add((parent.kind, parent.number))
        else:
            up.add((kind, number))
    return t.state.point, up, odds_on


SIM_KIND = {cb.PassLine: "pass", cb.DontPass: "dont-pass", cb.Come: "come", cb.DontCome: "dont-come",
            cb.Place: "place", cb.HardWay: "hardway", cb.Big6: "big-6", cb.Big8: "big-8"}


def sim_view(s: Sim) -> tuple[int | None, set, set]:
    up, odds_on = set(), set()
    for b in s.player.bets:
        if isinstance(b, cb.Odds):
            parent = SIM_KIND[b.base_type]
            odds_on.add((parent, b.number if parent in ("come", "dont-come") else s.table.point.number))
        elif type(b) in SIM_KIND:
            kind = SIM_KIND[type(b)]
            number = s.table.point.number if kind in ("pass", "dont-pass") else getattr(b, "number", None)
            up.add((kind, None if kind in ("big-6", "big-8") else number))
    return s.table.point.number, up, odds_on


def place_tapete(t: Tapete, want: list[tuple]) -> None:
    for kind, euros, target in want:
        if kind == "odds":
            side, number = target
            parent = next(b for b in t.state.bets if b.kind == side and b.number == number)
            t.place("odds", euros, (parent.id,))
        elif kind in ("place", "hardway"):
            t.place(kind, euros, (target,))
        else:
            t.place(kind, euros)


def place_sim(s: Sim, want: list[tuple]) -> None:
    classes = {"pass": cb.PassLine, "dont-pass": cb.DontPass, "come": cb.Come, "dont-come": cb.DontCome,
               "big-6": cb.Big6, "big-8": cb.Big8}
    for kind, euros, target in want:
        if kind == "odds":
            side, number = target
            base = {v: k for k, v in SIM_KIND.items()}[side]
            bet = cb.Odds(base, number, euros, always_working=True)
        elif kind == "place":
            bet = cb.Place(target, euros, always_working=True)
        elif kind == "hardway":
            bet = cb.HardWay(target, euros)
        elif kind in ONE_ROLL:
            bet = ONE_ROLL[kind](euros)
        else:
            bet = classes[kind](euros)
        before = len(s.player.bets)
        s.player.add_bet(bet)
        assert len(s.player.bets) > before or kind == "odds", (kind, target, "crapssim refused the bet")


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("jurisdiction", ["ES", "ES-AN"])
def test_same_rolls_same_bets_same_money(seed: int, jurisdiction: str) -> None:
    rolls = np.random.default_rng(seed).integers(1, 7, size=(400, 2)).tolist()
    t, s = Tapete(jurisdiction), Sim()
    for i, dice in enumerate(rolls):
        t_point, t_up, t_odds = tapete_view(t)
        s_point, s_up, s_odds = sim_view(s)
        assert t_point == s_point, (i, t_point, s_point)
        place_tapete(t, rule(t_point, t_up, t_odds))
        place_sim(s, rule(s_point, s_up, s_odds))
        t.roll(dice)
        s.roll(dice)
        assert t.money() == s.money(), (i, dice, t.money(), s.money())
    assert t.state.rounds == len(rolls) and t.settled_money() == s.money()


def test_the_bar_12_is_where_the_two_differ() -> None:
    """crapssim returns a don't on a first-roll 12; the catalogs keep it riding (000:576)."""
    t, s = Tapete("ES"), Sim()
    place_tapete(t, [("dont-pass", 10, None)])
    place_sim(s, [("dont-pass", 10, None)])
    t.roll([6, 6])
    s.roll([6, 6])
    assert [b.kind for b in t.state.bets] == ["dont-pass"]
    assert s.player.bets == []
    assert t.money() == s.money()


def test_crapssim_playing_the_simulated_strategy_ends_with_the_kernels_money() -> None:
    """The benchmark's strategy, as crapssim's own Strategy objects, through the kernel's rolls."""
    from crapssim.strategy import BetPassLine, BetPlace, PassLineOddsMultiplier
    from crapssim.strategy.single_bet import StrategyMode

    from tapete.analysis.craps_sim import Strategy, dice_of, roll_bytes, simulate

    result = simulate(Strategy(1000, True, 1200, 1200), rolls=3000, seed=5, chunk=3000)
    table = Table(seed=0)
    table.settings["come_out_working_policy"] = "legacy"
    player = table.add_player(bankroll=START, strategy=BetPassLine(10) + PassLineOddsMultiplier(1) + BetPlace(
        {6: 12, 8: 12}, mode=StrategyMode.ADD_IF_NOT_BET, skip_point=False, always_working=True))
    table.fixed_run([tuple(dice_of(int(c))) for c in roll_bytes(5, 0, 3000)])
    sim_money = round((player.bankroll + sum(b.amount for b in player.bets)) * 100)
    assert sim_money == START * 100 + int(result.totals[:, 2].sum() - result.totals[:, 1].sum())
