"""Checks of the command line's values and files, shared by every `tapete` command (issue 16 point 4).

Each check raises a `TapeteError` whose message names the option (or argument) at fault, so the command answers
with one line and exit code 2 (the error document where the command speaks JSON) instead of a traceback.
Codes: `bad-option` for a value out of its range or unusable (an address, a database URL), `bad-document` for a
file that cannot be read as the text it must be.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

from tapete.core.errors import TapeteError

BAD = "bad-option"


def at_least(value: int | float, minimum: int | float, option: str, code: str = BAD) -> None:
    """Counts, rounds, sizes: `option` must be at least `minimum`."""
    if value < minimum:
        raise TapeteError(code, f"{option} must be at least {minimum:,} (got {value:,})")


def at_most(value: int | float, maximum: int | float, option: str, code: str = BAD) -> None:
    if value > maximum:
        raise TapeteError(code, f"{option} must be at most {maximum:,} (got {value:,})")


def not_negative(value: float, option: str) -> None:
    if not value >= 0:          # NaN too
        raise TapeteError(BAD, f"{option} must be zero or more (got {value})")


def hex_seed(seed: str | None, option: str = "--seed") -> str | None:
    """A session seed is hexadecimal (it replays the session); None: a fresh one."""
    if seed is None:
        return None
    text = seed.strip().lower().removeprefix("0x")
    if (len(text) < 32 or len(text) > 512 or len(text) % 2 or any(c not in "0123456789abcdef" for c in text)):
        raise TapeteError(BAD, f"{option} is the hexadecimal seed a session prints: an even number of hex digits, "
                          f"at least 32 (128 bits) (got {seed!r})")
    return text


MAX_TEXT = 512 << 20       # 512 MiB: a round document is a few KiB, a year's audit export of a casino well below


def read_text(path: str, what: str, *, allow_stdin: bool = True, code: str = "bad-document") -> str:
    """The UTF-8 text of a file (or standard input for '-'); one clear error for what cannot be read as text:
    a missing file, a folder, a binary file, text in another encoding, a device that never ends (/dev/zero,
    /dev/full: their first bytes are NULs, so they are refused before any more is read)."""
    if path == "-" and allow_stdin:
        if sys.stdin is None or getattr(sys.stdin, "closed_input", False):
            raise TapeteError(code, f"{what}: standard input is closed (name a file, or send the text in)")
        if not hasattr(sys.stdin, "buffer"):
            return sys.stdin.read()
        data = _bounded(sys.stdin.buffer, what, "standard input", code)
        name = "standard input"
    else:
        p = Path(path)
        if not p.exists():
            raise TapeteError(code, f"{what}: no file {path}")
        if p.is_dir():
            raise TapeteError(code, f"{what}: {path} is a folder, not a file")
        try:
            with p.open("rb") as fh:
                data = _bounded(fh, what, path, code)
        except OSError as exc:
            raise TapeteError(code, f"{what}: cannot read {path}: {exc.strerror or exc}") from None
        name = path
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TapeteError(code, f"{what}: {name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                          f"position {exc.start})") from None


def _bounded(stream: Any, what: str, name: str, code: str) -> bytes:
    """Read `stream` whole, refusing a binary start at once and anything over MAX_TEXT."""
    head = stream.read(8192) or b""
    if b"\x00" in head:
        raise TapeteError(code, f"{what}: {name} is a binary file, not text")
    rest = stream.read(MAX_TEXT - len(head) + 1) or b""
    if len(head) + len(rest) > MAX_TEXT:
        raise TapeteError(code, f"{what}: {name} is larger than {MAX_TEXT >> 20} MiB, more than tapete reads as text")
    return head + rest


def jurisdiction(code: str, option: str = "--jurisdiction") -> str:
    from tapete.core.jurisdictions import JURISDICTIONS

    if code not in JURISDICTIONS:
        raise TapeteError("unknown-jurisdiction", f"{option}: unknown jurisdiction {code!r} ({', '.join(JURISDICTIONS)})")
    return code


def dask_scheduler(address: str, option: str = "--cluster", timeout: float = 5.0) -> None:
    """A Dask scheduler address that answers a TCP connection within `timeout` seconds."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if parts.scheme not in ("tcp", "tls") or not host or not port:
        raise TapeteError(BAD, f"{option} is a Dask scheduler address, e.g. tcp://10.0.0.5:8786 (got {address!r})")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise TapeteError(BAD, f"{option}: cannot reach the Dask scheduler at {address} ({why})") from None


def writable_file(path: str, option: str) -> None:
    """A file the command may create: its folder exists and it is not a folder itself."""
    p = Path(path)
    if p.is_dir():
        raise TapeteError(BAD, f"{option}: {path} is a folder, not a file")
    if not p.parent.exists():
        raise TapeteError(BAD, f"{option}: the folder {p.parent} does not exist")


def first_line(exc: BaseException) -> str:
    """An exception's first line (a driver's own message, without its traceback), at most 200 characters."""
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def one_line(message: str) -> str:
    """A message on one line whatever it quotes: an argument a user typed may hold line breaks of any kind
    (a vertical tab, U+2028, a file separator), and a refusal is read as one line."""
    return " ".join(message.split())


def refuse(code: str, message: str) -> NoReturn:
    """A command's refusal: `error <code>: <message>` on one line of stderr, exit 2 (never a traceback)."""
    import typer

    typer.echo(f"error {code}: {one_line(message)}", err=True)
    raise typer.Exit(2)
