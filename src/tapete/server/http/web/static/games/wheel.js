// The wheel of fortune: its 54 cells drawn round a wheel (the engine's one drawing of them,
// docs/rulings.md#wheel-cells), a spot per symbol with its cells and its payout from the jurisdiction's rules,
// the last result turned under the pointer and named in words, a void spin explained in a sentence.
import { el, markSpots, say, spotButton, t } from "../app.js";

const COLOURS = { 24: "#f3d34a", 15: "#5aa9e6", 7: "#b58ad9", 4: "#7fd18b", 2: "#f39a4a", "joker-red": "#d3212d", "joker-black": "#1a1a1a" };
const VOIDS = [["fewer than four turns", "few-turns"], ["pin", "pin"], ["obstruct", "obstruction"]];

let root = null;

const symbolName = (s) => (String(s).startsWith("joker") ? t(`wheel_${s}`) : String(s));

function wheel(cells) {
  const step = 360 / cells.length;
  const stops = cells.map((c, i) => `${COLOURS[c] ?? "#888"} ${i * step}deg ${(i + 1) * step}deg`).join(", ");
  const disc = el("div", { class: "fw-disc", id: "fw-disc", style: `background: conic-gradient(${stops})` },
    cells.map((c, i) => el("span", { class: `fw-cell${String(c).startsWith("joker") ? " joker" : ""}`, "data-symbol": c, "data-i": i,
      style: `transform: rotate(${(i + 0.5) * step}deg)` }, el("b", {}, String(c).startsWith("joker") ? "★" : String(c)))));
  return el("div", { class: "fw-wheel", role: "img", id: "fw-wheel", "aria-label": t("wheel_title") },
    el("span", { class: "fw-pointer", "aria-hidden": "true" }, "▼"), disc, el("span", { class: "fw-hub", "aria-hidden": "true" }));
}

function spots(ctx) {
  const cells = ctx.page.wheel || [];
  return ctx.page.layout.flatMap((k) => (k.targets?.length ? k.targets : [null]).map((on) => {
    const symbol = on === null ? k.kind : String(on[0]);
    const pays = ctx.page.payouts?.[symbol] ?? "";
    const count = cells.filter((c) => String(c) === symbol).length;
    const name = symbolName(symbol);
    const where = count === 1 ? t("wheel_cell") : say("wheel_cells", { n: count });
    return spotButton(ctx, { kind: k.kind, on: on === null ? null : on, cls: `fw-spot sym-${symbol}`,
      label: `${name} (${where}) — ${t("pays")} ${pays}`,
      text: el("span", {}, el("strong", {}, name), el("small", {}, `${t("pays")} ${pays}`), el("small", {}, where)) });
  }));
}

export function init(node, ctx) {
  root = node;
  root.append(
    el("div", { class: "fw-top" }, wheel(ctx.page.wheel || []),
      el("div", { class: "fw-news" }, el("p", { id: "fw-last", role: "status" }, t("wheel_none")),
        el("p", { id: "fw-void", class: "fw-void", role: "status", hidden: true }))),
    el("div", { class: "fw-spots", role: "group", "aria-label": t("bet_on") }, spots(ctx)));
}

function voidWhy(log) {
  const line = [...(log || [])].reverse().find((l) => l.startsWith("void spin"));
  const hit = VOIDS.find(([words]) => line?.includes(words));
  return t(`wheel_void_${hit ? hit[1] : "other"}`);
}

export function update(ctx) {
  markSpots(root, ctx);
  const st = ctx.view || {};
  const last = (ctx.summary.history?.length ? ctx.summary.history : st.history ?? []).at(-1);
  const cells = ctx.page.wheel || [];
  for (const b of root.querySelectorAll(".win")) b.classList.remove("win");
  const line = root.querySelector("#fw-last");
  if (last === undefined) { line.textContent = t("wheel_none"); line.dataset.last = ""; }
  else {
    const symbol = String(last);
    line.textContent = say("wheel_last", { symbol: symbolName(symbol), pays: ctx.page.payouts?.[symbol] ?? "" });
    line.dataset.last = symbol;
    const i = cells.findIndex((c) => String(c) === symbol);
    if (i >= 0) {        // the winning cell turned under the pointer
      root.querySelector("#fw-disc").style.transform = `rotate(${-(i + 0.5) * (360 / cells.length)}deg)`;
      root.querySelector(`.fw-cell[data-i="${i}"]`)?.classList.add("win");
    }
    root.querySelector(`.fw-spot.sym-${CSS.escape(symbol)}`)?.classList.add("win");
    root.querySelector("#fw-wheel").setAttribute("aria-label", `${t("wheel_title")} — ${line.textContent}`);
  }
  const voided = root.querySelector("#fw-void");
  voided.hidden = !st.voided;
  voided.textContent = st.voided ? say("wheel_void", { why: voidWhy(st.log) }) : "";
}

export function history(ctx) {
  return (ctx.summary.history?.length ? ctx.summary.history : ctx.view?.history ?? []).map(symbolName);
}
