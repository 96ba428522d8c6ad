"""Write the README's gallery: every page `make screenshots` took, at 1280x800 beside its 390x844 twin.

Run by `make screenshots` after the browser tests have written docs/screenshots/; rewrites only the part of
README.md between the gallery markers, so the rest of the README stays as written.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
README = ROOT / "README.md"
START, END = "<!-- gallery:start -->", "<!-- gallery:end -->"
TWINS = {"console-blackjack": "phone-croupier-bj", "lobby-es": "phone-lobby"}   # names that do not follow the rule


def twin(desk: str, names: set[str]) -> str | None:
    """The phone shot of a desktop shot: phone-<name>, phone-table-<x> for table-banked-<x>, <x>-390 for <x>-1280."""
    for cand in (TWINS.get(desk), f"phone-{desk}", desk.replace("table-banked-", "phone-table-"),
                 desk.removesuffix("-1280") + "-390" if desk.endswith("-1280") else None):
        if cand and cand != desk and cand in names:
            return cand
    return None


def rows(names: set[str]) -> list[tuple[str | None, str | None]]:
    """(desktop, phone) pairs in name order, then the phone shots with no desktop twin."""
    desks = sorted(n for n in names if not n.startswith("phone-") and not n.endswith("-390"))
    out = [(d, twin(d, names)) for d in desks]
    paired = {p for _, p in out if p}
    out += [(None, p) for p in sorted(names - set(desks) - paired)]
    return out


def gallery(names: set[str]) -> str:
    def img(name: str | None, width: int) -> str:
        return f'<img src="docs/screenshots/{name}.png" width="{width}" alt="{name}">' if name else ""

    lines = [START, "", "| page | 1280×800 | 390×844 |", "|---|---|---|"]
    lines += [f"| {d or p} | {img(d, 320)} | {img(p, 98)} |" for d, p in rows(names)]
    return "\n".join([*lines, "", END])


def main() -> None:
    names = {p.stem for p in SHOTS.glob("*.png")}
    text = README.read_text(encoding="utf-8")
    block = gallery(names)
    if START in text:
        text = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        raise SystemExit(f"README.md has no {START} marker")
    README.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
