// Legal actions as the server describes them (the state message's `actions`): each
// { text, verb, args: [{ kind, role, value }] }, kind one of unit, units (a list of ids), hex,
// zone, box, place, number, kind, side, word. Renderers pick actions by verb and arguments
// and play one by its text; they never parse notation.

/** The actions by their text (to read what a text the server answered names). */
export function byText(actions) {
  return new Map(actions.map((a) => [a.text, a]));
}

/** The actions with one of `verbs`, in the server's order. */
export function byVerb(actions, ...verbs) {
  return actions.filter((a) => verbs.includes(a.verb));
}

/** The value of the first argument with `role` ("unit", "to", "target"…), or undefined. */
export function arg(action, role) {
  const found = action ? action.args.find((x) => x.role === role) : undefined;
  return found ? found.value : undefined;
}

/** The values of the arguments of `kind` ("unit", "hex"…), in order. */
export function argsOf(action, kind) {
  return action ? action.args.filter((x) => x.kind === kind).map((x) => x.value) : [];
}

/** Every unit id an action names, single units and groups, in order. */
export function unitsOf(action) {
  return action ? action.args.flatMap((x) => (x.kind === "unit" ? [x.value] : x.kind === "units" ? x.value : [])) : [];
}

/** The texts of `actions` (what a button plays or a preview asks about). */
export function texts(actions) {
  return actions.map((a) => a.text);
}
