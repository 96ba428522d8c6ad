"""Randomness, by design (docs/architecture.md): a seeded cryptographic generator for tables and play, NumPy streams
for simulation, and unbiased shuffles.

`TableRng` is HMAC-DRBG (NIST SP 800-90A, HMAC-SHA-256) keyed by a 256-bit seed from `secrets`: strong
enough for a casino, and every round replays from its seed — which is what commit-reveal needs (publish
`commitment()` before bets close, reveal the seed after).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")


class TableRng:
    """Deterministic CSPRNG (HMAC-DRBG with SHA-256). Same seed, same draws."""

    def __init__(self, seed: bytes | None = None) -> None:
        self.seed = seed if seed is not None else secrets.token_bytes(32)
        if len(self.seed) < 16:
            raise ValueError("a table seed needs at least 128 bits")
        self._key = b"\x00" * 32
        self._value = b"\x01" * 32
        self._update(self.seed)

    @classmethod
    def from_hex(cls, text: str) -> TableRng:
        return cls(bytes.fromhex(text))

    def commitment(self) -> str:
        """SHA-256 of the seed: published before bets close, checked after the seed is revealed."""
        return hashlib.sha256(self.seed).hexdigest()

    def _update(self, data: bytes = b"") -> None:
        self._key = hmac.new(self._key, self._value + b"\x00" + data, hashlib.sha256).digest()
        self._value = hmac.new(self._key, self._value, hashlib.sha256).digest()
        if data:
            self._key = hmac.new(self._key, self._value + b"\x01" + data, hashlib.sha256).digest()
            self._value = hmac.new(self._key, self._value, hashlib.sha256).digest()

    def bytes(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            self._value = hmac.new(self._key, self._value, hashlib.sha256).digest()
            out += self._value
        self._update()
        return bytes(out[:n])

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling: no modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        bits = max(1, (n - 1).bit_length())
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            r = int.from_bytes(self.bytes(nbytes), "big") & mask
            if r < n:
                return r

    def choice(self, items: list[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, each swap index drawn without bias."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def simulation_streams(seed: int, chunks: int) -> list[np.random.Generator]:
    """One independent PCG64 stream per chunk, spawned from one seed: a result depends on the seed and the
    chunking, never on how many workers run the chunks."""
    return [np.random.Generator(np.random.PCG64(s)) for s in np.random.SeedSequence(seed).spawn(chunks)]


def simulation_stream(seed: int, chunk: int) -> np.random.Generator:
    """The stream of one chunk, computable by any worker without the others."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,))))
