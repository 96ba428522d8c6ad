// Any game of the engine: every bet kind it offers now (with its targets, minimum and maximum), the
// decisions due (side panel, with extra fields), the engine's own log of the coup, and the cards on the
// table where the state shows any.
import { card, el, engineLog, kindHelp, kindLabel, markSpots, money, page, spotButton, t } from "../app.js";

const PICKED = { box: "box", seat: "seat" };      // bet fields chosen from a list (a box, a seat), not typed

let root = null;

export function init(node, ctx) {
  root = node;
  root.append(el("form", { class: "generic-bet card", id: "generic-bet", onsubmit: (e) => { e.preventDefault(); submit(ctx); } },
    el("label", { for: "g-kind" }, t("kind")), el("select", { id: "g-kind", onchange: () => targets(ctx) }),
    el("label", { for: "g-target" }, t("target")), el("select", { id: "g-target" }),
    el("label", { for: "g-amount" }, `${t("amount")} (€)`), el("input", { id: "g-amount", type: "number", min: "0.01", step: "0.01" }),
    ...pickers(),
    el("details", { class: "g-more", hidden: others().length ? undefined : true }, el("summary", {}, t("more_options")),
      el("label", { for: "g-extra" }, t("fields")), el("input", { id: "g-extra", autocomplete: "off" })),
    el("button", { type: "submit", id: "g-place" }, t("place")),
    el("p", { id: "g-help", class: "help", "aria-live": "polite" })),
  el("p", { class: "bank-line", id: "g-bank", "aria-live": "polite" }),
  el("div", { class: "table-cards", id: "g-cards" }),
  el("div", { class: "engine-log", "aria-live": "polite" }));
  fillKinds(ctx, ctx.page.layout);
  const board = spotBoard(ctx, ctx.page.layout);
  if (board) root.prepend(board);
}

/** A cloth of spots to tap, one per bet kind and target the engine offers (boule's numbers and chances, the
 * wheel of fortune's numbers, trente et quarante's red, black, colour and inverse), each with its payout;
 * the form below stays for the rest. None where a bet names a box or seat or the targets are too many. */
function spotBoard(ctx, kinds) {
  const picks = (page.bet_fields || []).some((f) => PICKED[f]);
  const count = kinds.reduce((n, k) => n + Math.max(k.targets?.length || 0, 1), 0);
  if (picks || !kinds.length || count > 60) return null;
  const groups = kinds.map((k) => {
    const pays = (page.kinds || []).find((x) => x.kind === k.kind)?.pays;
    const name = kindLabel(k.kind);
    const spots = (k.targets?.length ? k.targets : [null]).map((on) => {
      const target = on === null ? "" : [].concat(on).join("-");
      return spotButton(ctx, { kind: k.kind, on: on === null ? null : [].concat(on), cls: `board-spot kind-${k.kind}`,
        label: `${t("bet_on")} ${name}${target ? ` ${target}` : ""}${pays ? ` (${t("pays")} ${pays})` : ""}`,
        text: target || name });
    });
    return el("div", { class: "board-group", role: "group", "aria-label": name, "data-kind": k.kind },
      el("span", { class: "board-name" }, `${name}${pays ? ` · ${pays}` : ""}`), el("div", { class: "board-spots" }, spots));
  });
  return el("div", { class: "spot-board", id: "spot-board", role: "group", "aria-label": t("bet_on") }, groups);
}

function others() { return (page.bet_fields || []).filter((f) => !PICKED[f]); }

/** A list for each field the game's bets name a place with (box 1..N, seat 1..N). */
function pickers() {
  return (page.bet_fields || []).filter((f) => PICKED[f]).flatMap((f) => [
    el("label", { for: `g-${f}` }, t(PICKED[f])),
    el("select", { id: `g-${f}`, "data-field": f, class: "g-pick" },
      ...Array.from({ length: page.places || 7 }, (_, i) => el("option", { value: String(i + 1) }, `${t(PICKED[f])} ${i + 1}`)))]);
}

function fillKinds(ctx, kinds) {
  const signature = JSON.stringify(kinds);
  if (signature === root.signature) return;      // unchanged: keep the player's choices
  root.signature = signature;
  const select = root.querySelector("#g-kind");
  const before = select.value;
  select.replaceChildren(...kinds.map((k) => el("option", { value: k.kind },
    `${kindLabel(k.kind)} (${money(k.minimum)}${k.maximum ? ` – ${money(k.maximum)}` : ""})`)));
  if (kinds.some((k) => k.kind === before)) select.value = before;
  root.kinds = kinds;
  targets(ctx);
}

function targets() {
  const kind = root.kinds.find((k) => k.kind === root.querySelector("#g-kind").value);
  const info = (page.kinds || []).find((k) => k.kind === kind?.kind);
  root.querySelector("#g-help").textContent = kindHelp(info);
  const select = root.querySelector("#g-target");
  const list = kind?.targets || [];
  const before = select.value;
  select.disabled = !list.length;
  select.replaceChildren(...(list.length ? list : [null]).map((tg) => el("option", { value: tg === null ? "" : JSON.stringify(tg) },
    tg === null ? "—" : [].concat(tg).join("-"))));
  if ([...select.options].some((o) => o.value === before)) select.value = before;
}

function submit(ctx) {
  const kind = root.querySelector("#g-kind").value;
  const target = root.querySelector("#g-target").value;
  const typed = Number(root.querySelector("#g-amount").value);
  const amount = typed > 0 ? Math.round(typed * 100) : ctx.chip();
  const extra = {};
  for (const pick of root.querySelectorAll(".g-pick")) extra[pick.dataset.field] = Number(pick.value);
  for (const part of root.querySelector("#g-extra").value.split(",")) {
    const [k, v] = part.split("=").map((x) => x?.trim());
    if (k && v !== undefined) extra[k] = /^-?\d+$/.test(v) ? Number(v) : v;
  }
  const bet = { kind, amount, ...(target ? { on: JSON.parse(target) } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
  if (typeof bet.on === "number") bet.on = [bet.on];
  ctx.bet([bet]);
}

function cardsIn(value, out = []) {
  if (typeof value === "string" && (value === "??" || /^([2-9TJQKA]|1[0-2]|[1-9])[SHDCoceb]$/.test(value))) out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => cardsIn(v, out));
  return out;
}

/** Every list of cards in the state, by where it lies ("round · hands · 1"); the log and the shoe left out. */
function cardGroups(value, path = [], out = [], depth = 0) {
  if (depth > 4 || value === null || typeof value !== "object") return out;
  if (Array.isArray(value)) {
    const cards = value.filter((v) => typeof v === "string" && cardsIn(v).length);
    if (cards.length && cards.length === value.length) out.push([path.join(" · "), cards]);
    else value.forEach((v, i) => cardGroups(v, [...path, String(i + 1)], out, depth + 1));
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === "log" || k === "history") continue;
    if (typeof v === "string" && cardsIn(v).length) out.push([[...path, k].join(" · "), [v]]);
    else cardGroups(v, [...path, k], out, depth + 1);
  }
  return out;
}

/** Where a group of cards lies, in words: "round · hands · 2" -> "Box 2", "... croupier" -> "Croupier". */
function placeName(path) {
  const parts = path.split(" · ");
  const last = parts.at(-1);
  if (/^\d+$/.test(last) && parts.some((p) => /hand|box|cards/.test(p))) return `${t("box")} ${last}`;
  if (/^box \d+$/.test(last)) return `${t("box")} ${last.slice(4)}`;
  const word = { croupier: "dealer", dealer: "dealer", bank: "banca", banker: "banca", player: "punto", punto: "punto",
    board: "board", red: "row_red", black: "row_black", noir: "row_black", rouge: "row_red", card: "cards", cards: "cards" }[last];
  return word ? t(word) : t("cards");
}

/** Trente et quarante: a row's points as the engine counted them ("coups · 1 · black" -> " = 39"). */
function rowTotal(st, path) {
  const parts = path.split(" · ");
  const [where, index, row] = parts;
  const coup = where === "coups" && /^\d+$/.test(index) ? st.coups?.[Number(index) - 1] : null;
  const total = coup?.[`${row}_total`];
  return total === undefined ? null : el("span", { class: "row-total", "data-total": total }, ` = ${total}`);
}

function bankLine(ctx) {   // a player-banked game (chemin de fer, dos paños): who holds the bank, and what it holds
  const bank = ctx.summary.bank;
  if (!bank) return [];
  if (!bank.active) return [`${t("bank_none")}`];
  return [`${t("bank_held")} ${bank.banker}: `, el("strong", { "data-cents": bank.holding }, money(bank.holding)),
    ` · ${bank.coups} ${t("bank_coups")}`];
}

export function update(ctx) {
  if (ctx.actions.bets?.length) fillKinds(ctx, ctx.actions.bets);
  if (root.querySelector("#spot-board")) markSpots(root.querySelector("#spot-board"), ctx);
  root.querySelector("#g-bank").replaceChildren(...bankLine(ctx));
  const live = ctx.view || {};
  const st = cardGroups(live).length || !ctx.recent.length ? live : ctx.recent[0];
  const named = st.named || {};
  const groups = cardGroups(st).slice(0, 10).map(([k, cards]) => {
    const key = k.split(" · ").at(-1);
    const combo = named[key] && !cards.includes("??") ? t(`combo_${named[key]}`) : null;
    return el("div", { class: `card-group${key === "croupier" ? " croupier" : ""}`, "data-where": k, "data-combo": named[key] ?? "" },
      el("h3", {}, placeName(k), combo ? el("span", { class: "combo" }, ` — ${combo}`) : null, rowTotal(st, k)),
      el("div", { class: "cards" }, cards.slice(0, 24).map(card)));
  });
  if (Object.keys(named).length) groups.unshift(el("p", { class: "coup-over" }, t("coup_over")));
  root.querySelector("#g-cards").replaceChildren(...groups);
  engineLog(root.querySelector(".engine-log"), st.log, 8);
}
