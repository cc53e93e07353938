"""``python -m ivy_like launch -n N script.py [args]``: N processes of one script on this
machine, for the engines whose shards are processes (torch.distributed, MLX distributed), so
the same script runs with one process or many.

Each process gets torchrun's variables (``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``,
``LOCAL_WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``) and mlx.launch's ring variables
(``MLX_RANK``, ``MLX_WORLD_SIZE``, ``MLX_HOSTFILE``), so a ``dist.Mesh`` finds its process group
on either. Unlike ``mlx.launch``, a rank that fails fails the launch: the others are stopped
and its exit code is returned; ``--timeout`` stops everything after that many seconds (exit
code 124).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

_POLL = 0.05  # seconds between looks at the processes
_GRACE = 5.0  # seconds a stopped process has to exit before it is killed


def _free_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def environment(rank: int, n: int, master_port: int, hostfile: str) -> dict[str, str]:
    """The variables process ``rank`` of ``n`` gets on top of this process's environment."""
    return {
        "RANK": str(rank),
        "WORLD_SIZE": str(n),
        "LOCAL_RANK": str(rank),
        "LOCAL_WORLD_SIZE": str(n),
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": str(master_port),
        "MLX_RANK": str(rank),
        "MLX_WORLD_SIZE": str(n),
        "MLX_HOSTFILE": hostfile,
    }


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Stop every process still running (its whole process group), then kill stragglers."""
    live = [p for p in procs if p.poll() is None]
    for p in live:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + _GRACE
    for p in live:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def launch(n: int, command: Sequence[str], timeout: float | None = None) -> int:
    """Run ``python <command>`` as ``n`` processes; the exit code of the launch: 0 when every
    process exits 0, else the first failure's code (124 on timeout)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"launch: -n must be a positive integer, got {n!r}")
    if not command:
        raise ValueError("launch: give the script to run (python -m ivy_like launch -n 2 x.py)")
    ports = _free_ports(n + 1)
    ring = [[f"127.0.0.1:{port}"] for port in ports[1:]]
    fd, hostfile = tempfile.mkstemp(prefix="ivy_like_hosts_", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(ring, f)
    procs: list[subprocess.Popen[bytes]] = []
    code = 0
    try:
        for rank in range(n):
            env = {**os.environ, **environment(rank, n, ports[0], hostfile)}
            procs.append(
                subprocess.Popen([sys.executable, *command], env=env, start_new_session=True)
            )
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            codes = [p.poll() for p in procs]
            failed = [c for c in codes if c not in (None, 0)]
            if failed:
                code = failed[0]
                break
            if all(c == 0 for c in codes):
                break
            if deadline is not None and time.monotonic() > deadline:
                print(f"launch: stopped after the {timeout} s timeout", file=sys.stderr)
                code = 124
                break
            time.sleep(_POLL)
    except KeyboardInterrupt:
        code = 130
    finally:
        _stop(procs)
        os.unlink(hostfile)
    return code if code >= 0 else 128 - code  # killed by a signal: the shell's convention
