"""Reusable checks that a player's page is laid out for a phone and a desktop (issue 31): call them from any
browser test on a Playwright page already loaded (`Person.open`).

- `small_controls(page, 24)`: every visible control (link, button, input, select, a [role] control, a focusable
  element) at least 24x24 CSS px (WCAG 2.2 target size); a link inside a sentence is exempt, as WCAG exempts it.
- `small_decisions(page, 44)`: the decision buttons (hit, stand, call, fold...) at least 44 px tall.
- `small_spots(page, 44)`: the bet spots at least 44x44 px (the roulette's line and crossing spots: 24 px).
- `spots_cut_off(page)`: every bet spot of the cloth inside the window and inside every scrolling box around it,
  so that no spot needs a sideways scroll to be reached.
- `sideways(page)`: how far the page scrolls sideways (0: it fits).
- `raw_text(page, cents)`: developer text in what a player reads: null, undefined, NaN, [object, a JSON brace, a
  bet id, an error/bet code with hyphens, or one of the table's amounts in raw cents.
- `hidden_stake_labels(page)`: the chip labels on the cloth that a neighbouring spot covers.
- `serious(page)`: axe-core's serious and critical violations.
- `empty_felt(page)`: how many px of the felt lie below its content (the empty baize under a short layout).
- `layout_problems(page, cents)`: all of these at once, as a list of sentences (empty: the page passes).
"""

from __future__ import annotations

import re
from typing import Any

BET_ID = re.compile(r"\bb\d+\b")
# an engine's code shown as is: error codes and bet kinds are lowercase words joined by hyphens
ENGINE_CODE = re.compile(r"(?<![\w'’-])(?:over|under|bad|not|no|dont|six|two|zero|place|big|hard|come|any)-[a-z]+(?:-[a-z]+)*\b")
RAW = re.compile(r"\b(?:null|undefined|NaN)\b|\[object |[{}]")

# what a player taps: spots of every cloth (roulette, boule, the wheel, trente et quarante, craps, baccarat,
# blackjack boxes, banked poker, monte, monte o banca, chemin de fer seats)
SPOTS = ".spot, .pk-spot, .pk-box, .mb-spot, .board-spot, .ch-seat, .pk-card-pick"
CONTROLS = ("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=radio], "
            "[role=checkbox], [tabindex]:not([tabindex='-1'])")
DECISIONS = "#decisions button, .pk-decide button, .mt-box .pk-decide button, button.verb, .circle-me button, .ch-take-bank button"

_SMALL = """([sel, minW, minH]) => {
  const out = [];
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    if (!r.width || !r.height || cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (r.right <= 0 || r.bottom <= 0 || e.closest('[hidden], .sr, details:not([open]) > :not(summary)')) continue;  // skip links
    if (e.matches('main[tabindex], h2[tabindex], ol[tabindex], section[tabindex]')) continue;    // focus targets, not controls
    if (e.tagName === 'A' && e.closest('p, li, td') && !e.closest('nav, header')) {                // a link in a sentence
      const text = (e.closest('p, li, td').textContent || '').trim();
      if (text.length > (e.textContent || '').trim().length + 3) continue;
    }
    if (r.width < minW - 0.5 || r.height < minH - 0.5) {
      out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} `
        + `[${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30)}] ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""

_CUT = """(sel) => {
  const out = [];
  const W = document.documentElement.clientWidth;
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    let bad = r.left < -0.5 || r.right > W + 0.5;
    for (let a = e.parentElement; a && !bad; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) bad = true;
    }
    if (bad) out.push(`${e.className} [${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30)}] `
      + `${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
  }
  return out;
}"""

_HIDDEN_LABELS = """() => {
  const out = [];
  for (const s of document.querySelectorAll('.spot .stake, .pk-spot .stake, .ch-spots .stake')) {
    if (!s.textContent.trim()) continue;
    const r = s.getBoundingClientRect();
    if (!r.width) continue;
    const spot = s.closest('.spot, .pk-spot');
    const before = s.style.pointerEvents;
    s.style.pointerEvents = 'auto';
    for (const [fx, fy] of [[0.5, 0.5], [0.15, 0.5], [0.85, 0.5]]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== s && !s.contains(hit)) { out.push(`${spot?.dataset.label || spot?.className}: ${s.textContent} under ${hit.className || hit.tagName}`); break; }
    }
    s.style.pointerEvents = before;
  }
  return out;
}"""

_EMPTY_FELT = """() => {
  const felt = document.querySelector('.felt');
  if (!felt) return 0;
  const game = felt.firstElementChild;
  const r = felt.getBoundingClientRect();
  let bottom = r.top;
  for (const c of felt.querySelectorAll('#game > *')) { const b = c.getBoundingClientRect(); if (b.height) bottom = Math.max(bottom, b.bottom); }
  void game;
  return Math.max(0, Math.round(r.bottom - parseFloat(getComputedStyle(felt).paddingBottom) - bottom));
}"""


def sideways(page: Any) -> int:
    """How far the page scrolls sideways (0: it fits the window)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def small_controls(page: Any, minimum: int = 24) -> list[str]:
    return list(page.evaluate(_SMALL, [CONTROLS, minimum, minimum]))


def small_spots(page: Any, minimum: int = 44) -> list[str]:
    """Bet spots under `minimum` px in height or width, but the roulette's splits, corners, streets and six-lines:
    those sit on the lines between numbers 52-64 px apart, where the geometry allows 24 px (WCAG 2.2's minimum)."""
    return list(page.evaluate(_SMALL, [SPOTS.replace(".spot,", ".spot:not(.edge):not(.track-num),"), minimum, minimum]))


def small_decisions(page: Any, minimum: int = 44) -> list[str]:
    """Decision buttons under `minimum` px tall (only the height: a word's width is its own)."""
    return list(page.evaluate(_SMALL, [DECISIONS, 0, minimum]))


def spots_cut_off(page: Any) -> list[str]:
    return list(page.evaluate(_CUT, SPOTS))


def hidden_stake_labels(page: Any) -> list[str]:
    return list(page.evaluate(_HIDDEN_LABELS))


def empty_felt(page: Any) -> int:
    return int(page.evaluate(_EMPTY_FELT))


def shown_text(page: Any) -> str:
    return str(page.locator("body").inner_text())


def raw_text(page: Any, cents: tuple[int, ...] = ()) -> list[str]:
    """Developer text a player would read; `cents`: the table's amounts (limits) that must not show as raw cents."""
    text = shown_text(page)
    found = [m.group(0) for m in RAW.finditer(text)] + [m.group(0) for m in BET_ID.finditer(text)]
    found += [m.group(0) for m in ENGINE_CODE.finditer(text)]
    for c in cents:
        if c >= 100 and re.search(rf"(?<![\d.,€]){c}(?![\d.,]| ?€)", text):
            found.append(f"{c} (raw cents)")
    return found


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page (rule id and the first offending node)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v.get("impact") in ("serious", "critical"):
            node = v["nodes"][0] if v["nodes"] else {}
            out.append(f"{v['id']}: {node.get('target', '')} {node.get('failureSummary', '')[:160]}")
    return out


def layout_problems(page: Any, cents: tuple[int, ...] = (), axe: bool = True) -> list[str]:
    """Every check of this module on one page, as sentences; [] when the page passes."""
    out = []
    if (n := sideways(page)) > 0:
        out.append(f"the page scrolls sideways by {n}px")
    out += [f"control under 24px: {s}" for s in small_controls(page)]
    out += [f"decision button under 44px: {s}" for s in small_decisions(page)]
    out += [f"bet spot under 44px: {s}" for s in small_spots(page)]
    out += [f"bet spot cut off: {s}" for s in spots_cut_off(page)]
    out += [f"chip label hidden: {s}" for s in hidden_stake_labels(page)]
    out += [f"developer text: {s}" for s in raw_text(page, cents)]
    if axe:
        out += [f"axe: {s}" for s in serious(page)]
    return out
