// The banked poker games (tripóquer, Trijoker, póquer sin descarte, Pai Gow): the croupier's hand (or
// Trijoker's two common cards) across the top, the numbered boxes to pick from, the bets of the picked box as
// spots with their payouts, and for each box in play its cards, its decisions as buttons beside it, the
// combination each hand made and the box's settlement (stake, returned, net). After the coup the hands stay
// on the table, face up, until the next round opens. Every rule is the engine's: the kinds, the decisions,
// the masking of other players' cards and the names of the combinations all come from the server.
import { card, el, kindHelp, kindLabel, money, say, t, verbText } from "../app.js";
import { settleLine } from "../feed.js";

let root = null;
let picked = 1;
let userPicked = false;      // until the player taps a box, the page picks the box he plays on
let chosenLow = [];          // Pai Gow: the two cards tapped for the small hand; sin descarte: the one to change

const frac = (v) => {        // the engine's exact amounts ("1500/1") in cents
  if (typeof v === "number") return v;
  const [n, d] = String(v ?? "0").split("/").map(Number);
  return d ? n / d : n || 0;
};

function boxCount(ctx) { return ctx.page.places || 7; }

export function init(node, ctx) {
  root = node;
  const n = boxCount(ctx);
  root.append(
    el("section", { class: "pk-house", id: "pk-house", "aria-label": t("pk_croupier") },
      el("h2", { id: "pk-house-h" }, ctx.page.table.game === "trijoker" ? t("pk_common") : t("pk_croupier")),
      el("div", { class: "cards", id: "pk-house-cards" }),
      el("p", { class: "combo", id: "pk-house-combo" })),
    el("p", { class: "pk-note", id: "pk-note", "aria-live": "polite" }),
    el("div", { class: "pk-boxes", role: "group", "aria-label": t("pk_pick_box") },
      Array.from({ length: n }, (_, i) => el("button", {
        type: "button", class: "pk-box", "data-box": i + 1, "aria-pressed": String(i + 1 === picked),
        onclick: () => pick(ctx, i + 1),
      }, el("span", { class: "pk-box-n" }, say("box_n", { n: i + 1 })), el("span", { class: "pk-box-who" })))),
    el("div", { class: "pk-bets", id: "pk-bets", role: "group" }),
    el("p", { class: "help", id: "pk-help" }),
    el("div", { class: "pk-hands", id: "pk-hands" }));
  drawSpots(ctx);
}

function pick(ctx, box, byUser = true) {
  userPicked = userPicked || byUser;
  picked = box;
  for (const b of root.querySelectorAll(".pk-box")) b.setAttribute("aria-pressed", String(Number(b.dataset.box) === box));
  drawSpots(ctx);
  update(ctx);
}

/** The bet kinds the engine offers now (the layout between rounds), less a carousel the table does not run. */
function offered(ctx) {
  const now = ctx.actions.bets?.length ? ctx.actions.bets : (ctx.summary.phase === "betting" ? ctx.page.layout : []);
  const config = ctx.view?.config || {};
  return now.filter((k) => k.kind !== "jackpot" || config["jackpot-stake"]);
}

function drawSpots(ctx) {
  const kinds = offered(ctx);
  const box = root.querySelector("#pk-bets");
  const wanted = `${picked}|${kinds.map((k) => k.kind).join(",")}`;
  if (box.dataset.wanted === wanted) return;
  const had = box.contains(document.activeElement) ? document.activeElement.dataset.kind : null;
  box.dataset.wanted = wanted;
  box.setAttribute("aria-label", `${t("bet_on")} ${say("box_n", { n: picked })}`);
  box.replaceChildren(...kinds.map((k) => {
    const info = (ctx.page.kinds || []).find((x) => x.kind === k.kind);
    const name = kindLabel(k.kind);
    const label = `${t("bet_on")} ${name}, ${say("box_n", { n: picked })}${info?.pays ? ` (${t("pays")} ${info.pays})` : ""}`;
    const b = el("button", { type: "button", class: `spot pk-spot kind-${k.kind}`, "data-kind": k.kind, "data-box": picked,
      "aria-label": label, title: kindHelp(info), onclick: () => stake(ctx, k) },
    el("span", { class: "spot-text" }, name), info?.pays ? el("small", { class: "pays" }, info.pays) : null,
    el("span", { class: "stake", "aria-hidden": "true" }));
    b.dataset.label = label;
    return b;
  }));
  root.querySelector("#pk-help").textContent = kinds.length ? t("pk_help") : "";
  if (had) box.querySelector(`[data-kind="${had}"]`)?.focus();
}

function stake(ctx, k) {
  // Sin descarte's seguro is the table's fixed stake (table.insurance), not a chip's value
  const fixed = k.kind === "insurance" ? ctx.view?.config?.insurance : null;
  ctx.bet([{ kind: k.kind, amount: fixed || ctx.chip(), extra: { box: picked } }]);
}

/** The coup to show: the live one while it is dealt, else the last one as it ended (kept on the table). */
function coupOf(ctx) {
  const live = ctx.view || {};
  if (live.round?.hands && Object.keys(live.round.hands).length) return { st: live, over: false };
  if (ctx.summary.phase === "settled" && ctx.recent[0]?.round?.hands) return { st: ctx.recent[0], over: true };
  return { st: live, over: false };
}

function comboText(code) {
  if (!code) return "";
  return code.split("+").map((c, i, all) => (all.length > 1 ? `${t(i ? "pk_small" : "pk_big")} ` : "") + t(`combo_${c}`)).join(" · ");
}

function cardsRow(cards, { pickable = 0, ctx = null, bet = null } = {}) {
  return el("div", { class: "cards" }, cards.map((c) => {
    if (!pickable) return card(c);
    const on = chosenLow.includes(c);
    const what = pickable === 1 ? t("pk_buy_pick") : t("pk_small_pick");
    return el("button", { type: "button", class: `pk-card-pick${on ? " low" : ""}`, "aria-pressed": String(on),
      "aria-label": `${what} ${c}`, onclick: () => {
        chosenLow = on ? chosenLow.filter((x) => x !== c) : [...chosenLow, c].slice(-pickable);
        drawHands(ctx, bet);
      } }, card(c));
  }));
}

function decisionRow(ctx, box, hand) {
  const mine = ctx.actions.decisions.filter((d) => d.mine && betBox(ctx, d.bet) === box);
  if (!mine.length) return null;
  const verbs = [...new Set(mine.map((d) => d.do))];
  const bet = mine[0].bet;
  const game = ctx.page.table.game;
  if (verbs.includes("set")) {           // Pai Gow: the player sets his seven cards in a big hand of five and a small of two
    const ready = chosenLow.length === 2;
    return el("div", { class: "pk-decide", role: "group", "aria-label": say("box_n", { n: box }) },
      el("p", {}, t("pk_set_how")),
      el("button", { type: "button", class: "verb verb-set", "data-verb": "set", "data-bet": bet, disabled: !ready,
        onclick: () => {
          const low = chosenLow.slice();
          chosenLow = [];
          ctx.act({ bet, do: "set", fields: { high: hand.filter((c) => !low.includes(c)), low } });
        } }, ready ? say("pk_set_with", { cards: chosenLow.map(pretty).join(" ") }) : t("pk_verb_set")));
  }
  const buy = verbs.includes("buy") ? el("button", { type: "button", class: "verb verb-buy", "data-verb": "buy", "data-bet": bet,
    disabled: chosenLow.length !== 1, onclick: () => {
      const cards = chosenLow.slice();
      chosenLow = [];
      ctx.act({ bet, do: "buy", fields: { cards } });
    } }, chosenLow.length === 1 ? say("pk_buy_with", { card: pretty(chosenLow[0]) }) : t("pk_verb_buy")) : null;
  const acts = (game === "trijoker" ? ((viewBet(ctx, bet)?.acts || []).filter((a) => a.do !== "expose").length) : -1);
  const sentence = game === "trijoker" ? say("pk_trijoker_due", { n: acts + 1 }) : buy ? t("pk_buy_how") : t("pk_decide");
  return el("div", { class: "pk-decide", role: "group", "aria-label": `${t("decisions")} ${say("box_n", { n: box })}` },
    el("p", {}, sentence),
    buy,
    verbs.filter((v) => v !== "expose" && v !== "buy").map((v) => el("button", {
      type: "button", class: `verb verb-${v}`, "data-verb": v, "data-bet": bet,
      "aria-label": `${t(`pk_verb_${v}`) !== `pk_verb_${v}` ? t(`pk_verb_${v}`) : verbText(v)} (${say("box_n", { n: box })})`,
      onclick: () => ctx.act({ bet, do: v }),
    }, t(`pk_verb_${v}`) !== `pk_verb_${v}` ? t(`pk_verb_${v}`) : verbText(v))));
}

function pretty(c) {
  const sym = { S: "♠", H: "♥", D: "♦", C: "♣" }[c.slice(-1)];
  return c.startsWith("X") ? t("pk_joker") : `${c.slice(0, -1).replace("T", "10")}${sym ?? ""}`;
}

function viewBet(ctx, id) { return (ctx.view?.bets || []).find((b) => b.id === id); }
function betBox(ctx, id) { return viewBet(ctx, id)?.box; }

function drawHands(ctx) {
  const { st, over } = coupOf(ctx);
  const hands = st.round?.hands || {};
  const named = st.named || {};
  const me = ctx.me?.user;
  const live = ctx.view || {};
  const settled = ctx.summary.phase === "settled";
  // every box of mine in this coup: its cards, decisions, combination and settlement
  const bets = (settled ? live.bets : st.bets) || [];
  const boxes = [...new Set([...bets.filter((b) => b.player === me && (!settled || b.final === "settled")).map((b) => b.box),
    ...Object.keys(hands).filter((k) => /^\d+$/.test(k) && !(hands[k] || []).includes("??")).map(Number)])].sort((a, b) => a - b);
  const panels = boxes.map((box) => {
    const cards = hands[String(box)] || [];
    const decide = over || settled ? null : decisionRow(ctx, box, cards);
    const picks = decide?.querySelector(".verb-set") ? 2 : decide?.querySelector(".verb-buy") ? 1 : 0;
    const settle = settled ? bets.filter((b) => b.player === me && b.box === box && b.final === "settled")
      .map((b) => settleLine({ kind: b.kind, staked: frac(b.staked), returned: frac(b.returned) })) : [];
    const netSum = settle.reduce((a, l) => a + l.net, 0);
    return el("section", { class: `pk-hand${decide ? " deciding" : ""}`, "data-box": box, "data-combo": named[String(box)] ?? "",
      "aria-label": say("box_n", { n: box }) },
    el("h3", {}, say("pk_your_box", { n: box }), named[String(box)] ? el("span", { class: "combo" }, ` — ${comboText(named[String(box)])}`) : null),
    cards.length ? cardsRow(cards, { pickable: picks, ctx }) : el("p", { class: "muted" }, t("pk_not_dealt")),
    decide,
    settle.length ? el("ul", { class: "plain settle-lines pk-settle", "data-net": netSum },
      settle.map((l) => el("li", { "data-net": l.net, class: l.net > 0 ? "won" : l.net < 0 ? "lost" : "push" }, l.text))) : null);
  });
  root.querySelector("#pk-hands").replaceChildren(...panels);
}

function drawHouse(ctx) {
  const { st } = coupOf(ctx);
  const hands = st.round?.hands || {};
  const game = ctx.page.table.game;
  const cards = game === "trijoker" ? [...(hands.left || []), ...(hands.right || [])] : hands.croupier || [];
  const named = (st.named || {}).croupier;
  const house = root.querySelector("#pk-house");
  house.dataset.combo = named ?? "";
  house.dataset.shown = cards.length && !cards.includes("??") ? "1" : "";
  root.querySelector("#pk-house-cards").replaceChildren(...(cards.length ? cards.map(card) : [el("span", { class: "muted" }, t("pk_not_dealt"))]));
  root.querySelector("#pk-house-combo").textContent = named ? comboText(named) : "";
}

function drawBoxes(ctx) {
  const live = ctx.view || {};
  const me = ctx.me?.user;
  const open = (live.bets || []).filter((b) => b.final === "open");
  for (const tile of root.querySelectorAll(".pk-box")) {
    const box = Number(tile.dataset.box);
    const here = open.filter((b) => b.box === box);
    const mine = here.filter((b) => b.player === me);
    const staked = mine.reduce((a, b) => a + (ctx.openBets.find((o) => o.id === b.id)?.staked ?? b.amount), 0);
    const who = mine.length ? `${t("you")} · ${money(staked)}` : here.length ? t("a_player") : t("pk_free");
    tile.querySelector(".pk-box-who").textContent = who;
    tile.classList.toggle("mine", mine.length > 0);
    tile.classList.toggle("taken", here.length > 0 && !mine.length);
    tile.setAttribute("aria-label", `${say("box_n", { n: box })}: ${who}`);
  }
  const betting = offered(ctx).length > 0;
  for (const spot of root.querySelectorAll(".pk-spot")) {
    const cents = open.filter((b) => b.player === me && b.box === picked && b.kind === spot.dataset.kind)
      .reduce((a, b) => a + (ctx.openBets.find((o) => o.id === b.id)?.staked ?? b.amount), 0);
    spot.querySelector(".stake").textContent = cents ? money(cents) : "";
    spot.classList.toggle("has-stake", cents > 0);
    spot.setAttribute("aria-label", cents ? `${spot.dataset.label} — ${money(cents)}` : spot.dataset.label);
    spot.setAttribute("aria-disabled", String(!betting));
  }
}

function note(ctx) {
  const phase = ctx.summary.phase;
  const mineDue = ctx.actions.decisions.some((d) => d.mine);
  const key = mineDue ? "pk_note_decide" : phase === "betting" ? "pk_note_bet" : phase === "settled" ? "pk_note_over"
    : phase === "acting" ? "pk_note_others" : "";
  root.querySelector("#pk-note").textContent = key ? t(key) : "";
}

/** The side panel's decisions: they are taken at the box, on the cloth. */
export function decisions(ctx, box) {
  const mine = ctx.actions.decisions.filter((d) => d.mine);
  const boxes = [...new Set(mine.map((d) => betBox(ctx, d.bet)).filter(Boolean))];
  box.replaceChildren(el("p", { class: mine.length ? "" : "muted" },
    mine.length ? say("pk_decide_at", { boxes: boxes.join(", ") }) : t("no_decisions")));
}

export function update(ctx) {
  const keep = root.querySelector("#pk-hands").contains(document.activeElement) ? document.activeElement : null;
  const again = keep?.dataset?.verb ? `[data-verb="${keep.dataset.verb}"]` : null;
  if (!ctx.actions.decisions.some((d) => ["set", "buy"].includes(d.do) && d.mine)) chosenLow = [];
  const own = (ctx.view?.bets || []).find((b) => b.player === ctx.me?.user && b.final === "open")?.box;
  if (!userPicked && own && own !== picked) { pick(ctx, own, false); return; }
  drawSpots(ctx);
  drawBoxes(ctx);
  drawHouse(ctx);
  drawHands(ctx);
  note(ctx);
  if (again) root.querySelector(`#pk-hands button${again}`)?.focus();
}
