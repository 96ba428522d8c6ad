import { fillMoney, renderSession, t } from "./app.js";

fillMoney();
const me = await renderSession();
const who = document.getElementById("who");
if (!me) who.textContent = t("need_login");
document.body.dataset.ready = "1";
