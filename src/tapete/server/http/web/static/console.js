// The croupier's console: open betting, no va más (at a live card table with the cards keyed), the
// CSPRNG draw or a keyed result, the settlement shown before it is confirmed, corrections and voids
// (the table chief), decisions keyed at a live table, and the shoe's state.
import {
  api, card, clearError, el, engineLog, fillMoney, kindLabel, money, net, page, phaseText, renderSession, say, session, showError,
  stream, t, verbText,
} from "./app.js";
import { feedLine, spotText } from "./feed.js";

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

/** A croupier's command; a refusal is shown next to the control that sent it (and read out: role=alert). */
async function post(path, body = {}, control = null) {
  const where = control ? errorSlot(control) : null;
  try {
    const out = await api(`/api/tables/${tableId}/${path}`, { method: "POST", body });
    if (where) where.replaceChildren();
    clearError();
    showAnswer(out);
    await refresh();
    return out;
  } catch (err) {
    showError(err, where);
    if (where) where.dataset.code = err?.doc?.error?.code ?? "error";
    return undefined;
  }
}

/** The error line under a control's row (made once). */
function errorSlot(control) {
  const row = control.closest(".row") || control.parentElement;
  let slot = row.nextElementSibling;
  if (!slot || !slot.classList.contains("field-error")) {
    slot = el("div", { class: "field-error", role: "alert", id: `${control.id}-error` });
    row.after(slot);
  }
  return slot;
}

function settlementTable(bets, house) {
  const rows = Object.entries(bets || {});
  return el("table", { class: "settle" },
    el("thead", {}, el("tr", {}, [t("kind"), t("player"), t("status"), t("staked"), t("returned"), t("net")].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map(([id, b]) => el("tr", { "data-bet": id, "data-status": b.status },
      el("td", {}, `${kindLabel(b.kind || openKinds.get(id)?.kind || "")}${spotText(openKinds.get(id)?.on)}`), el("td", {}, playerName(b.player)), el("td", {}, t(`status_${b.status}`)),
      el("td", {}, money(b.staked)), el("td", {}, money(b.returned)), el("td", {}, net((b.returned ?? 0) - (b.staked ?? 0)))))),
    house ? el("tfoot", {}, el("tr", {}, el("td", { colspan: 3 }, t("house")), el("td", { colspan: 3 }, net(house.net ?? 0)),
    )) : null);
}

// Players as the console names them: a number each in the order they first bet (no login names on screen).
const numbers = new Map();
function playerName(user) {
  if (!user) return "";
  if (!numbers.has(user)) numbers.set(user, numbers.size + 1);
  return say("player_n", { n: numbers.get(user) });
}

let viewBets = [];
const openKinds = new Map();      // bet id -> the open bet (kind, target): a preview names the bet by them
const boxOf = (id) => viewBets.find((b) => b.id === id)?.box;

/** The bets on the layout and the total at risk: what no va más is about to close. */
function renderAtRisk(openBets) {
  const total = openBets.reduce((a, b) => a + (b.staked ?? b.amount ?? 0), 0);
  $("at-risk").replaceChildren(
    el("p", { id: "at-risk-total", "data-cents": total }, say("at_risk_total", { n: openBets.length, amount: money(total) })),
    openBets.length ? el("table", { class: "settle" },
      el("thead", {}, el("tr", {}, [t("player"), t("kind"), t("staked")].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, openBets.map((b) => el("tr", { "data-kind": b.kind },
        el("td", {}, playerName(b.player)), el("td", {}, `${kindLabel(b.kind)}${spotText(b.on)}${boxOf(b.id) ? ` · ${t("box")} ${boxOf(b.id)}` : ""}`),
        el("td", {}, money(b.staked ?? b.amount))))))
      : null);
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
  viewBets = Array.isArray(view?.state?.bets) ? view.state.bets : [];
  for (const b of full.open_bets || []) openKinds.set(b.id, b);
  renderDecisions(full.actions.decisions || [], full.open_bets || []);
  renderAtRisk((full.open_bets || []).filter((b) => b.status === undefined || b.status === "open"));
  enableControls(full);
  const st = view?.state || {};
  const cards = [];
  if (st.dealer) cards.push(el("p", {}, `${t("dealer")}: `, ...st.dealer.map(card)));
  for (const h of st.hands || []) cards.push(el("p", {}, `${t("box")} ${h.box}: `, ...h.cards.map(card), ` ${h.status}`));
  const coup = (st.coups || []).at(-1);
  if (coup) cards.push(el("p", {}, `${t("punto")}: `, ...coup.player.map(card), ` · ${t("banca")}: `, ...coup.bank.map(card)));
  if (st.point !== undefined) cards.push(el("p", {}, `${t("point")}: ${st.point ?? t("puck_off")}`));
  $("table-view").replaceChildren(...cards, el("div", { class: "engine-log" }));
  engineLog($("table-view").querySelector(".engine-log"), st.log, 6);
}

/** Only what the phase allows is enabled (and looks it); outside opening hours nothing opens a round. */
function enableControls(full) {
  const p = full.phase;
  const allow = {
    "btn-open": (p === "idle" || p === "settled") && full.open_now,
    "btn-close": p === "betting",
    "btn-draw": p === "closed",
    "btn-outcome": p === "betting" || p === "closed",
    "btn-confirm": p === "confirming",
    "btn-correct": p === "confirming",
    "btn-void": p !== "idle" && p !== "settled",
  };
  for (const [id, ok] of Object.entries(allow)) {
    const b = $(id);
    if (b) b.disabled = !ok;
  }
  $("hours-note").textContent = full.open_now ? "" : t("closed_hours_note");
}

function renderDecisions(decisions, openBets) {
  const box = $("decisions");
  if (!decisions.length) { box.replaceChildren(el("p", { class: "muted" }, t("no_decisions"))); return; }
  const live = page.table.source === "croupier";
  const owner = Object.fromEntries(openBets.map((b) => [b.id, b.player]));
  const input = live ? el("input", { id: "act-cards", "aria-label": t("with_cards"), placeholder: "TD" }) : null;
  box.replaceChildren(
    ...(input ? [el("label", { for: "act-cards" }, t("with_cards")), input] : []),
    ...(live ? [] : [el("p", { class: "muted" }, t("electronic_decisions"))]),
    ...decisions.map((d) => {
      const bet = openBets.find((b) => b.id === d.bet);
      const what = `${bet ? kindLabel(bet.kind) : ""} · ${playerName(owner[d.bet])}`;
      return el("div", { class: "row" }, el("button", {
        type: "button", class: "verb", "data-verb": d.do, "data-bet": d.bet ?? "", disabled: !live,
        "aria-label": `${t("key_decision")}: ${verbText(d.do)} ${what}`,
        onclick: (e) => post("acts", { bet: d.bet, do: d.do, ...(cardsOf(input?.value).length ? { cards: cardsOf(input.value) } : {}) }, e.currentTarget),
      }, `${verbText(d.do)} · ${what}`));
    }));
}

function wire() {
  $("btn-open")?.addEventListener("click", (e) => post("open", {}, e.currentTarget));
  $("btn-close")?.addEventListener("click", (e) => {
    const cards = cardsOf($("deal-cards")?.value);
    return post("close", cards.length ? { cards } : {}, e.currentTarget);
  });
  $("btn-draw")?.addEventListener("click", (e) => post("draw", {}, e.currentTarget));
  const outcome = () => ({ value: parseValue($("outcome-value").value), ...($("outcome-name") ? { name: $("outcome-name").value } : {}) });
  const keyed = (path) => (e) => {
    let body;
    try { body = outcome(); } catch { showError({ doc: { error: { code: "bad-document", message: "" } } }, errorSlot(e.currentTarget)); return undefined; }
    return post(path, body, e.currentTarget);
  };
  $("btn-outcome")?.addEventListener("click", keyed("outcome"));
  $("btn-confirm")?.addEventListener("click", (e) => post("confirm", {}, e.currentTarget));
  $("btn-correct")?.addEventListener("click", keyed("correct"));
  $("btn-void")?.addEventListener("click", (e) => post("void", { reason: $("void-reason").value || "void" }, e.currentTarget));
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
    const line = rec.kind ? feedLine(rec, me.user, "staff") : null;
    if (line) {
      const live = $("live");
      live.prepend(el("li", { "data-kind": rec.kind }, line));
      while (live.children.length > 30) live.lastChild.remove();
    }
    clearTimeout(wire.timer);
    wire.timer = setTimeout(refresh, 120);
  });
}
document.body.dataset.ready = "1";
void session;
