// The croupier's console: open betting, no va más (at a live card table with the cards keyed), the
// CSPRNG draw or a keyed result, the settlement shown before it is confirmed, corrections and voids
// (the table chief), decisions keyed at a live table, and the shoe's state.
import { api, attempt, card, el, fillMoney, money, page, phaseText, renderSession, session, stream, t, verbText } from "./app.js";

const tableId = page.table.id;
const $ = (id) => document.getElementById(id);
fillMoney();

function parseValue(text) {
  const s = text.trim();
  if (/^[[{"]/.test(s)) return JSON.parse(s);
  if (/^-?\d+$/.test(s)) return Number(s);
  if (/^\d+\s*[,\- ]\s*\d+$/.test(s)) return s.split(/[,\- ]+/).map(Number);
  return s;
}
const cardsOf = (text) => (text || "").split(/[\s,]+/).filter(Boolean);

async function post(path, body = {}) {
  const out = await attempt(() => api(`/api/tables/${tableId}/${path}`, { method: "POST", body }));
  if (out) { showAnswer(out); await refresh(); }
  return out;
}

function settlementTable(bets, house) {
  const rows = Object.entries(bets || {});
  return el("table", { class: "settle" },
    el("thead", {}, el("tr", {}, ["bet", t("player"), t("status"), t("staked"), t("returned")].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map(([id, b]) => el("tr", { "data-bet": id, "data-status": b.status },
      el("td", {}, id), el("td", {}, b.player ?? ""), el("td", {}, b.status), el("td", {}, money(b.staked)), el("td", {}, money(b.returned))))),
    house ? el("tfoot", {}, el("tr", {}, el("td", { colspan: 3 }, t("house")), el("td", { colspan: 2 }, money(house.net ?? 0)))) : null);
}

function showAnswer(out) {
  const box = $("preview");
  if (out.preview) box.replaceChildren(el("p", { class: "to-confirm" }, t("preview")), settlementTable(out.preview.bets, out.preview.house));
  else if (out.bets && typeof out.bets === "object" && !Array.isArray(out.bets)) {
    box.replaceChildren(el("p", { class: "settled" }, `${t("settlement")} (${t("round")} ${out.round})`), settlementTable(out.bets));
  } else if (out.phase) box.replaceChildren(el("p", {}, `${t("phase")}: ${phaseText(out.phase)}`));
}

async function refresh() {
  const [full, view] = await Promise.all([api(`/api/tables/${tableId}`), api(`/api/tables/${tableId}/view`)]).catch(() => [null, null]);
  if (!full) return;
  $("phase").textContent = phaseText(full.phase);
  $("phase").dataset.phase = full.phase;
  $("round").textContent = full.round;
  $("timer").textContent = full.seconds_left ? `· ${Math.round(full.seconds_left)} ${t("seconds_left")}` : "";
  $("history").replaceChildren(...(full.history || []).slice(-20).reverse().map((h) => el("li", {}, Array.isArray(h) ? h.join("-") : String(h))));
  const shoe = full.shoe;
  $("shoe").replaceChildren(shoe ? el("dl", { class: "shoe" },
    el("dt", {}, t("shoe_number")), el("dd", { id: "shoe-number" }, String(shoe.number ?? "—")),
    el("dt", {}, t("cards_left")), el("dd", { id: "shoe-remaining" }, String(shoe.remaining ?? "—")),
    el("dt", {}, t("cut_card")), el("dd", { id: "shoe-cut" }, shoe.cut_reached ? t("cut_reached") : String(view?.state?.shoe?.cut_index ?? "—")),
    el("dt", {}, t("commitment")), el("dd", { class: "hash" }, shoe.commitment ?? "—")) : el("p", { class: "muted" }, "—"));
  renderDecisions(full.actions.decisions || [], full.open_bets || []);
  const st = view?.state || {};
  const cards = [];
  if (st.dealer) cards.push(el("p", {}, `${t("dealer")}: `, ...st.dealer.map(card)));
  for (const h of st.hands || []) cards.push(el("p", {}, `${t("box")} ${h.box}: `, ...h.cards.map(card), ` ${h.status}`));
  const coup = (st.coups || []).at(-1);
  if (coup) cards.push(el("p", {}, `${t("punto")}: `, ...coup.player.map(card), ` · ${t("banca")}: `, ...coup.bank.map(card)));
  if (st.point !== undefined) cards.push(el("p", {}, `${t("point")}: ${st.point ?? t("puck_off")}`));
  $("table-view").replaceChildren(...cards, ...(st.log || []).slice(-6).map((l) => el("p", { class: "log-line" }, l)));
}

function renderDecisions(decisions, openBets) {
  const box = $("decisions");
  if (!decisions.length) { box.replaceChildren(el("p", { class: "muted" }, t("no_decisions"))); return; }
  const live = page.table.source === "croupier";
  const owner = Object.fromEntries(openBets.map((b) => [b.id, b.player]));
  const input = live ? el("input", { id: "act-cards", "aria-label": t("with_cards"), placeholder: "TD" }) : null;
  box.replaceChildren(
    ...(input ? [el("label", { for: "act-cards" }, t("with_cards")), input] : []),
    ...decisions.map((d) => el("button", {
      type: "button", class: "verb", "data-verb": d.do, "data-bet": d.bet ?? "", disabled: !live,
      "aria-label": `${t("key_decision")}: ${verbText(d.do)} ${d.bet ?? ""} ${owner[d.bet] ?? ""}`,
      onclick: () => post("acts", { bet: d.bet, do: d.do, ...(cardsOf(input?.value).length ? { cards: cardsOf(input.value) } : {}) }),
    }, `${verbText(d.do)} · ${d.bet ?? ""} ${owner[d.bet] ?? ""}`)));
}

function wire() {
  $("btn-open")?.addEventListener("click", () => post("open"));
  $("btn-close")?.addEventListener("click", () => {
    const cards = cardsOf($("deal-cards")?.value);
    return post("close", cards.length ? { cards } : {});
  });
  $("btn-draw")?.addEventListener("click", () => post("draw"));
  const outcome = () => ({ value: parseValue($("outcome-value").value), ...($("outcome-name") ? { name: $("outcome-name").value } : {}) });
  $("btn-outcome")?.addEventListener("click", () => attempt(async () => post("outcome", outcome())));
  $("btn-confirm")?.addEventListener("click", () => post("confirm"));
  $("btn-correct")?.addEventListener("click", () => post("correct", outcome()));
  $("btn-void")?.addEventListener("click", () => post("void", { reason: $("void-reason").value || "void" }));
  $("table-pick").addEventListener("change", (e) => { location.href = `/croupier/${e.target.value}`; });
}

async function tablesList() {
  const { tables } = await api("/api/tables");
  $("table-pick").replaceChildren(...tables.map((x) => el("option", { value: x.id, selected: x.id === tableId }, `${x.name} (${x.id})`)));
}

wire();
await tablesList();
const me = await renderSession();
if (me) {
  await refresh();
  stream(tableId, (rec) => {
    if (rec.kind) {
      const live = $("live");
      live.prepend(el("li", { "data-kind": rec.kind }, `${rec.kind}${rec.actor ? ` (${rec.actor})` : ""} ${rec.data?.event ? JSON.stringify(rec.data.event) : rec.data?.say ?? ""}`));
      while (live.children.length > 30) live.lastChild.remove();
    }
    clearTimeout(wire.timer);
    wire.timer = setTimeout(refresh, 120);
  });
}
document.body.dataset.ready = "1";
void session;
