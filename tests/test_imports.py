"""The import direction (issue 26) as import-linter contracts ([tool.importlinter] in pyproject.toml): the
package's floors (core <- engine <- games <- catalog <- analysis, conformance <- terminal <- server <- cli), the
server's rooms (storage <- audit <- money <- tables <- http <- cli), no cycles inside the server, the engine or
the core, and game families independent. `make test` runs it here."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold() -> None:
    program = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert program, "import-linter is a dev dependency: pip install -e '.[dev]'"
    run = subprocess.run([program, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout, run.stdout[-3000:]


def test_the_engine_imports_no_game() -> None:
    """`engine.registry` keeps the registrations; looking a game up by id is the catalog's, above the games."""
    import tapete.engine.registry as registry

    source = Path(registry.__file__).read_text(encoding="utf-8")
    assert "tapete.games" not in source
