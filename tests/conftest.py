"""How the suite shares out over pytest-xdist workers (`make test` runs `-n auto --dist loadgroup`).

Each test file is one group, so it stays on one worker: a module's server, browser and database fixtures start
once and its tests run in file order, as they do in a plain `pytest` run. The browser files form a single group:
two Chromiums redrawing live tables at once on a small machine starve each other's pages into timeouts.
"""

from __future__ import annotations

from typing import Any

import pytest


def xdist_group(item: pytest.Item, root: Any) -> str:
    path = item.path.relative_to(root)
    return "browser" if path.parts[:2] == ("tests", "browser") else path.as_posix()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): run every test of the group on the same xdist worker")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not any(item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(xdist_group(item, config.rootpath)))
