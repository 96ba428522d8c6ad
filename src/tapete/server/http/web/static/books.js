// The jornada's books per table (GET /api/jornada): the figures in euros, and the result against the theoretical
// win over the jornada as an SVG chart drawn here (no library). The chief sees the tables he works, the inspector all.
import { api, attempt, el, money, page, renderSession, when } from "./app.js";

const B = page.b;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const say = (text, params) => Object.entries(params).reduce((s, [k, v]) => s.replace(`{${k}}`, v), text);

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

function figures(b, heading) {
  const rows = [["opening_float", b.opening_float], ["fills", b.fills], ["credits", b.credits], ["drop", b.drop],
    ["closing_float", b.closing_float], ["win", b.win, true], ["cagnotte", b.cagnotte], ["result", b.result, true],
    ["tips", b.tips], ["handle", b.handle], ["theoretical", b.theoretical_win], ["sd", Math.round(b.theoretical_sd || 0)]];
  const hold = b.hold_pct === null || b.hold_pct === undefined ? B.no_bets : `${Number(b.hold_pct).toLocaleString(undefined, { maximumFractionDigits: 2 })} %`;
  return el("table", { class: "book-figures" },
    el("caption", { class: "sr-only" }, heading),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, B.figure), el("th", { scope: "col" }, B.amount))),
    el("tbody", {}, ...rows.map(([key, cents, total]) => el("tr", { class: total ? "total" : "" },
      el("th", { scope: "row" }, B[key]), el("td", { "data-figure": key }, money(cents)))),
    el("tr", {}, el("th", { scope: "row" }, B.hold), el("td", { "data-figure": "hold" }, hold))));
}

function chart(b, title) {
  const points = b.series || [];
  if (!points.length) return el("p", { class: "book-chart-empty" }, B.no_points);
  const W = 600, H = 240, L = 70, R = 12, T = 14, Bm = 30;
  const values = points.flatMap((p) => [p.actual, p.theoretical]).concat([0]);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi === lo) { hi += 100; lo -= 100; }
  const t0 = points[0].ts, t1 = points[points.length - 1].ts;
  const x = (i, ts) => L + (t1 > t0 ? (ts - t0) / (t1 - t0) : (points.length > 1 ? i / (points.length - 1) : 0.5)) * (W - L - R);
  const y = (v) => T + (hi - v) / (hi - lo) * (H - T - Bm);
  const line = (key) => points.map((p, i) => `${x(i, p.ts).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ");
  const node = svg("svg", { class: "book-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title });
  node.append(svg("title", {}, title),
    svg("line", { class: "axis", x1: L, x2: W - R, y1: y(0), y2: y(0) }),
    svg("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - Bm }),
    svg("text", { x: L - 6, y: y(hi) + 4, "text-anchor": "end" }, money(Math.round(hi))),
    svg("text", { x: L - 6, y: y(lo) + 4, "text-anchor": "end" }, money(Math.round(lo))),
    svg("text", { x: L, y: H - 8 }, when(t0)), svg("text", { x: W - R, y: H - 8, "text-anchor": "end" }, when(t1)),
    svg(points.length > 1 ? "polyline" : "circle", points.length > 1 ? { class: "expected", points: line("theoretical") }
      : { class: "expected", cx: x(0, t0), cy: y(points[0].theoretical), r: 4 }),
    svg(points.length > 1 ? "polyline" : "circle", points.length > 1 ? { class: "actual", points: line("actual") }
      : { class: "actual", cx: x(0, t0), cy: y(points[0].actual), r: 4 }));
  return el("figure", {}, node, el("figcaption", { class: "book-legend" },
    el("span", {}, el("span", { class: "swatch", "aria-hidden": "true" }), B.actual),
    el("span", {}, el("span", { class: "swatch expected", "aria-hidden": "true" }), B.expected)));
}

function deviation(b) {
  if (b.deviations === null || b.deviations === undefined) return B.no_sd;
  return say(B.deviations, { n: Number(b.deviations).toLocaleString(undefined, { maximumFractionDigits: 2 }) });
}

function book(b) {
  const status = b.status === "open" ? B.open : B.closed;
  const name = (page.tables.find((x) => x.id === b.table) || {}).name || b.table;
  const game = page.lang === "en" ? b.game_name_en : b.game_name_es;
  const heading = `${name} · ${game || b.game} · ${b.jurisdiction} · ${status}`;
  const opened = say(B.opened, { when: when(b.opened_at), who: b.opened_by || "—" })
    + (b.closed_at ? `, ${say(B.closed_at, { when: when(b.closed_at), who: b.closed_by || "—" })}` : "");
  return el("section", { class: "card book", "data-table": b.table, "aria-label": heading },
    el("h2", {}, heading),
    el("p", { class: "book-meta" }, opened, b.cloth_of ? ` · ${say(B.cloth, { id: b.cloth_of })}` : ""),
    figures(b, heading),
    el("p", { class: "book-deviation" }, deviation(b)),
    el("p", { class: b.reconciled ? "book-reconciled" : "book-reconciled bad" }, b.reconciled ? `✔ ${B.reconciled}` : `✘ ${B.not_reconciled}`),
    el("p", { class: "book-meta" }, `${B.bets}: ${b.bets} · ${B.strategy}: ${b.strategy}`),
    chart(b, `${B.chart} — ${name}`));
}

async function load(event) {
  if (event) event.preventDefault();
  const q = new URLSearchParams();
  if ($("books-table").value) q.set("table", $("books-table").value);
  if ($("books-from").value) q.set("from", $("books-from").value);
  if ($("books-to").value) q.set("to", $("books-to").value);
  const query = q.toString();
  const out = await attempt(() => api(`/api/jornada${query ? `?${query}` : ""}`));
  if (!out) return;
  $("books-guarantee").textContent = `${B.guarantee}: ${money(out.guarantee)}`;
  const cards = (out.jornadas || []).map(book);
  if (!cards.length) cards.push(el("p", { class: "card", id: "books-none" }, B.none));
  else cards.push(el("section", { class: "card book", id: "books-casino", "aria-label": B.casino },
    el("h2", {}, B.casino), figures(out.casino, B.casino), el("p", {}, deviation(out.casino))));
  $("books").replaceChildren(...cards);
}

$("books-filter").addEventListener("submit", load);
const me = await renderSession();
if (me) await load();
document.body.dataset.ready = "1";
