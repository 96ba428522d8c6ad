"""The accounts policy, below the casino file and the HTTP layer so that both apply the same rules: which roles
one account may hold together, and which passwords are accepted — whoever creates the account (the casino file,
`tapete users`, the cashier, a player registering).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources

from tapete.core.errors import TapeteError

ROLES = ("player", "croupier", "chief", "cashier", "inspector")
STAFF_ROLES = frozenset({"croupier", "chief", "cashier", "inspector"})
MIN_PASSWORD = 10
PASSWORD_POLICY = f"at least {MIN_PASSWORD} characters, not a common password, not the user's name"


def staff_who_play(roles: Iterable[str]) -> list[str]:
    """The staff roles an account holds beside `player` (empty: the combination is allowed)."""
    held = set(roles)
    return sorted(held & STAFF_ROLES) if "player" in held else []


def check_roles(roles: Iterable[str]) -> None:
    """Staff never play (docs/rulings.md#staff-never-play): a croupier or chief could key the outcome of his own
    bet, an inspector reads every hole card and seed, a cashier could fund his own bets. One account is staff or
    player, never both — refused whoever creates or changes the account."""
    staff = staff_who_play(roles)
    if staff:
        raise TapeteError("forbidden", f"no account is both {', '.join(staff)} and player: staff never play "
                          "(a separate player account, if the casino allows its staff to play elsewhere)")


def check_password(password: str, username: str = "") -> None:
    """At least MIN_PASSWORD characters, not the user's name, not among the commonest passwords (shipped list)."""
    if len(password) < MIN_PASSWORD:
        raise TapeteError("weak-password", f"a password has at least {MIN_PASSWORD} characters")
    folded = password.strip().lower()
    rest = "".join(ch for ch in folded.replace(username.lower(), "") if ch.isalnum()) if username else folded
    if folded in common_passwords() or len(rest) < 4:
        raise TapeteError("weak-password", "this password is among the commonest or follows from the user's name: choose another")


@functools.cache
def common_passwords() -> frozenset[str]:
    text = resources.files("tapete.server.http").joinpath("common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines() if line.strip() and not line.startswith("#"))
