// What the staff pages share: times on the casino's clock (its zone shown), wall times of the casino's zone
// turned into instants for the filters, and the audit records told in sentences (the raw record one click away).
import { el, kindLabel, money, net, page, say, t, verbText } from "./app.js";
import { outcomeText, spotText } from "./feed.js";

const LOCALE = { es: "es-ES", en: "en-GB", gl: "gl-ES", ca: "ca-ES" }[page.lang] || "es-ES";
const ZONE = page.timezone || "Europe/Madrid";

/** A time (seconds since the epoch) on the casino's clock, with its zone: "29/11/2026, 10:04:05 CET". */
export function casinoTime(seconds, withDate = true) {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return "";
  return new Intl.DateTimeFormat(LOCALE, { timeZone: ZONE, ...(withDate ? { dateStyle: "short" } : {}), timeStyle: "medium" })
    .format(d) + ` ${zoneName(d)}`;
}

function zoneName(d) {
  const part = new Intl.DateTimeFormat(LOCALE, { timeZone: ZONE, timeZoneName: "short" }).formatToParts(d)
    .find((p) => p.type === "timeZoneName");
  return part ? part.value : ZONE;
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(ms) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-GB", { timeZone: ZONE, hourCycle: "h23", year: "numeric",
    month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(ms))
    .map((p) => [p.type, p.value]));
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** A wall time typed in a datetime-local field ("2026-11-29T22:30"), read on the casino's clock: seconds since
 * the epoch; null when empty or malformed. */
export function casinoInstant(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(text || "");
  if (!m) return null;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  let ms = wall - offsetAt(wall);
  ms = wall - offsetAt(ms);             // twice: right across a change of summer time
  return ms / 1000;
}

/** The casino's clock in a node, ticking. */
export function tickClock(node) {
  if (!node) return;
  const draw = () => { node.textContent = say("staff_now", { time: casinoTime(Date.now() / 1000, false) }); };
  draw();
  setInterval(draw, 1000);
}

/** A signed amount that never breaks after its sign (a word joiner holds "−" to "€5.00" at any width). */
export const signed = (cents) => net(cents).replace("\u2212", "\u2212\u2060");
/** An amount of a sentence: a negative one keeps its minus on its line. */
export const amount = (cents) => money(cents).replace(/^-/, "\u2212\u2060").replace(/^([^\d\u2212-]*)-/, "$1\u2212\u2060");

/** An amount typed in euros ("25", "25.5", "25,50", "1.250,50"), 0 or more: its cents; null when it is not one. */
export function euroCents(text) {
  const s = String(text || "").trim().replace(/\s/g, "");
  const m = /^(\d{1,3}(?:[.,]\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const cents = Number(m[1].replace(/[.,]/g, "")) * 100 + Number((m[2] || "0").padEnd(2, "0"));
  return Number.isSafeInteger(cents) && cents <= 1e11 ? cents : null;
}

const who = (actor) => actor || t("staff_system");
const tableName = (id) => (page.names || {})[id] || id || "";

function settledSums(data) {
  let staked = 0;
  let returned = 0;
  for (const b of Object.values(data.bets || {})) { staked += b.staked ?? 0; returned += b.returned ?? 0; }
  return { staked, returned, n: Object.keys(data.bets || {}).length };
}

/** A record of a table's log as a sentence. */
export function tableSentence(rec) {
  if (rec.folded) {
    return say("aud_folded", { from: rec.rounds[0], to: rec.rounds[1], n: rec.records });
  }
  const d = rec.data || {};
  const ev = d.event || {};
  const round = d.round ?? "";
  switch (rec.kind) {
    case "table": return say("aud_table", { jurisdiction: d.jurisdiction ?? "", float: money(d.float) });
    case "recovered": return say("aud_recovered", { was: t(`phase_${d.was}`) });
    case "open": return say("aud_open", { round, who: who(rec.actor) });
    case "bet": {
      const b = ev.bet || {};
      return say("aud_bet", { player: b.player ?? d.player ?? "", amount: money(b.amount), bet: `${kindLabel(b.kind || "")}${spotText(b.on)}`, round });
    }
    case "act": return say("aud_act", { who: who(rec.actor), verb: verbText(ev.act?.do ?? ""), round });
    case "close": return say("aud_close", { round, who: who(rec.actor) });
    case "phase": return say("aud_phase", { round, phase: t(`phase_${d.phase}`) });
    case "outcome": return say(d.source === "rng" ? "aud_outcome_rng" : "aud_outcome_keyed", { round, value: outcomeText(ev), who: who(rec.actor) });
    case "confirm": return say("aud_confirm", { round, who: who(rec.actor) });
    case "correct": return say("aud_correct", { round, who: who(rec.actor), value: outcomeText(ev), was: outcomeText(d.was), reason: d.reason || t("staff_no_reason") });
    case "void": return say("aud_void", { round, who: who(rec.actor), reason: typeof ev.void === "string" ? ev.void : t("staff_no_reason") });
    case "hand-back": return say("aud_hand_back", { round, reason: d.reason ?? "" });
    case "no-outcome": return say("aud_no_outcome", { round });
    case "settlement": {
      const s = settledSums(d);
      return say("aud_settlement", { round, n: s.n, staked: money(s.staked), returned: money(s.returned), house: signed(d.house?.net ?? (s.staked - s.returned)) });
    }
    case "limits": case "limits-announced": return say("aud_limits", { round, who: who(rec.actor) });
    case "limits-in-force": return say("aud_limits_in_force", { round });
    case "deal": return say("aud_deal", { round });
    case "acting": return say("aud_acting", { round });
    case "timeout": return say("aud_timeout", { round });
    case "shoe": return t(d.event === "end" ? "aud_shoe_end" : "aud_shoe_new");
    case "sit": return say("aud_sit", { player: rec.actor ?? d.player ?? "", seat: d.seat ?? "" });
    case "leave": return say("aud_leave", { player: rec.actor ?? d.player ?? "", seat: d.seat ?? "" });
    case "dispute": return [say("aud_dispute", { round, who: who(rec.actor), player: d.player || t("staff_floor"), reason: d.reason ?? "" }),
      claimed(d)].filter(Boolean).join(" ");
    case "dispute-close": return say(d.outcome === "upheld" ? "aud_dispute_close_upheld" : "aud_dispute_close_dismissed",
      { round, who: who(rec.actor), note: d.note ?? "" });
    default: return say("aud_other", { kind: rec.kind, round });
  }
}

const claimed = (d) => (d.claim === undefined || d.claim === null ? "" : say("slog_claim", { claim: amount(d.claim) }));

/** A dispute of the staff log: who took it, from whom (or the floor), about which round and why, the claim in
 * euros, and how it stands (still open, or upheld or dismissed by whom, when, with the note). */
function disputeSentence(rec, p) {
  const d = rec.data || {};
  const c = rec.closed;
  const standing = c ? say(c.outcome === "upheld" ? "slog_dispute_upheld" : "slog_dispute_dismissed",
    { by: who(c.by), when: casinoTime(c.at), note: c.note ?? "" }) : (rec.status === "open" ? t("slog_dispute_open") : "");
  return [say("slog_dispute", { ...p, player: d.player || t("staff_floor") }), claimed(d), standing].filter(Boolean).join(" ");
}

/** A record of the staff log as a sentence. */
export function staffSentence(rec) {
  const d = rec.data || {};
  const p = { who: who(rec.actor), subject: rec.subject ?? "", table: tableName(rec.subject), amount: money(d.amount), round: d.round ?? "",
    reason: d.reason || t("staff_no_reason"), value: outcomeText(d.value), was: outcomeText(d.was),
    roles: (d.roles || []).map((r) => t(`role_${r}`)).join(", ") };
  if ((rec.action ?? rec.kind) === "dispute") return disputeSentence(rec, p);
  if ((rec.action ?? rec.kind) === "dispute-close") {
    return say(d.outcome === "upheld" ? "slog_dispute_close_upheld" : "slog_dispute_close_dismissed", { ...p, note: d.note ?? "" });
  }
  const key = { deposit: "slog_deposit", withdraw: "slog_withdraw", fill: "slog_fill", credit: "slog_credit",
    void: "slog_void", correct: "slog_correct", limits: "slog_limits",
    "account-created": "slog_account_created", "roles-granted": "slog_roles", "password-set": "slog_password",
    "account-disabled": "slog_disabled" }[rec.action ?? rec.kind];
  return key ? say(key, p) : say("slog_other", { ...p, action: rec.action ?? rec.kind });
}

/** One line of a log: the time on the casino's clock, the sentence, and the raw record behind a toggle. */
export function logLine(rec, sentence) {
  const raw = rec.folded ? null : el("details", { class: "raw" }, el("summary", {}, t("staff_raw")),
    el("pre", { tabindex: "0", "aria-label": t("staff_raw") }, JSON.stringify(rec, null, 2)));
  const ts = rec.folded ? rec.ts[0] : rec.ts;
  return el("li", { "data-kind": rec.kind, "data-seq": rec.folded ? `${rec.seq[0]}-${rec.seq[1]}` : rec.seq, class: rec.folded ? "folded" : "" },
    el("time", {}, casinoTime(ts)), " ", el("span", { class: "sentence" }, sentence), raw ? " " : null, raw);
}

/** The staff pages' two-step confirmation (templates/_dialogs.html: two_step_dialog), its parts named
 * `${prefix}-…`: opened on step one with `first` focused; Continue runs `next()`, which checks step one (its
 * messages by the fields) and writes the summary, and only when it answers true the second step shows, its danger
 * button focused; Back returns to step one with `back` focused; the danger button closes the dialog and then runs
 * `yes()`; Cancel or Escape closes it with nothing sent. Closed, the focus goes back to `control` (still on the page). */
export function twoStepDialog(prefix, { control, first, back, next, yes }) {
  const part = (name) => document.getElementById(`${prefix}-${name}`);
  const dialog = part("dialog");
  const step = (n) => { part("step-1").hidden = n !== 1; part("step-2").hidden = n !== 2; };
  step(1);
  const onNext = () => {
    if (!next()) return;
    step(2);
    part("yes").focus();
  };
  const onYes = () => { close(); return yes(); };
  const onBack = () => { step(1); back.focus(); };
  const wires = [["next", onNext], ["yes", onYes], ["back", onBack], ["cancel", () => close()]];
  function close() {
    for (const [name, fn] of wires) part(name).removeEventListener("click", fn);
    if (dialog.open) dialog.close();
    if (control?.isConnected) control.focus();
  }
  for (const [name, fn] of wires) part(name).addEventListener("click", fn);
  dialog.addEventListener("close", close, { once: true });
  dialog.showModal();
  first.focus();
}
