"""`make bench`: run every benchmarks/bench_*.py (each exposes `run() -> list[dict]`) and write RESULTS.md."""

from __future__ import annotations

import importlib.util
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def main() -> int:
    sections = [f"# Benchmarks\n\nMachine: {platform.machine()}, {platform.processor() or platform.platform()}, "
                f"Python {platform.python_version()}. Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
                "by `make bench`; each figure is measured side by side with its peer in the same run.\n"]
    only = set(sys.argv[1:])
    for path in sorted(HERE.glob("bench_*.py")):
        if only and path.stem not in only:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {path.stem}", flush=True)
        rows = module.run()
        if not rows:
            continue
        keys = list(dict.fromkeys(k for r in rows for k in r))
        lines = [f"## {path.stem.removeprefix('bench_')}\n", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
        for r in rows:
            lines.append("| " + " | ".join(str(r.get(k, "")) for k in keys) + " |")
        text = "\n".join(lines) + "\n"
        print(text, flush=True)
        sections.append(text)
    (HERE / "RESULTS.md").write_text("\n".join(sections), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
