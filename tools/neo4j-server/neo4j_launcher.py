"""Start and stop the Neo4j test server (`run` beside this file) from Python: the test suite
(tests/neo4j_server.py) and the benchmarks (bench/*.py --store neo4j) use it. See README.md."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any

from memgraph.config import Settings

LAUNCHER = Path(__file__).resolve().with_name("run")
#: Seconds to wait for the URI line: the first start builds the launcher (Maven may download Neo4j's jars).
START_TIMEOUT_S = 900
STOP_TIMEOUT_S = 120


def missing_tools() -> str | None:
    """None when this machine can start the test server, else what is missing."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        return (
            f"the Neo4j test server needs Java 17+ and Maven ({' and '.join(missing)} not found; "
            "apt-get install openjdk-17-jre-headless maven), or set MEMGRAPH_NEO4J_URI to a throwaway Neo4j 5"
        )
    return None


class Neo4jServer:
    """One Neo4j server: `managed` (it has a `home`) when started here, and then it can be stopped and started
    again on the same data and port; otherwise a server someone else runs (MEMGRAPH_NEO4J_URI)."""

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        home: Path | None = None,
        *,
        heap: str | None = None,
        pagecache: str | None = None,
    ) -> None:
        self.uri, self.user, self.password, self.home = uri, user, password, home
        self.heap, self.pagecache = heap, pagecache
        self.proc: subprocess.Popen[str] | None = None
        self.start_seconds: list[float] = []
        self._log: IO[str] | None = None

    @property
    def managed(self) -> bool:
        return self.home is not None

    def settings(self, **overrides: Any) -> Settings:
        overrides.setdefault("store", self.uri)
        return Settings(neo4j_user=self.user, neo4j_password=self.password, **overrides)

    # -- the launcher (managed servers only) ------------------------------------------------------------------

    def start(self) -> None:
        """Start (or start again, on the same home, data and port) and wait until Bolt answers."""
        assert self.home is not None and self.proc is None
        self._log = open(self.home.parent / "neo4j-server.log", "a", encoding="utf-8")  # noqa: SIM115
        t0 = time.monotonic()
        cmd = [str(LAUNCHER), "--home", str(self.home), "--password", self.password]
        if self.pagecache:
            cmd += ["--pagecache", self.pagecache]
        env = {**os.environ, **({"NEO4J_HEAP": self.heap} if self.heap else {})}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self._log, text=True, env=env)
        uri = self._await_uri(time.monotonic() + START_TIMEOUT_S)
        self.start_seconds.append(time.monotonic() - t0)
        if self.uri and uri != self.uri:
            raise RuntimeError(f"the restarted server moved from {self.uri} to {uri}")
        self.uri = uri

    def _await_uri(self, deadline: float) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        found: list[str] = []
        done = threading.Event()

        def read() -> None:  # the URI line, then drain stdout so the server never blocks on a full pipe
            for line in out:
                if not found and line.startswith("bolt://"):
                    found.append(line.strip())
                    done.set()
            done.set()

        threading.Thread(target=read, name="neo4j-server-stdout", daemon=True).start()
        while not done.wait(0.2):
            if time.monotonic() > deadline:
                self.stop(signal.SIGKILL)
                raise RuntimeError(f"Neo4j did not start within {START_TIMEOUT_S} s; see {self._log_path()}")
        if not found:
            code = self.proc.wait()
            self.proc = None
            raise RuntimeError(f"the Neo4j launcher exited ({code}) before Bolt answered; see {self._log_path()}")
        return found[0]

    def _log_path(self) -> Path | None:
        return None if self.home is None else self.home.parent / "neo4j-server.log"

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """SIGTERM: a clean shutdown (flush and close); SIGKILL: a crash."""
        if self.proc is None:
            return
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    # -- data ---------------------------------------------------------------------------------------------------

    def wipe(self) -> None:
        """Delete every node and relationship (the schema stays): each test or benchmark starts empty."""
        import neo4j

        auth = (self.user, self.password)
        with neo4j.GraphDatabase.driver(self.uri, auth=auth, notifications_min_severity="OFF") as driver:
            with driver.session(database=os.environ.get("MEMGRAPH_NEO4J_DATABASE", "neo4j")) as session:
                session.run("MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
