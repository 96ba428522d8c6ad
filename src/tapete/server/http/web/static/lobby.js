// The lobby: tables by game, live over the public lobby stream (phase, countdown, free seats: nothing private),
// for visitors as well as players.
import { fillMoney, plural, renderSession, t } from "./app.js";

fillMoney();
const me = await renderSession();
const who = document.getElementById("who");
if (!me) who.textContent = t("need_login");

const rows = new Map();     // table id -> its last public row, with the time it came
function draw(id) {
  const row = rows.get(id);
  const tr = document.querySelector(`tr[data-table="${CSS.escape(id)}"]`);
  if (!row || !tr) return;
  const cell = tr.querySelector(".phase-cell");
  cell.dataset.phase = row.phase;
  cell.querySelector(".phase-text").textContent = t(`phase_${row.phase}`);
  const left = row.seconds_left ? Math.max(Math.round(row.seconds_left - (Date.now() - row.at) / 1000), 0) : 0;
  cell.querySelector(".countdown").textContent = left ? ` · ${plural("seconds_left", left)}` : "";
  const hours = cell.querySelector(".hours");
  if (row.open_now && hours) hours.remove();
  else if (!row.open_now && !hours) cell.append(Object.assign(document.createElement("span"), { className: "hours", textContent: ` · ${t("closed_now")}` }));
  tr.querySelector(".seats-cell").textContent = row.seats_free === null || row.seats_free === undefined ? t("any") : String(row.seats_free);
  tr.dataset.round = row.round;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/lobby/stream`);
  ws.onmessage = (m) => {
    let row;
    try { row = JSON.parse(m.data); } catch { return; }
    if (!row.id) return;
    rows.set(row.id, { ...row, at: Date.now() });
    draw(row.id);
    document.body.dataset.live = "1";
  };
  ws.onclose = () => setTimeout(connect, 2000);
  const ping = setInterval(() => ws.readyState === 1 ? ws.send("ping") : null, 20000);
  ws.addEventListener("close", () => clearInterval(ping));
}
connect();
setInterval(() => { for (const id of rows.keys()) draw(id); }, 1000);
document.body.dataset.ready = "1";
