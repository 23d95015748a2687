// The tray of counters waiting to be placed (set-up, reinforcements, purchases), beside the
// map: each drawn as on the map, in groups. A click selects one (the renderer then marks the
// places the server allows and a click on one places it); a counter dragged onto a place
// (mouse, pen or touch) is placed there; a second click or Esc deselects. The tray decides no
// rule: the renderer says what waits, what may be placed where, and plays the placement.
import { el } from "./svg.js";

const DRAG_FROM = 6; // px the pointer moves before a press becomes a drag

/**
 * Draw the tray into `box` (emptied first by the page). Options:
 *   groups: [{ title, units: [id] }], the waiting counters in the order shown;
 *   counter(id, x, y): an SVG element of the counter centred on (x, y); size: its size, px
 *   (or [width, height]); scale: how much larger the tray shows it than the map (1.3);
 *   selected: the selected counter's id or null; enabled: whether the seat may place now;
 *   ready: the ids that may be placed now, when only some may (the others wait their turn);
 *   select(id or null): select a counter; drop(id, place): place it where it was dropped;
 *   buttons: [{ text, title, onclick }] shown above the counters (e.g. a whole set-up);
 *   hint: a line saying how to place.
 */
export function drawTray(box, options) {
  const count = options.groups.reduce((n, g) => n + g.units.length, 0);
  if (!count) return;
  const head = document.createElement("div");
  head.className = "tray-head";
  const title = document.createElement("h2");
  title.textContent = `To place (${count})`;
  head.append(title);
  for (const b of options.buttons || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = b.text;
    button.title = b.title || b.text;
    button.dataset.action = b.text;
    button.disabled = !options.enabled;
    button.addEventListener("click", b.onclick);
    head.append(button);
  }
  box.append(head);
  if (options.hint && options.enabled) {
    const hint = document.createElement("div");
    hint.className = "tray-hint muted";
    hint.textContent = options.hint;
    box.append(hint);
  }
  for (const group of options.groups) {
    if (!group.units.length) continue;
    const part = document.createElement("div");
    part.className = "tray-group";
    part.dataset.group = group.title;
    const label = document.createElement("div");
    label.className = "tray-title muted";
    label.textContent = `${group.title} (${group.units.length})`;
    const row = document.createElement("div");
    row.className = "tray-counters";
    for (const id of group.units) row.append(trayCounter(id, options));
    part.append(label, row);
    box.append(part);
  }
}

/** One waiting counter: a button holding the counter's drawing. */
function trayCounter(id, options) {
  const [w, h] = Array.isArray(options.size) ? options.size : [options.size, options.size];
  const scale = options.scale || 1.3;
  const button = document.createElement("button");
  button.type = "button";
  button.className = `tray-counter${options.selected === id ? " sel" : ""}`;
  button.dataset.tray = id;
  const waits = Boolean(options.ready) && !options.ready.has(id);
  button.disabled = !options.enabled || waits;
  button.setAttribute("aria-pressed", String(options.selected === id));
  button.title = waits ? `${id}: placed later, in order` : `${id}: click, then a marked place; or drag it onto the map`;
  const svg = el("svg", { width: (w + 4) * scale, height: (h + 4) * scale, viewBox: `0 0 ${w + 4} ${h + 4}` }, options.counter(id, w / 2 + 2, h / 2 + 2));
  button.append(svg);
  // the keyboard's click (Enter, Space) selects; the pointer's press is read below
  button.addEventListener("click", (event) => {
    if (event.detail === 0) options.select(options.selected === id ? null : id);
  });
  button.addEventListener("pointerdown", (event) => press(event, id, button, options));
  return button;
}

/** A press on a waiting counter: a click when the pointer stays put, else a drag to a place. */
function press(event, id, button, options) {
  if (button.disabled || (event.pointerType === "mouse" && event.button !== 0)) return;
  event.preventDefault();
  const start = { x: event.clientX, y: event.clientY };
  const wasSelected = options.selected === id;
  let ghost = null;
  const follow = (e) => {
    if (e.pointerId !== event.pointerId) return;
    if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_FROM) return;
    if (!ghost) {
      ghost = button.querySelector("svg").cloneNode(true);
      ghost.classList.add("tray-ghost");
      document.body.append(ghost);
      if (!wasSelected) options.select(id); // the map marks where it may go while it is dragged
    }
    const { width, height } = ghost.getBoundingClientRect();
    ghost.style.left = `${e.clientX - width / 2}px`;
    ghost.style.top = `${e.clientY - height / 2}px`;
    e.preventDefault();
  };
  const stop = (e, dropped) => {
    if (e.pointerId !== event.pointerId) return;
    window.removeEventListener("pointermove", follow);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    if (!ghost) {
      if (dropped) options.select(wasSelected ? null : id);
      return;
    }
    ghost.remove();
    const place = dropped ? placeAt(e.clientX, e.clientY) : null;
    if (place) options.drop(id, place);
  };
  const up = (e) => stop(e, true);
  const cancel = (e) => stop(e, false);
  window.addEventListener("pointermove", follow, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}

/** The place of the map under a point: a hex, a box, an entry point or an area, or what a
 * counter standing there names (data-at), or null. */
export function placeAt(x, y) {
  for (const node of document.elementsFromPoint(x, y)) {
    if (!node.closest("#board-svg")) continue;
    const found = node.closest("[data-move-here], [data-at], [data-hex], [data-place], [data-area]");
    if (!found) continue;
    const d = found.dataset;
    return d.moveHere || d.at || d.hex || d.place || d.area;
  }
  return null;
}
