"""The agent's write policy as deterministic rules (no LLM): commit now, hold for session end, require
repetition, or drop, decided per sentence of a user turn.

| rule (first match wins)                                                  | action             |
|--------------------------------------------------------------------------|--------------------|
| not a user turn (assistant/system: context only)                         | skip               |
| asks to weaken a safety guard ("skip the safety check", "disable tests") | drop               |
| explicit cue ("remember that…", "don't forget…", "from now on…")         | commit (cue cut)   |
| fewer than `agent_min_candidate_words` content words                     | skip               |
| correction / constraint / preference signal (auto-capture)               | commit             |
| a question                                                               | skip (recall only) |
| implicit agent-facing preference ("shorter answers would be nice")       | require repetition |
| about now / this session ("right now I'm …")                             | require repetition |
| fact, decision or procedure statement                                    | hold               |
| a statement naming an entity, number or date                             | hold               |
| anything else (chit-chat)                                                | skip               |

The signals are the ingest classifier's (`memgraph.ingest.classify` / `signals`), so the agent and the write
path agree on what a preference or a correction is. An LLM policy with hard local guards could judge instead;
here the guards (safety, secrets) and the judgment are both rules, every one visible and tested.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memgraph._deprecated import deprecated_alias
from memgraph.agent.models import WriteAction
from memgraph.ingest import signals
from memgraph.ingest.chunk import ABBREVIATIONS
from memgraph.ingest.classify import classify
from memgraph.ingest.clean import split_code
from memgraph.models import MemoryKind
from memgraph.retrieve.gap_question import asks_outright
from memgraph.text import content_tokens

#: A request to weaken a safety guard: dropped, never remembered.
_GUARD = (
    r"(?:safety|security|test|tests|test\s+suite|unit\s+tests|checks?|verification|validation|reviews?|"
    r"code\s+review|lint(?:ing|er)?|type\s*checks?|ci|guard\s*rails?|guardrails|pre-commit|hooks?|"
    r"sandbox|confirmation|confirmations|backups?|approvals?|safeguards?|2fa|mfa|authentication|tls|ssl)"
)
SAFETY_CONFLICT = re.compile(
    rf"(?i)\b(?:skip|skipping|disable|disabling|bypass|bypassing|ignore|ignoring|turn\s+off|switch\s+off|"
    rf"suppress|remove|drop|circumvent|get\s+rid\s+of|stop\s+running|don'?t\s+run|do\s+not\s+run|never\s+run|"
    rf"no\s+need\s+(?:for|to\s+run))\s+(?:(?:the|all|any|those|these|our|my|your|every)\s+)?"
    rf"(?:[\w-]+\s+){{0,2}}?{_GUARD}\b"
    r"|--no-verify\b|\bforce[- ]push(?:es|ing)?\s+(?:to\s+)?(?:main|master|prod(?:uction)?)\b"
    r"|\bcommit\s+(?:the\s+)?(?:secrets?|api\s+keys?|passwords?|credentials)\b",
)
#: Explicit durable cue at the start of a sentence; the cue is cut from what is stored.
EXPLICIT = re.compile(
    r"(?i)^\s*(?:(?:please|pls|also|and|oh|btw|ok(?:ay)?)[,\s]+)*"
    r"(?:remember(?:\s+(?:that|this))?|don'?t\s+forget(?:\s+that)?|do\s+not\s+forget(?:\s+that)?|"
    r"note\s+that|make\s+a\s+note(?:\s+that)?|take\s+note(?:\s+that)?|keep\s+in\s+mind(?:\s+that)?|"
    r"for\s+(?:future\s+)?reference|for\s+the\s+record|save\s+(?:this|that)|memori[sz]e(?:\s+that)?|"
    r"from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)\b\s*[:,;-]?\s*",
)
#: An implicit preference about how the agent should behave: needs repetition before it becomes durable.
IMPLICIT_PREFERENCE = re.compile(
    r"(?i)\b(?:would\s+be\s+(?:nice|better|great|helpful)|(?:that'?s|that\s+is|this\s+is|it'?s|was)\s+"
    r"(?:too|way\s+too|a\s+bit)\s+(?:long|short|verbose|wordy|terse|brief|technical|detailed|formal|casual)|"
    r"(?:could|can)\s+you\s+(?:please\s+)?(?:be|keep\s+it|make\s+it)\s+(?:more|less|shorter|longer|briefer)|"
    r"(?:shorter|longer|briefer|simpler)\s+(?:answers|replies|responses|explanations)|"
    r"i'?d\s+like\s+(?:it|them|answers|replies)\s+(?:more|less|to\s+be))",
)
_STANDING = re.compile(
    r"(?i)^\s*(?:(?:please|also|and|ok(?:ay)?)[,\s]+)*(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)"
)
_SENTENCE = re.compile(r"(?<=[.!?])[\"')\]»”’]*\s+(?=\S)|\n+")


@dataclass(frozen=True)
class WriteDecision:
    """The policy's verdict on one statement. `text` is what would be stored (explicit cue removed)."""

    action: WriteAction
    text: str
    kind: MemoryKind
    rule: str
    reason: str


_LAST_WORD = re.compile(r"([\w.]+)\.$")


def sentences(text: str) -> list[str]:
    """Sentences of a turn; a turn holding a fenced code block stays one unit (code is never split)."""
    if any(is_code for is_code, _ in split_code(text)):
        return [text.strip()] if text.strip() else []
    out: list[str] = []
    start = 0
    for m in _SENTENCE.finditer(text):
        piece = text[start:m.start()]
        word = _LAST_WORD.search(piece)
        if word and (word.group(1).lower() in ABBREVIATIONS or len(word.group(1)) == 1):
            continue  # "Dr." or an initial ("J."): the sentence goes on
        out.append(piece)
        start = m.end()
    out.append(text[start:])
    return [s.strip() for s in out if s and s.strip()]


def is_safety_conflict(text: str) -> bool:
    return bool(SAFETY_CONFLICT.search(text))


def is_question(text: str) -> bool:
    """A question the policy does not store: one asked outright (a question mark, or a question word first).
    Gap detection's wider reading of chat ("moved standup to 10, ok" may be a check) is a guess there; here a
    wrong guess would drop a statement, so such a sentence goes on to the statement rules."""
    return asks_outright(text)


class WritePolicy:
    """The deterministic write policy. Stateless: the same statement always gets the same decision."""

    def __init__(self, *, min_words: int = 3, max_triggers: int = 5) -> None:
        self.min_words = min_words
        self.max_triggers = max_triggers

    def decide_turn(self, text: str, role: str) -> list[WriteDecision]:
        """One decision per sentence of the turn (assistant/system turns: one SKIP for the whole turn)."""
        if role != "user":
            return [WriteDecision(WriteAction.SKIP, text, MemoryKind.EVENT, "role", f"{role} turns are context only")]
        return [self.decide(s) for s in sentences(text)]

    def decide(self, sentence: str) -> WriteDecision:
        s = sentence.strip()
        if is_safety_conflict(s):
            return WriteDecision(WriteAction.DROP, s, MemoryKind.EVENT, "safety", "asks to weaken a safety guard")
        m = EXPLICIT.match(s)
        if m and m.end() < len(s):
            body = s[m.end():].strip()
            body = body[:1].upper() + body[1:] if body else body
            if len(content_tokens(body)) >= 1:
                standing = _STANDING.match(s) is not None  # "from now on, answer in German": an instruction
                kind = self._kind(body, default=MemoryKind.PREFERENCE if standing else MemoryKind.FACT)
                return WriteDecision(WriteAction.COMMIT, body, kind, "explicit cue", "explicitly asked to remember")
        if len(content_tokens(s)) < self.min_words:
            if IMPLICIT_PREFERENCE.search(s):  # "way too verbose": short, but about how to answer
                return self._implicit_preference(s)
            return WriteDecision(WriteAction.SKIP, s, MemoryKind.EVENT, "short", "too short to be a memory")
        if signals.has_correction(s):
            return WriteDecision(WriteAction.COMMIT, s, MemoryKind.CORRECTION, "correction cue",
                                 "a correction is durable")
        if signals.has_constraint(s):
            return WriteDecision(WriteAction.COMMIT, s, MemoryKind.CONSTRAINT, "constraint cue",
                                 "a stated rule is durable")
        if signals.has_preference(s) and not is_question(s):
            return WriteDecision(WriteAction.COMMIT, s, MemoryKind.PREFERENCE, "preference signal",
                                 "a stated preference is durable")
        if is_question(s):
            return WriteDecision(WriteAction.SKIP, s, MemoryKind.EVENT, "question", "a question is recall context")
        if IMPLICIT_PREFERENCE.search(s):
            return self._implicit_preference(s)
        klass = classify(s, max_triggers=self.max_triggers)
        if klass.rule == "working":
            return WriteDecision(WriteAction.REQUIRE_REPETITION, s, MemoryKind.EVENT, "session-only",
                                 "about the current session; kept only if repeated")
        if klass.rule in ("subject-predicate-object", "decision cue", "procedure steps"):
            return WriteDecision(WriteAction.HOLD, s, klass.kind, klass.rule,
                                 "implicit statement: kept if repeated or supported by the session or memory")
        if signals.entities(s) or signals.has_number_or_date(s):
            return WriteDecision(WriteAction.HOLD, s, MemoryKind.EVENT, "salient statement",
                                 "names an entity/number/date: kept if repeated or supported")
        return WriteDecision(WriteAction.SKIP, s, MemoryKind.EVENT, "chit-chat", "no durable statement")

    def _implicit_preference(self, s: str) -> WriteDecision:
        return WriteDecision(WriteAction.REQUIRE_REPETITION, s, MemoryKind.PREFERENCE, "implicit preference",
                             "an implicit preference becomes durable only when repeated")

    def _kind(self, text: str, *, default: MemoryKind) -> MemoryKind:
        kind = classify(text, max_triggers=self.max_triggers).kind
        return default if kind is MemoryKind.EVENT else kind


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Decision": WriteDecision})
