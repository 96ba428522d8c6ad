"""Table integrity, the long search (issue 26): the state machine of tests/server/test_server_stateful.py run
with many more sequences than CI gives it, at each of its five tables, on SQLite (and PostgreSQL where its
server binaries are installed). Each row: the table, the database, the sequences and steps run, the time, and
the verdict (`held`, or the first invariant that broke, shrunk to its shortest sequence by Hypothesis).

    python benchmarks/bench_stateful.py [--examples 25] [--steps 40] [--tables ru bj]
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = 25
STEPS = 40


def _tests() -> Any:
    """The test module, imported as the package pytest sees (it imports its conftest relatively)."""
    package = types.ModuleType("tapete_server_tests")
    package.__path__ = [str(ROOT / "tests" / "server")]
    sys.modules.setdefault("tapete_server_tests", package)
    return importlib.import_module("tapete_server_tests.test_server_stateful")


def _databases(kind: str, folder: Path) -> tuple[Any, Any]:
    """(url factory, cleanup) for SQLite files in `folder` or a throw-away PostgreSQL cluster."""
    stateful = _tests()
    if kind == "sqlite":
        return stateful.fresh_databases(f"sqlite:///{folder / 'x.db'}", folder), lambda: None
    conftest = importlib.import_module("tapete_server_tests.conftest")
    pg = conftest.Postgres()
    return stateful.fresh_databases(pg.create_database(), folder), pg.stop


def run(examples: int = EXAMPLES, steps: int = STEPS, tables: list[str] | None = None) -> list[dict[str, Any]]:
    stateful = _tests()
    rows = []
    for kind in ("sqlite", "postgresql"):
        with tempfile.TemporaryDirectory(prefix="tapete-stateful-") as folder:
            try:
                urls, cleanup = _databases(kind, Path(folder))
            except Exception as exc:  # noqa: BLE001 - no PostgreSQL here: say so in the row
                rows.append({"table": "all", "database": kind, "verdict": f"not run: {exc}"})
                continue
            try:
                for table in tables or stateful.TABLE_IDS:
                    n = examples if kind == "sqlite" else max(1, examples // 4)
                    start = time.perf_counter()
                    try:
                        stateful.machine_for(table, urls, n, steps).TestCase().runTest()
                        verdict = "held"
                    except AssertionError as exc:
                        verdict = "BROKE: " + str(exc).splitlines()[0][:200]
                    rows.append({"table": table, "database": kind, "sequences": n, "steps (max)": steps,
                                 "seconds": round(time.perf_counter() - start, 1), "verdict": verdict})
                    print(rows[-1], flush=True)
            finally:
                cleanup()
    return rows


NOTE = ("Each sequence starts a fresh database and server; the invariants are checked after every step "
        "(tests/server/test_server_stateful.py's docstring). CI runs 6 sequences a table on SQLite and 2 on PostgreSQL.")

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=EXAMPLES)
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--tables", nargs="*")
    a = parser.parse_args()
    for row in run(a.examples, a.steps, a.tables):
        print(row)
