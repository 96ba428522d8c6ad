// Circle poker (hold'em, Omaha, stud, draw, sintético): the ten seats round the table with their players and
// stacks, a free seat to take with a buy-in from the wallet, the hand in play (my hole cards, everybody else's
// face down, the board, the pot), my decisions with the amounts the engine allows, and the last hand's
// showdown (the cards shown, who won what). Every rule is the engine's; the page only asks and shows.
import { api, attempt, card, el, money, net, say, setBalance, t, verbText } from "../app.js";

/** A seated player as the table names them: "You", their display name, or their seat (never a login name). */
const seatName = (ctx, player, seat, name) => (player === ctx.me?.user ? t("you") : name || say("seat_n", { n: seat }));

let root = null;

export const recent = 1;

export function init(node, ctx) {
  root = node;
  root.append(
    el("div", { class: "circle-seats", id: "circle-seats", role: "list", "aria-label": t("seat") }),
    el("div", { class: "circle-center" },
      el("div", { class: "circle-board" }, el("h3", {}, t("board")), el("div", { class: "cards", id: "board" })),
      el("div", {}, el("p", { class: "circle-pot" }, `${t("pot")}: `, el("strong", { id: "pot", "data-cents": 0 }, money(0))),
        el("ul", { class: "plain pots", id: "pots" }))),
    el("div", { class: "circle-me", id: "circle-me" }),
    el("section", { class: "showdown", id: "showdown", "aria-live": "polite", "aria-label": t("last_hand") }));
}

const seating = (ctx) => ctx.summary.circle || { seats: [], free: [], buy_in: {}, button: null };
const myName = (ctx) => ctx.me?.user;
const liveHand = (ctx) => (ctx.view?.hand && ctx.view.hand.phase !== "over" ? ctx.view.hand : null);

/** The last finished hand: the live state's if it is over, else the last settled coup's. */
function lastHand(ctx) {
  if (ctx.view?.hand?.phase === "over") return ctx.view;
  const past = ctx.recent?.[0];
  return past?.hand?.phase === "over" ? past : null;
}

function renderSeats(ctx) {
  const c = seating(ctx);
  const me = myName(ctx);
  const hand = liveHand(ctx);
  const inHand = {};
  (hand?.betting?.seats || []).forEach((s, i) => { inHand[s.player] = { ...s, holes: hand.holes?.[i] || [] }; });
  const seated = Object.fromEntries(c.seats.map((s) => [s.seat, s]));
  const mine = c.seats.find((s) => s.player === me);
  const canSit = Boolean(me) && !mine && (ctx.me?.roles || []).includes("player");
  const nodes = [];
  for (let n = 1; n <= 10; n++) {
    const s = seated[n];
    if (!s) {
      const free = c.free.includes(n);
      nodes.push(el("div", { class: "seat free", role: "listitem", "data-seat": n },
        el("span", { class: "seat-no" }, `${t("seat")} ${n}`),
        canSit && free ? el("button", { type: "button", class: "sit", "data-seat": n, "aria-label": `${t("sit_at")} ${n}`,
          onclick: () => sit(ctx, n) }, t("sit_here")) : el("span", { class: "muted" }, t("seat_free"))));
      continue;
    }
    const h = inHand[s.player];
    const turn = hand && h && hand.betting.to_act !== null && hand.betting.seats[hand.betting.to_act]?.player === s.player;
    nodes.push(el("div", {
      class: `seat taken${s.player === me ? " mine" : ""}${h ? ` in-hand state-${h.state}` : ""}${turn ? " to-act" : ""}`,
      role: "listitem", "data-seat": n, "data-player": s.player,
    },
    el("span", { class: "seat-no" }, `${t("seat")} ${n}`),
    c.button === n ? el("span", { class: "marca", title: t("marca") }, ` ● ${t("marca")}`) : null,
    el("strong", { class: "seat-player" }, seatName(ctx, s.player, n, s.display_name)),
    el("span", { class: "seat-stack", "data-cents": s.stack }, `${t("stack")}: ${money(s.stack)}`),
    h ? el("span", { class: "seat-bet", "data-cents": h.total }, `${t("in_pot")}: ${money(h.total)}${h.state === "folded" ? ` · ${t("folded")}` : ""}`) : null,
    h ? el("div", { class: "cards hole" }, h.holes.map(card)) : null));
  }
  root.querySelector("#circle-seats").replaceChildren(...nodes);
}

function renderCenter(ctx) {
  const hand = liveHand(ctx) || lastHand(ctx)?.hand;
  const board = [...(hand?.board || []), ...(hand?.common || [])];
  root.querySelector("#board").replaceChildren(...board.map(card));
  const pot = liveHand(ctx) ? (hand.betting?.seats || []).reduce((sum, s) => sum + (s.total || 0), 0) : 0;
  const node = root.querySelector("#pot");
  node.dataset.cents = pot;
  node.textContent = money(pot);
  const pots = liveHand(ctx) ? potLines(ctx, hand) : [];
  root.querySelector("#pots").replaceChildren(...pots);
}

/** The main pot and the side pots (the engine's), each with the seats that can win it. */
function potLines(ctx, hand) {
  const pots = hand?.pots || [];
  if (pots.length < 2) return [];
  const seatOf = Object.fromEntries((seating(ctx).seats || []).map((x) => [x.player, x.seat]));
  return pots.map((p, k) => el("li", { class: "pot", "data-cents": p.amount },
    `${k === 0 ? t("main_pot") : say("side_pot_n", { n: k })}: ${money(p.amount)} · `,
    p.seats.map((i) => say("seat_n", { n: seatOf[hand.betting.seats[i]?.player] ?? i + 1 })).join(", ")));
}

function renderMe(ctx) {
  const box = root.querySelector("#circle-me");
  const c = seating(ctx);
  const me = myName(ctx);
  if (!me) { box.replaceChildren(); box.dataset.state = ""; return; }
  const mine = c.seats.find((s) => s.player === me);
  if (mine) {
    if (box.dataset.state === `in-${mine.seat}`) return;
    box.dataset.state = `in-${mine.seat}`;
    box.replaceChildren(el("p", {}, `${t("you_sit")} ${mine.seat}. `,
      el("button", { type: "button", id: "leave", class: "secondary", onclick: () => leave(ctx) }, t("leave_table"))));
    return;
  }
  if (box.dataset.state === "out" || !(ctx.me?.roles || []).includes("player")) return;   // keep what was typed
  box.dataset.state = "out";
  const { minimum, maximum } = c.buy_in;
  box.replaceChildren(
    el("p", { class: "help" }, `${t("not_seated")}: ${money(minimum)} – ${money(maximum)}`),
    el("label", { for: "buy-in" }, t("buy_in")), " ",
    el("input", { id: "buy-in", type: "number", step: "0.01", min: String(minimum / 100), max: String(maximum / 100),
      value: String(minimum / 100) }));
}

function renderShowdown(ctx) {
  const box = root.querySelector("#showdown");
  const last = lastHand(ctx);
  const hand = last?.hand;
  if (!hand?.betting) { box.replaceChildren(); return; }
  const accounts = last.accounts || {};
  const seatOf = Object.fromEntries((seating(ctx).seats || []).map((x) => [x.player, x]));
  let staked = 0;
  let returned = 0;
  const rows = hand.betting.seats.map((s, i) => {
    const acc = accounts[s.bet] || { staked: s.total, returned: 0 };
    const st = Number(acc.staked || 0);
    const rt = Number(acc.returned || 0);
    staked += st;
    returned += rt;
    const shown = (hand.shown || []).includes(i);
    const combo = hand.named?.[String(i)];
    const who = seatOf[s.player];
    return el("li", { "data-player": s.player, "data-net": rt - st, class: rt - st > 0 ? "winner" : "" },
      el("strong", {}, seatName(ctx, s.player, who?.seat ?? i + 1, who?.display_name)), " ",
      shown ? el("span", { class: "shown" }, `${t("shows")} `, el("span", { class: "cards" }, (hand.holes[i] || []).map(card)),
        combo ? el("span", { class: "combo" }, ` ${t(`combo_${combo}`)}`) : null)
        : el("span", { class: "muted" }, s.state === "folded" ? t("folded") : ""),
      " · ", el("span", { class: "net" }, say("settle_line", { bet: t("hand"), staked: money(st), returned: money(rt), net: net(rt - st) })));
  });
  const rake = staked - returned;      // table stakes: what the seats put in and did not get back is the house's
  box.replaceChildren(el("h3", {}, `${t("last_hand")} (${hand.number ?? ""})`),
    el("div", { class: "cards" }, [...(hand.board || []), ...(hand.common || [])].map(card)),
    el("p", { class: "pot-line" }, `${t("pot")}: `, el("strong", { id: "last-pot", "data-cents": staked }, money(staked)),
      " · ", say("settle_rake", { amount: money(rake) }), el("span", { id: "last-rake", "data-cents": rake, hidden: true })),
    el("ul", { class: "plain pots" }, potLines(ctx, hand)),
    el("ul", { class: "plain" }, rows));
}

export function update(ctx) {
  renderSeats(ctx);
  renderCenter(ctx);
  renderMe(ctx);
  renderShowdown(ctx);
}

const label = (d) => (d.do === "call" && d.minimum ? `${verbText(d.do)} ${money(d.minimum)}` : verbText(d.do));

/** My decisions: one button per verb the engine offers; bet and raise take an amount within its limits. */
export function decisions(ctx, box) {
  const mine = ctx.actions.decisions.filter((d) => d.mine);
  const signature = JSON.stringify([mine, Boolean(liveHand(ctx))]);
  if (box.dataset.signature === signature) return;          // unchanged: keep the amount being typed
  box.dataset.signature = signature;
  if (!mine.length) {
    box.replaceChildren(el("p", { class: "muted" }, liveHand(ctx) ? t("no_decisions") : t("waiting_hand")));
    return;
  }
  const sized = mine.find((d) => d.do === "raise") || mine.find((d) => d.do === "bet");
  const input = sized ? el("input", { id: "bet-amount", type: "number", step: "0.01", min: String(sized.minimum / 100),
    max: String(sized.maximum / 100), value: String(sized.minimum / 100) }) : null;
  box.replaceChildren(
    el("div", { class: "decision-row", role: "group", "aria-label": t("decisions") },
      ...mine.map((d) => el("button", {
        type: "button", class: `verb verb-${d.do}`, "data-verb": d.do, "data-bet": d.bet ?? "",
        onclick: () => decide(ctx, d, input),
      }, label(d)))),
    ...(input ? [el("label", { for: "bet-amount" }, `${t("bet_amount")} (${money(sized.minimum)} – ${money(sized.maximum)})`), " ", input] : []));
}

function decide(ctx, d, input) {
  const doc = { bet: d.bet, do: d.do };
  if ((d.do === "bet" || d.do === "raise") && input) doc.fields = { amount: Math.round(Number(input.value) * 100) };
  ctx.act(doc);
}

async function sit(ctx, seat) {
  const amount = Math.round(Number(root.querySelector("#buy-in")?.value || 0) * 100);
  const out = await attempt(() => api(`/api/tables/${ctx.tableId}/seats`, { method: "POST", body: { seat, buy_in: amount } }));
  if (out) { setBalance(out.balance); await ctx.refresh(); }
}

async function leave(ctx) {
  const out = await attempt(() => api(`/api/tables/${ctx.tableId}/seats/leave`, { method: "POST" }));
  if (out) { setBalance(out.balance); await ctx.refresh(); }
}
