"""Monte Carlo simulation from the engine's own outcome tables, fast and reproducible.

For a bet laid on a fresh table the engine settles every chance outcome once (`chance` + `step` + `settle`):
that table of exact returns is all a round needs when the first outcome decides the bet. The kernel then only
draws outcomes (NumPy, one spawned stream per chunk) and counts them, so speed never changes the rules.
Outcomes that leave the bet alive (a bet in prison, a craps point) are resolved by a multinomial tree over the
same reducer: the k rounds that reached a state draw their next outcomes together, grouped by state.

Results are per-bet histograms of the return per unit staked (exact Fractions -> counts), so chunks merge
exactly and the result depends on the seed and the chunk size, never on the number of workers.
Games with decisions (blackjack) or long multi-outcome rounds have their own vectorised kernel in the analysis registry (registry.KERNELS).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tapete.analysis.registry import KERNELS
from tapete.catalog import get_game
from tapete.core.rng import simulation_stream
from tapete.engine.events import Bet
from tapete.engine.game import EdgeCase, Game

BET_ID, PLAYER = "edge", "player"    # as the exact solver names its bet, so setups (odds on a line bet) agree
Z99 = 2.5758293035489004           # two-sided 99% normal quantile
DEFAULT_CHUNK = 1 << 22


@dataclass(frozen=True)
class BetSpec:
    """One bet of a simulated layout: a unit stake on `kind`/`on`, decisions by `option`."""

    kind: str
    on: tuple[Any, ...] | None = None
    option: str | None = None
    amount: int = 100
    setup: tuple[Any, ...] = field(default=(), compare=False, hash=False)   # events played first (a point)
    table: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    def label(self) -> str:
        on = "" if self.on is None else ":" + "-".join(map(str, self.on))
        return f"{self.kind}{on}" + (f"@{self.option}" if self.option else "")


def parse_bets(text: str) -> list[BetSpec]:
    """'straight:17,split:17-20,red@prison' -> BetSpecs (targets as ints where they look like ints)."""
    specs = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        option = None
        if "@" in part:
            part, option = part.split("@", 1)
        kind, _, target = part.partition(":")
        on = tuple(int(t) if t.lstrip("-").isdigit() else t for t in target.split("-")) if target else None
        specs.append(BetSpec(kind, on, option))
    return specs


Histogram = dict[Fraction, int]


def _merge(into: Histogram, other: Histogram, times: int = 1) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v * times


@dataclass
class OutcomeTable:
    """Per first outcome: its probability, and the exact return per unit or the live state it leaves."""

    probabilities: np.ndarray        # float64, for drawing
    numerators: np.ndarray | None    # exact probabilities over a common denominator (exact draws)
    denominator: int
    returns: list[Fraction | None]   # None: the bet lives on
    states: list[Any]
    groups: list[int] = field(default_factory=list)   # live outcome -> index of the state it leads to (same key)
    group_states: list[Any] = field(default_factory=list)

    def histogram(self, counts: Iterable[int], resolve: Callable[[Any, int], Histogram]) -> Histogram:
        """Final returns of rounds whose first outcomes were counted; live ones resolved per distinct state."""
        hist: Histogram = {}
        live = [0] * len(self.group_states)
        for i, k in enumerate(counts):
            if not k:
                continue
            r = self.returns[i]
            if r is not None:
                hist[r] = hist.get(r, 0) + int(k)
            else:
                live[self.groups[i]] += int(k)
        for g, k in enumerate(live):
            if k:
                _merge(hist, resolve(self.group_states[g], k))
        return hist


class GenericKernel:
    """Simulate any game whose bets a single `chance` table starts resolving (wheels, dice, balls)."""

    def __init__(self, game: Game, jurisdiction: str, table: dict[str, Any] | None = None) -> None:
        self.game = game
        self.jurisdiction = jurisdiction
        self.table = table or {"minimum": 100}

    def _after(self, state: Any, option: str | None) -> Any:
        act = self.game.decision(state, option)
        while act is not None:
            state = self.game.step(state, act)
            act = self.game.decision(state, option)
        return state

    def _final(self, state: Any) -> Fraction | None:
        """The bet's return once it is decided (other bets of a setup may ride on)."""
        result = self.game.settle(state).bets[BET_ID]
        return result.returned if result.final != "pending" else None

    def outcome_table(self, spec: BetSpec) -> OutcomeTable:
        cache = self.__dict__.setdefault("_first", {})
        key = (spec, repr(spec.setup), repr(spec.table))
        if key not in cache:
            state = self.game.open(self.jurisdiction, spec.table or self.table)
            for event in spec.setup:
                state = self.game.step(state, event)
            state = self.game.step(state, Bet(BET_ID, PLAYER, spec.kind, spec.amount, spec.on))
            cache[key] = self._table_from(state, spec)
        return cache[key]

    def _table_from(self, state: Any, spec: BetSpec) -> OutcomeTable:
        outcomes = self.game.chance(state)
        probs = [p for _, p in outcomes]
        den = math.lcm(*(p.denominator for p in probs))
        nums = np.array([int(p * den) for p in probs], dtype=np.int64) if den < (1 << 62) else None
        returns, states, groups, group_states = [], [], [], []
        seen: dict[Any, int] = {}
        for event, _ in outcomes:
            nxt = self._after(self.game.step(state, event), spec.option)
            final = self._final(nxt)
            returns.append(None if final is None else final / spec.amount)
            states.append(None if final is not None else nxt)
            if final is None:
                key = self.game.analysis_key(nxt)   # outcomes that lead to the same state resolve together
                if key not in seen:
                    seen[key] = len(group_states)
                    group_states.append(nxt)
                groups.append(seen[key])
            else:
                groups.append(-1)
        return OutcomeTable(np.array([float(p) for p in probs]), nums, den, returns, states, groups, group_states)

    def draw(self, table: OutcomeTable, n: int, gen: np.random.Generator) -> np.ndarray:
        """Draw n first outcomes, exactly by their probabilities; return the count of each."""
        k = len(table.returns)
        if table.numerators is not None and np.all(table.numerators == table.numerators[0]) and k <= 256:
            draws = gen.integers(0, k, size=n, dtype=np.uint8 if k <= 255 else np.uint16)
            return np.bincount(draws, minlength=k)
        if table.numerators is not None:
            cut = np.cumsum(table.numerators)
            draws = gen.integers(0, table.denominator, size=n, dtype=np.int64)
            return np.bincount(np.searchsorted(cut, draws, side="right"), minlength=k)
        return gen.multinomial(n, table.probabilities)

    def resolve(self, state: Any, count: int, spec: BetSpec, gen: np.random.Generator, depth: int = 0) -> Histogram:
        """Final returns per unit of `count` independent rounds that all stand in `state` (multinomial tree)."""
        if depth > 200:
            raise RuntimeError("a simulated round did not end in 200 outcomes")
        table = self._cached_table(state, spec)
        counts = gen.multinomial(count, table.probabilities)
        return table.histogram(counts, lambda s, k: self.resolve(s, k, spec, gen, depth + 1))

    def _cached_table(self, state: Any, spec: BetSpec) -> OutcomeTable:
        key = (self.game.analysis_key(state)[0], spec, repr(spec.setup))
        cache = self.__dict__.setdefault("_tables", {})
        if key not in cache:
            cache[key] = self._table_from(state, spec)
        return cache[key]

    def returns_matrix(self, specs: list[BetSpec], shape: tuple[int, int], gen: np.random.Generator) -> np.ndarray:
        """Per round (one row per session), the house's result in stake units over the whole layout.

        Rounds whose bet lives on are resolved in groups by the multinomial tree, their final returns dealt
        out at random to the group's rounds (they are independent and identically distributed)."""
        tables = [self.outcome_table(s) for s in specs]
        k = len(tables[0].returns)
        outcomes = gen.integers(0, k, size=shape, dtype=np.uint8) if self._uniform(tables[0]) else None
        house = np.zeros(shape, dtype=np.float64)
        for spec, table in zip(specs, tables, strict=True):
            if outcomes is None or len(table.returns) != k:
                idx = np.searchsorted(np.cumsum(table.numerators), gen.integers(0, table.denominator, size=shape), side="right")
            else:
                idx = outcomes
            lookup = np.array([float(r) if r is not None else np.nan for r in table.returns])
            ret = lookup[idx]
            for i, r in enumerate(table.returns):
                if r is not None:
                    continue
                where = np.nonzero(idx == i)
                hist = self.resolve(table.states[i], len(where[0]), spec, gen)
                values = np.repeat(np.array([float(v) for v in hist], dtype=np.float64), list(hist.values()))
                gen.shuffle(values)
                ret[where] = values
            house += spec.amount / 100 * (1 - ret)
        return house

    @staticmethod
    def _uniform(table: OutcomeTable) -> bool:
        return table.numerators is not None and bool(np.all(table.numerators == table.numerators[0])) and len(table.returns) <= 255

    def run(self, specs: list[BetSpec], rounds: int, gen: np.random.Generator) -> list[Histogram]:
        """One chunk: the layout's bets all ride the same drawn outcomes."""
        tables = [self.outcome_table(s) for s in specs]
        shared = all(len(t.returns) == len(tables[0].returns) and np.array_equal(t.probabilities, tables[0].probabilities)
                     for t in tables)
        base = self.draw(tables[0], rounds, gen) if shared and tables else None
        out = []
        for spec, table in zip(specs, tables, strict=True):
            counts = base if base is not None else self.draw(table, rounds, gen)
            out.append(table.histogram(counts, lambda s, k, spec=spec: self.resolve(s, k, spec, gen)))
        return out


def kernel_for(game: Game, jurisdiction: str) -> Any:
    """The game's compiled kernel where the analysis registry names one (an object with
    run(specs, rounds, gen) -> list[Histogram]), else the generic outcome-table kernel."""
    factory = KERNELS.get(game.id)
    return factory(game, jurisdiction) if factory else GenericKernel(game, jurisdiction)


def default_specs(game: Game, jurisdiction: str) -> list[BetSpec]:
    """One unit on each bet kind (the first target of each), each option where the game offers one."""
    seen: dict[tuple[str, str | None], BetSpec] = {}
    for case in game.edge_cases(jurisdiction):
        seen.setdefault((case.kind, case.option), BetSpec(case.kind, case.on, case.option, case.amount, tuple(case.setup),
                                                                 dict(case.table) or None))
    return list(seen.values())


def _chunk(args: tuple[str, str, list[BetSpec], int, int, int]) -> list[Histogram]:
    game_id, jurisdiction, specs, rounds, seed, index = args
    return _kernel(game_id, jurisdiction).run(specs, rounds, simulation_stream(seed, index))


@lru_cache(maxsize=16)
def _kernel(game_id: str, jurisdiction: str) -> Any:
    return kernel_for(get_game(game_id), jurisdiction)


@dataclass
class BetStats:
    spec: BetSpec
    histogram: Histogram = field(default_factory=dict)

    @property
    def rounds(self) -> int:
        return sum(self.histogram.values())

    def moments(self) -> tuple[float, float]:
        n = self.rounds
        mean = sum(k * v for k, v in self.histogram.items()) / n
        second = sum(k * k * v for k, v in self.histogram.items()) / n
        return float(mean), math.sqrt(max(float(second - mean * mean), 0.0))

    def document(self, reference: Any | None) -> dict[str, Any]:
        """`reference`: the `tapete edge` line (an EdgeResult, exact or enumerated-float) the interval is checked
        against; an exact one is written as a fraction, an enumerated one as a decimal with its error bound."""
        rtp, sd = self.moments()
        half = Z99 * sd / math.sqrt(self.rounds)
        doc: dict[str, Any] = {"kind": self.spec.kind}
        if self.spec.on is not None:
            doc["on"] = list(self.spec.on)
        if self.spec.option is not None:
            doc["option"] = self.spec.option
        doc.update(rtp=round(rtp, 8), ci_low=round(rtp - half, 8), ci_high=round(rtp + half, 8), sd=round(sd, 6))
        if reference is not None:
            doc["reference_method"] = reference.method
            doc["rtp_reference"] = round(1 - float(reference.house_edge), 8)
            if reference.exact:
                edge = reference.house_edge
                doc["house_edge_exact"] = f"{edge.numerator}/{edge.denominator}"
                doc["rtp_exact"] = doc["rtp_reference"]
            elif reference.method == "model":        # a meter's snapshot, the kernel's own model (docs/edge.md)
                doc["house_edge_model"] = reference.edge_text()
            else:
                doc["house_edge_enumerated"] = reference.edge_text()
                doc["error_bound"] = reference.error_bound
        return doc


@dataclass
class SimulationResult:
    game: str
    jurisdiction: str
    rounds: int
    seed: int
    seconds: float
    bets: list[BetStats]
    exact: dict[BetSpec, Any]        # the `tapete edge` line (EdgeResult) of each bet that has a non-simulated one

    def document(self) -> dict[str, Any]:
        return {"game": self.game, "jurisdiction": self.jurisdiction, "rounds": self.rounds, "seed": self.seed,
                "rounds_per_second": round(self.rounds / self.seconds) if self.seconds > 0 else None,
                "bets": [b.document(self.exact.get(b.spec)) for b in self.bets]}


def reference_edges(game: Game, jurisdiction: str, specs: Iterable[BetSpec]) -> dict[BetSpec, Any]:
    """The `tapete edge` line (EdgeResult) of each simulated bet where it is not itself simulated: exact, or
    enumerated in floats within its stated error bound."""
    from tapete.analysis.edges import edges
    from tapete.analysis.exact import edge_of

    try:
        found = edges(game, jurisdiction)
    except Exception:  # noqa: BLE001 - a game without an exact analysis simply has no column
        return {}
    out = {}
    for spec in specs:
        for r in found:
            if r.method != "simulated" and r.kind == spec.kind and r.option == spec.option and (
                    r.on is None or tuple(r.on) == tuple(spec.on or ())):   # a simulated figure is no reference
                out[spec] = r
        if spec not in out and spec.setup:      # a bet after its setup (craps odds): `tapete edge` lists it by
            # what the setup gave it (odds on pass 4); the case itself is solved here
            case = EdgeCase(spec.kind, spec.on, spec.option, dict(spec.table or {}), spec.amount, setup=spec.setup)
            out[spec] = edge_of(game, jurisdiction, case)
    return out


def exact_edges_for(game: Game, jurisdiction: str, specs: Iterable[BetSpec]) -> dict[BetSpec, Fraction]:
    """The house edge of each simulated bet where `tapete edge` has an exact or float-enumerated one."""
    return {spec: r.house_edge for spec, r in reference_edges(game, jurisdiction, specs).items()}


def with_strategy(specs: list[BetSpec], strategy: str, kernel: Any, explicit: bool) -> list[BetSpec]:
    """`--strategy NAME`: the decision policy of the bets that take one. A kernel names them in `strategies`
    (kind -> the strategies it plays; the first is the one the exact edge uses); there NAME replaces the default
    option, and it fills any bet given without an @option."""
    from dataclasses import replace

    from tapete.core.errors import TapeteError

    kinds: dict[str, tuple[str, ...]] = getattr(kernel, "strategies", {})
    out = []
    for spec in specs:
        if spec.kind in kinds and (spec.option is None or not explicit):
            if strategy not in kinds[spec.kind]:
                raise TapeteError("unknown-strategy", f"{spec.kind}: the simulation plays {', '.join(kinds[spec.kind])}, "
                                  f"not {strategy!r}")
            spec = replace(spec, option=strategy)
        elif spec.option is None and explicit and not kinds:
            spec = replace(spec, option=strategy)
        if spec not in out:
            out.append(spec)
    return out


def simulate(game_id: str, jurisdiction: str, rounds: int, seed: int, specs: list[BetSpec] | None = None,
             workers: int = 1, chunk: int = DEFAULT_CHUNK, progress: Callable[[int], None] | None = None,
             with_exact: bool = True, map_chunks: Callable[..., Iterable[list[Histogram]]] | None = None,
             strategy: str | None = None) -> SimulationResult:
    """Simulate `rounds` rounds in chunks of `chunk`; chunk i always draws from stream (seed, i). `strategy`
    replaces the default decision policy (see `with_strategy`)."""
    game = get_game(game_id)
    game.rules_for(jurisdiction)
    explicit = bool(specs)
    specs = specs or default_specs(game, jurisdiction)
    if strategy is not None:
        specs = with_strategy(specs, strategy, _kernel(game_id, jurisdiction), explicit)
    sizes = [min(chunk, rounds - i) for i in range(0, rounds, chunk)]
    jobs = [(game_id, jurisdiction, specs, size, seed, i) for i, size in enumerate(sizes)]
    stats = [BetStats(s) for s in specs]
    start = time.perf_counter()

    def absorb(hists: list[Histogram], size: int) -> None:
        for st, h in zip(stats, hists, strict=True):
            _merge(st.histogram, h)
        if progress:
            progress(size)

    if map_chunks is not None:
        for job, hists in zip(jobs, map_chunks(_chunk, jobs), strict=True):
            absorb(hists, job[3])
    elif workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for job, hists in zip(jobs, pool.map(_chunk, jobs), strict=True):
                absorb(hists, job[3])
    else:
        for job in jobs:
            absorb(_chunk(job), job[3])
    seconds = time.perf_counter() - start
    exact = reference_edges(game, jurisdiction, specs) if with_exact else {}
    return SimulationResult(game_id, jurisdiction, rounds, seed, seconds, stats, exact)
