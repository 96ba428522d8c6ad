"""tapete's blackjack edge for each rules variant of tests/analysis/data/hhoppe_blackjack.json, beside the stored
hhoppe/blackjack figure: the table of docs/games/blackjack.md.

    PYTHONPATH=src python scripts/blackjack_crosscheck.py      # about a minute per variant
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

from tapete.analysis import blackjack as bj
from tapete.games.blackjack.rules import BLACKJACK_RULES

DATA = pathlib.Path(__file__).resolve().parents[1] / "tests/analysis/data/hhoppe_blackjack.json"


def variant_edge(changes: dict[str, object]) -> float:
    """tapete's edge, in percent, for ES-IB's rules without surrender, any-two doubles, and `changes`."""
    changes = dict(changes)
    allow_split = bool(changes.pop("allow_split", True))
    rules = dataclasses.replace(BLACKJACK_RULES["ES-IB"], surrender=False, double_initial_aces=True, **changes)
    return bj.solve_rules(rules, allow_split=allow_split).house_edge * 100


def main() -> None:
    doc = json.loads(DATA.read_text())
    print("| rules variant | tapete | hhoppe | difference |\n|---|---|---|---|")
    for name, v in doc["variants"].items():
        mine = variant_edge(v["tapete"])
        print(f"| {name} | {mine:.4f} % | {v['hhoppe_house_edge_percent']:.4f} % | {mine - v['hhoppe_house_edge_percent']:+.4f} |",
              flush=True)


if __name__ == "__main__":
    main()
