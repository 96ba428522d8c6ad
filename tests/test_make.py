"""`make` is gentle with the user's machine and the tree (issue 16): `make deps` installs only what is missing,
without recommends, and says so first; `make test` runs in parallel and leaves no file behind."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[1]
DEPS = ROOT / "scripts" / "deps.sh"


def run_deps(tmp: Path, *, chromium: bool, postgres: bool, root: bool = True, dieharder: bool = True,
             nginx: bool = True, haproxy: bool = True) -> tuple[str, list[str]]:
    """scripts/deps.sh with fake apt-get / sudo / id on PATH; returns its output and the commands it ran."""
    bin_ = tmp / "bin"
    bin_.mkdir()
    log = tmp / "calls"
    for tool in ("ls",):
        os.symlink(shutil.which(tool), bin_ / tool)
    for fake in ("apt-get", "sudo"):
        (bin_ / fake).write_text(f'#!/bin/sh\necho "{fake} $*" >> {log}\n[ "{fake}" = sudo ] && exec "$@"\nexit 0\n')
        (bin_ / fake).chmod(0o755)
    (bin_ / "id").write_text(f"#!/bin/sh\necho {0 if root else 1000}\n")
    (bin_ / "id").chmod(0o755)
    (bin_ / "env").write_text('#!/bin/sh\nwhile [ "${1#*=}" != "$1" ]; do export "$1"; shift; done\nexec "$@"\n')
    (bin_ / "env").chmod(0o755)
    browser = tmp / "chromium"
    if chromium:
        browser.write_text("#!/bin/sh\n")
        browser.chmod(0o755)
    pg = tmp / "postgresql" / "15" / "bin"
    if postgres:
        pg.mkdir(parents=True)
        (pg / "initdb").write_text("")
    battery = tmp / "dieharder"
    if dieharder:
        battery.write_text("#!/bin/sh\n")
        battery.chmod(0o755)
    proxy = tmp / "nginx"
    if nginx:
        proxy.write_text("#!/bin/sh\n")
        proxy.chmod(0o755)
    balancer = tmp / "haproxy"
    if haproxy:
        balancer.write_text("#!/bin/sh\n")
        balancer.chmod(0o755)
    env = {"PATH": str(bin_), "TAPETE_HAPROXY": str(balancer), "TAPETE_CHROMIUM": str(browser), "TAPETE_INITDB_GLOB": str(tmp / "postgresql/*/bin/initdb"),
           "TAPETE_DIEHARDER": str(battery), "TAPETE_NGINX": str(proxy)}
    out = subprocess.run(["/bin/sh", str(DEPS)], env=env, capture_output=True, text=True, check=True)
    calls = log.read_text().splitlines() if log.exists() else []
    return out.stdout + out.stderr, calls


def test_make_deps_installs_nothing_when_both_are_there(tmp_path: Path) -> None:
    out, calls = run_deps(tmp_path, chromium=True, postgres=True)
    assert calls == [] and "nothing to install" in out


def test_make_deps_checks_each_package_on_its_own_and_installs_only_the_missing_one(tmp_path: Path) -> None:
    out, calls = run_deps(tmp_path, chromium=True, postgres=False)
    assert "about to install: postgresql" in out
    assert calls == ["apt-get update -q", "apt-get install -y -q --no-install-recommends postgresql"]


def test_make_deps_never_names_an_installed_package(tmp_path: Path) -> None:
    out, calls = run_deps(tmp_path, chromium=False, postgres=True)
    assert "about to install: chromium" in out
    assert calls[-1] == "apt-get install -y -q --no-install-recommends chromium"
    assert not any("upgrade" in c or "postgresql" in c for c in calls)


def test_make_deps_installs_nginx_only_when_missing(tmp_path: Path) -> None:
    out, calls = run_deps(tmp_path, chromium=True, postgres=True, nginx=False)
    assert "about to install: nginx" in out
    assert calls == ["apt-get update -q", "apt-get install -y -q --no-install-recommends nginx"]


def test_make_deps_installs_haproxy_only_when_missing(tmp_path: Path) -> None:
    out, calls = run_deps(tmp_path, chromium=True, postgres=True, haproxy=False)
    assert "about to install: haproxy" in out
    assert calls == ["apt-get update -q", "apt-get install -y -q --no-install-recommends haproxy"]


def test_make_deps_installs_dieharder_only_when_missing(tmp_path: Path) -> None:
    out, calls = run_deps(tmp_path, chromium=True, postgres=True, dieharder=False)
    assert "about to install: dieharder" in out
    assert calls == ["apt-get update -q", "apt-get install -y -q --no-install-recommends dieharder"]


def test_make_deps_uses_sudo_only_when_not_root(tmp_path: Path) -> None:
    _, calls = run_deps(tmp_path, chromium=False, postgres=False, root=False)
    assert calls[0] == "sudo apt-get update -q"
    assert "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql chromium" in calls


def test_the_makefile_runs_deps_through_the_script_and_never_upgrades() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^deps:\n\t@sh scripts/deps\.sh$", makefile, re.M)
    text = makefile + DEPS.read_text(encoding="utf-8")
    assert "apt-get upgrade" not in text and "dist-upgrade" not in text


def test_make_test_runs_in_parallel_and_screenshots_have_their_own_target() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: .*\n\t\$\(BIN\)/python -m pytest -n \S+", makefile, re.M)
    assert re.search(r"^screenshots: .*\n\tTAPETE_SCREENSHOTS=docs/screenshots ", makefile, re.M)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"pytest-xdist>=' in pyproject


def test_a_test_run_writes_its_screenshots_outside_the_tracked_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without `make screenshots`, the browser tests' screenshots go to an ignored folder, never docs/."""
    monkeypatch.delenv("TAPETE_SCREENSHOTS", raising=False)
    spec = importlib.util.spec_from_file_location("browser_conftest_probe", ROOT / "tests" / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = module.SCREENSHOTS
    assert "docs" not in path.relative_to(ROOT).parts
    ignored = subprocess.run(["git", "check-ignore", "-q", str(path / "x.png")], cwd=ROOT)
    assert ignored.returncode == 0, f"{path} is not ignored by git"


def test_the_files_a_test_run_makes_are_ignored() -> None:
    for name in (".hypothesis/x", "tapete.db", "tapete.db-wal", ".pytest_cache/x", "build/screenshots/a.png",
                 "src/tapete/__pycache__/x.nbi", "benchmarks/out/x"):
        assert subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT).returncode == 0, name


def test_a_parallel_run_keeps_each_file_and_all_browser_files_on_one_worker() -> None:
    """tests/conftest.py schedules each file as one unit of work, and all the browser files as one."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^\t\$\(BIN\)/python -m pytest -n auto --dist loadfile$", makefile, re.M)
    spec = importlib.util.spec_from_file_location("tests_conftest_probe", ROOT / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    class Config:
        def __init__(self, dist: str) -> None:
            self.dist = dist

        def getvalue(self, name: str) -> str:
            return self.dist

        def getoption(self, name: str, default: Any = None) -> Any:
            return {"dist": self.dist, "maxschedchunk": None}.get(name, default)

    assert module.pytest_xdist_make_scheduler(Config("load"), None) is None
    scheduler = module.pytest_xdist_make_scheduler(Config("loadfile"), None)
    split = scheduler._split_scope
    assert split("tests/browser/test_browser_cards.py::test_a[390x844]") == "browser"
    assert split("tests/browser/test_browser_craps.py::test_b") == "browser"
    assert split("tests/server/test_server_crash.py::test_c[sqlite]") == "tests/server/test_server_crash.py"
