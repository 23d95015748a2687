// A hex map drawn into an SVG from board data: terrain, hexsides, markers, labels, boxes,
// counters in stacks, highlighted hexes, hex ids on hover, clicks reported by hex id.
// Game renderers use it; the client also uses it for any game whose board data has hexes.
import { el, reset } from "./svg.js";

const SQRT3 = Math.sqrt(3);
const DEFAULT_FILL = { clear: "#e8e2c4", jungle: "#7fa36b", ridge: "#c9a46a", sea: "#9cc3d9" };
const SIDE_COLOURS = ["#3b5b92", "#b8860b", "#8b2f2f", "#3d6b35"];

/** Corners of a hex of circumradius `size` centred at (x, y). */
export function corners(x, y, size, orientation = "pointy") {
  const start = orientation === "flat" ? 0 : 30;
  return Array.from({ length: 6 }, (_, i) => {
    const angle = ((start + 60 * i) * Math.PI) / 180;
    return [x + size * Math.cos(angle), y + size * Math.sin(angle)];
  });
}

/** The edge two adjacent hexes share, from their centres (regular hexes of circumradius `size`). */
export function sharedEdge(a, b, size) {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const half = size / 2;
  return [mx - (dy / length) * half, my + (dx / length) * half, mx + (dy / length) * half, my - (dx / length) * half];
}

/** The extent of the board: every hex, box and label. */
function extent(board, size) {
  const xs = [];
  const ys = [];
  for (const h of board.hexes) {
    xs.push(h.x - size, h.x + size);
    ys.push(h.y - size, h.y + size);
  }
  for (const b of board.boxes || []) {
    xs.push(b.x, b.x + b.w);
    ys.push(b.y, b.y + b.h);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/**
 * Draw `board` into `svg`. Options:
 *   counters: Map(hexId or boxId -> [{id, side, text, lines}]) drawn as stacks;
 *   highlight: Map(hexId -> short text) of hexes to mark (e.g. reachable, with a cost);
 *   selected: a hex id to outline; onHex(id), onCounter(counter, where) for clicks;
 *   sides: the game's sides, in order, for counter colours.
 */
export function drawHexMap(svg, board, options = {}) {
  const size = board.hex_size || 1;
  const orientation = board.orientation || "pointy";
  const scale = 40 / size;
  const box = extent(board, size);
  const pad = size * 0.3;
  const width = (box.x1 - box.x0 + 2 * pad) * scale;
  const height = (box.y1 - box.y0 + 2 * pad) * scale;
  reset(svg, width, height);
  const X = (x) => (x - box.x0 + pad) * scale;
  const Y = (y) => (y - box.y0 + pad) * scale;
  const R = size * scale;
  const fills = { ...DEFAULT_FILL, ...Object.fromEntries(Object.entries(board.terrain || {}).map(([k, v]) => [k, v.fill])) };
  const byId = new Map(board.hexes.map((h) => [h.id, h]));
  const highlight = options.highlight || new Map();
  const counters = options.counters || new Map();
  const sides = options.sides || [];

  const layers = {
    hexes: el("g", { class: "hexes" }),
    sides: el("g", { class: "hexsides" }),
    marks: el("g", { class: "markers" }),
    labels: el("g", { class: "labels", "pointer-events": "none" }),
    boxes: el("g", { class: "boxes" }),
    counters: el("g", { class: "counters" }),
  };
  for (const hex of board.hexes) {
    const points = corners(X(hex.x), Y(hex.y), R, orientation).map((p) => p.join(",")).join(" ");
    const marked = highlight.has(hex.id);
    const poly = el(
      "polygon",
      {
        points,
        fill: fills[hex.terrain] || "#ddd",
        stroke: hex.id === options.selected ? "#1d4ed8" : "#6b6b5a",
        "stroke-width": hex.id === options.selected ? 3 : 0.6,
        "data-hex": hex.id,
        class: marked ? "hex reach" : "hex",
      },
      el("title", {}, `${hex.id}${hex.name ? ` ${hex.name}` : ""} (${hex.terrain || "?"})`),
    );
    if (options.onHex) poly.addEventListener("click", () => options.onHex(hex.id));
    layers.hexes.append(poly);
    if (marked) {
      layers.hexes.append(
        el("circle", { cx: X(hex.x), cy: Y(hex.y), r: R * 0.5, fill: "#facc15", opacity: 0.55, "pointer-events": "none" }),
      );
      const text = highlight.get(hex.id);
      if (text) {
        layers.labels.append(
          el("text", { x: X(hex.x), y: Y(hex.y) + R * 0.15, "text-anchor": "middle", "font-size": R * 0.45, "font-weight": 700 }, text),
        );
      }
    }
  }
  for (const side of board.hexsides || []) {
    const [a, b] = (side.hexes || []).map((id) => byId.get(id));
    if (!a || !b) continue;
    const [x1, y1, x2, y2] = sharedEdge(a, b, size);
    const style = {
      river: { stroke: "#2563eb", width: 4 },
      ford: { stroke: "#93c5fd", width: 4, dash: "4 3" },
      ridge: { stroke: "#7c4a1e", width: 3 },
    }[side.kind] || { stroke: "#444", width: 2 };
    layers.sides.append(
      el("line", {
        x1: X(x1), y1: Y(y1), x2: X(x2), y2: Y(y2),
        stroke: style.stroke, "stroke-width": style.width, "stroke-linecap": "round",
        "stroke-dasharray": style.dash, "pointer-events": "none", "data-hexside": `${a.id}-${b.id}`, "data-kind": side.kind,
      }),
    );
  }
  for (const mark of board.markers || []) {
    const hex = byId.get(mark.hex);
    if (!hex) continue;
    const damaged = Boolean(mark.damaged);
    layers.marks.append(
      el(
        "g",
        { "pointer-events": "none", "data-marker": mark.kind },
        el("rect", {
          x: X(hex.x) - R * 0.6, y: Y(hex.y) + R * 0.3, width: R * 1.2, height: R * 0.35,
          fill: damaged ? "#b91c1c" : "#57534e", rx: 2,
        }),
        el("text", { x: X(hex.x), y: Y(hex.y) + R * 0.58, "text-anchor": "middle", "font-size": R * 0.25, fill: "#fff" }, mark.short || mark.kind),
      ),
    );
  }
  for (const label of board.labels || []) {
    const at = label.hex ? byId.get(label.hex) : label;
    if (!at) continue;
    layers.labels.append(
      el("text", { x: X(at.x), y: Y(at.y) - R * 0.55, "text-anchor": "middle", "font-size": R * 0.28, "font-style": "italic", fill: "#333" }, label.text),
    );
  }
  for (const b of board.boxes || []) {
    const group = el(
      "g",
      { "data-box": b.id },
      el("rect", { x: X(b.x), y: Y(b.y), width: b.w * scale, height: b.h * scale, fill: "#f5f0e1", stroke: "#6b6b5a", rx: 4 }),
      el("text", { x: X(b.x) + 4, y: Y(b.y) + 12, "font-size": 11, fill: "#333" }, b.text || b.id),
    );
    if (options.onHex) group.addEventListener("click", () => options.onHex(b.id));
    layers.boxes.append(group);
  }
  // counters: a stack draws its top counter with the number under it
  const boxesById = new Map((board.boxes || []).map((b) => [b.id, b]));
  for (const [where, stack] of counters) {
    const hex = byId.get(where);
    const area = boxesById.get(where);
    if (!hex && !area) continue;
    stack.forEach((counter, i) => {
      const s = R * 0.95;
      const cx = hex ? X(hex.x) : X(area.x) + 8 + (i % 6) * (s + 4) + s / 2;
      const cy = hex ? Y(hex.y) : Y(area.y) + 18 + Math.floor(i / 6) * (s + 4) + s / 2;
      if (hex && i < stack.length - 1) return; // only the top counter of a hex stack shows
      const colour = counter.colour || SIDE_COLOURS[Math.max(0, sides.indexOf(counter.side)) % SIDE_COLOURS.length];
      const lines = counter.lines || [counter.text || counter.id];
      const group = el(
        "g",
        { class: "counter", "data-counter": counter.id, cursor: options.onCounter ? "pointer" : "default" },
        el("rect", { x: cx - s / 2, y: cy - s / 2, width: s, height: s, rx: 3, fill: colour, stroke: "#111", "stroke-width": 1 }),
        ...lines.slice(0, 3).map((line, n) =>
          el("text", { x: cx, y: cy - s / 2 + (n + 1) * (s / (Math.min(lines.length, 3) + 1)) + 3, "text-anchor": "middle", "font-size": s * 0.26, fill: "#fff" }, line),
        ),
        el("title", {}, (counter.title || lines.join(" ")) + (hex && stack.length > 1 ? ` (stack of ${stack.length})` : "")),
      );
      if (hex && stack.length > 1) {
        group.append(
          el("circle", { cx: cx + s / 2, cy: cy - s / 2, r: s * 0.22, fill: "#fff", stroke: "#111" }),
          el("text", { x: cx + s / 2, y: cy - s / 2 + s * 0.09, "text-anchor": "middle", "font-size": s * 0.26 }, String(stack.length)),
        );
      }
      if (options.onCounter) {
        group.addEventListener("click", (event) => {
          event.stopPropagation();
          options.onCounter(counter, where, stack);
        });
      }
      layers.counters.append(group);
    });
  }
  svg.append(layers.hexes, layers.sides, layers.marks, layers.boxes, layers.labels, layers.counters);
}

/** Counters from a view that lists `units` as {id, side, hex or box, text or lines}. */
export function countersFrom(view) {
  const stacks = new Map();
  for (const unit of Array.isArray(view && view.units) ? view.units : []) {
    const where = unit.hex || unit.box;
    if (!where) continue;
    if (!stacks.has(where)) stacks.set(where, []);
    stacks.get(where).push(unit);
  }
  return stacks;
}
