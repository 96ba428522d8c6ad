// The roulette cloth, drawn from the engine's bet kinds and targets: numbers, splits on the lines between
// them, streets and six-lines on the bottom edge, corners at the crossings, columns, dozens, simple
// chances, and the racetrack where the jurisdiction has announced bets. Keyboard: Tab/Shift+Tab or the
// arrow keys between numbers, Enter/Space to bet the chosen chip.
import { engineLog, el, kindLabel, markSpots, spotButton, t } from "../app.js";

const W = 46, H = 50;            // a number's cell, px
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const cell = (n) => ({ x: Math.floor((n - 1) / 3) + 0.5, y: 2 - ((n - 1) % 3) + 0.5 });
const SIMPLE = ["low", "even", "red", "black", "odd", "high"];

function position(kind, nums) {
  const others = nums.filter((n) => n !== 0).map(cell);
  const ys = others.map((c) => c.y), xs = others.map((c) => c.x);
  const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;
  if (nums.includes(0)) return { x: 0, y: nums.length === 4 ? 3 : mean(ys) };
  if (kind === "street" || kind === "six-line") return { x: mean(xs), y: 3 };
  return { x: mean(xs), y: mean(ys) };
}

function inside(ctx, kinds) {
  const grid = el("div", { class: "cloth", style: `width:${W * 14}px;height:${H * 3 + 22}px`, role: "group", "aria-label": t("bet_on") });
  const straight = kinds.find((k) => k.kind === "straight");
  for (const [n] of straight?.targets ?? []) {
    const c = n === 0 ? null : cell(n);
    const style = n === 0 ? `left:0;top:0;width:${W}px;height:${H * 3}px`
      : `left:${W + (c.x - 0.5) * W}px;top:${(c.y - 0.5) * H}px;width:${W}px;height:${H}px`;
    grid.append(spotButton(ctx, { kind: "straight", on: [n], label: `${kindLabel("straight")} ${n}`, text: String(n),
      cls: `num ${n === 0 ? "zero" : RED.has(n) ? "red" : "black"}`, style }));
  }
  for (const k of kinds.filter((k) => ["split", "street", "corner", "six-line"].includes(k.kind))) {
    for (const on of k.targets) {
      const p = position(k.kind, on);
      const vertical = k.kind === "split" && on.length === 2 && (on.includes(0) || Math.abs(on[0] - on[1]) === 3);
      const shape = k.kind === "split" ? (vertical ? "split-v" : "split-h") : k.kind === "corner" ? "corner" : "line";
      const [w, h] = { "split-v": [12, H * 0.6], "split-h": [W * 0.6, 12], corner: [14, 14], line: [18, 14] }[shape];
      const top = p.y === 3 ? H * 3 + 4 : p.y * H - h / 2;
      grid.append(spotButton(ctx, { kind: k.kind, on, label: `${kindLabel(k.kind)} ${on.join("-")}`,
        cls: `edge ${shape} ${k.kind}`, style: `left:${W + p.x * W - w / 2}px;top:${top}px;width:${w}px;height:${h}px` }));
    }
  }
  const column = kinds.find((k) => k.kind === "column");
  for (const [c] of column?.targets ?? []) {
    grid.append(spotButton(ctx, { kind: "column", on: [c], label: `${kindLabel("column")} ${c}`, text: "2:1", cls: "num outside",
      style: `left:${W * 13}px;top:${(3 - c) * H}px;width:${W}px;height:${H}px` }));
  }
  grid.addEventListener("keydown", (e) => arrows(grid, e));
  return grid;
}

function arrows(grid, e) {
  const d = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  const on = e.target.dataset?.on;
  if (!d || e.target.dataset.kind !== "straight") return;
  const n = Number(on);
  let next;
  if (n === 0) next = d[0] > 0 ? 2 : null;
  else {
    const c = cell(n);
    const x = c.x - 0.5 + d[0], y = c.y - 0.5 + d[1];
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

function racetrack(ctx, kinds) {
  const neighbours = kinds.find((k) => k.kind === "neighbours");
  const named = kinds.filter((k) => ["zero-sector", "third", "orphans"].includes(k.kind));
  if (!neighbours && !named.length) return null;
  const wheel = ctx.page.wheel;
  const track = el("div", { class: "racetrack", role: "group", "aria-label": t("racetrack") });
  if (neighbours) {
    wheel.forEach((num, i) => {
      const { x, y } = stadium(i / wheel.length);
      track.append(spotButton(ctx, { kind: "neighbours", on: [num], label: `${t("neighbours_of")} ${num}`, text: String(num),
        cls: `track-num ${num === 0 ? "zero" : RED.has(num) ? "red" : "black"}`, style: `left:${x - 14}px;top:${y - 12}px` }));
    });
  }
  const inner = el("div", { class: "track-inner" }, named.map((k) => spotButton(ctx, { kind: k.kind, label: kindLabel(k.kind), text: kindLabel(k.kind), cls: "sector" })));
  track.append(inner);
  return el("section", { class: "track-wrap", "aria-label": t("racetrack") }, el("h2", {}, t("racetrack")), track);
}

let root = null;
export function init(node, ctx) {
  root = node;
  const kinds = ctx.page.layout;
  root.append(inside(ctx, kinds), outside(ctx, kinds));
  const track = racetrack(ctx, kinds);
  if (track) root.append(track);
  root.append(el("div", { class: "engine-log", "aria-live": "polite" }));
}

export function update(ctx) {
  markSpots(root, ctx);
  const last = (ctx.summary.history || []).at(-1);
  for (const b of root.querySelectorAll(".num.last")) b.classList.remove("last");
  if (last !== undefined) root.querySelector(`[data-kind="straight"][data-on="${last}"]`)?.classList.add("last");
  const log = ctx.view?.log || [];
  engineLog(root.querySelector(".engine-log"), log, 4);
}
