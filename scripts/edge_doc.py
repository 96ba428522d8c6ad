"""Write docs/edge.md from `tapete edge` (tapete.edge_doc): the schema, the methods and every house-banked
game's figures in every jurisdiction, as `$ tapete edge GAME -j J` blocks with what the command prints.

    .venv/bin/python scripts/edge_doc.py          # a few minutes (blackjack's charts are derived first)

tests/analysis/test_edge_doc.py regenerates it and fails when the file differs.
"""

from __future__ import annotations

import pathlib
import sys

from tapete.edge_doc import render

OUT = pathlib.Path(__file__).resolve().parents[1] / "docs/edge.md"


def main() -> None:
    text = render(progress=lambda what: print(what, file=sys.stderr, flush=True))
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text.splitlines())} lines)")


if __name__ == "__main__":
    main()
