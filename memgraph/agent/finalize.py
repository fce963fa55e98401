"""Session end: one path for an explicit end, the inactivity timeout and close().

1. Held candidates: promoted when repeated (>= agent_repeat_min mentions) or, for `hold` candidates, supported
   (similar to an existing memory, or to another turn of the session); dropped otherwise, and dropped as out of
   date when a memory committed later in the session corrects or updates it.
2. One episodic `summary` memory for a substantive session (>= agent_summary_min_turns user turns), extractive:
   the turns closest to the session's centroid, quoted. Its evidence is stored with it in the same atomic write
   (those turns as episodic `event` memories) and it gets `DerivedFrom` edges to them and to every memory the
   session wrote. No evidence, no summary (the provenance rule).
3. Gaps: the recall misses of the session were recorded by recall's background maintenance (only questions and
   requests nothing served could answer: plain statements are never misses); the engine is flushed so they are
   in the store, and they are reported.
In incognito mode nothing is written: the report says what would have been (`persisted=False`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memgraph.agent.models import (
    CandidateOutcome,
    HeldCandidate,
    MemoryMode,
    SessionBuffer,
    SessionEndReport,
    TranscriptTurn,
    WriteAction,
)
from memgraph.agent.policy import is_question
from memgraph.agent.seam import AgentEngine
from memgraph.agent.session import VectorCache, candidate_id
from memgraph.agent.topic import cosine
from memgraph.ingest import remainders
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, RuleReconciler
from memgraph.models import Link, LinkSource, Memory, MemoryKind, Provenance, Relation, normalize_tag
from memgraph.retrieve import gaps
from memgraph.store.base import MemoryFilter
from memgraph.text import content_tokens


class SessionFinalizer:
    """Runs session end for one agent (its engine, mode and settings)."""

    def __init__(self, engine: AgentEngine, mode: MemoryMode, vectors: VectorCache) -> None:
        self.engine = engine
        self.mode = mode
        self.settings = engine.settings
        self.vectors = vectors

    @property
    def persist(self) -> bool:
        return self.mode is MemoryMode.LOCAL

    def finalize(self, buf: SessionBuffer, trigger: str) -> SessionEndReport:
        report = SessionEndReport(
            user_id=buf.user_id,
            session_id=buf.session_id,
            trigger=trigger,
            mode=self.mode,
            turns=buf.turns,
            committed=list(buf.written),
            persisted=self.persist,
        )
        promote = self._judge(buf, report)
        if promote and self.persist:
            self._promote(buf, promote, report)
        self._summary(buf, report)
        if self.persist:
            self.engine.flush()  # recall misses (Gap nodes) are written now
            report.gaps = self._gaps(buf)
        return report

    def _gaps(self, buf: SessionBuffer) -> list[str]:
        """The session's recall misses. The agent recalls on every turn, most of which ask nothing: post-recall
        maintenance records a Gap only for an information need that nothing served could answer
        (`retrieve/gaps.py`), so a plain statement ("I prefer short answers with code first.") is never one.
        The same test guards the report against Gap nodes written by any other path."""
        return [
            g.query
            for g in self.engine.store.list_gaps(buf.user_id)
            if g.last_seen >= buf.started_at and gaps.information_need(g.query)
        ]

    # -- 1. held candidates -------------------------------------------------------------------------------

    def _judge(self, buf: SessionBuffer, report: SessionEndReport) -> list[tuple[HeldCandidate, str]]:
        s = self.settings
        promote: list[tuple[HeldCandidate, str]] = []
        turn_texts = [t for t in buf.transcript if t.text.strip()]
        committed = self._committed(buf) if buf.held else []  # read once for every held candidate
        for c in buf.held:
            if c.action is WriteAction.COMMIT:  # incognito: an explicit statement that was not written
                report.candidates.append(CandidateOutcome(text=c.text, kind=c.kind, outcome="committed",
                                                          reason="explicit (incognito: not written)",
                                                          mentions=c.mentions))
                continue
            reason: str | None = None
            newer = self._updated_later(c, committed)
            if newer is not None:
                why, rest = newer
                if rest is not None:
                    why += f"; what it still says is judged on its own: {rest!r}"
                report.candidates.append(CandidateOutcome(text=c.text, kind=c.kind, outcome="dropped", reason=why,
                                                          mentions=c.mentions))
                if rest is None:
                    continue
                c = c.model_copy(update={"id": candidate_id(rest), "text": rest})
            if c.mentions >= s.agent_repeat_min:
                reason = f"repeated ({c.mentions} mentions)"
            elif c.action is WriteAction.HOLD:
                reason = self._support(buf, c, turn_texts)
            if reason is None:
                why = ("said once; needs repetition" if c.action is WriteAction.REQUIRE_REPETITION
                       else "said once and not supported by the session or by memory")
                report.candidates.append(CandidateOutcome(text=c.text, kind=c.kind, outcome="dropped", reason=why,
                                                          mentions=c.mentions))
            else:
                promote.append((c, reason))
                report.candidates.append(CandidateOutcome(text=c.text, kind=c.kind, outcome="promoted",
                                                          reason=reason, mentions=c.mentions))
        return promote

    def _updated_later(self, c: HeldCandidate, committed: list[Memory]) -> tuple[str, str | None] | None:
        """Why a held statement is out of date, and what it still says beside the replaced fact; or None. A
        memory this session committed after it was said corrects or updates it ("Our cluster runs on six
        nodes." held, then "Actually, it has eight nodes now." committed at once). Promoted at session end, the
        held statement would be the newest write and stand active beside its correction. "Lena lives in Porto
        and works as a nurse." updated by "Lena moved to Lisbon." still says "Lena works as a nurse."
        (`remainders.remainder`, what a superseded memory keeps on the write path too)."""
        later = [m for m in committed if m.created_at > c.last_seen]
        if not later:
            return None
        held = Memory(id=c.id, user_id=later[0].user_id, content=c.text, kind=c.kind, created_at=c.last_seen)
        vecs = self.vectors.vectors([c.text, *(m.content for m in later)])
        judge = RuleReconciler(self.settings)
        for m, v in zip(later, vecs[1:], strict=True):
            verdict = judge.decide(m, [Neighbour(held, cosine(v, vecs[0]))])
            if verdict.action is ReconcileAction.SUPERSEDE:
                why = f"out of date: {m.id}, committed later in the session, replaces it ({verdict.reason})"
                return why, remainders.remainder(m.content, c.text)
        return None

    def _committed(self, buf: SessionBuffer) -> list[Memory]:
        """The session's committed memories still active (the held statements' possible successors)."""
        if not buf.written:
            return []
        found = self.engine.store.get_memories(buf.user_id, list(dict.fromkeys(buf.written)))
        return [m for m in found if m.active]

    def _support(self, buf: SessionBuffer, c: HeldCandidate, turns: list[TranscriptTurn]) -> str | None:
        s = self.settings
        (vec,) = self.vectors.vectors([c.text])
        if c.kind is not MemoryKind.EVENT:  # an event is not made durable by resembling a known fact
            hits = self.engine.store.vector_search(buf.user_id, vec, 1, min_similarity=s.agent_support_cosine,
                                                   flt=MemoryFilter())
            if hits:
                return f"supported by memory {hits[0][0]} (cosine {hits[0][1]:.2f})"
        others = [t for t in turns if t.index not in c.turns]
        if others:
            vecs = self.vectors.vectors([t.text for t in others])
            best = max(((cosine(vec, v), t) for v, t in zip(vecs, others, strict=True)), key=lambda x: x[0])
            if best[0] >= s.agent_support_turn_cosine:
                return f"supported by {best[1].role} turn {best[1].index} (cosine {best[0]:.2f})"
        return None

    def _promote(self, buf: SessionBuffer, promote: list[tuple[HeldCandidate, str]], report: SessionEndReport) -> None:
        items = [
            {
                "content": c.text,
                "kind": c.kind,
                "session_id": buf.session_id,
                "provenance": Provenance.OBSERVED,
                "metadata": {"source": "agent", "promoted": reason, "mentions": c.mentions, "rule": c.rule},
            }
            for c, reason in promote
        ]
        # the write path (secret filter, dedup/reconcile, one atomic write); explicit: never dropped as unimportant
        ids = self.engine.remember_linked(items, user_id=buf.user_id, source="session_end")
        report.promoted = list(dict.fromkeys(i for i in ids if i))
        outcomes = {o.text: o for o in report.candidates if o.outcome == "promoted"}
        for (c, _), mid in zip(promote, ids, strict=True):
            if c.text in outcomes:
                outcomes[c.text].memory_id = mid

    # -- 2. the episodic summary ------------------------------------------------------------------------------

    def _summary(self, buf: SessionBuffer, report: SessionEndReport) -> None:
        s = self.settings
        if buf.user_turns < s.agent_summary_min_turns:
            return
        written = [*report.committed, *report.promoted]
        # never quote or store what the policy refused: turns with a dropped statement stay out of the summary
        dropped_texts = {c.text for c in report.candidates if c.outcome == "dropped"}
        refused = set(buf.dropped_turns) | {i for c in buf.held if c.text in dropped_texts for i in c.turns}
        eligible = [t for t in buf.transcript if t.index not in refused]
        written_texts = self._written_texts(buf.user_id, written, report)
        evidence_turns = self._key_turns(eligible, written_texts)
        if not evidence_turns and not written_texts:
            return  # provenance rule: no summary without evidence
        start, end = buf.started_at, buf.last_activity
        n = max(1, s.compress_sentences)
        parts = [f"Session {buf.session_id} on {start:%Y-%m-%d} ({buf.user_turns} user turns, "
                 f"{start:%H:%M}-{end:%H:%M} UTC)."]
        if evidence_turns:
            parts.append("Discussed: " + " | ".join(_clip(t.text, s.agent_summary_turn_chars)
                                                    for t in evidence_turns))
        if written_texts:
            more = f" (+{len(written_texts) - n} more)" if len(written_texts) > n else ""
            parts.append("Remembered: " + " | ".join(_clip(t, s.agent_summary_turn_chars)
                                                     for t in written_texts[:n]) + more)
        content = " ".join(parts)
        report.summary = content
        if not self.persist:
            return
        session_tag = normalize_tag(f"session:{buf.session_id}")
        items = [
            {
                "content": t.text,
                "kind": MemoryKind.EVENT,
                "session_id": buf.session_id,
                "tags": [session_tag, normalize_tag(f"speaker:{t.role}")],
                "created_at": t.at,
                "provenance": Provenance.USER_STATED if t.role == "user" else Provenance.OBSERVED,
                "metadata": {"source": "agent", "role": t.role, "turn": t.index},
            }
            for t in evidence_turns
        ]
        items.append({
            "content": content,
            "kind": MemoryKind.SUMMARY,
            "session_id": buf.session_id,
            "tags": [session_tag, "session-summary"],
            "created_at": end,
            "provenance": Provenance.EXTRACTED,
            "metadata": {"source": "agent", "session_id": buf.session_id, "turns": buf.turns,
                         "user_turns": buf.user_turns, "started_at": start.isoformat(),
                         "ended_at": end.isoformat(), "trigger": report.trigger},
        })
        alive = {m.id for m in self.engine.store.get_memories(buf.user_id, written)}

        def evidence(ids: list[str]) -> list[str]:
            """The summary's sources: its evidence turns (the items before it) and what the session wrote."""
            return [m for m in dict.fromkeys([*ids[:-1], *(m for m in written if m in alive)]) if m != ids[-1]]

        def derived_from(ids: list[str]) -> list[Link]:
            return [Link(src=ids[-1], dst=mid, relation=Relation.DERIVED_FROM, weight=1.0,
                         source=LinkSource.EXPLICIT, reason=f"evidence of the summary of session {buf.session_id}")
                    for mid in evidence(ids)]

        # explicit: stored whatever their importance; reconcile off: a summary quoting a turn is not its duplicate
        ids = self.engine.remember_linked(items, user_id=buf.user_id, links=derived_from, reconcile=False,
                                          source="session_end")
        report.summary_id = ids[-1]
        report.evidence = evidence(ids)

    def _written_texts(self, user_id: str, ids: list[str], report: SessionEndReport) -> list[str]:
        """What the session remembered: the stored contents (local), or what would have been (incognito)."""
        if not self.persist:
            return [c.text for c in report.candidates if c.outcome in ("promoted", "committed")]
        if not ids:
            return []
        return [m.content for m in self.engine.store.get_memories(user_id, ids)]

    def _key_turns(self, transcript: Sequence[TranscriptTurn], written: list[str]) -> list[TranscriptTurn]:
        """Extractive choice: the user turns closest to the centroid of the session's user turns, in order.
        Turns already stored as one of the session's memories are not stored again as evidence."""
        s = self.settings
        turns = [t for t in transcript if t.role == "user"
                 and len(content_tokens(t.text)) >= s.agent_min_candidate_words]
        if turns and written:
            wvecs = self.vectors.vectors(written)
            tvecs = self.vectors.vectors([t.text for t in turns])
            turns = [t for t, v in zip(turns, tvecs, strict=True)
                     if max(cosine(v, w) for w in wvecs) < s.agent_repeat_cosine]
        if not turns:
            return []
        n = max(1, s.compress_sentences)
        if len(turns) > n:
            vecs = np.stack(self.vectors.vectors([t.text for t in turns]))
            centroid = vecs.mean(axis=0)
            scores = [cosine(v, centroid) + (0.0 if is_question(t.text) else 0.05) for v, t in zip(vecs, turns,
                                                                                                    strict=True)]
            keep = sorted(sorted(range(len(turns)), key=lambda i: -scores[i])[:n])
            turns = [turns[i] for i in keep]
        return turns


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"
