// Trente et quarante: the two rows of the last coup as cards with their points (the engine's counts), the
// four chances (black, red, colour, inverse) as cloth spots with their payout, insurance against the 31 tie
// where the game takes it, bets in prison marked on their spot, and the coup's verdict in a sentence (the
// winners as the engine announced them; a 31-31 refait and an equal-points coup explained).
import { card, el, markSpots, page, say, spotButton, t } from "../app.js";

const WORDS = { negro: "black", rojo: "red", color: "color", inverso: "inverse" };   // the engine's announcement
let root = null;

function spot(ctx, k) {
  const name = t(`tq_${k.kind}`);
  const pays = (page.kinds || []).find((x) => x.kind === k.kind)?.pays ?? "";
  const help = t(`tq_help_${k.kind}`);
  return spotButton(ctx, { kind: k.kind, cls: `tq-spot ${k.kind}`, label: `${name}: ${help} — ${t("pays")} ${pays}`,
    text: el("span", {}, el("strong", {}, name), el("small", {}, help), el("small", { class: "pays" }, `${t("pays")} ${pays}`),
      el("small", { class: "note" })) });
}

export function init(node, ctx) {
  root = node;
  const insurable = (page.bet_fields || []).includes("insured");
  const insured = el("input", { type: "checkbox", id: "tq-insure" });
  // the spots place the chosen chip; with the box ticked, insured against the 31 tie (the engine's premium)
  const cloth = Object.create(ctx);
  cloth.bet = (items) => ctx.bet(insured.checked ? items.map((b) => ({ ...b, extra: { ...(b.extra || {}), insured: true } })) : items);
  root.append(
    el("section", { class: "tq-rows", "aria-label": t("tq_rows") },
      el("div", { class: "card-group tq-row black", id: "tq-black" }), el("div", { class: "card-group tq-row red", id: "tq-red" }),
      el("p", { class: "tq-verdict", id: "tq-verdict", role: "status" }, t("tq_no_coup"))),
    el("div", { class: "spot-board tq-cloth", id: "spot-board", role: "group", "aria-label": t("bet_on") },
      ctx.page.layout.map((k) => spot(cloth, k))),
    insurable ? el("p", { class: "tq-insure" }, insured, " ", el("label", { for: "tq-insure" }, t("tq_insure"))) : null,
    el("p", { class: "tq-shoe muted", id: "tq-shoe" }));
}

function row(node, which, cards, total, first) {
  node.dataset.total = total ?? "";
  node.hidden = !cards?.length;        // before the first coup: only "No coup dealt yet."
  node.replaceChildren(
    el("h3", {}, t(`row_${which}`), total === undefined ? null : el("span", { class: "row-total", "data-total": total }, ` = ${total}`)),
    el("div", { class: "cards" }, (cards || []).map((c, i) => {
      const face = card(c);
      if (first && i === 0) { face.classList.add("first"); face.title = t("tq_first_card"); }
      return face;
    })));
}

function verdict(st, coup) {
  if (!coup) return t("tq_no_coup");
  if (coup.black_total === coup.red_total) {
    return coup.black_total === 31 ? t("tq_refait") : say("tq_equal", { n: coup.black_total });
  }
  const line = [...(st.log || [])].reverse().find((l) => l.startsWith("coup ")) || "";
  const hit = line.match(/(negro|rojo) y (color|inverso) ganan/);
  const won = hit ? [WORDS[hit[1]], WORDS[hit[2]]] : [];
  for (const k of won) root.querySelector(`.tq-spot.${k}`)?.classList.add("win");
  return won.length ? say("tq_won", { list: won.map((k) => t(`tq_${k}`)).join(" + ") }) : "";
}

export function update(ctx) {
  markSpots(root, ctx);
  const live = ctx.view || {};
  const st = live.coups?.length || !ctx.recent.length ? live : ctx.recent[0];
  const coup = (st.coups || []).at(-1);
  row(root.querySelector("#tq-black"), "black", coup?.black, coup?.black_total, true);
  row(root.querySelector("#tq-red"), "red", coup?.red, coup?.red_total, false);
  for (const b of root.querySelectorAll(".tq-spot.win")) b.classList.remove("win");
  const v = root.querySelector("#tq-verdict");
  v.textContent = verdict(st, coup);
  v.classList.toggle("refait", Boolean(coup && coup.black_total === 31 && coup.red_total === 31));
  // my bets still riding on each chance: in prison after a 31-31, insured
  const mine = (live.bets || []).filter((b) => b.player === ctx.me?.user && b.phase !== "done");
  for (const s of root.querySelectorAll(".tq-spot")) {
    const here = mine.filter((b) => b.kind === s.dataset.kind);
    const notes = [here.some((b) => b.phase === "prison" || b.phase === "choice") ? t("in_prison") : null,
      here.some((b) => b.insured) ? t("tq_insured") : null].filter(Boolean);
    s.querySelector(".note").textContent = notes.join(" · ");
    s.classList.toggle("prison", here.some((b) => b.phase === "prison" || b.phase === "choice"));
  }
  const shoe = live.shoe;
  // an electronic shoe's count (a live table's croupier keys the cards he deals: no count to show)
  root.querySelector("#tq-shoe").textContent = shoe && page.table.source !== "croupier" ? say("tq_shoe", { n: shoe.remaining }) : "";
}

export function history(ctx) {
  const coups = [...ctx.recent].reverse().flatMap((v) => v.coups || []);
  const all = ctx.view?.coups?.length ? ctx.view.coups : coups;
  return all.map((c) => `${c.black_total}–${c.red_total}`);
}

export const recent = 1;
