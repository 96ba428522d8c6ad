// The craps layout: line bets, come, field, big 6/8, the numbers (place to win and to lose), hard ways,
// the one-roll propositions; the puck (OFF, or ON at the point); odds on my line and come bets.
import { engineLog, el, kindLabel, markSpots, money, spotButton, t } from "../app.js";

let root = null;
const NUMBERS = [4, 5, 6, 8, 9, 10];
const COME_ROW = ["come", "dont-come", "field", "big-6", "big-8"];
const ONE_ROLL = ["any-seven", "eleven", "any-craps", "craps-2", "craps-3", "craps-12", "horn", "under-7", "over-7"];

/** What a spot pays, as the rules say it (the server reads it from `tapete rules craps`): "9:5". */
function paysOf(ctx, kind, on) {
  const pays = ctx.page.spot_pays || {};
  return (on ? pays[`${kind}|${on.join("-")}`] : null) ?? pays[kind] ?? "";
}

function spots(ctx, kinds, filter) {
  return kinds.filter(filter).flatMap((k) => (k.targets?.length ? k.targets : [null]).map((on) => {
    const name = `${kindLabel(k.kind)}${on ? ` ${on.join("-")}` : ""}`;
    const pays = paysOf(ctx, k.kind, on);
    const b = spotButton(ctx, { kind: k.kind, on, label: pays ? `${name} — ${t("pays")} ${pays}` : name, text: name, cls: `craps ${k.kind}` });
    if (pays) b.querySelector(".spot-text").after(" ", el("small", { class: "pays" }, pays));
    return b;
  }));
}

export function init(node, ctx) {
  root = node;
  const kinds = ctx.page.layout;
  const numbers = el("div", { class: "numbers", role: "group", "aria-label": `${kindLabel("place")} · ${kindLabel("place-to-lose")}` }, NUMBERS.map((n) => el("div", { class: "number-box", "data-number": n },
    el("div", { class: "puck-slot" }), el("strong", {}, String(n)),
    ...spots(ctx, kinds, (k) => (k.kind === "place" || k.kind === "place-to-lose") && k.targets?.[0]?.[0] === n)
      .map((b) => { b.querySelector(".spot-text").textContent = kindLabel(b.dataset.kind); return b; }))));
  root.append(
    el("div", { class: "puck-row" }, el("span", { class: "puck off", id: "puck", role: "status" }, t("puck_off")),
      el("span", { class: "dice", id: "dice", role: "status", "aria-label": t("dice") })),
    numbers,
    el("div", { class: "row line", id: "come-row" }, spots(ctx, kinds, (k) => COME_ROW.includes(k.kind))),
    el("div", { class: "row line" }, spots(ctx, kinds, (k) => ["pass", "dont-pass"].includes(k.kind))),
    el("div", { class: "row props" }, spots(ctx, kinds, (k) => k.kind === "hardway" || ONE_ROLL.includes(k.kind))),
    el("div", { class: "row odds", id: "odds", role: "group", "aria-label": kindLabel("odds") }),
    el("div", { class: "engine-log", "aria-live": "polite" }));
}

export function update(ctx) {
  const st = ctx.view || {};
  const point = st.point ?? null;
  const puck = root.querySelector("#puck");
  puck.className = `puck ${point ? "on" : "off"}`;
  puck.textContent = point ? `${t("puck_on")} · ${t("point")} ${point}` : t("puck_off");
  puck.dataset.point = point ?? "";
  for (const box of root.querySelectorAll(".number-box")) box.classList.toggle("point", Number(box.dataset.number) === point);
  const last = (st.history || []).at(-1);
  root.querySelector("#dice").textContent = last ? `⚀ ${last.join(" + ")} = ${last[0] + last[1]}` : "";
  // the come row as the engine offers it now (come and don't come open once a point is on), else the layout's
  const offered = (ctx.actions.bets || []).length ? ctx.actions.bets : ctx.page.layout;
  const row = root.querySelector("#come-row");
  const wanted = offered.filter((k) => COME_ROW.includes(k.kind)).map((k) => k.kind).sort().join(",");
  if (row.dataset.kinds !== wanted) {
    row.dataset.kinds = wanted;
    row.replaceChildren(...spots(ctx, offered, (k) => COME_ROW.includes(k.kind)));
  }
  // my come bets travelled to their number: shown in the number's box
  for (const box of root.querySelectorAll(".number-box")) {
    const n = Number(box.dataset.number);
    const mine = (st.bets || []).filter((b) => ["come", "dont-come"].includes(b.kind) && b.number === n && b.player === ctx.me?.user);
    let tag = box.querySelector(".come-tag");
    if (!mine.length) { tag?.remove(); continue; }
    if (!tag) { tag = el("span", { class: "come-tag" }); box.append(tag); }
    tag.textContent = mine.map((b) => `${kindLabel(b.kind)} ${money(b.amount)}`).join(" · ");
  }
  const oddsTargets = (ctx.actions.bets || []).filter((k) => k.kind === "odds").flatMap((k) => k.targets || []);
  const oddsBox = root.querySelector("#odds");
  const active = document.activeElement;
  const keep = active && oddsBox.contains(active) ? active.dataset.on : null;
  oddsBox.replaceChildren(...oddsTargets.map((on) => {
    const base = (st.bets || []).find((b) => b.id === on[0]);
    const point = base?.number ?? st.point;
    const what = `${t("odds_on")} ${base ? kindLabel(base.kind) : t("your_bet")}${point ? ` · ${t("point")} ${point}` : ""}`;
    const pays = point ? paysOf(ctx, "odds", [point]) : "";
    return spotButton(ctx, { kind: "odds", on, label: pays ? `${what} — ${t("pays")} ${pays}` : what, text: what, cls: "craps odds" });
  }));
  if (keep) oddsBox.querySelector(`[data-on="${keep}"]`)?.focus();
  markSpots(root, ctx);
  engineLog(root.querySelector(".engine-log"), st.log, 5);
}

export function history(ctx) {
  return (ctx.view?.history || []).map((d) => `${d[0]}-${d[1]}`);
}
