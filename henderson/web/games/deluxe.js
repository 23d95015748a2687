// Deluxe Guadalcanal board: the long east-west map from the game's board data (terrain by
// level, slopes, rivers, roads, villages and who holds them, the coast, Henderson Field with
// its status and control), the turn track, and the counters of the seat's view: its own
// stacks whole, an enemy stack as its top counter and a count, stealth units as markers
// only (DG 7.7, 7.8: the server sends each side only what it may see). A click on a unit
// marks the hexes its legal actions reach; a click on a marked hex plays the action. The
// renderer decides no rule: it shows the legal actions and the server's answers.
import { arg, argsOf, byText, byVerb, texts } from "../js/actions.js";
import { corners, sharedEdge } from "../js/hexmap.js";
import { el, focusOn, lastMoves, reset } from "../js/svg.js";
import { drawTray } from "../js/tray.js";

const R = 15; // hex circumradius, px, at zoom 1
const C = 17; // counter size, px: inside its hex, so the map's marks stay in sight
const TOP = 74; // room above the map for the turn track and the status line
const OFF_H = 96; // room below the map for the off-map boxes
const SIDE = {
  us: { fill: "#5d7a34", ink: "#ffffff", edge: "#2f3f18", name: "US" },
  jp: { fill: "#f0d59a", ink: "#5a1111", edge: "#8a5a12", name: "Japan" },
};
const BAR = { black: "#111111", red: "#b91c1c", blue: "#1d4ed8" };
const FILL = {
  sea: ["#a9cfe0"],
  clear: ["#ece5c4", "#dccd9c", "#c8b27c", "#ae9562"],
  jungle: ["#93bf7c", "#77a564", "#5e8b50", "#4a7240"],
};
const UNIT_HEX_VERBS = ["move", "land", "sea", "retreat", "advance", "detect", "counter", "fire"];
const UNIT_VERBS = ["stealth", "unstealth", "withdraw", "repair", "wreck", "lose", "with", "rabaul", "support", "consolidate"];
const HEX_VERBS = ["attack", "target", "guerrilla"];
const OFF_BOXES = [
  { id: "arriving", label: "Arriving this turn" },
  { id: "next", label: "Next turn" },
  { id: "rabaul", label: "Rabaul" },
  { id: "gone", label: "Eliminated / withdrawn" },
];

export const keys = { e: "end", p: "pass", g: "go" };

// names of the steps of the sequence of play, learnt from the board data when it is drawn
let stepNames = {};

function prettyStep(id) {
  return stepNames[id] || String(id || "");
}

export function phase(view) {
  if (!view) return "";
  if (view.result) return `Turn ${view.turn} · game over`;
  return `Turn ${view.turn} · ${prettyStep(view.step)}`;
}

// selection and zoom kept between draws
const memo = { unit: null, ply: -1, together: false, scrolled: false, costs: new Map(), costsFor: null, asked: new Set(), hint: "", odds: new Map() };

/** Pixel centres of the hexes: x east, y south, with room for the track above. */
function geometry(board) {
  const minX = Math.min(...board.hexes.map((h) => h.x)) - 1;
  const minY = Math.min(...board.hexes.map((h) => h.y)) - 1;
  const hexes = new Map();
  for (const h of board.hexes) hexes.set(h.id, { ...h, px: (h.x - minX) * R + 6, py: (h.y - minY) * R + TOP });
  const right = Math.max(...[...hexes.values()].map((h) => h.px)) + R + 6;
  const bottom = Math.max(...[...hexes.values()].map((h) => h.py)) + R;
  return { hexes, right, bottom };
}

/** Units by place: hex id or off-map box id -> [unit], the top counter last (DG 7.8). */
function placements(view, board) {
  const at = new Map();
  const put = (place, unit) => {
    if (!at.has(place)) at.set(place, []);
    at.get(place).push(unit);
  };
  for (const [id, u] of Object.entries(view.units || {})) {
    const unit = { id, ...u };
    if (u.at === "turn") {
      const t = board.units[id];
      if (t && t.arrival === view.turn) put("arriving", unit);
    } else if (u.at === "next") put("next", unit);
    else if (u.at === "rabaul") put("rabaul", unit);
    else if (["eliminated", "withdrawn", "absorbed"].includes(u.at)) put("gone", unit);
    else put(u.at, unit);
  }
  for (const list of at.values()) list.sort((a, b) => (a.order || 0) - (b.order || 0));
  return at;
}

/** The unit an action names first (the one it is about), or undefined. */
function unitOf(action) {
  return argsOf(action, "unit")[0];
}

/** The legal actions naming `unit` first and a hex second: hex -> [actions]. With
 * `together`, the stack moves that take the unit (DG 7.5): for each hex the one that takes
 * the most units along. */
function targetsOf(actions, unit, together = false) {
  const out = new Map();
  if (together) {
    for (const action of byVerb(actions, "stack")) {
      const units = arg(action, "units");
      const to = arg(action, "to");
      if (!units.includes(unit)) continue;
      const best = out.get(to);
      if (!best || arg(best[0], "units").length < units.length) out.set(to, [action]);
    }
    return out;
  }
  for (const action of byVerb(actions, ...UNIT_HEX_VERBS)) {
    const hex = argsOf(action, "hex")[0];
    if (unitOf(action) !== unit || hex === undefined) continue;
    if (!out.has(hex)) out.set(hex, []);
    out.get(hex).push(action);
  }
  return out;
}

/** Whether a stack move takes `unit` along. */
function inStackMove(actions, unit) {
  return byVerb(actions, "stack").some((a) => arg(a, "units").includes(unit));
}

/** Units that have something to do now (a legal action names them). */
function actors(actions) {
  const out = new Set(byVerb(actions, ...UNIT_HEX_VERBS, ...UNIT_VERBS).map(unitOf));
  for (const action of byVerb(actions, "stack")) arg(action, "units").forEach((u) => out.add(u));
  return out;
}

/** The actions on a hex alone (open an assault on it, add it, a guerrilla roll): hex -> [actions]. */
function hexActions(actions) {
  const out = new Map();
  for (const action of byVerb(actions, ...HEX_VERBS)) {
    const hex = argsOf(action, "hex")[0];
    if (!out.has(hex)) out.set(hex, []);
    out.get(hex).push(action);
  }
  return out;
}

/** The units a verb names, each with its action's text: unit -> text. */
function unitActions(actions, verb) {
  return new Map(byVerb(actions, verb).map((a) => [unitOf(a), a.text]));
}

// -- the movement cost of the selected unit's moves, asked of the server once per position ----

function wantCosts(ctx, unit, moves) {
  const key = `${ctx.ply}:${unit}`;
  if (memo.costsFor !== key) {
    memo.costsFor = key;
    memo.costs = new Map();
    memo.asked = new Set();
  }
  // a few moves are previewed at once; of many, each when the pointer comes over its hex
  const ask = moves.filter((a) => !memo.asked.has(a));
  if (!ask.length || ask.length > 40 || !ctx.api || !ctx.api.preview) return;
  for (const a of ask) memo.asked.add(a);
  const spentBefore = (ctx.view.units[unit] && ctx.view.units[unit].spent) || 0;
  const named = byText(ctx.actions);
  ctx.api.preview(ask, ["units"]).then((answer) => {
    if (memo.costsFor !== key) return;
    for (const r of answer.results) {
      const after = r.ok && r.view.units && r.view.units[unit];
      if (after && typeof after.spent === "number") memo.costs.set(arg(named.get(r.action), "to"), after.spent - spentBefore);
    }
    ctx.redraw();
  }, () => {});
}

// -- the HTML panel ------------------------------------------------------------------------------

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function actionButtons(ctx, actions) {
  return html("div", { class: "buttons" }, actions.map((a) => html("button", { type: "button", "data-action": a, onclick: () => ctx.play(a) }, a)));
}

function describe(board, unit) {
  const t = board.units[unit.id] || {};
  const parts = [`${t.type || "unit"}`, `strength ${unit.strength}/${t.strength}`, `movement ${t.movement}`];
  if (t.range) parts.push(`range ${t.range}`);
  if (unit.stealth) parts.push(`stealth ${unit.stealth}`);
  if (unit.suppressed) parts.push("suppressed");
  if (unit.moved) parts.push("moved");
  if (unit.attacked) parts.push("attacked");
  return parts.join(", ");
}

/** The odds of the assault being built, asked of the server once per position (never rolled). */
function wantOdds(ctx, pending) {
  const key = `${ctx.ply}:${(pending.targets || []).join(",")}:${(pending.units || []).join(",")}:${pending.strain}`;
  if (memo.odds.has(key)) return memo.odds.get(key);
  memo.odds.set(key, { pending: true });
  ctx.api.odds(";").then( // ";": the assault already being built (DG 8.2.1.4)
    (answer) => { memo.odds.set(key, answer); ctx.redraw(); },
    (err) => { memo.odds.set(key, { error: err.describe ? err.describe() : String(err) }); ctx.redraw(); },
  );
  return memo.odds.get(key);
}

/** The server's odds of an assault: strengths, column, and each die's results. */
function oddsBox(answer) {
  if (answer.pending) return html("div", { class: "rule" }, "working out the odds…");
  if (answer.error) return html("div", { class: "error" }, answer.error);
  const o = answer.odds;
  const rows = [html("div", {}, html("strong", {}, `Odds ${o.ratio}`), ` · attack ${o.attack} against defence ${o.defense}`)];
  if (o.unseen_counters) rows.push(html("div", { class: "rule" }, `${o.unseen_counters} counter(s) under the top of the defending stack not counted (DG 7.8)`));
  if (o.strain_loss_chance && o.strain_loss_chance !== "0") rows.push(html("div", { class: "rule" }, `straining: a step lost with chance ${o.strain_loss_chance} (DG 8.2.3)`));
  const side = (r) => [r.loss ? `L${r.loss}` : "", r.retreat ? `R${r.retreat}` : "", r.advance ? `A${r.advance}` : ""].filter(Boolean).join(" ") || "—";
  if (o.results && o.results.length) {
    const table = html("table", { class: "odds" }, html("tr", {}, html("th", {}, "die"), html("th", {}, "chance"), html("th", {}, "attacker"), html("th", {}, "defender")));
    for (const r of o.results) table.append(html("tr", {}, html("td", {}, String(r.die)), html("td", {}, String(r.chance)), html("td", {}, side(r.attacker)), html("td", {}, side(r.defender))));
    rows.push(table);
  } else rows.push(html("div", { class: "rule" }, "add attackers to see the results"));
  return html("div", { class: "odds-box" }, rows);
}

function drawPanel(ctx, placed) {
  const { view, board, legal, actions } = ctx;
  if (!ctx.panel) return;
  const pending = (view.pending || []).at(-1);
  if (pending && pending.kind === "assault") {
    ctx.panel.append(html("div", {}, html("strong", {}, `Assault on ${(pending.targets || []).join(", ")}`),
      html("div", { class: "rule" }, `attackers ${(pending.units || []).join(", ") || "none yet"} · stage ${pending.stage}`)));
  }
  if (pending && pending.kind === "assault" && pending.attacker === ctx.side && legal.length) {
    ctx.panel.append(oddsBox(wantOdds(ctx, pending)));
  }
  if (pending && pending.kind === "assault") {
    const general = texts(byVerb(actions, "go", "strain", "ambush", "stop", "banzai", "defend", "support"));
    if (general.length) ctx.panel.append(actionButtons(ctx, general.slice(0, 12)));
  }
  const id = memo.unit;
  if (!id || !view.units[id]) return;
  const unit = { id, ...view.units[id] };
  ctx.panel.append(html("h3", {}, `${id} · ${SIDE[unit.side] ? SIDE[unit.side].name : unit.side}`),
    html("div", { class: "rule" }, describe(board, unit)), html("div", {}, `at ${unit.at}`));
  const stack = placed.get(unit.at) || [];
  if (stack.length > 1) {
    ctx.panel.append(html("div", { class: "rule" }, "Stack (top last):"),
      html("div", { class: "buttons" }, stack.map((u) => html("button", {
        type: "button", "data-select": u.id, onclick: () => { memo.unit = u.id; ctx.redraw(); },
      }, u.id === id ? `[${u.id}]` : u.id))));
  }
  if (inStackMove(actions, id)) {
    ctx.panel.append(html("div", { class: "buttons" }, html("button", {
      type: "button", "data-together": memo.together ? "yes" : "no",
      onclick: () => { memo.together = !memo.together; ctx.redraw(); },
    }, memo.together ? "move it alone" : "move the stack together")));
  }
  const mine = texts(actions.filter((a) => a.args.length && a.args[0].value === id && !UNIT_HEX_VERBS.includes(a.verb)));
  if (mine.length) ctx.panel.append(actionButtons(ctx, mine.slice(0, 12)));
  const reach = [...targetsOf(actions, id, memo.together).values()].flat();
  if (reach.length) ctx.panel.append(html("div", { class: "rule" }, `${reach.length} action(s) to marked hexes: click one${memo.hint ? `; ${memo.hint}` : ""}`));
}

// -- drawing -------------------------------------------------------------------------------------

function counter(board, unit, x, y, options = {}) {
  const t = board.units[unit.id] || {};
  const colours = SIDE[unit.side] || SIDE.us;
  const full = t.strength || unit.strength || 1;
  const parts = [
    el("rect", { x: x - C / 2, y: y - C / 2, width: C, height: C, rx: 2, fill: colours.fill, stroke: options.ring || colours.edge, "stroke-width": options.ring ? 2.5 : 0.8 }),
    el("rect", { x: x - C / 2 + 1, y: y - C / 2 + 1, width: C - 2, height: 2.5, fill: BAR[t.bar] || "none" }),
    el("text", { x, y: y - 1.2, "text-anchor": "middle", "font-size": 5.2, fill: colours.ink }, unit.id),
    el("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 5.8, "font-weight": 700, fill: colours.ink, class: "steps" },
      t.range ? `${unit.strength}(${t.range})-${t.movement}` : `${unit.strength}-${t.movement}`),
  ];
  // the steps: one pip for each step left of the printed strength (DG 2.2.1.7)
  for (let i = 0; i < full; i += 1) {
    parts.push(el("circle", { cx: x - C / 2 + 2.5 + i * 2.6, cy: y + C / 2 - 1.9, r: 0.9, fill: i < unit.strength ? colours.ink : "none", stroke: colours.ink, "stroke-width": 0.4 }));
  }
  if (unit.stealth) {
    parts.push(el("rect", { x: x + C / 2 - 7, y: y - C / 2 - 3, width: 9, height: 8, rx: 1, fill: "#111", class: "own-stealth" }),
      el("text", { x: x + C / 2 - 2.5, y: y - C / 2 + 3.4, "text-anchor": "middle", "font-size": 6, fill: "#fff" }, `S${unit.stealth}`));
  }
  parts.push(el("title", {}, `${unit.id} (${colours.name} ${t.type || ""}): ${unit.strength} of ${full} steps${unit.stealth ? `, under stealth ${unit.stealth}` : ""}${options.note ? ` · ${options.note}` : ""}`));
  return el("g", { class: "counter", "data-counter": unit.id, "data-side": unit.side, cursor: "pointer", opacity: options.faded ? 0.6 : 1 }, parts);
}

/**
 * The reinforcements waiting off the map while some land (DG 6.0): the seat's arriving units,
 * and those a legal `land` action names now (they land one at a time, in counter order).
 */
function waitingToLand(ctx, geo, placed) {
  const units = ctx.view.units || {};
  const ready = new Set(byVerb(ctx.actions, "land").map(unitOf).filter((id) => units[id] && !geo.hexes.has(units[id].at)));
  if (!ready.size) return { waiting: [], ready };
  const arriving = (placed.get("arriving") || []).filter((u) => u.side === ctx.side && !ready.has(u.id));
  return { waiting: [...[...ready].map((id) => ({ id, ...units[id] })), ...arriving], ready };
}

/** The tray beside the map: the reinforcements to land, placed by click or drag onto a marked hex. */
function drawWaiting(ctx, geo, placed) {
  if (!ctx.tray) return;
  const { waiting, ready } = waitingToLand(ctx, geo, placed);
  drawTray(ctx.tray, {
    groups: [{ title: "Arriving", units: waiting.map((u) => u.id) }],
    size: C,
    scale: 2.2,
    counter: (id, x, y) => counter(ctx.board, waiting.find((u) => u.id === id), x, y, { ring: memo.unit === id ? "#1d4ed8" : null }),
    selected: memo.unit,
    enabled: true,
    ready,
    hint: "Click a counter, then a marked hex; or drag it there. Esc deselects. They land in counter order (DG 6.0).",
    select: (id) => {
      memo.unit = id;
      memo.together = false;
      ctx.redraw();
    },
    drop: (id, place) => {
      const land = (targetsOf(ctx.actions, id).get(place) || []).find((a) => a.verb === "land");
      if (land) ctx.play(land.text);
      else ctx.redraw();
    },
  });
}

function line(points, attrs) {
  return el("polyline", { points: points.map((p) => `${p.px},${p.py}`).join(" "), fill: "none", "pointer-events": "none", ...attrs });
}

export function render(svg, ctx) {
  const { view, board, actions } = ctx;
  if (!board || !Array.isArray(board.hexes) || !board.hexes.length || !board.units) throw new Error("no board data");
  const learned = Object.keys(stepNames).length === 0 && (board.sequence || []).length > 0;
  stepNames = Object.fromEntries((board.sequence || []).map((s) => [s.id, s.name]));
  if (learned) queueMicrotask(ctx.redraw); // the status line, drawn before the board, names the step
  if (memo.ply !== ctx.ply) {
    memo.ply = ctx.ply;
    if (memo.unit && !actors(actions).has(memo.unit)) memo.unit = null;
  }
  const geo = geometry(board);
  const placed = placements(view, board);
  memo.placed = placed;
  const canAct = actors(actions);
  const unit = memo.unit;
  if (unit && memo.together && !inStackMove(actions, unit)) memo.together = false;
  const targets = unit ? targetsOf(actions, unit, memo.together) : new Map(); // hex -> [actions]
  const moves = texts([...targets.values()].flat().filter((a) => a.verb === "move"));
  if (unit && moves.length) wantCosts(ctx, unit, moves);
  memo.hint = unit && moves.length > 40 ? "the pointer over a marked hex shows the movement points it costs" : "";
  const onHex = hexActions(actions);
  const losable = unitActions(actions, "lose"); // unit -> its action's text
  const joinable = unitActions(actions, "with");
  const pending = (view.pending || [])[(view.pending || []).length - 1];
  const assaulted = new Set(pending && pending.kind === "assault" ? pending.targets || [] : []);

  const width = geo.right;
  const height = geo.bottom + OFF_H;
  reset(svg, width, height); // the page zooms and pans the view (js/svg.js panZoom)
  svg.append(el("rect", { x: 0, y: 0, width, height, fill: "#cfe3ea" }));

  // turn track (DG 2.1.8): the date of each turn, the current one marked
  const turns = board.turns || [];
  const cell = Math.min(72, (width - 12) / Math.max(turns.length, 1));
  turns.forEach((t, i) => {
    const now = t.turn === view.turn;
    const x = 6 + i * cell;
    svg.append(el("g", { "data-turn": t.turn },
      el("rect", { x, y: 6, width: cell - 3, height: 26, rx: 3, fill: now ? "#facc15" : t.event === "jp" ? "#fbd5d5" : "#f5f0e1", stroke: "#6b6b5a" }),
      el("text", { x: x + (cell - 3) / 2, y: 17, "text-anchor": "middle", "font-size": 9, "font-weight": now ? 700 : 400 }, String(t.turn)),
      el("text", { x: x + (cell - 3) / 2, y: 28, "text-anchor": "middle", "font-size": 7, fill: "#444" }, t.date ? t.date.slice(5) : ""),
      el("title", {}, `Turn ${t.turn}: ${t.date}${t.event ? `, ${t.event === "jp" ? "Japanese" : "US"} event` : ""}; artillery supply US ${t.supply.us}, Japan ${t.supply.jp}`)));
  });
  const hf = view.henderson_field || {};
  const c = board.constants || {};
  const vpText = view.vp > 0 ? `US +${view.vp}` : view.vp < 0 ? `Japan +${-view.vp}` : "even";
  // the status line and VP track stay in sight, unscaled, however the map is zoomed or panned
  const hud = el("g", { class: "hud pinned", "pointer-events": "none" });
  hud.append(el("rect", { x: 2, y: 37, width: 760, height: 32, rx: 4, fill: "#cfe3ea", opacity: 0.85 }));
  hud.append(el("text", { x: 8, y: 50, "font-size": 12, "font-weight": 600, class: "dg-phase" },
    `${phase(view)}  ·  VP ${vpText}  ·  Henderson Field ${hf.status}/${c.hf_max} (${hf.control === "us" ? "US" : "Japan"})  ·  artillery supply US ${(view.supply || {}).us}, Japan ${(view.supply || {}).jp}${view.result ? `  ·  ${view.result.winner || "draw"}: ${view.result.cause}` : ""}`));
  // the VP track (DG 9.0): -win .. +win, the marker where the score stands
  const win = c.vp_to_win || 61;
  const vpx = (v) => 8 + ((Math.max(-win, Math.min(win, v)) + win) / (2 * win)) * 360;
  hud.append(el("g", { class: "vp-track", "data-vp": view.vp },
    el("rect", { x: 8, y: 57, width: 180, height: 7, fill: SIDE.jp.fill, stroke: "#6b6b5a", "stroke-width": 0.5 }),
    el("rect", { x: 188, y: 57, width: 180, height: 7, fill: SIDE.us.fill, stroke: "#6b6b5a", "stroke-width": 0.5 }),
    el("circle", { cx: vpx(view.vp || 0), cy: 60.5, r: 5, fill: "#facc15", stroke: "#111" }),
    el("title", {}, `Victory points: ${vpText} (a side wins at ${win})`)));

  // hexes
  const hexLayer = el("g", { class: "hexes" });
  const numbers = el("g", { class: "hex-ids", "pointer-events": "none" }); // the hex numbers (a toggle)
  for (const h of geo.hexes.values()) {
    const points = corners(h.px, h.py, R, "flat").map((p) => p.join(",")).join(" ");
    const fills = FILL[h.terrain] || FILL.clear;
    const target = targets.get(h.id);
    const here = onHex.get(h.id);
    const poly = el("polygon", {
      points, fill: fills[Math.min(h.level || 0, fills.length - 1)], stroke: h.terrain === "sea" ? "#9cc3d4" : "#7b7560", "stroke-width": 0.4,
      "data-hex": h.id, "data-level": h.level, class: target ? "hex reach" : here ? "hex hexaction" : "hex",
    }, el("title", {}, `${h.id} ${h.terrain}${h.level ? ` level ${h.level}` : ""}${h.coastal ? ", coastal" : ""}${h.river ? ", river" : ""}${h.road ? ", road" : ""}${h.village ? `, ${h.village}` : ""}`));
    poly.addEventListener("click", () => onPlace(ctx, h.id, targets, onHex));
    if (h.terrain !== "sea") numbers.append(el("text", { x: h.px, y: h.py + R * 0.8, "text-anchor": "middle", "font-size": 3.6, class: "hex-id" }, h.id));
    const move = target && target.find((a) => a.verb === "move");
    if (move) poly.addEventListener("mouseenter", () => wantCosts(ctx, unit, [move.text]));
    hexLayer.append(poly);
  }
  svg.append(hexLayer, numbers);

  // slopes between levels (DG 2.1.4), rivers (DG 2.1.3), roads (DG 2.1.6)
  const features = el("g", { class: "features", "pointer-events": "none" });
  for (const [a, b] of board.slopes || []) {
    const ha = geo.hexes.get(a);
    const hb = geo.hexes.get(b);
    if (!ha || !hb) continue;
    const [x1, y1, x2, y2] = sharedEdge({ x: ha.px, y: ha.py }, { x: hb.px, y: hb.py }, R);
    features.append(el("line", { x1, y1, x2, y2, stroke: "#6b3f17", "stroke-width": 1.8, "stroke-linecap": "round", "data-kind": "slope" }));
  }
  for (const river of board.rivers || []) {
    const pts = river.hexes.map((id) => geo.hexes.get(id)).filter(Boolean);
    features.append(line(pts, { stroke: "#2563eb", "stroke-width": 3, "stroke-linejoin": "round", "data-kind": "river", "data-name": river.name }));
  }
  for (const road of board.roads || []) {
    const pts = road.hexes.map((id) => geo.hexes.get(id)).filter(Boolean);
    features.append(line(pts, { stroke: "#7c2d12", "stroke-width": 1.6, "stroke-dasharray": "4 2", "data-kind": "road", "data-name": road.name }));
  }
  svg.append(features);

  // villages and who holds them (DG 2.1.7), Henderson Field (DG 2.1)
  const marks = el("g", { class: "marks", "pointer-events": "none" });
  for (const v of board.villages || []) {
    const h = geo.hexes.get(v.hex);
    if (!h) continue;
    const owner = (view.villages || {})[v.hex];
    const col = SIDE[owner] || { fill: "#fff", edge: "#444" };
    marks.append(el("g", { "data-village": v.hex, "data-owner": owner || "" },
      el("path", { d: `M${h.px - 4} ${h.py + 8} v-4 l4 -3 l4 3 v4 z`, fill: col.fill, stroke: col.edge, "stroke-width": 0.8 }),
      el("text", { x: h.px, y: h.py + R * 0.95 + 7, "text-anchor": "middle", "font-size": 7, "font-style": "italic", fill: "#222" }, v.name)));
  }
  const hfHex = geo.hexes.get(board.henderson_field);
  const hfMark = el("g", { class: "hf-mark", "pointer-events": "none" }); // drawn over the counters
  if (hfHex) {
    const op = hf.status >= (c.hf_operational || 10);
    hfMark.append(el("g", { "data-henderson": board.henderson_field, "data-status": hf.status, "data-control": hf.control },
      el("rect", { x: hfHex.px - R * 0.6, y: hfHex.py + C / 2 - 1, width: R * 1.2, height: 6.5, fill: op ? "#44403c" : "#b91c1c", stroke: SIDE[hf.control] ? SIDE[hf.control].fill : "#444", "stroke-width": 1 }),
      el("text", { x: hfHex.px, y: hfHex.py + C / 2 + 4.3, "text-anchor": "middle", "font-size": 5.2, fill: "#fff" }, `HF ${hf.status}`),
      el("text", { x: hfHex.px, y: hfHex.py - R * 0.95 - 2, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#222", stroke: "#fffbea", "stroke-width": 2, "paint-order": "stroke" }, "Henderson Field")));
  }
  svg.append(marks);

  // marked hexes: where the selected unit may go (with the movement it costs) and hex actions
  const overlay = el("g", { class: "overlay", "pointer-events": "none" });
  for (const [id, actions] of targets) {
    const h = geo.hexes.get(id);
    if (!h) continue;
    overlay.append(el("polygon", { points: corners(h.px, h.py, R * 0.8, "flat").map((p) => p.join(",")).join(" "), fill: "#facc15", "fill-opacity": 0.35, stroke: "#ca8a04", "stroke-width": 2 }));
    const cost = memo.costs.get(id);
    const label = cost !== undefined ? String(cost) : "";
    if (label) overlay.append(el("text", { x: h.px, y: h.py - R * 0.35, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#713f12", class: "cost" }, label));
  }
  for (const [id, actions] of onHex) {
    const h = geo.hexes.get(id);
    if (!h) continue;
    const colour = actions[0].verb === "guerrilla" ? "#7c3aed" : "#b91c1c";
    overlay.append(el("polygon", { points: corners(h.px, h.py, R * 0.88, "flat").map((p) => p.join(",")).join(" "), fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": "3 2" }));
  }
  for (const id of assaulted) {
    const h = geo.hexes.get(id);
    if (h) overlay.append(el("polygon", { points: corners(h.px, h.py, R * 0.92, "flat").map((p) => p.join(",")).join(" "), fill: "#b91c1c", "fill-opacity": 0.3, stroke: "#b91c1c", "stroke-width": 2.5, class: "assaulted", "data-hex": id }));
  }
  svg.append(overlay);

  // off-map boxes under the map
  const boxW = Math.min(330, (width - 30) / OFF_BOXES.length);
  const areas = new Map();
  OFF_BOXES.forEach((b, i) => {
    const area = { x: 8 + i * (boxW + 6), y: geo.bottom + 8, w: boxW, h: OFF_H - 14 };
    areas.set(b.id, area);
    svg.append(el("g", { "data-box": b.id },
      el("rect", { x: area.x, y: area.y, width: area.w, height: area.h, rx: 4, fill: "#f5f0e1", stroke: "#6b6b5a" }),
      el("text", { x: area.x + 4, y: area.y + 11, "font-size": 9, fill: "#333" }, `${b.label} (${(placed.get(b.id) || []).length})`)));
  });

  // counters: a hex shows its top counter, fanned over the ones below, with the stack's size
  const layer = el("g", { class: "counters" });
  const enemyStacks = new Map((view.enemy_stacks || []).map((s) => [s.hex, s]));
  for (const [place, units] of placed) {
    const h = geo.hexes.get(place);
    const area = areas.get(place);
    if (!h && !area) continue;
    const count = h ? (enemyStacks.get(place) && units[0].side !== ctx.side ? enemyStacks.get(place).counters : units.length) : units.length;
    units.forEach((u, i) => {
      let x;
      let y;
      if (h) {
        const k = Math.min(i, 2);
        x = h.px - 2 + k * 2;
        y = h.py - 2 - k * 2;
      } else {
        const per = Math.max(1, Math.floor((area.w - 6) / (C + 2)));
        if (i >= per * 3) return;
        x = area.x + 4 + C / 2 + (i % per) * (C + 2);
        y = area.y + 15 + C / 2 + Math.floor(i / per) * (C + 2);
      }
      const ring = u.id === unit ? "#1d4ed8" : losable.has(u.id) ? "#b91c1c" : joinable.has(u.id) ? "#16a34a" : canAct.has(u.id) ? "#ca8a04" : null;
      const node = counter(board, u, x, y, { ring, note: h && count > 1 ? `stack of ${count}` : null });
      if (h) node.setAttribute("data-at", place); // where a counter dragged from the tray onto it goes
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        onCounter(ctx, u, place, targets, onHex, losable, joinable, event.shiftKey);
      });
      layer.append(node);
    });
    if (h && targets.has(place) && units.some((u) => u.side === ctx.side)) {
      layer.append(moveHere(h.px - R * 0.7, h.py + R * 0.55, place, () => onPlace(ctx, place, targets, onHex)));
    }
    if (h && count > 1) {
      layer.append(el("g", { "pointer-events": "none", class: "stack-size" },
        el("circle", { cx: h.px + C / 2 + 1, cy: h.py - C / 2 - 4, r: 5, fill: "#fff", stroke: "#111", "stroke-width": 0.7 }),
        el("text", { x: h.px + C / 2 + 1, y: h.py - C / 2 - 1.8, "text-anchor": "middle", "font-size": 7, "font-weight": 700 }, String(count))));
    }
  }
  // enemy stealth markers: only a marker and its value, never the unit (DG 7.7)
  const stealthAt = new Map();
  for (const m of view.stealth_markers || []) {
    const h = geo.hexes.get(m.hex);
    if (!h) continue;
    const k = stealthAt.get(m.hex) || 0;
    stealthAt.set(m.hex, k + 1);
    const x = h.px - R * 0.55 + k * 4;
    const y = h.py + R * 0.25 - k * 4;
    layer.append(el("g", { class: "stealth-marker", "data-hex": m.hex, "data-side": m.side, "pointer-events": "none" },
      el("rect", { x: x - 6, y: y - 6, width: 12, height: 12, rx: 2, fill: "#1f2937", stroke: SIDE[m.side] ? SIDE[m.side].fill : "#fff", "stroke-width": 1.2 }),
      el("text", { x, y: y + 2.5, "text-anchor": "middle", "font-size": 7, fill: "#fff", "font-weight": 700 }, `S${m.stealth}`)));
  }
  svg.append(layer, hfMark);
  svg.append(lastMoves(ctx.lastMoves, (place) => {
    const h = geo.hexes.get(place);
    return h ? { x: h.px, y: h.py } : null;
  }, ctx.sides));
  drawPanel(ctx, placed);
  drawWaiting(ctx, geo, placed);
  svg.append(hud); // last: over the map
  // an assault being built comes into sight once (it may lie at either end of the map)
  const focus = [...assaulted][0];
  if (focus && memo.focus !== `${focus}:${view.turn}` && geo.hexes.has(focus)) {
    memo.focus = `${focus}:${view.turn}`;
    memo.scrolled = true;
    const h = geo.hexes.get(focus);
    focusOn(svg, h.px, h.py);
  }
  if (!memo.scrolled && hfHex) {
    // once, start at one pixel a unit with Henderson Field in the middle of the view
    memo.scrolled = true;
    focusOn(svg, hfHex.px, hfHex.py, { native: true });
  }
}

function onPlace(ctx, place, targets, onHex) {
  const here = targets.get(place);
  if (here && here.length === 1) {
    if (here[0].verb === "fire") ctx.pick(here[0].text);
    else ctx.play(here[0].text);
    return;
  }
  if (here && here.length > 1) {
    const move = here.find((a) => ["move", "land", "retreat", "advance"].includes(a.verb));
    if (move) ctx.play(move.text);
    else ctx.pick(here[0].text);
    return;
  }
  const action = onHex.get(place);
  if (action && !memo.unit) {
    ctx.play(action[0].text);
    return;
  }
  // a hex of the seat's own units opens its stack: one with something to do is selected
  const mine = ((memo.placed && memo.placed.get(place)) || []).filter((u) => u.side === ctx.side).map((u) => u.id);
  const busy = actors(ctx.actions);
  memo.unit = mine.length && !mine.includes(memo.unit) ? mine.find((id) => busy.has(id)) || mine[0] : null;
  memo.together = false;
  ctx.redraw();
}

/**
 * The marker on a reachable hex that holds the seat's own counters: a click on it moves the
 * selected unit there (a click on the counters selects them instead).
 */
function moveHere(x, y, place, go) {
  const node = el("g", { class: "move-here", "data-move-here": place, cursor: "pointer" },
    el("circle", { cx: x, cy: y, r: 5, fill: "#facc15", stroke: "#713f12", "stroke-width": 1.2 }),
    el("path", { d: `M${x - 2.5} ${y} h4.5 m-2 -2 l2 2 l-2 2`, stroke: "#713f12", "stroke-width": 1.1, fill: "none" }),
    el("title", {}, `move here (${place}); shift-click a counter does the same`));
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    go();
  });
  return node;
}

/**
 * Lines the log adds under an entry: artillery fire that cost no step says so (its events
 * list only the dice then). `next` is the following entry, or null for the latest, when
 * `view` is the position after it (a loss still to be chosen is pending there).
 */
export function logNotes(entry, next, view) {
  const fire = (entry.events || []).find((e) => e.kind === "fire");
  if (!fire || !(entry.events || []).some((e) => e.kind === "roll")) return [];
  const lost = entry.events.some((e) => ["step", "eliminated"].includes(e.kind) && e.data && e.data.unit);
  const choosing = next ? String(next.action).startsWith("lose ")
    : ((view && view.pending) || []).some((p) => p.kind === "artillery_loss");
  return lost || choosing ? [] : [`result: no step lost${fire.data && fire.data.hex ? ` in ${fire.data.hex}` : ""}`];
}

/** Forget the selected unit (Esc); true when one was selected. */
export function deselect() {
  const had = memo.unit !== null;
  memo.unit = null;
  memo.together = false;
  return had;
}

/**
 * A click on a counter: lose it or add it when the engine asks; a click on one of the seat's
 * own counters selects it (shift-click moves the selected unit there); an enemy counter on a
 * marked hex is the hex itself.
 */
function onCounter(ctx, u, place, targets, onHex, losable, joinable, shift = false) {
  if (losable.has(u.id)) {
    ctx.play(losable.get(u.id));
    return;
  }
  if (joinable.has(u.id)) {
    ctx.play(joinable.get(u.id));
    return;
  }
  if (memo.unit && targets.has(place) && (shift || u.side !== ctx.side)) {
    onPlace(ctx, place, targets, onHex);
    return;
  }
  if (!memo.unit && onHex.has(place) && !actors(ctx.actions).has(u.id)) {
    ctx.play(onHex.get(place)[0].text);
    return;
  }
  memo.unit = memo.unit === u.id ? null : u.id;
  memo.together = false;
  ctx.redraw();
}
