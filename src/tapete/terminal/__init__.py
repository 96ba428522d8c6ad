"""Terminal tables (`tapete play`): the engine's reducer, the table CSPRNG, and a person at the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from tapete.core.errors import TapeteError

PLAYERS: dict[str, Callable[..., None]] = {}


def register_player(*game_ids: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def wrap(fn: Callable[..., None]) -> Callable[..., None]:
        for gid in game_ids:
            PLAYERS[gid] = fn
        return fn
    return wrap


MAX_CHIPS = 10**9     # a billion euros: past it an amount is a typing mistake, not chips


def session_settings(lang: str | None, balance: float, minimum: float) -> tuple[str, int, int]:
    """`tapete play`'s options checked: the language (else the locale's), the balance and minimum in cents.
    A negative, zero or absurd balance or minimum is refused with one sentence in the session language."""
    import math

    from tapete import i18n

    speech = lang or i18n.from_locale()
    if speech not in i18n.languages():
        raise TapeteError("bad-request", i18n.render("en", "play.bad-lang", code=speech,
                                                     langs=", ".join(i18n.languages())))
    if not (math.isfinite(balance) and 0 < balance <= MAX_CHIPS):
        raise TapeteError("bad-request", i18n.render(speech, "play.bad-balance"))
    if not (math.isfinite(minimum) and 0 < minimum <= MAX_CHIPS):
        raise TapeteError("bad-request", i18n.render(speech, "play.bad-minimum"))
    return speech, round(balance * 100), round(minimum * 100)


def load_players() -> dict[str, Callable[..., None]]:
    """Import every terminal table (each registers its games) and return the registry."""
    import tapete.terminal.baccarat  # noqa: F401
    import tapete.terminal.baccarat_two_tables  # noqa: F401
    import tapete.terminal.banked_poker  # noqa: F401
    import tapete.terminal.bingo  # noqa: F401  (registers its game)
    import tapete.terminal.blackjack  # noqa: F401
    import tapete.terminal.boule  # noqa: F401
    import tapete.terminal.craps  # noqa: F401
    import tapete.terminal.monte  # noqa: F401
    import tapete.terminal.poker  # noqa: F401
    import tapete.terminal.trente_quarante  # noqa: F401
    import tapete.terminal.wheel  # noqa: F401
    from tapete.terminal import roulette  # noqa: F401  (registers its games)

    return PLAYERS


def play_game(game: Any, jurisdiction: str, *, minimum: int, balance: int, seed: str | None, console: Console,
              read: Callable[[str], str] | None = None, lang: str = "en") -> None:
    load_players()
    from tapete import i18n
    from tapete.terminal.voice import CURRENT, Voice

    if seed is not None:
        try:
            bytes.fromhex(seed)
        except ValueError:
            raise TapeteError("bad-request", i18n.render(lang, "play.bad-seed")) from None

    player = PLAYERS.get(game.id)
    if player is None:
        raise TapeteError("unknown-game", f"{game.id} has no terminal table yet")
    reader = read or console.input
    CURRENT.append(Voice(lang, console, reader))
    try:
        player(game, jurisdiction, minimum=minimum, balance=balance, seed=seed, console=console, read=reader)
    finally:
        CURRENT.pop()
