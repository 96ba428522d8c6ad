// A player's table: the common frame (phase, chips, decisions, my bets, results, live feed) around the
// game family's own drawing (games/<family>.js). Everything shown comes from the API; every rule is the engine's.
import {
  api, attempt, cardText, chipRack, chipValues, el, fillMoney, kindLabel, money, page, phaseText, plural, renderSession, say,
  session, setBalance, stream, t, verbText,
} from "./app.js";
import { feedLine, knowSeats, settlementLines, spotText } from "./feed.js";

const tableId = page.table.id;
const family = await import(`./games/${page.family}.js`);
fillMoney();

const ctx = {
  page, tableId, t, summary: page.table, view: null, recent: [], actions: { bets: [], decisions: [] }, openBets: [], me: null,
  chip: () => 0,
  bet: (items) => placeBets(items),
  act: (doc) => act(doc),
  refresh: () => refresh(),
};

// A stake far above the table's minimum is asked about before it is sent (issue 31: two quick taps with the
// €100 chip at a €1 table placed €200 at once): one placement of BIG times the table's smallest chip or more
// waits for the player's yes in a modal dialog; a tap while the question is open places nothing. Only chip
// stakes are asked about: an amount the player typed (the chemin de fer bank) or one named on its spot (banco)
// was chosen in words already.
const BIG = 25;
let asking = null;

function confirmStake(total, minimum) {
  if (asking) return Promise.resolve(false);
  asking = new Promise((resolve) => {
    const done = (yes) => { dialog.close(); dialog.remove(); asking = null; resolve(yes); };
    const no = el("button", { type: "button", class: "secondary", id: "stake-no", onclick: () => done(false) }, t("stake_confirm_no"));
    const dialog = el("dialog", { class: "stake-confirm", "aria-labelledby": "stake-confirm-h", "aria-describedby": "stake-confirm-p" },
      el("h2", { id: "stake-confirm-h" }, t("stake_confirm_title")),
      el("p", { id: "stake-confirm-p" }, say("stake_confirm", { amount: money(total), times: Math.floor(total / minimum), minimum: money(minimum) })),
      el("div", { class: "row" }, el("button", { type: "button", id: "stake-yes", onclick: () => done(true) },
        say("stake_confirm_yes", { amount: money(total) })), no));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();                 // Enter pressed twice does not say yes
  });
  return asking;
}

async function placeBets(items) {
  const total = items.reduce((sum, b) => sum + (Number(b.amount) || 0), 0);
  const chips = items.every((b) => b.amount === ctx.chip());
  if (asking || (chips && total >= BIG * smallest && !(await confirmStake(total, smallest)))) return undefined;
  const out = await attempt(() => api(`/api/tables/${tableId}/bets`, { method: "POST", body: { bets: items } }));
  if (out) { setBalance(out.balance); await refresh(); }
  return out;
}

async function act(doc) {
  const out = await attempt(() => api(`/api/tables/${tableId}/acts`, { method: "POST", body: doc }));
  if (out) { setBalance(out.balance); await refresh(); }
  return out;
}

function renderStatus() {
  const s = ctx.summary;
  document.getElementById("phase").textContent = phaseText(s.phase);
  document.getElementById("phase").dataset.phase = s.phase;
  document.getElementById("round").textContent = s.round;
  document.getElementById("timer").textContent = s.seconds_left ? `· ${plural("seconds_left", Math.round(s.seconds_left))}` : "";
}

function renderHistory() {
  const list = document.getElementById("history");
  const items = family.history ? family.history(ctx) : (ctx.summary.history || []).map((h) => (Array.isArray(h) ? h.join("-") : String(h)));
  list.replaceChildren(...items.slice(-20).reverse().map((h, i) => el("li", { class: i === 0 ? "latest" : "" }, h)));
}

function renderMyBets() {
  const list = document.getElementById("my-bets");
  const mine = ctx.openBets;
  list.replaceChildren(...(mine.length ? mine.map((b) => el("li", { "data-bet": b.id },
    `${kindLabel(b.kind)}${spotText(b.on)} · ${money(b.staked ?? b.amount)}`))
    : [el("li", { class: "muted" }, t("no_bets"))]));
}

function renderDecisions() {
  const box = document.getElementById("decisions");
  // A live update redraws the buttons: keep the keyboard user's focus on the same decision, or an Enter
  // pressed just after the redraw would go nowhere.
  const had = box.contains(document.activeElement) ? document.activeElement : null;
  const again = had && had.dataset ? `[data-verb="${had.dataset.verb ?? ""}"][data-bet="${had.dataset.bet ?? ""}"]` : null;
  drawDecisions(box);
  if (again && !box.contains(document.activeElement)) box.querySelector(`button${again}`)?.focus();
}

function drawDecisions(box) {
  if (family.decisions) { family.decisions(ctx, box); return; }     // a family that draws its own (circle poker)
  const mine = ctx.actions.decisions.filter((d) => d.mine);
  if (!mine.length) { box.replaceChildren(el("p", { class: "muted" }, t("no_decisions"))); return; }
  const wantsAmount = page.family === "generic" && mine.some((d) => d.minimum !== undefined || d.maximum !== undefined);
  const fields = wantsAmount ? el("input", { id: "act-fields", type: "number", min: "0.01", step: "0.01", "aria-label": t("bet_amount") }) : null;
  const key = (d) => d.bet ?? d.by;
  const label = (bet) => (family.betLabel ? family.betLabel(ctx, bet) : betName(bet));      // a decision on a bet, or for a hand the engine names (`by`: punto, bank)
  const bets = [...new Set(mine.map(key))];
  box.replaceChildren(
    ...bets.map((bet) => el("div", { class: "decision-row", role: "group", "aria-label": `${t("decisions")} ${label(bet)}` },
      el("span", { class: "who" }, label(bet)),
      ...mine.filter((d) => key(d) === bet).map((d) => el("button", {
        type: "button", class: `verb verb-${d.do}`, "data-verb": d.do, "data-bet": d.bet ?? "", "data-by": d.by ?? "",
        "aria-label": `${verbText(d.do)} (${label(bet)})`,
        onclick: () => act({ ...(d.bet ? { bet: d.bet } : { by: d.by }), do: d.do,
          fields: fields?.value ? { amount: Math.round(Number(fields.value) * 100) } : {} }),
      }, verbText(d.do))),
      page.table.game === "blackjack" ? el("button", {
        type: "button", class: "secondary hint", "data-bet": bet, "aria-label": `${t("strategy_hint")} (${label(bet)})`,
        onclick: () => hint(bet),
      }, t("strategy_hint")) : null)),
    ...(fields ? [el("label", { for: "act-fields" }, t("bet_amount")), fields] : []));
}

/** A bet of mine in words: its kind and place ("Ante, box 2"), never its id. */
function betName(id) {
  const b = ctx.openBets.find((x) => x.id === id) || (ctx.view?.bets || []).find?.((x) => x.id === id);
  if (!b) return verbText(id) === id ? t("your_bet") : verbText(id);
  const box = b.box ?? b.extra?.box;
  return `${kindLabel(b.kind)}${spotText(b.on)}${box ? ` · ${t("box")} ${box}` : ""}`;
}

let hinted = null;     // the bet whose strategy hint is on show: asked again after each card, gone when nothing is due

async function hint(bet, quiet = false) {
  hinted = bet;
  let out;
  try {
    out = await api(`/api/tables/${tableId}/hint?bet=${encodeURIComponent(bet)}`);
  } catch (err) {
    if (!quiet) await attempt(() => Promise.reject(err));
    hinted = null;
    document.getElementById("hint").replaceChildren();
    return;
  }
  document.getElementById("hint").replaceChildren(el("p", { class: "hint-text", "data-advice": out.advice },
    `${t("hint_says")}: `, el("strong", {}, verbText(out.advice)),
    ` (${out.cards.map(cardText).join(" ")} / ${cardText(out.dealer)})`));
}

/** The hint follows the hand: asked again when the bet still has a decision due, cleared otherwise. */
function refreshHint() {
  if (!hinted) return;
  const due = ctx.actions.decisions.some((d) => d.mine && d.bet === hinted);
  if (due) hint(hinted, true);
  else { hinted = null; document.getElementById("hint").replaceChildren(); }
}

function onRecord(rec) {
  if (rec.type === "snapshot") { ctx.summary = rec.table; schedule(); return; }
  const live = document.getElementById("live");
  const line = feedLine(rec, ctx.me?.user, "player");
  if (line) live.prepend(el("li", { "data-kind": rec.kind }, line));
  while (live.children.length > 30) live.lastChild.remove();
  if (rec.kind === "settlement" && ctx.me) {
    const lines = settlementLines(rec.data, ctx.me.user);
    if (lines.length) {
      document.getElementById("last-result").replaceChildren(el("div", { class: "result" },
        el("h3", {}, resultTitle(rec.data)),
        el("ul", { class: "plain settle-lines" }, ...lines.map((l) => el("li", { "data-net": l.net, class: l.net > 0 ? "won" : l.net < 0 ? "lost" : "push" }, l.text)))));
    }
  }
  schedule();
}

/** The heading of a settlement: its round, or, for a bet settled later than its round (the half back of a
 * zero's simple chance, taken during the next round), the round the bet was placed in. */
function resultTitle(data) {
  const rounds = [...new Set(Object.values(data?.bets || {}).filter((b) => b.player === ctx.me?.user)
    .map((b) => b.round).filter((r) => r !== undefined && r !== null))];
  if (data?.partial && rounds.length === 1 && rounds[0] !== data.round) return say("result_of_bet_round", { round: rounds[0] });
  return say("result_of_round", { round: data?.round ?? "" });
}

let timer = null;
function schedule() { clearTimeout(timer); timer = setTimeout(refresh, 120); }

async function refresh() {
  if (!session.me) return;
  try {
    const [full, view, me] = await Promise.all([
      api(`/api/tables/${tableId}`), api(`/api/tables/${tableId}/view?recent=${family.recent ?? 1}`), api("/api/me")]);
    ctx.summary = full;
    knowSeats(full.circle?.seats);
    ctx.actions = full.actions;
    ctx.openBets = full.open_bets.filter((b) => b.player === me.user);
    ctx.view = view.state;
    ctx.recent = view.recent || [];
    ctx.me = me;
    setBalance(me.balance);
  } catch (err) { return; }
  renderStatus();
  renderHistory();
  renderMyBets();
  renderDecisions();
  refreshHint();
  family.update(ctx);
  document.body.dataset.ready = "1";
}

const me = await renderSession();
ctx.me = me;
const limits = page.table.limits;
const minimum = Math.min(...page.layout.map((k) => k.minimum).filter(Boolean), limits.minimum || Infinity);
const smallest = Number.isFinite(minimum) ? minimum : 100;      // the table's smallest chip: the measure of a big stake
ctx.chip = chipRack(document.getElementById("chips"), chipValues(smallest, limits.maximum));
family.init(document.getElementById("game"), ctx);
renderStatus();
if (!me) {
  document.getElementById("decisions").replaceChildren(el("p", {}, el("a", { href: `/login?next=/tables/${tableId}` }, t("need_login"))));
} else {
  await refresh();
  stream(tableId, onRecord);
}
setInterval(() => {   // the countdown between refreshes
  const s = ctx.summary;
  if (s.seconds_left) { s.seconds_left = Math.max(s.seconds_left - 1, 0); renderStatus(); }
}, 1000);
