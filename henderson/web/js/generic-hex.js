// The board of a game without its own renderer whose board data has hexes: the map with
// the view's units, and moves by clicks. Click a counter to list its actions (the unit's
// id goes into the action box) and see the hexes they reach; click a marked hex to play
// the one action that goes there, or to narrow the list when several do.
import { countersFrom, drawHexMap } from "./hexmap.js";

function matching(actions, filter) {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return actions.filter((a) => words.every((w) => a.toLowerCase().includes(w)));
}

function tokens(action) {
  return action.split(/[\s,>()]+|-(?=\d)/).filter(Boolean);
}

export function render(svg, ctx) {
  const filter = (ctx.filter || "").trim();
  const relevant = filter ? matching(ctx.legal, filter) : [];
  const hexIds = new Set(ctx.board.hexes.map((h) => h.id));
  const highlight = new Map();
  for (const action of relevant) {
    for (const token of tokens(action)) if (hexIds.has(token) && !filter.includes(token)) highlight.set(token, "");
  }
  drawHexMap(svg, ctx.board, {
    counters: countersFrom(ctx.view),
    highlight,
    sides: ctx.sides,
    onCounter: (counter) => ctx.pick(String(counter.id)),
    onHex: (id) => {
      const going = relevant.filter((a) => tokens(a).includes(id));
      if (filter && going.length === 1) ctx.play(going[0]);
      else ctx.pick(filter ? `${filter} ${id}` : id);
    },
  });
}
