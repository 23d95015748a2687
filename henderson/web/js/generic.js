// The fallback board: a game without its own renderer shows its view as structured text.

const MAX_ITEMS = 200;
const MAX_DEPTH = 5;

function scalar(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function isScalar(value) {
  return value === null || ["string", "number", "boolean", "undefined"].includes(typeof value);
}

function describe(value, depth) {
  if (isScalar(value)) {
    const span = document.createElement("span");
    span.textContent = scalar(value);
    return span;
  }
  if (depth >= MAX_DEPTH) {
    const code = document.createElement("code");
    code.textContent = JSON.stringify(value).slice(0, 200);
    return code;
  }
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      const span = document.createElement("span");
      span.textContent = value.length ? value.slice(0, MAX_ITEMS).map(scalar).join(", ") : "none";
      return span;
    }
    const list = document.createElement("ol");
    for (const item of value.slice(0, MAX_ITEMS)) {
      const li = document.createElement("li");
      li.append(describe(item, depth + 1));
      list.append(li);
    }
    return list;
  }
  const dl = document.createElement("dl");
  dl.className = "view";
  const entries = Object.entries(value);
  if (!entries.length) {
    const span = document.createElement("span");
    span.textContent = "none";
    return span;
  }
  for (const [key, item] of entries.slice(0, MAX_ITEMS)) {
    const dt = document.createElement("dt");
    dt.textContent = key.replaceAll("_", " ");
    const dd = document.createElement("dd");
    dd.append(describe(item, depth + 1));
    dl.append(dt, dd);
  }
  return dl;
}

/** Draw `view` into `container` as nested lists (fields of the format header left out). */
export function render(container, view) {
  const shown = { ...view };
  for (const key of ["format", "version", "game"]) delete shown[key];
  container.replaceChildren(describe(shown, 0));
}
