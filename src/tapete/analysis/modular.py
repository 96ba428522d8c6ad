"""Exact integers from machine arithmetic: residues modulo several primes, joined by the Chinese remainder
theorem. A dynamic programme whose true values are integers too large for int64 runs once per prime in
compiled code; once the primes' product exceeds a proven bound on the integers, the residues determine them
exactly, and one further prime checks the reconstruction."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover
    from typing import Any

    def njit(*args: Any, **kwargs: Any) -> Any:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.4e14 (bases 2, 3, 5, 7, 11, 13, 17)."""
    if n < 2:
        return False
    for q in (2, 3, 5, 7, 11, 13, 17):
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_below(limit: int = 2**31) -> Iterator[int]:
    """Primes downwards from `limit` (under 2^31 so that a product of two residues fits in int64)."""
    n = limit - 1
    while n > 2:
        if _is_prime(n):
            yield n
        n -= 1


def primes_for(bound: int, limit: int = 2**31) -> list[int]:
    """Enough primes that their product exceeds 2 * bound (room for any integer in [0, bound]), plus one to check."""
    out: list[int] = []
    product = 1
    gen = primes_below(limit)
    while product <= 2 * bound:
        p = next(gen)
        out.append(p)
        product *= p
    out.append(next(gen))
    return out


def crt(residues: list[int], primes: list[int]) -> int:
    """The integer in [0, prod primes) with these residues."""
    x, m = 0, 1
    for r, p in zip(residues, primes, strict=True):
        t = (r - x) * pow(m, -1, p) % p
        x, m = x + m * t, m * p
    return x


def reconstruct(residues: np.ndarray, primes: list[int], bound: int) -> np.ndarray:
    """Integers (as a Python-int object array) from residues[k, ...] modulo primes[k]; the last prime checks.
    Raises ArithmeticError when a value exceeds `bound` or disagrees with the check prime."""
    *use, check = primes
    flat = residues.reshape(len(primes), -1)
    out = np.empty(flat.shape[1], dtype=object)
    for i in range(flat.shape[1]):
        x = crt([int(r) for r in flat[:-1, i]], use)
        if x > bound or x % check != int(flat[-1, i]):
            raise ArithmeticError("residues do not determine an integer within the bound")
        out[i] = x
    return out.reshape(residues.shape[1:])


@njit(cache=True, inline="always")
def mulmod(a: int, b: int, p: int, pinv: float) -> int:
    """a*b mod p for 0 <= a, b < p < 2^31, without a division: the float quotient is off by at most one."""
    q = np.int64(float(a) * float(b) * pinv)
    r = a * b - q * p
    if r < 0:
        r += p
    elif r >= p:
        r -= p
    return r


@njit(cache=True)
def factorials_mod(n: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    """k! and 1/k! modulo the prime p > n, for k = 0..n."""
    pinv = 1.0 / p
    fact = np.ones(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        fact[k] = mulmod(fact[k - 1], k, p, pinv)
    inv = np.ones(n + 1, dtype=np.int64)
    e, b, r = p - 2, fact[n], 1
    while e:
        if e & 1:
            r = mulmod(r, b, p, pinv)
        b = mulmod(b, b, p, pinv)
        e >>= 1
    inv[n] = r
    for k in range(n, 0, -1):
        inv[k - 1] = mulmod(inv[k], k, p, pinv)
    return fact, inv
