// Axis & Allies: Guadalcanal board drawn as a map from the game's board data (`map`, from
// board_layout.toml): sea zones A–M as polygons with their letters and deployment numbers,
// the six islands as coasts, the Rabaul and New Caledonia base cards at the corners with the
// route-to-base zones marked, the two straits no ship passes as barriers; in each area
// the units of each side as counted stacks by type, on each island its control marker and
// airfields up to its capacity (damaged or not); the turn, the first-player marker, victory points, supplies
// and reinforcement points; purchases in the panel; the last battle as a battle box with the
// dice in the slots of its neck (AAG Appendix 2), from the events of the log. A click on a
// stack selects it and marks the areas its legal actions reach; a click on a marked area
// plays the action. The renderer decides no rule: it shows the legal actions.
import { arg, argsOf, byVerb, unitsOf } from "../js/actions.js";
import { el, lastMoves, reset } from "../js/svg.js";
import { drawTray } from "../js/tray.js";

const MAP_X = 6; // the map's left edge, px
const TOP = 58; // the status strip
const BOX_H = 150; // the battle box under the board
const SIDE = {
  jp: { fill: "#f0d59a", ink: "#5a1111", edge: "#8a5a12", name: "Japan" },
  us: { fill: "#5d7a34", ink: "#ffffff", edge: "#2f3f18", name: "Allies" },
};
const SHORT = {
  infantry: "INF", artillery: "ART", aa_gun: "AA", transport: "TRN", submarine: "SS", destroyer: "DD",
  cruiser: "CA", carrier: "CV", battleship: "BB", bomber: "BMB", fighter: "FTR", pt_boat: "PT", supply: "SUP",
};
const ORDER = Object.keys(SHORT);
const UNIT_ZONE_VERBS = ["deploy", "land", "unload"]; // a unit, then where it goes
const ZONE_VERBS = ["fight", "build"]; // a zone alone

export const keys = { e: "end", r: "roll" };

const memo = { sel: null, ply: -1, animated: null, steps: new Map(), odds: new Map() };

/** The turn and the current step as the sequence of play names it (the board data's `steps`). */
export function phase(view) {
  if (!view) return "";
  if (view.result) return `Turn ${view.turn} · game over`;
  const step = memo.steps.get(view.step);
  const hidden = step && step.params.hidden_name && (view.options || {}).hidden_movement;
  return `Turn ${view.turn} · ${hidden ? step.params.hidden_name : step ? step.name : view.step}`;
}

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** A closed smooth path through the points (Catmull-Rom turned into cubic Béziers): a coast. */
function smoothPath(points, dx, dy) {
  const p = points.map(([x, y]) => [x + dx, y + dy]);
  const n = p.length;
  let d = `M${p[0][0].toFixed(1)},${p[0][1].toFixed(1)}`;
  for (let i = 0; i < n; i += 1) {
    const [p0, p1, p2, p3] = [p[(i - 1 + n) % n], p[i], p[(i + 1) % n], p[(i + 2) % n]];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += ` C${c1[0].toFixed(1)},${c1[1].toFixed(1)} ${c2[0].toFixed(1)},${c2[1].toFixed(1)} ${p2[0].toFixed(1)},${p2[1].toFixed(1)}`;
  }
  return `${d} Z`;
}

function polygonPath(points, dx, dy) {
  return `M${points.map(([x, y]) => `${x + dx},${y + dy}`).join(" L")} Z`;
}

/** Every area of the board with its drawn shape, in svg px: the map of the board data
 * (`map`: sea-zone polygons, island coasts, base-card rectangles), shifted below the status strip. */
function layout(board) {
  const map = board.map;
  const out = new Map();
  const X = MAP_X;
  const Y = TOP;
  const stacksAt = (s) => ({ x: s[0] + X, y: s[1] + Y, cols: s[2] });
  for (const a of board.areas) {
    const area = { ...a };
    if (a.kind === "sea") {
      const m = map.seas[a.id];
      area.d = polygonPath(m.points, X, Y);
      area.label = [m.label[0] + X, m.label[1] + Y];
      area.route = m.route ? [m.route[0] + X, m.route[1] + Y] : null;
      area.stacks = stacksAt(m.stacks);
    } else if (a.kind === "island") {
      const m = map.islands[a.id];
      area.d = smoothPath(m.outline, X, Y);
      area.label = [m.label[0] + X, m.label[1] + Y];
      area.fields = [m.airfields[0] + X, m.airfields[1] + Y];
      area.stacks = stacksAt(m.stacks);
    } else {
      const card = Object.values(map.bases).find((b) => b.side === a.side);
      const r = a.kind === "base" ? card.land : card.sea;
      area.rect = { x: r[0] + X, y: r[1] + Y, w: r[2], h: r[3] };
      area.label = [r[0] + X + 6, r[1] + Y + 14];
      area.stacks = stacksAt(a.kind === "base" ? card.land_stacks : card.sea_stacks);
    }
    const s = area.stacks;
    area.cx = s.x + Math.min(s.cols, 3) * 23.5;
    area.cy = s.y + 10;
    out.set(a.id, area);
  }
  return out;
}

/** Stacks of one area: [{side, type, aboard, ids}], by side then type. */
function stacksIn(pieces) {
  const groups = new Map();
  for (const p of pieces) {
    const key = `${p.side}:${p.type}:${p.aboard ? "a" : ""}:${p.damaged ? "d" : ""}`;
    if (!groups.has(key)) groups.set(key, { side: p.side, type: p.type, aboard: Boolean(p.aboard), damaged: Boolean(p.damaged), ids: [] });
    groups.get(key).ids.push(p.id);
  }
  return [...groups.values()].sort((a, b) => (a.side === b.side ? ORDER.indexOf(a.type) - ORDER.indexOf(b.type) || a.aboard - b.aboard : a.side === "jp" ? -1 : 1));
}

/** The legal actions of the selected units by the zone they lead to (a landing on a carrier:
 * the carrier's zone, from `pieces`). */
function targetsOf(actions, ids, pieces = {}) {
  const out = new Map();
  const add = (zone, action) => {
    if (!out.has(zone)) out.set(zone, []);
    out.get(zone).push(action);
  };
  for (const action of byVerb(actions, "move")) if (arg(action, "units").some((id) => ids.includes(id))) add(arg(action, "to"), action);
  for (const action of byVerb(actions, ...UNIT_ZONE_VERBS)) {
    const [unit, to] = action.args;
    if (!to || !ids.includes(unit.value)) continue;
    add(to.kind === "unit" && pieces[to.value] ? pieces[to.value].zone : to.value, action);
  }
  return out;
}

/** Units that have something to do now: those an action names first, a load's cargo, a move's units. */
function actors(actions) {
  const out = new Set();
  for (const action of actions) {
    const first = action.args[0];
    if (action.verb === "move") arg(action, "units").forEach((id) => out.add(id));
    else if (action.verb === "load") unitsOf(action).forEach((id) => out.add(id));
    else if (first && first.kind === "unit") out.add(first.value);
  }
  return out;
}

// -- the battle box: the last battle's events from the log ----------------------------------------

/** The last battle of the log: its heading, the attacks (dice by purpose) and what they did. */
function lastBattle(log) {
  let at = -1;
  let heading = null;
  (log || []).forEach((entry, i) => {
    for (const e of entry.events || []) if (e.kind === "battle") { at = i; heading = e; }
  });
  if (at < 0) return null;
  const attacks = new Map();
  const results = [];
  let started = false;
  for (const entry of log.slice(at)) {
    for (const e of entry.events || []) {
      if (e === heading) { started = true; continue; }
      if (!started) continue;
      if (e.kind === "battle") return { heading, attacks: [...attacks.values()], results, key: `${at}:${heading.text}` };
      if (e.kind === "roll" && e.data && typeof e.data.purpose === "string") {
        const m = /^(.*), die (\d+)$/.exec(e.data.purpose);
        const purpose = m ? m[1] : e.data.purpose;
        if (!attacks.has(purpose)) {
          const cat = /on (air|sea|land) units/.exec(purpose);
          const side = /\b(us|jp) attack/.exec(purpose);
          attacks.set(purpose, { purpose, category: cat ? cat[1] : "land", side: side ? side[1] : null, dice: [] });
        }
        attacks.get(purpose).dice.push(e.data.value);
      } else if (["hit", "miss", "destroyed", "damaged", "armor", "control", "capture"].includes(e.kind)) results.push(e.text);
    }
  }
  return { heading, attacks: [...attacks.values()], results, key: `${at}:${heading.text}` };
}

function drawBattleBox(svg, board, view, log, x, y, width) {
  const battle = lastBattle(log);
  const g = el("g", { class: "battle-box", "data-battle": battle ? battle.heading.data.zone || "" : "" });
  g.append(el("rect", { x, y, width, height: BOX_H - 8, rx: 5, fill: "#f5f0e1", stroke: "#6b6b5a" }));
  const current = view.battle ? `Battle now: ${view.battle.category} combat in ${view.battle.zone} (${view.battle.attacker} attacks, stage ${view.battle.stage})` : null;
  g.append(el("text", { x: x + 8, y: y + 15, "font-size": 11, "font-weight": 700 }, battle ? `Battle box · ${battle.heading.text}` : "Battle box · no battle yet"));
  if (current) g.append(el("text", { x: x + width - 8, y: y + 15, "text-anchor": "end", "font-size": 10, fill: "#b91c1c" }, current));
  if (!battle) {
    svg.append(g);
    return;
  }
  // dice not shown before drop into their slots; a redraw does not drop them again
  if (!memo.animated || memo.animated.key !== battle.key) memo.animated = { key: battle.key, seen: new Set() };
  const seen = memo.animated.seen;
  const slotW = Math.min(44, (width - 420) / 12);
  const hits = new Set(board.hit_values || [1, 2]);
  battle.attacks.slice(-3).forEach((attack, row) => {
    const ry = y + 24 + row * 36;
    const colours = SIDE[attack.side] || SIDE.us;
    g.append(el("text", { x: x + 8, y: ry + 20, "font-size": 10, fill: "#222" }, `${colours.name} → ${attack.category}`));
    const neck = (board.neck || {})[attack.category] || [];
    for (let s = 0; s < 12; s += 1) {
      const sx = x + 100 + s * slotW;
      g.append(el("rect", { x: sx, y: ry, width: slotW - 3, height: 30, rx: 3, fill: "#fff", stroke: "#b8b09a" }),
        el("text", { x: sx + (slotW - 3) / 2, y: ry + 9, "text-anchor": "middle", "font-size": 8, fill: "#666" }, `${s + 1} ${SHORT[neck[s]] || ""}`));
    }
    attack.dice.forEach((value, i) => {
      const s = i % 12;
      const animate = !seen.has(`${attack.purpose}#${i}`);
      seen.add(`${attack.purpose}#${i}`);
      const sx = x + 100 + s * slotW + (slotW - 3) / 2;
      const hit = hits.has(value);
      const die = el("g", { class: hit ? "die hit" : "die", "data-slot": s + 1, "data-value": value },
        el("rect", { x: sx - 9, y: ry + 11, width: 18, height: 17, rx: 3, fill: hit ? "#b91c1c" : "#fff", stroke: "#111" }),
        el("text", { x: sx, y: ry + 23.5, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: hit ? "#fff" : "#111" }, String(value)));
      if (animate && typeof die.animate === "function") {
        // the die drops into its slot, one after another
        die.animate([{ transform: "translate(0px, -40px)", opacity: 0 }, { transform: "translate(0px, 0px)", opacity: 1 }],
          { duration: 350, delay: i * 120, easing: "ease-in", fill: "backwards" });
      }
      g.append(die);
    });
  });
  battle.results.slice(-4).forEach((text, i) => {
    g.append(el("text", { x: x + 100 + 12 * slotW + 10, y: y + 34 + i * 13, "font-size": 10, fill: "#333" }, text.length > 70 ? `${text.slice(0, 68)}…` : text));
  });
  svg.append(g);
}

// -- the panel: selection and purchases -----------------------------------------------------------

function actionButtons(ctx, actions) {
  return html("div", { class: "buttons" }, actions.map((a) => html("button", {
    type: "button", "data-action": a.text, title: a.text, onclick: () => ctx.play(a.text),
  }, describe(a, ctx.view, ctx.board) || a.text)));
}

function purchasesThisTurn(log) {
  const out = [];
  for (const entry of log || []) {
    for (const e of entry.events || []) {
      if (e.kind === "turn") out.length = 0;
      if (e.kind === "buy") out.push(e.text);
    }
  }
  return out;
}

/** The odds of the roll the seat is about to make, asked of the server once per position. */
function wantOdds(ctx, battle) {
  const spec = `${battle.zone} ${battle.category} ${battle.attacker}`;
  const key = `${ctx.ply}:${spec}`;
  if (memo.odds.has(key)) return memo.odds.get(key);
  memo.odds.set(key, { pending: true });
  ctx.api.odds(spec).then(
    (answer) => { memo.odds.set(key, answer); ctx.redraw(); },
    (err) => { memo.odds.set(key, { error: err.describe ? err.describe() : String(err) }); ctx.redraw(); },
  );
  return memo.odds.get(key);
}

/** The server's odds of a roll: the dice, the force they fire at, and for each type of
 * target the chance of each number destroyed (and damaged). */
function oddsBox(board, answer) {
  if (answer.pending) return html("div", { class: "rule" }, "working out the odds…");
  if (answer.error) return html("div", { class: "error" }, answer.error);
  const o = answer.odds;
  const name = (type) => ((board.units || {})[type] || {}).name || type;
  const force = Object.entries(o.force || {}).map(([t, n]) => `${n} ${name(t)}`).join(", ");
  const rows = [html("div", {}, html("strong", {}, `Odds: ${o.dice} dice`), ` against ${o.category}${force ? `: ${force}` : ""}`)];
  for (const [type, cells] of Object.entries(o.by_type || {})) {
    const text = cells.filter((c) => c.float >= 0.005)
      .map((c) => `${c.destroyed} destroyed${c.damaged ? ` ${c.damaged} damaged` : ""} ${(c.float * 100).toFixed(0)}%`).join(" · ");
    rows.push(html("div", { class: "rule" }, `${name(type)}: ${text}`));
  }
  for (const c of o.damaged || []) if (c.float >= 0.005) rows.push(html("div", { class: "rule" }, `${c.damaged} airfield(s) damaged ${(c.float * 100).toFixed(0)}%`));
  return html("div", { class: "odds-box" }, rows);
}

function drawPanel(ctx) {
  const { view, board, legal, actions } = ctx;
  if (!ctx.panel) return;
  const battle = view.battle;
  if (battle && battle.attacker === ctx.side && legal.includes("roll") && ["sea", "air", "land"].includes(battle.category)) {
    ctx.panel.append(html("h3", {}, `Battle in ${areaName(board, battle.zone)}: ${battle.category} attack`), oddsBox(board, wantOdds(ctx, battle)));
  }
  const buys = byVerb(actions, "buy");
  const bought = purchasesThisTurn(ctx.log);
  if (buys.length || (bought.length && String(view.step).startsWith("regroup"))) {
    ctx.panel.append(html("h3", {}, "Purchases"),
      html("div", { class: "rule" }, `reinforcement points: Allies ${view.points.us}, Japan ${view.points.jp}`));
    if (bought.length) ctx.panel.append(html("ul", { class: "bought" }, bought.map((t) => html("li", {}, t))));
    if (buys.length) {
      ctx.panel.append(html("div", { class: "buttons" }, buys.map((a) => {
        const type = arg(a, "type");
        const cost = board.units[type] ? ` (${board.units[type].cost})` : "";
        return html("button", { type: "button", "data-action": a.text, onclick: () => ctx.play(a.text) }, `${type.replace(/_/g, " ")}${cost}`);
      })));
    }
  }
  const sel = memo.sel;
  if (!sel) return;
  const t = board.units[sel.type];
  ctx.panel.append(html("h3", {}, `${SIDE[sel.side].name} ${t ? t.name : sel.type} ×${sel.ids.length} in ${sel.zone}`),
    html("div", { class: "rule" }, sel.ids.join(", ")));
  if (t) ctx.panel.append(html("div", { class: "rule" }, `attack ${Object.entries(t.attack).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}${t.cargo ? `, carries ${t.cargo}` : ""}${t.range ? `, range ${t.range}` : ""}`));
  // the selection's actions other than going to an area (those are clicks on the map)
  const mine = actions.filter((a) => a.verb !== "move" && unitsOf(a).some((id) => sel.ids.includes(id))
    && !(UNIT_ZONE_VERBS.includes(a.verb) && (a.args[1] || {}).kind !== "unit"));
  if (mine.length) ctx.panel.append(actionButtons(ctx, mine.slice(0, 14)));
  const reach = targetsOf(actions, sel.ids, view.pieces || {});
  if (reach.size) ctx.panel.append(html("div", { class: "rule" }, `may go to ${[...reach.keys()].join(", ")}: click a marked area`));
}

// -- drawing --------------------------------------------------------------------------------------

function chip(stack, x, y, options) {
  const colours = SIDE[stack.side] || SIDE.us;
  const label = `${SHORT[stack.type] || stack.type}${stack.ids.length > 1 ? ` ${stack.ids.length}` : ""}`;
  const g = el("g", {
    class: "chip", "data-chip": stack.ids.join(" "), "data-side": stack.side, "data-type": stack.type, cursor: "pointer",
    opacity: stack.aboard ? 0.75 : 1,
  },
  el("rect", { x, y, width: 44, height: 19, rx: 3, fill: colours.fill, stroke: options.ring || (stack.damaged ? "#b91c1c" : colours.edge), "stroke-width": options.ring || stack.damaged ? 2 : 0.8, "stroke-dasharray": stack.aboard ? "2 1" : null }),
  el("text", { x: x + 22, y: y + 13.5, "text-anchor": "middle", "font-size": 10.5, "font-weight": 700, fill: colours.ink }, label),
  el("title", {}, `${colours.name} ${stack.type} ×${stack.ids.length}${stack.aboard ? " (aboard)" : ""}${stack.damaged ? " (damaged)" : ""}: ${stack.ids.join(", ")}`));
  return g;
}

const SEA_STYLE = {
  ring: { fill: "#8ec3dc", label: "#1e4f6e" },
  slot: { fill: "#78b2d2", label: "#17425e" },
  open: { fill: "#a9d2e6", label: "#2b5b77" },
};
const LAND = { fill: "#c4cf94", edge: "#6f7d3c", shade: "#a9b877" };

function areaTitle(a, board) {
  if (a.kind === "sea") {
    const route = a.route_to_base ? `; route to ${board.bases[a.route_to_base].name}` : "";
    return `Sea zone ${a.id} (${a.role})${route}; sea moves to ${((board.sea_graph || {})[a.id] || []).join(", ")}`;
  }
  if (a.kind === "island") return `${a.name}: room for ${a.airfields} airfield${a.airfields > 1 ? "s" : ""}; touches sea zones ${a.seas.join(", ")}`;
  return a.name;
}

/** The marks of an area that legal actions reach or name: gold for the selected units'
 * destinations, red dashes for a zone action (fight, build). */
function marked(a, targets, zoneActions) {
  const reach = targets.has(a.id);
  const acts = zoneActions.get(a.id);
  return { reach, acts, cls: reach ? "reach" : acts ? "zoneaction" : null };
}

function shapeOf(a, attrs) {
  if (a.d) return el("path", { d: a.d, ...attrs });
  return el("rect", { x: a.rect.x, y: a.rect.y, width: a.rect.w, height: a.rect.h, rx: 4, ...attrs });
}

function highlight(a, mark) {
  if (!mark.reach) return null;
  return shapeOf(a, { fill: "#facc15", opacity: 0.27, "pointer-events": "none", class: "reach-fill" });
}

/** The board: sea zones, straits, base cards, islands with airfields and control markers. */
function drawMap(ctx, areas, targets, zoneActions) {
  const { view, board } = ctx;
  const g = el("g", { class: "map" });
  const click = (id) => () => onArea(ctx, id, targets, zoneActions);
  const outline = (mark, normal, width) => ({
    stroke: mark.reach ? "#b45309" : mark.acts ? "#b91c1c" : normal,
    "stroke-width": mark.reach || mark.acts ? 3.5 : width,
    "stroke-dasharray": mark.acts && !mark.reach ? "7 4" : null,
  });
  // the sea zones
  const seas = el("g", { class: "seas" });
  const seaLabels = el("g", { class: "sea-labels", "pointer-events": "none" });
  for (const a of areas.values()) {
    if (a.kind !== "sea") continue;
    const mark = marked(a, targets, zoneActions);
    const style = SEA_STYLE[a.role] || SEA_STYLE.ring;
    const zone = el("g", { "data-area": a.id, "data-kind": "sea", class: mark.cls, cursor: "pointer" },
      shapeOf(a, { class: "area sea-zone", fill: style.fill, ...outline(mark, "#f4fbff", 2), "stroke-linejoin": "round" },
        el("title", {}, areaTitle(a, board))),
      highlight(a, mark));
    zone.addEventListener("click", click(a.id));
    seas.append(zone);
    const [lx, ly] = a.label;
    seaLabels.append(el("text", { x: lx, y: ly, "text-anchor": "middle", "font-size": 26, "font-weight": 800, "font-family": "Georgia, serif", fill: style.label, opacity: 0.85 }, a.id));
    const deploy = Object.entries(a.deployment || {});
    if (deploy.length) {
      // AAG Deploy: the supplies a side spends to deploy a ship here
      const [side, n] = deploy[0];
      const c = SIDE[side];
      seaLabels.append(el("g", { class: "deploy", "data-deploy": `${side}:${n}` },
        el("rect", { x: lx - 11, y: ly + 5, width: 22, height: 14, rx: 7, fill: c.fill, stroke: c.edge }),
        el("text", { x: lx, y: ly + 15.5, "text-anchor": "middle", "font-size": 9.5, "font-weight": 700, fill: c.ink }, String(n)),
        el("title", {}, `${c.name} deploy ${n}: the supplies to deploy a ship here from the base`)));
    }
    if (a.route && a.route_to_base) {
      const base = board.bases[a.route_to_base];
      const c = SIDE[a.route_to_base];
      const [rx, ry] = a.route;
      const half = 10 + 3.1 * base.name.length;
      seaLabels.append(el("g", { class: "route", "data-route": a.id },
        el("rect", { x: rx - half, y: ry - 9, width: 2 * half, height: 18, rx: 9, fill: c.fill, stroke: c.edge, "stroke-width": 1.5 }),
        el("text", { x: rx, y: ry + 4, "text-anchor": "middle", "font-size": 9.5, "font-weight": 700, fill: c.ink }, `⇄ ${base.name}`),
        el("title", {}, `Route to base: one move to the ${base.name} sea zone`)));
    }
  }
  g.append(seas);
  const [kx, ky, turn] = board.map.compass || [0, 0, 0];
  if (kx || ky) {
    // a compass rose: the map is turned so that the chain runs across the screen
    const x = kx + MAP_X;
    const y = ky + TOP;
    g.append(el("g", { class: "compass", transform: `rotate(${turn} ${x} ${y})`, "pointer-events": "none", opacity: 0.75 },
      el("circle", { cx: x, cy: y, r: 20, fill: "none", stroke: "#2b5b77", "stroke-width": 1 }),
      el("path", { d: `M${x},${y - 26} L${x + 6},${y} L${x},${y + 26} L${x - 6},${y} Z`, fill: "#2b5b77" }),
      el("path", { d: `M${x - 26},${y} L${x},${y - 5} L${x + 26},${y} L${x},${y + 5} Z`, fill: "#7aa6bf" }),
      el("text", { x, y: y - 30, "text-anchor": "middle", "font-size": 11, "font-weight": 700, "font-family": "Georgia, serif", fill: "#1e4f6e" }, "N")));
    g.append(el("text", { x: x + 34, y: y + 30, "font-size": 11, "font-style": "italic", "font-family": "Georgia, serif", fill: "#2b5b77", "pointer-events": "none" }, "The Solomon Islands, 1942"));
  }
  // straits: two sea zones that touch only between two islands, where no ship passes
  for (const strait of board.map.straits || []) {
    const [[x1, y1], [x2, y2]] = strait.line;
    g.append(el("line", { class: "strait", "data-strait": strait.seas.join(""), x1: x1 + MAP_X, y1: y1 + TOP, x2: x2 + MAP_X, y2: y2 + TOP, stroke: "#5b4a2f", "stroke-width": 7, "stroke-linecap": "round", "pointer-events": "none" },
      el("title", {}, `No sea move between ${strait.seas.join(" and ")}`)));
  }
  // the base cards: a land zone and a sea zone each
  for (const side of ["jp", "us"]) {
    const base = board.bases[side];
    const land = areas.get(base.land);
    const sea = areas.get(base.sea);
    if (!land || !sea) continue;
    const c = SIDE[side];
    const x0 = Math.min(land.rect.x, sea.rect.x);
    const y0 = Math.min(land.rect.y, sea.rect.y);
    const x1 = Math.max(land.rect.x + land.rect.w, sea.rect.x + sea.rect.w);
    const y1 = Math.max(land.rect.y + land.rect.h, sea.rect.y + sea.rect.h);
    g.append(el("rect", { class: "base-card", x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 6, fill: "#f7f1df", stroke: c.edge, "stroke-width": 3, "pointer-events": "none" }));
    for (const a of [land, sea]) {
      const mark = marked(a, targets, zoneActions);
      const fill = a.kind === "base" ? c.fill : side === "jp" ? "#b9c9d3" : "#a9cbb9";
      const zone = el("g", { "data-area": a.id, "data-kind": a.kind, class: mark.cls, cursor: "pointer" },
        el("rect", { class: "area", x: a.rect.x + 3, y: a.rect.y + 3, width: a.rect.w - 6, height: a.rect.h - 6, rx: 4, fill, ...outline(mark, c.edge, 1) },
          el("title", {}, `${a.name}${a.kind === "base_sea" ? `: one move from ${(a.routes || []).join(" and ")}` : ""}`)),
        highlight({ rect: { x: a.rect.x + 3, y: a.rect.y + 3, w: a.rect.w - 6, h: a.rect.h - 6 } }, mark),
        el("text", { x: a.label[0] + 2, y: a.label[1] + 2, "font-size": 11, "font-weight": 700, fill: a.kind === "base" ? c.ink : "#23313a", "pointer-events": "none" },
          a.kind === "base" ? `${a.name.toUpperCase()} · ${c.name} base` : `${base.name} sea`));
      zone.addEventListener("click", click(a.id));
      g.append(zone);
    }
  }
  g.append(seaLabels);
  // the islands, each with its control marker and airfields
  for (const a of areas.values()) {
    if (a.kind !== "island") continue;
    const mark = marked(a, targets, zoneActions);
    const zone = el("g", { "data-area": a.id, "data-kind": "island", class: mark.cls, cursor: "pointer" },
      el("path", { d: a.d, fill: "#e9f3f7", opacity: 0.55, transform: "translate(0 3)", "pointer-events": "none" }),
      shapeOf(a, { class: "area island", fill: LAND.fill, ...outline(mark, LAND.edge, 1.8), "stroke-linejoin": "round" },
        el("title", {}, areaTitle(a, board))),
      highlight(a, mark));
    const [lx, ly] = a.label;
    const owner = (view.control || {})[a.id];
    zone.append(el("text", { x: lx, y: ly, "font-size": 12.5, "font-weight": 700, "font-style": "italic", "font-family": "Georgia, serif", fill: "#2f3a1c", stroke: "#eef5f8", "stroke-width": 3, "paint-order": "stroke", "pointer-events": "none" }, a.name));
    if (owner) {
      // AAG Regroup step 1: the control marker
      const c = SIDE[owner];
      zone.append(el("g", { "data-control": owner, "pointer-events": "none" },
        el("circle", { cx: lx - 12, cy: ly - 4, r: 9, fill: c.fill, stroke: c.edge, "stroke-width": 2 }),
        el("text", { x: lx - 12, y: ly - 0.5, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: c.ink }, owner === "us" ? "AL" : "JP"),
        el("title", {}, `${a.name} is controlled by ${c.name}`)));
    }
    // AAG Airfield Markers: capacity, who holds each one and whether it is damaged
    const fields = (view.airfields || []).filter((f) => f.island === a.id);
    for (let i = 0; i < a.airfields; i += 1) {
      const f = fields[i];
      const fx = a.fields[0] + i * 32;
      const fy = a.fields[1];
      if (f) {
        const c = SIDE[f.side];
        zone.append(el("g", { "data-airfield": a.id, "data-side": f.side, "data-damaged": String(Boolean(f.damaged)), "pointer-events": "none" },
          el("rect", { x: fx, y: fy, width: 28, height: 13, rx: 2, fill: f.damaged ? "#b91c1c" : "#3f3f3a", stroke: c.fill, "stroke-width": 2.2 }),
          f.damaged
            ? el("text", { x: fx + 14, y: fy + 10, "text-anchor": "middle", "font-size": 7.5, "font-weight": 700, fill: "#fff" }, "DMG")
            : el("line", { x1: fx + 4, y1: fy + 6.5, x2: fx + 24, y2: fy + 6.5, stroke: "#f5f5f4", "stroke-width": 1.2, "stroke-dasharray": "3 2" }),
          el("title", {}, `${c.name} airfield on ${a.name}${f.damaged ? ", damaged" : ""}`)));
      } else {
        zone.append(el("rect", { x: fx, y: fy, width: 28, height: 13, rx: 2, fill: "none", stroke: LAND.edge, "stroke-dasharray": "3 2", "pointer-events": "none" }, el("title", {}, `room for an airfield on ${a.name}`)));
      }
    }
    zone.addEventListener("click", click(a.id));
    g.append(zone);
  }
  return g;
}

export function render(svg, ctx) {
  const { view, board, actions } = ctx;
  if (!board || !Array.isArray(board.areas) || !board.areas.length || !board.map) throw new Error("no board data");
  const learned = memo.steps.size === 0 && (board.steps || []).length > 0;
  memo.steps = new Map((board.steps || []).map((s) => [s.id, s]));
  if (learned) queueMicrotask(ctx.redraw); // the status line, drawn before the board, names the step
  if (memo.ply !== ctx.ply) {
    memo.ply = ctx.ply;
    if (memo.sel && !memo.sel.ids.some((id) => actors(actions).has(id))) memo.sel = null;
  }
  const areas = layout(board);
  const width = 2 * MAP_X + board.map.width;
  const boardBottom = TOP + board.map.height + 4;
  const height = boardBottom + BOX_H + 4;
  reset(svg, width, height);
  svg.append(el("rect", { x: 0, y: 0, width, height, fill: "#e8eef0" }));

  const pieces = Object.values(view.pieces || {});
  const byZone = new Map();
  for (const p of pieces) {
    if (!byZone.has(p.zone)) byZone.set(p.zone, []);
    byZone.get(p.zone).push(p);
  }
  const canAct = actors(actions);
  const targets = memo.sel ? targetsOf(actions, memo.sel.ids, view.pieces || {}) : new Map(); // zone -> [actions]
  const zoneActions = new Map(); // zone -> [actions]
  for (const a of byVerb(actions, ...ZONE_VERBS)) {
    const zone = argsOf(a, "zone")[0];
    if (!zoneActions.has(zone)) zoneActions.set(zone, []);
    zoneActions.get(zone).push(a);
  }

  // status strip: turn and step, first player, victory points, supplies, reinforcement points
  const supplies = { us: 0, jp: 0 };
  for (const p of pieces) if (p.type === "supply" && supplies[p.side] !== undefined) supplies[p.side] += 1;
  svg.append(el("text", { x: 8, y: 20, "font-size": 14, "font-weight": 700 }, phase(view)));
  const first = SIDE[view.first] || SIDE.us;
  svg.append(el("g", { "data-first": view.first },
    el("circle", { cx: 290, cy: 15, r: 10, fill: first.fill, stroke: first.edge, "stroke-width": 2 }),
    el("text", { x: 290, y: 19, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: first.ink }, "1st"),
    el("text", { x: 305, y: 20, "font-size": 11 }, `${first.name} plays first`),
    el("title", {}, `First-player marker: ${first.name}`)));
  let sx = 450;
  for (const side of ["jp", "us"]) {
    const c = SIDE[side];
    const vp = (view.vp || {})[side] || 0;
    svg.append(el("g", { "data-vp": side },
      el("rect", { x: sx, y: 4, width: 300, height: 20, rx: 4, fill: c.fill, stroke: c.edge }),
      el("text", { x: sx + 8, y: 18, "font-size": 11, "font-weight": 700, fill: c.ink },
        `${c.name}: ${vp} VP · ${supplies[side]} supplies · ${(view.points || {})[side] || 0} points`)));
    sx += 310;
  }
  const winner = (view.result || {}).winner;
  if (winner) svg.append(el("text", { x: 8, y: 44, "font-size": 13, "font-weight": 700, fill: "#b91c1c" }, `${(SIDE[winner] || {}).name || winner} wins`));
  // the victory-point track: 0..20 for each side
  const track = el("g", { class: "vp-track" });
  for (let v = 0; v <= 20; v += 1) {
    const x = 450 + v * 29;
    track.append(el("rect", { x, y: 30, width: 27, height: 20, fill: "#fff", stroke: "#b8b09a" }),
      el("text", { x: x + 13.5, y: 44, "text-anchor": "middle", "font-size": 8, fill: "#888" }, String(v)));
  }
  ["jp", "us"].forEach((side, i) => {
    const v = Math.max(0, Math.min(20, (view.vp || {})[side] || 0));
    track.append(el("circle", { cx: 450 + v * 29 + 8 + i * 11, cy: 40, r: 5.5, fill: SIDE[side].fill, stroke: SIDE[side].edge, "stroke-width": 1.5 }));
  });
  svg.append(track);

  svg.append(drawMap(ctx, areas, targets, zoneActions));

  // where the selected stack may go: a line from its area to each marked one
  const links = el("g", { class: "links", "pointer-events": "none" });
  const from = memo.sel && areas.get(memo.sel.zone);
  if (from) {
    for (const zone of targets.keys()) {
      const to = areas.get(zone);
      if (!to) continue;
      links.append(el("line", { x1: from.cx, y1: from.cy, x2: to.cx, y2: to.cy, stroke: "#ca8a04", "stroke-width": 3, "stroke-dasharray": "7 4", opacity: 0.9 }));
    }
  }
  // the seat's own secret sea orders (hidden-movement option): a line to where each unit goes
  const own = ((view.orders || {})[ctx.side]) || {};
  const zoneOf = new Map(pieces.map((p) => [p.id, p.zone]));
  for (const [uid, dest] of Object.entries(own)) {
    const a = areas.get(zoneOf.get(uid));
    const b = areas.get(dest);
    if (!a || !b) continue;
    links.append(el("line", { x1: a.cx, y1: a.cy + 8, x2: b.cx, y2: b.cy + 8, stroke: "#7c3aed", "stroke-width": 2.5, "stroke-dasharray": "2 3", class: "order", "data-order": uid }));
  }

  // unit stacks per side and type in each area
  const chips = el("g", { class: "chips" });
  for (const [zone, list] of byZone) {
    const a = areas.get(zone);
    if (!a) continue;
    const stacks = stacksIn(list);
    const per = Math.max(1, a.stacks.cols);
    let row = 0;
    let col = 0;
    let side = null;
    for (const stack of stacks) {
      if (side !== null && stack.side !== side) { row += col ? 1 : 0; col = 0; }
      side = stack.side;
      if (col >= per) { row += 1; col = 0; }
      const x = a.stacks.x + col * 47;
      const y = a.stacks.y + row * 22;
      col += 1;
      const selected = memo.sel && memo.sel.zone === zone && memo.sel.ids[0] === stack.ids[0];
      const ring = selected ? "#1d4ed8" : stack.ids.some((id) => canAct.has(id)) ? "#ca8a04" : null;
      const node = chip(stack, x, y, { ring });
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        onChip(ctx, stack, zone, targets, zoneActions, event.shiftKey);
      });
      chips.append(node);
    }
  }
  svg.append(links, chips, lastMoves(ctx.lastMoves, (zone) => {
    const a = areas.get(zone);
    return a ? { x: a.cx, y: a.cy } : null;
  }, ctx.sides));
  drawBattleBox(svg, board, view, ctx.log, 6, boardBottom + 4, width - 12);
  drawPanel(ctx);
  drawWaiting(ctx, areas);
}

/**
 * The tray beside the map: the sea units on the home base card that may be deployed now (AAG
 * Deploy), one counter per type as on the card; a click or a drag onto a marked sea zone
 * deploys one. The base card on the map shows the same units.
 */
function drawWaiting(ctx, areas) {
  if (!ctx.tray) return;
  const pieces = ctx.view.pieces || {};
  const ids = [...new Set(byVerb(ctx.actions, "deploy").map((a) => arg(a, "unit")))].filter((id) => pieces[id]);
  const stacks = new Map(); // the first id of each stack -> the stack
  for (const [zone, list] of groupBy(ids.map((id) => pieces[id]), (p) => p.zone)) {
    for (const stack of stacksIn(list)) stacks.set(stack.ids[0], { ...stack, zone });
  }
  const isSel = (stack) => memo.sel && memo.sel.zone === stack.zone && memo.sel.ids[0] === stack.ids[0];
  const selected = [...stacks.values()].find(isSel);
  drawTray(ctx.tray, {
    groups: [{ title: "On the base card", units: [...stacks.keys()] }],
    size: [44, 19],
    counter: (id, x, y) => chip(stacks.get(id), x - 22, y - 9.5, { ring: isSel(stacks.get(id)) ? "#1d4ed8" : null }),
    selected: selected ? selected.ids[0] : null,
    enabled: true,
    hint: "Click a unit, then a marked sea zone; or drag it there. Esc deselects.",
    select: (id) => {
      const stack = stacks.get(id);
      memo.sel = id && stack ? { zone: stack.zone, side: stack.side, type: stack.type, ids: stack.ids } : null;
      ctx.redraw();
    },
    drop: (id, place) => {
      const stack = stacks.get(id);
      const here = (stack && targetsOf(ctx.actions, stack.ids, pieces).get(place)) || [];
      const first = here.find((a) => unitsOf(a).includes(stack.ids[0])) || here[0];
      if (first && areas.has(place)) ctx.play(first.text);
      else ctx.redraw();
    },
  });
}

/** The items of `list` by `key`, in order of first appearance. */
function groupBy(list, key) {
  const out = new Map();
  for (const item of list) {
    const k = key(item);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(item);
  }
  return out;
}

function onArea(ctx, zone, targets, zoneActions) {
  const here = targets.get(zone);
  if (here && here.length) {
    const first = memo.sel && here.find((a) => unitsOf(a).includes(memo.sel.ids[0]));
    ctx.play((first || here[0]).text);
    return;
  }
  const acts = zoneActions.get(zone);
  if (acts && !memo.sel) {
    ctx.play(acts[0].text);
    return;
  }
  memo.sel = null;
  ctx.redraw();
}

/** An area's name as the board prints it: sea zones by letter, islands and bases by name. */
function areaName(board, id) {
  const a = (board.areas || []).find((x) => x.id === id);
  if (a) return a.kind === "sea" ? `sea zone ${a.id}` : a.name;
  const base = board.bases && board.bases[id];
  return base ? base.name : id;
}

/**
 * An action in the words of the board: each unit id as its side, type and area (`us39` is
 * "Allied Transport in sea zone F"), each area by name; null when it names no unit or area.
 */
export function describe(action, view, board) {
  const pieces = (view && view.pieces) || {};
  const areas = new Set((board.areas || []).map((a) => a.id).concat(Object.keys(board.bases || {})));
  let named = false;
  const one = (word) => {
    const p = pieces[word];
    if (p) {
      named = true;
      const type = (board.units[p.type] || {}).name || p.type;
      return `${p.side === "us" ? "Allied" : "Japanese"} ${type}${p.aboard ? " aboard" : ""} in ${areaName(board, p.zone)}`;
    }
    if (areas.has(word)) {
      named = true;
      return areaName(board, word);
    }
    return word.replace(/_/g, " ");
  };
  const text = `${action.verb} ${action.args.map((x) => [x.value].flat().map((v) => one(String(v))).join(", ")).join(" · ")}`;
  return named ? text : null;
}

/** Forget the selected stack (Esc); true when one was selected. */
export function deselect() {
  const had = memo.sel !== null;
  memo.sel = null;
  return had;
}

/**
 * A click on a stack: one of the seat's own selects it (shift-click moves the selected stack
 * to its area, as a click on the marked area does); an enemy stack in a marked area is the
 * area itself.
 */
function onChip(ctx, stack, zone, targets, zoneActions, shift = false) {
  if (memo.sel && targets.has(zone) && (shift || stack.side !== ctx.side)) {
    onArea(ctx, zone, targets, zoneActions);
    return;
  }
  const same = memo.sel && memo.sel.zone === zone && memo.sel.ids[0] === stack.ids[0];
  memo.sel = same ? null : { zone, side: stack.side, type: stack.type, ids: stack.ids };
  ctx.redraw();
}
