"""Step 5 of the write path: kind, layer and provenance of a chunk, without an LLM.

A hint always wins. Otherwise the first rule that matches decides (the captured signals first, then the
routing table):

| rule                                                      | kind        | layer      |
|-----------------------------------------------------------|-------------|------------|
| correction cue ("actually X", "no, X", "not X but Y")     | correction  | semantic   | provenance user_corrected
| constraint ("must X", "required", "don't ever", "Never X")| constraint  | procedural | + trigger patterns
| preference signal ("I prefer", "always use X", "I hate")  | preference  | procedural |
| decision ("we decided", "let's go with", "Decision:")     | decision    | semantic   |
| a code block alone, of commands (```bash, "$ ...")        | procedure   | procedural |
| a code block alone, of other code (a snippet, a config)   | fact        | semantic   |
| steps: numbered, "first … then …", "To X: a, b, then c"    | procedure   | procedural |
| about now / this session ("right now", "currently")       | event       | working    |
| subject-predicate-object statement ("my X is Y", "I use") | fact        | semantic   | in any line of a list too
| default: a conversation turn or event                     | event       | episodic   |

Trigger patterns of a constraint (a triggered constraint is surfaced by recall whatever its
similarity) come from what it constrains, never from the names around it: the constrained action and its
condition ("Never deploy Atlas on Fridays." -> deploy AND friday, as `re:(?s)^(?=.*\bdeploy)(?=.*\bfriday)`),
the action and its object when there is no condition ("Never commit secrets." -> commit AND secret), or the
subject of a rule stated about a thing ("The Atlas app icon must use the brand blue." -> icon). Terms are Snowball
stems matched as word prefixes, so "deploying" and "Fridays" match. A project or person name alone would fire the
rule on every question about that project ("When is the Atlas launch?"), which is what it must not do.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from memgraph.errors import ValidationError
from memgraph.ingest import signal_words, signals
from memgraph.ingest.chunk import turn_body, under_heading
from memgraph.ingest.clean import strip_code
from memgraph.ingest.records import ITEM_MARK
from memgraph.ingest.statement import stem
from memgraph.ingest.value_words import MONTHS, WEEKDAYS
from memgraph.models import Layer, MemoryKind, Provenance
from memgraph.text import stop_words, tokenize

#: Kind -> layer when nothing else decides.
KIND_LAYER: dict[MemoryKind, Layer] = {
    MemoryKind.FACT: Layer.SEMANTIC,
    MemoryKind.PREFERENCE: Layer.PROCEDURAL,
    MemoryKind.PROCEDURE: Layer.PROCEDURAL,
    MemoryKind.CORRECTION: Layer.SEMANTIC,
    MemoryKind.CONSTRAINT: Layer.PROCEDURAL,
    MemoryKind.DECISION: Layer.SEMANTIC,
    MemoryKind.EVENT: Layer.EPISODIC,
    MemoryKind.SUMMARY: Layer.EPISODIC,
}
#: A layer given as the hint (`memory_type_hint`) picks the kind when no rule does.
LAYER_DEFAULT_KIND: dict[Layer, MemoryKind] = {
    Layer.WORKING: MemoryKind.EVENT,
    Layer.EPISODIC: MemoryKind.EVENT,
    Layer.SEMANTIC: MemoryKind.FACT,
    Layer.PROCEDURAL: MemoryKind.PROCEDURE,
}
#: Words that make a sentence a constraint or a preference; they are not what it is about.
CUE_WORDS = frozenset(
    "must mustn't never ever don't do not required require requires mandatory forbidden prohibited allowed "
    "always please should shall use using used make sure avoid circumstances prefer like hate love".split()
)


@dataclass(frozen=True)
class Classification:
    kind: MemoryKind
    layer: Layer
    provenance: Provenance
    rule: str  # which rule decided, for the report
    trigger_patterns: list[str] = field(default_factory=list)


def parse_hint(hint: object) -> tuple[MemoryKind | None, Layer | None]:
    """A hint is a kind ("preference") or a layer ("procedural")."""
    if hint is None:
        return None, None
    if isinstance(hint, MemoryKind):
        return hint, None
    if isinstance(hint, Layer):
        return None, hint
    if isinstance(hint, str):
        value = hint.strip().lower()
        if value in MemoryKind._value2member_map_:
            return MemoryKind(value), None
        if value in Layer._value2member_map_:
            return None, Layer(value)
    kinds = ", ".join(k.value for k in MemoryKind)
    raise ValidationError(f"unknown kind hint {hint!r}; use a kind ({kinds}) or a layer name")


def trigger_terms(text: str, limit: int) -> list[str]:
    """The trigger patterns of a constraint: one conjunctive pattern per rule sentence (see the module docstring),
    at most `limit`; text without an English rule cue falls back to its key terms."""
    patterns: list[str] = []
    plain = strip_code(text)
    for sentence in _RULE_SENTENCE.split(plain):
        terms = rule_terms(sentence)
        if terms:
            pattern = _pattern(terms)
            if pattern not in patterns:
                patterns.append(pattern)
        if len(patterns) >= limit:
            break
    if patterns:
        return patterns
    ents = {w for e in signals.entities(plain) for w in tokenize(e)}
    return [t for t in signals.key_terms(plain, drop=CUE_WORDS | ents, limit=limit + len(ents))][:limit]


#: Verbs that say little on their own: the rule is about their object ("never use eval", "don't run migrations").
_LIGHT = frozenset(
    "use using make do have get let put keep try run go be been being allow allowed ask".split()
)
_SKIP = frozenset(
    "ever again directly just even really please you we i anyone anybody one ever yourself the a an any "
    "your our my their this that these those".split()
)
#: Words that open a condition: "on Fridays", "without a backup", "before merging", "in production".
_CONDITION = frozenset(
    "on in at during before after without with while when whenever if unless until outside over past from "
    "within between".split()
)
_EVENT = frozenset("before after when whenever while until if unless".split())
_STOP_PHRASE = frozenset("to into for of by about than".split())
_RULE_CUE = re.compile(
    r"(?i)\b(?:never|don't|do\s+not|must\s+not|mustn't|must|should\s+not|shouldn't|shall\s+not|cannot|"
    r"can't|avoid|always|under\s+no\s+circumstances|at\s+no\s+time|no\s+one\s+may|nobody\s+may|"
    r"(?:is|are)\s+(?:strictly\s+)?(?:not\s+allowed|not\s+permitted|forbidden|prohibited|required|"
    r"mandatory|banned)|required\s+(?:to|for|before))\b"
    r"|^\s*no\b(?=\s+" + signal_words.NO_THINGS_TAIL + r")"  # "No bonfires between May and September."
)
_RULE_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_VALUE_WORDS = {m: m for m in MONTHS} | {d: d for d in WEEKDAYS}


def rule_terms(sentence: str) -> list[str]:
    """The stemmed terms a query must contain for this rule sentence to apply (empty: no rule cue found)."""
    m = _RULE_CUE.search(sentence)
    if m is None:
        return []
    stops = stop_words()
    ents = {w for e in signals.entities(sentence) for w in tokenize(e)} - _when_words()
    before = [t for t in tokenize(sentence[: m.start()]) if t not in stops and t not in ents and not t.isdigit()]
    after = [t for t in tokenize(sentence[m.end() :]) if not t.isdigit()]
    # the action phrase: up to the first condition or linking word
    phrase: list[str] = []
    i = 0
    while i < len(after) and after[i] not in _CONDITION and after[i] not in _STOP_PHRASE:
        phrase.append(after[i])
        i += 1
    words = [w for w in phrase if w not in _SKIP and w not in stops and w not in ents and w not in CUE_WORDS]
    light = bool(words) and words[0] in _LIGHT
    content = [w for w in words if w not in _LIGHT]
    action = content[-1] if (light and content) else (content[0] if content else None)
    obj = content[-1] if (not light and len(content) > 1) else None
    condition, event = _condition(after[i:], ents)
    subject = before[-1] if before else None
    if subject is not None and m.group(0).lower().startswith(("is", "are", "must", "should", "shall", "required")):
        # a rule about a thing: "The Atlas app icon must use ...", "Passwords must be rotated ..."
        head = event if event else condition
        return [_prefix(t) for t in (subject, head) if t]
    if action is None:
        return [_prefix(t) for t in (event or condition,) if t]
    second = condition or event or obj
    return [_prefix(t) for t in (action, second) if t]


def _condition(words: list[str], ents: set[str]) -> tuple[str | None, str | None]:
    """The first condition after the action: (its head word, or None; the event verb of "before X"-like ones)."""
    stops = stop_words()
    for i, w in enumerate(words):
        if w not in _CONDITION:
            continue
        tail = []
        for t in words[i + 1 :]:
            if t in _CONDITION or t in _STOP_PHRASE:
                break
            if t not in stops and t not in ents and t not in _SKIP:
                tail.append(t)
        if not tail:
            continue
        if w in _EVENT:
            return None, tail[0]
        values = [t for t in tail if t.rstrip("s") in _VALUE_WORDS or t in _VALUE_WORDS]
        return (values[0].rstrip("s") if values else tail[0]), None
    return None, None


def _when_words() -> set[str]:
    """Weekday and month names, singular and plural: when a rule applies, never a name to drop."""
    return {w for v in _VALUE_WORDS for w in (v, v + "s")}


def _prefix(word: str) -> str:
    """The part of a word its inflections share: the Snowball stem, cut back to what the word itself spells
    ("apply" -> "appl", so "applied" matches; "Fridays" -> "friday")."""
    st = stem(word)
    common = os.path.commonprefix([st, word])
    return common if len(common) >= 3 else word


def _pattern(terms: list[str]) -> str:
    """A pattern for layers.trigger_matches: every term as a word prefix, in any order."""
    parts = [re.escape(t) for t in dict.fromkeys(terms)]
    if len(parts) == 1:
        return rf"re:\b{parts[0]}"
    return "re:(?s)^" + "".join(rf"(?=.*\b{p})" for p in parts)


def classify(text: str, hint: object = None, *, max_triggers: int = 5) -> Classification:
    """Kind, layer, provenance and (for constraints) trigger patterns of one chunk."""
    text = turn_body(text)  # a speaker label is who said it, not what was said
    kind_hint, layer_hint = parse_hint(hint)
    if kind_hint is not None:
        prov = Provenance.USER_CORRECTED if kind_hint is MemoryKind.CORRECTION else Provenance.USER_STATED
        triggers = trigger_terms(text, max_triggers) if kind_hint is MemoryKind.CONSTRAINT else []
        return Classification(kind_hint, KIND_LAYER[kind_hint], prov, "hint", triggers)
    kind, rule = _rules(text)
    layer = KIND_LAYER[kind]
    if rule == "working":
        layer = Layer.WORKING
    if layer_hint is not None:
        if rule == "default":
            kind = LAYER_DEFAULT_KIND[layer_hint]
        layer, rule = layer_hint, f"{rule}+layer hint"
    prov = Provenance.USER_CORRECTED if kind is MemoryKind.CORRECTION else Provenance.USER_STATED
    triggers = trigger_terms(text, max_triggers) if kind is MemoryKind.CONSTRAINT else []
    return Classification(kind, layer, prov, rule, triggers)


#: A chunk that is one fenced code block, and its language tag.
_FENCED = re.compile(r"\A\s*(?:```|~~~)[ \t]*([\w+-]*)[^\n]*\n(.*?)\n[ \t]*(?:```|~~~)\s*\Z", re.S)
#: Fence languages of commands to run: a block of them is how a thing is done.
_SHELLS = frozenset("bash sh shell zsh fish console terminal powershell ps ps1 pwsh cmd bat batch".split())


def _code_kind(text: str) -> tuple[MemoryKind, str] | None:
    """The kind of a chunk that is a code block alone (the chunker keeps a block whole): commands to run are a
    procedure; other code (a snippet, a config) is a fact about the code. Both were events, the default, which
    `compress` may fold into a summary of old sessions."""
    m = _FENCED.match(text)
    if m is None:
        return None
    lang = m.group(1).lower()
    lines = [ln.strip() for ln in m.group(2).splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if lang in _SHELLS or (not lang and lines and all(ln.startswith(("$ ", "> ", "./")) for ln in lines)):
        return MemoryKind.PROCEDURE, "commands"
    return MemoryKind.FACT, "code"


def _rules(text: str) -> tuple[MemoryKind, str]:
    code = _code_kind(text)
    if code is not None:
        return code
    # the cues are looked for everywhere, a heading included
    if signals.has_correction(text):
        return MemoryKind.CORRECTION, "correction cue"
    if signals.has_constraint(text):
        return MemoryKind.CONSTRAINT, "constraint cue"
    if signals.has_preference(text):
        return MemoryKind.PREFERENCE, "preference signal"
    if signal_words.DECISION.search(text):
        return MemoryKind.DECISION, "decision cue"
    if signal_words.PROCEDURE.search(text):
        return MemoryKind.PROCEDURE, "procedure steps"
    if signal_words.WORKING.search(text):
        return MemoryKind.EVENT, "working"
    # a fact's subject is read below its markdown heading ("# Home lab\n\nThe NAS is a Synology ...": the title is
    # not the subject), and each bullet's after its mark ("- Feature flags live in LaunchDarkly")
    body = ITEM_MARK.sub("", under_heading(text))
    if any(signal_words.FACT.search(line) for line in body.split("\n") if line.strip()):
        return MemoryKind.FACT, "subject-predicate-object"
    return MemoryKind.EVENT, "default"
