"""Load benchmark of the game server: N concurrent games played over HTTP at a given pace.

    python bench/load.py [--games 20] [--seconds 30] [--pace 1.0] [--game firstblood]
                         [--agents 0] [--agent normal] [--workers N] [--agent-threads]
                         [--server-path DIR]
    python bench/load.py --issue [--seconds 30] [--server-path DIR] [--no-past-setup]

It starts a server of its own on the loopback interface (a free port, a fresh SQLite file in
a temporary directory; nothing outside this machine is reached), then runs N games at once,
each by one client holding every seat of its game (`hotseat`): the games are made first, then
the clock starts and each client, from a random moment of its first interval, fetches the
state (`GET /api/seat?since=N`), plays a random legal action, waits to keep the pace (actions
a second per game; `--pace 0`: no wait, the server's saturation), and starts a new game when
one ends. With `--past-setup` (the default with `--issue`) a side offered its default set-up
takes it, so that the games are played in the movement and combat phases, whose positions and
state messages are the largest (a FIRST BLOOD set-up is otherwise 15 actions of small messages).
`--agents K` adds K games of computer players only (`--agent`), which the server plays in its
pool while the people play, to see whether they slow the people down: in processes, every
core but one, as `henderson serve` runs them (`--workers` to choose how many), or in threads
with `--agent-threads`.
At the end it prints, for actions and state fetches, the number of requests, p50/p99
latency, the answers that were not 2xx (a 5xx is a server failure; 0: no answer), the bytes
of a state message, actions a second, the computer players' actions, and the CPU time the
server's process and the clients spent (a figure that another load on the machine disturbs
less than the latencies); then it replays every stored record from the database and compares
the position it reaches with the server's.

`--issue` runs, on one server, what the server's load requirements name, each phase for
`--seconds` and each judged against its target: 200 games at human pace (each game acting
every 2 s: `--pace 0.5`), p99 at most 100 ms; saturation (50 games, `--pace 0`), at least 300
actions a second; 100 games at human pace beside 4 games of computer players, p99 at most
100 ms; then the replay of every record.

`--server-path DIR` runs the server from another checkout's `henderson` package (to measure
before and after a change); the clients are the same. Bounded: each phase stops after
`--seconds`, requests time out after 30 s (counted as failures), and the server and its
process group are stopped at the end.
Nothing here is asserted by the tests: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import gzip
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from henderson.server.run import agent_workers

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only

SERVER = """
import inspect, sys, uvicorn
from henderson.server.app import create_app
db, port, workers, processes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "processes"
options = {"agent_workers": workers}
if "agent_processes" in inspect.signature(create_app).parameters:  # older versions have threads only
    options["agent_processes"] = processes
app = create_app(db, **options)
from henderson.server import run
getattr(run, "freeze_startup_objects", lambda: None)()  # as henderson serve does, where it does
uvicorn.run(app, host="127.0.0.1", port=port, log_level="error", access_log=False)
"""


REQUEST_TIMEOUT = 30.0
SET_UP = "setup default"  # the action that places a side's whole set-up at once (FIRST BLOOD)


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status (0: none came, the connection failed or timed out) and body."""

    status_code: int
    content: bytes

    def json(self) -> Any:
        return json.loads(self.content)


class Client:
    """One keep-alive HTTP/1.1 connection to the server, as lean as a client can be: a general
    client library spends more CPU on a request than the server does, on the same cores."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str, params: dict[str, Any] | None = None, token: str | None = None) -> Answer:
        return await self.request("GET", path + (f"?{urlencode(params)}" if params else ""), None, token)

    async def post(self, path: str, body: Any, token: str | None = None) -> Answer:
        return await self.request("POST", path, json.dumps(body).encode(), token)

    async def request(self, method: str, path: str, data: bytes | None, token: str | None) -> Answer:
        try:
            return await asyncio.wait_for(self._exchange(method, path, data, token), REQUEST_TIMEOUT)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ValueError):
            self.close()
            return Answer(0, b"")

    async def _exchange(self, method: str, path: str, data: bytes | None, token: str | None) -> Answer:
        if self.streams is None:
            self.streams = await asyncio.open_connection(HOST, self.port)
        reader, writer = self.streams
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept-Encoding: gzip\r\n"
        if data is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        writer.write(head.encode() + b"\r\n" + (data or b""))
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:  # chunked
            chunks = []
            while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
            await reader.readexactly(2)
            body = b"".join(chunks)
        if headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        if headers.get("connection") == "close":
            self.close()
        return Answer(status, body)

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


@dataclass(frozen=True)
class Phase:
    """One stretch of load: how many games, at which pace (0: no wait), for how long, beside
    how many games of computer players, and the target it is judged against."""

    name: str
    games: int
    pace: float
    seconds: float
    agent_games: int = 0
    p99_ms: float | None = None  # the most an action's p99 latency may be
    rate: float | None = None  # the fewest actions a second


def issue_phases(seconds: float) -> list[Phase]:
    """The server's load requirements, each a phase."""
    return [
        Phase("human pace", 200, 0.5, seconds, p99_ms=100.0),
        Phase("saturation", 50, 0.0, seconds, rate=300.0),
        Phase("human pace beside computer players", 100, 0.5, seconds, agent_games=4, p99_ms=100.0),
    ]


@dataclass
class Tally:
    """What the clients measured: latencies in seconds by kind of request, statuses, sizes."""

    latency: dict[str, list[float]] = field(default_factory=lambda: {"action": [], "state": []})
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: {"action": {}, "state": {}})
    state_bytes: list[int] = field(default_factory=list)
    actions: int = 0
    agent_actions: int = 0
    games_started: int = 0
    games_finished: int = 0
    matches: list[tuple[str, str]] = field(default_factory=list)  # (match id, spectator token)
    trace: list[tuple[float, str, float, int]] = field(default_factory=list)  # (sent at, kind, seconds, status)
    loop_lag: list[float] = field(default_factory=list)  # the clients' event loop, late by (seconds)

    async def watch_loop(self, deadline: float, every: float = 0.01) -> None:
        """How late the clients' event loop wakes from a short sleep, until `deadline`: what the
        clients add to every latency they measure."""
        while time.monotonic() < deadline:
            asked = time.perf_counter()
            await asyncio.sleep(every)
            self.loop_lag.append(time.perf_counter() - asked - every)

    def note(self, kind: str, started: float, response: Answer) -> None:
        took = time.perf_counter() - started
        self.latency[kind].append(took)
        self.trace.append((started, kind, took, response.status_code))
        self.count(kind, response.status_code)

    def count(self, kind: str, status: int) -> None:
        counts = self.statuses[kind]
        counts[status] = counts.get(status, 0) + 1

    def failures(self) -> int:
        """Answers that were server failures (5xx) and requests that got none (0)."""
        return sum(n for kind in self.statuses.values() for status, n in kind.items() if status >= 500 or status == 0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(db_url: str, port: int, server_path: Path, workers: int, processes: bool) -> subprocess.Popen[bytes]:
    """The server, in a process group of its own (its agents' worker processes too)."""
    env = {**os.environ, "PYTHONPATH": str(server_path)}
    pool = "processes" if processes else "threads"
    command = [sys.executable, "-c", SERVER, db_url, str(port), str(workers), pool]
    return subprocess.Popen(command, env=env, cwd=str(server_path), start_new_session=True)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server, and whatever of its process group is left after it."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system, every thread) a process has used so far; None off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


async def wait_until_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    client = Client(port)
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        if (await client.get("/api/games")).status_code == 200:
            client.close()
            return
        await asyncio.sleep(0.1)
    raise SystemExit("the server did not start within 30 s")


async def new_game(client: Client, tally: Tally, game: str) -> dict[str, Any] | None:
    """A new match with every seat held by this client (`hotseat`), or None when refused."""
    made = await client.post("/api/matches", {"game": game, "hotseat": True})
    if made.status_code != 201:
        tally.count("action", made.status_code)
        return None
    body: dict[str, Any] = made.json()
    tally.games_started += 1
    tally.matches.append((body["match"], body["spectator"]))
    return body


async def play_games(
    client: Client,
    tally: Tally,
    game: str,
    pace: float,
    deadline: float,
    rng: random.Random,
    first: dict[str, Any] | None,
    past_setup: bool = False,
) -> None:
    """One client: games of `game` one after another, the first made already, an action every
    1/pace seconds (no wait at pace 0), beginning at a random moment of the first interval (people
    do not act in step). With `past_setup`, a side that may take the game's default set-up does,
    so that the games are played where positions and state messages are largest."""
    if pace > 0:
        await asyncio.sleep(rng.uniform(0, 1 / pace))
    while time.monotonic() < deadline:
        body, first = first or await new_game(client, tally, game), None
        if body is None:
            await asyncio.sleep(1.0)
            continue
        seats: dict[str, str] = body["seats"]
        held = 0
        token = next(iter(seats.values()))
        while time.monotonic() < deadline:
            started = time.perf_counter()
            state = await client.get("/api/seat", {"since": held}, token)
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
            chosen = SET_UP if past_setup and SET_UP in actions else rng.choice(actions)
            started = time.perf_counter()
            played = await client.post("/api/seat/actions", {"action": chosen, "ply": message["ply"]}, token)
            tally.note("action", started, played)
            if played.status_code == 200:
                tally.actions += 1
            if pace > 0:
                await asyncio.sleep(max(0.0, 1.0 / pace - (time.perf_counter() - started)))


async def computer_games(port: int, tally: Tally, game: str, agent: str, deadline: float) -> None:
    """Games of computer players only, one after another: the server plays them in its pool;
    this only looks, every second, whether one ended, and counts their actions."""
    client = Client(port)
    sides = (await client.get("/api/games")).json()["games"]
    players = {side: agent for found in sides if found["name"] == game for side in found["sides"]}
    while time.monotonic() < deadline:
        made = await client.post("/api/matches", {"game": game, "players": players})
        if made.status_code != 201:
            tally.count("action", made.status_code)
            await asyncio.sleep(1.0)
            continue
        body = made.json()
        tally.matches.append((body["match"], body["spectator"]))
        steps = 0
        while time.monotonic() < deadline:
            await asyncio.sleep(1.0)
            state = await client.get("/api/seat", {"since": 10**9}, body["spectator"])
            if state.status_code != 200:
                tally.count("state", state.status_code)
                continue
            message = state.json()
            tally.agent_actions += message["steps"] - steps
            steps = message["steps"]
            if message["terminal"] or message["problem"]:
                break


def write_trace(path: Path, phase: Phase, tally: Tally) -> None:
    """Append the phase's requests to `path`, one JSON object a line, each sent `at` a Unix
    time (to set beside what the server logged)."""
    offset = time.time() - time.perf_counter()
    with path.open("a", encoding="utf-8") as out:
        for sent, kind, took, status in sorted(tally.trace):
            row = {"phase": phase.name, "at": round(sent + offset, 4), "kind": kind, "seconds": round(took, 5)}
            out.write(json.dumps({**row, "status": status}) + "\n")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def replay_all(client: Client, db_url: str, matches: list[tuple[str, str]]) -> tuple[int, list[str]]:
    """Replay every stored record (read from the database) and compare the position it
    reaches, as a spectator sees it, with the server's at the same step; the differences."""
    sys.path.insert(0, str(ROOT))
    from henderson import games
    from henderson.core.record import replay
    from henderson.server.storage import Store

    store = Store(db_url)
    problems = []
    checked = 0
    try:
        for match_id, spectator in matches:
            record = store.record(match_id)
            if record is None:
                problems.append(f"{match_id}: not stored")
                continue
            try:
                state = replay(record, games.get(record.game))
            except Exception as exc:  # a record that does not replay is what this looks for
                problems.append(f"{match_id}: does not replay: {exc}")
                continue
            steps = len(record.entries)
            served = (await client.get("/api/seat", token=spectator)).json()
            at = served["steps"]
            if at > steps:  # computer players played on since the record was read
                served = (await client.get("/api/seat/history", {"step": steps}, spectator)).json()
                at = served["step"]
            mine = json.loads(json.dumps(state.view(None)))
            if mine != served["view"] or steps != at:
                problems.append(f"{match_id}: the replayed position differs from the server's")
            checked += 1
    finally:
        store.close()
    return checked, problems


async def run_phase(
    port: int, proc: subprocess.Popen[bytes], phase: Phase, args: argparse.Namespace
) -> tuple[Tally, bool]:
    """Play one phase, print what it measured; whether it met its targets."""
    rng = random.Random(f"{args.seed}:{phase.name}")
    tally = Tally()
    clients = [Client(port) for _ in range(phase.games)]
    firsts = await asyncio.gather(*(new_game(client, tally, args.game) for client in clients))  # before the clock
    cpu_before, clients_before = cpu_seconds(proc.pid), time.process_time()
    started = time.monotonic()
    deadline = started + phase.seconds
    # The clients' own pauses must not be counted as the server's: their full garbage
    # collections (every decoded state message is thousands of containers) took 0.2 s each,
    # some forty a minute, with every request in flight waiting. What they make is freed as
    # it goes (nothing refers back to itself), so the collector is off for the phase; and the
    # clients' event loop is watched, so a report says how late the clients themselves were.
    gc.collect()
    gc.disable()
    watch = asyncio.create_task(tally.watch_loop(deadline))
    try:
        await asyncio.gather(
            *(
                play_games(
                    client, tally, args.game, phase.pace, deadline, random.Random(rng.random()), first, args.past_setup
                )
                for client, first in zip(clients, firsts, strict=True)
            ),
            *(computer_games(port, tally, args.game, args.agent, deadline) for _ in range(phase.agent_games)),
        )
    finally:
        gc.enable()
        watch.cancel()
    elapsed = time.monotonic() - started
    cpu_after, clients_cpu = cpu_seconds(proc.pid), time.process_time() - clients_before
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return tally, report(phase, args, tally, elapsed, cpu, clients_cpu)


async def run(args: argparse.Namespace) -> int:
    phases = (
        issue_phases(args.seconds)
        if args.issue
        else [Phase("", args.games, args.pace, args.seconds, agent_games=args.agents)]
    )
    matches: list[tuple[str, str]] = []
    failures = 0
    met = True
    with tempfile.TemporaryDirectory(prefix="henderson-load-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'load.sqlite'}"
        port = free_port()
        proc = start_server(db_url, port, Path(args.server_path).resolve(), args.workers, not args.agent_threads)
        try:
            await wait_until_up(port, proc)
            for phase in phases:
                tally, ok = await run_phase(port, proc, phase, args)
                if args.trace:
                    write_trace(Path(args.trace), phase, tally)
                matches += tally.matches
                failures += tally.failures()
                met = met and ok
            checked, problems = await replay_all(Client(port), db_url, matches)
        finally:
            stop_server(proc)
    print(f"replayed {checked} stored records: {len(problems)} differ")
    for line in problems[:10]:
        print(f"  {line}")
    if args.issue:
        print("every target met" if met else "a target was missed")
    return 1 if problems or failures else 0


def report(
    phase: Phase, args: argparse.Namespace, tally: Tally, elapsed: float, cpu: float | None, clients: float
) -> bool:
    """Print a phase's figures; whether they meet its targets."""
    pace = "no wait (saturation)" if phase.pace == 0 else f"{phase.pace:g} action/s each"
    title = f"{phase.name}: " if phase.name else ""
    beside = f", beside {phase.agent_games} games of {args.agent} computer players" if phase.agent_games else ""
    print(
        f"{title}{phase.games} games of {args.game} at {pace}{beside} for {elapsed:.1f} s "
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
    rate = tally.actions / elapsed
    print(
        f"  {tally.actions} actions played, {rate:.1f} actions/s; "
        f"{tally.games_started} games started, {tally.games_finished} finished"
    )
    if phase.agent_games:
        print(f"  computer players: {tally.agent_actions} actions, {tally.agent_actions / elapsed:.1f} actions/s")
    if cpu is not None:
        done = tally.actions + tally.agent_actions
        per = f", {cpu / done * 1000:.2f} ms per action" if done else ""
        print(f"  server CPU: {cpu:.1f} s ({cpu / elapsed * 100:.0f}% of one core){per}")
    print(f"  clients' CPU (this process, same machine): {clients:.1f} s ({clients / elapsed * 100:.0f}% of one core)")
    lag = [seconds * 1000 for seconds in tally.loop_lag]
    print(
        f"  clients' event loop late by: p50 {percentile(lag, 0.5):.1f} ms, p99 {percentile(lag, 0.99):.1f} ms,"
        f" most {max(lag, default=0):.0f} ms (part of every latency above)"
    )
    ok = True
    p99 = percentile(tally.latency["action"], 0.99) * 1000
    if phase.p99_ms is not None:
        ok = ok and p99 <= phase.p99_ms
        print(f"  target: action p99 at most {phase.p99_ms:g} ms: {'met' if p99 <= phase.p99_ms else 'missed'}")
    if phase.rate is not None:
        ok = ok and rate >= phase.rate
        print(f"  target: at least {phase.rate:g} actions/s: {'met' if rate >= phase.rate else 'missed'}")
    return ok and tally.failures() == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30, at most 600)")
    parser.add_argument("--pace", type=float, default=1.0, help="actions a second in each game; 0: no wait (default 1)")
    parser.add_argument("--game", default="firstblood", help="the game played (default firstblood)")
    parser.add_argument("--agents", type=int, default=0, help="games of computer players only, beside (default 0)")
    parser.add_argument("--agent", default="normal", help="the computer player of those games (default normal)")
    parser.add_argument("--issue", action="store_true", help="the server's load requirements, phase after phase")
    parser.add_argument(
        "--past-setup",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="take the default set-up where offered, to play where state messages are largest (default: with --issue)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument(
        "--workers", type=int, default=agent_workers(), help="the server's computer-player workers (as henderson serve)"
    )
    parser.add_argument(
        "--agent-threads", action="store_true", help="computer players in threads, not processes as henderson serve"
    )
    parser.add_argument("--server-path", default=str(ROOT), help="checkout whose henderson package serves")
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="write every request (sent at, kind, seconds, status) as JSON lines, to study the tail",
    )
    args = parser.parse_args()
    if args.past_setup is None:
        args.past_setup = args.issue
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 600 or not 0 <= args.pace <= 100:
        parser.error("--games 1..500, --seconds up to 600, --pace 0..100")
    if not 0 <= args.agents <= 50:
        parser.error("--agents 0..50")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
