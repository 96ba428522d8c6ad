"""Issue 28 on the server's side: `serve`'s start and stop messages (point 6), `verify` naming the bet a forged
record changed (point 5), /docs without a network (point 9)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tapete.cli import app

ELECTRONIC = {"id": "rng", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def test_serve_prints_its_real_port_refuses_a_port_in_use_and_stops_at_once(tmp_path: Path) -> None:
    """--port 0 prints the port the system gave; a second server on it is one line and exit 2; Ctrl-C with two
    stream clients connected stops it (exit 0, "stopped") without waiting for them to leave."""
    import websockets

    env = {**os.environ, "TAPETE_DATABASE_URL": f"sqlite:///{tmp_path / 'casino.db'}"}
    command = [sys.executable, "-c", "from tapete.cli import main; main()", "serve", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                              cwd=tmp_path)
    try:
        lines = [server.stdout.readline() for _ in range(2)]             # type: ignore[union-attr]
        found = re.search(r"http://127\.0\.0\.1:(\d+)/ ", lines[1])
        assert found and found.group(1) != "0", lines
        port = int(found.group(1))
        busy = subprocess.run([*command[:3], "serve", "--port", str(port)], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
        assert busy.returncode == 2 and "Traceback" not in busy.stderr
        assert len(busy.stderr.strip().splitlines()) == 1 and "in use" in busy.stderr and str(port) in busy.stderr

        while "Application startup complete" not in server.stdout.readline():   # type: ignore[union-attr]
            pass                    # the lifespan (migrations, demo accounts) runs after the bind

        login = urllib.request.Request(f"http://127.0.0.1:{port}/api/login", method="POST",
                                       data=json.dumps({"username": "croupier", "password": "tapete-demo"}).encode(),
                                       headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(login, timeout=60) as answer:
            token = json.load(answer)["token"]

        async def watch_then_stop() -> int:
            url = f"ws://127.0.0.1:{port}/api/tables/ruleta-1/stream?token={token}"
            clients = [await websockets.connect(url) for _ in range(2)]
            for client in clients:
                assert json.loads(await client.recv())["type"] == "snapshot"
            server.send_signal(signal.SIGINT)
            return await asyncio.to_thread(server.wait, 30)      # a bound, not a measure: it took 45 s before

        assert asyncio.run(watch_then_stop()) == 0
        assert "tapete: stopped" in server.stdout.read()        # type: ignore[union-attr]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_verify_says_which_bet_a_forged_record_changed(make_casino: Any, sqlite_url: str, tmp_path: Path) -> None:
    c = make_casino([ELECTRONIC], sqlite_url)
    c.post("croupier", "/api/tables/rng/open", key=None)
    c.bet("ana", "rng", {"kind": "straight", "on": [3], "amount": 100}, {"kind": "dozen", "on": [1], "amount": 500})
    c.post("croupier", "/api/tables/rng/close")
    c.post("croupier", "/api/tables/rng/draw")
    rid = c.get("ana", "/api/rounds?table=rng")["rounds"][0]["id"]
    record = c.get("luis", f"/api/rounds/{rid}")
    bet_id = sorted(record["settlement"]["bets"])[0]
    record["settlement"]["bets"][bet_id]["returned"] += 1000
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and f"{bet_id}: returned" in result.stderr and "recorded" in result.stderr
    (failed,) = [check for check in json.loads(result.stdout)["checks"] if not check["ok"]]
    assert failed["check"] == "settlement" and bet_id in failed["detail"]


def test_the_api_docs_load_nothing_from_the_network(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ELECTRONIC], sqlite_url)
    page = c.client.get("/docs")
    assert page.status_code == 200
    sources = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", page.text)
    assert sources and not [s for s in sources if s.startswith(("http:", "https:", "//"))], sources
    for source in sources:
        asset = c.client.get(source)
        assert asset.status_code == 200 and len(asset.content) > 100, source
    assert "SwaggerUIBundle" in c.client.get("/docs/assets/swagger-ui-bundle.js").text
