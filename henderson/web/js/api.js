// The server's JSON API and its WebSocket, for the lobby and the game page.

/** An error the server answered: `code` (e.g. "illegal-action"), `message`, maybe `rule`. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.error) || "http-error";
    this.rule = body && body.rule;
  }
  /** One line for a person: the rule first when there is one. */
  describe() {
    return this.rule ? `${this.rule}: ${this.message}` : this.message;
  }
}

async function request(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  agents: () => request("GET", "/api/agents"),
  board: (name) => request("GET", `/api/games/${encodeURIComponent(name)}/board`),
  rules: (name) => request("GET", `/api/games/${encodeURIComponent(name)}/rules`),
  calculatorForm: (name) => request("GET", `/api/games/${encodeURIComponent(name)}/calculator`),
  calculate: (name, inputs) =>
    request("POST", `/api/games/${encodeURIComponent(name)}/calculator`, { body: { inputs } }),
  create: (game, players, options, hotseat = false) =>
    request("POST", "/api/matches", { body: { game, players, options, hotseat, contribution: contribution() } }),
  upload: (record, players, hotseat = false, otherCopies = []) =>
    request("POST", "/api/records", {
      body: { record, other_copies: otherCopies, players, hotseat, contribution: contribution() },
    }),
  invite: (code) => request("GET", "/api/invite", { token: code }),
  claim: (code) => request("POST", "/api/invite/claim", { token: code, body: { contribution: contribution() } }),
  mine: (tokens) => request("POST", "/api/mine", { body: { tokens } }),
  seat: (token) => request("GET", "/api/seat", { token }),
  chat: (token, after = 0) => request("GET", `/api/seat/chat?after=${after}`, { token }),
  say: (token, text) => request("POST", "/api/seat/chat", { token, body: { text } }),
  act: (token, action, ply) => request("POST", "/api/seat/actions", { token, body: { action, ply } }),
  history: (token, step) => request("GET", `/api/seat/history?step=${step}`, { token }),
  /** The record as a file: its text and the name the server gives it (game, match, seat). */
  record: async (token) => {
    const response = await fetch("/api/seat/record", { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
    if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
    const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    return { text: await response.text(), name: named ? named[1] : null };
  },
  undo: (token, ply) => request("POST", "/api/seat/undo", { token, body: { ply } }),
  odds: (token, attack) => request("POST", "/api/seat/odds", { token, body: { attack } }),
  preview: (token, actions, fields) => request("POST", "/api/seat/preview", { token, body: { actions, fields } }),
  placements: (token, unit) => request("GET", `/api/seat/placements?unit=${encodeURIComponent(unit)}`, { token }),
};

/**
 * Live updates for one seat: calls onState(message) for each pushed state, onChat(message)
 * for each chat message pushed, and onStatus(connected) when the connection comes and goes;
 * reconnects by itself.
 */
export function subscribe(token, { onState, onChat, onStatus, onError }) {
  let socket = null;
  let closed = false;
  let delay = 500;
  let pinger = null;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/ws`);
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ token }));
      delay = 500;
      onStatus(true);
      pinger = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
      }, 25000);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "state") onState(message);
      else if (message.type === "chat") onChat?.(message.message);
      else if (message.type === "error") {
        closed = true;
        onError(new ApiError(400, message));
      }
    });
    socket.addEventListener("close", () => {
      clearInterval(pinger);
      onStatus(false);
      if (!closed) {
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 10000);
      }
    });
    socket.addEventListener("error", () => {});
  };
  open();
  return {
    get connected() {
      return socket !== null && socket.readyState === WebSocket.OPEN;
    },
    close() {
      closed = true;
      if (socket) socket.close();
    },
  };
}

/**
 * This browser's random contribution to a game's dice (256 bits from crypto.getRandomValues,
 * as hex): mixed with the server's secret, so that nobody else decides the dice.
 */
export function contribution() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seat token in a seat link (`…/play#TOKEN`) or a bare token; null for an invite link. */
export function tokenFrom(text) {
  const trimmed = String(text || "").trim();
  const hash = trimmed.lastIndexOf("#");
  const token = hash >= 0 ? trimmed.slice(hash + 1) : trimmed;
  return /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : null;
}

/** The invite code in an invite link (`…/play#invite=CODE`), or null. */
export function inviteFrom(text) {
  const found = /[#&]?invite=([A-Za-z0-9_-]{16,128})\s*$/.exec(String(text || "").trim());
  return found ? found[1] : null;
}

/** The link of a seat token on this server (to open one's own seat elsewhere; never to share). */
export function seatLink(token) {
  return `${location.origin}/play#${token}`;
}

/** The invite link of an invite code: usable once, by the person it is sent to. */
export function inviteLink(code) {
  return `${location.origin}/play#invite=${code}`;
}
