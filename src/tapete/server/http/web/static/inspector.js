// The inspector's page (and the table chief's view of it): the ledger's invariants, each table's hash-chained
// log and the staff log told in sentences, filtered (table, kind, staff member, time on the casino's clock) and
// paged, runs of empty rounds folded into one line, the raw record one click away; the voids, corrections and
// disputes with their reasons.
import { api, attempt, el, money, page, renderSession, say, showError, t } from "./app.js";
import { amount, casinoInstant, logLine, staffSentence, tableSentence, twoStepDialog } from "./staff.js";

const $ = (id) => document.getElementById(id);
const PAGE = 25;

/** A house account in words: "float:ruleta-1" -> "Float of Ruleta en vivo". */
function accountName(id) {
  const [kind, rest] = String(id).split(/:(.*)/s);
  const key = `acct_${kind}`;
  const name = (page.names || {})[rest] || rest || "";
  return t(key) === key ? String(id) : say(key, { table: name });
}

async function ledger() {
  if (!$("ledger")) return;
  const out = await attempt(() => api("/api/ledger"));
  if (!out) return;
  $("ledger").replaceChildren(el("p", { id: "ledger-ok", "data-ok": String(out.ok) },
    out.ok ? say("staff_ledger_ok", { sum: money(out.sum) }) : say("staff_ledger_bad", { sum: money(out.sum) })),
  // the accounts that hold something; the empty ones in one line (36 rows of €0.00 say nothing)
  ...accountRows(Object.entries(out.house_accounts || {})));
}

function accountRows(entries) {
  const held = entries.filter(([, b]) => b);
  const empty = entries.length - held.length;
  return [el("table", { class: "accounts" }, el("tbody", {}, held.map(([a, b]) => el("tr", {},
    el("th", { scope: "row" }, accountName(a)), el("td", { class: "amount", "data-cents": b }, amount(b)))))),
  empty ? el("p", { class: "muted", id: "ledger-empty" }, say("staff_accounts_empty", { n: empty, zero: money(0) })) : null].filter(Boolean);
}

/** A filtered, paged log: `fetchPage(before)` gives {items, next_before}; Older/Newer walk the pages. */
function pager(list, older, newer, fetchPage, sentence, empty) {
  const stack = [];              // the `before` of each page shown so far (undefined: the newest)
  let next = null;
  async function show(before) {
    const out = await attempt(() => fetchPage(before));
    if (!out) return;
    next = out.next_before;
    list.replaceChildren(...(out.items.length ? out.items.map((r) => logLine(r, sentence(r)))
      : [el("li", { class: "muted" }, t(empty))]));
    older.disabled = next === null || next === undefined;
    newer.disabled = stack.length <= 1;
  }
  older.addEventListener("click", () => { stack.push(next); show(next); });
  newer.addEventListener("click", () => { stack.pop(); show(stack.at(-1)); });
  return () => { stack.length = 0; stack.push(undefined); return show(undefined); };
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  return q.toString();
}

const tableLog = pager($("audit"), $("audit-older"), $("audit-newer"), (before) => api(`/api/audit/tables/${encodeURIComponent($("audit-table").value)}?${query({
  kind: $("audit-kind").value, actor: $("audit-actor").value.trim(), since: casinoInstant($("audit-since").value),
  until: casinoInstant($("audit-until").value), before, limit: PAGE })}`), tableSentence, "staff_log_empty");

const staffLog = pager($("staff-log"), $("staff-older"), $("staff-newer"), (before) => api(`/api/audit/staff?${query({
  kind: $("staff-kind").value, actor: $("staff-actor").value.trim(), before, limit: PAGE })}`), staffSentence, "staff_log_empty");

/** The chain of the chosen table, verified by the server (GET /api/tables/{id}/log), in one line. */
async function chain() {
  const table = $("audit-table").value;
  const out = await attempt(() => api(`/api/tables/${encodeURIComponent(table)}/log?limit=1`));
  if (!out) return;
  const c = out.chain || {};
  $("chain").replaceChildren(el("p", { id: "chain-status", class: c.ok ? "ok" : "bad", "data-ok": String(c.ok) },
    c.ok ? `✔ ${t("chain_ok")}` : `✘ ${t("chain_broken")}`, ` · ${say("staff_records", { n: c.records ?? 0 })}`,
    // the stored head: noted by the inspector, it checks an export offline (`tapete audit verify --head HASH`)
    out.head ? el("span", {}, ` · ${t("log_head")} #${out.head.seq}: `,
      el("code", { class: "hash", id: "chain-head", title: "tapete audit verify --head" }, out.head.hash)) : null));
}

async function incidents() {
  const out = await attempt(() => api(`/api/audit/incidents?limit=20`));
  if (!out) return;
  $("incidents").replaceChildren(out.items.length ? el("ol", { class: "audit-list", id: "incident-list" }, out.items.map(incidentLine))
    : el("p", { class: "muted" }, t("staff_no_incidents")));
}

/** An incident's line; an open dispute with its "Close the dispute…" control (the inspector, the table's chief). */
function incidentLine(rec) {
  const line = logLine(rec, staffSentence(rec));
  if (rec.action === "dispute" && rec.status === "open") {
    line.querySelector(".sentence").after(" ", el("button", { type: "button", class: "secondary close-dispute",
      "data-dispute": rec.seq, onclick: (e) => closeDispute(rec, e.currentTarget) }, t("staff_dispute_close")));
  }
  return line;
}

/** Closing a dispute: the outcome and a note (required), then a second look, then the command; once. */
function closeDispute(rec, control) {
  const d = rec.data || {};
  $("dispute-dialog-h").textContent = say("staff_dispute_close_title", { number: rec.seq });
  $("dispute-note").value = "";
  $("dispute-note-error").textContent = "";
  const next = () => {
    const note = $("dispute-note").value.trim();
    if (!note) { $("dispute-note-error").textContent = t("staff_dispute_note_missing"); $("dispute-note").focus(); return false; }
    const upheld = $("dispute-outcome").value === "upheld";
    $("dispute-summary").textContent = say(upheld ? "staff_dispute_close_sure_upheld" : "staff_dispute_close_sure_dismissed",
      { player: d.player || t("staff_floor"), round: d.round ?? "", table: (page.names || {})[rec.subject] || rec.subject, note });
    return true;
  };
  const yes = async () => {
    const body = { outcome: $("dispute-outcome").value, note: $("dispute-note").value.trim() };
    try {
      await api(`/api/tables/${encodeURIComponent(rec.subject)}/disputes/${rec.seq}/close`, { method: "POST", body });
      await incidents();
    } catch (err) {
      const slot = el("div", { class: "field-error", role: "alert" });
      control.after(slot);
      showError(err, slot);
    }
  };
  twoStepDialog("dispute", { control, first: $("dispute-outcome"), back: $("dispute-note"), next, yes });
}

$("audit-filters").addEventListener("submit", (e) => { e.preventDefault(); chain(); tableLog(); });
$("staff-filters").addEventListener("submit", (e) => { e.preventDefault(); staffLog(); });
const me = await renderSession();
if (me) await Promise.all([ledger(), chain(), tableLog(), staffLog(), incidents()]);
document.body.dataset.ready = "1";
