"""Fixtures of the lab's tests: an exported kit (once per module) and HTTP endpoints speaking the kit's protocol."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tapete.lab.kit import export
from tapete.lab.serve import make_server


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kit")
    export(path)
    return path


@contextmanager
def endpoint(settle: Callable[[Any], Any] | None = None) -> Iterator[str]:
    """A kit endpoint on a free loopback port, in a thread: tapete itself, or `settle` (a faulty system)."""
    server = make_server("127.0.0.1", 0, settle)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/settle"
    finally:
        server.shutdown()
        server.server_close()
