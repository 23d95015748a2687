// The seats this browser holds, kept in localStorage: "my games".
// kind: "seat" (played here), "invite" (a seat to hand to someone), "spectator".

const KEY = "henderson.seats";

export function allSeats() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && typeof s.token === "string") : [];
  } catch {
    return [];
  }
}

function save(list) {
  localStorage.setItem(KEY, JSON.stringify(list));
}

/** Remember a seat (or update it when the token is known). */
export function remember(seat) {
  const list = allSeats();
  const found = list.find((s) => s.token === seat.token);
  if (found) Object.assign(found, seat);
  else list.push({ saved: new Date().toISOString(), ...seat });
  save(list);
}

export function forget(token) {
  save(allSeats().filter((s) => s.token !== token));
}

export function forgetMatch(match) {
  save(allSeats().filter((s) => s.match !== match));
}

/** Seats of one match held here. */
export function seatsOf(match) {
  return allSeats().filter((s) => s.match === match);
}

/**
 * Remember every token a create or upload answer gave; return the token to open.
 * With `hotseat` every human seat is played here, else the first one and the others are invites.
 */
export function rememberNew(made, hotseat = false) {
  const human = Object.entries(made.seats);
  human.forEach(([side, token], i) =>
    remember({ token, match: made.match, game: made.game, side, kind: i === 0 || hotseat ? "seat" : "invite" }),
  );
  remember({ token: made.spectator, match: made.match, game: made.game, side: null, kind: "spectator" });
  return human.length ? human[0][1] : made.spectator;
}
