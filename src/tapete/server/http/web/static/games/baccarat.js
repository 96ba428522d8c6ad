// Punto y banca: the three betting spots from the engine's kinds, the last coup's hands and the road of
// winners (the engine's coups).
import { engineLog, card, el, kindLabel, markSpots, say, spotButton, t } from "../app.js";

let root = null;

export function init(node, ctx) {
  root = node;
  root.append(
    el("div", { class: "coup" },
      el("div", { class: "side-hand punto" }, el("h2", {}, t("punto"), " ", el("strong", { class: "hand-total", id: "punto-total" })),
        el("div", { class: "cards", id: "punto-cards" })),
      el("div", { class: "side-hand banca" }, el("h2", {}, t("banca"), " ", el("strong", { class: "hand-total", id: "banca-total" })),
        el("div", { class: "cards", id: "banca-cards" }))),
    el("p", { class: "coup-result", id: "coup-result", "aria-live": "polite" }),
    el("div", { class: "bac-spots", role: "group", "aria-label": t("bet_on") },
      ctx.page.layout.map((k) => {
        const pays = ctx.page.spot_pays?.[k.kind];     // the rules' payout ("1:1"; the commission is in the rules panel)
        return spotButton(ctx, { kind: k.kind, label: `${t("bet_on")} ${kindLabel(k.kind)}${pays ? ` (${t("pays")} ${pays})` : ""}`,
          text: `${kindLabel(k.kind)}${pays ? ` · ${pays}` : ""}`, cls: `bac ${k.kind}` });
      })),
    el("div", { class: "engine-log", "aria-live": "polite" }));
}

export const recent = 20;     // the road: the last coups' winners

function coups(ctx) {
  const past = [...ctx.recent].reverse().flatMap((v) => v.coups || []);
  return [...past, ...(ctx.view?.coups || [])].filter((c) => !c.void);
}

export function history(ctx) {
  return coups(ctx).map((c) => ({ player: "P", banker: "B", tie: "T" }[c.winner] ?? c.winner));
}

export function update(ctx) {
  markSpots(root, ctx);
  const coup = coups(ctx).at(-1);
  root.querySelector("#punto-cards").replaceChildren(...(coup?.player || []).map(card));
  root.querySelector("#banca-cards").replaceChildren(...(coup?.bank || []).map(card));
  root.querySelector(".coup").dataset.winner = coup?.winner ?? "";
  // the totals as the server counted them with the engine's tableau: "The bank wins, 7 to 5"
  const counted = coup && coup.player_total !== undefined && coup.bank_total !== undefined;
  root.querySelector("#punto-total").textContent = counted ? String(coup.player_total) : "";
  root.querySelector("#banca-total").textContent = counted ? String(coup.bank_total) : "";
  const key = { player: "bac_punto_wins", banker: "bac_bank_wins", tie: "bac_tie" }[coup?.winner];
  root.querySelector("#coup-result").textContent = counted && key ? say(key, { p: coup.player_total, b: coup.bank_total }) : "";
  engineLog(root.querySelector(".engine-log"), ctx.view?.log, 5);
}
