"""Behind a real reverse proxy (issue 29): Debian's nginx in front of `tapete serve`, with the locations the
project ships (examples/proxy/tapete-locations.conf). A player logs in the browser's way (cookie + CSRF), a
croupier runs a round, the player's bet settles, the lobby page and the table's stream come through nginx, the
client's address is the one nginx forwarded, and a proxy that keeps its own Host upstream (X-Forwarded-Host)
does not turn the player's requests into cross-origin refusals. Skipped, with the reason, without nginx."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import PASSWORD, ServerProcess, free_port, write_config  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[2]
LOCATIONS = ROOT / "examples" / "proxy" / "tapete-locations.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TABLE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}

pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx is not installed (make deps installs Debian's)")


def nginx_conf(folder: Path, listen: int, upstream: int, locations: str) -> Path:
    conf = folder / "nginx.conf"
    (folder / "tapete-locations.conf").write_text(locations, encoding="utf-8")
    conf.write_text(f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream tapete {{ server 127.0.0.1:{upstream}; keepalive 8; }}
    server {{
        listen 127.0.0.1:{listen};
        server_name casino.test;
        include {folder}/tapete-locations.conf;
    }}
}}
""", encoding="utf-8")
    return conf


@pytest.fixture
def behind_nginx(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """(nginx's base URL, the server) — `request.param` edits the shipped locations (a proxy's variant)."""
    config = write_config(tmp_path / "casino.toml", [TABLE], {"ana": 100_000})
    text = config.read_text(encoding="utf-8").replace("[security]\n", '[security]\ntrusted_proxies = ["127.0.0.1"]\n', 1)
    config.write_text(text, encoding="utf-8")
    server = ServerProcess(config, f"sqlite:///{tmp_path / 'casino.db'}").start()
    port = free_port()
    locations = LOCATIONS.read_text(encoding="utf-8")
    edit = getattr(request, "param", None)
    if edit:
        locations = edit(locations)
    conf = nginx_conf(tmp_path, port, server.port, locations)
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 20
    while time.monotonic() < end:
        try:
            if httpx.get(f"{base}/api/health/live", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    try:
        yield base, server
    finally:
        proc.terminate()
        proc.wait(10)
        server.stop()


def play_a_round_through(base: str) -> None:
    """A player's browser session and a croupier's API session, every request through nginx."""
    staff = httpx.Client(base_url=base, timeout=10)
    token = staff.post("/api/login", json={"username": "croupier", "password": PASSWORD}).json()["token"]
    staff.headers["Authorization"] = f"Bearer {token}"

    browser = httpx.Client(base_url=base, timeout=10, headers={"Origin": base})
    lobby = browser.get("/")
    assert lobby.status_code == 200, lobby.text[:2000]                           # the lobby page
    assert "ruleta" in browser.get("/tables/ruleta").text
    login = browser.post("/api/session", json={"username": "ana", "password": PASSWORD})
    assert login.status_code == 200, login.text
    csrf = {"X-CSRF-Token": browser.cookies["tapete_csrf"]}

    def key() -> dict[str, str]:
        return {"Idempotency-Key": str(time.monotonic_ns())}

    assert staff.post("/api/tables/ruleta/open", json={}, headers=key()).status_code == 200
    # a dozen, not a simple chance: a zero would send red to prison, open until a next spin this live table never makes
    bet = browser.post("/api/tables/ruleta/bets", json={"bets": [{"kind": "dozen", "on": [2], "amount": 500}]},
                       headers={**csrf, **key()})
    assert bet.status_code == 200, bet.text
    from websockets.sync.client import connect

    stream = base.replace("http", "ws") + "/api/tables/ruleta/stream"
    with connect(stream, additional_headers={"Cookie": f"tapete_session={browser.cookies['tapete_session']}",
                                             "Origin": base}, open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        closed = staff.post("/api/tables/ruleta/close", json={}, headers=key()).json()
        assert "phase" in closed, closed
        if closed["phase"] == "closed":
            staff.post("/api/tables/ruleta/draw", json={}, headers=key())
        kinds = set()
        end = time.monotonic() + 10
        while "settlement" not in kinds and time.monotonic() < end:
            kinds.add(json.loads(ws.recv(timeout=10)).get("kind"))
        assert "settlement" in kinds, kinds
    me = browser.get("/api/me").json()
    assert me["balance"] in (100_000 - 500, 100_000 + 1000), me                          # lost, won (2 to 1)
    ledger = staff.get("/api/ledger")
    assert ledger.status_code in (200, 403)


def test_a_round_through_nginx_with_the_shipped_locations(behind_nginx: Any) -> None:
    base, server = behind_nginx
    play_a_round_through(base)
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log


def _keep_proxy_host(locations: str) -> str:
    """A proxy left with nginx's default Host upstream ($proxy_host), which says X-Forwarded-Host."""
    return "\n".join(line for line in locations.splitlines() if "proxy_set_header Host " not in line)


@pytest.mark.parametrize("behind_nginx", [_keep_proxy_host], indirect=True)
def test_a_proxy_with_its_own_host_upstream_is_not_cross_origin(behind_nginx: Any) -> None:
    base, _ = behind_nginx
    play_a_round_through(base)
