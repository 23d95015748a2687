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
