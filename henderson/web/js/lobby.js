// The lobby: start a game, open an invite link, resume a record, list my games.
import { api, inviteLink, tokenFrom } from "./api.js";
import { allSeats, forgetMatch, remember, rememberNew } from "./store.js";

const $ = (id) => document.getElementById(id);
let gameList = [];
let agentList = [];

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function drawSides() {
  const game = gameList.find((g) => g.name === $("game-select").value);
  const box = $("sides");
  box.replaceChildren();
  if (!game) return;
  game.sides.forEach((side, i) => {
    const label = document.createElement("label");
    label.className = "row";
    label.append(side);
    const select = document.createElement("select");
    select.name = `side-${side}`;
    select.dataset.side = side;
    select.append(option("human", "human"));
    for (const agent of agentList) select.append(option(agent, `computer: ${agent}`));
    if (i > 0 && agentList.length) select.value = agentList[0];
    label.append(select);
    box.append(label);
  });
}

function showInvites(made) {
  const box = $("invite-links");
  box.replaceChildren();
  const rows = [...Object.entries(made.seats), ["spectator", made.spectator]];
  for (const [side, token] of rows) {
    const row = document.createElement("div");
    const label = document.createElement("span");
    label.textContent = side;
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = inviteLink(token);
    input.addEventListener("focus", () => input.select());
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "copy";
    copy.addEventListener("click", () => copyText(input.value));
    const open = document.createElement("a");
    open.href = `/play#${token}`;
    open.textContent = side === "spectator" ? "watch" : `play ${side} here`;
    open.addEventListener("click", () => {
      if (side !== "spectator") remember({ token, kind: "seat" });
    });
    row.className = "invite";
    row.append(label, input, copy, open);
    box.append(row);
  }
  $("invites").classList.remove("hidden");
}

async function createGame(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  let options;
  try {
    options = JSON.parse($("options").value || "{}");
  } catch {
    $("new-error").textContent = "the options are not valid JSON";
    return;
  }
  const players = {};
  for (const select of $("sides").querySelectorAll("select")) players[select.dataset.side] = select.value;
  try {
    const made = await api.create($("game-select").value, players, options);
    const hotseat = $("hotseat").checked;
    const first = rememberNew(made, hotseat);
    const humans = Object.keys(made.seats).length;
    if (humans <= 1 || hotseat) {
      location.href = `/play#${first}`;
      return;
    }
    showInvites(made);
    refreshMine();
  } catch (err) {
    $("new-error").textContent = err.describe ? err.describe() : String(err);
  }
}

async function openLink(event) {
  event.preventDefault();
  $("open-error").textContent = "";
  const token = tokenFrom($("link-input").value);
  if (!token) {
    $("open-error").textContent = "that is not an invite link";
    return;
  }
  try {
    const seat = await api.seat(token);
    remember({ token, match: seat.match, game: seat.game, side: seat.side, kind: seat.side ? "seat" : "spectator" });
    location.href = `/play#${token}`;
  } catch (err) {
    $("open-error").textContent = err.describe ? err.describe() : String(err);
  }
}

async function uploadRecord(event) {
  event.preventDefault();
  $("upload-error").textContent = "";
  const file = $("record-file").files[0];
  if (!file) return;
  try {
    const text = await file.text();
    let players = null;
    if (!$("upload-keep").checked) {
      const head = JSON.parse(text.split("\n", 1)[0]);
      const game = gameList.find((g) => g.name === head.game);
      players = Object.fromEntries((game ? game.sides : []).map((s) => [s, "human"]));
    }
    const made = await api.upload(text, players);
    location.href = `/play#${rememberNew(made)}`;
  } catch (err) {
    $("upload-error").textContent = err.describe ? err.describe() : String(err);
  }
}

function statusOf(game) {
  if (game.finished) return ["over", "finished"];
  if (game.side && game.current_player === game.side) return ["turn", "your turn"];
  return ["", game.current_player ? `${game.current_player} to act` : ""];
}

async function refreshMine() {
  const held = allSeats();
  const tbody = $("mine-table").querySelector("tbody");
  tbody.replaceChildren();
  if (!held.length) {
    $("mine-empty").classList.remove("hidden");
    $("mine-table").classList.add("hidden");
    return;
  }
  let answer;
  try {
    answer = await api.mine(held.map((s) => s.token));
  } catch (err) {
    $("mine-empty").textContent = `cannot list games: ${err.message}`;
    return;
  }
  const titles = Object.fromEntries(gameList.map((g) => [g.name, g.title]));
  const byMatch = new Map();
  for (const game of answer.games) {
    const kept = held.find((s) => s.token === game.token);
    const kind = kept ? kept.kind : "seat";
    const entry = byMatch.get(game.match) || { game, seats: [] };
    entry.seats.push({ ...game, kind });
    if (kind === "seat" && entry.game.kind !== "seat") entry.game = { ...game, kind };
    byMatch.set(game.match, entry);
  }
  const rows = [...byMatch.values()].sort((a, b) => (a.game.updated < b.game.updated ? 1 : -1));
  for (const { game, seats } of rows) {
    const tr = document.createElement("tr");
    const [badge, text] = statusOf(game);
    const cells = [
      titles[game.game] || game.game,
      seats.filter((s) => s.kind === "seat").map((s) => s.side).join(", ") || "spectator",
      "",
      String(game.steps),
      new Date(game.updated).toLocaleString(),
      "",
    ];
    cells.forEach((value, i) => {
      const td = document.createElement("td");
      td.textContent = value;
      tr.append(td);
    });
    const status = document.createElement("span");
    status.className = `badge ${badge}`;
    status.textContent = text;
    tr.children[2].append(status);
    const actions = tr.children[5];
    const mainSeat = seats.find((s) => s.kind === "seat") || seats.find((s) => s.kind === "spectator") || seats[0];
    const open = document.createElement("a");
    open.href = `/play#${mainSeat.token}`;
    open.textContent = "open";
    actions.append(open, " ");
    for (const s of seats.filter((x) => x.kind === "invite")) {
      const copy = document.createElement("button");
      copy.textContent = `copy ${s.side}'s link`;
      copy.addEventListener("click", () => copyText(inviteLink(s.token)));
      actions.append(copy, " ");
    }
    const drop = document.createElement("button");
    drop.textContent = "forget";
    drop.title = "remove from this browser (the game stays on the server)";
    drop.addEventListener("click", () => {
      forgetMatch(game.match);
      refreshMine();
    });
    actions.append(drop);
    tbody.append(tr);
  }
  $("mine-empty").classList.toggle("hidden", rows.length > 0);
  $("mine-table").classList.toggle("hidden", rows.length === 0);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    window.prompt("Copy this link:", text);
  }
}

async function start() {
  $("new-form").addEventListener("submit", createGame);
  $("open-form").addEventListener("submit", openLink);
  $("upload-form").addEventListener("submit", uploadRecord);
  $("game-select").addEventListener("change", drawSides);
  const [games, agents] = await Promise.all([api.games(), api.agents()]);
  gameList = games.games;
  agentList = agents.agents;
  for (const game of gameList) $("game-select").append(option(game.name, game.title));
  if (!gameList.length) $("new-error").textContent = "this server has no playable game yet";
  drawSides();
  refreshMine();
}

start();
