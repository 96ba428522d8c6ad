// The player-banked baccarats: chemin de fer and baccara a dos paños. The bank (who holds it, by seat, and what
// it holds), the offers for the bank while it is auctioned, the punto's hand (or the two tables of dos paños)
// against the bank's, each hand with its points once its cards are shown, the draw / stand decisions as
// buttons beside the hand they belong to, with a sentence; stakes against the bank from the chosen chip, and
// *banco* / *banco con la mesa* as the engine allows them. Every rule is the engine's, the points too (the
// server counts them: baccarat_points.py).
import { card, el, money, say, t, verbText } from "../app.js";

let root = null;
let seat = 1;

/** A hand's points as the server counted them with the engine's rule (none while a card is face down to me). */
export function points(hand) {
  return hand && Number.isInteger(hand.total) ? hand.total : null;
}

const twoTables = (ctx) => ctx.page.table.game === "baccarat-two-tables";

export function init(node, ctx) {
  root = node;
  root.append(
    el("div", { class: "ch-bank", id: "ch-bank", "aria-live": "polite" }),
    el("ul", { class: "plain ch-offers", id: "ch-offers" }),
    el("div", { class: "coup ch-coup", id: "ch-coup" }),
    el("p", { class: "pk-note", id: "ch-result", "aria-live": "polite" }),
    el("div", { class: "ch-seats", role: "group", "aria-label": t("ch_pick_seat") },
      el("span", { class: "ch-seat-h" }, t("ch_your_seat")),
      Array.from({ length: Math.min(ctx.page.places || 9, 12) }, (_, i) => el("button", {
        type: "button", class: "ch-seat", "data-seat": i + 1, "aria-pressed": String(i + 1 === seat),
        "aria-label": say("seat_n", { n: i + 1 }), onclick: () => { seat = i + 1; drawSeats(); },
      }, String(i + 1)))),
    el("div", { class: "bac-spots ch-spots", id: "ch-spots", role: "group", "aria-label": t("bet_on") }),
    el("p", { class: "help", id: "ch-help" }));
}

function drawSeats() {
  for (const b of root.querySelectorAll(".ch-seat")) b.setAttribute("aria-pressed", String(Number(b.dataset.seat) === seat));
}

function bankOf(ctx) { return (ctx.view?.banks || []).find((b) => b.active) || null; }
const mineBank = (ctx, bank) => bank && bank.player === ctx.me?.user;

function bankLine(ctx) {
  const bank = ctx.summary.bank;
  const node = root.querySelector("#ch-bank");
  const held = bankOf(ctx);
  if (!bank?.active) {
    node.dataset.cents = "";
    node.replaceChildren(el("strong", {}, t("ch_no_bank")), " ", t("ch_take_bank"));
    return;
  }
  const who = held?.seat ? say("seat_n", { n: held.seat }) : t("a_player");
  node.dataset.cents = bank.holding;
  node.dataset.mine = mineBank(ctx, held) ? "1" : "";
  node.replaceChildren(mineBank(ctx, held) ? t("ch_bank_yours") : say("ch_bank_held", { who }), " ", el("strong", { "data-cents": bank.holding, id: "ch-bank-amount" }, money(bank.holding)),
    bank.coups ? ` · ${say("ch_bank_coups", { n: bank.coups })}` : "");
}

function offers(ctx) {
  const held = bankOf(ctx);
  const list = (ctx.view?.offers || []).filter((o) => o.final === "open" && o.id !== held?.id);   // the bids against the holder's
  root.querySelector("#ch-offers").replaceChildren(...list.map((o) => el("li", {}, o.player === ctx.me?.user
    ? say("ch_offer_you", { amount: money(o.amount) })
    : say("ch_offer", { who: o.seat ? say("seat_n", { n: o.seat }) : t("a_player"), amount: money(o.amount) }))));
}

/** The coup on the table: the one being dealt, else (after it) the last one, face up. */
function coupOf(ctx) {
  const live = ctx.view || {};
  if (live.current) return { coup: live.current, over: false };
  if (ctx.summary.phase === "settled" && live.coups?.length) return { coup: live.coups.at(-1), over: true };
  return { coup: null, over: false };
}

function handNode(ctx, title, hand, by, cls, over) {
  const pts = points(hand);
  const due = over ? [] : ctx.actions.decisions.filter((d) => d.mine && d.by === by);
  return el("div", { class: `side-hand ${cls}`, "data-by": by, "data-points": pts ?? "" },
    el("h2", {}, title, pts !== null ? el("span", { class: "points" }, ` · ${say("ch_points", { n: pts })}`) : null),
    el("div", { class: "cards" }, (hand?.cards || []).map(card)),
    due.length ? el("div", { class: "pk-decide", role: "group", "aria-label": `${t("decisions")} ${title}` },
      el("p", {}, t(by === "bank" ? "ch_bank_decides" : "ch_punto_decides")),
      due.map((d) => el("button", { type: "button", class: `verb verb-${d.do}`, "data-verb": d.do, "data-by": d.by,
        "aria-label": `${verbText(d.do)} (${title})`, onclick: () => ctx.act({ by: d.by, do: d.do }) }, verbText(d.do)))) : null);
}

function sideName(i) { return say("ch_table_n", { n: i + 1 }); }

function drawCoup(ctx) {
  const { coup, over } = coupOf(ctx);
  const box = root.querySelector("#ch-coup");
  const result = root.querySelector("#ch-result");
  if (!coup) { box.replaceChildren(); result.textContent = ""; return; }
  const hands = twoTables(ctx)
    ? (coup.sides || []).map((h, i) => handNode(ctx, sideName(i), h, `side${i + 1}`, `punto side-${i + 1}`, over))
    : [handNode(ctx, t("punto"), coup.punto, "player", "punto", over)];
  // dos paños: a side's decision is named by its number; chemin: by "player"
  if (twoTables(ctx)) {
    for (const [i, node] of hands.entries()) {
      const due = over ? [] : ctx.actions.decisions.filter((d) => d.mine && d.by !== "bank" && String(d.by).includes(String(i + 1)));
      if (due.length && !node.querySelector(".pk-decide")) {
        node.append(el("div", { class: "pk-decide", role: "group", "aria-label": `${t("decisions")} ${sideName(i)}` },
          el("p", {}, t("ch_punto_decides")),
          due.map((d) => el("button", { type: "button", class: `verb verb-${d.do}`, "data-verb": d.do, "data-by": d.by,
            "aria-label": `${verbText(d.do)} (${sideName(i)})`, onclick: () => ctx.act({ by: d.by, do: d.do }) }, verbText(d.do)))));
      }
    }
  }
  box.replaceChildren(...hands, handNode(ctx, t("banca"), coup.banker, "bank", "banca", over));
  if (!over) {                   // a decision due to another player: say so, no name
    const waiting = ctx.summary.phase === "acting" && !ctx.actions.decisions.some((d) => d.mine);
    result.textContent = waiting ? t("pk_note_others") : "";
    return;
  }
  const bank = points(coup.banker);
  const words = twoTables(ctx)
    ? (coup.sides || []).map((h, i) => say(sign(coup.results?.[i]), { who: sideName(i), p: points(h), b: bank })).join(" ")
    : say(sign(coup.result), { who: t("punto"), p: points(coup.punto), b: bank });
  result.textContent = coup.void ? t("ch_void") : words;
}

const sign = (r) => (r > 0 ? "ch_punto_wins" : r < 0 ? "ch_bank_wins" : "ch_tie");

function spots(ctx) {
  const kinds = ctx.actions.bets || [];
  const bank = ctx.summary.bank;
  const wanted = kinds.map((k) => `${k.kind}:${k.maximum}:${JSON.stringify(k.targets)}`).join("|") + `|${bank?.holding}`;
  const box = root.querySelector("#ch-spots");
  if (box.dataset.wanted === wanted) return;
  box.dataset.wanted = wanted;
  const buttons = [];
  for (const k of kinds) {
    if (k.kind === "bank") {        // the bank: any amount from the minimum (to the cap where the table has one)
      const input = el("input", { id: "ch-bank-in", type: "number", min: String((k.minimum || 0) / 100), step: "1",
        ...(k.maximum ? { max: String(k.maximum / 100) } : {}), value: String((k.minimum || ctx.chip()) / 100), inputmode: "decimal" });
      buttons.push(el("form", { class: "ch-take-bank", onsubmit: (e) => {
        e.preventDefault();
        const cents = Math.round(Number(input.value) * 100);
        if (cents > 0) place(ctx, { kind: "bank", amount: cents });
      } }, el("label", { for: "ch-bank-in" }, `${t("ch_bank_amount")} (€)`), input,
      el("button", { type: "submit", class: "spot bac bank", "data-kind": "bank", id: "ch-take-bank" }, t("ch_take_bank_button"))));
    } else if (k.kind === "player") {
      const targets = k.targets?.length ? k.targets : [null];
      for (const on of targets) {
        const name = on === null ? t("ch_punto_spot") : on.length > 1 ? t("ch_a_caballo") : sideName(on[0] - 1);
        buttons.push(el("button", { type: "button", class: "spot bac player", "data-kind": "player", "data-on": on ? on.join("-") : "",
          "aria-label": `${t("bet_on")} ${name} (${t("pays")} 1:1)`, onclick: () => place(ctx, { kind: "player", amount: ctx.chip(), ...(on ? { on } : {}) }) },
        el("span", { class: "spot-text" }, `${name} · 1:1`), el("span", { class: "stake", "aria-hidden": "true" })));
      }
      if (!twoTables(ctx) && k.maximum) {           // banco: the whole bank in play (001:777); con la mesa: half (001:848)
        buttons.push(el("button", { type: "button", class: "spot bac banco", "data-call": "banco",
          "aria-label": say("ch_banco_for", { amount: money(k.maximum) }), onclick: () => banco(ctx, k.maximum, "banco") },
        el("span", { class: "spot-text" }, say("ch_banco_for", { amount: money(k.maximum) }))));
        const half = Math.floor(k.maximum / 2);
        if (half >= (k.minimum || 0)) {
          buttons.push(el("button", { type: "button", class: "spot bac banco", "data-call": "banco-with-table",
            "aria-label": say("ch_banco_table_for", { amount: money(half) }), onclick: () => banco(ctx, half, "banco-with-table") },
          el("span", { class: "spot-text" }, say("ch_banco_table_for", { amount: money(half) }))));
        }
      }
    }
  }
  box.replaceChildren(...buttons);
  const onlyBank = kinds.length && kinds.every((k) => k.kind === "bank");
  root.querySelector("#ch-help").textContent = !buttons.length ? "" : onlyBank ? t("ch_help_bank")
    : t(twoTables(ctx) ? "ch_help_two" : "ch_help");
}

async function place(ctx, bet) {
  return ctx.bet([{ ...bet, extra: { seat } }]);
}

async function banco(ctx, amount, call) {
  const out = await place(ctx, { kind: "player", amount });
  const id = out?.bets?.[0]?.id;
  if (id) await ctx.act({ bet: id, do: call });
}

function marks(ctx) {
  const me = ctx.me?.user;
  const stakes = (ctx.view?.stakes || []).filter((s) => s.player === me && s.final === "open");
  for (const b of root.querySelectorAll("#ch-spots .spot[data-kind='player']")) {
    const on = b.dataset.on;
    const cents = stakes.filter((s) => (s.sides?.length ? s.sides.map((x) => x).join("-") : "") === on || (!on && !s.sides?.length))
      .reduce((a, s) => a + s.amount, 0);
    b.querySelector(".stake").textContent = cents ? money(cents) : "";
    b.classList.toggle("has-stake", cents > 0);
  }
}

/** Decisions on my bets (the banker's pass, a banco) stay in the side panel; the cards' decisions are at the hands. */
export function decisions(ctx, box) {
  const mine = ctx.actions.decisions.filter((d) => d.mine);
  const money_ = mine.filter((d) => d.bet);
  const atHands = mine.filter((d) => !d.bet);
  box.replaceChildren(
    ...money_.map((d) => el("button", { type: "button", class: `verb verb-${d.do}`, "data-verb": d.do, "data-bet": d.bet,
      "aria-label": t(`ch_verb_${d.do}`) !== `ch_verb_${d.do}` ? t(`ch_verb_${d.do}`) : verbText(d.do),
      onclick: () => ctx.act({ bet: d.bet, do: d.do }) }, t(`ch_verb_${d.do}`) !== `ch_verb_${d.do}` ? t(`ch_verb_${d.do}`) : verbText(d.do))),
    el("p", { class: mine.length ? "" : "muted" }, atHands.length ? t("ch_decide_at_hand") : money_.length ? "" : t("no_decisions")));
}

export function update(ctx) {
  const keep = root.contains(document.activeElement) && document.activeElement.dataset?.verb ? document.activeElement.dataset.verb : null;
  bankLine(ctx);
  offers(ctx);
  drawCoup(ctx);
  spots(ctx);
  marks(ctx);
  root.querySelector(".ch-seats").hidden = !(ctx.actions.bets || []).length;
  if (keep) root.querySelector(`#ch-coup button[data-verb="${keep}"]`)?.focus();
}
