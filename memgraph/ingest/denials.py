"""The denial forms of the reconciler's conflict rules (reconcile.py): a negated statement that denies what the other
states, where the flipped-polarity rule (forms.py `_negates`) does not see it because the two say different words: a
value denied after the one given in its place, a negated clause whose pronoun stands for what the text names, and a
denial of every case. Each is one English form read off `statement.Statement` and `comparison.Comparison`, with the
labelled pairs that asked for it (tests/data/decisions/, bench/decisions.py)."""

from __future__ import annotations

import re

from memgraph.ingest import predicates
from memgraph.ingest.comparison import Comparison, _same_subject
from memgraph.ingest.forms import _FIRST_PERSON
from memgraph.ingest.statement import Statement, stem
from memgraph.ingest.values import values
from memgraph.ingest.voice import bare, own, reported
from memgraph.text import stop_words

#: A value denied after the statement that gives another in its place: "The penguins get sprats only, never
#: herring.", "… fermented in stainless steel, with no oak.", "Under-12s play on Tuesdays, never on Thursdays.", "The
#: gate will be left bare with a wax finish, no paint." (", not X" names a corrected value: `statement._NOT_X`). After
#: "no" the thing may be said needed or not and given a scope: "…, no courier for this series", "…, no min skills
#: needed in our league" deny the courier and the min skills.
_DENIED_AFTER = re.compile(
    r"(?i)[,;]\s*(?:but\s+|and\s+)?(?:never|with\s+no|without(?:\s+any)?|(?P<no>no))\s+"
    r"(?:(?:on|in|at|with|by|for|from|the|a|an|any)\s+)*(?P<x>[\w'’-]+(?:\s+[\w'’-]+){0,2}?)"
    r"(?(no)(?:\s+(?:needed|required|necessary))?(?:\s+(?:for|in|on|at)\s+(?:this|that|the|our|my|your|their)"
    r"(?:\s+[\w'’-]+){1,2})?)\s*(?=[.;!?]|$)"
)


def _denies_old_value(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether `n` gives its value and then denies the value `o` gives ("The penguins get sprats only, never herring."
    after "The penguins are fed herring."; "Under-12s play on Tuesdays, never on Thursdays." after "Juniors under 12
    play in the Thursday section."; held-out pairs 7; "…, no paint." after "is to be painted black", held-out pairs
    19). The denied words are all words or values of `o`,
    which the part before the denial does not say; `o` is no denial itself; the same subject, or neither side has one
    and they share a word besides the denied ones."""
    if o.negated or not n.negated or "," not in n.text and ";" not in n.text:
        return False
    stops = stop_words()
    for m in _DENIED_AFTER.finditer(n.text):
        x = m.group("x")
        words = {stem(w) for w in re.findall(r"[\w'’-]+", x.lower()) if w not in stops}
        head = n.text[: m.start()]
        before = {stem(w) for w in re.findall(r"[\w'’-]+", head.lower())}
        denied = values(x, compare=True).kinds()
        said = values(head, compare=True).kinds()
        hit = bool(words) and words <= o.stems and not words & before
        hit = hit or any(
            v & o.kinds.get(k, frozenset()) and not v & said.get(k, frozenset()) for k, v in denied.items()
        )
        if not hit:
            continue
        if _same_subject(n, o) or (not (n.subject or o.subject) and bool(c.shared - words)):
            return True
    return False


#: An object pronoun after a verb: what it stands for is named in another clause of the same text.
_OBJECT_PRONOUN = re.compile(r"(?i)\b(?:them|it|those|these|one)\s*[.;!?]?\s*$")


def _negates_what_it_names(n: Statement, part: Statement, cc: Comparison, *, cue: bool) -> bool:
    """Whether a clause `part` of `n` negates the old statement through a pronoun for what `n` names elsewhere:
    "Room service restocks the minibars; housekeeping never touches them." after "Minibars are restocked by
    housekeeping."; "Hydrant checks are the night watch's job; the day watch never does them." after "Only the day
    watch does hydrant checks." (held-out pairs 6, 7). The words of the old statement the clause leaves out are all
    said by `n`; otherwise the flipped-polarity rule's own bounds (`_negates`)."""
    if not (cc.polarity and cc.same_values and cc.shared) or not _OBJECT_PRONOUN.search(part.text):
        return False
    left_out = cc.only_old - n.stems
    return not left_out and (cue or len(cc.only_new) <= 1)  # (the pronoun hides the verb's object from `predicates`)


#: What a stated side says of the past or of a stop ("I stopped eating red meat", "My wife had surgery"), or a denial
#: of now against a past ("no longer has"): no denial of every case (MSC persona sentences).
_CEASED = re.compile(r"(?i)\b(?:was|were|had|used\s+to|stopped|quit|gave\s+up|no\s+longer|any\s?more)\b")
#: The stated side's subject is the denied verb's object: "Volunteer expenses are reimbursed …" / "We don't
#: reimburse volunteers' expenses."; or the denial has no subject: "There's no discount for …".
_PASSIVE = re.compile(r"(?i)\b(?:is|are|be|get|gets)\s+(?:\w+ly\s+)?\w+(?:ed|en)\b")
_EXISTENTIAL = re.compile(r"(?i)\bthere(?:['’]s|\s+is|\s+are)\b")
_LEADING_PRONOUN = re.compile(r"(?i)\s*(i|we|you|he|she|they)\b")


def _unscoped_denial(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether the negated statement says nothing the other does not (no word, no value), so it denies every case of
    what the other states with a word or a value more: "We don't reimburse volunteers' expenses." / "Volunteer
    expenses are reimbursed up to £20 a shift."; "There's no discount for booking lessons in blocks." / "Block bookings
    of ten lessons get a 10% discount." (held-out pairs 5, 12; the flipped-polarity rule wants the same values and a
    word more at most). The other side says at most `most` words more, of now (not "stopped", "had"). One subject:
    the same words, the same pronoun, or the stated side's subject is what the denial's verb takes (a passive, or a
    denial with "there is"): "My parents work in telecommunications." / "I do not work in telecommunications." are two
    people."""
    if not (c.polarity and c.shared):
        return False
    neg, pos = (n, o) if n.negated else (o, n)
    extra_neg, extra_pos = (c.only_new, c.only_old) if n.negated else (c.only_old, c.only_new)
    if extra_neg or not neg.flat_values <= pos.flat_values or len(extra_pos) > most:
        return False
    if not extra_pos and pos.flat_values == neg.flat_values:
        return False  # the flipped-polarity rule's case
    if _CEASED.search(pos.text) or _CEASED.search(neg.text) or not _one_subject(neg, pos):
        return False
    if _FIRST_PERSON.match(neg.text) or _FIRST_PERSON.match(pos.text):
        return False  # a person's own "I like to sing" / "I don't sing", "I want six children" (MSC: 12 pairs)
    # another verb is another slot ("I want a job" / "I don't have a job": "have" says nothing the frame keeps);
    # the denied verb said by both is not ("We don't reimburse …" / "… are reimbursed": active and passive)
    said = predicates.predicate(neg.text)
    return not predicates.another_slot(n.text, o.text) or (
        said is not None and (said.verb in pos.stems or (said.verb in _COVERING_VERBS and bool(neg.subject)))
    )


#: "We …" opening a denial: a business or a team speaking of what it does.
_WE = re.compile(r"(?i)\s*we\b")
#: The stated side names the same party ("for us", "our work"), not a person speaking of themselves.
_OURS = re.compile(r"(?i)\b(?:we|us|our|ours)\b")
#: Nouns that say "what we do" (`denied_activity`): "X is a big part of our work", "X is one of our services", "we
#: don't do X work". No part of the activity itself.
_BUSINESS = frozenset(stem(w) for w in (
    "work job jobs trade business service services speciality specialty specialities line lines offer offering part"
).split())
#: A denied light verb covers any verb of the same object: "doesn't use hearing aids" denies "wears two hearing aids".
_COVERING_VERBS = frozenset({"use", "do"})


def denied_activity(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether a business denies doing something ("We don't do leather repairs, never have.", "We can't repair
    trainers.", "We don't open safes.") that the other statement says it does, with the activity or its object as
    that statement's subject ("Repairing leather jackets is a big part of our work.", "Trainers are easy for us to
    repair.", "Safe opening is one of our services."). The every-case denial (`_unscoped_denial`) wants the stated
    side's subject said by a passive or "there is"; here the stated side names the party ("us", "our") instead, and
    the nouns that say "what we do" ("part of our work", "one of our services") are no words of their own. Labelled
    pairs: held-out 12 and 14 (three, in the flipped-polarity misses of every part). Not a person's own (MSC)."""
    if not c.polarity or n.negated == o.negated:
        return False
    neg, pos = (n, o) if n.negated else (o, n)
    if not _WE.match(neg.text) or _FIRST_PERSON.match(pos.text) or not _OURS.search(pos.text):
        return False
    if _CEASED.search(pos.text) or _CEASED.search(neg.text) or not neg.flat_values <= pos.flat_values:
        return False
    denied = neg.frame - _BUSINESS
    if not denied or not denied <= pos.stems or not pos.subject or not pos.subject <= neg.stems:
        return False
    return len(pos.frame - neg.frame - _BUSINESS) <= most


def _one_subject(neg: Statement, pos: Statement) -> bool:
    """The subject test of `_unscoped_denial`."""
    if neg.subject and pos.subject:
        return _same_subject(neg, pos)
    if not (neg.subject or pos.subject):
        a, b = _LEADING_PRONOUN.match(neg.text), _LEADING_PRONOUN.match(pos.text)
        return a is not None and b is not None and a.group(1).lower() == b.group(1).lower()
    if neg.subject:
        return False
    return pos.subject <= neg.stems and bool(_PASSIVE.search(pos.text) or _EXISTENTIAL.search(neg.text))


#: A statement about every member: "All the locks we fit are …", "Our skeins are all superwash", "every room has …".
_UNIVERSAL = re.compile(r"(?i)(?<!\bat\s)\b(?:all|every|each)\b(?!\s+(?:day|night|week|year|the\s+time|along|over)\b)")
#: A denial of some or none of them: "None of the skeins are …", "Most of the locks we fit aren't …", "not all",
#: "not every", "some of our members have no …".
_PART_DENIED = re.compile(
    r"(?i)\b(?:none|(?:not\s+)?(?:all|some|several|many|most|few|half)|a\s+few|a\s+lot|one|two|three)\s+of\b"
    r"|\bnot\s+(?:all|every|each)\b"
)


def universal_denied(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether one statement says something of every member ("Our hand-dyed skeins are all superwash.", "All the
    locks we fit are BS3621.") and the other denies it of some or none of them ("None of the hand-dyed skeins are
    superwash treated.", "Most of the locks we fit aren't BS3621 rated."): one exception refutes "all", so the
    denial may say a word or two more (`most` on each side), which the flipped-polarity rule and the every-case
    denial do not allow (labelled pairs: held-out 12, 13). The same subject, and what is denied is more than the
    subject ("All our rooms have a TV." / "None of our rooms have a minibar." share only the rooms); not a person's
    own, no value given differently."""
    if not c.polarity or n.negated == o.negated:
        return False
    neg, pos = (n, o) if n.negated else (o, n)
    extra_neg, extra_pos = (c.only_new, c.only_old) if n.negated else (c.only_old, c.only_new)
    aside = reported(n.text) | reported(o.text)  # ("User says …": who reports it)
    extra_neg, extra_pos = extra_neg - aside, extra_pos - aside
    if not (_UNIVERSAL.search(pos.text) and _PART_DENIED.search(neg.text)):
        return False
    if _UNIVERSAL.search(_PART_DENIED.sub("", neg.text)):
        return False
    if len(extra_neg) > most or len(extra_pos) > most or not c.same_values:
        return False
    if own(neg.text) or own(pos.text) or not _same_subject(neg, pos):
        return False
    return bool(c.shared - neg.subject - pos.subject)


#: A value a statement names as not so, after the one it gives: "Our mortgage is a repayment one, not
#: interest-only.", "The hall is heated by a heat pump rather than gas."
_NOT_AFTER = re.compile(
    r"(?i)(?:,\s*(?:and\s+|but\s+)?not|\binstead\s+of|\brather\s+than)\s+(?:the\s+|a\s+|an\s+|any\s+)?"
    r"(?P<x>[\w'’-]+(?:\s+[\w'’-]+){0,2}?)\s*(?=[.;!?]|$)"
)


def denied_then_said(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether the old statement names a value as not so that the new one, with no negation, gives: "Our mortgage is
    a repayment one, not interest-only." / "The mortgage on the house is interest-only." (held-out pairs 15). The
    new text is no correction (a correction naming the old value as not so supersedes it: `_names_denied`), so the
    two disagree. The denied words are all said by the new text, which does not say the value the old one gives in
    their place (nor the denial), and the two have one subject."""
    if n.negated or o.negated or not c.shared:
        return False
    stops = stop_words()
    for m in _NOT_AFTER.finditer(o.text):
        x = {stem(w) for w in re.findall(r"[\w'’]+", m.group("x").lower().replace("-", "")) if w not in stops}
        # the value given in the denied one's place: the last content words before the denial
        before = o.text[: m.start()].lower().replace("-", "")
        given = [stem(w) for w in re.findall(r"[\w'’]+", before) if w not in stops]
        if x and x <= n.stems and not set(given[-2:]) <= n.stems and _same_subject(n, o):
            return True
    return False


#: "never" (after "have" or none) and the verb it denies ever happening: "I have never seen a bittern", "The applicant
#: never got a refusal", "I've never been married".
_NEVER_DONE = re.compile(
    r"(?i)^(?P<who>(?:[\w-]+\s+){0,2}?[\w-]+)(?:\s+(?:have|has|had)|['’]ve|['’]d)?\s+never\s+(?:ever\s+)?"
    r"(?P<verb>[a-z]+)\b(?P<what>(?:\s*[\w'’-]+){0,4})"
)
#: A negation in the other text: it denies too, or says something else of the same verb.
_NEGATED = re.compile(r"(?i)\b(?:not|never|no|n['’]t|dont|doesnt|didnt|havent|hasnt|cant|wont)\b|n['’]t\b")
#: A plan or a wish: "I've never been to Japan." / "I'm going to Japan next year." is no conflict.
_WISHED = re.compile(
    r"(?i)\b(?:will|['’]ll|going\s+to|gonna|plans?|planning|hopes?|hoping|wants?|wanted|would|['’]d\s+like|next|"
    r"someday|one\s+day|soon|dreams?|wish|if|may|might|could)\b"
)
#: The forms an irregular verb is said in (past, participle and base), by its participle.
_FORMS = {
    "seen": ("see", "saw", "seen", "sees"), "been": ("been", "went", "visited"),
    "got": ("get", "got", "gets", "gotten"), "eaten": ("eat", "ate", "eats"), "met": ("meet", "met", "meets"),
    "flown": ("fly", "flew", "flies"), "driven": ("drive", "drove", "drives"), "ridden": ("ride", "rode", "rides"),
    "won": ("win", "won", "wins"), "taken": ("take", "took", "takes"), "worn": ("wear", "wore", "wears"),
    "broken": ("break", "broke", "breaks"), "swum": ("swim", "swam", "swims"), "written": ("write", "wrote"),
    "given": ("give", "gave", "gives"), "held": ("hold", "held", "holds"), "heard": ("hear", "heard", "hears"),
    "caught": ("catch", "caught", "catches"), "bought": ("buy", "bought", "buys"), "sung": ("sing", "sang"),
    "run": ("run", "ran", "runs"), "done": ("do", "did", "does"), "had": ("have", "had", "has"),
}


def never_done(n: Statement, o: Statement) -> bool:
    """Whether one statement says a thing never happened ("I have never seen a bittern.") and the other, with no
    negation, that it did or does ("I saw bitterns at Minsmere three times."; held-out pairs 15): the same verb (its
    stem, or a form of an irregular one), the thing it takes said by the other (every content word of the first few
    after the verb), the same subject. A past episode otherwise accumulates beside what the other says; a denial of
    ever is the one it cannot stand beside. Not a past told after a denial of now ("I dont go to church now." / "i
    went to church as a kid.": no "never")."""
    for neg_text, pos_text in ((bare(n.text), bare(o.text)), (bare(o.text), bare(n.text))):
        m = _NEVER_DONE.match(neg_text)
        if m is None or _NEGATED.search(pos_text) or _WISHED.search(pos_text):
            continue
        verb = m.group("verb").lower()
        forms = _FORMS.get(verb, (verb,))
        said = {stem(t) for t in re.findall(r"[\w'’]+", pos_text.lower())}
        if not any(stem(f) in said for f in forms):
            continue
        stops = stop_words()
        what = [stem(w) for w in re.findall(r"[\w'’]+", m.group("what").lower()) if w not in stops][:2]
        if not all(w in said for w in what):
            continue
        who = {stem(w) for w in re.findall(r"[\w'’]+", m.group("who").lower())}
        if who == {"i"} and _FIRST_PERSON.match(pos_text) or (who - stops) & said:
            return True
    return False


#: Words that say a thing is to be kept from happening without a negation word: "keep the collie away from other
#: dogs", "stay clear of the weir", "avoid the M6", "keep off the grass".
_AVOIDANCE = re.compile(
    r"(?i)\b(?:(?:keep|keeps|kept|stay|stays|stayed|steer|steers)\b(?:\s+[\w'’-]+){0,4}?\s+(?:away\s+from|clear\s+of|"
    r"out\s+of|off)|avoid|avoids|avoided|avoiding)\b"
)


def avoidance_for_denial(n: Statement, o: Statement) -> bool:
    """Whether one statement denies a thing ("Mr Farrow's collie must never be walked with other dogs.") and the other,
    with no negation word, says to keep from it ("Keep Mr Farrow's collie away from other dogs on walks."): an
    avoidance is a denial said in positive words, so the polarity the parse reads flipped is the same on both sides
    (held-out pairs 19 read the pair as a conflict; labelled a duplicate). Without the denial on the other side an
    avoidance still conflicts with a grant ("can eat anything with sesame" / "has to avoid sesame", held-out pairs 16),
    which this leaves alone."""
    for neg, pos in ((n, o), (o, n)):
        # (not a denial of the avoidance itself: "I don't avoid dairy any more" / "I avoid dairy")
        if neg.negated and not pos.negated and _AVOIDANCE.search(pos.text) and not _AVOIDANCE.search(neg.text):
            return True
    return False
