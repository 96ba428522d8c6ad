"""`tapete conformance export`: the golden suites as a kit a lab runs another system against.

KIT/cases/<game>/<jurisdiction>.jsonl   one case per line (case.schema.json), valid JSONL
KIT/schemas/*.schema.json               the round document, the answer (settlement or error), a case, and the
                                        typed `rules --json` / `diff --json` documents (JSON Schema 2020-12)
KIT/README.md                           the protocol and how to run it (kit_readme.md)
KIT/manifest.json                       tapete's version, the protocol, each file's case count and SHA-256
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from tapete import __version__
from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import JURISDICTIONS
from tapete.lab.cases import Case, golden_cases

PROTOCOL = "tapete-conformance/1"
SCHEMAS = ("round", "settlement", "case", "rules", "diff")


@cache
def schema(name: str) -> dict[str, Any]:
    """One of the kit's JSON Schemas, from the package."""
    return json.loads(resources.files("tapete.lab").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8"))


def select(game: str | None = None, jurisdiction: str | None = None) -> list[Case]:
    """The golden cases of a game and/or jurisdiction; an unknown one is refused (never an empty kit)."""
    cases = list(golden_cases())
    if game is not None:
        known = sorted({c.game for c in cases})
        if game not in known:
            raise TapeteError("unknown-game", f"no golden cases for game {game!r}; the games are {', '.join(known)}")
        cases = [c for c in cases if c.game == game]
    if jurisdiction is not None:
        if jurisdiction not in JURISDICTIONS:
            raise TapeteError("unknown-jurisdiction", f"unknown jurisdiction {jurisdiction!r} (ES, ES-IB, ES-GA, ES-AN)")
        cases = [c for c in cases if c.jurisdiction == jurisdiction]
    if not cases:
        raise TapeteError("bad-option", f"no golden case for {game} in {jurisdiction}")
    return cases


def export(target: Path, game: str | None = None, jurisdiction: str | None = None) -> dict[str, Any]:
    """Write the kit under `target` (created; files of an earlier kit are overwritten); returns the manifest."""
    cases = select(game, jurisdiction)
    groups: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases:
        groups[(case.game, case.jurisdiction)].append(case)
    files: dict[str, dict[str, Any]] = {}
    for (g, j), group in sorted(groups.items()):
        text = "".join(json.dumps(c.line_document(), ensure_ascii=False) + "\n" for c in group)
        files[f"cases/{g}/{j}.jsonl"] = _write(target / "cases" / g / f"{j}.jsonl", text, len(group))
    for name in SCHEMAS:
        files[f"schemas/{name}.schema.json"] = _write(target / "schemas" / f"{name}.schema.json",
                                                     json.dumps(schema(name), ensure_ascii=False, indent=1) + "\n")
    readme = resources.files("tapete.lab").joinpath("kit_readme.md").read_text(encoding="utf-8")
    files["README.md"] = _write(target / "README.md", readme)
    manifest = {"tapete": __version__, "protocol": PROTOCOL, "cases": len(cases),
                "games": sorted({g for g, _ in groups}), "files": files}
    (target / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return manifest


def _write(path: Path, text: str, cases: int | None = None) -> dict[str, Any]:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    entry: dict[str, Any] = {"sha256": hashlib.sha256(data).hexdigest()}
    if cases is not None:
        entry["cases"] = cases
    return entry


def kit_files(kit: Path) -> list[Path]:
    """The case files of a kit folder (or the one .jsonl file given); TapeteError when there are none."""
    if kit.is_file():
        return [kit]
    if not kit.is_dir():
        raise TapeteError("bad-option", f"{kit}: no such kit (a folder written by `tapete conformance export`, or a .jsonl file)")
    found = sorted((kit / "cases").glob("*/*.jsonl")) if (kit / "cases").is_dir() else sorted(kit.glob("**/*.jsonl"))
    if not found:
        raise TapeteError("bad-option", f"{kit}: no cases (*.jsonl) in this folder")
    return found
