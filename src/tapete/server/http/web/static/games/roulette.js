// The roulette cloth, drawn from the engine's bet kinds and targets: numbers, splits on the lines between
// them, streets and six-lines on the street edge, corners at the crossings, columns, dozens, simple
// chances, and the racetrack where the jurisdiction has announced bets. Lying on a desktop, standing on a
// phone (redrawn when the felt's width asks for the other). Keyboard: Tab/Shift+Tab or the arrow keys
// between numbers (as drawn), Enter/Space to bet the chosen chip.
import { engineLog, el, kindLabel, markSpots, spotButton, t } from "../app.js";

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const SIMPLE = ["low", "even", "red", "black", "odd", "high"];
// The cloth in "along" units (0: the zero, 1-12: the streets 1-2-3 ... 34-35-36, 13: the columns' 2:1) and
// "across" lanes (0.5: the lane of 1, 4, 7...; 2.5: the lane of 3, 6, 9...; EDGE: the street edge, beside the
// lane of 1). A desktop draws it lying (along = left to right, as on the table); a phone standing (along = top
// to bottom, as mobile roulettes do), so that every number, column and line fits 390 px without a sideways scroll.
const EDGE = -1;
const STRIP = 30;                 // the street edge's depth, px
const TARGET = 24;                // a split, corner, six-line: WCAG 2.2's 24 px target (a number is 52-64 px)
const along = (n) => Math.floor((n - 1) / 3) + 1.5;
const lane = (n) => ((n - 1) % 3) + 0.5;
const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;

/** Where a bet's spot sits: its centre in (along, across) units. */
function position(kind, nums) {
  const others = nums.filter((n) => n !== 0);
  if (nums.includes(0)) return { a: 1, l: nums.length === 4 ? EDGE : mean(others.map(lane)) };
  if (kind === "street" || kind === "six-line") return { a: mean(others.map(along)), l: EDGE };
  return { a: mean(others.map(along)), l: mean(others.map(lane)) };
}

/** The geometry for a cloth `width` px wide: lying (desktop) when 14 cells of 52 px fit, else standing. */
export function geometry(width) {
  if (width >= 14 * 52) {
    const A = Math.min(62, Math.floor(width / 14)), C = 64;
    return { vertical: false, A, C, width: 14 * A, height: 3 * C + STRIP + 4,
      box: (a, l, sa, sl) => ({ left: a * A - sa / 2, top: (l === EDGE ? 3 * C + 4 + STRIP / 2 : (3 - l) * C) - sl / 2, w: sa, h: sl }) };
  }
  const C = Math.max(56, Math.min(110, Math.floor((width - STRIP - 4) / 3))), A = 56;
  return { vertical: true, A, C, width: STRIP + 4 + 3 * C, height: 14 * A,
    box: (a, l, sa, sl) => ({ left: (l === EDGE ? STRIP / 2 : STRIP + 4 + l * C) - sl / 2, top: a * A - sa / 2, w: sl, h: sa }) };
}

/** A spot's size along and across: a whole cell, or a target on the line or crossing between cells. */
function size(g, a, l) {
  const onLineA = Number.isInteger(a), onLineL = l !== EDGE && Number.isInteger(l);
  const sa = onLineA ? TARGET : g.A - 28;
  const sl = l === EDGE ? STRIP : onLineL ? TARGET : Math.min(g.C - 28, Math.round(g.C / 2));
  return [sa, sl];
}

const px = (b) => `left:${Math.round(b.left)}px;top:${Math.round(b.top)}px;width:${Math.round(b.w)}px;height:${Math.round(b.h)}px`;

function inside(ctx, kinds, width) {
  const g = geometry(width);
  const grid = el("div", { class: `cloth ${g.vertical ? "standing" : "lying"}`, style: `width:${g.width}px;height:${g.height}px`,
    role: "group", "aria-label": t("bet_on"), "data-orientation": g.vertical ? "standing" : "lying" });
  const straight = kinds.find((k) => k.kind === "straight");
  for (const [n] of straight?.targets ?? []) {
    const b = n === 0 ? g.box(0.5, 1.5, g.A, 3 * g.C) : g.box(along(n), lane(n), g.A, g.C);
    grid.append(spotButton(ctx, { kind: "straight", on: [n], label: `${kindLabel("straight")} ${n}`, text: String(n),
      cls: `num ${n === 0 ? "zero" : RED.has(n) ? "red" : "black"}`, style: px(b) }));
  }
  for (const k of kinds.filter((k) => ["split", "street", "corner", "six-line"].includes(k.kind))) {
    for (const on of k.targets) {
      const { a, l } = position(k.kind, on);
      const [sa, sl] = size(g, a, l);
      const shape = k.kind === "split" ? (Number.isInteger(a) ? "split-a" : "split-l") : k.kind === "corner" ? "corner" : "line";
      grid.append(spotButton(ctx, { kind: k.kind, on, label: `${kindLabel(k.kind)} ${on.join("-")}`,
        cls: `edge ${shape} ${k.kind}`, style: px(g.box(a, l, sa, sl)) }));
    }
  }
  const column = kinds.find((k) => k.kind === "column");
  for (const [c] of column?.targets ?? []) {
    grid.append(spotButton(ctx, { kind: "column", on: [c], label: `${kindLabel("column")} ${c}`, text: "2:1", cls: "num outside",
      style: px(g.box(13.5, c - 0.5, g.A, g.C)) }));
  }
  grid.addEventListener("keydown", (e) => arrows(grid, e, g.vertical));
  return grid;
}

function arrows(grid, e, vertical) {
  let d = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!d || e.target.dataset?.kind !== "straight") return;
  if (vertical) d = [d[1], -d[0]];          // standing: down goes along the cloth, right across it
  const n = Number(e.target.dataset.on);
  let next;
  if (n === 0) next = d[0] > 0 ? 2 : null;
  else {
    const x = Math.floor((n - 1) / 3) + d[0], y = 2 - ((n - 1) % 3) + d[1];
    next = x < 0 ? 0 : x > 11 || y < 0 || y > 2 ? null : x * 3 + (3 - y);
  }
  const target = next === null ? null : grid.querySelector(`[data-kind="straight"][data-on="${next}"]`);
  if (target) { e.preventDefault(); target.focus(); }
}

function outside(ctx, kinds) {
  const box = el("div", { class: "outside", role: "group", "aria-label": t("outside") });
  const dozen = kinds.find((k) => k.kind === "dozen");
  if (dozen) {
    box.append(el("div", { class: "row dozens" }, dozen.targets.map(([d]) => spotButton(ctx, {
      kind: "dozen", on: [d], label: `${kindLabel("dozen")} ${d}`, text: `${(d - 1) * 12 + 1}-${d * 12}`, cls: "wide" }))));
  }
  const simple = SIMPLE.map((s) => kinds.find((k) => k.kind === s)).filter(Boolean);
  box.append(el("div", { class: "row simple" }, simple.map((k) => spotButton(ctx, {
    kind: k.kind, label: kindLabel(k.kind), text: kindLabel(k.kind), cls: `wide ${k.kind}` }))));
  const doubles = kinds.filter((k) => k.kind === "two-columns" || k.kind === "two-dozens");
  box.append(el("div", { class: "row doubles" }, doubles.flatMap((k) => k.targets.map((on) => spotButton(ctx, {
    kind: k.kind, on, label: `${kindLabel(k.kind)} ${on.join("-")}`, text: `${kindLabel(k.kind)} ${on.join("-")}`, cls: "small" })))));
  return box;
}

/** A point at fraction f along a stadium (two straights and two half circles), clockwise from the top middle. */
function stadium(f) {
  const r = 72, left = 100, right = 520, cy = 94, straight = right - left;
  const total = 2 * straight + 2 * Math.PI * r;
  let d = f * total;
  const half = straight / 2;
  if (d < half) return { x: (left + right) / 2 + d, y: cy - r };
  d -= half;
  if (d < Math.PI * r) { const a = -Math.PI / 2 + d / r; return { x: right + r * Math.cos(a), y: cy + r * Math.sin(a) }; }
  d -= Math.PI * r;
  if (d < straight) return { x: right - d, y: cy + r };
  d -= straight;
  if (d < Math.PI * r) { const a = Math.PI / 2 + d / r; return { x: left + r * Math.cos(a), y: cy + r * Math.sin(a) }; }
  d -= Math.PI * r;
  return { x: left + d, y: cy - r };
}

function racetrack(ctx, kinds, standing) {
  const neighbours = kinds.find((k) => k.kind === "neighbours");
  const named = kinds.filter((k) => ["zero-sector", "third", "orphans"].includes(k.kind));
  if (!neighbours && !named.length) return null;
  const wheel = ctx.page.wheel;
  const track = el("div", { class: `racetrack ${standing ? "standing" : "lying"}`, role: "group", "aria-label": t("racetrack") });
  if (neighbours) {
    wheel.forEach((num, i) => {
      const { x, y } = stadium(i / wheel.length);
      track.append(spotButton(ctx, { kind: "neighbours", on: [num], label: `${t("neighbours_of")} ${num}`, text: String(num),
        cls: `track-num ${num === 0 ? "zero" : RED.has(num) ? "red" : "black"}`, style: standing ? `left:${y - 14}px;top:${x - 12}px` : `left:${x - 14}px;top:${y - 12}px` }));
    });
  }
  const inner = el("div", { class: "track-inner" }, named.map((k) => spotButton(ctx, { kind: k.kind, label: kindLabel(k.kind), text: kindLabel(k.kind), cls: "sector" })));
  track.append(inner);
  return el("section", { class: "track-wrap", "aria-label": t("racetrack") }, el("h2", {}, t("racetrack")), track);
}

let root = null;
let drawn = null;                 // the geometry drawn: redrawn when the felt's width calls for another
let last = null;                  // the last update's ctx, to mark the stakes again after a redraw

function draw(ctx) {
  const kinds = ctx.page.layout;
  const width = Math.max(root.clientWidth, 280);
  const g = geometry(width);
  const key = `${g.vertical}|${g.A}|${g.C}`;
  if (key === drawn) return;
  drawn = key;
  const track = racetrack(ctx, kinds, g.vertical);
  root.replaceChildren(inside(ctx, kinds, width), outside(ctx, kinds), ...(track ? [track] : []),
    el("div", { class: "engine-log", "aria-live": "polite" }));
  if (last) update(last);
}

export function init(node, ctx) {
  root = node;
  draw(ctx);
  if (globalThis.ResizeObserver) new ResizeObserver(() => draw(ctx)).observe(root);
}

export function update(ctx) {
  last = ctx;
  markSpots(root, ctx);
  const spun = (ctx.summary.history || []).at(-1);
  for (const b of root.querySelectorAll(".num.last")) b.classList.remove("last");
  if (spun !== undefined) root.querySelector(`[data-kind="straight"][data-on="${spun}"]`)?.classList.add("last");
  const log = ctx.view?.log || [];
  engineLog(root.querySelector(".engine-log"), log, 4);
}
