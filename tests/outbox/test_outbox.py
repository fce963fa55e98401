"""The write outbox on a real FalkorDB server that the tests stop and start (tests/outbox/conftest.py).

What a caller sees while the server is down (queued results, reads that say what waits), what the replay
writes (every kind of write call, in order, exactly once, its decisions in history), what never reaches the
outbox file (secrets; erased memories), and the edges: an engine opened during an outage, a refused call, a
full outbox, the CLI. The kill -9 runs are in test_outbox_kills.py.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine, Settings
from memgraph.errors import (
    NotFoundError,
    OutboxFullError,
    QueuedWritesWarning,
    SecretDetectedError,
    TransientStoreError,
)
from memgraph.models import Relation
from memgraph.outbox import outbox_name, outbox_path
from memgraph.store.base import applied_key
from memgraph.tools import memory_json
from tests.fault_servers import FalkorServer

U = "ada"
AWS = "AKIAZ7QWERTYUIOPASDF"
OPENAI = "sk-" + "Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9wY1aC3"

Open = Callable[..., MemoryEngine]


def _files(eng: MemoryEngine) -> bytes:
    """Every byte of the outbox: its file, write-ahead log and shared memory."""
    assert eng.outbox is not None
    path = eng.outbox.path
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if p.is_file())


def test_the_outbox_file_is_named_by_target_without_credentials(tmp_path: Path) -> None:
    s = Settings(outbox_dir=str(tmp_path))
    assert outbox_name("bolt://neo:s3cret@db.example.com:7688", s) == "bolt-db.example.com-7688-neo4j.sqlite3"
    assert outbox_name("neo4j+s://db.example.com", s) == "neo4j+s-db.example.com-7687-neo4j.sqlite3"
    assert outbox_name("falkordb://:pw@10.0.0.2:6380/team", s) == "falkordb-10.0.0.2-6380-team.sqlite3"
    assert outbox_path(s.model_copy(update={"store": "bolt://h:7687"})) == tmp_path / "bolt-h-7687-neo4j.sqlite3"
    assert outbox_path(s.model_copy(update={"store": str(tmp_path / "db")})) is None  # SQLite: local already
    assert outbox_path(s.model_copy(update={"store": f"falkordb+dir://{tmp_path}"})) is None  # embedded too
    assert outbox_path(s.model_copy(update={"store": "bolt://h:7687", "outbox": False})) is None


def test_every_write_call_queues_while_the_server_is_down_and_replays_in_order_exactly_once(
    open_engine: Open, falkor: FalkorServer
) -> None:
    eng = open_engine()
    box = eng.outbox
    assert box is not None
    base = eng.remember("The office is on the fourth floor", user_id=U, session_id="s0")
    assert not base.queued
    falkor.stop()

    first = eng.remember("My sister Ines lives in Porto", user_id=U, session_id="s1", tags=["family"])
    assert first.queued and first.content == "My sister Ines lives in Porto" and first.tags == ["family"]
    many = eng.remember_many([{"content": "I take the 8:15 train to work", "session_id": "s1"},
                              {"content": "The train is often late on Mondays", "session_id": "s1"}], user_id=U)
    assert [m.queued for m in many] == [True, True]
    turns = eng.remember_conversation(["Ana: shall we book the cabin?", "Rui: yes, for May"], user_id=U,
                                      session_id="trip")
    report = eng.ingest("We decided to move the team offsite to the coast in June.", user_id=U,
                        session_id="s1")
    assert report.queued and not report.stored
    forgotten = eng.forget(base.id, user_id=U)
    assert forgotten.queued and not forgotten.active
    tagged = eng.tag(first.id, ["porto"], user_id=U)
    assert tagged.queued and tagged.tags == ["family", "porto"]
    liked = eng.feedback(many[0].id, True, user_id=U)
    assert liked.queued and liked.strength == 2
    link = eng.link(many[1].id, many[0].id, Relation.RELATES_TO, user_id=U, reason="same commute")
    assert link.src == many[1].id
    # reads: a queued memory is there for get(); the store itself cannot be read while it is down
    assert eng.get(first.id, user_id=U).queued
    with pytest.raises(TransientStoreError):
        eng.recall("where does my sister live?", user_id=U)
    queued = box.pending(U)
    assert queued == 8

    falkor.start()
    # writes keep queueing behind what waits (nothing overtakes it), and reads say what is not visible yet
    late = eng.remember("Ines has a cat called Bolo", user_id=U, session_id="s1")
    assert late.queued and box.pending(U) == queued + 1
    assert any("queued" in w for w in eng.recall("sister", user_id=U).warnings)
    with pytest.warns(QueuedWritesWarning):
        eng.search("sister", user_id=U)
    with pytest.warns(QueuedWritesWarning):
        eng.list(user_id=U)

    result = box.replay()
    assert (result.applied, result.refused, result.remaining, result.waiting) == (queued + 1, 0, 0, None)
    stored = {m.content: m for m in eng.list(user_id=U, include_inactive=True, limit=100)}
    assert {"My sister Ines lives in Porto", "I take the 8:15 train to work", "The train is often late on Mondays",
            "Ana: shall we book the cabin?", "Rui: yes, for May", "Ines has a cat called Bolo"} <= set(stored)
    assert any("offsite" in c for c in stored)  # the ingest ran the whole write path at replay
    assert not stored["The office is on the fourth floor"].active
    assert {"family", "porto"} <= set(stored["My sister Ines lives in Porto"].tags)
    assert stored["I take the 8:15 train to work"].strength == 2  # the feedback, once
    assert not any(m.queued for m in stored.values())
    links = {(x.src, x.dst, x.relation) for x in eng.store.get_links(U)}
    assert (many[1].id, many[0].id, Relation.RELATES_TO) in links
    assert (turns[0].id, turns[1].id, Relation.RELATES_TO) in links  # the conversation's turn order
    # in order of writing: created_at follows the calls, replay followed the queue
    s1 = [m for m in eng.list(user_id=U, session_id="s1", limit=100)]
    by_time = [m.content for m in sorted(s1, key=lambda m: m.created_at)]
    assert by_time[0] == "My sister Ines lives in Porto" and by_time[-1] == "Ines has a cat called Bolo"
    assert set(by_time[1:3]) == {"I take the 8:15 train to work", "The train is often late on Mondays"}  # one call
    assert len([j for j in eng.jobs.history(100) if j.job == "outbox"]) == queued + 1
    # nothing waits now: reads are quiet again, and a second replay has nothing to do
    with warnings.catch_warnings():
        warnings.simplefilter("error", QueuedWritesWarning)
        eng.search("sister", user_id=U)
    assert not any("queued" in w for w in eng.recall("sister", user_id=U).warnings)
    assert box.replay().applied == 0
    assert eng.remember("Back to normal", user_id=U).queued is False


def test_reconciliation_runs_at_replay_and_lands_in_history(open_engine: Open, falkor: FalkorServer) -> None:
    eng = open_engine()
    kept = eng.remember("My favourite editor is Vim", user_id=U, session_id="a")
    falkor.stop()
    again = eng.remember("My favourite editor is Vim", user_id=U, session_id="b")  # same text, other session
    assert again.queued and again.id == kept.id
    falkor.start()
    assert eng.outbox is not None and eng.outbox.replay().applied == 1
    assert eng.get(kept.id, user_id=U).strength == 2  # reinforced, not a second memory
    [run] = [j for j in eng.jobs.history(10) if j.job == "outbox"]
    assert run.counts["reinforced"] == [kept.id]
    assert any("another session" in d for d in run.counts["decisions"])


def test_remember_report_and_the_cli_remember_say_the_write_was_queued(
    open_engine: Open, falkor: FalkorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph.cli import app

    eng = open_engine()
    falkor.stop()
    report = eng.remember_report("Parking is behind the station", user_id=U, kind="fact")
    assert report.queued and [d.action for d in report.decisions] == ["queued"]
    assert not report.stored and "queued in the outbox" in report.summary()
    mid = report.decisions[0].memory_id
    assert eng.get(mid, user_id=U).queued
    assert memory_json(eng.get(mid, user_id=U))["queued"] is True  # what an agent's tool call shows
    eng.close()
    monkeypatch.setenv("MEMGRAPH_STORE", falkor.url)
    monkeypatch.setenv("MEMGRAPH_OUTBOX_DIR", str(tmp_path / "outbox"))
    monkeypatch.setenv("MEMGRAPH_STORE_RETRY_ATTEMPTS", "2")
    monkeypatch.setenv("MEMGRAPH_OUTBOX_BACKGROUND", "false")
    out = CliRunner().invoke(app, ["remember", "Bikes go in the courtyard", "--user", U])
    said = " ".join(out.output.split())
    assert out.exit_code == 0, out.output
    assert "queued" in said and "graph server is unreachable" in said and "remembered" not in said
    falkor.start()
    eng = open_engine()
    assert eng.outbox is not None and eng.outbox.replay().applied == 2
    stored = eng.get(mid, user_id=U)
    assert stored.content == "Parking is behind the station" and not stored.queued


def test_a_replay_resent_after_a_crash_is_applied_once(open_engine: Open, falkor: FalkorServer) -> None:
    """The crash between the server's commit and the outbox's record, without a kill: the entry is applied
    as the replay applies it, and the outbox still holds it."""
    eng = open_engine()
    box = eng.outbox
    assert box is not None
    mem = eng.remember("Deploys happen on Tuesdays", user_id=U)
    falkor.stop()
    eng.feedback(mem.id, True, user_id=U)
    falkor.start()
    [entry] = box.queue.entries()
    assert box.replayer._apply(entry)[0] == "applied"  # the server has it; the outbox was not told
    assert eng.store.get_meta(applied_key(entry.id)) is not None
    report = box.replay()
    assert (report.applied, report.already_applied) == (0, 1)
    assert eng.get(mem.id, user_id=U).strength == 2  # the feedback applied once, not twice
    assert eng.store.get_meta(applied_key(entry.id)) is None  # the marker goes once the outbox forgot it
    assert box.queue.log(1)[0].outcome == "already applied"


def test_the_background_replayer_applies_the_queue_once_the_server_answers(
    open_engine: Open, falkor: FalkorServer
) -> None:
    eng = open_engine(outbox_background=True)
    falkor.stop()
    mems = [eng.remember(f"Reminder {i}: water the plants on the balcony", user_id=U) for i in range(5)]
    assert all(m.queued for m in mems)
    assert eng.outbox is not None and not eng.outbox.wait(0.3)  # the server is still down
    falkor.start()
    assert eng.outbox.wait(120), eng.outbox.status()
    assert [m.id for m in eng.store.get_memories(U, [m.id for m in mems])] == [m.id for m in mems]


def test_an_engine_opens_while_its_server_is_down_and_writes_once_it_is_back(
    open_engine: Open, falkor: FalkorServer, tmp_path: Path
) -> None:
    open_engine().close()  # this machine reached the server before the outage: its outbox file exists
    falkor.stop()
    eng = open_engine()  # would raise TransientStoreError without the outbox
    mem = eng.remember("The router password is in the blue binder", user_id=U)
    assert mem.queued and eng.get(mem.id, user_id=U).queued
    with pytest.raises(TransientStoreError):
        eng.stats(user_id=U)
    with pytest.raises(TransientStoreError):  # a server never reached: a wrong address fails at open
        MemoryEngine.open(falkor.url, settings=falkor.settings(outbox_dir=str(tmp_path / "elsewhere"),
                                                               store_retry_attempts=1))
    falkor.start()
    assert eng.outbox is not None and eng.outbox.replay().applied == 1
    assert eng.get(mem.id, user_id=U).queued is False


def test_secrets_never_reach_the_outbox(open_engine: Open, falkor: FalkorServer) -> None:
    eng = open_engine()
    target = eng.remember("The deploy bot posts to the ops channel", user_id=U)
    falkor.stop()
    mem = eng.remember(f"Use the key {AWS} for the backups", user_id=U, tags=["backup", OPENAI],
                       metadata={"note": f"token {OPENAI}"})
    assert AWS not in mem.content and mem.tags == ["backup"]
    eng.ingest(f"Our staging OpenAI key is {OPENAI}, rotate it monthly.", user_id=U, session_id="x")
    eng.link(mem.id, target.id, user_id=U, reason=f"both need {AWS}")
    eng.tag(target.id, ["ops", AWS], user_id=U)
    raw = _files(eng)
    assert b"for the backups" in raw  # the scan reads where the queued text is
    assert AWS.encode() not in raw and OPENAI.encode() not in raw
    strict = open_engine(secret_policy="reject")
    with pytest.raises(SecretDetectedError):
        strict.remember(f"key {AWS}", user_id=U)
    assert strict.outbox is not None and strict.outbox.pending(U) == 4  # the refused call queued nothing


def test_erasure_removes_queued_items_from_the_outbox_and_its_files(open_engine: Open, falkor: FalkorServer) -> None:
    eng = open_engine()
    box = eng.outbox
    assert box is not None
    falkor.stop()
    gone, kept = eng.remember_many([{"content": "My bank PIN hint is the cat's birthday"},
                                    {"content": "I like green tea"}], user_id=U)
    eng.tag(gone.id, ["bank"], user_id=U)
    eng.forget(gone.id, user_id=U)
    other = eng.remember("Bob likes black coffee", user_id="bob")
    assert box.pending(U) == 3
    assert box.erase(U, [gone.id]) == 3  # the item, the tag and the forget
    assert box.pending(U) == 1 and b"cat's birthday" not in _files(eng)
    assert eng.get(kept.id, user_id=U).queued
    with pytest.raises(TransientStoreError):  # nothing queued for it any more, and the server is down
        eng.get(gone.id, user_id=U)
    # the seam engine.erase runs through: nothing left to remove, the server is down, so the erasure queues
    assert eng._writes.erasing(U, [gone.id], lambda: "erased now", lambda: "queued") == "queued"
    assert box.pending(U) == 2
    falkor.start()
    assert box.replay().applied == 3  # ada's kept item, her erasure, bob's memory
    assert eng.store.get_memories(U, [gone.id]) == [] and eng.get(kept.id, user_id=U)
    assert eng.get(other.id, user_id="bob")
    falkor.stop()
    eng.remember("Ada's new address is Rua Augusta 12", user_id=U)
    assert box.erase(U, None) == 1 and box.pending() == 0
    assert b"Rua Augusta" not in _files(eng)
    falkor.start()
    assert box.replay().applied == 0  # nothing waits; the replayer finds the server back
    eng.remember("Ada's phone ends in 4471", user_id=U)  # the server answers and nothing waits: erased at once
    assert eng._writes.erasing(U, None, lambda: "erased now", lambda: "queued") == "erased now"


def test_a_refused_call_is_set_aside_and_the_replay_goes_on(open_engine: Open, falkor: FalkorServer) -> None:
    eng = open_engine()
    falkor.stop()
    eng.forget("m_does_not_exist", user_id=U)
    mem = eng.remember("Lunch is at noon", user_id=U)
    falkor.start()
    box = eng.outbox
    assert box is not None
    report = box.replay()
    assert (report.applied, report.refused, report.remaining) == (1, 1, 0)
    status = box.status()
    assert status.refused == {U: 1} and not status.pending
    assert "NotFoundError" in (status.recent[-1].detail.get("error") or "")
    assert eng.get(mem.id, user_id=U)
    with pytest.raises(NotFoundError):
        eng.get("m_does_not_exist", user_id=U)
    assert box.drop(refused_only=True) == 1 and not box.status().refused


def test_a_full_outbox_refuses_to_grow(open_engine: Open, falkor: FalkorServer) -> None:
    eng = open_engine(outbox_max_entries=2)
    falkor.stop()
    eng.remember("one", user_id=U)
    eng.remember("two", user_id=U)
    with pytest.raises(OutboxFullError, match="outbox_max_entries"):
        eng.remember("three", user_id=U)
    assert eng.outbox is not None and eng.outbox.pending() == 2


def test_the_cli_shows_replays_and_drops_the_outbox(
    open_engine: Open, falkor: FalkorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph.cli import app

    eng = open_engine()
    falkor.stop()
    eng.remember("Standup moved to 9:30", user_id=U)
    eng.remember("Retro is on Fridays", user_id="bob")
    eng.close()
    monkeypatch.setenv("MEMGRAPH_STORE", falkor.url)
    monkeypatch.setenv("MEMGRAPH_OUTBOX_DIR", str(tmp_path / "outbox"))
    monkeypatch.setenv("MEMGRAPH_STORE_RETRY_ATTEMPTS", "2")
    runner = CliRunner()

    def said(result: object) -> str:
        return " ".join(str(getattr(result, "output", "")).split())

    out = runner.invoke(app, ["outbox", "status"])
    assert out.exit_code == 0 and "2 call(s) waiting" in said(out) and "ada: 1" in said(out)
    out = runner.invoke(app, ["outbox", "replay"])
    assert out.exit_code == 1 and "unreachable" in said(out) and "still queued 2" in said(out)
    out = runner.invoke(app, ["outbox", "drop", "--user", "bob"])
    assert out.exit_code == 2 and "--yes" in said(out)
    out = runner.invoke(app, ["outbox", "drop", "--user", "bob", "--yes"])
    assert out.exit_code == 0 and "dropped 1" in said(out)
    falkor.start()
    out = runner.invoke(app, ["outbox", "replay"])
    assert out.exit_code == 0, out.output
    assert "applied: ada: remember (1 item)" in said(out) and "still queued 0" in said(out)
    out = runner.invoke(app, ["outbox", "status", "--json"])
    assert out.exit_code == 0 and '"pending": {}' in said(out)
