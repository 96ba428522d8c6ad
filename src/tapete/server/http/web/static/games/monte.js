// Casino Monte: the croupier's card and the nine boxes, each with its card once dealt (nothing before), the
// players on a box (the first is its player, the rest back-bettors, up to the engine's limit), the main and
// tie bets of the picked box as spots with their payouts, the tie's decision (rematch or surrender half) as
// buttons with a sentence at the box, the rematch's cards, and each of my boxes' settlement (stake,
// returned, net). Every rule is the engine's.
import { card, el, kindHelp, kindLabel, money, say, t } from "../app.js";
import { settleLine } from "../feed.js";

let root = null;
let picked = 1;
let userPicked = false;      // until the player taps a box, the page picks the box he plays on

const frac = (v) => {
  if (typeof v === "number") return v;
  const [n, d] = String(v ?? "0").split("/").map(Number);
  return d ? n / d : n || 0;
};

export function init(node, ctx) {
  root = node;
  root.append(
    el("section", { class: "mt-croupier", id: "mt-croupier", "aria-label": t("mt_croupier") },
      el("h2", {}, t("mt_croupier")), el("div", { class: "cards", id: "mt-croupier-card" })),
    el("p", { class: "pk-note", id: "mt-note", "aria-live": "polite" }),
    el("div", { class: "mt-boxes", role: "group", "aria-label": t("pk_pick_box") },
      Array.from({ length: ctx.page.places || 9 }, (_, i) => el("div", { class: "mt-box", "data-box": i + 1 },
        el("button", { type: "button", class: "pk-box", "data-box": i + 1, "aria-pressed": String(i + 1 === picked),
          onclick: () => pick(ctx, i + 1) }, el("span", { class: "pk-box-n" }, say("box_n", { n: i + 1 })),
        el("span", { class: "pk-box-who" })),
        el("div", { class: "cards mt-card" }),
        el("ul", { class: "plain mt-people" }),
        el("div", { class: "mt-decide" })))),
    el("ul", { class: "plain settle-lines mt-settle", id: "mt-settle" }),
    el("div", { class: "pk-bets", id: "mt-bets", role: "group" }),
    el("p", { class: "help", id: "mt-help" }));
  drawSpots(ctx);
}

function pick(ctx, box, byUser = true) {
  userPicked = userPicked || byUser;
  picked = box;
  drawSpots(ctx);
  update(ctx);
}

function offered(ctx) {
  return ctx.actions.bets?.length ? ctx.actions.bets : (ctx.summary.phase === "betting" ? ctx.page.layout : []);
}

function drawSpots(ctx) {
  for (const b of root.querySelectorAll(".pk-box")) b.setAttribute("aria-pressed", String(Number(b.dataset.box) === picked));
  const kinds = offered(ctx);
  const box = root.querySelector("#mt-bets");
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
      "aria-label": label, title: kindHelp(info),
      onclick: () => ctx.bet([{ kind: k.kind, amount: ctx.chip(), extra: { box: picked } }]) },
    el("span", { class: "spot-text" }, name), info?.pays ? el("small", { class: "pays" }, info.pays) : null,
    el("span", { class: "stake", "aria-hidden": "true" }));
    b.dataset.label = label;
    return b;
  }));
  root.querySelector("#mt-help").textContent = kinds.length ? t("mt_help") : "";
  if (had) box.querySelector(`[data-kind="${had}"]`)?.focus();
}

/** The coup on the table: the live one once dealt, else (after the coup) the last one as it ended. */
function coupOf(ctx) {
  const live = ctx.view || {};
  if (live.dealt && Object.keys(live.cards || {}).length) return live;
  if (ctx.summary.phase === "settled" && ctx.recent[0]?.cards) return ctx.recent[0];
  return null;
}

function staked(b) { return b.amount * (b.rematch ? 2 : 1); }      // the rematch stakes the main bet again (003:5979-5985)

export function update(ctx) {
  const keep = root.contains(document.activeElement) && document.activeElement.dataset?.verb ? document.activeElement.dataset.verb : null;
  const own = (ctx.view?.bets || []).find((b) => b.player === ctx.me?.user && b.state !== "done")?.box;
  if (!userPicked && own && own !== picked) { pick(ctx, own, false); return; }
  drawSpots(ctx);
  const live = ctx.view || {};
  const coup = coupOf(ctx);
  const me = ctx.me?.user;
  const settled = ctx.summary.phase === "settled";
  const again = coup?.rematch_cards || {};
  const crCards = coup?.cards?.croupier ? [coup.cards.croupier] : [];
  const crNode = root.querySelector("#mt-croupier-card");
  crNode.replaceChildren(...(crCards.length ? crCards.map(card) : [el("span", { class: "muted" }, t("pk_not_dealt"))]),
    again.croupier ? el("span", { class: "mt-rematch" }, `${t("mt_rematch")}: `, card(again.croupier)) : "");
  const bets = (live.bets || []).filter((b) => (settled ? b.state === "done" : b.coup === live.coup));     // this coup's
  const tied = new Set(ctx.actions.decisions.filter((d) => d.mine).map((d) => d.bet));
  for (const node of root.querySelectorAll(".mt-box")) {
    const box = Number(node.dataset.box);
    const here = bets.filter((b) => b.box === box);
    const mains = here.filter((b) => b.kind === "main");
    const mine = here.filter((b) => b.player === me);
    const cents = mine.reduce((a, b) => a + (ctx.openBets.find((o) => o.id === b.id)?.staked ?? b.amount), 0);
    const who = mine.length ? `${t("you")} · ${money(cents)}` : here.length ? t("a_player") : t("pk_free");
    const tile = node.querySelector(".pk-box");
    tile.querySelector(".pk-box-who").textContent = who;
    tile.setAttribute("aria-label", `${say("box_n", { n: box })}: ${who}`);
    node.classList.toggle("mine", mine.length > 0);
    node.classList.toggle("taken", here.length > 0);
    node.classList.toggle("deciding", mine.some((b) => tied.has(b.id)));
    const boxCard = coup?.cards?.[`box ${box}`];
    node.querySelector(".mt-card").replaceChildren(...(boxCard ? [card(boxCard)] : []),
      again[`box ${box}`] ? el("span", { class: "mt-rematch" }, `${t("mt_rematch")}: `, card(again[`box ${box}`])) : "");
    node.querySelector(".mt-people").replaceChildren(...mains.map((b, i) => el("li", {},
      `${b.player === me ? t("you") : t("a_player")}${i ? ` (${t("mt_back")})` : ""}`)));
    const due = mine.filter((b) => tied.has(b.id));
    node.querySelector(".mt-decide").replaceChildren(...due.map((b) => el("div", { class: "pk-decide", role: "group",
      "aria-label": `${t("decisions")} ${say("box_n", { n: box })}` },
    el("p", {}, say("mt_tie_say", { amount: money(b.amount), half: money(b.amount / 2) })),
    ["rematch", "surrender"].map((v) => el("button", { type: "button", class: `verb verb-${v}`, "data-verb": v, "data-bet": b.id,
      "aria-label": `${t(`mt_verb_${v}`)} (${say("box_n", { n: box })})`, onclick: () => ctx.act({ bet: b.id, do: v }) },
    t(`mt_verb_${v}`))))));
  }
  // my settlement, box by box, in the one format (stake, returned, net)
  const lines = settled ? bets.filter((b) => b.player === me).sort((a, b) => a.box - b.box)
    .map((b) => ({ box: b.box, ...settleLine({ kind: b.kind, staked: staked(b), returned: frac(b.returned) }) })) : [];
  root.querySelector("#mt-settle").replaceChildren(...lines.map((l) => el("li", { "data-net": l.net, "data-box": l.box,
    class: l.net > 0 ? "won" : l.net < 0 ? "lost" : "push" }, `${say("box_n", { n: l.box })} · ${l.text}`)));
  const betting = offered(ctx).length > 0;
  for (const spot of root.querySelectorAll(".pk-spot")) {
    const cents = bets.filter((b) => b.player === me && b.box === picked && b.kind === spot.dataset.kind)
      .reduce((a, b) => a + (ctx.openBets.find((o) => o.id === b.id)?.staked ?? b.amount), 0);
    spot.querySelector(".stake").textContent = cents && !settled ? money(cents) : "";
    spot.classList.toggle("has-stake", cents > 0 && !settled);
    spot.setAttribute("aria-disabled", String(!betting));
  }
  const key = tied.size ? "mt_note_tie" : ctx.summary.phase === "betting" ? "mt_note_bet" : settled ? "pk_note_over"
    : ctx.summary.phase === "acting" ? "mt_note_others" : "";
  root.querySelector("#mt-note").textContent = key ? t(key) : "";
  if (keep) root.querySelector(`.mt-decide button[data-verb="${keep}"]`)?.focus();
}

/** The side panel's decisions: the tie is decided at the box, on the cloth. */
export function decisions(ctx, box) {
  const mine = ctx.actions.decisions.filter((d) => d.mine);
  const boxes = [...new Set(mine.map((d) => (ctx.view?.bets || []).find((b) => b.id === d.bet)?.box).filter(Boolean))];
  box.replaceChildren(el("p", { class: mine.length ? "" : "muted" },
    mine.length ? say("pk_decide_at", { boxes: boxes.join(", ") }) : t("no_decisions")));
}
