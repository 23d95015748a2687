// The rules reference on the page: a citation in the log or in a refusal ("FB 8.7.3",
// "DG 8.2.4", "AAG Combat step 3") becomes a button that opens the section's title and
// summary (the project's own words, from GET /api/games/<name>/rules).
import { api } from "./api.js";

const book = { prefix: null, keys: [], byKey: new Map() };

/** Load the rules reference of game `name` (none for a game without one). */
export async function loadRules(name) {
  book.prefix = null;
  book.keys = [];
  book.byKey = new Map();
  let answer;
  try {
    answer = await api.rules(name);
  } catch {
    return;
  }
  book.prefix = answer.prefix;
  for (const rule of answer.rules) {
    for (const key of [rule.id, ...(rule.aliases || [])]) book.byKey.set(key.toLowerCase(), rule);
  }
  book.keys = [...book.byKey.keys()].sort((a, b) => b.length - a.length);
}

/** True when `key` ends at a word or section-number boundary in `text` at `at`. */
function endsAt(text, at) {
  const rest = text.slice(at);
  return !rest || !(/^[A-Za-z0-9]/.test(rest) || /^\.\d/.test(rest));
}

/** The rule a citation starting at `text[at]` names, with the citation's length; or null. */
function citedAt(text, at) {
  const low = text.slice(at).toLowerCase();
  const number = /^(fb|dg) (\d+(?:\.\d+)*)/.exec(low);
  if (number) {
    let section = number[2];
    while (section) {
      const rule = book.byKey.get(`${number[1]} ${section.includes(".") ? section : `${section}.0`}`);
      if (rule) return { rule, length: number[0].length };
      section = section.includes(".") ? section.slice(0, section.lastIndexOf(".")) : "";
    }
    return null;
  }
  const key = book.keys.find((k) => low.startsWith(k) && endsAt(low, k.length));
  return key ? { rule: book.byKey.get(key), length: key.length } : null;
}

/** `text` as nodes, each citation of the game's rules a button that opens its summary. */
export function linkRules(text) {
  const out = document.createDocumentFragment();
  if (!book.prefix || !text) {
    out.append(text || "");
    return out;
  }
  const start = new RegExp(`\\b${book.prefix} `, "g");
  let done = 0;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    const found = citedAt(text, m.index);
    if (!found) continue;
    out.append(text.slice(done, m.index));
    const ref = document.createElement("button");
    ref.type = "button";
    ref.className = "rule-ref";
    ref.dataset.rule = found.rule.id;
    ref.textContent = text.slice(m.index, m.index + found.length);
    out.append(ref);
    done = m.index + found.length;
    start.lastIndex = done;
  }
  out.append(text.slice(done));
  return out;
}

function show(ref) {
  const rule = book.byKey.get(ref.dataset.rule.toLowerCase());
  if (!rule) return;
  let pop = document.getElementById("rule-pop");
  if (!pop) {
    pop = document.createElement("div");
    pop.id = "rule-pop";
    pop.setAttribute("role", "dialog");
    document.body.append(pop);
  }
  pop.replaceChildren();
  const head = document.createElement("strong");
  head.textContent = `${rule.id} · ${rule.title}`;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "×";
  close.title = "close (Esc)";
  close.addEventListener("click", hideRule);
  const body = document.createElement("p");
  body.textContent = rule.text;
  const note = document.createElement("small");
  note.className = "muted";
  note.textContent = "A summary in our words: the rulebook is the authority.";
  pop.append(close, head, body, note);
  const box = ref.getBoundingClientRect();
  pop.classList.remove("hidden");
  const width = Math.min(360, window.innerWidth - 16);
  pop.style.width = `${width}px`;
  pop.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - width - 8))}px`;
  pop.style.top = `${Math.min(box.bottom + 4 + window.scrollY, window.scrollY + window.innerHeight - 160)}px`;
}

/** Close the rule's summary; true when one was open. */
export function hideRule() {
  const pop = document.getElementById("rule-pop");
  if (!pop || pop.classList.contains("hidden")) return false;
  pop.classList.add("hidden");
  return true;
}

document.addEventListener("click", (event) => {
  const ref = event.target.closest && event.target.closest(".rule-ref");
  if (ref) {
    event.stopPropagation();
    event.preventDefault();
    show(ref);
  } else if (!(event.target.closest && event.target.closest("#rule-pop"))) hideRule();
}, true);
