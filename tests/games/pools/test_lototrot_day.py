"""Lototrot's daily settlement (spec C.1.6) on the spec's golden cases L1-L9, payment and expiry (L11), and
Promotrot's payment and receipt rules (P2, P3)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from tapete.games.lototrot import RULES, Race, order_prizes, settle_day
from tapete.games.pools import (
    expired,
    last_presentation_day,
    payable_from,
    payment_means,
    payment_place,
    proportional_shares,
    unclaimed_goes_to,
)

E = 100
P60 = Fraction(60)


def day(T: int, J: int, n: tuple[int, int, int, int], R: int = 0, p: Fraction = P60, **kw):
    d = settle_day(T * E, p, J * E, R * E, dict(zip(("7", "6", "5", "4"), n, strict=True)), **kw)
    assert d.paid + d.house + d.jackpot_out + d.reserve_out == d.staked + d.jackpot_in + d.reserve_in
    return d


def prizes(d) -> tuple[int, ...]:
    return tuple(d.per_winner[k] // E for k in ("7", "6", "5", "4"))


def test_L1_normal_day_below_the_threshold() -> None:
    d = day(200_000, 40_000, (1, 8, 120, 1500))
    assert d.fund == 120_000 * E and d.house == 80_000 * E and not d.above_threshold
    assert {k: v / E for k, v in d.split.items()} == {"7": 36_000, "6": 24_000, "5": 24_000, "4": 36_000}
    assert prizes(d) == (76_000, 3_000, 200, 24) and d.jackpot_out == 0 and d.reserve_out == 0
    assert d.paid == 160_000 * E                      # = F + J


def test_L1_variants_55_refused_65_accepted() -> None:
    d = day(200_000, 40_000, (1, 8, 120, 1500), p=Fraction(65))
    assert d.fund == 130_000 * E and d.house == 70_000 * E
    assert RULES.prize_percentage_minimum == 60


def test_L2_no_7_of_7_winner_rolls_the_jackpot_over() -> None:
    d = day(200_000, 40_000, (0, 8, 120, 1500))
    assert prizes(d) == (0, 3_000, 200, 24) and d.jackpot_out == 76_000 * E


def test_L3_above_the_threshold_the_reserve_fund_accrues() -> None:
    d = day(200_000, 180_000, (0, 6, 100, 1200))
    assert d.above_threshold and d.split["reserve"] == 12_000 * E
    assert prizes(d) == (0, 4_000, 240, 30)
    assert d.jackpot_out == 204_000 * E and d.reserve_out == 12_000 * E


def test_L4_reserve_paid_on_the_next_winning_day() -> None:
    d = day(100_000, 204_000, (2, 4, 60, 900), R=12_000)
    assert prizes(d) == (114_000, 3_000, 200, 20) and d.jackpot_out == 0 and d.reserve_out == 6_000 * E
    alt = day(100_000, 204_000, (2, 4, 60, 900), R=12_000, reserve_paid="all")
    assert prizes(alt)[0] == 117_000 and alt.reserve_out == 0


def test_L5_no_6_of_7_rolls_down_to_5_of_7() -> None:
    assert prizes(day(100_000, 10_000, (1, 0, 48, 600))) == (28_000, 0, 500, 30)


def test_L6_chain_roll_down_to_4_of_7_and_to_the_reserve() -> None:
    a = day(100_000, 10_000, (1, 0, 0, 400))
    assert prizes(a) == (28_000, 0, 0, 105)
    b = day(100_000, 10_000, (1, 0, 0, 0))
    assert prizes(b) == (28_000, 0, 0, 0) and b.reserve_out == 42_000 * E and b.jackpot_out == 0


def test_L7_inversion_fixed_by_step_a() -> None:
    assert prizes(day(100_000, 50_000, (1, 10, 40, 50))) == (68_000, 1_200, 375, 300)


def test_L8_inversion_needing_step_b() -> None:
    assert prizes(day(100_000, 50_000, (1, 10, 40, 20))) == (68_000, 1_200, 500, 500)


def test_L9_7_of_7_against_6_of_7_after_a_jackpot() -> None:
    d = day(100_000, 0, (3, 1, 30, 600))
    assert prizes(d) == (7_500, 7_500, 400, 30) and d.paid == 60_000 * E


def test_D5_inversion_compares_only_categories_with_winners() -> None:
    # no 6/7 winners: 7/7 is compared with 5/7 directly
    per = order_prizes({"7": Fraction(100), "6": Fraction(0), "5": Fraction(300), "4": Fraction(10)},
                       {"7": 1, "6": 0, "5": 1, "4": 1})
    assert per == {"7": 200, "5": 200, "4": 10}


def test_D1_threshold_exactly_150000_uses_the_lower_table_unless_configured() -> None:
    assert not day(100_000, 150_000, (1, 1, 1, 1)).above_threshold
    assert day(100_000, 150_000, (1, 1, 1, 1), threshold_equal="above").above_threshold


def test_D8_truncated_cents_go_to_the_next_7_of_7_or_to_the_organiser() -> None:
    d = settle_day(100, P60, 0, 0, {"7": 1, "6": 0, "5": 0, "4": 5})   # 4/7: 0.18 + 0.12 + 0.12 = 0.42 / 5
    assert d.per_winner["4"] == 8 and d.per_winner["7"] == 18
    assert d.remainder == 2 and d.jackpot_out == 2
    o = settle_day(100, P60, 0, 0, {"7": 1, "6": 0, "5": 0, "4": 5}, remainder="organiser")
    assert o.jackpot_out == 0 and o.house == d.house + d.remainder


def test_L10_scratched_horse_passes_to_the_next_number_wrapping_round() -> None:
    r5 = Race(10, [8], [9])
    assert r5.counts_as(8) == 9 and r5.counts_as(10) == 10
    assert Race(10, [8, 9], [10]).counts_as(8) == 10
    assert Race(6, [6], [1]).counts_as(6) == 1
    assert Race(6, [1, 6], [2]).counts_as(6) == 2          # D-11: keep going to the first starter


def test_L11_payment_dates_and_expiry() -> None:
    race_day = date(2006, 3, 5)
    assert payable_from(race_day) == date(2006, 3, 6)
    assert last_presentation_day(race_day) == date(2006, 4, 4)
    assert not expired(race_day, date(2006, 4, 4)) and expired(race_day, date(2006, 4, 5))


@pytest.mark.parametrize("prize, place, means", [
    (10_000, "any outlet", "cash"),
    (12_000, "any outlet", "cash"),                                   # D-14: 120 € is "hasta 120"
    (25_000, "outlet or Central Prize Office", "cash"),
    (30_000, "Central Prize Office only", "cash"),                    # D-14: 300 € is "desde 300"
    (100_000, "Central Prize Office only", "cash"),                   # D-15: 1,000 € in cash
    (150_000, "Central Prize Office only", "nominative cheque"),
])
def test_L11_where_and_how_prizes_are_paid(prize: int, place: str, means: str) -> None:
    assert payment_place(prize) == place and payment_means(prize) == means


def test_L11_unclaimed_prize_goes_to_the_first_race_day_after_expiry() -> None:
    race_days = [date(2006, 3, 5), date(2006, 4, 2), date(2006, 4, 9), date(2006, 4, 16)]
    assert unclaimed_goes_to(date(2006, 3, 5), race_days) == date(2006, 4, 9)
    assert unclaimed_goes_to(date(2006, 3, 5), race_days[:2]) is None


def test_P2_payment_point_of_a_prize_in_kind_taken_in_cash() -> None:
    assert payment_place(10_000) == "any outlet"                      # 100.00 paid at once by the premises
    assert payment_place(45_000) == "Central Prize Office only"       # 450.00 >= 300


def test_P3_receipt_expires_thirty_days_after_issue() -> None:
    issued = date(2006, 1, 10)
    assert not expired(issued, date(2006, 2, 9)) and expired(issued, date(2006, 2, 10))


def test_B3_bingo_shares_per_card_and_in_proportion_to_face_value() -> None:
    assert proportional_shares(24_000, {"A-0101": 300, "A-0102": 300, "A-0345": 300}) == \
        {"A-0101": 8_000, "A-0102": 8_000, "A-0345": 8_000}
    assert proportional_shares(4_500, {"X": 300, "L": 600}) == {"X": 1_500, "L": 3_000}
    assert proportional_shares(100, {"a": 1, "b": 1, "c": 1}) == {"a": 33, "b": 33, "c": 33}
