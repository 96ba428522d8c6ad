"""The battery's report: a terminal table, a JSON document, and an HTML page with the histograms (inline SVG, no
script, no outside file)."""

from __future__ import annotations

import html
import json
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from tapete.lab.battery import Report, TestResult


def print_report(report: Report, console: Console) -> None:
    table = Table(title=f"RNG battery — source {report.source}" + (" (seeded)" if report.seeded else " (unseeded)"),
                  box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    for col in ("test", "n", "stat.", "law", "p", "p Holm", "verdict"):
        table.add_column(col, justify="left" if col in ("test", "law", "verdict") else "right", no_wrap=True)
    for t in report.tests:
        table.add_row(t.name, f"{t.n:,}", f"{t.statistic:.2f}", t.distribution, _p(t.p), _p(t.p_holm),
                      "pass" if t.passed else "[red]FAIL[/red]")
    console.print(table)
    s = report.sizes
    console.print(f"samples: {s.roulette:,} roulette spins, {s.dice:,} craps rolls, {s.decks:,} packs of 52, "
                  f"{s.shoes6:,} 6-deck and {s.shoes8:,} 8-deck shoes, {s.cuts:,} blackjack cut cards, "
                  f"{s.words:,} raw 32-bit words", soft_wrap=True)
    console.print(f"{len(report.tests)} tests, α = {report.alpha} family-wise, {report.correction}: "
                  + ("[green]the generator passes[/green]" if report.passed else "[red]the generator FAILS[/red]"),
                  soft_wrap=True)


def _p(p: float) -> str:
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def json_report(report: Report) -> str:
    return json.dumps(report.document(), ensure_ascii=False, indent=1)


def _bars(t: TestResult, width: int = 640, height: int = 160) -> str:
    h: dict[str, Any] = t.histogram
    counts = h["counts"]
    expected = h["expected"] if isinstance(h["expected"], list) else [h["expected"]] * len(counts)
    top = max(max(counts), max(expected)) * 1.1 or 1
    bw = width / len(counts)
    out = [f'<svg viewBox="0 0 {width} {height + 30}" width="{width}" height="{height + 30}" role="img" '
           f'aria-label="{html.escape(t.name)} histogram">']
    for i, (c, e) in enumerate(zip(counts, expected, strict=True)):
        bh = c / top * height
        out.append(f'<rect x="{i * bw + 1:.1f}" y="{height - bh:.1f}" width="{max(bw - 2, 1):.1f}" height="{bh:.1f}" '
                   f'fill="#4a7bb7"><title>{html.escape(str(h["labels"][i]))}: {c} (expected {e:.1f})</title></rect>')
        ey = height - e / top * height
        out.append(f'<line x1="{i * bw:.1f}" x2="{(i + 1) * bw:.1f}" y1="{ey:.1f}" y2="{ey:.1f}" stroke="#c0392b" '
                   'stroke-width="1.5"/>')
    step = max(1, len(counts) // 14)
    for i in range(0, len(counts), step):
        out.append(f'<text x="{(i + 0.5) * bw:.1f}" y="{height + 16}" font-size="10" text-anchor="middle">'
                   f'{html.escape(str(h["labels"][i]))}</text>')
    out.append("</svg>")
    return "".join(out)


def _heat(t: TestResult, cell: int = 6) -> str:
    m = t.histogram["matrix"]
    rows, cols = len(m), len(m[0])
    out = [f'<svg viewBox="0 0 {cols * cell} {rows * cell}" width="{cols * cell}" height="{rows * cell}" role="img" '
           f'aria-label="{html.escape(t.name)}: standardised residuals, card (row) by position (column)">']
    for r, row in enumerate(m):
        for c, z in enumerate(row):
            v = max(-3.0, min(3.0, z)) / 3
            color = f"rgb(255,{int(255 * (1 - v))},{int(255 * (1 - v))})" if v > 0 else \
                f"rgb({int(255 * (1 + v))},{int(255 * (1 + v))},255)"
            out.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="{color}"/>')
    out.append("</svg>")
    return "".join(out)


def html_report(report: Report) -> str:
    s = report.sizes
    rows = "".join(
        f"<tr><td>{html.escape(t.name)}</td><td>{html.escape(t.what)}</td><td>{t.n:,}</td><td>{t.statistic:.2f}</td>"
        f"<td>{html.escape(t.distribution)}</td><td>{_p(t.p)}</td><td>{_p(t.p_holm)}</td>"
        f"<td class={'ok' if t.passed else 'bad'}>{'pass' if t.passed else 'FAIL'}</td></tr>" for t in report.tests)
    figures = []
    for t in report.tests:
        if "counts" in t.histogram:
            figures.append(f"<figure><figcaption>{html.escape(t.name)} — {html.escape(t.what)} (bars: counts; red: "
                           f"expected)</figcaption>{_bars(t)}</figure>")
        elif "matrix" in t.histogram:
            figures.append(f"<figure><figcaption>{html.escape(t.name)} — standardised residuals (observed − expected)"
                           f"/√expected, card by position, red above and blue below expectation, clipped at ±3; "
                           f"expected {t.histogram['expected']:.1f} per cell</figcaption>{_heat(t)}</figure>")
    verdict = "passes" if report.passed else "FAILS"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tapete RNG battery: {html.escape(report.source)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}}
td:nth-child(2),td:first-child{{text-align:left}}.ok{{color:#17692b}}.bad{{color:#b00020;font-weight:bold}}
figure{{margin:1.5rem 0}}figcaption{{font-size:.9rem;margin-bottom:.3rem}}</style></head><body>
<h1>RNG and shuffle battery — source <code>{html.escape(report.source)}</code></h1>
<p>{'Seeded (reproducible)' if report.seeded else 'Unseeded: each round seeded from the operating system, as at a live table'}.
{len(report.tests)} tests at α = {report.alpha} family-wise, {html.escape(report.correction)}: the generator
<strong>{verdict}</strong>.</p>
<p>Samples: {s.roulette:,} roulette spins, {s.dice:,} craps rolls, {s.decks:,} packs of 52, {s.shoes6:,} 6-deck and
{s.shoes8:,} 8-deck shoes, {s.cuts:,} blackjack cut cards, {s.words:,} raw 32-bit words. {report.seconds:.0f} s.</p>
<table><tr><th>test</th><th>what</th><th>n</th><th>statistic</th><th>distribution</th><th>p</th><th>p (Holm)</th><th>verdict</th></tr>
{rows}</table>
{''.join(figures)}
</body></html>
"""
