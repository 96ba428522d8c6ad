"""Issue 27 point 9: docs/edge.md is written from the code (scripts/edge_doc.py); regenerated here, game by game,
it must be what the file holds. After a change to a figure or to `tapete edge`'s output, run
`.venv/bin/python scripts/edge_doc.py` and commit docs/edge.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapete.edge_doc import GAMES, HEAD, blocks, section

DOC = Path(__file__).parents[2] / "docs" / "edge.md"
STALE = "docs/edge.md is stale: run `.venv/bin/python scripts/edge_doc.py` and commit it"


def test_the_text_is_the_generators() -> None:
    assert DOC.read_text(encoding="utf-8").startswith(HEAD), STALE


def test_every_house_banked_game_has_its_section() -> None:
    from tapete.analysis.simulate import KERNELS

    text = DOC.read_text(encoding="utf-8")
    assert set(KERNELS) <= set(GAMES)
    for game in GAMES:
        assert f"(`{game}`)" in text and f"$ tapete edge {game} -j " in text, game


@pytest.mark.parametrize("game", GAMES)
def test_the_figures_are_what_tapete_edge_prints(game: str) -> None:
    ((_, fresh),) = blocks([game])
    assert section(DOC.read_text(encoding="utf-8"), game) == fresh, STALE
