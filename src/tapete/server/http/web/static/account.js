// The player's account (issue 31): his session, wallet statement, rounds with the fairness check in the browser
// (SHA-256 of the revealed seed against the commitment published before the round: WebCrypto, no second engine),
// his limits and self-exclusion. Every rule is the server's; this page shows and asks.
import { api, attempt, el, money, net, page, renderSession, say, showError, t } from "./app.js";

const $ = (id) => document.getElementById(id);

/** SHA-256 of the bytes a hex text spells, as hex (what server/tables/seeds.py `commitment` computes). */
export async function sha256OfHex(hex) {
  const bytes = new Uint8Array((hex.match(/../g) || []).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function limitText(kind, value) {
  if (value === null || value === undefined) return t("acct_limit_none");
  return kind === "session" ? say("acct_minutes", { minutes: value }) : money(value);
}

function renderSessionBox(care, balance) {
  $("acct-since").textContent = care.session.started
    ? `${care.session.started} (${say("acct_minutes", { minutes: care.session.minutes })})` : "—";
  $("acct-net").textContent = net(care.session.net);
  $("acct-balance").textContent = money(balance);
  const excluded = $("acct-excluded");
  excluded.hidden = !care.excluded;
  excluded.textContent = care.excluded_for_good ? t("acct_for_good")
    : say("acct_excluded_until", { when: care.excluded_until || "" });
}

function renderMoves(statement) {
  $("acct-zone").textContent = say("acct_times", { zone: statement.timezone });
  const list = $("acct-moves");
  if (!statement.movements.length) { list.replaceChildren(el("li", { class: "empty" }, t("acct_nothing"))); return; }
  list.replaceChildren(...statement.movements.map((m) => el("li", { class: "acct-move" },
    el("span", { class: "acct-when" }, m.when),
    el("span", { class: "acct-what" }, t(`acct_what_${m.what}`),
      m.table ? ` · ${m.table}` : "", m.round ? ` · ${say("acct_round_n", { number: m.round })}` : ""),
    el("span", { class: `acct-amount ${m.amount < 0 ? "minus" : "plus"}` }, net(m.amount)),
    el("span", { class: "acct-after" }, `${t("acct_after")}: ${money(m.balance)}`))));
}

async function check(round, out, button) {
  button.disabled = true;
  try {
    const record = await api(`/api/rounds/${round.id}`);
    const seed = record.seed;
    const shown = [el("div", { class: "acct-hash" }, el("span", { class: "rule" }, t("acct_commitment")), " ",
      el("code", {}, round.commitment || "—"))];
    if (!seed) {
      out.replaceChildren(...shown, el("p", { class: "acct-verdict wait" }, t("acct_check_wait")));
      return;
    }
    shown.push(el("div", { class: "acct-hash" }, el("span", { class: "rule" }, t("acct_seed")), " ", el("code", {}, seed)));
    if (!globalThis.crypto?.subtle) {
      out.replaceChildren(...shown, el("p", { class: "acct-verdict wait" }, t("acct_check_cannot")));
      return;
    }
    const ok = (await sha256OfHex(seed)) === round.commitment;
    const file = `round-${round.id}.json`;
    out.replaceChildren(...shown,
      el("p", { class: `acct-verdict ${ok ? "ok" : "bad"}`, "data-verdict": ok ? "ok" : "bad" },
        t(ok ? "acct_check_ok" : "acct_check_bad")),
      el("p", {}, t("acct_replay"), " ", el("code", { class: "acct-cmd" }, `tapete verify ${file}`)),
      el("a", { href: `/api/rounds/${round.id}`, download: file, class: "button secondary" }, t("acct_download")));
  } catch (err) {
    showError(err, out);
  } finally {
    button.disabled = false;
  }
}

function renderRounds(doc) {
  const list = $("acct-rounds");
  if (!doc.rounds.length) { list.replaceChildren(el("li", { class: "empty" }, t("acct_nothing"))); return; }
  list.replaceChildren(...doc.rounds.map((r) => {
    const out = el("div", { class: "acct-check", "aria-live": "polite" });
    const button = el("button", { type: "button", class: "secondary acct-check-button" }, t("acct_check"));
    button.addEventListener("click", () => check(r, out, button));
    return el("li", { class: "acct-round", dataset: { round: String(r.id) } },
      el("strong", {}, say("acct_round", { table: r.table, number: r.number })),
      el("span", { class: "acct-when" }, r.settled || r.opened),
      el("span", {}, `${t("acct_staked")}: ${money(r.staked)}`),
      el("span", {}, r.status === "settled" ? `${t("acct_returned")}: ${money(r.returned)} (${net(r.net)})` : t("acct_open")),
      el("div", { class: "acct-fair" }, el("span", {}, t("acct_fair")), button), out);
  }));
}

/** The player's complaints about rounds, in sentences (recorded, upheld, dismissed); the card only when he has one. */
function renderComplaints(doc) {
  const items = doc?.disputes || [];
  $("acct-complaints-card").hidden = !items.length;
  const key = { open: "acct_complaint_open", upheld: "acct_complaint_upheld", dismissed: "acct_complaint_dismissed" };
  $("acct-complaints").replaceChildren(...items.map((d) => el("li", { class: "acct-complaint", dataset: { status: d.status } },
    say(key[d.status] || "acct_complaint_open", { round: d.round, table: d.table, when: d.closed || d.recorded }),
    d.claim === null || d.claim === undefined ? "" : ` ${say("acct_complaint_claim", { claim: money(d.claim) })}`)));
}

function renderLimits(care) {
  $("acct-limits-note").textContent = say("acct_limits_note", { hours: care.raise_delay_h });
  const rows = ["deposit", "loss", "session"].map((kind) => {
    const limit = care.limits[kind];
    const id = `acct-limit-${kind}`;
    const input = el("input", { id, name: kind, type: "number", min: kind === "session" ? "5" : "1",
      step: kind === "session" ? "1" : "0.01", inputmode: "decimal" });
    const note = el("p", { class: "acct-limit-state", "aria-live": "polite" },
      say("acct_limit_now", { value: limitText(kind, limit.value) }),
      limit.pending ? ` · ${say("acct_limit_pending", { value: limitText(kind, limit.pending.value), when: limit.pending.from })}` : "");
    const send = (value) => attempt(async () => {
      await api("/api/me/limits", { method: "POST", body: { kind, value }, idem: false });
      await load();
      $(id)?.focus();
    });
    const save = el("button", { type: "submit" }, t("acct_limit_save"));
    const remove = el("button", { type: "button", class: "secondary", onclick: () => send(null) }, t("acct_limit_remove"));
    const form = el("form", { class: "acct-limit", dataset: { kind } },
      el("label", { for: id }, t(`acct_limit_${kind}`)), note, el("div", { class: "acct-limit-row" }, input, save, remove));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const raw = Number(String(input.value).replace(",", "."));
      if (!raw || raw <= 0) { input.focus(); return; }
      send(kind === "session" ? Math.round(raw) : Math.round(raw * 100));
    });
    return form;
  });
  $("acct-limits").replaceChildren(...rows);
}

function renderExclusion() {
  const select = $("acct-excl-days");
  if (select.options.length) return;
  for (const days of [7, 30, 90, 180]) select.append(el("option", { value: String(days) }, say("acct_days", { days })));
  select.append(el("option", { value: "365" }, t("acct_one_year")), el("option", { value: "" }, t("acct_for_good")));
  $("acct-exclusion").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!$("acct-excl-confirm").checked) { $("acct-excl-confirm").focus(); return; }
    const days = select.value ? Number(select.value) : null;
    attempt(async () => {
      await api("/api/me/exclusion", { method: "POST", body: { days, confirm: true }, idem: false });
      location.href = "/";
    });
  });
}

async function load() {
  const [care, statement, rounds, complaints] = await Promise.all([api("/api/me/care"), api("/api/me/statement"),
    api("/api/me/rounds"), api("/api/me/disputes").catch(() => null)]);
  renderSessionBox(care, statement.balance);
  renderMoves(statement);
  renderRounds(rounds);
  renderComplaints(complaints);
  renderLimits(care);
  renderExclusion();
}

const me = await renderSession();
if (me && me.roles.includes("player")) {
  $("acct").hidden = false;
  await attempt(load);
} else {
  $("acct-login").hidden = false;
}
document.body.dataset.ready = "1";
void page;
