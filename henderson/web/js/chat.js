// The chat of a match beside the log: the seats' messages (plain text), a box to send one
// (a side's seat only). Read when the seat opens and every few seconds while in sight.
import { api } from "./api.js";

const $ = (id) => document.getElementById(id);
const chat = { token: null, side: null, last: 0, timer: null, busy: false };

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

/** Fetch the messages not shown yet. */
export async function refreshChat() {
  if (!chat.token || chat.busy) return;
  chat.busy = true;
  const token = chat.token;
  try {
    const answer = await api.chat(token, chat.last);
    if (token !== chat.token) return;
    const list = $("chat");
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 16;
    for (const m of answer.messages) {
      if (m.id <= chat.last) continue;
      list.append(item(m));
      chat.last = m.id;
    }
    $("chat-empty").classList.toggle("hidden", list.childElementCount > 0);
    if (atEnd) list.scrollTop = list.scrollHeight;
  } catch {
    // the chat is an extra: a failed read is tried again later
  } finally {
    chat.busy = false;
  }
}

/** Show the chat of the seat `token` (side null: a spectator, who reads only). */
export function openChat(token, side) {
  if (chat.token !== token) {
    chat.last = 0;
    $("chat").replaceChildren();
  }
  chat.token = token;
  chat.side = side;
  $("chat-form").classList.toggle("hidden", !side);
  if (!chat.timer) {
    chat.timer = setInterval(() => {
      if (!document.hidden) refreshChat();
    }, 4000);
  }
  refreshChat();
}

async function send(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || !chat.token) return;
  $("chat-error").textContent = "";
  try {
    await api.say(chat.token, text);
    input.value = "";
    await refreshChat();
  } catch (err) {
    $("chat-error").textContent = err.describe ? err.describe() : String(err);
  }
}

$("chat-form").addEventListener("submit", send);
