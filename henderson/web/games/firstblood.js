// FIRST BLOOD board: the map from the game's board data (terrain, rivers and ford, ridges,
// airfields with their state, entry points, boxes A-D, holding boxes, turn track), the
// counters of the view in stacks, and play by clicks: select a unit to see where it may
// go (with the movement it costs), click to move; open an attack on a hex, add units and
// see the odds (column, modifiers with their rules, chance of each result) before
// resolving; while an attack is built, click another outlined enemy hex to attack it too
// (FB 8.2: several hexes when every attacker is next to all of them), or a defending hex to
// leave it out. The renderer decides no rule: it shows the legal actions and the server's
// answers.
import { arg, argsOf, byText, byVerb, texts } from "../js/actions.js";
import { corners, sharedEdge } from "../js/hexmap.js";
import { el, lastMoves, reset } from "../js/svg.js";
import { drawTray } from "../js/tray.js";

const SQRT3 = Math.sqrt(3);
const R = 22; // hex circumradius, px
const C = 30; // counter size, px
const TERRAIN = { clear: "#ebe3bf", jungle: "#8fb27a", ridge: "#c8a36b" };
const SIDE = {
  us: { fill: "#5d7a34", ink: "#ffffff", edge: "#2f3f18" },
  jp: { fill: "#f0d59a", ink: "#5a1111", edge: "#8a5a12" },
};

export const keys = { e: "end", r: "resolve", c: "cancel" };

// the turn track and the steps of the sequence of play, as the board data names them (the game's
// data/sequence.toml): learned from the first board drawn
const names = { turns: [], steps: new Map() };

/** Remember the board's names; true when they were not known yet. */
function learn(board) {
  if (names.steps.size || !Array.isArray(board.steps)) return false;
  names.turns = board.turns || [];
  for (const s of board.steps) names.steps.set(s.id, s.name);
  return true;
}

export function phase(view) {
  const turn = names.turns[view.turn - 1] || `turn ${view.turn}`;
  if (view.result) return `${turn} · game over`;
  return `${turn} · ${names.steps.get(view.step) || view.step}`;
}

// selection and answers kept between draws
const memo = {
  unit: null, ply: -1, costs: new Map(), costsFor: null, odds: new Map(),
  sets: null, // the attacks the engine listed before one was opened: { key, actions }
  rebuilding: false, note: null,
  placing: { key: null, places: null, asked: null }, // where a waiting counter may go, as asked
};

/** Pixel centres of the map's hexes: columns run east to west, rows south to north. */
function geometry(board) {
  const raw = board.hexes.map((h) => ({
    ...h, px: -SQRT3 * (h.q + h.r / 2) * R, py: -1.5 * h.r * R,
  }));
  const minX = Math.min(...raw.map((h) => h.px)) - R;
  const minY = Math.min(...raw.map((h) => h.py)) - R;
  const left = 70;
  const top = 64;
  const hexes = new Map();
  for (const h of raw) hexes.set(h.id, { ...h, x: h.px - minX + left, y: h.py - minY + top });
  const xs = [...hexes.values()].map((h) => h.x);
  const ys = [...hexes.values()].map((h) => h.y);
  return {
    hexes, left, top,
    right: Math.max(...xs) + R, bottom: Math.max(...ys) + R,
    cx: (Math.min(...xs) + Math.max(...xs)) / 2, cy: (Math.min(...ys) + Math.max(...ys)) / 2,
  };
}

function unitInfo(board, id) {
  return (board.ground && board.ground[id]) || null;
}

function counterLines(board, id) {
  const g = unitInfo(board, id);
  if (g) return [id, g.range ? `${g.cf}(${g.range})-${g.mf}` : `${g.cf}-${g.mf}`];
  const a = board.air && board.air[id];
  if (a) return [a.type, id.split("-").pop()];
  const s = board.ships && board.ships[id];
  if (s) return [s.type, id.split("-").pop()];
  return [id];
}

function sideOf(board, id) {
  const g = unitInfo(board, id);
  if (g) return g.side;
  const a = board.air && board.air[id];
  if (a) return a.side;
  return board.ships && board.ships[id] ? "jp" : "us";
}

/** A NATO-like symbol for a ground unit's kind, inside the counter's top half. */
function symbol(kind, x, y, ink) {
  const w = C * 0.5;
  const h = C * 0.28;
  const box = el("rect", { x: x - w / 2, y, width: w, height: h, fill: "none", stroke: ink, "stroke-width": 1 });
  const parts = [box];
  if (["infantry", "raider", "parachute", "defense"].includes(kind)) {
    parts.push(el("path", { d: `M${x - w / 2} ${y} L${x + w / 2} ${y + h} M${x + w / 2} ${y} L${x - w / 2} ${y + h}`, stroke: ink, "stroke-width": 1 }));
  }
  if (kind === "artillery") parts.push(el("circle", { cx: x, cy: y + h / 2, r: h / 4, fill: ink }));
  if (kind === "tank") parts.push(el("ellipse", { cx: x, cy: y + h / 2, rx: w / 3, ry: h / 3, fill: "none", stroke: ink }));
  if (kind === "engineer" || kind === "pioneer") parts.push(el("path", { d: `M${x - w / 4} ${y + h * 0.7} v${-h * 0.4} h${w / 2} v${h * 0.4} M${x} ${y + h * 0.3} v${h * 0.4}`, stroke: ink, fill: "none" }));
  if (kind === "parachute") parts.push(el("path", { d: `M${x - w / 4} ${y + h * 0.55} q${w / 4} ${-h * 0.5} ${w / 2} 0`, stroke: ink, fill: "none" }));
  return el("g", {}, parts);
}

function counter(board, id, x, y, options = {}) {
  const side = sideOf(board, id);
  const colours = SIDE[side] || SIDE.us;
  const g = unitInfo(board, id);
  const lines = options.lines || counterLines(board, id);
  const parts = [
    el("rect", {
      x: x - C / 2, y: y - C / 2, width: C, height: C, rx: 3, fill: colours.fill,
      stroke: options.ring || colours.edge, "stroke-width": options.ring ? 3 : 1,
    }),
  ];
  if (g) {
    parts.push(symbol(g.kind, x, y - C / 2 + 3, colours.ink));
    parts.push(el("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 7.5, fill: colours.ink }, lines[0]));
    parts.push(el("text", { x, y: y + 12.5, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: colours.ink }, lines[1]));
  } else {
    parts.push(el("text", { x, y: y - 2, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: colours.ink }, lines[0]));
    parts.push(el("text", { x, y: y + 9, "text-anchor": "middle", "font-size": 8, fill: colours.ink }, lines[1] || ""));
  }
  const name = g ? g.name : (board.air && board.air[id] && board.air[id].name) || (board.ships && board.ships[id] && board.ships[id].name) || id;
  parts.push(el("title", {}, `${id}: ${name}${options.note ? ` (${options.note})` : ""}`));
  return el("g", { class: "counter", "data-counter": id, cursor: "pointer", opacity: options.faded ? 0.55 : 1 }, parts);
}

/** Where every counter is: place -> [ids], from the view's ground, air and ship maps. */
function placements(view) {
  const at = new Map();
  const put = (id, place) => {
    if (!place) return;
    if (!at.has(place)) at.set(place, []);
    at.get(place).push(id);
  };
  for (const [id, place] of Object.entries(view.ground || {})) put(id, place);
  for (const [id, place] of Object.entries(view.air || {})) put(id, place);
  for (const [id, place] of Object.entries(view.ships || {})) put(id, place);
  return at;
}

const TO_PLACE = ["move", "place", "retreat", "advance", "land", "fly", "bomb"]; // verbs taking a unit to a place

/** The legal actions about one unit, by the place (hex, box) they name: place -> [texts]. */
function targetsOf(actions, unit) {
  const out = new Map();
  for (const action of byVerb(actions, ...TO_PLACE)) {
    const place = arg(action, "to") ?? arg(action, "target");
    if (arg(action, "unit") !== unit || place === undefined) continue;
    if (!out.has(place)) out.set(place, []);
    out.get(place).push(action.text);
  }
  return out;
}

/** Units that have something to do now (a legal action names them). */
function actors(actions) {
  return new Set(byVerb(actions, ...TO_PLACE, "lose", "add").map((a) => arg(a, "unit")));
}

/** Whether an action names `unit` first and alone (the actions its panel lists as buttons). */
function aboutUnit(action, unit) {
  const first = action.args[0];
  return Boolean(first) && ["unit", "units"].includes(first.kind) && [first.value].flat().join() === unit;
}

/** The units a verb names, each with its action's text: unit -> text. */
function unitActions(actions, verb) {
  return new Map(byVerb(actions, verb).map((a) => [arg(a, "unit"), a.text]));
}

/** The attacks the engine lists before one is opened (defending hexes only, no units yet). */
function listedAttacks(actions) {
  return byVerb(actions, "attack").filter((a) => a.args.every((x) => x.kind === "hex"));
}

/** What changes only when an attack is resolved: the attack sets listed stay valid until then. */
function combatKey(view) {
  const c = view.combat || {};
  return [view.turn, view.step, (c.attacked_hexes || []).join(","), (c.attacked || []).join(",")].join("|");
}

/**
 * While an attack is built on hexes D: the hexes a click adds (D plus one is an attack the
 * engine listed before this one was opened) or drops (D less one), each with that attack's
 * notation. The engine lists `attack A+B` only while no attack is open, so the sets are
 * remembered from then.
 */
function defenderChanges(view, actions) {
  const join = new Map();
  const drop = new Map();
  const building = view.combat && view.combat.building;
  if (!building || !actions.length || !memo.sets || memo.sets.key !== combatKey(view)) return { join, drop };
  const now = building.defenders;
  for (const action of memo.sets.actions) {
    const hexes = argsOf(action, "hex");
    if (hexes.length === now.length + 1 && now.every((h) => hexes.includes(h))) {
      join.set(hexes.find((h) => !now.includes(h)), action.text);
    } else if (now.length > 1 && hexes.length === now.length - 1 && hexes.every((h) => now.includes(h))) {
      drop.set(now.find((h) => !hexes.includes(h)), action.text);
    }
  }
  return { join, drop };
}

/**
 * Change the defending hexes of the attack being built: cancel it (nothing was rolled), open
 * `action`, and add again the units that may still join (a unit not next to every new
 * defender drops out, and the panel says so).
 */
async function rebuild(ctx, building, action) {
  if (memo.rebuilding) return;
  memo.rebuilding = true;
  const keep = [...building.attackers, ...building.artillery, ...building.ships, ...building.air];
  const left = [];
  try {
    let state = await ctx.play("cancel");
    if (state) state = await ctx.play(action);
    for (const unit of keep) {
      if (!state) break;
      const add = unitActions(state.actions || [], "add").get(unit);
      if (add) state = await ctx.play(add);
      else left.push(unit);
    }
  } finally {
    memo.rebuilding = false;
    memo.note = left.length ? `${left.join(", ")} ${left.length > 1 ? "are" : "is"} not next to every defending hex: left out (FB 8.2)` : null;
    ctx.redraw();
  }
}

function attackSpec(building) {
  if (!building || !building.attackers.length) return null;
  let spec = `attack ${building.defenders.join("+")} with ${building.attackers.join(",")}`;
  if (building.artillery.length) spec += ` art ${building.artillery.join(",")}`;
  if (building.ships.length) spec += ` ships ${building.ships.join(",")}`;
  if (building.air.length) spec += ` air ${building.air.join(",")}`;
  return spec;
}

// -- the costs of a selected unit's moves, asked of the server once per position ----------------

function wantCosts(ctx, unit, moves) {
  const named = byText(ctx.actions);
  const key = `${ctx.ply}:${unit}`;
  if (memo.costsFor === key) return;
  memo.costsFor = key;
  memo.costs = new Map();
  const before = ctx.view.half_mf && ctx.view.half_mf[unit]; // movement left, in half MF
  if (before === undefined || !moves.length) return;
  ctx.api.preview(moves, ["half_mf"]).then((answer) => {
    if (memo.costsFor !== key) return;
    for (const r of answer.results) {
      if (!r.ok || !r.view.half_mf) continue;
      const after = r.view.half_mf[unit];
      const place = arg(named.get(r.action), "to");
      if (after !== undefined) memo.costs.set(place, (before - after) / 2);
    }
    ctx.redraw();
  }, () => {});
}

/** Why the engine refuses `action` here, asked once per position (a preview: never rolled). */
function wantReason(ctx, action) {
  const key = `${ctx.ply}:why:${action}`;
  if (memo.odds.has(key)) return memo.odds.get(key).message;
  memo.odds.set(key, { message: null });
  ctx.api.preview([action], ["step"]).then((answer) => {
    const r = answer.results[0];
    memo.odds.set(key, { message: r && !r.ok ? r.message : "the attack cannot be resolved yet" });
    ctx.redraw();
  }, (err) => {
    memo.odds.set(key, { message: err.describe ? err.describe() : String(err) });
    ctx.redraw();
  });
  return null;
}

function wantOdds(ctx, spec) {
  const key = `${ctx.ply}:${spec}`;
  if (memo.odds.has(key)) return memo.odds.get(key);
  memo.odds.set(key, { pending: true });
  ctx.api.odds(spec).then(
    (answer) => { memo.odds.set(key, answer); ctx.redraw(); },
    (err) => { memo.odds.set(key, { error: err.describe ? err.describe() : String(err) }); ctx.redraw(); },
  );
  return memo.odds.get(key);
}

// -- the HTML panel: selected unit, stack, attack builder with odds -------------------------------

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function actionButtons(ctx, actions) {
  return html("div", { class: "buttons" }, actions.map((a) => html("button", { type: "button", "data-action": a, onclick: () => ctx.play(a) }, a)));
}

function oddsTable(answer) {
  const o = answer.odds;
  const rows = [
    html("div", {}, html("strong", {}, `Odds ${o.ratio}`), o.column ? ` · column ${o.column}` : ""),
    html("div", { class: "rule" }, `attack ${o.attack} (ground ${o.ground}, artillery ${o.artillery}) · defence ${o.defence}`),
  ];
  for (const d of o.doublings) rows.push(html("div", {}, `×2 ${d.hex}: ${d.text} `, html("span", { class: "rule" }, d.rule)));
  for (const m of o.modifiers) rows.push(html("div", {}, `${m.value > 0 ? "+" : ""}${m.value} ${m.text} `, html("span", { class: "rule" }, m.rule)));
  const table = html("table", { class: "odds" }, html("tr", {}, html("th", {}, "result"), html("th", {}, "chance"), html("th", {}, "")));
  for (const [result, p] of Object.entries(o.probabilities)) {
    const exact = o.distribution && o.distribution[result] ? `${o.distribution[result]} · ` : "";
    table.append(html("tr", {}, html("td", {}, result), html("td", {}, `${exact}${(p * 100).toFixed(1)}%`),
      html("td", {}, html("span", { class: "bar", style: `width:${Math.round(p * 80)}px` }))));
  }
  if (Object.keys(o.probabilities).length) rows.push(table);
  else if (!o.column) rows.push(html("div", { class: "error" }, "below 1-2: the attacking units are eliminated without a roll (FB 8.6)"));
  else rows.push(html("div", { class: "rule" }, "no result can be rolled at these odds"));
  return html("div", { class: "odds-box" }, rows);
}

function drawPanel(ctx, placed) {
  const { view, board, legal, actions } = ctx;
  if (!ctx.panel) return;
  const panel = { append: (...nodes) => ctx.panel.append(...nodes.filter((n) => n !== null && n !== undefined)) };
  const building = view.combat && view.combat.building;
  if (building) {
    const adds = texts(byVerb(actions, "add"));
    const closing = texts(byVerb(actions, "resolve", "cancel"));
    panel.append(
      html("h3", {}, `Attack on ${building.defenders.join(" + ")}`),
      html("div", {}, `Attackers: ${building.attackers.join(", ") || "none yet"}`),
      building.artillery.length ? html("div", {}, `Artillery: ${building.artillery.join(", ")}`) : null,
      building.ships.length ? html("div", {}, `Ships: ${building.ships.join(", ")}`) : null,
      building.air.length ? html("div", {}, `Air: ${building.air.join(", ")}`) : null,
      adds.length ? html("div", { class: "rule" }, "Add (or click a ringed counter):") : null,
      actionButtons(ctx, adds),
    );
    const { join, drop } = defenderChanges(view, actions);
    if (join.size || drop.size) {
      panel.append(html("div", { class: "rule", "data-hint": "defenders" },
        `${join.size ? `Click a hex marked + (${[...join.keys()].join(", ")}) to attack it too` : ""}`
        + `${join.size && drop.size ? "; " : ""}${drop.size ? "click a defending hex to leave it out" : ""} (FB 8.2).`));
    } else if (legal.length && (!memo.sets || memo.sets.key !== combatKey(view))) {
      panel.append(html("div", { class: "rule" }, "To attack several hexes at once, cancel and open the attack again: the hexes that may join are then marked +."));
    }
    if (memo.note) panel.append(html("div", { class: "error" }, memo.note));
    const spec = attackSpec(building);
    if (spec && legal.length && !legal.includes("resolve")) {
      // the engine would refuse to roll it (e.g. FB 8.2 duties): say why instead of odds
      const why = wantReason(ctx, "resolve");
      panel.append(html("div", { class: why ? "error" : "rule" }, why || "checking the attack…"));
    } else if (spec) {
      const answer = ctx.legal.length ? wantOdds(ctx, spec) : null;
      if (answer && answer.odds) panel.append(oddsTable(answer));
      else if (answer && answer.error) panel.append(html("div", { class: "error" }, answer.error));
      else if (answer) panel.append(html("div", { class: "rule" }, "working out the odds…"));
    } else panel.append(html("div", { class: "rule" }, "Add attackers to see the odds."));
    panel.append(actionButtons(ctx, closing));
    return;
  }
  const loss = (view.pending || []).find((p) => p.kind === "lose" && p.side === ctx.side);
  const losses = texts(byVerb(actions, "lose", "retreat"));
  if (loss && losses.length) {
    const last = ctx.log.length ? ctx.log[ctx.log.length - 1] : null;
    const why = last && [...last.events].reverse().find((e) => e.kind !== "roll" && e.kind !== "step");
    panel.append(
      html("h3", { "data-prompt": "loss" }, "Choose a loss"),
      why ? html("div", {}, why.text) : null,
      html("div", { class: "rule" }, `${loss.count || 1} unit${(loss.count || 1) > 1 ? "s" : ""} to lose (${loss.rule}): click a counter ringed red, or a button`),
      actionButtons(ctx, losses.slice(0, 16)),
    );
    return;
  }
  const unit = memo.unit;
  if (!unit) return;
  const where = Object.entries(view.ground || {}).find(([id]) => id === unit)?.[1]
    || (view.air || {})[unit] || (view.ships || {})[unit];
  const g = unitInfo(board, unit);
  panel.append(html("h3", {}, g ? `${unit} · ${g.name}` : unit));
  if (g) panel.append(html("div", { class: "rule" }, `${g.kind}, combat ${g.cf}${g.range ? `, range ${g.range}` : ""}, movement ${g.mf}`));
  if (where) panel.append(html("div", {}, `at ${where}`));
  else if (waitingUnits(view).includes(unit)) panel.append(html("div", { "data-hint": "placing" }, "to place: click a marked hex or box, or drag the counter there"));
  const left = view.half_mf && view.half_mf[unit];
  if (left !== undefined) panel.append(html("div", {}, `movement left ${left / 2}`));
  const stack = where ? (placed.get(where) || []) : [];
  if (stack.length > 1) {
    panel.append(html("div", { class: "rule" }, "Stack:"));
    panel.append(html("div", { class: "buttons" }, stack.map((id) =>
      html("button", { type: "button", "data-select": id, onclick: () => { memo.unit = id; ctx.redraw(); } }, id === unit ? `[${id}]` : id))));
  }
  const mine = texts(actions.filter((a) => aboutUnit(a, unit)));
  if (!where) return;
  if (mine.length && mine.length <= 12) panel.append(actionButtons(ctx, mine));
  else if (mine.length) panel.append(html("div", { class: "rule" }, `${mine.length} actions: click a marked hex`));
}

// -- counters waiting to be placed: the tray beside the map -------------------------------------

/** The counters waiting to be placed (FB 3.0, 3.1 set-up; FB 7.0 reinforcements), in order. */
function waitingUnits(view) {
  return Array.isArray(view.to_place) ? view.to_place : [];
}

/**
 * Where a waiting counter may go: place -> [texts]. From the legal actions when they list it
 * (the engine lists the next counter's placements only), else asked of the server once per
 * position; null while asked.
 */
function placesOf(ctx, unit) {
  const listed = targetsOf(ctx.actions, unit);
  if (listed.size || !ctx.actions.length) return listed;
  const key = `${ctx.ply}:${unit}`;
  if (memo.placing.key === key) return memo.placing.places;
  const asking = { key, places: null, asked: null };
  asking.asked = ctx.api.placements(unit).then((answer) => {
    const places = new Map();
    for (const action of answer.actions) {
      const place = arg(action, "to");
      if (!places.has(place)) places.set(place, []);
      places.get(place).push(action.text);
    }
    asking.places = places;
    if (memo.placing === asking) ctx.redraw();
    return places;
  }, () => new Map());
  memo.placing = asking;
  return null;
}

/** The tray: the waiting counters by kind, `setup default` as a button (FB 3.0, 3.1). */
function drawWaiting(ctx) {
  if (!ctx.tray) return;
  const { board, view, actions } = ctx;
  const waiting = waitingUnits(view);
  const kinds = [["Ground units", (id) => unitInfo(board, id)], ["Aircraft", (id) => board.air && board.air[id]],
    ["Ships", (id) => board.ships && board.ships[id]]];
  const groups = kinds.map(([title, is]) => ({ title, units: waiting.filter((id) => is(id)) }));
  groups.push({ title: "Other", units: waiting.filter((id) => !kinds.some(([, is]) => is(id))) });
  const setups = texts(byVerb(actions, "setup"));
  drawTray(ctx.tray, {
    groups,
    size: C,
    counter: (id, x, y) => counter(board, id, x, y, { ring: memo.unit === id ? "#1d4ed8" : null }),
    selected: memo.unit,
    enabled: actions.length > 0,
    hint: "Click a counter, then a marked hex or box; or drag it there. Esc deselects.",
    buttons: setups.map((text) => ({ text, title: "place every counter left as the game's default set-up", onclick: () => ctx.play(text) })),
    select: (id) => {
      memo.unit = id;
      ctx.redraw();
    },
    drop: async (id, place) => {
      const places = placesOf(ctx, id) || (await memo.placing.asked);
      const here = places.get(place);
      if (here && here.length === 1) ctx.play(here[0]);
      else ctx.redraw();
    },
  });
}

// -- drawing -----------------------------------------------------------------------------------

export function render(svg, ctx) {
  const { view, board, legal, actions } = ctx;
  if (!board || !Array.isArray(board.hexes) || !board.hexes.length) throw new Error("no board data");
  if (learn(board)) queueMicrotask(ctx.redraw); // the status line, drawn before the board, names the step
  const waiting = waitingUnits(view);
  if (memo.ply !== ctx.ply) {
    memo.ply = ctx.ply;
    memo.placing = { key: null, places: null, asked: null }; // an undo may come back to this ply, changed
    if (memo.unit && !actors(actions).has(memo.unit) && !waiting.includes(memo.unit)) memo.unit = null;
  }
  const geo = geometry(board);
  const placed = placements(view);
  memo.placed = placed;
  const canAct = actors(actions);
  const unit = memo.unit;
  const placing = unit !== null && waiting.includes(unit); // a waiting counter, chosen in the tray
  const targets = placing ? placesOf(ctx, unit) || new Map() : unit ? targetsOf(actions, unit) : new Map();
  memo.placingUnit = placing;
  const moves = texts(byVerb(actions, "move").filter((a) => arg(a, "unit") === unit));
  if (unit && moves.length) wantCosts(ctx, unit, moves);
  const listed = listedAttacks(actions);
  const attackable = new Map(); // hex -> the text of the first listed attack on it
  for (const a of listed) for (const h of argsOf(a, "hex")) if (!attackable.has(h)) attackable.set(h, a.text);
  const building = view.combat && view.combat.building;
  if (listed.length) memo.sets = { key: combatKey(view), actions: listed };
  if (!building && legal.length) memo.note = null;
  const { join, drop } = defenderChanges(view, actions);
  const addable = unitActions(actions, "add"); // unit -> its action's text
  const losable = unitActions(actions, "lose");

  const holdingX = geo.right + 20;
  const width = holdingX + 210;
  const height = geo.bottom + 110;
  reset(svg, width, height);
  svg.append(el("rect", { x: 0, y: 0, width, height, fill: "#cfe3ea" }));

  // turn track
  const turns = board.turns || [];
  const cell = Math.min(64, (geo.right - 10) / Math.max(turns.length, 1));
  turns.forEach((t, i) => {
    const now = i === view.turn - 1;
    svg.append(
      el("rect", { x: 10 + i * cell, y: 8, width: cell - 3, height: 22, rx: 3, fill: now ? "#facc15" : "#f5f0e1", stroke: "#6b6b5a", "data-turn": t }),
      el("text", { x: 10 + i * cell + (cell - 3) / 2, y: 23, "text-anchor": "middle", "font-size": 10, "font-weight": now ? 700 : 400 }, t),
    );
  });
  svg.append(el("text", { x: 10, y: 48, "font-size": 12, "font-weight": 600 }, phase(view)));

  // hexes
  const hexLayer = el("g", { class: "hexes" });
  const numbers = el("g", { class: "hex-ids", "pointer-events": "none" }); // the hex numbers (a toggle)
  for (const h of geo.hexes.values()) {
    const points = corners(h.x, h.y, R).map((p) => p.join(",")).join(" ");
    const target = targets.get(h.id);
    const attack = attackable.get(h.id);
    const poly = el("polygon", {
      points, fill: TERRAIN[h.terrain] || "#ddd", stroke: "#7b7560", "stroke-width": 0.5,
      "data-hex": h.id, class: target ? "hex reach" : attack ? "hex attackable" : "hex",
    }, el("title", {}, `${h.id} ${h.terrain}`));
    poly.addEventListener("click", () => onPlace(ctx, h.id, targets, attackable));
    numbers.append(el("text", { x: h.x, y: h.y + R * 0.86, "text-anchor": "middle", "font-size": 6.5, class: "hex-id" }, h.id));
    if (join.has(h.id) || drop.has(h.id)) poly.classList.add(join.has(h.id) ? "join" : "drop");
    hexLayer.append(poly);
    if (target) {
      hexLayer.append(el("polygon", { points: corners(h.x, h.y, R * 0.8).map((p) => p.join(",")).join(" "), fill: "none", stroke: "#ca8a04", "stroke-width": 3, "pointer-events": "none" }));
      const cost = memo.costs.get(h.id);
      if (cost !== undefined) {
        hexLayer.append(el("text", { x: h.x, y: h.y - R * 0.45, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#713f12", "pointer-events": "none", class: "cost" }, String(cost)));
      }
    }
    if (attack) {
      hexLayer.append(el("polygon", { points: corners(h.x, h.y, R * 0.85).map((p) => p.join(",")).join(" "), fill: "none", stroke: "#b91c1c", "stroke-width": 2.5, "stroke-dasharray": "4 2", "pointer-events": "none" }));
    }
    if (building && building.defenders.includes(h.id)) {
      hexLayer.append(el("polygon", { points: corners(h.x, h.y, R * 0.9).map((p) => p.join(",")).join(" "), fill: "#b91c1c", "fill-opacity": 0.25, stroke: "#b91c1c", "stroke-width": 3, "pointer-events": "none", class: "defender", "data-defender": h.id }));
    }
    if (join.has(h.id)) {
      hexLayer.append(
        el("polygon", { points: corners(h.x, h.y, R * 0.85).map((p) => p.join(",")).join(" "), fill: "none", stroke: "#7c2d12", "stroke-width": 2.5, "stroke-dasharray": "2 2", "pointer-events": "none", class: "joinable", "data-join": h.id }),
        el("text", { x: h.x + R * 0.55, y: h.y - R * 0.3, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#7c2d12", "pointer-events": "none" }, "+"),
      );
    }
  }
  svg.append(hexLayer, numbers);

  // hexsides that matter on the map: rivers, the ford, ridges
  const sideLayer = el("g", { class: "hexsides", "pointer-events": "none" });
  const styles = { river: ["#2563eb", 3.5, null], ford: ["#93c5fd", 3.5, "3 2"], ridge: ["#7c4a1e", 2.5, null] };
  for (const s of board.hexsides || []) {
    const style = styles[s.type];
    const a = geo.hexes.get(s.a);
    const b = geo.hexes.get(s.b);
    if (!style || !a || !b) continue;
    const [x1, y1, x2, y2] = sharedEdge(a, b, R);
    sideLayer.append(el("line", { x1, y1, x2, y2, stroke: style[0], "stroke-width": style[1], "stroke-dasharray": style[2], "stroke-linecap": "round", "data-kind": s.type }));
  }
  svg.append(sideLayer);

  // airfields and their state
  for (const af of board.airfields || []) {
    for (const id of af.hexes) {
      const h = geo.hexes.get(id);
      if (!h) continue;
      const status = (view.airfields || {})[id] || "operational";
      const colour = { operational: "#44403c", damaged: "#ea580c", destroyed: "#b91c1c", unbuilt: "none" }[status] || "#44403c";
      svg.append(el("g", { "pointer-events": "none", "data-airfield": id, "data-status": status },
        el("rect", { x: h.x - R * 0.7, y: h.y + R * 0.35, width: R * 1.4, height: R * 0.3, fill: colour, stroke: "#44403c", "stroke-dasharray": status === "unbuilt" ? "3 2" : null }),
        el("text", { x: h.x, y: h.y + R * 0.58, "text-anchor": "middle", "font-size": 6.5, fill: status === "unbuilt" ? "#44403c" : "#fff", textLength: R * 1.3, lengthAdjust: "spacingAndGlyphs" },
          status === "operational" ? (af.kind === "airfield" ? "HENDERSON" : "STRIP") : status.toUpperCase()),
        el("title", {}, `${af.name}: ${status}`)));
    }
  }

  // the airfields' names, beside them on the map (drawn over the counters)
  const placeNames = el("g", { class: "place-names", "pointer-events": "none" });
  for (const af of board.airfields || []) {
    const hs = af.hexes.map((id) => geo.hexes.get(id)).filter(Boolean);
    if (!hs.length) continue;
    const x = hs.reduce((t, h) => t + h.x, 0) / hs.length;
    const y = Math.max(...hs.map((h) => h.y)) + R * 1.15;
    placeNames.append(el("text", { x, y, "text-anchor": "middle", "font-size": 8, "font-style": "italic", "font-weight": 600, class: "place-name", stroke: "#fffbea", "stroke-width": 2.5, "paint-order": "stroke" }, af.name));
  }

  // entry points, outside the edge hexes they point at
  const epAt = new Map();
  for (const ep of board.entry_points || []) {
    const hs = ep.arrows.map((id) => geo.hexes.get(id)).filter(Boolean);
    if (!hs.length) continue;
    const mx = hs.reduce((s, h) => s + h.x, 0) / hs.length;
    const my = hs.reduce((s, h) => s + h.y, 0) / hs.length;
    const dx = mx - geo.cx;
    const dy = my - geo.cy;
    const len = Math.hypot(dx, dy) || 1;
    const x = mx + (dx / len) * R * 1.5;
    const y = my + (dy / len) * R * 1.5;
    epAt.set(ep.id, { x, y });
    const g = el("g", { class: "entry", "data-place": ep.id, cursor: "pointer" },
      el("circle", { cx: x, cy: y, r: 10, fill: ep.side === "us" ? SIDE.us.fill : SIDE.jp.fill, stroke: "#333", "stroke-dasharray": ep.circled ? "2 1" : null }),
      el("text", { x, y: y + 3.5, "text-anchor": "middle", "font-size": 8, fill: ep.side === "us" ? "#fff" : "#5a1111" }, String(ep.number)),
      el("title", {}, `${ep.id} (${ep.side === "us" ? "US" : "Japanese"} entry point) → ${ep.arrows.join(", ")}`));
    g.addEventListener("click", () => onPlace(ctx, ep.id, targets, attackable));
    if (targets.has(ep.id)) g.prepend(el("circle", { cx: x, cy: y, r: 14, fill: "#facc15", opacity: 0.7 }));
    svg.append(g);
  }

  // boxes A-D south of the map, under the hexes they lead to
  const areas = new Map();
  for (const box of board.boxes || []) {
    const hs = box.arrows.map((id) => geo.hexes.get(id)).filter(Boolean);
    const mx = hs.length ? hs.reduce((s, h) => s + h.x, 0) / hs.length : geo.left + 80 * box.order;
    const area = { x: mx - 55, y: geo.bottom + 14, w: 110, h: 80, id: box.id, label: `Box ${box.id}${box.reinforcement ? " (reinf.)" : ""}` };
    areas.set(box.id, area);
  }
  // holding boxes in a column east of the map
  (board.holding_boxes || []).forEach((hb, i) => {
    const each = (height - 70) / 7; // the column runs from under the turn track to the foot of Boxes A-D
    areas.set(hb.id, { x: holdingX, y: 60 + i * each, w: 200, h: each - 6, id: hb.id, label: hb.name, place: hb.id });
  });
  for (const area of areas.values()) {
    const place = area.place || area.id;
    const g = el("g", { class: "box", "data-place": place, cursor: "pointer" },
      el("rect", { x: area.x, y: area.y, width: area.w, height: area.h, rx: 4, fill: targets.has(place) ? "#fde68a" : "#f5f0e1", stroke: "#6b6b5a" }),
      el("text", { x: area.x + 4, y: area.y + 11, "font-size": 9, fill: "#333" }, area.label));
    g.addEventListener("click", () => onPlace(ctx, place, targets, attackable));
    svg.append(g);
  }

  // counters: stacks in hexes fan out a little; boxes lay them in rows
  const layer = el("g", { class: "counters" });
  const fits = new Map(); // box -> how its counters fit: scale, cell, per row
  for (const [place, ids] of placed) {
    const area = areas.get(place);
    if (area) fits.set(place, boxFit(area, ids.length));
  }
  const marks = { unit, addable, losable, canAct, building };
  for (const [place, ids] of placed) {
    const h = geo.hexes.get(place);
    const area = areas.get(place);
    if (area && area.place) { // a holding box: one counter per aircraft or ship type, with its count
      drawGroups(ctx, layer, area, ids, marks, { targets, attackable });
      continue;
    }
    const ep = epAt.get(place);
    ids.forEach((id, i) => {
      let x;
      let y;
      if (h) {
        const k = Math.min(i, 3);
        x = h.x - 3 + k * 3;
        y = h.y - 3 - k * 3;
        if (i > 3) return;
      } else if (area) {
        const fit = fits.get(place);
        x = area.x + 4 + (C * fit.scale) / 2 + (i % fit.per) * fit.step;
        y = area.y + 14 + (C * fit.scale) / 2 + Math.floor(i / fit.per) * fit.rowStep;
      } else if (ep) {
        x = ep.x + 14 + C / 2 + i * 6;
        y = ep.y;
      } else return;
      const ring = id === unit ? "#1d4ed8" : addable.has(id) ? "#16a34a" : losable.has(id) ? "#b91c1c" : canAct.has(id) && !building ? "#ca8a04" : null;
      const node = counter(board, id, x, y, { ring, note: h && ids.length > 1 ? `stack of ${ids.length}` : null });
      node.setAttribute("data-at", place); // where a counter dragged from the tray onto it goes
      const fit = area && fits.get(place);
      if (fit && fit.scale !== 1) node.setAttribute("transform", `translate(${x} ${y}) scale(${fit.scale}) translate(${-x} ${-y})`);
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        onCounter(ctx, id, place, targets, attackable, addable, losable, event.shiftKey);
      });
      layer.append(node);
    });
    if (h && targets.has(place) && ids.some((id) => sideOf(board, id) === ctx.side)) {
      layer.append(moveHere(h.x - R * 0.62, h.y + R * 0.5, place, () => onPlace(ctx, place, targets, attackable)));
    }
    if (h && ids.length > 1) {
      layer.append(el("g", { "pointer-events": "none" },
        el("circle", { cx: h.x + C / 2 + 4, cy: h.y - C / 2 - 8, r: 7, fill: "#fff", stroke: "#111" }),
        el("text", { x: h.x + C / 2 + 4, y: h.y - C / 2 - 5, "text-anchor": "middle", "font-size": 9, "font-weight": 700, class: "stack-size" }, String(ids.length))));
    }
  }
  svg.append(layer, placeNames);
  const spot = (place) => geo.hexes.get(place) || epAt.get(place)
    || (areas.get(place) && { x: areas.get(place).x + areas.get(place).w / 2, y: areas.get(place).y + areas.get(place).h / 2 })
    || [...areas.values()].filter((a) => a.place === place).map((a) => ({ x: a.x + a.w / 2, y: a.y + a.h / 2 }))[0];
  svg.append(lastMoves(ctx.lastMoves, spot, ctx.sides));
  drawPanel(ctx, placed);
  drawWaiting(ctx);
}

/** A click on a hex while an attack is built: add it to the defenders or leave it out. */
function onDefender(ctx, place) {
  const building = ctx.view.combat && ctx.view.combat.building;
  if (!building || ctx.replaying) return false;
  const { join, drop } = defenderChanges(ctx.view, ctx.actions);
  const action = join.get(place) || drop.get(place);
  if (!action) return false;
  rebuild(ctx, building, action);
  return true;
}

/** The units of a holding box by type (the first line of the counter), in order. */
function groupsOf(board, ids) {
  const groups = new Map();
  for (const id of ids) {
    const type = counterLines(board, id)[0];
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(id);
  }
  return [...groups.values()];
}

/**
 * A holding box holds many like aircraft: one counter per type with "×n" keeps them readable.
 * It shows the selected unit of the type, else one with something to do; a click selects
 * the next one of the type that has something to do (the panel lists them all to pick one).
 */
function drawGroups(ctx, layer, area, ids, marks, where) {
  const { unit, addable, losable, canAct, building } = marks;
  const groups = groupsOf(ctx.board, ids);
  const fit = boxFit(area, groups.length);
  groups.forEach((members, i) => {
    const x = area.x + 4 + (C * fit.scale) / 2 + (i % fit.per) * fit.step;
    const y = area.y + 14 + (C * fit.scale) / 2 + Math.floor(i / fit.per) * fit.rowStep;
    const busy = members.filter((m) => addable.has(m) || losable.has(m) || (canAct.has(m) && !building));
    const shown = members.includes(unit) ? unit : busy[0] || members[0];
    const ring = members.includes(unit) ? "#1d4ed8" : members.some((m) => addable.has(m)) ? "#16a34a"
      : members.some((m) => losable.has(m)) ? "#b91c1c" : busy.length ? "#ca8a04" : null;
    const lines = members.length > 1 ? [counterLines(ctx.board, shown)[0], `×${members.length}`] : null;
    const node = counter(ctx.board, shown, x, y, { ring, lines, note: members.length > 1 ? `${members.length} counters: ${members.join(", ")}` : null });
    node.setAttribute("data-group", members.join(" "));
    if (fit.scale !== 1) node.setAttribute("transform", `translate(${x} ${y}) scale(${fit.scale}) translate(${-x} ${-y})`);
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      const next = busy.length ? busy[(busy.indexOf(unit) + 1) % busy.length] : shown;
      onCounter(ctx, next, area.place, where.targets, where.attackable, addable, losable, event.shiftKey);
    });
    layer.append(node);
  });
}

/** How `n` counters fit in a box: shrunk until they do (never below 60%), then overlapped. */
function boxFit(area, n) {
  for (const scale of [1, 0.9, 0.8, 0.7, 0.6]) {
    const cell = C * scale + 2;
    const rows = Math.max(1, Math.floor((area.h - 14) / cell));
    const per = Math.max(1, Math.floor((area.w - 6) / cell));
    if (rows * per >= n) return { scale, per, step: cell, rowStep: cell };
  }
  const cell = C * 0.6 + 2;
  const rows = Math.max(1, Math.floor((area.h - 14) / cell));
  const per = Math.ceil(n / rows);
  return { scale: 0.6, per, step: Math.max(4, (area.w - 8 - C * 0.6) / Math.max(1, per - 1)), rowStep: cell };
}

function onPlace(ctx, place, targets, attackable) {
  if (memo.rebuilding || onDefender(ctx, place)) return;
  const here = targets.get(place);
  if (here && here.length === 1) {
    ctx.play(here[0]);
    return;
  }
  if (here && here.length > 1) {
    ctx.pick(`${memo.unit} ${place}`);
    return;
  }
  const attack = attackable.get(place);
  if (attack && !memo.unit) {
    ctx.play(attack);
    return;
  }
  if (memo.placingUnit) return; // not a place for the waiting counter: nothing happens
  // a hex of the seat's own units opens its stack: one with something to do is selected
  const mine = ((memo.placed && memo.placed.get(place)) || []).filter((id) => sideOf(ctx.board, id) === ctx.side);
  const busy = actors(ctx.actions);
  memo.unit = mine.length && !mine.includes(memo.unit) ? mine.find((id) => busy.has(id)) || mine[0] : null;
  ctx.redraw();
}

/**
 * The marker on a reachable hex that holds the seat's own counters: a click on it moves the
 * selected unit there (a click on the counters selects them instead).
 */
function moveHere(x, y, place, go) {
  const node = el("g", { class: "move-here", "data-move-here": place, cursor: "pointer" },
    el("circle", { cx: x, cy: y, r: 7, fill: "#facc15", stroke: "#713f12", "stroke-width": 1.5 }),
    el("path", { d: `M${x - 3.5} ${y} h6 m-3 -3 l3 3 l-3 3`, stroke: "#713f12", "stroke-width": 1.5, fill: "none" }),
    el("title", {}, `move here (${place}); shift-click a counter does the same`));
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    go();
  });
  return node;
}

/** Forget the selected unit (Esc); true when one was selected. */
export function deselect() {
  const had = memo.unit !== null;
  memo.unit = null;
  return had;
}

/**
 * A click on a counter: add it to the attack or lose it when the engine asks; a click on
 * one of the seat's own counters selects it (shift-click moves the selected unit there);
 * an enemy counter on a marked hex is the hex itself.
 */
function onCounter(ctx, id, place, targets, attackable, addable, losable, shift = false) {
  if (memo.rebuilding) return;
  if (addable.has(id)) {
    ctx.play(addable.get(id));
    return;
  }
  if (losable.has(id)) {
    ctx.play(losable.get(id));
    return;
  }
  if (onDefender(ctx, place)) return;
  const own = sideOf(ctx.board, id) === ctx.side;
  if (memo.unit && targets.has(place) && (shift || !own)) {
    onPlace(ctx, place, targets, attackable);
    return;
  }
  if (!memo.unit && attackable.has(place) && !actors(ctx.actions).has(id)) {
    ctx.play(attackable.get(place));
    return;
  }
  memo.unit = memo.unit === id ? null : id;
  ctx.redraw();
}
