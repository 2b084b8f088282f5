// The race page (/races/<code>/): the room as its websocket tells it (the whole race on
// connecting and after every change), and the player's buttons: join, ready, start, leave,
// play your game, rematch. Nothing here sees a card: the race carries progress only.
import { api, socket } from "./api.js";
import { declinedInvite, drawInvite } from "./race_invite.js";

const root = document.getElementById("race");
const code = root.dataset.code;
const phaseLine = document.getElementById("race-phase");
const live = document.getElementById("live-status");
const actions = document.getElementById("race-actions");
const message = document.getElementById("race-message");
const rows = document.querySelector("#race-players tbody");
const seedLine = document.getElementById("race-seed");

const STANDING = {
  waiting: "Waiting",
  playing: "Playing",
  won: "Won",
  stuck: "Stuck (no move left)",
  resigned: "Resigned",
  out_of_time: "Out of time",
};

let race = null;
let offset = 0; // the server's clock less this browser's
let ticker = null;

function clockText(seconds) {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function secondsUntil(time) {
  return (Date.parse(time) - (Date.now() + offset)) / 1000;
}

function phaseText() {
  switch (race.phase) {
    case "waiting": {
      const alone = race.players.length < 2;
      const waited = Math.floor(-secondsUntil(race.created_at) / 60);
      if (alone && waited >= 2) {
        return `No one has joined for ${waited} minutes: send the link again, or take a quick race from the lobby.`;
      }
      return alone
        ? "Waiting for players: send the link. The race needs two at least."
        : `Waiting: ${race.players.length} of ${race.max_players} players. It starts when everyone is ready, or when ${race.opener} starts it.`;
    }
    case "countdown":
      return `Starting in ${Math.max(0, Math.ceil(secondsUntil(race.starts_at)))}…`;
    case "running":
      return `Racing: ${clockText(secondsUntil(race.ends_at))} left.`;
    default:
      return "The race is over.";
  }
}

function button(label, onClick, primary = false) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = primary ? "button primary" : "button";
  element.textContent = label;
  element.addEventListener("click", async () => {
    element.disabled = true;
    message.hidden = true;
    try {
      await onClick();
    } catch (error) {
      message.textContent = error.message;
      message.hidden = false;
    } finally {
      element.disabled = false;
    }
  });
  return element;
}

function link(label, href, primary = false) {
  const element = document.createElement("a");
  element.className = primary ? "button primary" : "button";
  element.href = href;
  element.textContent = label;
  return element;
}

async function act(path, body = {}) {
  // With an Idempotency-Key: a retry after a network failure is applied once.
  const answer = await api("POST", `/api/races/${code}/${path}/`, body, { idempotent: true });
  if (path === "join" && !root.dataset.username) {
    // A visitor joins as a new guest: the page and its websocket were opened signed out, so
    // they would go on telling the room as a watcher's (no game of yours, no Ready) and the
    // page's next writes would name the wrong account. The guest's page is loaded instead.
    window.location.reload();
    return;
  }
  show(answer);
}

function drawActions() {
  const you = race.you;
  const mine = race.players.find((p) => you.joined && p.username === root.dataset.username);
  const buttons = [];
  if (race.phase === "waiting") {
    if (!you.joined) buttons.push(button("Join the race", () => act("join"), true));
    else {
      const ready = Boolean(mine?.ready);
      buttons.push(button(ready ? "Not ready" : "Ready", () => act("ready", { ready: !ready }), !ready));
      if (you.opener && race.players.length >= 2) buttons.push(button("Start the race", () => act("start"), true));
      buttons.push(button("Leave", () => act("leave")));
    }
  }
  if (you.game && race.phase !== "finished") buttons.push(link("Play your game", `/play/${you.game}/`, true));
  if (race.phase === "finished") {
    if (you.game) buttons.push(link("Your replay", `/replay/${you.game}/`));
    if (race.rematch) buttons.push(link("Go to the rematch", `/races/${race.rematch}/`, true));
    else if (you.joined) {
      buttons.push(
        button("Rematch", async () => {
          const next = await api("POST", `/api/races/${code}/rematch/`, {}, { idempotent: true });
          window.location.assign(next.link);
        }, true),
      );
    }
  }
  actions.replaceChildren(...buttons);
}

function drawPlayers() {
  rows.replaceChildren(
    ...race.players.map((player) => {
      const row = document.createElement("tr");
      const cells = [
        player.place ?? "",
        player.username +
          (player.username === root.dataset.username && race.you.joined ? " (you)" : "") +
          (player.ready && race.phase === "waiting" ? " (ready)" : ""),
        STANDING[player.standing] ?? player.standing,
        player.cards_home,
        player.moves,
        clockText(player.time_seconds),
      ];
      for (const [index, value] of cells.entries()) {
        const cell = document.createElement(index === 1 ? "th" : "td");
        if (index === 1) cell.scope = "row";
        if ([0, 3, 4, 5].includes(index)) cell.className = "num";
        cell.textContent = String(value);
        row.append(cell);
      }
      return row;
    }),
  );
}

function show(next) {
  race = next;
  offset = Date.parse(race.now) - Date.now();
  phaseLine.textContent = phaseText();
  drawPlayers();
  drawActions();
  drawInvite(race);
  seedLine.hidden = race.seed === null;
  if (race.seed !== null) seedLine.textContent = `The deal was number ${race.seed}.`;
  clearInterval(ticker);
  if (race.phase === "countdown" || race.phase === "running") {
    ticker = setInterval(() => {
      phaseLine.textContent = phaseText();
    }, 1000);
  }
}

socket(`/ws/races/${code}/`, (data) => {
  if (data.type === "race") {
    live.dataset.state = "live";
    live.textContent = "Live";
    show(data.race);
  } else if (data.type === "race_progress" && race !== null) {
    // One player moved and nothing else changed: their line, in place.
    const at = race.players.findIndex((p) => p.username === data.player.username);
    if (at >= 0) {
      race.players[at] = data.player;
      offset = Date.parse(data.now) - Date.now();
      drawPlayers();
    }
  } else if (data.type === "race_invitation_declined") {
    declinedInvite(data.username);
  }
}, {
  onClose(closeCode) {
    live.dataset.state = "offline";
    live.textContent = closeCode === 4404 ? "No such race." : "Reconnecting…";
  },
});
