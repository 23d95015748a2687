// Axis & Allies: Guadalcanal board: the islands, sea zones A–M and the two bases as areas laid
// out from the game's board data, with the true adjacency drawn between them; in each area
// the units of each side as counted stacks by type, on each island its control marker and
// airfields (damaged or not); the turn, the first-player marker, victory points, supplies
// and reinforcement points; purchases in the panel; the last battle as a battle box with the
// dice in the slots of its neck (AAG Appendix 2), from the events of the log. A click on a
// stack selects it and marks the areas its legal actions reach; a click on a marked area
// plays the action. The renderer decides no rule: it shows the legal actions.
import { el, reset } from "../js/svg.js";

const W = 210; // cell width, px
const H = 150; // cell height, px
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
const SEA_FILL = { ring: "#a9cfe0", slot: "#8fbfd6", open: "#c3dde9" };
const UNIT_ZONE_VERBS = ["deploy", "land", "unload"]; // VERB ID ZONE
const ZONE_VERBS = ["fight", "build"]; // VERB ZONE

export const keys = { e: "end", r: "roll" };

export function phase(view) {
  if (!view) return "";
  if (view.winner) return `Turn ${view.turn} · game over`;
  const [stage, detail] = String(view.step || "").split(":");
  return `Turn ${view.turn} · ${stage}${detail ? ` ${detail.replace(/_/g, " ")}` : ""}`;
}

const memo = { sel: null, ply: -1, animated: null };

function words(action) {
  return action.split(/\s+/);
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

/** Area rectangles in px from the board's grid cells. */
function layout(board) {
  const out = new Map();
  for (const a of board.areas) {
    const c = a.cell || { col: 0, row: 0, w: 1, h: 1 };
    out.set(a.id, { ...a, x: 6 + c.col * W, y: TOP + c.row * H, w: c.w * W - 4, h: c.h * H - 4 });
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

/** The legal actions of the selected units by the zone they lead to. */
function targetsOf(legal, ids) {
  const out = new Map();
  const add = (zone, action) => {
    if (!out.has(zone)) out.set(zone, []);
    out.get(zone).push(action);
  };
  for (const action of legal) {
    const w = words(action);
    if (w[0] === "move" && w.length === 3 && w[2].split(",").some((id) => ids.includes(id))) add(w[1], action);
    else if (UNIT_ZONE_VERBS.includes(w[0]) && w.length === 3 && ids.includes(w[1])) add(w[2], action);
  }
  return out;
}

function actors(legal) {
  const out = new Set();
  for (const action of legal) {
    const w = words(action);
    if (w[0] === "move" && w.length === 3) w[2].split(",").forEach((id) => out.add(id));
    else if (w.length >= 2 && /^(us|jp)\d+$/.test(w[1])) out.add(w[1]);
    if (w[0] === "load" && w.length === 3) out.add(w[2]);
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
  return html("div", { class: "buttons" }, actions.map((a) => html("button", { type: "button", "data-action": a, onclick: () => ctx.play(a) }, a)));
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

function drawPanel(ctx) {
  const { view, board, legal } = ctx;
  if (!ctx.panel) return;
  const buys = legal.filter((a) => a.startsWith("buy "));
  const bought = purchasesThisTurn(ctx.log);
  if (buys.length || (bought.length && String(view.step).startsWith("regroup"))) {
    ctx.panel.append(html("h3", {}, "Purchases"),
      html("div", { class: "rule" }, `reinforcement points: Allies ${view.points.us}, Japan ${view.points.jp}`));
    if (bought.length) ctx.panel.append(html("ul", { class: "bought" }, bought.map((t) => html("li", {}, t))));
    if (buys.length) {
      ctx.panel.append(html("div", { class: "buttons" }, buys.map((a) => {
        const type = words(a)[1];
        const cost = board.units[type] ? ` (${board.units[type].cost})` : "";
        return html("button", { type: "button", "data-action": a, onclick: () => ctx.play(a) }, `${type.replace(/_/g, " ")}${cost}`);
      })));
    }
  }
  const sel = memo.sel;
  if (!sel) return;
  const t = board.units[sel.type];
  ctx.panel.append(html("h3", {}, `${SIDE[sel.side].name} ${t ? t.name : sel.type} ×${sel.ids.length} in ${sel.zone}`),
    html("div", { class: "rule" }, sel.ids.join(", ")));
  if (t) ctx.panel.append(html("div", { class: "rule" }, `attack ${Object.entries(t.attack).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}${t.cargo ? `, carries ${t.cargo}` : ""}${t.range ? `, range ${t.range}` : ""}`));
  const mine = legal.filter((a) => {
    const w = words(a);
    if (w[0] === "move") return false;
    return w.slice(1).some((x) => sel.ids.includes(x)) && !(UNIT_ZONE_VERBS.includes(w[0]));
  });
  if (mine.length) ctx.panel.append(actionButtons(ctx, mine.slice(0, 14)));
  const reach = targetsOf(legal, sel.ids);
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

export function render(svg, ctx) {
  const { view, board, legal } = ctx;
  if (!board || !Array.isArray(board.areas) || !board.areas.length) throw new Error("no board data");
  if (memo.ply !== ctx.ply) {
    memo.ply = ctx.ply;
    if (memo.sel && !memo.sel.ids.some((id) => actors(legal).has(id))) memo.sel = null;
  }
  const areas = layout(board);
  const grid = board.grid || { columns: 6, rows: 4 };
  const width = 12 + grid.columns * W;
  const boardBottom = TOP + grid.rows * H;
  const height = boardBottom + BOX_H + 4;
  reset(svg, width, height);
  svg.append(el("rect", { x: 0, y: 0, width, height, fill: "#e8eef0" }));

  const pieces = Array.isArray(view.pieces) ? view.pieces : [];
  const byZone = new Map();
  for (const p of pieces) {
    if (!byZone.has(p.zone)) byZone.set(p.zone, []);
    byZone.get(p.zone).push(p);
  }
  const canAct = actors(legal);
  const targets = memo.sel ? targetsOf(legal, memo.sel.ids) : new Map();
  const zoneActions = new Map();
  for (const a of legal) {
    const w = words(a);
    if (ZONE_VERBS.includes(w[0]) && w.length === 2) {
      if (!zoneActions.has(w[1])) zoneActions.set(w[1], []);
      zoneActions.get(w[1]).push(a);
    }
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
  if (view.winner) svg.append(el("text", { x: 8, y: 44, "font-size": 13, "font-weight": 700, fill: "#b91c1c" }, `${(SIDE[view.winner] || {}).name || view.winner} wins`));
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

  // where the selected stack may go: a line from its area to each marked one
  const links = el("g", { class: "links", "pointer-events": "none" });
  const from = memo.sel && areas.get(memo.sel.zone);
  if (from) {
    for (const zone of targets.keys()) {
      const to = areas.get(zone);
      if (!to) continue;
      links.append(el("line", { x1: from.x + from.w / 2, y1: from.y + from.h / 2, x2: to.x + to.w / 2, y2: to.y + to.h / 2, stroke: "#ca8a04", "stroke-width": 2.5, "stroke-dasharray": "6 4", opacity: 0.8 }));
    }
  }

  // the seat's own secret sea orders (hidden-movement option): a line to where each unit goes
  const own = ((view.orders || {})[ctx.side]) || {};
  const zoneOf = new Map(pieces.map((p) => [p.id, p.zone]));
  for (const [uid, dest] of Object.entries(own)) {
    const a = areas.get(zoneOf.get(uid));
    const b = areas.get(dest);
    if (!a || !b) continue;
    links.append(el("line", { x1: a.x + a.w / 2, y1: a.y + a.h / 2 + 8, x2: b.x + b.w / 2, y2: b.y + b.h / 2 + 8, stroke: "#7c3aed", "stroke-width": 2, "stroke-dasharray": "2 3", class: "order", "data-order": uid }));
  }

  // areas
  const areaLayer = el("g", { class: "areas" });
  for (const a of areas.values()) {
    const reach = targets.has(a.id);
    const acts = zoneActions.get(a.id);
    let fill = "#a9cfe0";
    if (a.kind === "sea") fill = SEA_FILL[a.role] || fill;
    if (a.kind === "base") fill = SIDE[a.side].fill;
    if (a.kind === "base_sea") fill = a.side === "jp" ? "#c9d4dc" : "#b7d3c4";
    const g = el("g", { "data-area": a.id, "data-kind": a.kind, class: reach ? "reach" : acts ? "zoneaction" : null });
    g.append(el("rect", {
      x: a.x, y: a.y, width: a.w, height: a.h, rx: 6, fill, class: "area",
      stroke: reach ? "#ca8a04" : acts ? "#b91c1c" : "#6b8a99", "stroke-width": reach || acts ? 3 : 1, "stroke-dasharray": acts && !reach ? "6 3" : null, cursor: "pointer",
    }, el("title", {}, `${a.name}${a.kind === "sea" ? ` (${a.role}); sea moves to ${((board.sea_graph || {})[a.id] || []).join(", ")}` : ""}${a.kind === "island" ? `; touches ${a.seas.join(", ")}` : ""}`)));
    if (reach) g.append(el("rect", { x: a.x + 3, y: a.y + 3, width: a.w - 6, height: a.h - 6, rx: 5, fill: "#facc15", opacity: 0.28, "pointer-events": "none" }));
    if (a.kind === "island") {
      g.append(el("ellipse", { cx: a.x + a.w / 2, cy: a.y + a.h / 2 + 6, rx: a.w * 0.42, ry: a.h * 0.3, fill: "#9cc27f", stroke: "#5e7d45", "stroke-width": 1.5, transform: `rotate(-12 ${a.x + a.w / 2} ${a.y + a.h / 2})`, "pointer-events": "none" }));
    }
    const title = a.kind === "sea" ? a.id : a.name;
    g.append(el("text", { x: a.x + 6, y: a.y + 15, "font-size": a.kind === "sea" ? 15 : 11, "font-weight": 700, fill: a.kind === "base" && a.side === "us" ? "#fff" : "#23313a", "pointer-events": "none" }, title));
    if (a.kind === "sea" && a.deployment && Object.keys(a.deployment).length) {
      const text = Object.entries(a.deployment).map(([s, n]) => `${s === "us" ? "Allied" : "Japanese"} deploy ${n}`).join(", ");
      g.append(el("text", { x: a.x + a.w - 6, y: a.y + 13, "text-anchor": "end", "font-size": 8, fill: "#335", "pointer-events": "none" }, text));
    }
    if (a.kind === "island") {
      // control marker (AAG Island Control) and airfields with their damage (AAG Airfields)
      const owner = (view.control || {})[a.id];
      if (owner) {
        const c = SIDE[owner];
        g.append(el("g", { "data-control": owner, "pointer-events": "none" },
          el("circle", { cx: a.x + a.w - 14, cy: a.y + 14, r: 9, fill: c.fill, stroke: c.edge, "stroke-width": 2 }),
          el("text", { x: a.x + a.w - 14, y: a.y + 17.5, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: c.ink }, owner === "us" ? "AL" : "JP"),
          el("title", {}, `${a.name} is controlled by ${c.name}`)));
      }
      const fields = (view.airfields || []).filter((f) => f.island === a.id);
      for (let i = 0; i < a.airfields; i += 1) {
        const f = fields[i];
        const fx = a.x + a.w - 58 - i * 30;
        const fy = a.y + 6;
        if (f) {
          const c = SIDE[f.side];
          g.append(el("g", { "data-airfield": a.id, "data-side": f.side, "data-damaged": String(Boolean(f.damaged)), "pointer-events": "none" },
            el("rect", { x: fx, y: fy, width: 26, height: 14, rx: 2, fill: f.damaged ? "#b91c1c" : "#44403c", stroke: c.fill, "stroke-width": 2 }),
            el("text", { x: fx + 13, y: fy + 10.5, "text-anchor": "middle", "font-size": 7.5, fill: "#fff" }, f.damaged ? "DMG" : "AF"),
            el("title", {}, `${c.name} airfield${f.damaged ? ", damaged" : ""}`)));
        } else {
          g.append(el("rect", { x: fx, y: fy, width: 26, height: 14, rx: 2, fill: "none", stroke: "#5e7d45", "stroke-dasharray": "3 2", "pointer-events": "none" }, el("title", {}, "room for an airfield")));
        }
      }
    }
    g.addEventListener("click", () => onArea(ctx, a.id, targets, zoneActions));
    areaLayer.append(g);
  }
  svg.append(areaLayer, links);

  // unit stacks per side and type in each area
  const chips = el("g", { class: "chips" });
  for (const [zone, list] of byZone) {
    const a = areas.get(zone);
    if (!a) continue;
    const stacks = stacksIn(list);
    const per = Math.max(1, Math.floor((a.w - 8) / 47));
    let row = 0;
    let col = 0;
    let side = null;
    for (const stack of stacks) {
      if (side !== null && stack.side !== side) { row += col ? 1 : 0; col = 0; }
      side = stack.side;
      if (col >= per) { row += 1; col = 0; }
      const x = a.x + 5 + col * 47;
      const y = a.y + 24 + row * 22;
      col += 1;
      if (y + 19 > a.y + a.h) continue;
      const selected = memo.sel && memo.sel.zone === zone && memo.sel.ids[0] === stack.ids[0];
      const ring = selected ? "#1d4ed8" : stack.ids.some((id) => canAct.has(id)) ? "#ca8a04" : null;
      const node = chip(stack, x, y, { ring });
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        onChip(ctx, stack, zone, targets, zoneActions);
      });
      chips.append(node);
    }
  }
  svg.append(chips);
  drawBattleBox(svg, board, view, ctx.log, 6, boardBottom + 4, width - 12);
  drawPanel(ctx);
}

function onArea(ctx, zone, targets, zoneActions) {
  const here = targets.get(zone);
  if (here && here.length) {
    const first = memo.sel && here.find((a) => words(a).slice(1).join(",").split(",").includes(memo.sel.ids[0]));
    ctx.play(first || here[0]);
    return;
  }
  const acts = zoneActions.get(zone);
  if (acts && !memo.sel) {
    ctx.play(acts[0]);
    return;
  }
  memo.sel = null;
  ctx.redraw();
}

function onChip(ctx, stack, zone, targets, zoneActions) {
  if (memo.sel && targets.has(zone)) {
    onArea(ctx, zone, targets, zoneActions);
    return;
  }
  const same = memo.sel && memo.sel.zone === zone && memo.sel.ids[0] === stack.ids[0];
  memo.sel = same ? null : { zone, side: stack.side, type: stack.type, ids: stack.ids };
  ctx.redraw();
}
