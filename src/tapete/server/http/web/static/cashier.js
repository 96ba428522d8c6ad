// The cage: chips in and out for a player's wallet, with the receipt of the ledger transaction, and the
// wallet's last movements.
import { api, attempt, el, money, renderSession, t, when } from "./app.js";

const $ = (id) => document.getElementById(id);

function body() {
  return { user: $("cash-user").value.trim(), amount: Math.round(Number($("cash-amount").value) * 100),
    ...($("cash-memo").value ? { memo: $("cash-memo").value } : {}) };
}

async function move(kind) {
  const b = body();
  const out = await attempt(() => api(`/api/cashier/${kind}`, { method: "POST", body: b }));
  if (!out) return;
  $("receipt").replaceChildren(el("dl", { class: "receipt", "data-kind": kind, id: "receipt-doc" },
    el("dt", {}, t("transaction")), el("dd", { id: "receipt-tx" }, String(out.tx)),
    el("dt", {}, t(kind)), el("dd", {}, money(out.amount)),
    el("dt", {}, t("player")), el("dd", {}, out.user),
    el("dt", {}, t("balance")), el("dd", { id: "receipt-balance" }, money(out.balance)),
    el("dt", {}, t("time")), el("dd", {}, when(Date.now() / 1000))));
  await wallet();
}

async function wallet() {
  const user = $("cash-user").value.trim();
  if (!user) return;
  const out = await attempt(() => api(`/api/wallets/${encodeURIComponent(user)}?limit=20`));
  if (!out) return;
  $("wallet").replaceChildren(el("p", {}, `${out.user}: `, el("strong", { id: "wallet-balance" }, money(out.balance))),
    el("table", {}, el("thead", {}, el("tr", {}, [t("transaction"), t("time"), t("movement"), t("table"), t("amount")].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, out.movements.map((m) => el("tr", {}, el("td", {}, String(m.tx_id)), el("td", {}, m.ts || m.at ? when(m.ts ?? m.at) : ""),
        el("td", { "data-kind": m.kind }, t(`move_${m.kind}`)), el("td", {}, m.table_id ?? ""),
        el("td", {}, money(m.amount)))))));
}

$("money-form").addEventListener("submit", (e) => { e.preventDefault(); move("deposit"); });
$("btn-withdraw").addEventListener("click", () => { if ($("money-form").reportValidity()) move("withdraw"); });
$("btn-wallet").addEventListener("click", wallet);
await renderSession();
document.body.dataset.ready = "1";
