// Small helpers for board renderers that draw into an SVG element.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** Empty an SVG element and set its coordinate system. */
export function reset(svg, width, height) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
}

const MOVE_COLOURS = ["#1d4ed8", "#b91c1c", "#7c3aed", "#0f766e"];

/**
 * The last moves of each side as arrows from → to (`moves`: [{side, unit, from, to}], from
 * the log's move events); `at(place)` gives a place's {x, y} or null; `sides` orders the colours.
 */
export function lastMoves(moves, at, sides = []) {
  const layer = el("g", { class: "last-moves", "pointer-events": "none" });
  for (const m of moves || []) {
    const a = at(m.from);
    const b = at(m.to);
    if (!a || !b || (a.x === b.x && a.y === b.y)) continue;
    const colour = MOVE_COLOURS[Math.max(0, sides.indexOf(m.side)) % MOVE_COLOURS.length];
    const angle = Math.atan2(b.y - a.y, b.x - a.x);
    const head = (turn) => `${b.x - 9 * Math.cos(angle + turn)},${b.y - 9 * Math.sin(angle + turn)}`;
    layer.append(el("g", { class: "last-move", "data-side": m.side, "data-unit": m.unit, "data-from": m.from, "data-to": m.to },
      el("circle", { cx: a.x, cy: a.y, r: 4, fill: "none", stroke: colour, "stroke-width": 2 }),
      el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour, "stroke-width": 2.5, opacity: 0.85 }),
      el("polygon", { points: `${b.x},${b.y} ${head(0.4)} ${head(-0.4)}`, fill: colour })));
  }
  return layer;
}

// -- zoom and pan: the renderer draws the whole board in its viewBox (reset); the view shown
// is a part of it, kept between draws: wheel or pinch zooms, a drag pans, "fit" shows it all.

const views = new WeakMap();
const MAX_SCALE = 8;

function svgPoint(svg, clientX, clientY) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

function apply(svg, s) {
  const b = s.base;
  if (!b) return;
  s.scale = Math.min(MAX_SCALE, Math.max(1, s.scale));
  // the part shown has the shape of the frame, so nothing is letterboxed once zoomed in
  const boxW = svg.clientWidth || b.w;
  const boxH = svg.clientHeight || b.h;
  const k = Math.min(boxW / b.w, boxH / b.h) * s.scale; // screen px per board unit
  const w = boxW / k;
  const h = boxH / k;
  if (s.cx === null || s.scale === 1) {
    s.cx = b.x + b.w / 2;
    s.cy = b.y + b.h / 2;
  }
  s.cx = w >= b.w ? b.x + b.w / 2 : Math.min(b.x + b.w - w / 2, Math.max(b.x + w / 2, s.cx));
  s.cy = h >= b.h ? b.y + b.h / 2 : Math.min(b.y + b.h - h / 2, Math.max(b.y + h / 2, s.cy));
  svg.setAttribute("viewBox", `${s.cx - w / 2} ${s.cy - h / 2} ${w} ${h}`);
  svg.dataset.zoom = s.scale.toFixed(2);
  // a renderer's "pinned" layer (a status strip) stays at the top left of the view, one unit a pixel
  for (const g of svg.querySelectorAll(":scope > .pinned")) {
    g.setAttribute("transform", `translate(${s.cx - w / 2} ${s.cy - h / 2}) scale(${1 / k})`);
  }
}

/**
 * Show the board point (x, y) in the middle of the view at the next draw; `native` zooms so
 * that one unit of the board is one pixel of the screen (a map wider than the screen).
 */
export function focusOn(svg, x, y, { native = false } = {}) {
  const s = state(svg);
  s.focus = { x, y, native };
}

/** Zoom by `factor` about the point (x, y) of the board (its centre when not given). */
export function zoomBy(svg, factor, at = null) {
  const s = views.get(svg);
  if (!s || !s.base) return;
  const old = s.scale;
  s.scale = Math.min(MAX_SCALE, Math.max(1, old * factor));
  if (at && s.cx !== null) {
    const k = old / s.scale;
    s.cx = at.x - (at.x - s.cx) * k;
    s.cy = at.y - (at.y - s.cy) * k;
  }
  apply(svg, s);
}

/** Show the whole board again. */
export function fit(svg) {
  const s = views.get(svg);
  if (!s) return;
  s.scale = 1;
  s.cx = null;
  apply(svg, s);
}

function install(svg, s) {
  // the view takes the frame's shape: again when the frame changes size (a window resized, a
  // page laid out after the first draw)
  if (typeof ResizeObserver === "function") new ResizeObserver(() => apply(svg, s)).observe(svg);
  svg.addEventListener("wheel", (event) => {
    if (!s.base) return;
    event.preventDefault();
    zoomBy(svg, Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0015)), svgPoint(svg, event.clientX, event.clientY));
  }, { passive: false });
  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    s.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (s.pointers.size === 1) {
      s.dragged = false;
      s.start = { x: event.clientX, y: event.clientY };
    }
  });
  svg.addEventListener("pointermove", (event) => {
    const last = s.pointers.get(event.pointerId);
    if (!last || !s.base) return;
    const m = svg.getScreenCTM();
    if (!m) return;
    if (s.pointers.size >= 2) { // pinch: the distance between two fingers scales the view
      const [a, b] = [...s.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      s.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      const [c, d] = [...s.pointers.values()];
      const after = Math.hypot(c.x - d.x, c.y - d.y);
      if (before > 0 && after > 0) zoomBy(svg, after / before, svgPoint(svg, (c.x + d.x) / 2, (c.y + d.y) / 2));
      s.dragged = true;
      return;
    }
    if (!s.dragged && Math.hypot(event.clientX - s.start.x, event.clientY - s.start.y) < 6) return;
    if (!s.dragged) {
      s.dragged = true;
      svg.setPointerCapture(event.pointerId);
      svg.classList.add("panning");
    }
    s.cx -= (event.clientX - last.x) / m.a;
    s.cy -= (event.clientY - last.y) / m.d;
    s.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    apply(svg, s);
  });
  const up = (event) => {
    s.pointers.delete(event.pointerId);
    svg.classList.remove("panning");
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // a drag is not a click on what it started on
  svg.addEventListener("click", (event) => {
    if (s.dragged) {
      event.stopPropagation();
      event.preventDefault();
      s.dragged = false;
    }
  }, true);
}

/**
 * Make `svg` zoom and pan; call after each draw (the renderer has just set the viewBox of
 * the whole board): the part shown is kept between draws.
 */
function state(svg) {
  let s = views.get(svg);
  if (!s) {
    s = { scale: 1, cx: null, cy: null, base: null, focus: null, pointers: new Map(), dragged: false, start: { x: 0, y: 0 } };
    views.set(svg, s);
    install(svg, s);
  }
  return s;
}

export function panZoom(svg) {
  const s = state(svg);
  const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  if (box.length !== 4 || box.some((n) => !Number.isFinite(n))) return;
  const [x, y, w, h] = box;
  if (!s.base || s.base.w !== w || s.base.h !== h) {
    s.scale = 1;
    s.cx = null;
  }
  s.base = { x, y, w, h };
  if (s.focus) {
    if (s.focus.native && svg.clientWidth > 0) s.scale = Math.max(1, 1 / Math.min(svg.clientWidth / w, (svg.clientHeight || h) / h));
    s.cx = s.focus.x;
    s.cy = s.focus.y;
    s.focus = null;
  }
  apply(svg, s);
}
