"""`tapete report`: one self-contained HTML page (and PNG figures) with every game's bets — exact edge, simulated
RTP with its interval, a convergence plot per game, and a comparison of the jurisdictions."""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from tapete.analysis.edges import edges
from tapete.analysis.simulate import Z99, BetSpec, kernel_for, simulate
from tapete.catalog import all_games
from tapete.core.jurisdictions import JURISDICTIONS
from tapete.core.rng import simulation_stream
from tapete.engine.game import Game


@dataclass
class GameSection:
    game: Game
    rows: list[dict]
    figure: str | None


def _figure_setup() -> object:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def convergence_plot(game: Game, jurisdiction: str, spec: BetSpec, exact: Fraction | None, rounds: int, seed: int,
                     path: Path) -> None:
    """Running RTP of one bet as rounds accumulate, with the 99% band around the exact value."""
    plt = _figure_setup()
    kernel = kernel_for(game, jurisdiction)
    steps = 40
    size = max(1, rounds // steps)
    total = Fraction(0)
    n = 0
    xs, ys = [], []
    for i in range(steps):
        (hist,) = kernel.run([spec], size, simulation_stream(seed, i))
        total += sum(k * v for k, v in hist.items())
        n += size
        xs.append(n)
        ys.append(float(total / n))
    fig, ax = plt.subplots(figsize=(7, 3.2), dpi=100)
    ax.plot(xs, ys, color="#1f6f43", lw=1.5, label="simulated RTP")
    if exact is not None:
        rtp = 1 - float(exact)
        (hist,) = kernel.run([spec], 200_000, simulation_stream(seed, 10_000))
        mean = sum(float(k) * v for k, v in hist.items()) / 200_000
        sd = math.sqrt(max(sum(float(k) ** 2 * v for k, v in hist.items()) / 200_000 - mean**2, 0.0))
        x = np.array(xs, dtype=float)
        ax.axhline(rtp, color="#b22222", lw=1, label=f"exact RTP {rtp:.5f}")
        ax.fill_between(x, rtp - Z99 * sd / np.sqrt(x), rtp + Z99 * sd / np.sqrt(x), color="#b22222", alpha=0.12,
                        label="99% band")
    ax.set_xscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("return per unit staked")
    ax.set_title(f"{game.name_en} ({jurisdiction}): {spec.label()}")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def comparison_plot(game: Game, codes: list[str], path: Path) -> bool:
    """House edge per bet kind (and option) side by side for the jurisdictions that have the game."""
    plt = _figure_setup()
    codes = [c for c in codes if c in game.rules]
    if len(codes) < 2:
        return False
    per = {c: {(r.kind, r.option): float(r.house_edge) * 100 for r in edges(game, c) if r.on is None} for c in codes}
    labels = list(dict.fromkeys(k for c in codes for k in per[c]))
    if not labels:
        return False
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.45), 3.4), dpi=100)
    width = 0.8 / len(codes)
    for i, c in enumerate(codes):
        ax.bar([j + i * width for j in range(len(labels))], [per[c].get(k, 0) for k in labels], width, label=c)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))])
    ax.set_xticklabels([k + (f" ({o})" if o else "") for k, o in labels], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("house edge %")
    ax.set_title(f"{game.name_en}: house edge by jurisdiction")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def build_report(jurisdiction: str, out: Path, rounds: int = 1_000_000, seed: int = 1,
                 compare: list[str] | None = None, games: list[str] | None = None,
                 progress: Callable[[str, int, int], None] | None = None) -> Path:
    """`progress(game name, games done, games in all)` is called as each game starts, then once at the end."""
    out.mkdir(parents=True, exist_ok=True)
    sections: list[GameSection] = []
    figures: list[tuple[str, str]] = []
    chosen = [g for g in all_games() if jurisdiction in g.rules and (not games or g.id in games)]
    for done, game in enumerate(chosen):
        if progress:
            progress(game.name_en, done, len(chosen))
        try:
            exact = edges(game, jurisdiction)
        except Exception:  # noqa: BLE001 - a game without exact analysis is listed without the column
            exact = []
        if not exact:
            continue
        try:
            sim = simulate(game.id, jurisdiction, rounds, seed, chunk=max(rounds // 4, 1), with_exact=False)
        except Exception:  # noqa: BLE001 - nothing simulable: the exact column alone
            sim = None
        rows = []
        for r in exact:
            row = {"bet": r.kind + (" " + "-".join(map(str, r.on)) if r.on else ""), "option": r.option or "—",
                   "edge": r.edge_text(), "method": r.method, "edge_pct": f"{float(r.house_edge) * 100:.4f}"}
            if sim:
                match = next((b for b in sim.bets if b.spec.kind == r.kind and b.spec.option == r.option
                              and (r.on is None or tuple(b.spec.on or ()) == tuple(r.on))), None)
                if match:
                    doc = match.document(r if r.method != "simulated" else None)
                    row.update(rtp=f"{doc['rtp']:.5f}", ci=f"[{doc['ci_low']:.5f}, {doc['ci_high']:.5f}]")
                    if "rtp_reference" in doc:
                        inside = doc["ci_low"] <= doc["rtp_reference"] <= doc["ci_high"]
                        row["inside"] = "yes" if inside else "NO"
            rows.append(row)
        figure = None
        if sim and sim.bets:
            figure = f"convergence-{game.id}-{jurisdiction}.png"
            spec = sim.bets[0].spec
            convergence_plot(game, jurisdiction, spec, exact[0].house_edge if exact else None, rounds, seed, out / figure)
            figures.append((figure, f"{game.name_en}: convergence"))
        sections.append(GameSection(game, rows, figure))
        if compare:
            name = f"compare-{game.id}.png"
            if comparison_plot(game, compare, out / name):
                figures.append((name, f"{game.name_en}: {' vs '.join(compare)}"))
    if progress:
        progress("written", len(chosen), len(chosen))
    page = out / "index.html"
    page.write_text(_html(jurisdiction, rounds, seed, sections, figures, compare), encoding="utf-8")
    return page


def _html(jurisdiction: str, rounds: int, seed: int, sections: list[GameSection], figures: list[tuple[str, str]],
          compare: list[str] | None) -> str:
    j = JURISDICTIONS[jurisdiction]
    parts = [f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>tapete report — {html.escape(j.name)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}}
table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}
td:first-child,th:first-child{{text-align:left}}h2{{border-bottom:2px solid #1f6f43}}.no{{color:#b22222}}
img{{max-width:100%}}</style></head><body>
<h1>House edge and simulation — {html.escape(j.name)} ({jurisdiction})</h1>
<p>{html.escape(j.instrument)}. Exact edges from the rules engine; simulated RTP over {rounds:,} rounds per bet
(seed {seed}) with its 99% interval.</p>"""]
    for s in sections:
        parts.append(f"<h2>{html.escape(s.game.name_es)} — {html.escape(s.game.name_en)}</h2><table>"
                     "<tr><th>bet</th><th>option</th><th>house edge</th><th>method</th><th>%</th><th>simulated RTP</th>"
                     "<th>99% interval</th><th>edge inside</th></tr>")
        for r in s.rows:
            cls = ' class="no"' if r.get("inside") == "NO" else ""
            parts.append(f"<tr><td>{html.escape(r['bet'])}</td><td>{r['option']}</td><td>{r['edge']}</td>"
                         f"<td>{r['method']}</td><td>{r['edge_pct']}</td><td>{r.get('rtp', '—')}</td><td>{r.get('ci', '—')}</td>"
                         f"<td{cls}>{r.get('inside', '—')}</td></tr>")
        parts.append("</table>")
        if s.figure:
            parts.append(f'<img src="{s.figure}" alt="convergence of the simulated RTP, {html.escape(s.game.name_en)}">')
    if compare:
        parts.append(f"<h2>Jurisdictions compared: {' · '.join(compare)}</h2>")
        for name, title in figures:
            if name.startswith("compare-"):
                parts.append(f'<img src="{name}" alt="{html.escape(title)}">')
    parts.append("</body></html>")
    return "\n".join(parts)
