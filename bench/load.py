"""Load benchmark of the game server: N concurrent games played over HTTP at a given pace.

    python bench/load.py [--games 20] [--seconds 30] [--pace 1.0] [--game firstblood]
                         [--server-path DIR] [--workers 1]

It starts a server of its own on the loopback interface (a free port, a fresh SQLite file in
a temporary directory; nothing outside this machine is reached), then runs N games at once,
each by one client holding every seat of its game (`hotseat`): fetch the state (`GET
/api/seat?since=N`), play a random legal action, wait to keep the pace (actions a second per
game), and start a new game when one ends. At the end it prints, for actions and state
fetches, the number of requests, p50/p99 latency, the answers that were not 2xx (a 5xx is a
server failure), the bytes of a state message, and actions a second; then it replays every
stored record from the database and compares the position it reaches with the server's.

`--server-path DIR` runs the server from another checkout's `henderson` package (to measure
before and after a change); the clients are the same. Bounded: the run stops after
`--seconds`, requests time out after 30 s, and the server is stopped at the end.
Nothing here is asserted by the tests: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only

SERVER = """
import sys, uvicorn
from henderson.server.app import create_app
db, port, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
uvicorn.run(create_app(db, agent_workers=workers), host="127.0.0.1", port=port,
            log_level="error", access_log=False)
"""


@dataclass
class Tally:
    """What the clients measured: latencies in seconds by kind of request, statuses, sizes."""

    latency: dict[str, list[float]] = field(default_factory=lambda: {"action": [], "state": []})
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: {"action": {}, "state": {}})
    state_bytes: list[int] = field(default_factory=list)
    actions: int = 0
    games_started: int = 0
    games_finished: int = 0
    matches: list[tuple[str, str]] = field(default_factory=list)  # (match id, spectator token)

    def note(self, kind: str, started: float, response: httpx.Response) -> None:
        self.latency[kind].append(time.perf_counter() - started)
        counts = self.statuses[kind]
        counts[response.status_code] = counts.get(response.status_code, 0) + 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(db_url: str, port: int, server_path: Path, workers: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(server_path)}
    return subprocess.Popen(
        [sys.executable, "-c", SERVER, db_url, str(port), str(workers)], env=env, cwd=str(server_path)
    )


async def wait_until_up(client: httpx.AsyncClient, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            if (await client.get("/api/games")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("the server did not start within 30 s")


async def play_games(
    client: httpx.AsyncClient, tally: Tally, game: str, pace: float, deadline: float, rng: random.Random
) -> None:
    """One client: games of `game` one after another, an action every 1/pace seconds."""
    while time.monotonic() < deadline:
        made = await client.post("/api/matches", json={"game": game, "hotseat": True})
        if made.status_code != 201:
            tally.statuses["action"][made.status_code] = tally.statuses["action"].get(made.status_code, 0) + 1
            await asyncio.sleep(1.0)
            continue
        body = made.json()
        seats: dict[str, str] = body["seats"]
        tally.games_started += 1
        tally.matches.append((body["match"], body["spectator"]))
        held = 0
        token = next(iter(seats.values()))
        while time.monotonic() < deadline:
            started = time.perf_counter()
            state = await client.get("/api/seat", params={"since": held}, headers=_auth(token))
            tally.note("state", started, state)
            if state.status_code != 200:
                await asyncio.sleep(0.5)
                continue
            tally.state_bytes.append(len(state.content))
            message = state.json()
            held = message["steps"]
            current = message["current_player"]
            if message["terminal"] or current is None:
                tally.games_finished += 1
                break
            if current in seats and seats[current] != token:
                token = seats[current]
                continue
            actions = message["legal_actions"]
            if not actions:
                await asyncio.sleep(0.2)
                continue
            started = time.perf_counter()
            played = await client.post(
                "/api/seat/actions", json={"action": rng.choice(actions), "ply": message["ply"]}, headers=_auth(token)
            )
            tally.note("action", started, played)
            if played.status_code == 200:
                tally.actions += 1
            await asyncio.sleep(max(0.0, 1.0 / pace - (time.perf_counter() - started)))


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def replay_all(client: httpx.AsyncClient, db_url: str, tally: Tally) -> tuple[int, list[str]]:
    """Replay every stored record (read from the database) and compare the position it
    reaches, as a spectator sees it, with the server's; the differences found."""
    sys.path.insert(0, str(ROOT))
    from henderson import games
    from henderson.core.record import replay
    from henderson.server.storage import Store

    store = Store(db_url)
    problems = []
    checked = 0
    try:
        for match_id, spectator in tally.matches:
            record = store.record(match_id)
            if record is None:
                problems.append(f"{match_id}: not stored")
                continue
            try:
                state = replay(record, games.get(record.game))
            except Exception as exc:  # a record that does not replay is what this looks for
                problems.append(f"{match_id}: does not replay: {exc}")
                continue
            served = (await client.get("/api/seat", headers=_auth(spectator))).json()
            mine = json.loads(json.dumps(state.view(None)))
            if mine != served["view"] or len(record.entries) != served["steps"]:
                problems.append(f"{match_id}: the replayed position differs from the server's")
            checked += 1
    finally:
        store.close()
    return checked, problems


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="henderson-load-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'load.sqlite'}"
        port = free_port()
        proc = start_server(db_url, port, Path(args.server_path).resolve(), args.workers)
        try:
            limits = httpx.Limits(max_connections=args.games + 4)
            async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30.0, limits=limits) as client:
                await wait_until_up(client, proc)
                tally = Tally()
                started = time.monotonic()
                deadline = started + args.seconds
                await asyncio.gather(
                    *(
                        play_games(client, tally, args.game, args.pace, deadline, random.Random(rng.random()))
                        for _ in range(args.games)
                    )
                )
                elapsed = time.monotonic() - started
                report(args, tally, elapsed)
                checked, problems = await replay_all(client, db_url, tally)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"replayed {checked} stored records: {len(problems)} differ")
    for line in problems[:10]:
        print(f"  {line}")
    failures = sum(n for kind in tally.statuses.values() for status, n in kind.items() if status >= 500)
    return 1 if problems or failures else 0


def report(args: argparse.Namespace, tally: Tally, elapsed: float) -> None:
    print(
        f"{args.games} games of {args.game} at {args.pace:g} action/s each for {elapsed:.1f} s "
        f"(server from {args.server_path}):"
    )
    for kind in ("action", "state"):
        lat = tally.latency[kind]
        statuses = ", ".join(f"{status}: {n}" for status, n in sorted(tally.statuses[kind].items()))
        print(
            f"  {kind:6}: {len(lat):6d} requests, p50 {percentile(lat, 0.5) * 1000:7.1f} ms, "
            f"p99 {percentile(lat, 0.99) * 1000:7.1f} ms  [{statuses}]"
        )
    sizes = tally.state_bytes
    if sizes:
        print(f"  state message: mean {statistics.mean(sizes) / 1024:.1f} KiB, largest {max(sizes) / 1024:.1f} KiB")
    print(
        f"  {tally.actions} actions played, {tally.actions / elapsed:.1f} actions/s; "
        f"{tally.games_started} games started, {tally.games_finished} finished"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30, at most 600)")
    parser.add_argument("--pace", type=float, default=1.0, help="actions a second in each game (default 1)")
    parser.add_argument("--game", default="firstblood", help="the game played (default firstblood)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--workers", type=int, default=1, help="the server's computer-player threads")
    parser.add_argument("--server-path", default=str(ROOT), help="checkout whose henderson package serves")
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 600 or not 0 < args.pace <= 100:
        parser.error("--games 1..500, --seconds up to 600, --pace up to 100")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
