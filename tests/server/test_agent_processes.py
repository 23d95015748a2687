"""Computer players thinking in processes (`create_app(agent_processes=True)`, what `henderson
serve` runs): a worker of their pool ends when the server that started it is killed, even by
SIGKILL, which gives the server no chance to stop it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PARENT = """
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from henderson.server.matches import leave_with_parent

if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=leave_with_parent, initargs=(os.getpid(), 0.1))
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(120)
"""


def gone(pid: int) -> bool:
    """Whether a process has ended (a zombie waiting for its new parent counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return "\nState:\tZ" in state


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert worker != parent.pid and not gone(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        for _ in range(300):  # a bounded wait for the end, not a measure of speed
            if gone(worker):
                break
            time.sleep(0.1)
        assert gone(worker), "the worker outlived the server that started it"
    finally:
        parent.kill()
