"""A round's or a shoe's secret seed and its public commitment (SHA-256), published before any bet rides on it."""

from __future__ import annotations

import hashlib
import secrets


def new_seed() -> str:
    return secrets.token_bytes(32).hex()


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()
