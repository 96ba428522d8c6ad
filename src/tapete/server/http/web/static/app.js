// Shared helpers of every page: page data, strings, the API with its error documents, the session,
// money, chips and the table's live stream. No framework, no build step.

export const page = JSON.parse(document.getElementById("page-data").textContent);
export const T = page.t;
export const t = (key) => T[key] ?? key;

// The session lives in an HttpOnly cookie that no script reads (not localStorage): a script injected into a
// page cannot carry it away. State-changing calls repeat the readable CSRF cookie in X-CSRF-Token.
const CSRF = "tapete_csrf";
function cookie(name) {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}
export const session = {
  get active() { return cookie(CSRF) !== null; },   // a session cookie was set with it (maybe expired)
  me: null,
};

export function uuid() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
}

/** Call the JSON API. Money-moving calls get an Idempotency-Key. Throws the server's error document. */
export async function api(path, { method = "GET", body, idem = method === "POST" } = {}) {
  const headers = { "content-type": "application/json" };
  if (method !== "GET" && cookie(CSRF)) headers["x-csrf-token"] = cookie(CSRF);
  if (idem) headers["idempotency-key"] = uuid();
  const res = await fetch(path, { method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body) });
  const doc = await res.json().catch(() => ({ error: { code: `http-${res.status}`, message: res.statusText } }));
  if (!res.ok) {
    const err = new Error(doc?.error?.message ?? res.statusText);
    err.doc = doc;
    err.status = res.status;
    if (res.status === 401) session.me = null;
    throw err;
  }
  return doc;
}

export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style") node.style.cssText = v;    // CSSOM, which the pages' CSP (style-src 'self') allows
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
};

export const LOCALE = { es: "es-ES", en: "en-GB", gl: "gl-ES", ca: "ca-ES" }[page.lang] || "es-ES";

/** Cents in euros in the page language's format (es `1.234,50 €`, en `€1,234.50`). */
export function money(cents) {
  if (cents === null || cents === undefined) return "—";
  return new Intl.NumberFormat(LOCALE, { style: "currency", currency: page.currency || "EUR", useGrouping: "always" })
    .format(cents / 100);
}

/** Whole euros without the cents (a chip's face: `€10`, `10 €`). */
export function moneyShort(cents) {
  if (cents % 100) return money(cents);
  return new Intl.NumberFormat(LOCALE, { style: "currency", currency: page.currency || "EUR", maximumFractionDigits: 0,
    minimumFractionDigits: 0, useGrouping: "always" }).format(cents / 100);
}

/** A signed result: +€40.00 / −€5.00 (a true minus sign), ±0 as the plain amount. */
export function net(cents) {
  if (!cents) return money(0);
  return `${cents > 0 ? "+" : "\u2212"}${money(Math.abs(cents))}`;
}

/** A date and time (seconds since the epoch, or an ISO text) in the page language's format. */
export function when(value) {
  const d = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value ?? "");
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: "short", timeStyle: "medium" }).format(d);
}

/** A count with its word in the page language's plural form: plural("seconds_left", 1) -> "1 segundo"
 * (keys KEY_one, KEY_other, … after Intl.PluralRules; KEY itself where the language has no such key). */
export function plural(key, n) {
  const form = new Intl.PluralRules(LOCALE).select(n);
  return `${n} ${T[`${key}_${form}`] ?? T[`${key}_other`] ?? t(key)}`;
}

/** A catalog sentence with its {placeholders} filled. */
export function say(key, params = {}) {
  return t(key).replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}

export function fillMoney(root = document) {
  for (const node of root.querySelectorAll(".money[data-cents]")) node.textContent = money(Number(node.dataset.cents));
}

/** An error code as a sentence of the page's language (the catalog's, else a plain fallback). */
export function errorText(code) {
  return (page.errors || {})[code] ?? T[`err_${code}`] ?? t("err_other");
}

/** Show the server's error document as a sentence; its code, message and legal reference once, behind a
 * "details" toggle. `where` (an element) puts it next to the control that was refused, as well as in the
 * page's alert region when none is given. */
export function showError(err, where = null) {
  const e = err?.doc?.error ?? { code: "error", message: String(err?.message ?? err) };
  const details = el("details", { class: "error-details" }, el("summary", {}, t("details")),
    el("span", { class: "code" }, e.code), " — ", String(e.message || "").replace(/\s*\(\d{3}:[\d-]+\)/g, ""),
    e.source ? el("small", { class: "source" }, ` (${t("legal_ref")}: ${e.source})`) : null);
  const doc = el("div", { class: "error-doc", "data-code": e.code }, el("strong", {}, `${errorText(e.code)}`), " ", details);
  if (where) {
    where.replaceChildren(doc);
    return;
  }
  const box = document.getElementById("errors");
  doc.append(el("button", { type: "button", class: "link", "aria-label": t("dismiss"), onclick: () => box.replaceChildren() }, "×"));
  box.replaceChildren(doc);
}

export function clearError() { document.getElementById("errors").replaceChildren(); }

/** Run an action, showing its error document on failure; returns the result or undefined. */
export async function attempt(fn) {
  try {
    const out = await fn();
    clearError();
    return out;
  } catch (err) {
    showError(err);
    return undefined;
  }
}

/** The header's session box: who is logged in, their balance, log out. */
export async function renderSession() {
  const box = document.getElementById("session");
  if (session.active) {
    try {
      session.me = await api("/api/me");
    } catch {
      session.me = null;
    }
  }
  if (!session.me) {
    box.replaceChildren(el("span", {}, t("not_logged")), " ",
      el("a", { href: `/login?next=${encodeURIComponent(location.pathname)}`, class: "button" }, t("login")));
    return null;
  }
  const me = session.me;
  box.replaceChildren(...[
    el("span", {}, `${t("logged_as")} `, el("strong", { id: "me-user" }, me.display_name || me.user),
      ` (${me.roles.map((r) => t(`role_${r}`)).join(", ")})`),
    me.balance !== undefined ? el("span", { class: "balance" }, ` · ${t("balance")}: `,
      el("strong", { id: "balance", "data-cents": me.balance }, money(me.balance))) : null, " ",
    el("button", { type: "button", class: "secondary", id: "logout", onclick: logout }, t("logout"))].filter(Boolean));
  for (const link of document.querySelectorAll(".staff[data-roles]")) {
    link.hidden = !link.dataset.roles.split(" ").some((r) => me.roles.includes(r));
  }
  if (me.balance !== undefined && !balanceTimer) {     // the header balance follows the cashier's deposits
    balanceTimer = setInterval(async () => {
      if (document.hidden || !session.me) return;
      try { setBalance((await api("/api/me")).balance); } catch { /* logged out */ }
    }, 4000);
  }
  return me;
}

let balanceTimer = null;

async function logout() {
  try { await api("/api/logout", { method: "POST", idem: false }); } catch { /* gone already */ }
  session.me = null;
  location.href = "/";
}

export function setBalance(cents) {
  const node = document.getElementById("balance");
  if (node && cents !== undefined && cents !== null) { node.dataset.cents = cents; node.textContent = money(cents); }
}

/** The table's WebSocket: every committed record; reconnects after a drop. */
export function stream(tableId, onRecord) {
  let stopped = false;
  const connect = () => {
    if (!session.me || stopped) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // the session cookie goes with the handshake (same site); the server checks its Origin
    const ws = new WebSocket(`${proto}://${location.host}/api/tables/${tableId}/stream`);
    ws.onmessage = (m) => { try { onRecord(JSON.parse(m.data)); } catch { /* pong */ } };
    // 4401: the session has ended, 4403/4404: refused for good; anything else: reconnect
    ws.onclose = (e) => { if (!stopped && ![4401, 4403, 4404].includes(e.code)) setTimeout(connect, 1500); };
    const ping = setInterval(() => ws.readyState === 1 ? ws.send("ping") : null, 20000);
    ws.addEventListener("close", () => clearInterval(ping));
  };
  connect();
  return () => { stopped = true; };
}

/** Chip values of a table: 1, 2, 5, 10, 25, 50, 100 x the minimum, up to the maximum. */
export function chipValues(minimum, maximum) {
  const out = [1, 2, 5, 10, 25, 50, 100].map((m) => m * minimum);
  return out.filter((v) => !maximum || v <= maximum);
}

/** Radio-group chips; returns a getter of the chosen value. Arrow keys move the choice. */
export function chipRack(container, values) {
  let chosen = values[0];
  const buttons = values.map((v, i) => el("button", {
    type: "button", role: "radio", class: `chip chip-${i}`, "aria-checked": i === 0 ? "true" : "false",
    "aria-label": `${t("chip")} ${money(v)}`, tabindex: i === 0 ? "0" : "-1", "data-value": v,
    onclick: () => pick(i),
    onkeydown: (e) => {
      const d = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (d) { e.preventDefault(); pick((i + d + values.length) % values.length, true); }
    },
  }, moneyShort(v)));
  function pick(i, focus = false) {
    chosen = values[i];
    buttons.forEach((b, j) => { b.setAttribute("aria-checked", String(i === j)); b.tabIndex = i === j ? 0 : -1; });
    if (focus) buttons[i].focus();
  }
  container.replaceChildren(...buttons);
  return () => chosen;
}

export const phaseText = (phase) => t(`phase_${phase}`);

/** A card as the engine writes it ("8S", "TD", "12o"): a small face with suit colour. */
export function card(text) {
  if (text === "??") return el("span", { class: "pcard back", role: "img", "aria-label": t("card_face_down") });   // dealt face down
  if (/^X\d+$/.test(text)) return el("span", { class: "pcard joker", role: "img", "aria-label": t("pk_joker") }, t("pk_joker"));
  const suit = text.slice(-1);
  const sym = { S: "♠", H: "♥", D: "♦", C: "♣" }[suit];
  const rank = sym ? text.slice(0, -1).replace("T", "10") : text;
  return el("span", { class: `pcard ${suit === "H" || suit === "D" ? "red" : ""}`, role: "img", "aria-label": cardText(text) },
    rank, sym ?? "");
}

/** A card as text for a sentence: "QH" -> "Q♥", "TD" -> "10♦" (never the engine's code). */
export function cardText(text) {
  const sym = { S: "♠", H: "♥", D: "♦", C: "♣" }[String(text).slice(-1)];
  return sym ? `${String(text).slice(0, -1).replace("T", "10")}${sym}` : String(text);
}

/** The engine's own narration of the coup: written in Spanish, so shown on the Spanish page only. */
export function engineLog(node, lines, n = 5) {
  if (!node) return;
  // its card codes ("TD", "8S") written as the cards are printed: 10♦, 8♠
  const cards = (l) => String(l).replace(/\b(10|[2-9TJQKA])([SHDC])\b/g, (m) => cardText(m));
  node.replaceChildren(...(page.lang === "es" ? (lines || []).slice(-n).map((l) => el("p", {}, cards(l))) : []));
}

/** A bet kind's help: the engine's description is "Spanish name: English explanation"; each page shows
 * its half (the explanation in English, the name elsewhere), with the payout. */
export function kindHelp(info) {
  if (!info?.description) return "";
  const [head, ...rest] = info.description.split(": ");
  const text = T[`kind_${page.table?.game}_${info.kind}`] ?? T[`kind_${info.kind}`] ?? (page.lang === "en" ? (rest.join(": ") || head) : head);
  const pays = page.spot_pays?.[info.kind] ?? (/^\d+:\d+$/.test(info.pays || "") ? info.pays : null);
  return `${text}${pays ? ` — ${t("pays")} ${pays}` : ""}`;
}

export function verbText(verb) { return T[`verb_${verb}`] ?? verb; }

/** A bet kind's name: the catalog's own word (before the colon of the engine's description) on a page in a
 * language of Spain, the engine's kind id in English. */
export function kindLabel(kind) {
  const own = T[`kind_${page.table?.game}_${kind}`] ?? T[`kind_${kind}`];   // this game's own name for the bet, else the kind's
  if (own) return own;
  const info = (page.kinds || []).find((k) => k.kind === kind);
  if (page.lang !== "en" && info?.description) {        // the catalogs' Spanish name, nearer than the English id
    const head = info.description.split(/[:(]/)[0].trim();
    if (head && head.length < 40) return head;
  }
  return kind.replaceAll("-", " ");
}

/** Sum of my open bets by kind and target (a key "kind|on"), for chip markers on a layout. */
export function stakesBySpot(openBets) {
  const out = new Map();
  for (const b of openBets) {
    const key = spotKey(b.kind, b.on);
    out.set(key, (out.get(key) || 0) + (b.staked || b.amount || 0));    // a doubled box shows its doubled stake
  }
  return out;
}

export function spotKey(kind, on) {
  const target = on === null || on === undefined ? "" : [].concat(on).map(String).sort().join(",");
  return `${kind}|${target}`;
}

/** A bet spot: a button that places `amount` of the chosen chip on kind/target when betting is open. */
export function spotButton(ctx, { kind, on = null, label, cls = "", style = "", extra, text = "" }) {
  const b = el("button", {
    type: "button", class: `spot ${cls}`, style, "aria-label": label, title: label,
    "data-kind": kind, "data-on": on === null ? "" : [].concat(on).join("-"), "data-key": spotKey(kind, on),
    onclick: () => ctx.bet([{ kind, amount: ctx.chip(), ...(on === null ? {} : { on }), ...(extra ? { extra } : {}) }]),
  }, el("span", { class: "spot-text" }, text), el("span", { class: "stake", "aria-hidden": "true" }));
  b.dataset.label = label;
  return b;
}

/** Mark my stakes on the spots and enable only what the engine allows now. */
export function markSpots(root, ctx) {
  const stakes = stakesBySpot(ctx.openBets);
  const open = new Set((ctx.actions.bets || []).flatMap((k) => (k.targets?.length ? k.targets : [null]).map((tg) => spotKey(k.kind, tg))));
  // a bet the zero has caught (en prisión, or its choice due): marked as such on its spot
  const held = new Set((ctx.view?.bets || []).filter((v) => ["prison", "choice"].includes(v.phase))
    .map((v) => ctx.openBets.find((o) => o.id === v.id)).filter(Boolean).map((o) => spotKey(o.kind, o.on)));
  for (const b of root.querySelectorAll(".spot")) {
    const placed = stakes.get(b.dataset.key);
    b.classList.toggle("prison", held.has(b.dataset.key));
    b.querySelector(".stake").textContent = placed ? money(placed) : "";
    b.classList.toggle("has-stake", Boolean(placed));
    b.setAttribute("aria-label", placed ? `${b.dataset.label} — ${money(placed)}${held.has(b.dataset.key) ? ` (${t("in_prison")})` : ""}`
      : b.dataset.label);
    b.setAttribute("aria-disabled", String(!open.has(b.dataset.key)));
  }
}
