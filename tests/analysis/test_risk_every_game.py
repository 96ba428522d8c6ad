"""Issue 27 point 8: `tapete risk`, `edge` and `par` for every house-banked game in every jurisdiction (not a
sample). The risk run's simulated house edge must bracket the `tapete edge` figure of its bet: its 99% interval is
widened to a Bonferroni level over the whole sweep (and by the figure's own interval where it is simulated)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import NormalDist

import pytest
from typer.testing import CliRunner

from tapete.analysis.simulate import default_specs
from tapete.catalog import get_game
from tapete.cli import app

from .test_simulate_all import BANKED

CASES = [(g, j) for g in BANKED for j in get_game(g).rules]
Z99 = NormalDist().inv_cdf(0.995)
Z = NormalDist().inv_cdf(1 - 0.001 / len(CASES) / 2)
runner = CliRunner()


def _bet(game_id: str, jurisdiction: str) -> str:
    spec = default_specs(get_game(game_id), jurisdiction)[0]
    return spec.label()


@pytest.mark.parametrize(("game_id", "jurisdiction"), CASES)
def test_risk_edge_and_par(game_id: str, jurisdiction: str, tmp_path: Path) -> None:
    edge = runner.invoke(app, ["edge", game_id, "-j", jurisdiction, "--json"])
    assert edge.exit_code == 0, edge.stdout
    assert json.loads(edge.stdout)["bets"]
    risk = runner.invoke(app, ["risk", game_id, "-j", jurisdiction, "--bets", _bet(game_id, jurisdiction),
                               "--sessions", "100", "--rounds-per-session", "200", "--seed", "3", "--json"])
    assert risk.exit_code == 0, risk.stdout
    doc = json.loads(risk.stdout)["house_edge"]
    assert "reference" in doc, doc
    low, high = doc["interval"]
    half = (high - low) / 2 * Z / Z99
    reference = float(doc["reference"].split("/")[0]) / float(doc["reference"].split("/")[1]) \
        if "/" in doc["reference"] else float(doc["reference"])
    own = 0.0 if doc["reference_method"] != "simulated" else 1e-3        # a stored 10^8-round figure's interval
    assert abs(doc["estimate"] - reference) <= math.hypot(half, own), doc
    table = runner.invoke(app, ["risk", game_id, "-j", jurisdiction, "--bets", _bet(game_id, jurisdiction),
                                "--sessions", "20", "--rounds-per-session", "50"])
    assert table.exit_code == 0 and "house edge per unit staked" in table.stdout, table.stdout
    par = runner.invoke(app, ["par", game_id, "-j", jurisdiction, "--out", str(tmp_path), "--rounds", "200"])
    assert par.exit_code == 0, par.stdout
    assert (tmp_path / f"par-{game_id}-{jurisdiction}.html").stat().st_size > 2000


def test_a_layout_of_several_bets_on_a_card_game_is_refused_in_one_line() -> None:
    result = runner.invoke(app, ["risk", "punto-banca", "-j", "ES", "--bets", "banker,player", "--sessions", "10"])
    assert result.exit_code == 2 and "one bet per layout" in result.output and "Traceback" not in result.output
