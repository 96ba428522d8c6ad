// The blackjack table: the dealer's cards, the boxes (a bet on a box from the chosen chip), each box's
// hands as the engine deals and splits them. Decisions are the engine's legal actions (side panel), with
// the strategy chart's hint on request.
import { T, cardText, engineLog, card, el, kindLabel, markSpots, money, spotButton, t } from "../app.js";

let root = null;

export function betLabel(ctx, betId) {
  const bet = (ctx.view?.bets || []).find((b) => b.id === betId);
  return bet ? `${t("box")} ${bet.box}` : betId;
}

export function init(node, ctx) {
  root = node;
  const main = ctx.page.layout.find((k) => k.kind === "main");
  const boxes = main?.targets?.length ? main.targets : [1, 2, 3, 4, 5, 6, 7];
  root.append(
    el("div", { class: "dealer" }, el("h2", {}, t("dealer")), el("div", { class: "cards", id: "dealer-cards" })),
    el("div", { class: "boxes", role: "group", "aria-label": t("box") }, boxes.map((box) => el("div", { class: "box", "data-box": box },
      spotButton(ctx, { kind: "main", label: `${t("bet_on")} ${t("box")} ${box} — ${kindLabel("main")}, ${t("pays")} ${ctx.page.spot_pays?.main ?? "1:1"}`, text: `${t("box")} ${box}`, cls: "box-spot",
        extra: { box } }),
      el("div", { class: "hands" })))),
    el("div", { class: "engine-log", "aria-live": "polite" }));
  for (const spot of root.querySelectorAll(".box-spot")) spot.dataset.key = `main|box${spot.closest(".box").dataset.box}`;
}

export function update(ctx) {
  const live = ctx.view || {};
  const st = live.hands?.length || !ctx.recent.length ? live : { ...ctx.recent[0], turn: null };   // else: the last coup
  root.classList.toggle("last-coup", st !== live);
  const busts = st.dealer_total > 21;      // the dealer's bust in words, not a total over 21
  root.querySelector("#dealer-cards").replaceChildren(...(st.dealer || []).map(card),
    st.dealer_total ? el("strong", { class: "hand-total", id: "dealer-total", "data-total": st.dealer_total },
      ` ${busts ? t("dealer_busts") : st.dealer_total}`) : "");
  const bets = (live.bets?.length ? live : st).bets || [];
  for (const boxNode of root.querySelectorAll(".box")) {
    const box = Number(boxNode.dataset.box);
    const hands = (st.hands || []).filter((h) => h.box === box);
    const owners = bets.filter((b) => b.box === box && b.kind === "main");
    const playing = st.turn !== null && st.turn !== undefined && st.hands?.[st.turn]?.box === box;
    boxNode.classList.toggle("turn", playing);
    boxNode.querySelector(".hands").replaceChildren(
      ...owners.map((b) => {
        const own = ctx.openBets.find((x) => x.id === b.id);      // my bet: its stake as collected (a double counts)
        return el("p", { class: "owner" }, `${b.player === ctx.me?.user ? t("you") : t("a_player")} · ${money(own?.staked ?? b.amount)}`);
      }),
      ...hands.map((h, i) => el("div", { class: `hand ${st.hands[st.turn] === h ? "current" : ""}`, "data-status": h.status,
        "aria-label": `${t("hand")} ${i + 1}: ${h.cards.map(cardText).join(" ")}` },
      h.cards.map(card), el("small", { class: "hand-total", "data-total": h.total ?? "" },
        [h.status === "bust" ? null : h.total, T[`hand_${h.status}`]].filter(Boolean).join(" · ")))));
  }
  // box spots: mark my stakes per box, enabled while bets are open
  const mine = new Map();
  for (const b of ctx.openBets) {
    const vb = (live.bets || []).find((x) => x.id === b.id);
    if (vb) mine.set(vb.box, (mine.get(vb.box) || 0) + (b.staked ?? b.amount));
  }
  const open = (ctx.actions.bets || []).some((k) => k.kind === "main");
  for (const spot of root.querySelectorAll(".box-spot")) {
    const box = Number(spot.closest(".box").dataset.box);
    spot.querySelector(".stake").textContent = mine.get(box) ? money(mine.get(box)) : "";
    spot.setAttribute("aria-disabled", String(!open));
  }
  engineLog(root.querySelector(".engine-log"), st.log, 5);
  void markSpots;
}
