// The chat of a match beside the log: the seats' messages (plain text), a box to send one
// (a side's seat only). New messages come pushed over the seat's WebSocket (`chatPushed`);
// the chat is read when the seat opens, when the socket comes back, and every few seconds
// only while the socket is down (`chatLive`).
import { api } from "./api.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 4000;
const chat = { token: null, side: null, last: 0, shown: new Set(), timer: null, busy: false, live: false };

function item(message) {
  const li = document.createElement("li");
  li.dataset.id = String(message.id);
  li.className = message.side === chat.side ? "mine" : "";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = message.side;
  const time = new Date(message.at);
  who.title = Number.isNaN(time.getTime()) ? "" : time.toLocaleString();
  li.append(who, " ", message.text); // text, never markup
  return li;
}

/** Show messages not shown yet, each in its place by id (a push and a read may cross). */
function show(messages) {
  const list = $("chat");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 16;
  for (const m of messages) {
    if (chat.shown.has(m.id)) continue;
    chat.shown.add(m.id);
    const later = [...list.children].find((li) => Number(li.dataset.id) > m.id);
    list.insertBefore(item(m), later || null);
    chat.last = Math.max(chat.last, m.id);
  }
  $("chat-empty").classList.toggle("hidden", list.childElementCount > 0);
  if (atEnd) list.scrollTop = list.scrollHeight;
}

/** Fetch the messages not shown yet. */
export async function refreshChat() {
  if (!chat.token || chat.busy) return;
  chat.busy = true;
  const token = chat.token;
  try {
    const answer = await api.chat(token, chat.last);
    if (token === chat.token) show(answer.messages);
  } catch {
    // the chat is an extra: a failed read is tried again later
  } finally {
    chat.busy = false;
  }
}

/** A message pushed over the WebSocket (null: too many at once, read the chat again). */
export function chatPushed(message) {
  if (message && chat.token) show([message]);
  else refreshChat();
}

/** The seat's WebSocket is up (no polling; read what came while it was down) or down (poll). */
export function chatLive(on) {
  chat.live = on;
  clearInterval(chat.timer);
  chat.timer = null;
  if (on) refreshChat();
  else startPolling();
}

function startPolling() {
  if (chat.timer || chat.live) return;
  chat.timer = setInterval(() => {
    if (!document.hidden) refreshChat();
  }, POLL_MS);
}

/** Show the chat of the seat `token` (side null: a spectator, who reads only). */
export function openChat(token, side) {
  if (chat.token !== token) {
    chat.last = 0;
    chat.live = false; // until this seat's own socket says it is up
    chat.shown.clear();
    $("chat").replaceChildren();
  }
  chat.token = token;
  chat.side = side;
  $("chat-form").classList.toggle("hidden", !side);
  startPolling();
  refreshChat();
}

async function send(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || !chat.token) return;
  $("chat-error").textContent = "";
  try {
    show([await api.say(chat.token, text)]);
    input.value = "";
  } catch (err) {
    $("chat-error").textContent = err.describe ? err.describe() : String(err);
  }
}

$("chat-form").addEventListener("submit", send);
