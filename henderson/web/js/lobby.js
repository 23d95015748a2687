// The lobby: start a game, open an invite link, resume a record, list my games.
import { api, inviteFrom, inviteLink, tokenFrom } from "./api.js";
import { allInvites, allSeats, forgetInvite, forgetMatch, remember, rememberNew } from "./store.js";

const $ = (id) => document.getElementById(id);
let gameList = [];
let agentList = [];
let levels = {}; // computer player -> what it does, in words (GET /api/agents)

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
    for (const agent of agentList) {
      const o = option(agent, `computer: ${agent}`);
      if (levels[agent]) o.title = levels[agent];
      select.append(o);
    }
    if (i > 0 && agentList.length) select.value = agentList[0];
    const note = document.createElement("small");
    note.className = "muted level-note";
    note.dataset.levelFor = side;
    const describe = () => {
      note.textContent = select.value === "human" ? "" : levels[select.value] || "";
    };
    select.addEventListener("change", describe);
    describe();
    label.append(select);
    box.append(label, note);
  });
}

/** After a game is made: the creator's own seat to open, and an invite link for each other
 * human seat (usable once, by the person it is sent to), and the spectator link. */
function showInvites(made, mine) {
  const box = $("invite-links");
  box.replaceChildren();
  const rows = [
    ...Object.entries(made.invites || {}).map(([side, code]) => [side, inviteLink(code), "invite"]),
    ["spectator", `${location.origin}/play#${made.spectator}`, "spectator"],
  ];
  for (const [side, link, kind] of rows) {
    const row = document.createElement("div");
    const label = document.createElement("span");
    label.textContent = kind === "invite" ? `${side}'s invite` : side;
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = link;
    input.addEventListener("focus", () => input.select());
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "copy";
    copy.addEventListener("click", () => copyText(input.value));
    row.className = "invite";
    row.dataset.kind = kind;
    row.dataset.side = side;
    row.append(label, input, copy);
    if (kind === "spectator") {
      const open = document.createElement("a");
      open.href = `/play#${made.spectator}`;
      open.textContent = "watch";
      row.append(open);
    }
    box.append(row);
  }
  const own = $("open-own");
  own.replaceChildren();
  if (mine) {
    const open = document.createElement("a");
    open.href = `/play#${mine.token}`;
    open.className = "button primary";
    open.id = "open-mine";
    open.textContent = `Open your seat (${mine.side})`;
    own.append(open);
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
    const hotseat = $("hotseat").checked;
    const made = await api.create($("game-select").value, players, options, hotseat);
    opened(made);
  } catch (err) {
    $("new-error").textContent = err.describe ? err.describe() : String(err);
  }
}

/** A game made here (new or uploaded): open it at once when nobody is invited, else show
 * the invite links and the way to one's own seat. */
function opened(made) {
  const first = rememberNew(made);
  const seats = Object.entries(made.seats);
  if (!Object.keys(made.invites || {}).length) {
    location.href = `/play#${first}`;
    return;
  }
  showInvites(made, seats.length ? { side: seats[0][0], token: seats[0][1] } : null);
  refreshMine();
}

async function openLink(event) {
  event.preventDefault();
  $("open-error").textContent = "";
  const text = $("link-input").value;
  const code = inviteFrom(text);
  if (code) {
    location.href = `/play#invite=${code}`;
    return;
  }
  const token = tokenFrom(text);
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
  const [file, ...others] = $("record-file").files; // a record, or every seat's copy of one game
  if (!file) return;
  try {
    const text = await file.text();
    const otherCopies = await Promise.all(others.map((f) => f.text()));
    let players = null;
    if (!$("upload-keep").checked) {
      const head = JSON.parse(text.split("\n", 1)[0]);
      const game = gameList.find((g) => g.name === head.game);
      players = Object.fromEntries((game ? game.sides : []).map((s) => [s, "human"]));
    }
    const made = await api.upload(text, players, $("upload-hotseat").checked, otherCopies);
    opened(made);
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
    const waiting = new Set(game.invited || []);
    for (const s of allInvites().filter((x) => x.match === game.match)) {
      if (!waiting.has(s.side)) {
        forgetInvite(s.code); // used: the seat belongs to whoever took it
        continue;
      }
      const copy = document.createElement("button");
      copy.textContent = `copy ${s.side}'s invite`;
      copy.addEventListener("click", () => copyText(inviteLink(s.code)));
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
  levels = agents.levels || {};
  for (const game of gameList) $("game-select").append(option(game.name, game.title));
  if (!gameList.length) $("new-error").textContent = "this server has no playable game yet";
  drawSides();
  refreshMine();
}

start();
