"""What the RNG battery draws from: the table generator through the path the server deals with, or the simulation
streams, and deliberately biased generators for the battery's own tests.

The table path (docs/lab.md): each round gets a fresh 256-bit seed (`tapete.server.tables.fairness.new_seed`; derived from
`--seed` when the run is seeded) and its draw comes from `draw_rng(seed, 0)` = TableRng(seed || 0), turned into an
outcome by the server's own `pick` over the game's exact chances (`game.chance`); a shoe is shuffled by the game's own
live-shoe preparation (`live_shoe` / `new_shoe`, or `Shoe.shuffled`), which is what `tapete.server.tables.shoes.prepare`
runs. tests/lab/test_rng_battery.py checks that these draws and shoes are the server's, seed for seed.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np

from tapete.catalog import get_game
from tapete.core.cards import shoe_of
from tapete.core.rng import TableRng, simulation_stream
from tapete.engine.events import Bet
from tapete.engine.shoe import Shoe
from tapete.server.tables.fairness import (
    pick,  # the server's draw: the battery tests the path the tables deal from
)

T = TypeVar("T")
RngFactory = Callable[[bytes], TableRng]
CARD_INDEX = {c.text: i for i, c in enumerate(shoe_of(1, "french", 0))}      # 'AS' -> 0 ... one deck's 52 cards
DECK_GAME = ("holdem", "ES-AN")            # a fresh 52-card pack each hand (circle poker's new_shoe)
SHOE_GAME = ("punto-banca", "ES")          # a 6-deck live shoe with its stop card (punto y banca's new_shoe)
CUT_GAME = ("blackjack", "ES")             # the cut card placed 52 to 78 cards from the end (000:404-406)


class Source(Protocol):
    """Numbers as the battery reads them, each method drawing `n` fresh ones."""
    name: str

    def roulette(self, n: int) -> np.ndarray: ...          # French roulette numbers 0-36
    def dice(self, n: int) -> np.ndarray: ...              # (n, 2) faces 1-6 of craps rolls
    def decks(self, n: int) -> np.ndarray: ...             # (n, 52) card index 0-51 at each position of a pack
    def shoes(self, n: int, decks: int) -> np.ndarray: ... # (n, 52 * decks) card index 0-51 at each position
    def cuts(self, n: int) -> np.ndarray: ...              # cards behind the cut card of a blackjack shoe
    def words(self, n: int) -> np.ndarray: ...             # n raw 32-bit words of the generator's output


def _chances(game_id: str, jurisdiction: str, bet: Bet) -> list[tuple[Any, Any]]:
    game = get_game(game_id)
    return game.chance(game.step(game.open(jurisdiction, {"minimum": 500}), bet))


@dataclass
class TableSource:
    """The table CSPRNG through the server's path. `seed` (bytes) makes the run reproducible: the per-round seeds
    are SHA-256(seed || counter); without it each round's seed comes from `secrets`, as at a live table.
    `factory` builds a round's generator from its seed (TableRng; a biased one in the battery's tests)."""
    seed: bytes | None = None
    factory: RngFactory = TableRng
    name: str = "table"

    def __post_init__(self) -> None:
        self._counter = 0

    def _round_seed(self) -> bytes:
        self._counter += 1
        if self.seed is None:
            return secrets.token_bytes(32)
        return hashlib.sha256(self.seed + self._counter.to_bytes(8, "big")).digest()

    def draw_rng(self) -> TableRng:
        """A round's generator as `tapete.server.tables.fairness.draw_rng(seed, 0)` builds it: TableRng(seed || 0)."""
        return self.factory(self._round_seed() + (0).to_bytes(4, "big"))

    def shoe_rng(self) -> TableRng:
        """A shoe's generator as `tapete.server.tables.shoes.prepare` builds it: TableRng(seed)."""
        return self.factory(self._round_seed())

    def roulette(self, n: int) -> np.ndarray:
        chances = _chances("roulette-french", "ES", Bet("b", "p", "red", 500, None, {}))
        return np.array([pick(chances, self.draw_rng()).value for _ in range(n)], dtype=np.int64)

    def dice(self, n: int) -> np.ndarray:
        chances = _chances("craps", "ES", Bet("b", "p", "pass", 500, None, {}))
        return np.array([pick(chances, self.draw_rng()).value for _ in range(n)], dtype=np.int64)

    def decks(self, n: int) -> np.ndarray:
        game_id, jurisdiction = DECK_GAME
        game = get_game(game_id)
        out = []
        for _ in range(n):
            state = game.open(jurisdiction, {"minimum": 1000})
            game.new_shoe(state, self.shoe_rng())
            out.append([CARD_INDEX[c] for c in state.shoe])
        return np.array(out, dtype=np.int64)

    def shoes(self, n: int, decks: int) -> np.ndarray:
        """A 6-deck shoe through punto y banca's live preparation; other sizes through the engine's Shoe.shuffled
        (no game of the catalogs deals from 8 decks: that shoe is the engine's shuffle at 416 cards)."""
        game_id, jurisdiction = SHOE_GAME
        game = get_game(game_id)
        out = []
        for _ in range(n):
            if decks == 6:
                state = game.open(jurisdiction, {"minimum": 1000})
                game.new_shoe(state, self.shoe_rng())
                cards = state.shoe.cards
            else:
                cards = Shoe.shuffled(self.shoe_rng(), decks=decks).cards
            out.append([CARD_INDEX[c] for c in cards])
        return np.array(out, dtype=np.int64)

    def cuts(self, n: int) -> np.ndarray:
        game_id, jurisdiction = CUT_GAME
        game = get_game(game_id)
        out = []
        for _ in range(n):
            state = game.open(jurisdiction, {"minimum": 1000})
            game.live_shoe(state, self.shoe_rng())
            out.append(len(state.shoe.cards) - state.shoe.cut_index)
        return np.array(out, dtype=np.int64)

    def words(self, n: int) -> np.ndarray:
        rng = self.factory(self.seed if self.seed is not None else secrets.token_bytes(32))
        return np.frombuffer(stream_bytes(rng, 4 * n), dtype=">u4").astype(np.uint64)


def stream_bytes(rng: TableRng, n: int, chunk: int = 4096) -> bytes:
    """n bytes of one TableRng's output, requested `chunk` at a time (each request ends with the DRBG's update)."""
    out = bytearray()
    while len(out) < n:
        out += rng.bytes(min(chunk, n - len(out)))
    return bytes(out)


@dataclass
class SimulationSource:
    """The simulators' NumPy PCG64 streams (tapete.core.rng.simulation_stream), chunk 0 of `seed`."""
    seed: int | None = None
    name: str = "simulation"

    def __post_init__(self) -> None:
        self.generator = simulation_stream(self.seed if self.seed is not None else secrets.randbits(63), 0)

    def roulette(self, n: int) -> np.ndarray:
        return self.generator.integers(0, 37, n)

    def dice(self, n: int) -> np.ndarray:
        return self.generator.integers(1, 7, (n, 2))

    def decks(self, n: int) -> np.ndarray:
        return np.array([self.generator.permutation(52) for _ in range(n)])

    def shoes(self, n: int, decks: int) -> np.ndarray:
        return np.array([self.generator.permutation(52 * decks) % 52 for _ in range(n)])

    def cuts(self, n: int) -> np.ndarray:
        return self.generator.integers(52, 79, n)

    def words(self, n: int) -> np.ndarray:
        return self.generator.integers(0, 2**32, n, dtype=np.uint64)


# -- deliberately biased generators (the battery must fail them) ---------------------------------------------------
class ModuloBiasedRng(TableRng):
    """randbelow by one byte modulo n: for 37, numbers 0-33 come 7 times in 256 and 34-36 only 6."""

    def randbelow(self, n: int) -> int:
        return self.bytes(1)[0] % n


class NaiveShuffleRng(TableRng):
    """The naive swap shuffle: every position swapped with any position (n^n paths onto n! orders: biased)."""

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items)):
            j = self.randbelow(len(items))
            items[i], items[j] = items[j], items[i]
