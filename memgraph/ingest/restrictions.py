"""One kind only against a grant of another kind or of the whole kind: the pair form of the write path's conflict
rules (reconcile.py) for a rule that admits only some of a thing.

Why: "Only red torches are allowed on the observing field." / "White torches are fine on the observing field.",
"Metal spikes are allowed on the course." / "Only soft spikes are permitted on our course.", "Dogs are allowed in all
our cars." / "Only assistance dogs are allowed in our cars." grant what the other rule leaves out, in frames that
differ by the kind words and the modal alone ("allowed" / "fine", "red" / "white"); no frame rule aligns them, and
the parse reads "torches", "spikes", "dogs" as verbs, so the subjects do not meet either (labelled pairs: held-out 7
and 13). `forms._only_against_list` covers "only" against a list of values; this is "only" against a kind.
The kind is the noun phrase after "only" up to its verb ("only assistance dogs are"); the grant names the same head
noun with another modifier ("white torches") or with none ("dogs are allowed in all our cars": every kind). A shared
modifier ("Only registered guide dogs" / "Guide dogs are welcome") is no conflict, nor anything said beyond the
kinds and the modal on either side besides a condition clause ("unless …", "except on …"): another place or time is
another rule.
"""

from __future__ import annotations

import re

from memgraph.ingest.comparison import Comparison, _compare, _same_subject
from memgraph.ingest.forms import _FORBIDS, _GRANTS, _ONLY, _RULE_WORDS
from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import Statement, clauses, statement, stem
from memgraph.ingest.voice import own, reported, unreported
from memgraph.text import stop_words

#: "only" before a noun phrase and its verb: "Only soft spikes are permitted", "only assistance dogs allowed".
_ONLY_KIND = re.compile(
    r"(?i)\b(?:only|solely|exclusively)\s+(?P<np>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+"
    r"(?=(?:are|is|may|can|could|will|allowed|permitted|welcome|go|get|be)\b)"
)
#: The words `_ONLY_KIND` opens with and `forms._ONLY` finds, anywhere: a text without them has no kind restricted by
#: "only", and no clause that says "only" (`only_word_swapped` reads it first: its clause split and searches, both
#: ways for every pair the conflict chain reaches, were 2.8% of a real bulk batch, bench/RESULTS.md "Bulk writes,
#: eighteenth round").
_ONLY_SAID = re.compile(r"(?i)only|solely|exclusively")
#: Words that grant besides the modal: "White torches are fine", "can be parked in the courtyard".
_FINE = re.compile(r"(?i)\b(?:fine|ok|okay|acceptable|accepted)\b|\b(?:may|can)\s+be\s+[a-z]+(?:ed|en)\b")
#: A condition clause that scopes a rule: what follows it is the exception, not the rule.
_CONDITION = re.compile(
    r"(?i)(?:,\s*|\s+)(?:unless|except(?:\s+(?:on|in|at|for|when|if))?|but\s+not|apart\s+from|if|when|as\s+long\s+as)"
    r"\b.*$"
)
#: Words before a head noun that name no kind: every kind of it.
#: Stems a grant says besides the modal: no part of what is granted.
_GRANT_STEMS = frozenset(stem(w) for w in "only fine ok okay acceptable accepted be".split())
_ANY = frozenset({"all", "any", "every", "our", "the", "your", "their", "its", "his", "her", "my", "these", "those"})
_WORD = re.compile(r"[\w'’-]+")


def main_clause(text: str) -> str:
    """`text` without its reporting frame ("User says …") and a trailing condition clause ("… on our course unless
    it's a tournament day")."""
    return _CONDITION.sub("", unreported(text.strip())).strip()


def _kind(text: str) -> tuple[list[str], str] | None:
    """The modifiers and the head noun (stemmed) of the noun phrase after "only", or None."""
    m = _ONLY_KIND.search(text)
    if m is None:
        return None
    words = [w.lower() for w in _WORD.findall(m.group("np"))]
    if words[0] in stop_words() and words[0] not in _ANY:
        return None  # "only in the garden", "only on Sundays": a scope, not a kind
    mods = [stem(w) for w in words[:-1] if w not in stop_words()]
    return mods, stem(words[-1])


def _grant_kind(text: str, head: str) -> list[str] | None:
    """The modifiers the grant says before `head`, [] for every kind of it, None when it does not name `head`."""
    words = [w.lower() for w in _WORD.findall(text)]
    for i, w in enumerate(words):
        if stem(w) != head:
            continue
        mods: list[str] = []
        for before in reversed(words[max(0, i - 3) : i]):
            if before in _ANY or before in stop_words():
                break
            mods.append(stem(before))
        return mods
    return None


def only_kind_against_grant(n: Statement, o: Statement) -> bool:
    """Whether one statement admits only one kind of a thing and the other grants another kind of it, or all of it.
    Neither side forbids or denies; the side without "only" grants ("allowed", "may", "fine"); beyond the kinds
    and the grant words the two main clauses say the same words."""
    for only, grant in ((n, o), (o, n)):
        if not found(_ONLY_SAID, only.text):
            continue  # (`main_clause` cuts a frame before and a condition after: it says no "only" the text does not)
        kind = _kind(main_clause(only.text))
        if kind is None or found(_ONLY_KIND, grant.text):
            continue
        mods, head = kind
        if only.negated or grant.negated or found(_FORBIDS, only.text) or found(_FORBIDS, grant.text):
            return False
        said = main_clause(grant.text)
        if not (_GRANTS.search(said) or _FINE.search(said)):
            return False
        theirs = _grant_kind(said, head)
        if theirs is None or not mods or set(theirs) & set(mods):
            return False
        stops = stop_words()
        a = {stem(w.lower()) for w in _WORD.findall(main_clause(only.text)) if w.lower() not in stops}
        b = {stem(w.lower()) for w in _WORD.findall(said) if w.lower() not in stops}
        rest = (a ^ b) - set(mods) - set(theirs) - _RULE_WORDS - _GRANT_STEMS
        return not rest
    return False


#: Words an "only" restriction says besides its value: "only ever", "at a time", "exclusively".
_ONLY_WORDS = frozenset(stem(w) for w in "only ever solely exclusively time just".split())


def only_value_against_other(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether one statement restricts a thing to one value with "only" and the other gives it another value of
    the same kind: "Blood tests are done on Wednesday mornings." / "We only take blood on Friday mornings.",
    "Overnight guests can stay for up to three nights." / "Guests can only stay over for one night at a time."
    (labelled pairs: held-out 4, 5). "only" excludes every other value, so the frames may be reworded where a
    plain changed value needs them close (`conflicts._reworded`): the "only" side says no word the other does not
    (besides "only", "ever", "at a time" and a reporting frame), the other at most `most`; one kind of value
    changed, no value shared of it (that is `forms._only_against_list`), the same subject; never a person's own
    ("I only drink coffee in the morning" / "I drink coffee after dinner at weekends")."""
    a, b = found(_ONLY, n.text), found(_ONLY, o.text)
    if a == b or c.polarity or n.negated or o.negated or len(c.changed) != 1 or c.entities_differ:
        return False
    if own(n.text) or own(o.text) or not _same_subject(n, o):
        return False
    kind = c.changed[0]
    if n.kinds.get(kind, frozenset()) & o.kinds.get(kind, frozenset()):
        return False
    only, other = (n, o) if a else (o, n)
    extra_only, extra_other = (c.only_new, c.only_old) if a else (c.only_old, c.only_new)
    aside = _ONLY_WORDS | reported(n.text) | reported(o.text)
    return not extra_only - aside and len(extra_other - aside) <= most and bool(c.shared - aside)


def only_word_swapped(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether one statement restricts a slot to one thing with "only" (before it or after it: "Lara fences foil
    only", "The kiln only fires stoneware") and the other says another thing in that slot, the rest word for word:
    "Lara fences sabre.", "The kiln fires porcelain." "only" excludes every other filler, so one word swapped for one
    is a conflict where the plain swap rule wants a name or a complement (held-out pairs 14; the voices of terse
    notes and of non-native speakers put "only" last). The clause that says "only" is read alone ("Lara fences foil
    only; she has never held a sabre."). Neither side negated, no typed value changed, something shared besides
    the subject, not a person's own (MSC: "I only eat organic food" beside "I eat fast food at work"); a trailing
    condition clause is set aside (`main_clause`)."""
    if n.negated == o.negated and n.negated:
        return False
    for only, other in ((n, o), (o, n)):
        if not found(_ONLY_SAID, only.text):
            continue  # no clause of it can say "only" (a clause is a part of the text): most pairs, read from its marks
        parts = [p for p in (clauses(only.text) or (only.text,)) if _ONLY.search(p)]
        if parts and _ONLY_SCOPE.search(parts[0]):
            continue  # "Dogs are allowed only in the garden": "only" of a place or a time scopes the rule
        if len(parts) != 1 or _ONLY.search(other.text) or other.negated or own(only.text) or own(other.text):
            continue
        # (a condition clause is the exception, not the rule: "… sails from Poole unless it's stormy")
        p, q = statement(main_clause(parts[0])), statement(main_clause(other.text))
        cc = _compare(p, q, c.cosine, c.tolerance)
        if p.negated or cc.polarity or cc.changed or not cc.same_values:
            continue
        aside = _ONLY_WORDS | reported(p.text) | reported(q.text)
        mine, theirs = cc.only_new - aside, cc.only_old - aside
        if len(mine) == 1 and len(theirs) == 1 and not cc.subject_changed and _same_subject(p, q):
            return bool(cc.shared - aside - p.subject - q.subject) and _one_place(p.text, q.text)
    return False


#: "only" before a preposition: a scope ("only in the garden", "only on Sundays"), read by the kind and value forms.
_ONLY_SCOPE = re.compile(r"(?i)\b(?:only|solely|exclusively)\s+(?:in|on|at|for|from|to|during|after|before|by|with)\b")
#: Words left out when two clauses are laid side by side: articles, "only", the copula and auxiliaries.
_UNALIGNED = frozenset(
    "the a an only solely exclusively just ever is are was were be been being am 's do does did".split()
)


def _one_place(a: str, b: str) -> bool:
    """Whether the two clauses say the same words in the same order but one word in one place ("Lara fences foil
    only" / "Lara fences sabre"); "The kiln only fires stoneware" / "The kiln is fired by gas" put the swapped word in
    another slot (after "by")."""
    def seq(text: str) -> list[str]:
        return [stem(w.lower()) for w in _WORD.findall(unreported(text)) if w.lower() not in _UNALIGNED]

    x, y = seq(a), seq(b)
    return len(x) == len(y) and sum(p != q for p, q in zip(x, y, strict=True)) == 1


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_ONLY_SAID)
