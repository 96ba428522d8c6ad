"""`tapete strategy poker-sin-descarte -j J`: the optimal call/fold chart behind the exact ante figure."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

STYLES = {"C": "bold black on green", "c": "black on green", "F": "bold white on red", "f": "white on red"}


def print_strategy(jurisdiction: str, console: Console, as_json: bool = False) -> None:
    from tapete.analysis.sin_descarte_exact import strategy_document
    from tapete.games.poker.sin_descarte import SIN_DESCARTE_RULES

    doc = strategy_document(SIN_DESCARTE_RULES[jurisdiction].call_pays)
    if as_json:
        print(json.dumps({"game": "poker-sin-descarte", "jurisdiction": jurisdiction, **doc}, ensure_ascii=False, indent=1))
        return
    console.print(f"Póquer sin descarte {jurisdiction}: {doc['rule']}.")
    table = Table(title="ace-king high — croupier's up-card →", title_justify="left", padding=(0, 0))
    table.add_column("hand", style="bold")
    for up in doc["up"]:
        table.add_column(up, justify="center")
    for hand, row in doc["ace_king"].items():
        table.add_row(hand, *[Text(f" {c} ", style=STYLES[c]) for c in row])
    console.print(table)
    legend = Text("  ")
    for code, meaning in doc["legend"].items():
        legend.append(f" {code} ", style=STYLES[code])
        legend.append(f" {meaning}  ")
    console.print(legend)
    console.print(f"House edge under this strategy: [bold]{doc['house_edge_percent']:.4f} %[/bold] of the ante "
                  f"(exact, every deal counted; calls {doc['call_rate'] * 100:.2f} % of hands; "
                  "docs/games/poker-sin-descarte.md)")
