"""How the suite shares out over pytest-xdist workers (`make test` runs `-n auto --dist loadfile`).

Each test file is one unit of work, so it stays on one worker: a module's server, browser and database fixtures
start once and its tests run in file order, as they do in a plain `pytest` run. The browser files form a single
unit: two Chromiums redrawing live tables at once on a small machine starve each other's pages into timeouts.

The units are made by a scheduler of our own (`FileGroups`), not by `xdist_group` marks: with pytest 9 the
node-id suffix through which `--dist loadgroup` groups marked tests is no longer applied (pytest-xdist 3.8 sets
`item._nodeid`, which pytest 9 no longer reads), so the marks were silently ignored and the browser files spread
over both workers.
"""

from __future__ import annotations

from typing import Any

import pytest


def group_of(nodeid: str) -> str:
    """The unit of work of a test: its file, or 'browser' for every file of the browser suite."""
    path = nodeid.split("::", 1)[0]
    return "browser" if path.startswith("tests/browser/") else path


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile`, with the browser files as one file."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return FileGroups(config, log)
