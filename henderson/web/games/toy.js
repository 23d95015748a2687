// Board renderer of the toy test game (pig race): an example of the renderer plug-in point.
// A renderer module exports render(svg, ctx); optionally phase(view) and keys.
import { el, reset } from "../js/svg.js";

const TARGET = 20;
const COLOURS = { red: "#b91c1c", blue: "#1d4ed8" };

export const keys = { r: "roll", h: "hold" };

export function phase(view) {
  return `${view.to_move}'s turn, ${view.turn_total} at stake`;
}

export function render(svg, ctx) {
  const { view, legal } = ctx;
  reset(svg, 400, 220);
  svg.append(el("rect", { x: 0, y: 0, width: 400, height: 220, fill: "#efe9d6" }));
  ["red", "blue"].forEach((side, i) => {
    const y = 40 + i * 60;
    const score = view.scores[side];
    const width = (300 * Math.min(score, TARGET)) / TARGET;
    const stake = side === view.to_move ? (300 * Math.max(0, Math.min(view.turn_total, TARGET - score))) / TARGET : 0;
    svg.append(
      el("text", { x: 10, y: y + 17, "font-size": 14, "font-weight": side === view.to_move ? 700 : 400 }, side),
      el("rect", { x: 60, y, width: 300, height: 24, fill: "#fff", stroke: "#555" }),
      el("rect", { x: 60, y, width, height: 24, fill: COLOURS[side], "data-side": side }),
      el("rect", { x: 60 + width, y, width: stake, height: 24, fill: COLOURS[side], opacity: 0.35 }),
      el("text", { x: 366, y: y + 17, "font-size": 14 }, String(score)),
    );
    if (view.cards && side in view.cards) {
      svg.append(el("text", { x: 60, y: y + 40, "font-size": 11, fill: "#555" }, `secret card ${view.cards[side]}`));
    }
  });
  const buttons = [
    ["roll", 90],
    ["hold", 230],
  ];
  for (const [action, x] of buttons) {
    const enabled = legal.includes(action);
    const group = el(
      "g",
      { class: "toy-button", "data-action": action, cursor: enabled ? "pointer" : "default", opacity: enabled ? 1 : 0.4 },
      el("rect", { x, y: 165, width: 90, height: 34, rx: 6, fill: "#233021" }),
      el("text", { x: x + 45, y: 187, "text-anchor": "middle", fill: "#fff", "font-size": 15 }, action),
    );
    if (enabled) group.addEventListener("click", () => ctx.play(action));
    svg.append(group);
  }
}
