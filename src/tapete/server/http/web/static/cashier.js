// The cage: chips in and out for a player found by name (never a login typed blind), each movement read back
// for a second look ("Deposit €250.50 to marta?") before it is made, the receipt of the ledger transaction, and
// the wallet's last movements (a table that scrolls on its own and is reached by the keyboard).
import { api, el, money, renderSession, say, showError, t } from "./app.js";
import { amount, casinoTime } from "./staff.js";

const $ = (id) => document.getElementById(id);
let chosen = null;           // {user, display_name, balance}
let pending = null;          // the movement waiting for its confirmation

function fieldMsg(id, text) {
  $(id).textContent = text || "";
  const input = { "cash-amount-error": "cash-amount", "cash-user-error": "cash-search" }[id];
  if (input) $(input).setAttribute("aria-invalid", text ? "true" : "false");
}

/** The amount in cents, or a sentence saying what is wrong with it (next to the field). */
function amountCents() {
  const text = $("cash-amount").value.trim().replace(/\s/g, "");
  if (!text) return { error: t("staff_amount_missing") };
  if (/^-/.test(text)) return { error: t("staff_amount_negative") };
  // 250.50, 250,50, 1.250,50 or 1,250.50: the last separator followed by one or two digits is the decimal one
  const m = /^(\d{1,3}(?:[.,]\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(text);
  if (!m) return { error: t("staff_amount_malformed") };
  const cents = Number(m[1].replace(/[.,]/g, "")) * 100 + Number((m[2] || "0").padEnd(2, "0"));
  if (!cents) return { error: t("staff_amount_zero") };
  return { cents };
}

function playerLabel(p) {
  return p.display_name && p.display_name !== p.user ? `${p.user} (${p.display_name})` : p.user;
}

function choose(p) {
  chosen = p;
  $("cash-user").value = p.user;
  $("cash-chosen").replaceChildren(say("staff_chosen", { player: playerLabel(p), balance: money(p.balance) }));
  $("cash-found").replaceChildren();
  fieldMsg("cash-user-error", "");
  wallet();
}

let searchTimer = null;
async function search() {
  const q = $("cash-search").value.trim();
  if (!q) { $("cash-found").replaceChildren(); return; }
  let out;
  try { out = await api(`/api/players?q=${encodeURIComponent(q)}`); } catch (err) { showError(err); return; }
  $("cash-found").replaceChildren(...(out.players.length ? out.players.map((p) => el("li", {},
    el("button", { type: "button", class: "secondary pick", "data-user": p.user, onclick: () => choose(p) },
      say("staff_pick", { player: playerLabel(p), balance: money(p.balance) }))))
    : [el("li", { class: "muted" }, say("staff_none_found", { q }))]));
}

function ask(kind) {
  fieldMsg("cash-user-error", "");
  fieldMsg("cash-amount-error", "");
  const amount = amountCents();
  let bad = false;
  if (!chosen) { fieldMsg("cash-user-error", t("staff_pick_first")); bad = true; }
  if (amount.error) { fieldMsg("cash-amount-error", amount.error); bad = true; }
  if (!bad && kind === "withdraw" && amount.cents > chosen.balance) {
    fieldMsg("cash-amount-error", say("staff_withdraw_more", { balance: money(chosen.balance) }));
    bad = true;
  }
  if (bad) { (chosen ? $("cash-amount") : $("cash-search")).focus(); return; }
  pending = { kind, user: chosen.user, cents: amount.cents };
  $("cash-confirm-text").textContent = say(kind === "deposit" ? "staff_confirm_deposit" : "staff_confirm_withdraw",
    { amount: money(amount.cents), player: playerLabel(chosen) });
  $("cash-yes").textContent = t(kind === "deposit" ? "staff_yes_deposit" : "staff_yes_withdraw");
  $("cash-confirm").hidden = false;
  $("cash-yes").focus();
}

async function move() {
  if (!pending) return;
  const { kind, user, cents } = pending;
  pending = null;
  $("cash-confirm").hidden = true;
  let out;
  try {
    out = await api(`/api/cashier/${kind}`, { method: "POST", body: { user, amount: cents, ...($("cash-memo").value ? { memo: $("cash-memo").value } : {}) } });
  } catch (err) {
    showError(err, $("cash-amount-error"));
    return;
  }
  $("cash-amount").value = "";
  chosen = { ...chosen, balance: out.balance };
  await wallet();                        // the wallet first: the receipt's appearance means the page is up to date
  $("receipt").replaceChildren(el("dl", { class: "receipt", "data-kind": kind, id: "receipt-doc" },
    el("dt", {}, t("transaction")), el("dd", { id: "receipt-tx" }, String(out.tx)),
    el("dt", {}, t(kind)), el("dd", {}, money(out.amount)),
    el("dt", {}, t("player")), el("dd", {}, out.user),
    el("dt", {}, t("balance")), el("dd", { id: "receipt-balance" }, money(out.balance)),
    el("dt", {}, t("time")), el("dd", {}, casinoTime(Date.now() / 1000))));
  $("cash-chosen").replaceChildren(say("staff_chosen", { player: playerLabel(chosen), balance: money(out.balance) }));
}

async function wallet() {
  if (!chosen) { fieldMsg("cash-user-error", t("staff_pick_first")); return; }
  let out;
  try { out = await api(`/api/wallets/${encodeURIComponent(chosen.user)}?limit=20`); } catch (err) { showError(err); return; }
  const head = [t("transaction"), t("time"), t("movement"), t("table"), t("amount")];
  $("wallet").replaceChildren(el("p", {}, `${out.user}: `, el("strong", { id: "wallet-balance" }, money(out.balance))),
    out.movements.length ? el("div", { class: "scroll-region", tabindex: "0", role: "region", "aria-label": say("staff_wallet_of", { player: out.user }) },
      el("table", { class: "wallet" }, el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, out.movements.map((m) => el("tr", {},
          el("td", { "data-label": head[0] }, String(m.tx_id)),
          el("td", { "data-label": head[1] }, m.ts ? casinoTime(m.ts) : ""),
          el("td", { "data-label": head[2], "data-kind": m.kind }, t(`move_${m.kind}`)),
          el("td", { "data-label": head[3] }, m.table_id ?? ""),
          el("td", { "data-label": head[4], class: "amount", "data-cents": m.amount }, amount(m.amount)))))))
      : el("p", { class: "muted" }, t("staff_no_movements")));
}

$("cash-search").addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(search, 200); });
$("cash-search").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); search(); } });
$("cash-amount").addEventListener("input", () => fieldMsg("cash-amount-error", ""));
$("money-form").addEventListener("submit", (e) => { e.preventDefault(); ask("deposit"); });
$("btn-deposit").addEventListener("click", () => ask("deposit"));
$("btn-withdraw").addEventListener("click", () => ask("withdraw"));
$("btn-wallet").addEventListener("click", wallet);
$("cash-yes").addEventListener("click", move);
$("cash-no").addEventListener("click", () => { pending = null; $("cash-confirm").hidden = true; $("btn-deposit").focus(); });
await renderSession();
document.body.dataset.ready = "1";
