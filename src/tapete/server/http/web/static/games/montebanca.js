// Monte o banca (003:6030-6270): the four layout cards on the cloth as the engine laid them (with the cards
// doubling them), the bets the engine offers now as spots on each card (Vista Hermosa, Camo, Anti, Viudo,
// Salto) and between neighbours (Cartas), each with its payout; the cards revealed, face up, once dealt (the
// shoe's undealt cards never reach the page); the coup's outcome in a sentence; my settlement in the one
// format (stake, returned, net). Every rule is the engine's: a bet it refuses comes back as its sentence.
import { el, kindLabel, money, net, say, t } from "../app.js";

const SINGLE = ["first-card", "next-suit", "previous-suit", "opposite-suit", "any-suit"];
const PAIRS = [[1, 2], [2, 1], [3, 4], [4, 3], [1, 3], [3, 1], [2, 4], [4, 2]];   // 003:6138-6143: neighbours
const FACING = { 1: 2, 2: 1, 3: 4, 4: 3 };
const SUITS = { o: "mb_suit_o", c: "mb_suit_c", e: "mb_suit_e", b: "mb_suit_b" };

let root = null;

const frac = (v) => {
  if (typeof v === "number") return v;
  const [n, d] = String(v ?? "0").split("/").map(Number);
  return d ? n / d : n || 0;
};
const value = (c) => parseInt(c, 10);

/** A Spanish card ("12o"): its value and suit in words, the suit's colour on the face. */
function mbCard(text) {
  const suit = text.slice(-1);
  const name = `${value(text)} ${t("mb_of")} ${t(SUITS[suit] || "")}`;
  return el("span", { class: `pcard mb-card suit-${suit}`, role: "img", "aria-label": name },
    el("strong", {}, String(value(text))), el("small", {}, t(SUITS[suit] || "")));
}

/** The payout now: the engine's figure ("11-d:1", "32-d-b:1") with the layout's doubling (d) and burned (b) cards
 * counted in; in Segundas the suit bets pay 5 to 1 (003:6134-6136). */
function pays(ctx, kind, lay) {
  const info = (ctx.page.kinds || []).find((k) => k.kind === kind);
  if (!info?.pays) return "";
  if (ctx.view?.phase === "segundas" && ["next-suit", "previous-suit", "opposite-suit"].includes(kind)) return "5:1";
  const d = lay ? lay.stacks.reduce((a, s) => a + s.length, 0) : 0;
  const b = lay ? lay.burned.length : 0;
  const [lhs, rhs] = info.pays.split(":");
  const n = lhs.split("-").reduce((acc, part, i) => {
    const v = part === "d" ? d : part === "b" ? b : Number(part);
    return i ? acc - v : v;
  }, 0);
  return `${n}:${rhs}`;
}

function spot(ctx, kind, on, label, text) {
  const b = el("button", { type: "button", class: `spot mb-spot kind-${kind}`, "data-kind": kind,
    "data-on": Array.isArray(on[0]) ? `${on[0][0]}v${on[1][0]}` : String(on[0]), "aria-label": label,
    onclick: () => ctx.bet([{ kind, amount: ctx.chip(), on }]) },
  el("span", { class: "spot-text" }, text), el("small", { class: "pays" }, ""), el("span", { class: "stake", "aria-hidden": "true" }));
  b.dataset.label = label;
  return b;
}

export function init(node, ctx) {
  root = node;
  root.append(
    el("p", { class: "pk-note", id: "mb-note", "aria-live": "polite" }),
    el("section", { class: "mb-revealed", "aria-label": t("mb_revealed") },
      el("h2", {}, t("mb_revealed")), el("div", { class: "cards", id: "mb-revealed" }),
      el("p", { id: "mb-outcome", role: "status" }),
      el("ul", { class: "plain settle-lines mb-settle", id: "mb-settle" })),
    el("section", { class: "mb-layout", id: "mb-layout", "aria-label": t("mb_layout") },
      el("h2", {}, t("mb_layout")),
      el("div", { class: "mb-grid" }, [1, 2, 3, 4].map((p) => el("div", { class: "mb-pos", "data-pos": p },
        el("h3", {}, say("mb_position", { n: p })),
        el("div", { class: "cards mb-cards" }),
        el("div", { class: "mb-spots", role: "group", "aria-label": say("mb_position", { n: p }) },
          SINGLE.map((k) => spot(ctx, k, [p], `${kindLabel(k)} — ${say("mb_position", { n: p })}`, kindLabel(k)))))))),
    el("section", { class: "mb-versus", "aria-label": kindLabel("versus") },
      el("h2", {}, kindLabel("versus")), el("p", { class: "help" }, t("mb_versus_help")),
      el("div", { class: "mb-spots", role: "group", "aria-label": kindLabel("versus") },
        PAIRS.map(([p, q]) => spot(ctx, "versus", [[p], [q]], say("mb_versus", { p, q }), say("mb_versus", { p, q }))))));
}

function onText(b) {
  return b.kind === "versus" ? say("mb_versus", { p: b.on[0].join("+"), q: b.on[1].join("+") }) : say("mb_position", { n: b.on[0] });
}

export function update(ctx) {
  const v = ctx.view || {};
  const lay = v.layout && Array.isArray(v.layout.cards) ? v.layout : null;
  const me = ctx.me?.user;
  const settled = ctx.summary.phase === "settled";
  const offered = new Set((ctx.actions.bets || []).map((k) => k.kind));
  const inPlay = new Set(v.in_play || [1, 2, 3, 4]);
  for (const node of root.querySelectorAll(".mb-pos")) {
    const p = Number(node.dataset.pos);
    const cards = lay ? [lay.cards[p - 1], ...(lay.stacks[p - 1] || [])] : [];
    node.querySelector(".mb-cards").replaceChildren(...(cards.length ? cards.map(mbCard) : [el("span", { class: "muted" }, t("pk_not_dealt"))]));
    node.classList.toggle("out", !inPlay.has(p));
  }
  const open = (v.bets || []).filter((b) => b.player === me && b.state === "open");
  for (const s of root.querySelectorAll(".mb-spot")) {
    const cents = open.filter((b) => b.kind === s.dataset.kind && (b.kind === "versus"
      ? `${b.on[0][0]}v${b.on[1][0]}` : String(b.on[0])) === s.dataset.on).reduce((a, b) => a + b.amount, 0);
    const rate = pays(ctx, s.dataset.kind, lay);
    s.querySelector(".pays").textContent = rate;
    s.querySelector(".stake").textContent = cents ? money(cents) : "";
    s.classList.toggle("has-stake", cents > 0);
    const live = offered.has(s.dataset.kind) && lay !== null;
    s.setAttribute("aria-disabled", String(!live));
    s.setAttribute("aria-label", `${s.dataset.label}, ${t("pays")} ${rate}${cents ? ` — ${money(cents)}` : ""}`);
  }
  const shown = v.revealed || [];
  root.querySelector("#mb-revealed").replaceChildren(...(shown.length ? shown.map(mbCard) : [el("span", { class: "muted" }, t("pk_not_dealt"))]));
  const last = shown.at(-1);
  const won = lay && last ? [1, 2, 3, 4].find((p) => value(lay.cards[p - 1]) === value(last)) : null;
  root.querySelector("#mb-outcome").textContent = won ? say("mb_outcome", { won, lost: FACING[won], card: mbCard(last).getAttribute("aria-label") }) : "";
  const mine = (v.bets || []).filter((b) => b.player === me && b.state !== "open");
  const latest = Math.max(0, ...mine.map((b) => b.coup));
  const lines = settled ? mine.filter((b) => b.coup === latest)
    .map((b) => {
      const returned = frac(b.returned);
      return { on: onText(b), net: returned - b.amount, text: say("settle_line", { bet: kindLabel(b.kind),
        staked: money(b.amount), returned: money(returned), net: net(returned - b.amount) }) };
    }) : [];
  root.querySelector("#mb-settle").replaceChildren(...lines.map((l) => el("li", { "data-net": l.net,
    class: l.net > 0 ? "won" : l.net < 0 ? "lost" : "push" }, `${l.on} · ${l.text}`)));
  const key = ctx.summary.phase === "betting" ? (v.phase === "segundas" ? "mb_note_segundas" : "mb_note_bet") : settled ? "pk_note_over" : "";
  root.querySelector("#mb-note").textContent = key ? t(key) : "";
}
