"""Issue 27, points 4-7: figures that say what they are.

* every bet with more than one stake or a premium carries both per-unit figures, recomputed here from scratch;
* every carousel is a meter: its long-run line is a `model`, checked against the text's minimum;
* no `exact` line rests on a meter, a simulation or a float;
* the PAR sheet's sin descarte element of risk is the optimal strategy's; Pai Gow's per-resolved-hand figure comes
  from the run its edge comes from.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tapete.analysis.edges import edges
from tapete.analysis.exact import EdgeResult
from tapete.catalog import get_game
from tapete.cli import app

runner = CliRunner()


def _line(game: str, jurisdiction: str, kind: str, option: str | None) -> EdgeResult:
    return next(r for r in edges(get_game(game), jurisdiction) if (r.kind, r.option) == (kind, option))


def _json(game: str, jurisdiction: str, *extra: str) -> dict:
    result = runner.invoke(app, ["edge", game, "-j", jurisdiction, "--json", *extra])
    assert result.exit_code == 0, result.stdout
    return json.loads(result.stdout)


# ------------------------------------------------------------------------------------------------ point 4
def test_trente_quarante_insured_per_unit_wagered_is_1_101() -> None:
    doc = _json("trente-quarante", "ES")
    insured = [b for b in doc["bets"] if b.get("option") == "insured"]
    assert len(insured) == 4
    for b in insured:
        assert b["house_edge"] == "1/100"          # per unit of the bet, the premium apart
        per = b["per_unit"]
        assert per["initial_bet"] == "101/100"
        assert per["house_edge_per_initial_bet"] == per["element_of_risk"] == "1/101"


def test_trijoker_both_figures_from_the_withdrawal_rates() -> None:
    """Recomputed: the expected loss of a box over its three units, and over bet 3 plus the bets kept."""
    from tapete.analysis.banked_poker import trijoker_exact

    res = trijoker_exact(True)
    loss = -(res["bet1"] + res["bet2"] + res["bet3"])            # per unit of each bet, summed over the three
    kept = res["kept1"] + res["kept2"]
    assert 0 < res["kept1"] < res["kept2"] < 1
    per = _json("trijoker", "ES-IB")["bets"][0]["per_unit"]
    assert Fraction(per["house_edge_per_initial_bet"]) == loss / 3
    assert Fraction(per["element_of_risk"]) == loss / (1 + kept)
    assert Fraction(per["average_wager"]) == 1 + kept
    assert f"{float(loss / 3):.4%}" == "5.0255%"


def test_tripoker_and_sin_descarte_ante_add_their_call() -> None:
    from tapete.analysis.banked_poker import tripoker_exact
    from tapete.analysis.sin_descarte_exact import DEALS, ante_result
    from tapete.games.poker.sin_descarte import SIN_DESCARTE_RULES

    trip = _json("tripoker", "ES-AN")["bets"][0]
    res = tripoker_exact()
    edge = -res["ante"] if res["ante"] < 0 else res["ante"]
    assert Fraction(trip["per_unit"]["element_of_risk"]) == Fraction(trip["house_edge"]) / (1 + Fraction(res["calls"], 22100))
    assert Fraction(trip["house_edge"]) == edge
    for jurisdiction in ("ES-IB", "ES-AN"):
        ante = _json("poker-sin-descarte", jurisdiction)["bets"][0]
        result = ante_result(SIN_DESCARTE_RULES[jurisdiction].call_pays)
        folds = result.counts[0]
        wagered = 1 + 2 * Fraction(DEALS - folds, DEALS)              # the call is twice the ante
        assert Fraction(ante["per_unit"]["element_of_risk"]) == Fraction(ante["house_edge"]) / wagered
        assert f"{float(Fraction(ante['per_unit']['element_of_risk'])):.4%}" == "2.5745%"


def test_craps_line_bets_with_maximum_odds() -> None:
    """Pass with single odds: 1.414 % per line bet, 0.848 % per unit wagered (the standard figures)."""
    for jurisdiction in ("ES", "ES-IB", "ES-GA", "ES-AN"):
        game = get_game("craps")
        rules = game.rules_for(jurisdiction)
        lines = {(r.kind, r.option): r for r in edges(game, jurisdiction)}
        for kind in ("pass", "dont-pass", "come", "dont-come"):
            both = lines[kind, "max-odds"]
            right = kind in ("pass", "come")
            p = {n: Fraction(6 - abs(n - 7), 36) for n in rules.points}
            mult = {n: rules.odds_maximum if right else rules.lay_odds_maximum[n] for n in rules.points}
            wagered = 1 + sum(p[n] * mult[n] for n in rules.points)
            assert both.house_edge == lines[kind, None].house_edge          # true odds add nothing to the loss
            assert both.per_unit() == (both.house_edge, both.house_edge / wagered)
    pass_odds = {(r.kind, r.option): r for r in edges(get_game("craps"), "ES")}["pass", "max-odds"]
    assert f"{float(pass_odds.per_unit()[1]):.4%}" == "0.8485%"        # 1x odds (001:668)


def test_pai_gow_commission_is_not_a_stake() -> None:
    line = _line("pai-gow", "ES-AN", "main", "house-way")
    assert line.stakes is not None and line.stakes.initial == line.stakes.wagered == 1
    assert "003:3944-3949" in line.stakes.how


def test_every_multi_stake_bet_names_both_figures() -> None:
    wanted = {("trijoker", "ES-IB", "main"), ("trijoker", "ES-AN", "main"), ("poker-sin-descarte", "ES-IB", "ante"),
              ("poker-sin-descarte", "ES-AN", "ante"), ("tripoker", "ES-AN", "ante"), ("pai-gow", "ES-AN", "main"),
              *(("trente-quarante", j, "red") for j in ("ES", "ES-IB", "ES-GA", "ES-AN")),
              *(("craps", j, "pass") for j in ("ES", "ES-IB", "ES-GA", "ES-AN"))}
    for game, jurisdiction, kind in wanted:
        docs = [b for b in _json(game, jurisdiction)["bets"] if b["kind"] == kind and "per_unit" in b]
        assert docs, (game, jurisdiction, kind)
        for b in docs:
            assert {"house_edge_per_initial_bet", "element_of_risk", "initial_bet", "average_wager"} <= set(b["per_unit"])


# ------------------------------------------------------------------------------------------------ point 5
def test_carousels_are_meters_labelled_model() -> None:
    for game, jurisdiction in (("poker-sin-descarte", "ES-IB"), ("poker-sin-descarte", "ES-AN"), ("tripoker", "ES-AN")):
        jackpots = [r for r in edges(get_game(game), jurisdiction) if r.kind == "jackpot"]
        assert {r.method for r in jackpots} == {"model"}, jackpots
        assert any(r.option == "long-run" for r in jackpots)


def test_long_run_return_is_share_plus_seed_plus_stakes_back() -> None:
    from tapete.analysis.poker_tables import five_card_counts

    counts = five_card_counts()
    total = sum(counts.values())
    royal = Fraction(counts["royal-flush"], total)
    prized_ib = Fraction(counts["royal-flush"] + counts["straight-flush"], total)
    ib = _line("poker-sin-descarte", "ES-IB", "jackpot", "long-run")
    assert 1 - ib.house_edge == Fraction(9, 10) + 5000 * royal + prized_ib          # 000:1365: 90% into the meter
    trip = _line("tripoker", "ES-AN", "jackpot", "long-run")
    assert 1 - trip.house_edge == Fraction(7, 10)           # the lowest share that meets 003:3827-3830
    assert trip.minimum_return == (Fraction(7, 10), "003:3827-3830") and not trip.breaks_minimum()


def test_a_configuration_under_the_minimum_is_reported() -> None:
    from tapete.analysis.jackpots import check_carousel

    assert check_carousel("tripoker", "ES-AN") == []
    low = check_carousel("tripoker", "ES-AN", share=Fraction(1, 2))
    assert any("003:3827-3830" in p and "under the minimum" in p for p in low)
    assert any("000:1365" in p for p in check_carousel("poker-sin-descarte", "ES-IB", share=Fraction(8, 10)))
    assert any("003:3240-3242" in p for p in check_carousel("poker-sin-descarte", "ES-AN", seed=Fraction(1000)))
    assert any("drains" in p for p in check_carousel("poker-sin-descarte", "ES-AN", share=Fraction(1, 10)))
    assert check_carousel("trijoker", "ES-AN") == ["trijoker has no carousel in ES-AN"]
    doc = _json("tripoker", "ES-AN", "--jackpot-share", "1/2")
    long_run = next(b for b in doc["bets"] if b.get("option") == "long-run")
    assert long_run["minimum_return"]["met"] is False and long_run["problems"]
    table = runner.invoke(app, ["edge", "tripoker", "-j", "ES-AN", "--jackpot-share", "0.5"])
    assert table.exit_code == 0 and "NOT met" in table.stdout
    # the jackpot's method: a column of the table, or a line of its block where 80 columns turn it vertical (h28)
    assert re.search(r"│ model|^method +model", table.stdout, re.MULTILINE)
    bad = runner.invoke(app, ["edge", "tripoker", "-j", "ES-AN", "--jackpot-share", "half"])
    assert bad.exit_code == 2 and "Traceback" not in bad.stdout


# ------------------------------------------------------------------------------------------------ the labels
BANKED = ("roulette-french", "roulette-french-short", "roulette-american", "boule", "wheel-of-fortune", "craps",
          "punto-banca", "blackjack", "trente-quarante", "poker-sin-descarte", "trijoker", "tripoker", "pai-gow",
          "casino-monte", "monte-banca")
METERS = ("jackpot", "bolsa")            # the carousels and the Bolsa: prizes that are meters


@pytest.mark.parametrize("game_id", BANKED)
def test_no_exact_line_rests_on_a_meter_a_simulation_or_a_float(game_id: str) -> None:
    game = get_game(game_id)
    for jurisdiction in game.rules:
        for r in edges(game, jurisdiction):
            if r.kind in METERS:
                assert r.method == "model", (game_id, jurisdiction, r)
            if r.method == "exact":
                assert isinstance(r.house_edge, Fraction) and r.interval is None and r.error_bound is None, r
                assert r.rounds is None and "simulat" not in (r.note or "").split(";")[0], r
                if r.stakes is not None:
                    assert r.stakes.wagered_method == "exact", r
            if r.method == "simulated":
                assert r.interval is not None and r.rounds, r
            if r.method == "model":
                assert r.note and ("meter" in r.note or "jackpot" in r.note), r


# ------------------------------------------------------------------------------------------------ points 6, 7
def test_par_sin_descarte_element_of_risk_is_the_optimal_strategy() -> None:
    from tapete.analysis.par import build_par

    sheet = build_par("poker-sin-descarte", "ES-IB", rounds=2000, seed=1)
    ante = next(b for b in sheet.bets if b.line.kind == "ante")
    risk, how = ante.element_of_risk()
    assert isinstance(risk, Fraction) and f"{float(risk):.4%}" == "2.5745%", how
    assert "exact" in how and "simulated" not in how
    assert "simple strategy" in ante.sim_strategy


def test_par_pai_gow_per_resolved_hand_is_one_run() -> None:
    from tapete.analysis import banked_poker_figures
    from tapete.analysis.par import build_par

    won, push, lost = banked_poker_figures.FIGURES["pai-gow"]["counts"]
    sheet = build_par("pai-gow", "ES-AN", rounds=2000, seed=1)
    main = next(b for b in sheet.bets if b.line.kind == "main")
    resolved, how = main.edge_resolved()
    assert resolved == pytest.approx((lost - 0.95 * won) / (won + lost), abs=1e-12)
    assert f"{won + push + lost:,} hands" in how and "99% interval" in how
