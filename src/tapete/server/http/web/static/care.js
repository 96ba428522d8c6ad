// The reality check (issue 31): on a table page, every `reality_check_min` minutes of the play session, a dialog
// saying how long the player has played and his net result this session. The casino file sets the interval.
import { api, el, net, say, session, t } from "./app.js";

const PAGES = new Set(["table"]);

async function remind(dialog) {
  let care;
  try { care = await api("/api/me/care"); } catch { return; }
  const text = dialog.querySelector(".reality-text");
  text.textContent = say("reality_text", { minutes: care.session.minutes, net: net(care.session.net) });
  if (!dialog.open) dialog.showModal();
}

async function start() {
  if (!PAGES.has(document.body.className.replace(/^page-/, "")) || !session.active) return;
  let care;
  try { care = await api("/api/me/care"); } catch { return; }     // not a player (staff), or logged out
  const every = care.reality_check_min * 60;
  const dialog = el("dialog", { id: "reality-check", class: "reality", "aria-labelledby": "reality-title" },
    el("h2", { id: "reality-title" }, t("reality_title")),
    el("p", { class: "reality-text" }),
    el("div", { class: "reality-actions" },
      el("button", { type: "button", id: "reality-continue", onclick: () => dialog.close() }, t("reality_continue")),
      el("a", { href: "/account", class: "button secondary" }, t("reality_account"))));
  document.body.append(dialog);
  const first = every - (care.session.seconds % every);
  const tick = () => remind(dialog);
  setTimeout(() => { tick(); setInterval(tick, every * 1000); }, first * 1000);
}

start();
