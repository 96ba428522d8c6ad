import { api, attempt, renderSession } from "./app.js";

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
