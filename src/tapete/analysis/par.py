"""The PAR sheet (Probability Accounting Report) of a game in a jurisdiction: `tapete par GAME -j J`.

For every bet `tapete edge` lists: the outcome table (each net result's probability and its contribution to the
return), the RTP and house edge per bet made and per bet resolved (pushes left out), the hold and the assumption
it rests on, the standard deviation per unit, the hit frequency, the element of risk where decisions add money,
the strategy, then every rule with its citation, the jurisdictions side by side, and a simulation check with its
99% interval. The sheet is stamped with tapete's version and a hash of the game's rules data.

Where the generic solver applies (the game's own `chance`), every figure is exact (moments.py): the first chance
event's outcomes are rows, and a bet that lives on after it (a point, a prison) is one row carrying its exact
expected return. Games solved by their own enumeration give exact rows where the registry has their outcome law
(registry.PAR_EXTRAS); otherwise the rows are the simulated sample's frequencies, and say so.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

from tapete.analysis.edges import edges
from tapete.analysis.exact import EdgeResult
from tapete.analysis.moments import Moments, MomentSolver, opened
from tapete.analysis.simulate import BetSpec, BetStats, default_specs, simulate
from tapete.catalog import get_game
from tapete.core.jurisdictions import JURISDICTIONS, cite
from tapete.engine.game import EdgeCase, Game

Number = Fraction | float
HOLD_ASSUMPTION = ("theoretical hold = house edge per bet made, assuming every unit bought in (the drop) is wagered "
                   "once; the hold a table reports is this edge times its handle over its drop")


@dataclass
class Row:
    label: str
    net: Number | None            # net result per unit (None: the bet lives on; `expected` is then its mean)
    probability: Number
    contribution: Number          # probability x (1 + net): the rows' contributions add up to the RTP
    expected: Number | None = None


@dataclass
class SimCheck:
    rounds: int
    seed: int
    rtp: float
    rtp_half: float               # half-interval, 99% jointly over the sheet's checks (Bonferroni)
    sd: float
    sd_half: float                # the same for the sample's sd (normal approximation, from its 4th moment)
    hit: float
    push: float


@dataclass
class BetSheet:
    line: EdgeResult
    rows: list[Row]
    rows_method: str              # "exact" or "simulated"
    moments: Moments | None       # exact, where the generic solver applies
    strategy: str
    sim: SimCheck | None = None
    histogram: dict[Fraction, int] | None = None           # the simulated returns per unit, where simulated
    wager: tuple[Number, str] | None = None                # average total wager per unit (a PAR extra), and how
    resolved: tuple[Number, str] | None = None             # per bet resolved from the figure's own run (a PAR extra)
    sim_strategy: str = ""                                 # what the simulation check plays, in words

    @property
    def label(self) -> str:
        on = "" if self.line.on is None else " " + "-".join(map(str, self.line.on))
        return self.line.kind + on + (f" @{self.line.option}" if self.line.option else "")

    @property
    def rtp(self) -> Number:
        return 1 - self.line.house_edge if self.line.exact else 1 - float(self.line.house_edge)

    def sd(self) -> tuple[float | None, str]:
        if self.moments is not None:
            return self.moments.sd, "exact"
        return (self.sim.sd, "simulated") if self.sim else (None, "—")

    def hit_push(self) -> tuple[Number | None, Number | None, str]:
        if self.moments is not None and self.moments.win is not None:
            return self.moments.win, self.moments.push, "exact"
        if self.rows_method == "exact" and all(r.net is not None for r in self.rows):
            return (sum((r.probability for r in self.rows if r.net > 0), Fraction(0)),   # type: ignore[operator]
                    sum((r.probability for r in self.rows if r.net == 0), Fraction(0)), "exact")
        if self.sim:
            return self.sim.hit, self.sim.push, "simulated"
        return None, None, "—"

    def per_initial(self) -> tuple[Number, str]:
        """House edge per unit of the initial bet (every stake made at the start: trijoker's three bets, a bet and
        its premium); the figure itself for a bet of one stake."""
        if self.line.stakes is None:
            return self.line.house_edge, "one stake: the bet itself"
        return self.line.stakes.per_initial(self.line.house_edge), f"initial bet: {_num(self.line.stakes.initial)} x the amount"

    def edge_resolved(self) -> tuple[Number | None, str]:
        """House edge per bet resolved: per unit of the bets that are not pushes (and how the push rate is known);
        a simulated figure's from its own run (one run, one interval)."""
        if self.resolved is not None:
            return self.resolved
        if self.line.method == "simulated":
            return None, "—"      # a push rate from another sample would mix two runs
        _, push, how = self.hit_push()
        if push is None or push == 1:
            return None, "—"
        edge = self.line.house_edge if self.line.exact and isinstance(push, Fraction) else float(self.line.house_edge)
        return edge / (1 - push), how

    def element_of_risk(self) -> tuple[Number | None, str]:
        """House edge per unit actually wagered (doubles, splits, calls included), and the average wager."""
        stakes = self.line.stakes
        if stakes is not None:
            risk = stakes.element_of_risk(self.line.house_edge)
            exact = self.line.exact and stakes.wagered_method == "exact"
            return (risk if exact else float(risk),
                    f"average wager {float(stakes.wagered):.4f} units per unit bet ({stakes.wagered_method}: "
                    f"{stakes.how})")
        if self.moments is None:
            if self.wager is not None:
                staked, how = self.wager
                edge = self.line.house_edge if self.line.exact and isinstance(staked, Fraction) else float(self.line.house_edge)
                return edge / staked, f"average wager {float(staked):.4f} units per unit bet ({how})"
            if self.line.option is None:
                return self.line.house_edge, "no decision after the bet: the average wager is the bet itself"
            return None, ("not computed: this game's solver gives the expectation per unit of the first bet, not the "
                          "money its decisions add")
        staked = self.moments.staked
        if staked == 1:
            return self.line.house_edge, "no decision adds money: the average wager is the bet itself"
        return self.line.house_edge / staked, f"average wager {float(staked):.4f} units per unit bet"


@dataclass
class ParSheet:
    game: Game
    jurisdiction: str
    version: str
    rules_hash: str
    bets: list[BetSheet]
    rules: list[tuple[str, str, str, str]]                 # name, value, source, citation
    compare: list[tuple[str, dict[str, str]]]             # bet label -> jurisdiction -> edge text
    differing: list[tuple[str, dict[str, str]]]           # rule -> jurisdiction -> value
    rounds: int
    seed: int
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------------ exact laws
def punto_banca_law(game: Game, jurisdiction: str, line: EdgeResult) -> list[Row] | None:
    """Punto y banca: the final hands of a fresh shoe, exactly (baccarat.py), priced by the game's `bet_return`."""
    from tapete.analysis.baccarat import punto_banca_distribution
    from tapete.games.baccarat.punto_banca import bet_return, winner

    rules = game.rules_for(jurisdiction)
    law: dict[tuple[str, Fraction], Fraction] = {}
    for k, p in punto_banca_distribution(rules.decks).items():
        back = bet_return(rules, line.kind, Fraction(1), k[0], k[2])[0]
        key = (winner(k[0], k[2]) + (" (bank 6)" if line.kind == "banker" and k[2] == 6 and k[2] > k[0] else ""), back - 1)
        law[key] = law.get(key, Fraction(0)) + p
    return [Row(f"{who} wins" if who != "tie" else "tie", net, p, p * (1 + net)) for (who, net), p in law.items()]


def law_moments(rows: list[Row]) -> Moments:
    """The moments of an exact outcome law of a bet that takes no decision (the wager is the bet itself)."""
    mean = sum((Fraction(r.probability) * Fraction(r.net) for r in rows), Fraction(0))  # type: ignore[arg-type]
    second = sum((Fraction(r.probability) * Fraction(r.net) ** 2 for r in rows), Fraction(0))  # type: ignore[arg-type]
    win = sum((Fraction(r.probability) for r in rows if r.net > 0), Fraction(0))  # type: ignore[operator]
    push = sum((Fraction(r.probability) for r in rows if r.net == 0), Fraction(0))
    return Moments(mean, second, Fraction(1), win, push)


# ------------------------------------------------------------------------------------------------ generic rows
def _event_text(event: Any) -> str:
    value = getattr(event, "value", event)
    if isinstance(value, list | tuple):
        return "-".join(map(str, value))
    return str(value)


def generic_rows(game: Game, jurisdiction: str, case: EdgeCase) -> tuple[list[Row], Moments]:
    """The first chance event's outcomes, grouped: those that settle the bet by their net result, those that
    leave it alive by the state they lead to, each with its exact expected return from there; and the bet's
    exact moments."""
    solver = MomentSolver(game, case.option, only="edge" if case.setup else None)
    state = opened(game, jurisdiction, case)
    moments = solver.moments(state, case.amount)
    settled: dict[Fraction, Fraction] = {}
    live: dict[Any, list[Any]] = {}
    for p, nxt in solver._successors(state):  # noqa: SLF001 - the solver's own move, decisions taken
        act = game.decision(nxt, case.option)
        while act is not None:                  # the option's verb, as the solver takes it (half back at zero)
            nxt = game.step(nxt, act)
            act = game.decision(nxt, case.option)
        mean = solver.expected_net(nxt, case.amount)
        if solver._live(nxt):  # noqa: SLF001
            entry = live.setdefault(game.analysis_key(nxt)[0], [Fraction(0), Fraction(0), nxt])
            entry[0] += p
            entry[1] += p * mean
        else:
            settled[mean] = settled.get(mean, Fraction(0)) + p
    rows = [Row(_net_label(net), net, p, p * (1 + net)) for net, p in sorted(settled.items(), reverse=True)]
    for p, total, first in live.values():
        mean = total / p
        rows.append(Row(f"lives on ({_live_label(game, first)})", None, p, p * (1 + mean), mean))
    return rows, moments


def _net_label(net: Fraction) -> str:
    if net > 0:
        return f"wins {_ratio(net)}"
    return "push" if net == 0 else ("loses" if net == -1 else f"loses {_ratio(-net)} of the stake")


def _ratio(x: Fraction) -> str:
    return f"{x.numerator} to {x.denominator}" if x.denominator != 1 else f"{x.numerator} to 1"


def _live_label(game: Game, state: Any) -> str:
    log = getattr(state, "log", None)
    if log:
        return str(log[-1])[:80]
    return "the bet stays on the table"


# ------------------------------------------------------------------------------------------------ the sheet
def _case_for(game: Game, jurisdiction: str, line: EdgeResult, cases: list[EdgeCase]) -> EdgeCase | None:
    for case in cases:
        if case.kind != line.kind or case.option != line.option:
            continue
        if line.on is None or case.on == line.on:
            return case
        if case.setup:                                            # craps odds: (parent kind, point)
            parent = next((e.kind for e in case.setup if hasattr(e, "kind") and hasattr(e, "amount")), None)
            total = sum(getattr(case.setup[-1], "value", []) or [])
            if (parent, total) == tuple(line.on):
                return case
    return None


def _strategy(game: Game, jurisdiction: str, line: EdgeResult) -> str:
    if game.id == "blackjack" and line.kind == "main":
        return (f"the total-dependent basic strategy tapete derives for {jurisdiction} "
                f"(`tapete strategy blackjack -j {jurisdiction}`); insurance and even money declined")
    text = line.option or "none: no decision after the bet"
    return text + (f" — {line.note}" if line.note else "")


def _sim_strategy(game: Game, line: EdgeResult) -> str:
    """What the simulation check plays: the figure's own strategy, except where the kernel plays another one."""
    if game.id == "poker-sin-descarte" and line.kind == "ante":
        from tapete.analysis.banked_poker import SD_STRATEGY

        return ("the simulation plays the simple strategy, not the optimal one of the exact figure (they differ by "
                "2.25e-6 per ante, analysis/sin_descarte_figures.py): " + SD_STRATEGY)
    return "the simulation plays " + (line.option or "no decision") + ", as the figure does"


def rules_hash(game: Game) -> str:
    """SHA-256 of the game's rules data in every jurisdiction (values and sources), canonical JSON."""
    data = {code: [[name, repr(value), source] for name, value, source in rules.items()]
            for code, rules in sorted(game.rules.items())}
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _sim_check(stats: BetStats, seed: int, z: float) -> SimCheck:
    n = stats.rounds
    hist = {float(k): v for k, v in stats.histogram.items()}
    mean = sum(k * v for k, v in hist.items()) / n
    var = sum((k - mean) ** 2 * v for k, v in hist.items()) / n
    m4 = sum((k - mean) ** 4 * v for k, v in hist.items()) / n
    sd = math.sqrt(var)
    sd_half = z * math.sqrt(max(m4 - var * var, 0.0) / (4 * var * n)) if var > 0 else 0.0
    hit = sum(v for k, v in hist.items() if k > 1) / n
    push = sum(v for k, v in hist.items() if k == 1) / n
    return SimCheck(n, seed, mean, z * sd / math.sqrt(n), sd, sd_half, hit, push)


def _spec(case: EdgeCase) -> BetSpec:
    return BetSpec(case.kind, case.on, case.option, case.amount, tuple(case.setup), dict(case.table) or None)


def _show(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{value.numerator}:{value.denominator}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items())
    if isinstance(value, tuple | list):
        return ", ".join(_show(v) for v in value) if value else "—"
    return "—" if value is None else str(value)


def build_par(game_id: str, jurisdiction: str, rounds: int = 200_000, seed: int = 1) -> ParSheet:
    """Every figure of the sheet; `rounds` for the simulation check of each bet."""
    import tapete
    from tapete.analysis.registry import exact_solver, par_extra

    game = get_game(game_id)
    rules = game.rules_for(jurisdiction)
    lines = edges(game, jurisdiction)
    cases = game.edge_cases(jurisdiction)
    generic = exact_solver(game.id) in (None, *(exact_solver(g) for g in ("craps", "roulette-american")))
    bets: list[BetSheet] = []
    specs: list[BetSpec | None] = []
    default = {(s.kind, s.option): s for s in default_specs(game, jurisdiction)}
    for line in lines:
        case = _case_for(game, jurisdiction, line, cases) if generic else None
        if case is not None:
            rows, moments = generic_rows(game, jurisdiction, case)
            method = "exact"
            specs.append(_spec(case))
        else:
            law = par_extra(game.id, "law")
            rows = (law(game, jurisdiction, line) if law else None) or []
            method, moments = ("exact", law_moments(rows)) if rows else ("simulated", None)
            specs.append(default.get((line.kind, line.option)))
        bets.append(BetSheet(line, rows, method, moments, _strategy(game, jurisdiction, line)))
    _simulate_into(game, jurisdiction, bets, specs, rounds, seed)
    wager, resolved = par_extra(game.id, "wager"), par_extra(game.id, "resolved")
    for bet in bets:
        bet.wager = wager(game, jurisdiction, bet.line, bet) if wager else None
        bet.resolved = resolved(game, jurisdiction, bet.line) if resolved else None
        bet.sim_strategy = _sim_strategy(game, bet.line)
    compare, differing = _compare(game, {jurisdiction: lines})
    return ParSheet(game, jurisdiction, tapete.__version__, rules_hash(game), bets,
                    [(n, _show(v), s, cite(s)) for n, v, s in rules.items()], compare, differing, rounds, seed)


def _simulate_into(game: Game, jurisdiction: str, bets: list[BetSheet], specs: list[BetSpec | None], rounds: int,
                   seed: int) -> None:
    """One simulation per batch of bets; bets a BetSpec cannot tell apart (craps odds after different setups)
    go to separate batches."""
    batches: list[list[tuple[BetSheet, BetSpec]]] = []
    for bet, spec in zip(bets, specs, strict=True):
        if spec is None or rounds <= 0:
            continue
        home = next((b for b in batches if all(s != spec for _, s in b)), None)
        if home is None:
            batches.append(home := [])
        if (spec.setup, spec.table) not in [(s.setup, s.table) for _, s in home if s == spec]:
            home.append((bet, spec))
    # every check of the sheet (an RTP and an SD per bet) together at 99%: Bonferroni over all of them
    z = NormalDist().inv_cdf(1 - 0.01 / 2 / max(1, 2 * sum(map(len, batches))))
    for batch in batches:
        chosen = list(dict.fromkeys(s for _, s in batch))
        result = simulate(game.id, jurisdiction, rounds, seed, chosen, chunk=rounds, with_exact=False)
        by_spec = {st.spec: st for st in result.bets}
        for bet, spec in batch:
            _absorb(bet, by_spec[spec], seed, z)
    for bet, spec in zip(bets, specs, strict=True):       # the same bet listed twice (an option's variants)
        if bet.sim is None and spec is not None:
            twin = next((b for b, s in zip(bets, specs, strict=True) if b.sim and s == spec and s.setup == spec.setup), None)
            if twin is not None:
                bet.sim = twin.sim


def _absorb(bet: BetSheet, stats: BetStats, seed: int, z: float) -> None:
    bet.sim = _sim_check(stats, seed, z)
    bet.histogram = dict(stats.histogram)
    if bet.rows_method == "simulated":
        n = stats.rounds
        bet.rows = [Row(_net_label(Fraction(k) - 1) + " (observed)", Fraction(k) - 1, v / n, v / n * float(k))
                    for k, v in sorted(stats.histogram.items(), reverse=True)]


def _compare(game: Game, known: dict[str, list[EdgeResult]]) -> tuple[list[tuple[str, dict[str, str]]],
                                                                     list[tuple[str, dict[str, str]]]]:
    per: dict[str, dict[str, str]] = {}
    for code in game.rules:
        for r in known.get(code) or edges(game, code):
            label = r.kind + ("" if r.on is None else " " + "-".join(map(str, r.on))) + (f" @{r.option}" if r.option else "")
            per.setdefault(label, {})[code] = f"{r.percent_text()} %" + ("" if r.exact else f" ({r.method})")
    values = {code: {n: _show(v) for n, v, _ in game.rules[code].items()} for code in game.rules}
    names = list(next(iter(values.values())))
    differing = [(n, {c: values[c][n] for c in values}) for n in names if len({values[c][n] for c in values}) > 1]
    return list(per.items()), differing


# ------------------------------------------------------------------------------------------------ HTML
def _num(x: Number | None, digits: int = 6) -> str:
    if x is None:
        return "—"
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)
    return f"{x:.{digits}f}"


def _pct(x: Number | None, digits: int = 4) -> str:
    return "—" if x is None else f"{float(x) * 100:.{digits}f} %"


def render_html(sheet: ParSheet) -> str:
    """The sheet as one self-contained HTML page (the Jinja2 template analysis/templates/par.html)."""
    from importlib.resources import files

    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    template = env.from_string((files("tapete.analysis") / "templates" / "par.html").read_text(encoding="utf-8"))
    j = JURISDICTIONS[sheet.jurisdiction]
    return template.render(s=sheet, j=j, num=_num, pct=_pct, codes=list(sheet.game.rules), hold=HOLD_ASSUMPTION,
                           when=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), esc=html.escape)


def write_par(game_id: str, jurisdiction: str, out: Path, rounds: int = 200_000, seed: int = 1) -> Path:
    sheet = build_par(game_id, jurisdiction, rounds, seed)
    out.mkdir(parents=True, exist_ok=True)
    page = out / f"par-{game_id}-{jurisdiction}.html"
    page.write_text(render_html(sheet), encoding="utf-8")
    return page
