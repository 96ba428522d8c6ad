import { api, attempt, renderSession, session } from "./app.js";

const next = new URLSearchParams(location.search).get("next") || "/";

async function login(username, password) {
  const out = await api("/api/login", { method: "POST", body: { username, password }, idem: false });
  session.token = out.token;
  location.href = next.startsWith("/") ? next : "/";
}

document.getElementById("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  attempt(() => login(document.getElementById("login-user").value, document.getElementById("login-pass").value));
});
document.getElementById("register-form")?.addEventListener("submit", (e) => {
  e.preventDefault();
  const username = document.getElementById("reg-user").value;
  const password = document.getElementById("reg-pass").value;
  attempt(async () => {
    await api("/api/register", { method: "POST", body: { username, password }, idem: false });
    await login(username, password);
  });
});
await renderSession();
document.body.dataset.ready = "1";
