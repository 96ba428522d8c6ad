// The inspector: the ledger's invariants recomputed by the server, and each table's hash-chained log
// with the chain verified (GET /api/tables/{id}/log).
import { api, attempt, el, money, renderSession, t, when } from "./app.js";

const $ = (id) => document.getElementById(id);

async function ledger() {
  const out = await attempt(() => api("/api/ledger"));
  if (!out) return;
  $("ledger").replaceChildren(el("p", { id: "ledger-ok", "data-ok": String(out.ok) }, out.ok ? "✔ OK" : "✘ FAIL",
    ` · ${t("sum_zero")}: ${money(out.sum)}`),
  el("table", {}, el("tbody", {}, Object.entries(out.house_accounts || {}).map(([a, b]) => el("tr", {}, el("th", { scope: "row" }, a), el("td", {}, money(b)))))));
}

async function audit() {
  const table = $("audit-table").value;
  const out = await attempt(() => api(`/api/tables/${encodeURIComponent(table)}/log?limit=200`));
  if (!out) return;
  const chain = out.chain || {};
  $("chain").replaceChildren(el("p", { id: "chain-status", class: chain.ok ? "ok" : "bad", "data-ok": String(chain.ok) },
    chain.ok ? `✔ ${t("chain_ok")}` : `✘ ${t("chain_broken")}`, ` · ${chain.records ?? out.records.length} ${t("records")}`,
    // the stored head: noted by the inspector, it checks an export offline (`tapete audit verify --head HASH`)
    out.head ? el("span", {}, ` · ${t("log_head")} #${out.head.seq}: `,
      el("code", { class: "hash", id: "chain-head", title: "tapete audit verify --head" }, out.head.hash)) : null));
  $("audit").replaceChildren(el("table", { class: "audit" },
    el("thead", {}, el("tr", {}, ["#", t("time"), t("kind_col"), t("actor"), t("data"), t("prev_hash"), t("hash")].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, out.records.slice(-100).reverse().map((r) => el("tr", {},
      el("td", {}, String(r.seq)), el("td", {}, when(r.ts)), el("td", {}, r.kind), el("td", {}, r.actor ?? ""),
      el("td", { class: "data" }, JSON.stringify(r.data).slice(0, 160)),
      el("td", { class: "hash prev" }, String(r.prev_hash ?? "").slice(0, 16) + "…"),
      el("td", { class: "hash" }, String(r.hash).slice(0, 16) + "…"))))));
}

$("btn-audit").addEventListener("click", audit);
const me = await renderSession();
if (me) { await ledger(); await audit(); }
document.body.dataset.ready = "1";
