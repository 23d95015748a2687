// The battle calculator beside the board: any attack, inputs chosen freely (GET/POST
// /api/games/<name>/calculator), the exact chance of each result and every rule that changed
// the odds. It needs no seat, so players and spectators alike may use it; it can start from
// the last attack whose odds this seat was shown (nothing the seat did not already see).
import { api } from "./api.js";
import { linkRules } from "./rules.js";

const $ = (id) => document.getElementById(id);
const GROUPS = [["battle", "Battle"], ["attacker", "Attacker"], ["defender", "Defender"]];
const calc = { game: null, form: null, values: {}, lastOdds: null, timer: null, asked: 0 };

/** The calculator for game `name`: its form is read when the panel is first opened. */
export function setCalculatorGame(name) {
  if (calc.game === name) return;
  Object.assign(calc, { game: name, form: null, values: {}, lastOdds: null });
  $("calc-form").replaceChildren();
  $("calc-result").replaceChildren();
  $("calc-panel").classList.add("hidden");
  $("calc-open").setAttribute("aria-expanded", "false");
}

/** Remember the odds the seat was last shown (an odds answer), for "from the last attack". */
export function noteOdds(answer) {
  if (answer && answer.odds) {
    calc.lastOdds = answer.odds;
    $("calc-prefill").disabled = false;
  }
  return answer;
}

/** Wire the header button and the panel's own buttons (once, on page load). */
export function initCalculator() {
  $("calc-open").addEventListener("click", () => toggle());
  $("calc-close").addEventListener("click", () => toggle(false));
  $("calc-reset").addEventListener("click", () => fill({}));
  $("calc-prefill").addEventListener("click", () => fill(prefill(calc.game, calc.lastOdds)));
}

async function toggle(open = $("calc-panel").classList.contains("hidden")) {
  $("calc-panel").classList.toggle("hidden", !open);
  $("calc-open").setAttribute("aria-expanded", String(open));
  if (!open || calc.form || !calc.game) return;
  try {
    calc.form = await api.calculatorForm(calc.game);
  } catch (err) {
    $("calc-result").replaceChildren(errorLine(err));
    return;
  }
  fill(calc.lastOdds ? prefill(calc.game, calc.lastOdds) : {});
}

/** Draw the form with `values` over the defaults, then work the odds out. */
function fill(values) {
  if (!calc.form) return;
  const root = $("calc-form");
  root.replaceChildren();
  for (const [group, title] of GROUPS) {
    const fields = calc.form.fields.filter((f) => (f.group || "battle") === group);
    if (!fields.length) continue;
    const set = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = title;
    set.append(legend);
    for (const field of fields) set.append(input(field, field.name in values ? values[field.name] : field.default));
    root.append(set);
  }
  ask();
}

function input(field, value) {
  const label = document.createElement("label");
  label.className = "calc-field";
  const name = document.createElement("span");
  name.append(field.label, " ");
  if (field.rule) {
    const rule = document.createElement("span");
    rule.className = "muted";
    rule.append(linkRules(field.rule));
    name.append(rule);
  }
  let control;
  if (field.kind === "choice") {
    control = document.createElement("select");
    for (const choice of field.choices) {
      const option = document.createElement("option");
      option.value = option.textContent = choice;
      option.selected = choice === value;
      control.append(option);
    }
  } else {
    control = document.createElement("input");
    if (field.kind === "flag") {
      control.type = "checkbox";
      control.checked = Boolean(value);
    } else {
      Object.assign(control, { type: "number", min: field.min, max: field.max, step: 1, value: String(value) });
    }
  }
  control.name = field.name;
  control.dataset.kind = field.kind;
  control.addEventListener(field.kind === "number" ? "input" : "change", () => {
    clearTimeout(calc.timer);
    calc.timer = setTimeout(ask, 200);
  });
  label.append(name, control);
  return label;
}

/** The inputs as the form holds them; numbers as typed, so the server names a bad one. */
function inputs() {
  const out = {};
  for (const control of $("calc-form").querySelectorAll("[name]")) {
    out[control.name] = control.dataset.kind === "flag" ? control.checked : control.value;
  }
  return out;
}

async function ask() {
  const asked = ++calc.asked;
  let answer;
  try {
    answer = await api.calculate(calc.game, inputs());
  } catch (err) {
    if (asked === calc.asked) $("calc-result").replaceChildren(errorLine(err));
    return;
  }
  if (asked === calc.asked) show(answer);
}

function errorLine(err) {
  const p = document.createElement("p");
  p.className = "error";
  p.setAttribute("role", "alert");
  p.append(linkRules(err.describe ? err.describe() : err.message));
  return p;
}

/** The answer: its summary, each rule that changed the odds, and each result's chance. */
function show(answer) {
  const out = [];
  const summary = document.createElement("p");
  summary.className = "calc-summary";
  summary.append(linkRules(answer.summary));
  out.push(summary);
  if (answer.notes.length) {
    const notes = document.createElement("ul");
    notes.className = "calc-notes";
    for (const note of answer.notes) {
      const li = document.createElement("li");
      li.append(note.value ? `${note.value} ` : "", note.text, " (", linkRules(note.rule), ")");
      notes.append(li);
    }
    out.push(notes);
  }
  let group = null;
  let body = null;
  for (const outcome of answer.outcomes) {
    if (!body || outcome.group !== group) {
      group = outcome.group;
      if (group) {
        const head = document.createElement("h3");
        head.textContent = group;
        out.push(head);
      }
      const table = document.createElement("table");
      table.className = "calc-outcomes";
      body = document.createElement("tbody");
      table.append(body);
      out.push(table);
    }
    const tr = document.createElement("tr");
    const label = document.createElement("td");
    label.textContent = outcome.label;
    const chance = document.createElement("td");
    chance.className = "mono";
    chance.textContent = `${outcome.chance} (${(outcome.p * 100).toFixed(1)}%)`;
    const barCell = document.createElement("td");
    const bar = document.createElement("span");
    bar.className = "calc-bar";
    bar.style.width = `${(outcome.p * 100).toFixed(1)}%`;
    barCell.append(bar);
    tr.append(label, chance, barCell);
    body.append(tr);
  }
  $("calc-result").replaceChildren(...out);
}

const FB_DOUBLINGS = { "FB 8.7.3": "river", "FB 8.7.2": "ridge", "FB 7.5": "entry point", "FB 7.5.1": "box" };

/** Calculator inputs from the odds the seat was shown (`/api/seat/odds`), as far as they tell. */
function prefill(game, odds) {
  if (!odds) return {};
  if (game === "firstblood") {
    const mod = (rule) => (odds.modifiers.find((m) => m.rule === rule) || { value: 0 }).value;
    const doubling = odds.doublings.length ? FB_DOUBLINGS[odds.doublings[0].rule] || "none" : "none";
    return {
      attacker: /American/.test(odds.table) ? "us" : "jp",
      ground: odds.ground,
      artillery: odds.artillery_offered,
      defence: odds.defence_base,
      terrain: doubling === "ridge" ? "ridge" : mod("FB 8.7.1") ? "jungle" : "clear",
      doubling,
      bombers: mod("FB 13.6"),
      ships: mod("FB 10.4") / 2,
    };
  }
  if (game === "deluxe") {
    // DG 8.2.1.1-2: a half comes from a river hex (×1/2), a defence in halves from a village (×3/2)
    const [an, ad] = fraction(odds.attack);
    const [dn, dd] = fraction(odds.defense);
    const out = ad === 2 ? { attack: 0, attack_river: an } : { attack: Math.round(an / ad) };
    if (dd === 2 && dn % 3 === 0) return { ...out, defence: dn / 3, terrain: "village" };
    return { ...out, defence: Math.round(dn / dd) };
  }
  if (game === "aag" && odds.force) {
    const out = { category: odds.category, attacker_dice: odds.dice };
    for (const [kind, count] of Object.entries(odds.force)) out[`defender_${kind}`] = count;
    return out;
  }
  if (game === "aag" && odds.category === "airfields") {
    return { category: "airfields", attacker_dice: odds.dice, airfields: odds.airfields };
  }
  return {};
}

/** [numerator, denominator] of "17/2" or "6". */
function fraction(text) {
  const [n, d] = String(text).split("/");
  return [Number(n), d ? Number(d) : 1];
}
