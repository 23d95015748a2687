// The seats this browser holds, kept in localStorage: "my games".
// kind: "seat" (played here), "spectator" (a token); "invite" (an invite code to send to the
// player of another seat: it holds `code`, never a token, and is not a seat of this browser).

const KEY = "henderson.seats";

function everything() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && typeof s === "object") : [];
  } catch {
    return [];
  }
}

/** The seat and spectator tokens held here. */
export function allSeats() {
  return everything().filter((s) => typeof s.token === "string" && s.kind !== "invite");
}

/** The invites made here and not yet known to be used: {code, match, game, side}. */
export function allInvites() {
  return everything().filter((s) => s.kind === "invite" && typeof s.code === "string");
}

function save(list) {
  localStorage.setItem(KEY, JSON.stringify(list));
}

/** Remember a seat or an invite (or update it when its token or code is known). */
export function remember(seat) {
  const list = everything();
  const same = (s) => (seat.token ? s.token === seat.token : s.code === seat.code);
  const found = list.find(same);
  if (found) Object.assign(found, seat);
  else list.push({ saved: new Date().toISOString(), ...seat });
  save(list);
}

export function forget(token) {
  save(everything().filter((s) => s.token !== token));
}

/** Forget an invite (it was used, or is no longer wanted). */
export function forgetInvite(code) {
  save(everything().filter((s) => s.code !== code));
}

export function forgetMatch(match) {
  save(everything().filter((s) => s.match !== match));
}

/** Seats of one match held here. */
export function seatsOf(match) {
  return allSeats().filter((s) => s.match === match);
}

/**
 * Remember what a create or upload answer gave: this browser's seat tokens (one, or every
 * human seat's on one screen), the invites to send, and the spectator token; return the
 * token to open.
 */
export function rememberNew(made) {
  const seats = Object.entries(made.seats);
  for (const [side, token] of seats) remember({ token, match: made.match, game: made.game, side, kind: "seat" });
  for (const [side, code] of Object.entries(made.invites || {}))
    remember({ code, match: made.match, game: made.game, side, kind: "invite" });
  remember({ token: made.spectator, match: made.match, game: made.game, side: null, kind: "spectator" });
  return seats.length ? seats[0][1] : made.spectator;
}
