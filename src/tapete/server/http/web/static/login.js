import { api, attempt, errorText, renderSession, T } from "./app.js";

const next = new URLSearchParams(location.search).get("next") || "/";

async function login(username, password) {
  // the session comes back as an HttpOnly cookie: this page never holds the token
  await api("/api/session", { method: "POST", body: { username, password }, idem: false });
  location.href = next.startsWith("/") ? next : "/";
}

document.getElementById("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  attempt(() => login(document.getElementById("login-user").value, document.getElementById("login-pass").value));
});
const registration = document.getElementById("register-form");
registration?.addEventListener("submit", (e) => {
  e.preventDefault();
  const value = (id) => document.getElementById(id).value;
  const body = { username: value("reg-user"), password: value("reg-pass"), birth_date: value("reg-birth"),
    document: value("reg-doc") };
  for (const slot of registration.querySelectorAll(".field-error")) slot.replaceChildren();
  for (const input of registration.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  attempt(async () => {
    try {
      await api("/api/register", { method: "POST", body, idem: false });
    } catch (err) {
      // a refusal of one field is said next to it, in the page's language (the rule it breaks: `reason`)
      const e = err?.doc?.error;
      const slot = e?.field && registration.querySelector(`.field-error[data-field="${e.field}"]`);
      if (!slot) throw err;
      slot.textContent = T[`reg_err_${e.field}_${e.reason}`] ?? errorText(e.code);
      const input = registration.querySelector(`[name="${e.field}"]`);
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    await login(body.username, body.password);
  });
});
await renderSession();
document.body.dataset.ready = "1";
