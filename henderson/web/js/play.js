// The game page: one seat's view, its legal actions, the dice, the log, replay and keys.
import { byText } from "./actions.js";
import { api, ApiError, inviteFrom, subscribe, tokenFrom } from "./api.js";
import { initCalculator, noteOdds, setCalculatorGame } from "./calculator.js";
import { chatLive, chatPushed, openChat } from "./chat.js";
import * as generic from "./generic.js";
import * as genericHex from "./generic-hex.js";
import { hideRule, linkRules, loadRules } from "./rules.js";
import { fit, panZoom, zoomBy } from "./svg.js";
import { allSeats, remember, seatsOf } from "./store.js";

const $ = (id) => document.getElementById(id);
const LIST_LIMIT = 250;

const ui = {
  token: null,
  live: null, // the last state message: view, legal actions, whose turn
  log: [], // the record's entries, in order
  board: {},
  renderer: null, // the game's module from /web/games/<name>.js, or null
  gameName: null,
  socket: null,
  replay: null, // null when live, else { step, view, current, terminal }
  filter: "",
  selected: -1,
  busy: false,
  renderedLog: -1,
  waiters: [], // callbacks waiting for the next state message
  actionsByText: null, // the last state message's structured actions by text: { from, index }
};

// -- start and seats ------------------------------------------------------------------------

async function init(token) {
  if (ui.socket) ui.socket.close();
  ui.socket = null;
  ui.generation = (ui.generation || 0) + 1;
  const generation = ui.generation;
  const current = (handler) => (value) => {
    if (generation === ui.generation) handler(value);
  };
  Object.assign(ui, { token, live: null, log: [], replay: null, filter: "", selected: -1, renderedLog: -1 });
  $("action-input").value = "";
  $("join").classList.add("hidden");
  for (const part of [document.querySelector("main.game"), $("download")]) part.classList.remove("hidden");
  if (!token) {
    $("status").textContent = "No seat: open a game from the lobby or an invite link.";
    return;
  }
  let first;
  try {
    first = await api.seat(token);
  } catch (err) {
    $("status").textContent = err instanceof ApiError ? `Cannot open this game: ${err.describe()}` : String(err);
    return;
  }
  const known = allSeats().find((s) => s.token === token);
  remember({
    token, match: first.match, game: first.game, side: first.side,
    kind: known && known.kind !== "invite" ? known.kind : first.side ? "seat" : "spectator",
  });
  if (ui.gameName !== first.game) await loadGame(first.game);
  if (generation !== ui.generation) return;
  accept(first);
  openChat(token, first.side);
  drawSeatSwitch();
  ui.socket = subscribe(token, {
    onState: current(accept),
    onChat: current(chatPushed),
    onStatus: current((on) => {
      chatLive(on);
      $("conn").textContent = on ? "live" : "offline";
      $("conn").className = `badge ${on ? "" : "off"}`;
    }),
    onError: current((err) => showError(err.describe())),
  });
}

/** An invite link opened: what it offers, and a button to take the seat. The seat's token
 * is made for this browser only when the invite is used (once); the invite link then
 * leaves the address bar. */
async function showJoin(code) {
  if (ui.socket) ui.socket.close();
  ui.socket = null;
  ui.generation = (ui.generation || 0) + 1;
  const box = $("join");
  box.replaceChildren();
  for (const part of [document.querySelector("main.game"), $("download")]) part.classList.add("hidden");
  $("status").textContent = "Invitation";
  let info;
  try {
    info = await api.invite(code);
  } catch (err) {
    $("status").textContent = err instanceof ApiError ? `Cannot use this invite: ${err.describe()}` : String(err);
    return;
  }
  const head = document.createElement("h2");
  head.textContent = `${info.title}: you are invited to play ${info.side}`;
  const players = document.createElement("p");
  players.textContent = Object.entries(info.players)
    .map(([side, who]) => `${side}: ${side === info.side ? "you" : who === "human" ? "the player who invited you" : `computer (${who})`}`)
    .join(" · ");
  const dice = document.createElement("p");
  dice.className = "muted";
  dice.textContent = `The dice come from the server's secret (committed: ${info.dice.commitment.slice(0, 16)}…, revealed at the end) `
    + "mixed with a random value this browser adds now, so nobody decides them.";
  box.append(head, players, dice);
  if (info.dice.from_entry) {
    const note = document.createElement("p");
    note.className = "warning";
    note.id = "join-history";
    note.textContent = `This game resumes an uploaded record: its first ${info.dice.from_entry} actions and their dice `
      + "were supplied by the player who uploaded it, not rolled by this server.";
    box.append(note);
  }
  const take = document.createElement("button");
  take.type = "button";
  take.className = "primary";
  take.id = "take-seat";
  take.textContent = `Take the ${info.side} seat`;
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  take.addEventListener("click", async () => {
    take.disabled = true;
    try {
      const made = await api.claim(code);
      remember({ token: made.token, match: made.match, game: made.game, side: made.side, kind: "seat" });
      location.replace(`/play#${made.token}`);
    } catch (err) {
      error.textContent = err.describe ? err.describe() : String(err);
    }
  });
  box.append(take, error);
  box.classList.remove("hidden");
}

function route() {
  const code = inviteFrom(location.hash);
  if (code) showJoin(code);
  else init(tokenFrom(location.hash));
}

async function loadGame(name) {
  ui.gameName = name;
  setCalculatorGame(name);
  ui.renderer = null;
  ui.board = {};
  $("board-svg").removeAttribute("style"); // a renderer may have sized the board (e.g. zoom)
  $("board-panel").removeAttribute("style");
  try {
    const [games, board] = await Promise.all([api.games(), api.board(name), loadRules(name)]);
    ui.board = board;
    const entry = games.games.find((g) => g.name === name);
    if (entry && entry.renderer) ui.renderer = await import(`/web/games/${name}.js`);
  } catch (err) {
    showError(`the board cannot be drawn (${err.message}); showing the position as text`);
    ui.renderer = null;
  }
}

function drawSeatSwitch() {
  const mine = seatsOf(ui.live.match).filter((s) => s.kind === "seat" && s.side);
  const select = $("seat-switch");
  select.replaceChildren();
  for (const seat of mine) {
    const option = document.createElement("option");
    option.value = seat.token;
    option.textContent = `play ${seat.side}`;
    option.selected = seat.token === ui.token;
    select.append(option);
  }
  const several = mine.length > 1;
  select.classList.toggle("hidden", !several);
  $("follow-wrap").classList.toggle("hidden", !several);
}

function followTurn() {
  const live = ui.live;
  if (!live || live.terminal || live.your_turn || !$("follow").checked) return;
  const next = seatsOf(live.match).find((s) => s.kind === "seat" && s.side === live.current_player);
  if (next && next.token !== ui.token) location.hash = next.token;
}

// -- state updates ---------------------------------------------------------------------------

function accept(message) {
  // answers can cross (a fetch and a push): never go back to an older state
  if (ui.live && ui.live.match === message.match && message.revision < ui.live.revision) return;
  if (message.log_from > ui.log.length) {
    api.seat(ui.token).then(accept, () => {});
    return;
  }
  // the same state again (the socket's first message repeats what was fetched): no redraw,
  // so a click on the board is never lost to the board being drawn anew under the pointer
  const same = JSON.stringify({ ...message, log: null, log_from: null });
  const unchanged = ui.live && ui.liveKey === same && message.log_from + message.log.length === ui.log.length;
  ui.log = ui.log.slice(0, message.log_from).concat(message.log);
  if (message.log_from < ui.renderedLog) ui.renderedLog = -1;
  ui.live = message;
  ui.liveKey = same;
  if (!unchanged) draw();
  for (const waiter of ui.waiters.splice(0)) waiter();
  followTurn();
}

/** Resolve once the state shown is at least `ply` (a push came), or after `ms` anyway. */
function stateAt(ply, ms) {
  if (ui.live && ui.live.ply >= ply) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const check = () => {
      if (ui.live && ui.live.ply >= ply) {
        clearTimeout(timer);
        resolve();
      } else ui.waiters.push(check);
    };
    ui.waiters.push(check);
  });
}

// -- drawing ---------------------------------------------------------------------------------

function phaseText(view) {
  if (ui.renderer && typeof ui.renderer.phase === "function") return ui.renderer.phase(view) || "";
  const parts = [];
  for (const key of ["turn", "phase", "step"]) {
    if (view && (typeof view[key] === "string" || typeof view[key] === "number")) parts.push(`${key} ${view[key]}`);
  }
  return parts.join(", ");
}

function draw() {
  const live = ui.live;
  if (!live) return;
  const seatName = live.side ? `playing ${live.side}` : "spectator";
  $("title").textContent = `${live.title} · ${seatName}`;
  document.title = `${live.your_turn ? "▶ " : ""}${live.title} — henderson`;
  const shown = ui.replay || { view: live.view, current: live.current_player, terminal: live.terminal };
  const phase = phaseText(shown.view);
  let status;
  if (ui.replay) status = `Replay at step ${ui.replay.step} of ${ui.log.length}${phase ? ` · ${phase}` : ""}`;
  else if (live.terminal) status = `Game over · ${live.winner ? `${live.winner} wins` : "no winner"}`;
  else {
    const joining = (live.invited || []).includes(live.current_player);
    const who = live.your_turn
      ? "your decision"
      : joining
        ? `waiting for ${live.current_player} to join (send the invite link)`
        : `${live.current_player} (${live.players[live.current_player]}) to act`;
    status = `${phase ? `${phase} · ` : ""}${who}`;
  }
  if (live.problem) status += ` · ${live.problem}`;
  $("status").textContent = status;
  drawTurnBadge();
  drawResult();
  drawBoard(shown);
  drawActions();
  drawDice();
  drawLog();
  drawReplay();
}

/** A badge that says at a glance whose turn it is: yours, the other side's, or the end. */
function drawTurnBadge() {
  const live = ui.live;
  const badge = $("turn-badge");
  badge.classList.remove("hidden", "turn", "wait", "over");
  if (live.terminal) {
    badge.textContent = "game over";
    badge.classList.add("over");
  } else if (live.your_turn) {
    badge.textContent = live.side ? `your turn (${live.side})` : "your turn";
    badge.classList.add("turn");
  } else {
    const who = live.players[live.current_player];
    badge.textContent = `${live.current_player}${who && who !== "human" ? ` (computer: ${who})` : ""} to play`;
    badge.classList.add("wait");
  }
}

/** Why the game ended: the last event that names a winner (FB "victory", DG "game_over"). */
function endingEvent() {
  for (let i = ui.log.length - 1; i >= 0; i -= 1) {
    const events = ui.log[i].events || [];
    for (let j = events.length - 1; j >= 0; j -= 1) {
      const e = events[j];
      if (["victory", "game_over", "result", "win", "end_of_game"].includes(e.kind) || (e.data && "winner" in e.data)) return e;
    }
  }
  return null;
}

/** Over the board at the end: who won (you or the other side) and why. */
function drawResult() {
  const live = ui.live;
  const banner = $("result-banner");
  const show = live.terminal && !ui.replay && ui.resultClosed !== live.match;
  banner.classList.toggle("hidden", !show);
  if (!show) return;
  banner.replaceChildren();
  const head = document.createElement("strong");
  if (!live.winner) head.textContent = "Game over · a draw";
  else if (!live.side) head.textContent = `Game over · ${live.winner} wins`;
  else head.textContent = live.winner === live.side ? `You win (${live.side})` : `You lose · ${live.winner} wins`;
  const why = document.createElement("div");
  why.className = "why";
  const ending = endingEvent();
  why.append(linkRules(ending ? ending.text : ""));
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "×";
  close.title = "hide (the board stays as it ended)";
  close.addEventListener("click", () => {
    ui.resultClosed = live.match;
    banner.classList.add("hidden");
  });
  head.append(close);
  banner.append(head, why);
}

function drawBoard(shown) {
  const svg = $("board-svg");
  const text = $("board-text");
  $("replay-flag").classList.toggle("hidden", !ui.replay);
  const live = ui.live;
  const legal = ui.replay || !live.your_turn ? [] : live.legal_actions;
  const actions = ui.replay || !live.your_turn ? [] : live.actions || []; // the same, as verbs and arguments
  const hexes = Array.isArray(ui.board.hexes) && ui.board.hexes.length > 0
    && ui.board.hexes.every((h) => Number.isFinite(h.x) && Number.isFinite(h.y));
  const renderer = ui.renderer || (hexes ? genericHex : null);
  $("board").classList.toggle("with-text", !ui.renderer && hexes);
  if (renderer) {
    svg.classList.remove("hidden");
    text.classList.toggle("hidden", renderer !== genericHex);
    try {
      const panel = $("board-panel");
      panel.replaceChildren();
      const tray = $("tray"); // the renderer draws the counters waiting to be placed (js/tray.js)
      tray.replaceChildren();
      renderer.render(svg, {
        view: shown.view, board: ui.board, side: live.side, sides: live.sides, current: shown.current,
        legal, actions, replaying: Boolean(ui.replay), filter: ui.filter, ply: live.ply, panel, tray,
        log: ui.replay ? ui.log.slice(0, ui.replay.step) : ui.log,
        lastMoves: lastMoves(ui.replay ? ui.log.slice(0, ui.replay.step) : ui.log),
        play: (action) => play(action),
        pick: (action) => pick(action),
        redraw: () => draw(),
        api: {
          odds: (attack) => api.odds(ui.token, attack).then(noteOdds),
          preview: (actions, fields) => api.preview(ui.token, actions, fields),
          placements: (unit) => api.placements(ui.token, unit),
        },
      });
      panel.classList.toggle("hidden", panel.childElementCount === 0);
      tray.classList.toggle("hidden", tray.childElementCount === 0);
      linkText(panel);
      if (renderer === genericHex) generic.render(text, shown.view);
      drawMapTools(svg);
      return;
    } catch (err) {
      showError(`the board could not be drawn (${err.message}); showing the position as text`);
      ui.renderer = null;
      ui.board = {};
    }
  }
  svg.classList.add("hidden");
  $("map-tools").classList.add("hidden");
  $("board-panel").classList.add("hidden");
  $("tray").classList.add("hidden");
  text.classList.remove("hidden");
  generic.render(text, shown.view);
}

/**
 * The moves to show as arrows: those of the last run of entries by the side that acted last,
 * and of the run before it by the other side (so the computer's turn can be followed, and
 * one's own last moves stay marked until the other side acts). From the log's move events.
 */
function lastMoves(log) {
  const runs = [];
  for (let i = log.length - 1; i >= 0 && runs.length <= 2; i -= 1) {
    const entry = log[i];
    if (!runs.length || runs[runs.length - 1].player !== entry.player) runs.push({ player: entry.player, entries: [] });
    runs[runs.length - 1].entries.push(entry);
  }
  const out = [];
  for (const run of runs.slice(0, 2)) {
    for (const entry of run.entries) {
      for (const e of entry.events || []) {
        const d = e.data || {};
        const from = d.from || d.start;
        const to = d.to || d.dest;
        if (e.kind === "move" && typeof from === "string" && typeof to === "string") {
          out.push({ side: entry.player, unit: d.unit, from, to });
        }
      }
    }
  }
  return out;
}

/** The rules cited in a renderer's panel (odds modifiers, prompts) open their summaries too. */
function linkText(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (/\b(FB|DG|AAG) /.test(node.nodeValue) && !node.parentElement.closest("button")) found.push(node);
  }
  for (const node of found) node.replaceWith(linkRules(node.nodeValue));
}

/** The map's view tools: zoom and pan (the same for every board), and the hex numbers
 * shown or hidden (remembered in this browser). */
function drawMapTools(svg) {
  panZoom(svg);
  svg.classList.add("zoomable");
  const numbers = svg.querySelector(".hex-id") !== null;
  const hidden = localStorage.getItem("henderson.hexIds") === "off";
  svg.classList.toggle("hide-hex-ids", hidden);
  $("hex-ids").setAttribute("aria-pressed", String(!hidden));
  $("hex-ids").classList.toggle("hidden", !numbers);
  $("map-tools").classList.remove("hidden");
}

function matches() {
  const words = ui.filter.toLowerCase().split(/\s+/).filter(Boolean);
  return ui.live.legal_actions.filter((a) => {
    const text = `${a} ${words.length ? described(a, ui.live.view) || "" : ""}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

function drawActions() {
  const live = ui.live;
  const list = $("action-list");
  const input = $("action-input");
  list.replaceChildren();
  const canAct = live.your_turn && !ui.replay;
  input.disabled = !canAct;
  input.placeholder = canAct ? "type an action, / to focus, Enter to play"
    : live.terminal ? "the game is over" : ui.replay ? "back to the game (Esc) to play" : `waiting for ${live.current_player}…`;
  input.classList.toggle("hidden", !live.side); // a spectator never acts
  $("undo").classList.toggle("hidden", !live.side || live.terminal);
  $("undo").disabled = !(canAct && live.can_undo);
  const endKey = keyFor("end");
  $("end-phase").classList.toggle("hidden", !(canAct && live.legal_actions.includes("end")));
  $("end-phase").querySelector("kbd").textContent = endKey || "";
  $("end-phase").querySelector("kbd").classList.toggle("hidden", !endKey);
  $("end-phase").title = `end the phase${endKey ? ` (${endKey})` : ""}`;
  drawKeyHints();
  if (!canAct) {
    $("actions-title").textContent = ui.replay
      ? "Actions (paused during replay)"
      : live.terminal ? "Actions (the game is over)"
      : live.side ? `Waiting for ${live.current_player}` : "Watching";
    return;
  }
  const found = matches();
  $("actions-title").textContent = `Actions (${live.legal_actions.length})`;
  if (ui.selected >= found.length) ui.selected = found.length - 1;
  found.slice(0, LIST_LIMIT).forEach((action, i) => {
    const li = document.createElement("li");
    const words = described(action, live.view);
    li.textContent = action;
    if (words) {
      const said = document.createElement("span");
      said.className = "described";
      said.textContent = words;
      li.append(" ", said);
    }
    li.setAttribute("role", "option");
    li.className = i === ui.selected ? "sel" : "";
    li.addEventListener("click", () => play(action));
    list.append(li);
  });
  if (found.length > LIST_LIMIT) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `${found.length - LIST_LIMIT} more: type to narrow the list`;
    list.append(li);
  }
  if (!found.length) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = "no legal action matches; Enter sends the text as typed";
    list.append(li);
  }
  const sel = list.querySelector("li.sel");
  if (sel) sel.scrollIntoView({ block: "nearest" });
}

/** The renderer's words for an action (unit types and places for internal ids), or null. The
 * renderer reads the action's structured value (the state message's `actions`), found by text. */
function described(action, view) {
  if (!ui.renderer || typeof ui.renderer.describe !== "function" || !view) return null;
  if (!ui.actionsByText || ui.actionsByText.from !== ui.live) {
    ui.actionsByText = { from: ui.live, index: byText(ui.live.actions || []) };
  }
  const info = ui.actionsByText.index.get(action);
  if (!info) return null;
  try {
    return ui.renderer.describe(info, view, ui.board);
  } catch {
    return null;
  }
}

/** The renderer's key that plays `action`, if any. */
function keyFor(action) {
  const keys = (ui.renderer && ui.renderer.keys) || {};
  return Object.keys(keys).find((k) => keys[k] === action) || null;
}

/** The keys that matter most, always in sight under the action list. */
function drawKeyHints() {
  const keys = (ui.renderer && ui.renderer.keys) || {};
  const acts = ui.live.side && !ui.live.terminal; // a spectator, or anyone at the end, only replays
  const hints = acts ? Object.entries(keys).map(([key, action]) => [key, action === "end" ? "end phase" : action]) : [];
  if (acts) hints.push(["u", "undo"], ["/", "type an action"]);
  hints.push(["←", "replay"], ["?", "all keys"]);
  const box = $("key-hints");
  const text = hints.map(([k, what]) => `${k} ${what}`).join(" · ");
  if (box.dataset.text === text) return;
  box.dataset.text = text;
  box.replaceChildren("Keys: ");
  hints.forEach(([key, what], i) => {
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    box.append(kbd, what, i < hints.length - 1 ? " · " : "");
  });
}

function rollsUpTo(step) {
  for (let i = step - 1; i >= 0; i -= 1) {
    const rolls = ui.log[i].events.filter((e) => e.kind === "roll");
    if (rolls.length) return { entry: ui.log[i], rolls };
  }
  return null;
}

/** How the dice can be checked: the commitment to the server's secret, and the secret once
 * the game is over (then `henderson verify` checks every die of the downloaded record). */
function drawDiceProof() {
  const dice = ui.live.dice;
  const line = $("dice-proof");
  if (!dice) {
    line.textContent = "";
    return;
  }
  const joined = dice.contributions.map((c) => c.side || "creator").join(", ");
  line.textContent = dice.secret
    ? `secret revealed: ${dice.secret.slice(0, 16)}… (commitment ${dice.commitment.slice(0, 12)}…): download the record and run henderson verify`
    : `dice: server secret committed as ${dice.commitment.slice(0, 12)}…, mixed with ${joined || "no contribution yet"}; revealed at the end`;
  line.title = dice.secret ? `secret ${dice.secret}\ncommitment ${dice.commitment}` : `commitment ${dice.commitment}`;
}

function drawDice() {
  drawDiceProof();
  const box = $("dice");
  box.replaceChildren();
  const found = rollsUpTo(ui.replay ? ui.replay.step : ui.log.length);
  if (!found) {
    box.innerHTML = '<span class="muted">no roll yet</span>';
    return;
  }
  for (const roll of found.rolls) {
    const die = document.createElement("span");
    die.className = "die";
    die.textContent = String(roll.data.value);
    die.title = `d${roll.data.sides}`;
    const purpose = document.createElement("span");
    purpose.className = "die-purpose";
    purpose.textContent = roll.data.purpose;
    box.append(die, purpose);
  }
}

/** The renderer's extra lines under a log entry (a result the events leave unsaid). */
function logNotes(entry, next) {
  if (!ui.renderer || typeof ui.renderer.logNotes !== "function") return [];
  try {
    return ui.renderer.logNotes(entry, next, next ? null : ui.live && ui.live.view) || [];
  } catch {
    return [];
  }
}

function logItem(entry, next = null) {
  const li = document.createElement("li");
  li.dataset.step = String(entry.ply + 1);
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = `${entry.ply + 1}. ${entry.player}`;
  const what = document.createElement("code");
  // a hidden action reads "jp acts out of sight": the player is named once
  const own = entry.action.startsWith(`${entry.player} `);
  what.textContent = own ? entry.action.slice(entry.player.length + 1) : entry.action;
  if (own) what.className = "hidden-action";
  li.append(who, " ", what);
  for (const event of entry.events) {
    const ev = document.createElement("span");
    ev.className = `ev ${event.kind === "roll" ? "roll" : ""}`;
    ev.append(linkRules(event.text));
    li.append(ev);
  }
  for (const note of logNotes(entry, next)) {
    const ev = document.createElement("span");
    ev.className = "ev note";
    ev.textContent = note;
    li.append(ev);
  }
  li.addEventListener("click", () => goto(entry.ply + 1));
  return li;
}

function drawLog() {
  const list = $("log");
  if (ui.renderedLog < 0 || ui.renderedLog > ui.log.length) {
    list.replaceChildren();
    ui.renderedLog = 0;
  }
  const atEnd = ui.logPinned !== false;
  for (let i = ui.renderedLog; i < ui.log.length; i += 1) list.append(logItem(ui.log[i], ui.log[i + 1] || null));
  ui.renderedLog = ui.log.length;
  const current = ui.replay ? ui.replay.step : null;
  for (const li of list.querySelectorAll("li.current")) li.classList.remove("current");
  if (current) {
    const li = list.querySelector(`li[data-step="${current}"]`);
    if (li) {
      li.classList.add("current");
      li.scrollIntoView({ block: "nearest" });
    }
  } else if (atEnd) {
    list.scrollTop = list.scrollHeight;
    ui.logPinned = true;
  }
}

function drawReplay() {
  const steps = ui.log.length;
  const at = ui.replay ? ui.replay.step : steps;
  $("r-first").disabled = at === 0;
  $("r-back").disabled = at === 0;
  $("r-fwd").disabled = !ui.replay;
  $("r-last").disabled = !ui.replay;
  $("r-live").disabled = !ui.replay;
  $("r-where").textContent = ui.replay ? `step ${at} / ${steps}` : `live · ${steps} steps`;
}

// -- acting ----------------------------------------------------------------------------------

function showError(text) {
  $("action-error").replaceChildren(linkRules(text));
}

/**
 * Play an action; resolves to the state message after it (so a renderer can play several in
 * a row, each on the state the last one left), or null when it was refused or not sent.
 */
async function play(action) {
  const live = ui.live;
  if (ui.busy) {
    showError(`not sent: ${action} (the last action is still on its way; try again once it is answered)`);
    return null;
  }
  if (!live || !live.your_turn || ui.replay) return null;
  setBusy(true);
  showError("");
  try {
    const answer = await api.act(ui.token, action, live.ply);
    showError(""); // a click refused while this one was on its way is no longer the news
    ui.filter = "";
    ui.selected = -1;
    $("action-input").value = "";
    // the caller sees the state after the action: the push brings it (only the new log
    // entries); without a socket, or when it is late, ask for the whole state
    if (ui.socket && ui.socket.connected) await stateAt(answer.ply, 2000);
    if (!ui.live || ui.live.ply < answer.ply) accept(await api.seat(ui.token));
    else draw();
    return ui.live;
  } catch (err) {
    showError(err instanceof ApiError ? err.describe() : String(err));
    if (err instanceof ApiError && ["stale", "not-your-decision"].includes(err.code)) {
      accept(await api.seat(ui.token));
    }
    return null;
  } finally {
    setBusy(false);
  }
}

/** While an action or an undo is on its way, no other is sent; the page shows it (`body.sending`). */
function setBusy(busy) {
  ui.busy = busy;
  document.body.classList.toggle("sending", busy);
}

async function undo() {
  const live = ui.live;
  if (!live || !live.can_undo || ui.replay || ui.busy) return;
  setBusy(true);
  showError("");
  try {
    await api.undo(ui.token, live.ply);
    if (!ui.socket || !ui.socket.connected) accept(await api.seat(ui.token));
  } catch (err) {
    showError(err instanceof ApiError ? err.describe() : String(err));
  } finally {
    setBusy(false);
  }
}

/** Put an action's notation in the input box (renderers use it to build actions by clicks). */
function pick(text) {
  const input = $("action-input");
  input.value = text;
  ui.filter = text;
  ui.selected = -1;
  draw();
  input.focus();
}

function submitTyped() {
  const typed = $("action-input").value.trim();
  const found = matches();
  const exact = ui.live.legal_actions.find((a) => a.toLowerCase() === typed.toLowerCase());
  if (exact) play(exact);
  else if (ui.selected >= 0 && found[ui.selected]) play(found[ui.selected]);
  else if (found.length === 1) play(found[0]);
  else if (typed) play(typed);
}

// -- replay ----------------------------------------------------------------------------------

async function goto(step) {
  const steps = ui.log.length;
  if (step === null || step >= steps) {
    ui.replay = null;
    draw();
    return;
  }
  step = Math.max(0, step);
  try {
    const seen = await api.history(ui.token, step);
    ui.replay = { step, view: seen.view, current: seen.current_player, terminal: seen.terminal };
  } catch (err) {
    showError(err.describe ? err.describe() : String(err));
  }
  draw();
}

function stepBy(delta) {
  const at = ui.replay ? ui.replay.step : ui.log.length;
  goto(at + delta);
}

// -- keys and buttons --------------------------------------------------------------------------

function onKey(event) {
  const input = $("action-input");
  const typing = event.target === input;
  const other = !typing && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName);
  if (!other && (event.ctrlKey || event.metaKey) && event.key === "z") {
    undo();
    event.preventDefault();
    return;
  }
  if (other || event.ctrlKey || event.metaKey || event.altKey) return;
  if (typing) {
    const found = matches();
    if (event.key === "ArrowDown") {
      ui.selected = Math.min(found.length - 1, ui.selected + 1);
      drawActions();
      event.preventDefault();
    } else if (event.key === "ArrowUp") {
      ui.selected = Math.max(-1, ui.selected - 1);
      drawActions();
      event.preventDefault();
    } else if (event.key === "Enter") {
      submitTyped();
      event.preventDefault();
    } else if (event.key === "Escape") {
      input.value = "";
      ui.filter = "";
      ui.selected = -1;
      input.blur();
      draw();
    }
    return;
  }
  const keys = (ui.renderer && ui.renderer.keys) || {};
  if (event.key === "u") {
    undo();
    return;
  }
  if (event.key === "/") {
    if (!input.disabled) input.focus();
    event.preventDefault();
  } else if (event.key === "ArrowLeft") stepBy(-1);
  else if (event.key === "ArrowRight") {
    if (ui.replay) stepBy(1);
  } else if (event.key === "Home") goto(0);
  else if (event.key === "Escape" && hideRule()) return;
  else if (event.key === "Escape" && !ui.replay && ui.renderer && typeof ui.renderer.deselect === "function" && ui.renderer.deselect()) draw();
  else if (event.key === "End" || event.key === "Escape") goto(null);
  else if (event.key === "?") $("help-dialog").showModal();
  else if (keys[event.key] && ui.live && ui.live.legal_actions.includes(keys[event.key])) play(keys[event.key]);
}

async function download() {
  try {
    const { text, name } = await api.record(ui.token);
    const blob = new Blob([text], { type: "application/x-ndjson" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name || `${ui.live.game}-${ui.live.match}.jsonl`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (err) {
    showError(err.describe ? err.describe() : String(err));
  }
}

function addRendererKeys() {
  const keys = (ui.renderer && ui.renderer.keys) || {};
  const tbody = $("keys-table").querySelector("tbody");
  for (const row of tbody.querySelectorAll("tr.game-key")) row.remove();
  for (const [key, action] of Object.entries(keys)) {
    const tr = document.createElement("tr");
    tr.className = "game-key";
    tr.innerHTML = "<td><kbd></kbd></td><td></td>";
    tr.querySelector("kbd").textContent = key;
    tr.children[1].textContent = `play ${action}`;
    tbody.append(tr);
  }
}

function start() {
  document.addEventListener("keydown", onKey);
  $("action-input").addEventListener("input", (event) => {
    ui.filter = event.target.value;
    ui.selected = -1;
    drawActions();
    if (ui.live && !ui.renderer && ui.board.hexes) draw();
  });
  $("log").addEventListener("scroll", (event) => {
    const list = event.target;
    ui.logPinned = list.scrollTop + list.clientHeight >= list.scrollHeight - 24;
  });
  $("r-first").addEventListener("click", () => goto(0));
  $("r-back").addEventListener("click", () => stepBy(-1));
  $("r-fwd").addEventListener("click", () => stepBy(1));
  $("r-last").addEventListener("click", () => goto(null));
  $("r-live").addEventListener("click", () => goto(null));
  $("download").addEventListener("click", download);
  initCalculator();
  $("zoom-in").addEventListener("click", () => zoomBy($("board-svg"), 1.4));
  $("zoom-out").addEventListener("click", () => zoomBy($("board-svg"), 1 / 1.4));
  $("zoom-fit").addEventListener("click", () => fit($("board-svg")));
  $("hex-ids").addEventListener("click", () => {
    const hide = !$("board-svg").classList.contains("hide-hex-ids");
    localStorage.setItem("henderson.hexIds", hide ? "off" : "on");
    $("board-svg").classList.toggle("hide-hex-ids", hide);
    $("hex-ids").setAttribute("aria-pressed", String(!hide));
  });
  $("undo").addEventListener("click", undo);
  $("end-phase").addEventListener("click", () => play("end"));
  $("help").addEventListener("click", () => {
    addRendererKeys();
    $("help-dialog").showModal();
  });
  $("seat-switch").addEventListener("change", (event) => {
    location.hash = event.target.value;
  });
  window.addEventListener("hashchange", route);
  route();
}

start();
