// The croupier's console: open betting, no va más (at a live card table with the cards keyed), the
// CSPRNG draw or a keyed result, the settlement shown before it is confirmed, corrections and voids
// (the table chief), decisions keyed at a live table, and the shoe's state.
import {
  api, card, clearError, el, engineLog, fillMoney, kindLabel, money, net, page, phaseText, renderSession, say, session, showError,
  stream, t, verbText,
} from "./app.js";
import { feedLine, outcomeText, spotText } from "./feed.js";
import { amount, euroCents, tickClock, twoStepDialog } from "./staff.js";

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

// The settlement table: every column seen at 1280 px (the net while the croupier confirms), each row a card of
// labelled figures on a phone (CSS: table.settle td[data-label]).
function settlementTable(bets, house) {
  const rows = Object.entries(bets || {});
  const head = [t("kind"), t("player"), t("status"), t("staked"), t("returned"), t("net")];
  if (!rows.length) return el("p", { class: "muted" }, t("staff_no_bets_settled"));
  return el("table", { class: "settle" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map(([id, b]) => el("tr", { "data-bet": id, "data-status": b.status },
      el("td", { "data-label": head[0] }, `${kindLabel(b.kind || openKinds.get(id)?.kind || "")}${spotText(openKinds.get(id)?.on)}`),
      el("td", { "data-label": head[1] }, playerName(b.player)), el("td", { "data-label": head[2] }, t(`status_${b.status}`)),
      el("td", { "data-label": head[3], class: "amount" }, money(b.staked)), el("td", { "data-label": head[4], class: "amount" }, money(b.returned)),
      el("td", { "data-label": head[5], class: "amount net" }, net((b.returned ?? 0) - (b.staked ?? 0)))))),
    house ? el("tfoot", {}, el("tr", {}, el("td", { colspan: 5 }, t("house")), el("td", { class: "amount net", "data-label": t("house") }, net(house.net ?? 0)),
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
  if (!openBets.length) {      // a sentence, never a bare `null` (replaceChildren writes null as text)
    $("at-risk").replaceChildren(el("p", { id: "at-risk-total", "data-cents": 0, class: "muted" }, t("staff_no_bets_layout")));
    return;
  }
  const head = [t("player"), t("kind"), t("staked")];
  $("at-risk").replaceChildren(
    el("p", { id: "at-risk-total", "data-cents": total }, say("at_risk_total", { n: openBets.length, amount: money(total) })),
    el("table", { class: "settle" },
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, openBets.map((b) => el("tr", { "data-kind": b.kind },
        el("td", { "data-label": head[0] }, playerName(b.player)),
        el("td", { "data-label": head[1] }, `${kindLabel(b.kind)}${spotText(b.on)}${boxOf(b.id) ? ` · ${t("box")} ${boxOf(b.id)}` : ""}`),
        el("td", { "data-label": head[2], class: "amount" }, money(b.staked ?? b.amount)))))));
}

function showAnswer(out) {
  const box = $("preview");
  if (out.preview) box.replaceChildren(el("p", { class: "to-confirm" }, say("staff_check_then_confirm", { round: out.round ?? "" })), settlementTable(out.preview.bets, out.preview.house));
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
  if (full.phase === "confirming" && !$("preview").querySelector("table")) {     // opened or reloaded while a result waits
    const waiting = await api(`/api/tables/${tableId}/preview`).catch(() => null);
    if (waiting?.preview) showAnswer(waiting);
  } else if (full.phase !== "confirming" && $("preview").querySelector("p.to-confirm")) {
    $("preview").replaceChildren(el("p", { class: "muted" }, t("staff_no_preview")));
  }
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
  $("btn-correct")?.addEventListener("click", (e) => {
    let body;
    try { body = outcome(); } catch { showError({ doc: { error: { code: "bad-document", message: "" } } }, errorSlot(e.currentTarget)); return; }
    if ($("outcome-value").value.trim() === "") { showError({ doc: { error: { code: "value-missing", message: "" } } }, errorSlot(e.currentTarget)); return; }
    chiefAct("correct", body, e.currentTarget);
  });
  $("btn-void")?.addEventListener("click", (e) => chiefAct("void", {}, e.currentTarget));
  $("btn-dispute")?.addEventListener("click", (e) => chiefAct("dispute", {}, e.currentTarget));
  $("table-pick").addEventListener("change", (e) => { location.href = `/croupier/${e.target.value}`; });
}

const TITLES = { void: "staff_void_title", correct: "staff_correct_title", dispute: "staff_dispute_title" };
const YES = { void: "staff_void_yes", correct: "staff_correct_yes", dispute: "staff_dispute_yes" };

/** The dispute's own fields (round, player, claim) read and checked next to each field: the body, or null. */
function disputeBody() {
  const round = Number($("dispute-round").value);
  const roundOk = Number.isInteger(round) && round >= 1;
  $("dispute-round-error").textContent = roundOk ? "" : t("staff_dispute_round_bad");
  $("dispute-round").setAttribute("aria-invalid", roundOk ? "false" : "true");
  const claimText = $("dispute-claim").value.trim();
  const claim = claimText ? euroCents(claimText) : null;
  const claimOk = !claimText || claim !== null;
  $("dispute-claim-error").textContent = claimOk ? "" : t("staff_dispute_claim_bad");
  $("dispute-claim").setAttribute("aria-invalid", claimOk ? "false" : "true");
  if (!roundOk) { $("dispute-round").focus(); return null; }
  if (!claimOk) { $("dispute-claim").focus(); return null; }
  const player = $("dispute-player").value.trim();
  return { round, ...(player ? { player } : {}), ...(claim !== null ? { claim } : {}) };
}

/** A chief's void, correction or dispute: a reason first (required; a dispute's round, player and claim with it),
 * then a second look at what will be done, and only then the command, the reason with it (recorded in the
 * table's log and the staff log; a void's and a correction's read in the players' feed, a dispute's not). */
function chiefAct(kind, body, control) {
  if (!$("chief-dialog")) return;
  const dispute = kind === "dispute";
  const round = $("round").textContent;
  $("chief-dialog-h").textContent = t(TITLES[kind]);
  $("chief-reason-label").textContent = t(dispute ? "staff_dispute_reason" : "staff_reason");
  $("dispute-fields").hidden = !dispute;
  if (dispute) {
    $("dispute-round").value = round && Number(round) >= 1 ? round : "";
    for (const id of ["dispute-player", "dispute-claim"]) $(id).value = "";
    for (const id of ["dispute-round-error", "dispute-claim-error"]) $(id).textContent = "";
  }
  $("chief-reason").value = "";
  $("chief-reason-error").textContent = "";
  let sending = body;
  const next = () => {
    const reason = $("chief-reason").value.trim();
    if (dispute) {
      const fields = disputeBody();
      if (!fields) return false;
      sending = fields;
    }
    if (!reason) {
      $("chief-reason-error").textContent = t(dispute ? "staff_reason_missing_dispute" : "staff_reason_missing");
      $("chief-reason").focus();
      return false;
    }
    $("chief-summary").textContent = dispute
      ? say("staff_dispute_sure", { player: sending.player || t("staff_floor"), round: sending.round, table: page.table.name,
        claim: sending.claim === undefined ? t("staff_dispute_no_claim") : amount(sending.claim), reason })
      : say(kind === "void" ? "staff_void_sure" : "staff_correct_sure",
        { round, table: page.table.name, value: outcomeText({ v: body.value }), reason });
    $("chief-yes").textContent = t(YES[kind]);
    return true;
  };
  const yes = () => {
    const sent = { ...sending, reason: $("chief-reason").value.trim() };
    if (!dispute) { post(kind, sent, control); return; }
    $("dispute-done").textContent = "";
    post("disputes", sent, control).then((out) => {
      if (out?.dispute) $("dispute-done").textContent = say("staff_dispute_done", { number: out.dispute, round: out.round });
    });
  };
  twoStepDialog("chief", { control, first: dispute ? $("dispute-round") : $("chief-reason"), back: $("chief-reason"), next, yes });
}

async function tablesList() {
  const { tables } = await api("/api/tables");
  const mine = page.me?.tables;        // a chief or croupier of given tables picks among them only
  $("table-pick").replaceChildren(...tables.filter((x) => !mine || mine.includes(x.id)).map((x) => el("option", { value: x.id, selected: x.id === tableId }, `${x.name} (${x.id})`)));
}

wire();
tickClock($("casino-clock"));
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
