"""Importance (docs/design.md §3.5), classification (§3.6) and tag inference (§3.7), on real text."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.ingest import importance as imp
from memgraph.ingest.classify import classify
from memgraph.ingest.tags import find_paths, infer_tags, project_of
from memgraph.models import Layer, MemoryKind, Provenance
from memgraph.store.sqlite import SQLiteStore

S = Settings(store=":memory:")


@pytest.fixture(scope="module")
def rarity() -> imp.TokenRarity:
    r = imp.rarity_for(None)
    assert r is not None
    return r


@pytest.mark.parametrize(
    ("text", "expected", "signals"),
    [
        ("the weather was nice", 0.0, []),
        ("I prefer tabs over spaces", 0.4, ["preference"]),
        ("We met on 12 May", 0.2, ["number"]),
        ("She moved to Berlin last spring", 0.3, ["entity"]),
        ("the kubernetes cluster restarted", 0.1, ["technical"]),
        (
            "My favorite database is PostgreSQL since 2019",
            1.0,
            ["entity", "number", "preference", "technical"],
        ),
    ],
)
def test_salience_signals_and_weights(rarity: imp.TokenRarity, text: str, expected: float, signals: list[str]) -> None:
    sal = imp.salience(text, S, rarity)
    assert sal.signals() == signals
    assert sal.score == pytest.approx(expected)


def test_rarity_is_average_wordpiece_rarity(rarity: imp.TokenRarity) -> None:
    assert rarity.word_rarity("kubernetes") > 0.7  # ku ##ber ##net ##es
    assert rarity.word_rarity("tabs") < 0.5  # tab ##s: an inflection, not a rare word
    assert rarity.word_rarity("camping") < 0.5  # one common whole word
    assert rarity.word_rarity("the") < 0.01


def test_importance_formula_exactly_as_designed() -> None:
    assert imp.importance(1.0, 0.0, S) == pytest.approx(0.6)
    assert imp.importance(0.5, 0.5, S) == pytest.approx(0.5)
    assert imp.importance(0.2, 0.3, S) == pytest.approx(0.24)
    v = np.array([1.0, 0.0], dtype=np.float32)
    assert imp.novelty(v, None) == 1.0  # a new user
    assert imp.novelty(v, np.array([1.0, 0.0], dtype=np.float32)) == pytest.approx(0.0)
    assert imp.novelty(v, np.array([-1.0, 0.0], dtype=np.float32)) == 1.0  # distance 2 clamps to 1
    # a centroid of few memories weighs little against the prior of a user without memories
    near = imp.novelty(v, np.array([1.0, 0.0], dtype=np.float32))
    assert imp.weighed_novelty(near, memories=1, prior=1) == pytest.approx(0.5)
    assert imp.weighed_novelty(near, memories=99, prior=1) == pytest.approx(0.01)


class CountingStore(SQLiteStore):
    """The real SQLite store, counting how often every embedding of a user is read."""

    loads = 0

    def embeddings(self, user_id, flt=None):  # type: ignore[no-untyped-def]
        CountingStore.loads += 1
        return super().embeddings(user_id, flt)


def test_centroid_is_cached_and_updated_incrementally(embedder) -> None:  # type: ignore[no-untyped-def]
    store = CountingStore(":memory:")
    engine = MemoryEngine(store, Settings(store=":memory:"), embedder)
    first = engine.ingest("I prefer dark roast coffee from Ethiopia.", user_id="u", session_id="s")
    assert first.decisions[0].novelty == 1.0  # new user
    loads = CountingStore.loads
    for i, text in enumerate(
        [
            "My sister Anna lives in Lisbon.",
            "We adopted a cat called Miso in 2021.",
            "The kubernetes upgrade is scheduled for Friday.",
        ]
    ):
        engine.ingest(text, user_id="u", session_id=f"s{i}")
    assert CountingStore.loads == loads  # no reload: the centroid was updated in place
    _, matrix = store.embeddings("u")
    loads += 1  # that read was the test's own
    cached = engine.pipeline.centroids.centroid(store, "u")
    exact = matrix.mean(axis=0)
    assert np.allclose(cached, exact / np.linalg.norm(exact), atol=1e-5)
    engine.forget(engine.list(user_id="u")[0].id, user_id="u")  # forget keeps the row: still no reload
    engine.ingest("Grace keeps bees on the roof of the office.", user_id="u", session_id="s9")
    assert CountingStore.loads == loads
    store.delete_memories("u", [engine.list(user_id="u")[0].id])  # a delete changes the count: reload
    engine.ingest("The quarterly report is due on the 3rd of June.", user_id="u", session_id="s10")
    assert CountingStore.loads == loads + 1


@pytest.mark.parametrize(
    ("text", "kind", "layer"),
    [
        ("I prefer tabs over spaces.", MemoryKind.PREFERENCE, Layer.PROCEDURAL),
        ("Always use ruff for linting.", MemoryKind.PREFERENCE, Layer.PROCEDURAL),
        ("I hate meetings before 10am.", MemoryKind.PREFERENCE, Layer.PROCEDURAL),
        ("Actually, the meeting is on Tuesday.", MemoryKind.CORRECTION, Layer.SEMANTIC),
        ("No, it's Lisbon, not Porto.", MemoryKind.CORRECTION, Layer.SEMANTIC),
        ("It's not Postgres but MySQL in production.", MemoryKind.CORRECTION, Layer.SEMANTIC),
        ("Never commit secrets to the repository.", MemoryKind.CONSTRAINT, Layer.PROCEDURAL),
        ("Deploys must go through CI.", MemoryKind.CONSTRAINT, Layer.PROCEDURAL),
        ("Don't ever use the ORM for bulk inserts.", MemoryKind.CONSTRAINT, Layer.PROCEDURAL),
        ("We decided to use SQLite as the embedded store.", MemoryKind.DECISION, Layer.SEMANTIC),
        ("1. Build the image\n2. Push it\n3. Roll out", MemoryKind.PROCEDURE, Layer.PROCEDURAL),
        (
            "To release Atlas: bump the version in pyproject.toml, tag the commit, then run make publish.",
            MemoryKind.PROCEDURE,
            Layer.PROCEDURAL,
        ),
        ("How to deploy the ledger:\n- build the image\n- roll it out", MemoryKind.PROCEDURE, Layer.PROCEDURAL),
        ("To be honest: I did not like it, at all.", MemoryKind.EVENT, Layer.EPISODIC),
        ("To release Atlas: see the wiki.", MemoryKind.EVENT, Layer.EPISODIC),
        # a habit said with its command is how the thing is done; the same words in the past tense are an event
        (
            "We deploy Heron with `make release` from the release branch; staging first, then prod.",
            MemoryKind.PROCEDURE,
            Layer.PROCEDURAL,
        ),
        ("You rebuild the index by running `memgraph reindex`.", MemoryKind.PROCEDURE, Layer.PROCEDURAL),
        ("We fixed the build with `git reset --hard` yesterday.", MemoryKind.EVENT, Layer.EPISODIC),
        ("Right now I'm debugging the login page.", MemoryKind.EVENT, Layer.WORKING),
        (
            "User is a backend engineer specializing in Python and PostgreSQL.",
            MemoryKind.FACT,
            Layer.SEMANTIC,
        ),
        ("Hey Mel! Good to see you! How have you been?", MemoryKind.EVENT, Layer.EPISODIC),
        ("I must say, that was a great hike.", MemoryKind.EVENT, Layer.EPISODIC),
        # a notes file's title is not the subject; a quoted name is part of it
        ("# Home lab\n\nThe NAS is a Synology DS920+ in the hall.", MemoryKind.FACT, Layer.SEMANTIC),
        ('The Proxmox host "forge" has 64 GB RAM.', MemoryKind.FACT, Layer.SEMANTIC),
        ("# Rules\n\nNever reboot the router during a backup.", MemoryKind.CONSTRAINT, Layer.PROCEDURAL),
        # a team's notes: bullets of facts, a dated decision, code blocks of commands and of configuration
        ("- Nightly backups go to the B2 bucket\n- The VPN config sits in 1Password", MemoryKind.FACT,
         Layer.SEMANTIC),
        ("Decision (March 3): the wiki moves to Notion.", MemoryKind.DECISION, Layer.SEMANTIC),
        ("```sh\n# restart the queue\nsystemctl restart rq-worker\n```", MemoryKind.PROCEDURE, Layer.PROCEDURAL),
        ("```\n$ pnpm install\n$ pnpm build\n```", MemoryKind.PROCEDURE, Layer.PROCEDURAL),
        ("```yaml\nretries: 3\ntimeout: 30s\n```", MemoryKind.FACT, Layer.SEMANTIC),
        ("Invoices need a PO number before they are paid.", MemoryKind.FACT, Layer.SEMANTIC),
        ("- bought milk\n- walked the dog", MemoryKind.EVENT, Layer.EPISODIC),
    ],
)
def test_routing_table(text: str, kind: MemoryKind, layer: Layer) -> None:
    c = classify(text)
    assert (c.kind, c.layer) == (kind, layer), c.rule
    assert (c.provenance is Provenance.USER_CORRECTED) == (kind is MemoryKind.CORRECTION)


def test_hint_wins_and_layer_hints_work() -> None:
    assert classify("I prefer tabs", "fact").kind is MemoryKind.FACT
    c = classify("Hey, how are you?", "procedural")
    assert c.layer is Layer.PROCEDURAL and c.kind is MemoryKind.PROCEDURE
    with pytest.raises(ValueError):
        classify("x", "nonsense")


def test_constraint_trigger_patterns() -> None:
    c = classify("Never run database migrations on Fridays without a backup.")
    assert c.kind is MemoryKind.CONSTRAINT
    # the constrained action (the object of a light verb) and its first condition, both required
    assert c.trigger_patterns == [r"re:(?s)^(?=.*\bmigrat)(?=.*\bfriday)"]
    # a sign's prohibition: the thing banned and when, not the generic words around it
    sign = classify("No bonfires between May and September.")
    assert sign.kind is MemoryKind.CONSTRAINT
    assert sign.trigger_patterns == [r"re:(?s)^(?=.*\bbonfir)(?=.*\bseptemb)"]
    cjk = classify("不要在周五部署", "constraint")  # CJK: one trigger per character
    assert cjk.trigger_patterns == ["不", "要", "在", "周", "五"]


@pytest.mark.parametrize(
    "text",
    [
        "Deploys must be approved by two reviewers.",
        "You must have a valid passport to board.",
        "Passwords must be at least 12 characters.",
        "The service must be running before you deploy.",
        "You must not miss the filing deadline.",
        "Don't ever commit secrets to the repo.",
        "Don't let the intern push to main.",
        "Don't let anyone get access to prod without a ticket.",
        "Never say the admin password on a call.",
        "user: Never push to main on Fridays.",
        "No bonfires between May and September.",
        "No meetings before 9:30 on Mondays.",
        "No pets allowed.",
        "no dogs on the balcony",
    ],
)
def test_rules_stay_constraints(text: str) -> None:
    assert classify(text).kind is MemoryKind.CONSTRAINT


@pytest.mark.parametrize(
    "text",
    [
        "That must have been exhausting!",
        "It must be so rewarding to see them grow.",
        "Caroline: Wow, that must've been great!",
        "Caroline: That must be a wonderful experience.",
        "You must love seeing how far you have come.",
        "I can only imagine how tough it must be.",
        "It is a must-read.",
        "Don't give up on your dreams!",
        "Don't let anything stop you!",
        "Don't ever quit on what you love.",
        "You never know what tomorrow brings.",
        "Never had a chance to go there.",
        "Never say never!",
        "No worries, see you then!",
        "No one came to the party.",
        "No idea what happened there.",
        "No, I went with oak.",
        "No new messages today.",
        "We had no problems at all.",
    ],
)
def test_small_talk_is_not_a_constraint(text: str) -> None:
    """Conversation says "must" and "don't" without making a rule; a constraint's trigger patterns would pull
    such a turn into every recall that names a word of it."""
    assert classify(text).kind is not MemoryKind.CONSTRAINT


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("user: To deploy the ledger service: run make test, then make deploy-prod.", MemoryKind.PROCEDURE),
        ("Priya: Tomasz owns the reconciliation reports.", MemoryKind.FACT),
        ("Dr. Chen: Never prescribe it without a kidney test.", MemoryKind.CONSTRAINT),
    ],
)
def test_speaker_label_does_not_hide_the_kind(text: str, kind: MemoryKind) -> None:
    """The rules that read how a statement opens see the words after a turn's speaker label."""
    assert classify(text).kind is kind
    assert classify(text.split(": ", 1)[1]).kind is kind


def test_paths_become_project_tags() -> None:
    text = "The bug is in /home/ada/projects/billing/api/invoice.py and src/memgraph/ingest/chunk.py, see #urgent"
    assert find_paths(text) == ["/home/ada/projects/billing/api/invoice.py", "src/memgraph/ingest/chunk.py"]
    assert project_of("/home/ada/projects/billing/api/invoice.py") == "billing"
    res = infer_tags(text, S, explicit=["Bugs"])
    assert res.tags[0] == "bugs"
    assert {"project:billing", "project:memgraph", "urgent"} <= set(res.tags)
    assert res.file_paths == find_paths(text)


def test_hashtags_entities_and_switches() -> None:
    text = "Deployed FastAPI to Fly.io for New York users #release #2024\n```c\n#include <stdio.h>\n```"
    res = infer_tags(text, S)
    assert "release" in res.tags and "2024" not in res.tags and "include" not in res.tags
    assert {"fastapi", "fly.io", "new york"} <= set(res.tags) and "deployed fastapi" not in res.tags
    off = infer_tags(text, Settings(store=":memory:", tag_infer_entities=False, tag_infer_hashtags=False))
    assert off.tags == []
    capped = infer_tags(" ".join(f"#tag{i}" for i in range(30)), S)
    assert len(capped.tags) == S.max_inferred_tags


def test_lower_case_names_of_hosts_and_services_are_tags() -> None:
    """A developer's notes name hosts and services in lower case: an identifier with a number or an underscore,
    or one alone in backticks, is a named thing; English compounds, age bands, times and commands are not."""
    assert infer_tags("Postgres 15.4 runs on db-pay-01 and kafka-02.", S).tags == ["db-pay-01", "kafka-02"]
    assert infer_tags("Deploy `ledger-api` with `make release ENV=prod`; the job is nightly_sync.", S).tags == [
        "nightly_sync", "ledger-api"]
    assert infer_tags("The on-call rota covers under-14s from 9 am-4 pm.", S).tags == []
    assert infer_tags("```sh\nssh db-pay-01\n```", S).tags == []  # not from code blocks
    off = Settings(store=":memory:", tag_infer_entities=False)
    assert infer_tags("Postgres 15.4 runs on db-pay-01.", off).tags == []


def test_entity_tags_are_names_not_their_forms() -> None:
    """A possessive names the same thing ("LeBron's game" is about LeBron); a plural weekday is a time."""
    assert infer_tags("We watched LeBron's game with Priya's team.", S).tags == ["lebron", "priya"]
    assert infer_tags("Never push to main on Fridays or Mondays.", S).tags == []
    # a unit is no name (two memories counting gigabytes are not about one thing); a role word inside a name is
    assert infer_tags("The host has 64 GB RAM and runs Home Assistant.", S).tags == ["ram", "home assistant"]
    assert infer_tags("Each NAS drive holds 8 TB at 7200 RPM.", S).tags == ["nas"]


def test_a_list_item_opens_like_a_sentence() -> None:
    """A bullet's first word is where a sentence starts: "Error" and "Feature" are no names there (a team's notes
    file tagged every bullet's first word); a name inside the item, or one that looks like a name anyway, is."""
    notes = "- Feature flags live in LaunchDarkly\n- Error budget: 99.5% a quarter\n  * Backups run nightly"
    assert infer_tags(notes, S).tags == ["launchdarkly"]
    assert infer_tags("1) Review the rota with Tomasz\n2) AWS bill is due", S).tags == ["tomasz", "aws"]
    assert infer_tags("Lunch on Friday - Priya brings the cake", S).tags == ["priya"]  # a dash mid-line opens no item


def test_a_sentence_initial_name_is_tagged_once_the_user_names_it(embedder) -> None:  # type: ignore[no-untyped-def]
    """"Priya owns the release." alone cannot be told from "Yesterday was long." (both open a sentence), so its
    first word is no tag; beside a memory that names Priya mid-sentence (stored before, or in the same batch)
    it is, and the two memories share the tag. Ordinary words that open a sentence stay untagged."""
    engine = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    alone = engine.remember("Lena prefers written updates over meetings.", user_id="u")
    assert "lena" not in alone.tags
    engine.remember("Please ask Priya before moving the release date.", user_id="u")
    later = engine.remember("Priya owns the release checklist.", user_id="u")
    assert "priya" in later.tags
    report = engine.ingest(
        "Tomasz is on call this week.\n\nIf the pager fires at night, wake Tomasz first.\n\nArt is hard to schedule.",
        user_id="u",
        session_id=None,
    )
    stored = {m.content: m.tags for m in (engine.get(mid, user_id="u") for mid in report.created)}
    assert "tomasz" in stored["Tomasz is on call this week."], stored
    assert not any("art" in tags for tags in stored.values())
    assert "lena" not in engine.get(alone.id, user_id="u").tags  # not tagged back (documented)
