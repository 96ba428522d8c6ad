// The live feed in sentences of the page's language: who did what, by display name, box or seat (never a
// login name of another player, never a bet id or a raw document), and every settlement in one format:
// stake, returned and net (+€40.00 / −€5.00), the same figures on every panel.
import { kindLabel, money, net, say, t, verbText } from "./app.js";

const PHASE_SAYS = {
  "no va más": "feed_no_more",
  "result keyed: awaiting confirmation": "feed_keyed",
  "the spin is relaunched": "feed_relaunch",
  "the table closes: outside its opening hours": "feed_hours",
  "time: the defaults apply": "feed_timeout",
};

/** A target in words: " on 17", " on 17-20" ("" without one). */
export function spotText(on) {
  // a target naming another bet (craps odds: ["b1"]) is not shown: a bet id means nothing to a player
  const parts = (on === null || on === undefined ? [] : [].concat(on)).filter((x) => !/^b\d+$/.test(String(x)));
  return parts.length ? ` ${t("on_spot")} ${parts.join("-")}` : "";
}

/** An outcome document's value in words: {"spin": 0} -> "0", {"dice": [3, 4]} -> "3-4". */
export function outcomeText(event) {
  if (!event || typeof event !== "object") return "";
  const [name, value] = Object.entries(event).find(([k]) => k !== "last") || [];
  if (name === undefined) return "";
  if (Array.isArray(value)) return value.join("-");
  if (value && typeof value === "object") return Object.values(value).flat().join(" ");
  return String(value);
}

/** The seats of a circle table by player, for naming them by seat (summary.circle.seats). */
let seatsByPlayer = {};
export function knowSeats(seats) {
  seatsByPlayer = Object.fromEntries((seats || []).map((s) => [s.player, s]));
}

/** Who did it: "You", the player's display name, their box or seat, or "A player". */
export function who(rec, me) {
  const d = rec.data || {};
  const body = d.event?.bet || d.event?.act || {};
  if (me && (rec.actor === me || d.player === me || body.player === me)) return t("you");
  const seated = seatsByPlayer[rec.actor] || seatsByPlayer[d.player];
  const name = d.display_name || body.display_name || seated?.display_name;
  if (name) return name;
  if (seated) return say("seat_n", { n: seated.seat });
  if (body.box) return say("box_n", { n: body.box });
  if (d.seat || body.seat) return say("seat_n", { n: d.seat || body.seat });
  return t("a_player");
}

/** One settled bet of the round: its figures, and a sentence with them. */
export function settleLine(b) {
  const staked = b.staked ?? 0;
  const returned = b.returned ?? 0;
  const result = returned - staked;
  return { staked, returned, net: result,
    text: say("settle_line", { bet: kindLabel(b.kind || ""), staked: money(staked), returned: money(returned), net: net(result) }) };
}

/** The settlement lines of `me`'s bets, then their total and the house's rake where there is one. */
export function settlementLines(data, me) {
  const mine = Object.values(data?.bets || {}).filter((b) => b.player === me).map(settleLine);
  if (!mine.length) return [];
  const out = [...mine];
  if (mine.length > 1) {
    const staked = mine.reduce((a, b) => a + b.staked, 0);
    const returned = mine.reduce((a, b) => a + b.returned, 0);
    out.push({ staked, returned, net: returned - staked,
      text: say("settle_total", { staked: money(staked), returned: money(returned), net: net(returned - staked) }) });
  }
  const rake = data?.house?.rake ?? data?.house?.commission;
  if (rake) out.push({ net: 0, text: say("settle_rake", { amount: money(rake) }) });
  return out;
}

/** Whether the record is the reader's own doing (a sentence in the second person). */
function mine(rec, me) {
  const d = rec.data || {};
  return Boolean(me) && (rec.actor === me || d.player === me);
}

/** The reason of a void, as the players read it: a cause the catalogs name in words, the chief's own text
 * otherwise; "" when the record carries none. */
export function voidReason(d) {
  const raw = d.reason ?? (typeof d.event?.void === "string" ? d.event.void : "");
  if (!raw) return "";
  return t(`void_cause_${raw}`) !== `void_cause_${raw}` ? t(`void_cause_${raw}`) : String(raw);
}

/** A record of the table's log as a sentence for `role` ("player" or "staff"); null for records not shown. */
export function feedLine(rec, me, role = "player") {
  const d = rec.data || {};
  const ev = d.event || {};
  switch (rec.kind) {
    case "open": return say("feed_open", { round: d.round ?? "" });
    case "bet": {
      const b = ev.bet || {};
      return say(rec.actor === me || b.player === me ? "feed_bet_you" : "feed_bet", {
        who: who(rec, me), amount: money(b.amount), bet: kindLabel(b.kind || ""), spot: spotText(b.on) });
    }
    case "act": {
      const a = ev.act || {};
      return say("feed_act", { who: who(rec, me), verb: verbText(a.do) });
    }
    case "close": return t("feed_no_more");
    case "phase": return PHASE_SAYS[d.say] ? t(PHASE_SAYS[d.say]) : null;
    case "timeout": return t("feed_timeout");
    case "outcome":
      if (d.source === "rng") return say("feed_draw", { value: outcomeText(ev) });      // drawn: final at once
      return role === "staff" ? say("feed_outcome_staff", { value: outcomeText(ev) }) : t("feed_outcome");
    case "confirm": return t("feed_confirm");
    // the table chief's reason, when he gave one, is read out to everyone at the table (issue 30, item 7)
    case "correct": return d.reason ? say("feed_correct_why", { value: outcomeText(ev), reason: d.reason }) : say("feed_correct", { value: outcomeText(ev) });
    case "void": {
      // the chief's reason, where the record carries it (a cause the catalog names is said in words)
      const reason = voidReason(d);
      return reason ? say("feed_void_reason", { reason }) : t("feed_void");
    }
    case "hand-back": return t("feed_hand_back");
    case "deal": return t("feed_deal");
    case "acting": return t("feed_acting");
    case "no-outcome": return t("feed_no_coup");
    case "limits-in-force": return t("feed_limits");
    case "recovered": return t("feed_recovered");
    case "shoe": return t(d.event === "end" ? "feed_shoe_end" : "feed_shoe_new");
    case "sit": return say(mine(rec, me) ? "feed_sit_you" : "feed_sit", { who: who(rec, me), seat: d.seat });
    case "leave": return say(mine(rec, me) ? "feed_leave_you" : "feed_leave", { who: who(rec, me), seat: d.seat });
    case "settlement": {
      const mine = settlementLines(d, me);
      const total = mine.length > 1 ? mine.at(-1 - (d.house?.rake ?? d.house?.commission ? 1 : 0)) : mine[0];
      const own = Object.values(d.bets || {}).filter((b) => b.player === me);
      if (own.length && own.every((b) => b.status === "void")) {
        return say("feed_settled_void_you", { round: d.round ?? "", amount: money(own.reduce((a, b) => a + (b.returned ?? 0), 0)) });
      }
      return total ? say("feed_settled_you", { round: d.round ?? "", text: total.text }) : say("feed_settled", { round: d.round ?? "" });
    }
    default: return null;
  }
}
