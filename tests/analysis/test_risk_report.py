"""Operator risk and the HTML report."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from tapete.analysis.risk import simulate_risk
from tapete.analysis.simulate import parse_bets
from tapete.cli import app

PNG = b"\x89PNG\r\n\x1a\n"


def test_risk_mean_matches_the_exact_edge_and_floats_are_ordered() -> None:
    bets = parse_bets("straight:17,red@half")
    result = simulate_risk("roulette-french", "ES", bets, rounds_per_session=500, sessions=3000, tables=3, seed=4)
    doc = result.document()
    exact = 500 * (1 / 37 + 1 / 74)                 # euros per table-session
    se = doc["house_result_per_session"]["sd"] / (3000 * 3) ** 0.5
    assert abs(doc["house_result_per_session"]["mean"] - exact) < 4 * se
    assert doc["float"]["99%"] <= doc["float"]["99.9%"]
    # the float covers the worst running loss, at least the worst final loss at the same confidence
    assert doc["float"]["99%"] >= -doc["house_result_per_session"]["p01"]
    # three tables need more than one, less than three separate floats (their results partly cancel)
    assert doc["float"]["99%"] < doc["guarantee"]["99%"] < 3 * doc["float"]["99%"]
    again = simulate_risk("roulette-french", "ES", bets, rounds_per_session=500, sessions=3000, tables=3, seed=4)
    assert again.document() == doc


def test_report_renders_with_valid_figures(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", "ES", "ES-AN", "--compare", "-j", "ES", "--out", str(tmp_path),
                                      "--rounds", "80000",
                                      "--game", "roulette-french", "--game", "boule"])
    assert result.exit_code == 0, result.stdout
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "French roulette" in page and "1/37" in page and "1/73" in page and "Boule" in page
    images = re.findall(r'<img src="([^"]+)"', page)
    assert any(i.startswith("convergence-") for i in images) and any(i.startswith("compare-") for i in images)
    for name in images:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 2000, name
