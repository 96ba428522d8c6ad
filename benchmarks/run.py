"""`make bench`: run every benchmarks/bench_*.py (each exposes `run() -> list[dict]`) and write RESULTS.md.

    python benchmarks/run.py                          # every bench
    python benchmarks/run.py bench_craps bench_roulette   # only these
    python benchmarks/run.py --skip bench_server      # every bench but these

RESULTS.md is merged by section heading (`## name`): a run replaces the sections of the benches it ran and keeps
every other section already in the file (the server's, written by another run, say), in bench order.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
RESULTS = HERE / "RESULTS.md"


def _sections(text: str) -> dict[str, str]:
    """The `## name` sections of a RESULTS.md, by name (the text before the first one is the header)."""
    parts = re.split(r"(?m)^(?=## )", text)
    out = {}
    for part in parts[1:]:
        name = part.splitlines()[0].removeprefix("## ").strip()
        out[name] = part.rstrip("\n") + "\n"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run the benchmarks and merge their tables into RESULTS.md")
    parser.add_argument("only", nargs="*", help="bench stems to run (default: all)")
    parser.add_argument("--skip", nargs="*", default=[], help="bench stems not to run (their sections are kept)")
    args = parser.parse_args(argv)
    header = (f"# Benchmarks\n\nMachine: {platform.machine()}, {platform.processor() or platform.platform()}, "
              f"Python {platform.python_version()}. Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
              "by `make bench`; each figure is measured side by side with its peer in the same run. Sections merge "
              "by heading: one not rerun keeps its earlier figures.\n")
    kept = _sections(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    fresh: dict[str, str] = {}
    order: list[str] = []
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        order.append(name)
        if (args.only and path.stem not in args.only) or path.stem in args.skip:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module          # worker processes unpickle the bench's functions by this name
        spec.loader.exec_module(module)
        print(f"== {path.stem}", flush=True)
        try:
            rows = module.run()
        except Exception as exc:  # noqa: BLE001 - one broken bench must not lose the others' figures
            rows = [{"error": f"{type(exc).__name__}: {exc}"}]
        if not rows:
            continue
        keys = list(dict.fromkeys(k for r in rows for k in r))
        lines = [f"## {name}\n", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
        for r in rows:
            lines.append("| " + " | ".join(str(r.get(k, "")) for k in keys) + " |")
        text = "\n".join(lines) + "\n"
        if getattr(module, "NOTE", None):          # a bench's words under its table (recorded figures, a caveat)
            text += f"\n{module.NOTE}\n"
        print(text, flush=True)
        fresh[name] = text
        RESULTS.write_text(_merge(header, kept, fresh, order), encoding="utf-8")   # after each bench: a crash keeps the rest
    RESULTS.write_text(_merge(header, kept, fresh, order), encoding="utf-8")
    return 0


def _merge(header: str, kept: dict[str, str], fresh: dict[str, str], order: list[str]) -> str:
    merged = {**kept, **fresh}
    names = [n for n in order if n in merged] + [n for n in merged if n not in order]
    return "\n".join([header, *(merged[n] for n in names)])


if __name__ == "__main__":
    sys.exit(main())
