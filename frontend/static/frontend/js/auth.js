// Sign in, sign up, change or reset a password, sign out: forms that post JSON to /api/auth/….
// Errors are shown next to their field (error.fields) and, when they belong to no field
// (wrong credentials, too many attempts, network), in the form's own message (#form-error).

import { api } from "./api.js";
import { errorText, headerSignedIn, headerSignedOut, say } from "./ui.js";

/** A same-site path to go to after signing in; anything else (other sites, "//evil") → "/". */
export function safeNext(value) {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return "/";
  if (value.startsWith("/\\")) return "/";
  try {
    const url = new URL(value, window.location.origin);
    if (url.origin !== window.location.origin) return "/";
    // Going back to a sign-in page after signing in would only be confusing.
    if (["/signin/", "/signup/"].includes(url.pathname)) return "/";
    return url.pathname + url.search + url.hash;
  } catch {
    return "/";
  }
}

function fieldError(form, name) {
  return form.querySelector(`[data-error-for="${name}"]`);
}

function clearErrors(form) {
  for (const node of form.querySelectorAll("[data-error-for]")) say(node, "");
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  say(form.querySelector(".form-error"), "");
  say(form.querySelector(".form-status"), "");
}

/** Show messages per field; those for unknown fields join the form-level message. Returns the
 * first invalid input, to focus. */
function showErrors(form, fields, formMessage) {
  const loose = formMessage ? [formMessage] : [];
  let first = null;
  for (const [name, messages] of Object.entries(fields || {})) {
    const list = Array.isArray(messages) ? messages : [String(messages)];
    const slot = fieldError(form, name);
    const input = form.elements.namedItem(name);
    if (!slot || !input) {
      loose.push(...list);
      continue;
    }
    say(slot, list.join(" "), "error");
    input.setAttribute("aria-invalid", "true");
    first ??= input;
  }
  if (loose.length) say(form.querySelector(".form-error"), loose.join(" "), "error");
  return first;
}

/** Empty required fields and mismatched confirmations, checked before asking the server. */
function localErrors(form) {
  const fields = {};
  for (const input of form.querySelectorAll("input[required]")) {
    const missing = input.type === "checkbox" ? !input.checked : !input.value.trim();
    if (missing) fields[input.name] = [input.dataset.missing || "This field is required."];
  }
  for (const input of form.querySelectorAll("input[data-same-as]")) {
    const other = form.elements.namedItem(input.dataset.sameAs);
    if (input.value && other && input.value !== other.value && !fields[input.name]) {
      fields[input.name] = ["The two passwords differ."];
    }
  }
  return fields;
}

/**
 * Wire a form: on submit, check it, post `body(form)` to `path`, then `onSuccess(result)`.
 * Field names in the form match the API's field names, so server errors land next to them.
 */
function bindForm(form, { path, method = "POST", body, onSuccess }) {
  const button = form.querySelector("button[type=submit]");
  const idleLabel = button?.textContent;
  let inFlight = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // One request at a time: a second submit (Enter in a field, requestSubmit) while the
    // first is on its way would be answered after the first had cleared what was typed.
    if (inFlight) return;
    clearErrors(form);
    const local = localErrors(form);
    if (Object.keys(local).length) {
      showErrors(form, local)?.focus();
      return;
    }
    if (button) {
      button.disabled = true;
      button.textContent = button.dataset.busy || "Please wait…";
    }
    form.setAttribute("aria-busy", "true");
    inFlight = true;
    try {
      const result = await api(method, path, body(form));
      await onSuccess(result);
    } catch (error) {
      const fields = { ...(error?.fields || {}) };
      const general = fields.non_field_errors;
      delete fields.non_field_errors;
      const hasFields = Object.keys(fields).length > 0;
      // A validation error's message repeats its first field message: show it only when no
      // field carries it.
      const message = general ? general.join(" ") : hasFields ? "" : errorText(error);
      const first = showErrors(form, fields, message);
      (first || form.querySelector(".form-error"))?.focus();
    } finally {
      inFlight = false;
      form.removeAttribute("aria-busy");
      if (button) {
        button.disabled = false;
        button.textContent = idleLabel;
      }
    }
  });
}

const value = (form, name) => form.elements.namedItem(name)?.value ?? "";

function initSignin(form) {
  bindForm(form, {
    path: "/api/auth/login/",
    body: (f) => ({ username: value(f, "username").trim(), password: value(f, "password") }),
    onSuccess: () => window.location.assign(safeNext(form.dataset.next)),
  });
}

function initSignup(form) {
  bindForm(form, {
    path: "/api/auth/register/",
    body: (f) => ({
      username: value(f, "username").trim(),
      email: value(f, "email").trim(),
      password: value(f, "password"),
    }),
    onSuccess: (account) => {
      const next = safeNext(form.dataset.next);
      if (!account?.email_to_confirm) {
        window.location.assign(next);
        return;
      }
      // Signed in already; the address waits for its link. Say so before going on, or the
      // player never learns why no reset email would come.
      showEmailToConfirm(form, account, next);
    },
  });
}

function showEmailToConfirm(form, account, next) {
  const section = form.closest("section") || form.parentElement;
  const heading = section.querySelector("h1");
  if (heading) heading.textContent = `Welcome, ${account.username}!`;
  headerSignedIn(account.username); // the page says "signed in": its header says who
  const note = document.createElement("div");
  note.id = "signup-confirm";
  note.setAttribute("role", "status");
  const ready = document.createElement("p");
  ready.textContent = "Your account is ready and you are signed in.";
  const address = document.createElement("strong");
  address.textContent = account.email_to_confirm;
  const inbox = document.createElement("p");
  inbox.append("Check your inbox: we sent a link to ", address, " to confirm it. ");
  inbox.append("Until it is followed, password reset links are not sent there.");
  const go = document.createElement("a");
  go.className = "button primary";
  go.href = next;
  go.textContent = "Continue";
  note.append(ready, inbox, go);
  // The form and the sign-in offer under it are done with.
  section.replaceChildren(...[heading, note].filter(Boolean));
  go.focus();
}

function initPassword(form) {
  bindForm(form, {
    path: "/api/auth/password/",
    body: (f) => ({ old_password: value(f, "old_password"), new_password: value(f, "new_password") }),
    onSuccess: () => {
      form.reset();
      const status = form.querySelector(".form-status");
      say(status, "Your password has been changed. Scripts using your API token need a new one.", "ok");
    },
  });
}

function initEmail(form) {
  bindForm(form, {
    path: "/api/auth/me/",
    method: "PATCH",
    body: (f) => ({ email: value(f, "email").trim(), password: value(f, "password") }),
    onSuccess: (user) => {
      form.elements.namedItem("email").value = user.email;
      form.elements.namedItem("password").value = "";
      say(form.querySelector(".form-status"), user.email ? `Saved: ${user.email}.` : "Address removed.", "ok");
    },
  });
}

function initReset(form) {
  bindForm(form, {
    path: "/api/auth/password/reset/",
    body: (f) => ({ email: value(f, "email").trim() }),
    onSuccess: (result) => say(form.querySelector(".form-status"), result.detail, "ok"),
  });
}

function initResetConfirm(form) {
  bindForm(form, {
    path: "/api/auth/password/reset/confirm/",
    body: (f) => ({ uid: f.dataset.uid, token: f.dataset.token, new_password: value(f, "new_password") }),
    onSuccess: async () => {
      form.hidden = true;
      document.getElementById("reset-done").hidden = false;
      document.getElementById("reset-again").hidden = true; // the link has done its work
      // Every session of that account has ended: this one too, when it was that account's.
      if (!document.documentElement.dataset.user) return;
      try {
        await api("GET", "/api/auth/me/");
      } catch (error) {
        if (error.status === 401 || error.status === 403) headerSignedOut();
      }
    },
  });
}

function initEmailConfirm(form) {
  bindForm(form, {
    path: "/api/auth/email/confirm/",
    body: (f) => ({ token: f.dataset.token }),
    onSuccess: (user) => {
      form.hidden = true;
      const done = document.getElementById("email-confirm-done");
      done.textContent = `The address ${user.email} is confirmed for the account ${user.username}.`;
      done.hidden = false;
    },
  });
}

function initClose(form) {
  bindForm(form, {
    path: "/api/auth/me/",
    method: "DELETE",
    body: (f) => ({ password: value(f, "password") }),
    onSuccess: () => {
      headerSignedOut();
      document.getElementById("account-page").hidden = true;
      const closed = document.getElementById("account-closed");
      closed.hidden = false;
      closed.querySelector("h1").focus();
    },
  });
}

function initSignout(button) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api("POST", "/api/auth/logout/");
      window.location.assign("/");
    } catch (error) {
      button.disabled = false;
      say(document.getElementById("signout-error"), errorText(error), "error");
    }
  });
}

function initSignoutOthers(button) {
  const message = document.getElementById("signout-others-message");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const { ended } = await api("POST", "/api/auth/logout/others/");
      const text = ended === 0 ? "You were not signed in anywhere else." : `Signed out of ${ended === 1 ? "1 other session" : `${ended} other sessions`}.`;
      say(message, text, "info");
    } catch (error) {
      say(message, errorText(error), "error");
    } finally {
      button.disabled = false;
    }
  });
}

/** /signin/ or /signup/ while signed in: "Sign out" signs this browser out, and the page,
 * reloaded, shows its form (with the same `next`). */
function initSwitchAccount(button) {
  const error = document.getElementById("switch-error");
  const idleLabel = button.textContent;
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = button.dataset.busy;
    try {
      await api("POST", "/api/auth/logout/");
      window.location.reload();
    } catch (failure) {
      button.disabled = false;
      button.textContent = idleLabel;
      say(error, errorText(failure), "error");
      error.focus();
    }
  });
}

/** Rewrite links to the other auth page so they carry the same `next`. */
function carryNext(form) {
  const next = safeNext(form.dataset.next);
  if (next === "/") return;
  for (const link of document.querySelectorAll("a[data-carry-next]")) {
    const url = new URL(link.href, window.location.origin);
    url.searchParams.set("next", next);
    link.href = url.pathname + url.search;
  }
}

const forms = {
  "signin-form": initSignin,
  "signup-form": initSignup,
  "password-form": initPassword,
  "email-form": initEmail,
  "reset-form": initReset,
  "reset-confirm-form": initResetConfirm,
  "email-confirm-form": initEmailConfirm,
  "close-form": initClose,
};
for (const [id, init] of Object.entries(forms)) {
  const form = document.getElementById(id);
  if (form) {
    init(form);
    if (form.dataset.next !== undefined) carryNext(form);
  }
}
const signout = document.getElementById("account-signout");
if (signout) initSignout(signout);
const signoutOthers = document.getElementById("account-signout-others");
if (signoutOthers) initSignoutOthers(signoutOthers);
const switchAccount = document.getElementById("switch-account");
if (switchAccount) initSwitchAccount(switchAccount);
