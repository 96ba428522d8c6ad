"""Hosts on one machine (issue 33): network namespaces joined by veth links to a bridge, built and torn down by a
test. Each host has its own network stack (addresses, loopback, sockets), so a host's processes reach the others
only over the links, and a host can be cut off (its link down: no FIN, no RST — the others learn it from
keepalives and health checks) or have its processes killed. This kernel has no netem (`tc qdisc ... netem`), so
the links add no latency; no user-space delay proxy is added (a bet's round trips to PostgreSQL stay on the
machine's loopback speed, ~50 µs).

Needs root and `ip` (iproute2); `available()` says why not."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import uuid
from pathlib import Path

IP = shutil.which("ip") or "/usr/sbin/ip"


def available() -> str | None:
    """None when namespaces can be made here, else the reason."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if not Path(IP).exists():
        return "`ip` (iproute2) is not installed"
    probe = f"t33probe{uuid.uuid4().hex[:6]}"
    done = subprocess.run([IP, "netns", "add", probe], capture_output=True, text=True)
    if done.returncode != 0:
        return f"cannot make a network namespace: {done.stderr.strip()}"
    subprocess.run([IP, "netns", "del", probe], capture_output=True)
    return None


def ip(*args: str) -> None:
    subprocess.run([IP, *args], check=True, capture_output=True, text=True)


class Topology:
    """Hosts on one /24 behind a bridge in a namespace of its own; the test's own (root) namespace is on the
    bridge too, at .254, so the test reaches every host and no host reaches anything else."""

    def __init__(self, hosts: list[str]) -> None:
        tag = uuid.uuid4().hex[:5]
        self.tag = tag
        self.subnet = f"10.{200 + int(tag[:2], 16) % 50}.{int(tag[2:4], 16)}"
        self.switch = f"t33sw{tag}"
        self.names = {h: f"t33{h}{tag}" for h in hosts}
        self.addresses = {h: f"{self.subnet}.{i}" for i, h in enumerate(hosts, start=1)}
        self.links: dict[str, str] = {}
        self._made: list[str] = []
        self._root_link = f"v33r{tag}"
        try:
            self._build(hosts)
        except Exception:
            self.close()
            raise

    def _build(self, hosts: list[str]) -> None:
        ip("netns", "add", self.switch)
        self._made.append(self.switch)
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")
        for i, h in enumerate(hosts, start=1):
            ns = self.names[h]
            ip("netns", "add", ns)
            self._made.append(ns)
            ip("-n", ns, "link", "set", "lo", "up")
            inner, outer = f"v33{self.tag}{i}a", f"v33{self.tag}{i}b"
            ip("link", "add", inner, "type", "veth", "peer", "name", outer)
            ip("link", "set", inner, "netns", ns)
            ip("link", "set", outer, "netns", self.switch)
            ip("-n", ns, "addr", "add", f"{self.addresses[h]}/24", "dev", inner)
            ip("-n", ns, "link", "set", inner, "up")
            ip("-n", self.switch, "link", "set", outer, "master", "br0")
            ip("-n", self.switch, "link", "set", outer, "up")
            self.links[h] = inner
        outer = f"v33{self.tag}rb"
        ip("link", "add", self._root_link, "type", "veth", "peer", "name", outer)
        ip("link", "set", outer, "netns", self.switch)
        ip("-n", self.switch, "link", "set", outer, "master", "br0")
        ip("-n", self.switch, "link", "set", outer, "up")
        ip("addr", "add", f"{self.subnet}.254/24", "dev", self._root_link)
        ip("link", "set", self._root_link, "up")

    def run(self, host: str) -> list[str]:
        """The command prefix that runs a program on `host`."""
        return [IP, "netns", "exec", self.names[host]]

    def cut(self, host: str) -> None:
        """The host's link down: its sockets go silent (no FIN, no RST)."""
        ip("-n", self.names[host], "link", "set", self.links[host], "down")

    def kill_all(self, host: str) -> int:
        """SIGKILL every process of the host's namespace; how many there were."""
        done = subprocess.run([IP, "netns", "pids", self.names[host]], capture_output=True, text=True)
        pids = [int(p) for p in done.stdout.split()]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return len(pids)

    def close(self) -> None:
        for ns in self.names.values():
            if ns in self._made:
                self.kill_all(next(h for h, n in self.names.items() if n == ns))
        subprocess.run([IP, "link", "del", self._root_link], capture_output=True)
        for ns in reversed(self._made):
            subprocess.run([IP, "netns", "del", ns], capture_output=True)
        self._made = []
