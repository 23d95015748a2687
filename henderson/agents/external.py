"""The `cmd:` agent: a program in any language plays through the engine protocol, JSON
Lines over its standard input and output (docs/research.md, "The engine protocol").

    henderson tournament aag --agents 'cmd:python examples/engine_bot.py',hard
    henderson simulate firstblood --us 'cmd:timeout=5:./mybot' --jp normal

The spec is `cmd:` then optional `key=value:` settings (`timeout`: seconds per decision,
default 10; `describe`: send each legal action's structure too), then the command line
(split like a POSIX shell does, without running a shell). The program is started at the
agent's first decision and stopped when the game ends.

Messages from henderson (one JSON object per line):

    {"type": "hello", "protocol": "henderson-engine/1", "game": ..., "side": ..., ...}
    {"type": "decide", "ply": ..., "view": {...}, "legal": ["move 1/5 0707", ...], ...}
    {"type": "error", "message": "...", "fatal": false}
    {"type": "end", "winner": "us", "returns": {...}, "cause": "..."}

and from the program:

    {"type": "ready", "name": "my bot"}            answering hello
    {"type": "action", "action": "move 1/5 0707"}   answering decide (or "index": 3)
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from collections import deque
from typing import IO, Any

from henderson.agents import AgentError
from henderson.core.game import Action, State

PROTOCOL = "henderson-engine/1"
DEFAULT_TIMEOUT = 10.0  # seconds for each answer
STARTUP_TIMEOUT = 30.0  # at least this long for the program's first answer (`ready`)
MAX_ERRORS = 3  # wrong answers in a row to one message before the program forfeits the game
SETTINGS = ("timeout", "describe")


def parse_cmd_spec(spec: str) -> tuple[list[str], dict[str, str]]:
    """The command line and the settings of a `cmd:` spec; AgentError when it is not one."""
    if not spec.startswith("cmd:"):
        raise AgentError(f"{spec!r} is not a cmd: agent")
    rest = spec[len("cmd:") :]
    settings: dict[str, str] = {}
    while True:
        head, sep, tail = rest.partition(":")
        key, eq, value = head.partition("=")
        if not (sep and eq and key.strip() in SETTINGS):
            break
        settings[key.strip()] = value.strip()
        rest = tail
    try:
        argv = shlex.split(rest)
    except ValueError as exc:
        raise AgentError(f"agent {spec!r}: cannot read the command line ({exc})") from None
    if not argv:
        raise AgentError("a cmd: agent needs a command line, e.g. cmd:python my_bot.py")
    return argv, settings


class ExternalAgent:
    """An agent that asks another program for each decision (the engine protocol)."""

    def __init__(self, spec: str, seed: int | None = None) -> None:
        self.name = spec
        self.argv, settings = parse_cmd_spec(spec)
        program = self.argv[0]
        if shutil.which(program) is None and not (os.sep in program and os.access(program, os.X_OK)):
            raise AgentError(f"agent {spec!r}: no program {program!r} found")
        try:
            self.timeout = float(settings.get("timeout", DEFAULT_TIMEOUT))
        except ValueError:
            raise AgentError(f"agent {spec!r}: timeout is a number of seconds") from None
        if self.timeout <= 0:
            raise AgentError(f"agent {spec!r}: timeout must be more than 0 seconds")
        self.describe = settings.get("describe", "false").lower() in ("1", "true", "yes")
        self.seed = seed
        self.program_name = program
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._stderr_reader: threading.Thread | None = None  # fills `_stderr` until the program ends
        self._finalizer: Any = None

    # -- the agent --------------------------------------------------------------------------

    def choose(self, state: State) -> Action:
        """Send the position as the deciding side sees it and its legal actions; return the
        legal action the program answers (AgentError when it cannot give one)."""
        side = state.current_player()
        if side is None:
            raise AgentError("no decision: the game is over")
        if self._process is None:
            self._start(state, side)
        actions = list(state.legal_actions())
        texts = [str(a) for a in actions]
        message: dict[str, Any] = {
            "type": "decide",
            "ply": state.ply,
            "turn": state.turn,
            "turn_label": state.turn_label,
            "step": state.step,
            "side": side,
            "view": state.view(side),
            "legal": texts,
            "time_limit": self.timeout,
        }
        if self.describe:
            message["actions"] = [state.game.describe(a).to_json() for a in actions]
        self._send(message)
        return actions[self._answer("action", lambda reply: self._pick(reply, texts))]

    def finish(self, state: State) -> None:
        """Tell the program how the game ended, then stop it."""
        if self._process is None:
            return
        if state.is_terminal():
            winner = state.winner()
            ending = {"winner": winner, "returns": state.returns(), "cause": state.end_cause}
        else:
            ending = {"winner": None, "returns": None, "cause": "stopped"}
        with contextlib.suppress(AgentError):
            self._send({"type": "end", **ending})
        self.close()

    def close(self, grace: float = 2.0) -> None:
        """Stop the program: close its input, give it `grace` seconds to leave, then end it."""
        process, self._process = self._process, None
        if process is not None:
            _stop(process, grace)
        if self._finalizer is not None:
            self._finalizer.detach()

    # -- the conversation ---------------------------------------------------------------------

    def _start(self, state: State, side: str) -> None:
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as exc:
            raise AgentError(f"agent {self.name!r}: cannot start {self.program_name!r} ({exc.strerror})") from None
        self._process = process
        self._finalizer = weakref.finalize(self, _stop, process)
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        self._stderr_reader = threading.Thread(target=_pump_tail, args=(process.stderr, self._stderr), daemon=True)
        self._stderr_reader.start()
        game = state.game
        self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "game": game.name,
                "title": game.title,
                "data_version": game.data_version,
                "sides": list(game.sides),
                "side": side,
                "options": dict(state.options),
                "seed": self.seed,
                "time_limit": self.timeout,
            }
        )
        self._answer("ready", lambda reply: 0, startup=True)

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise AgentError(f"agent {self.name!r}: the program is not running")
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":"), default=str) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._fatal("the program stopped reading its input") from None

    def _answer(self, kind: str, accept: Any, startup: bool = False) -> int:
        """Wait for an answer of `kind` that `accept` takes (it returns an index or raises
        ValueError saying what is wrong); each wrong answer is told to the program, which
        may try again, up to MAX_ERRORS times."""
        limit = max(self.timeout, STARTUP_TIMEOUT) if startup else self.timeout
        deadline = time.monotonic() + limit
        errors = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._fatal(f"no answer within {limit:g} s")
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                raise self._fatal(f"no answer within {limit:g} s") from None
            if line is None:
                raise self._fatal("the program ended")
            if not line.strip():
                continue
            try:
                reply = json.loads(line)
                if not isinstance(reply, dict):
                    raise ValueError("a message is a JSON object")
                if reply.get("type") != kind:
                    raise ValueError(f"expected a message of type {kind!r}, not {reply.get('type')!r}")
                return int(accept(reply))
            except ValueError as exc:  # json.JSONDecodeError is a ValueError
                errors += 1
                problem = f"line {_quote(line)}: {exc}"
                if errors >= MAX_ERRORS:
                    raise self._fatal(problem) from None
                self._send({"type": "error", "message": problem, "fatal": False})

    @staticmethod
    def _pick(reply: dict[str, Any], texts: list[str]) -> int:
        if "index" in reply:
            index = reply["index"]
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(texts):
                raise ValueError(f"index {index!r} is not 0..{len(texts) - 1}")
            return index
        action = reply.get("action")
        if not isinstance(action, str):
            raise ValueError('an action message names "action" (its notation) or "index"')
        wanted = " ".join(action.split())
        for i, text in enumerate(texts):
            if text == wanted:
                return i
        raise ValueError(f"{action!r} is not among the {len(texts)} legal actions")

    def _fatal(self, problem: str) -> AgentError:
        """Tell the program it forfeits (if it still listens), stop it, and say why in one line."""
        process = self._process
        if process is not None and process.poll() is None and process.stdin is not None:
            try:
                process.stdin.write(json.dumps({"type": "error", "message": problem, "fatal": True}) + "\n")
                process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass
        self.close(grace=0.2)  # it broke the protocol: no long goodbye
        if self._stderr_reader is not None:  # the program has ended: its last lines are on their way
            self._stderr_reader.join(timeout=1.0)
        said = " | ".join(line.strip() for line in list(self._stderr)[-3:] if line.strip())
        tail = f" (its last words: {said})" if said else ""
        return AgentError(f"agent {self.name!r}: {problem}{tail}")


def _quote(line: str) -> str:
    line = line.strip()
    return repr(line if len(line) <= 80 else line[:77] + "...")


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Hand every line the program writes to the waiting agent; None at its end."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _pump_tail(stream: IO[str], tail: deque[str]) -> None:
    """Keep the last lines the program wrote on its standard error (for error messages)."""
    try:
        for line in stream:
            tail.append(line)
    except (OSError, ValueError):
        pass


def _stop(process: subprocess.Popen[str], grace: float = 2.0) -> None:
    """Close the program's input, wait up to `grace` seconds for it to leave, then kill it."""
    if process.poll() is not None:
        return
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
