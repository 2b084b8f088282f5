// The settings dialog (settings.js): a small dialog, each choice saved and applied at once, and
// "Winnable deals only" (winnable.js), which the lobby shares.

import { CHOICES, choiceOf, onSaveFailed, onSettings, saveSettings, savedToAccount, settings, valueOf } from "../settings.js";
import { playSound } from "../sound.js";
import { setWinnableOnly, winnableOnly } from "../winnable.js";
import { $ } from "./page.js";

const SETTING_LABELS = {
  speed: "Card animation",
  autoplay: "Automatic play to the foundations",
  sound: "Sounds",
  card_back: "Card backs",
  table: "Table colour",
  left_handed: "Phone layout",
};

function fillSettings() {
  const current = settings();
  const fields = Object.entries(CHOICES).map(([name, choices]) => {
    const set = document.createElement("fieldset");
    set.className = "setting";
    set.dataset.setting = name;
    const legend = document.createElement("legend");
    legend.textContent = SETTING_LABELS[name];
    set.append(legend);
    for (const [value, text] of Object.entries(choices)) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = value;
      input.id = `setting-${name}-${value}`;
      input.checked = choiceOf(name, current[name]) === value;
      label.append(input, ` ${text}`);
      set.append(label);
    }
    return set;
  });
  $("settings-fields").replaceChildren(...fields);
  $("settings-where").textContent = savedToAccount()
    ? "Saved to your account: they follow you to any device you sign in on."
    : "Kept in this browser.";
}

/** "Winnable deals only" (winnable.js), shown on "New game" and "New deal" while it is on. */
function showWinnableOnly() {
  const on = winnableOnly();
  for (const mark of document.querySelectorAll(".winnable-mark")) mark.hidden = !on;
  for (const id of ["new-game", "result-new"]) {
    $(id).title = on ? "A new deal proven winnable (Winnable deals only is on: Settings switches it off)" : "";
  }
  $("setting-winnable").checked = on;
}

/** Every .open-settings button opens the dialog; `onAutoplay()` runs when the player changes
 * automatic play (it may have cards to send at once). */
export function attachSettingsDialog({ onAutoplay }) {
  // A choice the account could not save (signed out since, the server out of reach): it holds
  // in this page, and the dialog says so.
  onSaveFailed((error) => {
    $("settings-where").textContent = `Not saved to your account: ${error.message}`;
  });
  $("setting-winnable").addEventListener("change", (event) => {
    setWinnableOnly(event.target.checked);
    showWinnableOnly();
  });
  onSettings(showWinnableOnly); // changed in another tab too
  showWinnableOnly();
  // "⚙ Settings" below the board; on a phone, where that line is not shown, the ⚙ by the counts.
  for (const button of document.querySelectorAll(".open-settings")) {
    button.addEventListener("click", () => {
      fillSettings();
      $("settings-dialog").showModal();
    });
  }
  $("settings-form").addEventListener("change", (event) => {
    const input = event.target;
    if (input.type !== "radio") return;
    saveSettings({ [input.name]: valueOf(input.name, input.value) });
    if (input.name === "sound" && input.value === "on") playSound("move"); // heard at once
    if (input.name === "autoplay") onAutoplay();
  });
}
