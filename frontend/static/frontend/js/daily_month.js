// The daily page's month: the calendar of the month of the day shown (month_calendar.js),
// the month's badge, the streak that forgives, and the months before and after. A day of the
// calendar shows that day above (daily.js, through its date picker), where a closed day's deals
// can be replayed for fun.

import { api } from "./api.js";
import { badgeLine, legend, monthName, monthTable, streakText } from "./month_calendar.js";
import { el, errorText } from "./ui.js";

const root = document.getElementById("daily");
const box = document.getElementById("daily-month");
const picker = document.getElementById("daily-date");

let shown = null; // the month on the page, "YYYY-MM"
let marked = null; // the day marked on it
let ticket = 0;

function pick(date) {
  // daily.js draws the day (and puts it in the address) when its picker changes.
  picker.value = date;
  picker.dispatchEvent(new Event("change"));
  picker.closest(".page")?.scrollIntoView({ behavior: "smooth", block: "start" });
}

function navButton(id, month, words) {
  const button = el("button", { type: "button", class: "button small", id, disabled: !month, "aria-label": month ? `${words}: ${monthName(month)}` : words }, id === "month-prev" ? "‹" : "›");
  if (month) button.addEventListener("click", () => load(month));
  return button;
}

function render(answer) {
  const selected = root.dataset.date;
  const title = el("h2", { id: "month-title" }, monthName(answer.month));
  const head = el("div", { class: "month-head" }, navButton("month-prev", answer.previous, "Previous month"), title, navButton("month-next", answer.next, "Next month"));
  const parts = [head];
  if (answer.streak) parts.push(el("p", { id: "habit-streak", class: "habit-streak", dataset: { freezes: answer.streak.freezes } }, streakText(answer.streak)));
  parts.push(monthTable(answer, selected, pick), legend());
  if (answer.streak) {
    parts.push(badgeLine(answer));
    parts.push(el("p", { class: "note" }, "A day counts once a daily is finished. Each 7 days in a row earn a freeze (2 at most), spent by itself on a day you miss. A month's badge: bronze for 10 days with all five played, silver for 20, gold for every day."));
  }
  box.replaceChildren(...parts);
  box.dataset.month = answer.month;
  box.hidden = false;
}

async function load(month) {
  const mine = ++ticket;
  box.setAttribute("aria-busy", "true");
  try {
    const answer = await api("GET", `/api/daily/month/${month ? `?month=${month}` : ""}`);
    if (mine !== ticket) return;
    shown = answer.month;
    marked = root.dataset.date;
    render(answer);
  } catch (error) {
    if (mine !== ticket) return;
    box.replaceChildren(el("p", { class: "form-error", role: "alert" }, errorText(error)));
  } finally {
    if (mine === ticket) box.removeAttribute("aria-busy");
  }
}

// The day shown changes (the picker, Today, the calendar, back and forward): show its month,
// or mark the day in the month shown. Also after the day's results change (an attempt ends in
// another tab and the page is shown again).
new MutationObserver(() => {
  const date = root.dataset.date;
  if (!date) return;
  if (date === marked) return; // drawn already (daily.js writes the day on every load)
  load(date.slice(0, 7));
}).observe(root, { attributes: true, attributeFilter: ["data-date"] });

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && shown) load(shown);
});

load(root.dataset.date ? root.dataset.date.slice(0, 7) : null);
