// The boule cloth (001:344-346): the nine numbers in three rows with the 5 in the centre (yellow, never red
// or black), the six simple chances on the two sides as cloth areas, each with its payout from the engine's
// rules; the last number marked on the cloth and in words. Keyboard: Tab between the spots, the arrow keys
// across the numbers, Enter/Space bets the chosen chip.
import { el, markSpots, say, spotButton, t } from "../app.js";

const RED = new Set([2, 4, 7, 9]);           // 001:344 — 1, 3, 6, 8 black; the 5 yellow
const LEFT = ["odd", "red", "low"];
const RIGHT = ["even", "black", "high"];
const COVERS = { red: [2, 4, 7, 9], black: [1, 3, 6, 8], even: [2, 4, 6, 8], odd: [1, 3, 7, 9], low: [1, 2, 3, 4], high: [6, 7, 8, 9] };

let root = null;

function chance(ctx, kind, offered) {
  if (!offered.has(kind)) return null;
  const pays = ctx.page.payouts?.[kind];
  const name = t(`boule_${kind}`);
  const covers = say("numbers_of", { list: COVERS[kind].join(" · ") });
  return spotButton(ctx, { kind, label: `${name} (${covers}) — ${t("pays")} ${pays}`, cls: `chance ${kind}`,
    text: el("span", {}, el("strong", {}, name), el("small", {}, COVERS[kind].join(" · ")), el("small", { class: "pays" }, `${t("pays")} ${pays}`)) });
}

function numberSpot(ctx, n) {
  const pays = ctx.page.payouts?.number;
  return spotButton(ctx, { kind: "number", on: [n], label: `${t("boule_number")} ${n} — ${t("pays")} ${pays}`, text: String(n),
    cls: `num ${n === 5 ? "five" : RED.has(n) ? "red" : "black"}` });
}

export function init(node, ctx) {
  root = node;
  const offered = new Set(ctx.page.layout.map((k) => k.kind));
  const numbers = el("div", { class: "boule-numbers", role: "group", "aria-label": t("boule_number") },
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => numberSpot(ctx, n)));
  numbers.addEventListener("keydown", arrows);
  root.append(
    el("p", { class: "boule-last", id: "boule-last", role: "status" }, t("no_number_yet")),
    el("div", { class: "boule-cloth", role: "group", "aria-label": t("boule_cloth") },
      el("div", { class: "boule-side left" }, LEFT.map((k) => chance(ctx, k, offered))),
      el("div", { class: "boule-middle" }, numbers,
        el("p", { class: "boule-pays" }, `${t("boule_number")}: ${t("pays")} ${ctx.page.payouts?.number ?? ""}`)),
      el("div", { class: "boule-side right" }, RIGHT.map((k) => chance(ctx, k, offered)))),
    el("p", { class: "boule-five" }, t("boule_five")));
}

function arrows(e) {
  const d = { ArrowRight: 1, ArrowLeft: -1, ArrowUp: -3, ArrowDown: 3 }[e.key];
  if (!d || e.target.dataset?.kind !== "number") return;
  const next = Number(e.target.dataset.on) + d;
  const target = next >= 1 && next <= 9 ? root.querySelector(`.boule-numbers [data-on="${next}"]`) : null;
  if (target) { e.preventDefault(); target.focus(); }
}

export function update(ctx) {
  markSpots(root, ctx);
  const last = (ctx.summary.history?.length ? ctx.summary.history : ctx.view?.history ?? []).at(-1);
  for (const b of root.querySelectorAll(".spot.win")) b.classList.remove("win");
  const line = root.querySelector("#boule-last");
  if (last === undefined) { line.textContent = t("no_number_yet"); line.dataset.last = ""; }
  else {
    line.replaceChildren(say("last_number", { n: "" }), el("strong", { class: `ball ${last === 5 ? "five" : RED.has(last) ? "red" : "black"}` }, String(last)));
    line.dataset.last = String(last);
    root.querySelector(`.boule-numbers [data-on="${last}"]`)?.classList.add("win");
    for (const [kind, nums] of Object.entries(COVERS)) if (nums.includes(last)) root.querySelector(`.chance.${kind}`)?.classList.add("win");
  }
}
