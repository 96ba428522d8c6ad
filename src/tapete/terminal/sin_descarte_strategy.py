"""`tapete strategy poker-sin-descarte -j J`: the optimal call/fold chart behind the exact ante figure."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tapete.i18n import decimal
from tapete.terminal.voice import Voice

STYLES = {"C": "bold black on green", "c": "black on green", "F": "bold white on red", "f": "white on red"}


def print_strategy(jurisdiction: str, console: Console, as_json: bool = False, lang: str = "en") -> None:
    from tapete.analysis.sin_descarte_exact import strategy_document
    from tapete.games.poker.sin_descarte import SIN_DESCARTE_RULES

    doc = strategy_document(SIN_DESCARTE_RULES[jurisdiction].call_pays)
    if as_json:
        print(json.dumps({"game": "poker-sin-descarte", "jurisdiction": jurisdiction, **doc}, ensure_ascii=False, indent=1))
        return
    v = Voice(lang, console, console.input)
    console.print(v.t("strategy.sd-head", jurisdiction=jurisdiction, hand=v.plain(f"strategy.sd-hand.{doc['always_call'][0]}")))
    table = Table(title=v.plain("strategy.sd-title"), title_justify="left", padding=(0, 0))
    table.add_column(v.plain("strategy.sd-col-hand"), style="bold")
    for up in doc["up"]:
        table.add_column(up, justify="center")
    for hand, row in doc["ace_king"].items():
        table.add_row(hand, *[Text(f" {c} ", style=STYLES[c]) for c in row])
    console.print(table)
    legend = Text("  ")
    for code in doc["legend"]:
        legend.append(f" {code} ", style=STYLES[code])
        legend.append(f" {v.plain('strategy.sd-legend.' + code)}  ")
    console.print(legend)
    console.print(v.t("strategy.sd-edge", edge=decimal(lang, doc["house_edge_percent"], 4),
                      rate=decimal(lang, doc["call_rate"] * 100, 2)))
