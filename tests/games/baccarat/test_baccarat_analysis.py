"""Exact baccarat edges: the known figures, and the enumerations checked against the engine itself on small shoes
(every sequence of cards played through the game's own reducer, weighted by its exact probability)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

from typer.testing import CliRunner

from tapete.analysis import baccarat
from tapete.analysis.edges import edges
from tapete.catalog import get_game
from tapete.cli import app
from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Bet, Deal

PB = get_game("punto-banca")
CF = get_game("chemin-de-fer")
DP = get_game("baccarat-two-tables")
NAMES = {0: ["T", "J", "Q", "K"], **{v: ["A23456789"[v - 1]] for v in range(1, 10)}}


def edge(game, jurisdiction: str, kind: str, option=None, on=None) -> Fraction:   # noqa: ANN001
    return next(r.house_edge for r in edges(game, jurisdiction)
                if r.kind == kind and r.option == option and (on is None or r.on == on))


def test_punto_banca_edges_six_decks() -> None:
    assert edge(PB, "ES", "player") == Fraction(18880657128, 1525814595305)          # 1.2374 %
    assert edge(PB, "ES", "banker") == Fraction(460294100, 43594702723)              # 1.0558 %
    assert edge(PB, "ES-IB", "tie") == Fraction(220299549488, 1525814595305)         # 14.4382 %
    assert edge(PB, "ES-AN", "banker") == Fraction(716053792, 49219825655)           # 1.4548 % (half on a 6)
    assert {r.kind for r in edges(PB, "ES")} == {"player", "banker"}
    for j in ("ES-IB", "ES-GA"):
        assert [r.house_edge for r in edges(PB, j)] == [r.house_edge for r in edges(PB, "ES-IB")]


def test_edge_json_prints_exact_fractions() -> None:
    doc = json.loads(CliRunner().invoke(app, ["edge", "punto-banca", "-j", "ES", "--json"]).stdout)
    player = next(b for b in doc["bets"] if b["kind"] == "player")
    assert player == {"kind": "player", "house_edge": "18880657128/1525814595305", "house_edge_percent": 1.2374,
                      "method": "exact"}


def test_chemin_de_fer_edges_and_best_responses() -> None:
    assert edge(CF, "ES", "player", "draw-on-5") == edge(PB, "ES", "player")   # drawing on 5 against T-PB is punto y banca
    assert edge(CF, "ES", "player") > edge(CF, "ES", "player", "draw-on-5")    # standing on 5 costs the punto
    default = edge(CF, "ES", "bank")
    best = edge(CF, "ES", "bank", "best-response")
    assert best <= default and best <= edge(CF, "ES", "bank", "stand-3-v-9")
    analysis = baccarat.chemin_analysis(CF, "ES")
    assert analysis.bank_cells[(3, 9)][3] == "stand"             # against a 9 the bank on 3 does better standing
    assert all(best == "draw" for (b, _), (*_, best) in analysis.bank_cells.items() if b == 0)


def test_two_tables_edges() -> None:
    side1, side2 = edge(DP, "ES", "player", on=(1,)), edge(DP, "ES", "player", on=(2,))
    assert side1 == side2 and Fraction(7, 1000) < side1 < Fraction(9, 1000)
    assert edge(DP, "ES", "bank", "banca-libre") < edge(DP, "ES", "bank") < 0     # the banker has the edge
    assert edge(DP, "ES", "bank", "best-response") <= edge(DP, "ES", "bank")
    assert sum(baccarat.two_tables_analysis(DP, "ES").classes.values()) == 1


# -- the enumerations against the engine on small shoes --------------------------------------------------------
def cards_for(values: list[int]) -> list[str]:
    seen: Counter[int] = Counter()
    out = []
    for v in values:
        names = NAMES[v]
        out.append(names[seen[v] % len(names)] + "SHDC"[(seen[v] // len(names)) % 4])
        seen[v] += 1
    return out


def engine_exact(counts: tuple[int, ...], run) -> dict:   # noqa: ANN001
    """Every coup the small shoe can deal, played by the engine, grown one card at a time until it settles."""
    dist: dict = {}

    def grow(prefix: list[int], p: Fraction, left: list[int]) -> None:
        try:
            outcome = run(cards_for(prefix))
        except TapeteError as exc:
            assert exc.code == "shoe-exhausted", exc
            total = sum(left)
            for v in range(10):
                if left[v]:
                    left[v] -= 1
                    grow(prefix + [v], p * (left[v] + 1) / total, left)
                    left[v] += 1
            return
        dist[outcome] = dist.get(outcome, Fraction(0)) + p

    grow([], Fraction(1), list(counts))
    return dist


SMALL = (4, 0, 3, 3, 0, 3, 2, 0, 0, 2)          # 17 cards: tens, 2s, 3s, 5s, 6s, 9s


def test_punto_banca_enumeration_equals_the_engine_on_a_small_shoe() -> None:
    def run(cards: list[str]) -> tuple[int, int]:
        state = PB.open("ES", {"minimum": 100}, cards)
        PB.apply(state, Deal())
        coup = state.coups[0]
        return baccarat.tableau.total(coup.player), baccarat.tableau.total(coup.bank)

    player = tuple(baccarat.tableau.punto_banca_player_draws(t) for t in range(8)) + (False, False)
    enum = baccarat.enumerate_coups(player, 6, SMALL).distribution(baccarat.tableau.punto_banca_bank_draws)
    mine: dict = {}
    for (pt, _, bt, _), p in enum.items():
        mine[(pt, bt)] = mine.get((pt, bt), Fraction(0)) + p
    assert mine == engine_exact(SMALL, run)


def test_chemin_de_fer_enumeration_equals_the_engine_on_a_small_shoe() -> None:
    from tapete.games.baccarat.chemin_de_fer import bank_default_draws

    def run(cards: list[str]) -> tuple[int, int]:
        state = CF.open("ES", {"minimum": 100}, cards)
        CF.apply(state, Bet("K", "b", "bank", 1000, None, {"seat": 1}))
        CF.apply(state, Bet("s", "p", "player", 100, None, {"seat": 2}))
        state = CF.finish(state)
        coup = state.coups[0]
        return coup.punto.total(), coup.banker.total()

    enum = baccarat.enumerate_coups(baccarat.chemin_punto_draws(False), 6, SMALL).distribution(bank_default_draws)
    mine: dict = {}
    for (pt, _, bt, _), p in enum.items():
        mine[(pt, bt)] = mine.get((pt, bt), Fraction(0)) + p
    assert mine == engine_exact(SMALL, run)


def test_two_tables_kernel_equals_the_engine_on_a_small_shoe() -> None:
    counts = (3, 0, 3, 0, 0, 2, 0, 0, 1, 0)      # 9 cards: tens, 2s, 5s, an 8

    def run(cards: list[str]) -> tuple[int, int]:
        state = DP.open("ES", {"minimum": 100}, cards)
        DP.apply(state, Bet("K", "b", "bank", 100000))
        DP.apply(state, Bet("a", "p1", "player", 100, (1,)))
        DP.apply(state, Bet("c", "p2", "player", 100, (2,)))
        state = DP.finish(state)
        result = {s.id: (s.returned > s.staked) - (s.returned < s.staked) for s in state.stakes}
        return result["a"], result["c"]

    stand = baccarat.side_draws(False)
    den, fixed, cells = baccarat.two_tables_enumeration(stand, stand, "wins", 6, counts)
    from tapete.games.baccarat.two_tables import bank_decision

    weights = baccarat._policy_weights(fixed, cells, lambda b, c1, c2: bank_decision(b, c1, c2)[1])
    mine = {k: p for k, p in baccarat._classes(den, weights).items() if p}
    assert mine == engine_exact(counts, run)


def test_bank_act_defaults_match_the_analysis_policy() -> None:
    # the engine's default for a free bank is the policy the exact analysis uses
    state = CF.open("ES", {"minimum": 100}, ["2S", "AH", "3D", "4C", "4S"])
    CF.apply(state, Bet("K", "b", "bank", 1000, None, {"seat": 1}))
    CF.apply(state, Bet("s", "p", "player", 100, None, {"seat": 2}))
    CF.apply(state, Act("stand", by="player"))
    state = CF.finish(state)
    assert len(state.coups[0].banker.cards) == 3
