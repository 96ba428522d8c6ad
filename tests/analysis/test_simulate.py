"""Simulation agrees with the exact edges, with the reducer, and with itself whatever the workers."""

from __future__ import annotations

import numpy as np
import pytest

from tapete.analysis.simulate import BetSpec, GenericKernel, parse_bets, simulate
from tapete.catalog import get_game
from tapete.engine.events import Bet, Outcome


@pytest.mark.parametrize("jurisdiction", ["ES", "ES-AN"])
def test_roulette_intervals_contain_the_exact_edges(jurisdiction: str) -> None:
    result = simulate("roulette-french", jurisdiction, 2_000_000, seed=2026, chunk=1 << 19)
    doc = result.document()
    assert doc["rounds"] == 2_000_000 and len(doc["bets"]) == 21
    for bet in doc["bets"]:
        assert bet["ci_low"] <= bet["rtp_exact"] <= bet["ci_high"], bet


def test_result_does_not_depend_on_the_number_of_workers() -> None:
    specs = parse_bets("straight:17,red@prison,black@half,two-dozens:1-2")
    one = simulate("roulette-french", "ES", 400_000, seed=9, specs=specs, chunk=50_000, with_exact=False)
    two = simulate("roulette-french", "ES", 400_000, seed=9, specs=specs, chunk=50_000, workers=2, with_exact=False)
    assert [b.histogram for b in one.bets] == [b.histogram for b in two.bets]
    other = simulate("roulette-french", "ES", 400_000, seed=10, specs=specs, chunk=50_000, with_exact=False)
    assert [b.histogram for b in one.bets] != [b.histogram for b in other.bets]


def test_kernel_pays_what_the_reducer_pays_on_the_same_spins() -> None:
    game = get_game("roulette-french")
    kernel = GenericKernel(game, "ES-IB")
    specs = parse_bets("straight:0,split:0-2,street:0-1-2,corner:0-1-2-3,six-line:31-32-33-34-35-36,column:3,dozen:1,two-columns:2-3,odd")
    spins = np.random.default_rng(5).integers(0, 37, size=600)
    for spec in specs:
        table = kernel.outcome_table(spec)
        base = game.step(game.open("ES-IB", {"minimum": 100}), Bet("b", "p", spec.kind, 100, spec.on))
        for n in spins:
            result = game.settle(game.step(base, Outcome("spin", int(n)))).bets["b"]
            if result.final == "pending":
                assert table.returns[n] is None
            else:
                assert table.returns[n] * 100 == result.returned, (spec, n)


def test_prison_rounds_are_resolved_through_further_spins() -> None:
    spec = BetSpec("red", None, "prison")
    hist = simulate("roulette-french", "ES", 370_000, seed=3, specs=[spec], with_exact=False).bets[0].histogram
    # a freed bet returns its held amount: the whole stake after one zero, a half after two (docs/rulings.md)
    assert set(hist) <= {0, 2, 1, 0.5, 0.25, 0.125, 0.0625} and hist[1] > 4000 and hist[0.5] > 50


def test_a_real_local_dask_cluster_gives_the_single_process_result() -> None:
    distributed = pytest.importorskip("distributed")
    from tapete.analysis.distributed import dask_mapper

    specs = parse_bets("straight:17,red@half")
    local = simulate("roulette-french", "ES", 300_000, seed=11, specs=specs, chunk=60_000, with_exact=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = simulate("roulette-french", "ES", 300_000, seed=11, specs=specs, chunk=60_000, with_exact=False,
                          map_chunks=dask_mapper(cluster.scheduler_address))
    assert [b.histogram for b in remote.bets] == [b.histogram for b in local.bets]
