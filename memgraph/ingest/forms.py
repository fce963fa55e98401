"""The forms the reconciler's rules test on a pair of statements (reconcile.py reads them in this order of rules:
a value said with a verb of measure, "free" against a price, an un- participle, a quantity counted on one side only,
a thing moved to a named place, a count beside its members' values, another value of a many-valued predicate, a
flipped polarity, a changed value with the day it holds for, ordinals, one end of an interval, a grant against a
ban, a code changed in one slot, an exclusive "only" against a list, "single" / "double" of one thing, one favourite
of a kind; the denials (of every case, of a value after the one given in its place, through a pronoun) are
denials.py's, opening hours hours.py's). Each is one
English form read off `statement.Statement` and `comparison.Comparison`, with the labelled pairs that asked for it
(tests/data/decisions/, bench/decisions.py); the decision itself (duplicate, supersede, contradict) is
reconcile.py's."""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest import predicates
from memgraph.ingest.comparison import _WHEN, Comparison, _measures_met, _same_subject, _unit_said
from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import Statement, stem
from memgraph.ingest.statement_words import _OPPOSITES
from memgraph.text import stop_words

#: Units that say what is counted only loosely (money, shares, time, how often): they pin no attribute.
_LOOSE_UNITS = frozenset({"", "gbp", "eur", "usd", "jpy", "%", "duration", "every", "times", "day", "week", "month",
                          "year"})


#: Units of measure (values.py's names) that say what is measured whether written as a sign or a word: "-5 °C" /
#: "minus two degrees", "9.5 kg" / "9,500 grams"; a count noun ("lanes", "rooms") pins it only when both say it.
_MEASURE_UNITS = frozenset({"degree", "fahrenheit", "km", "m", "mile", "kg", "g", "mg", "l", "ml", "gb", "mb", "tb"})


def _unit_noun(changed: tuple[str, ...], n: Statement, o: Statement) -> bool:
    """Whether the one changed value is a quantity whose unit is a word both statements say ("rooms", "hp"), or a
    unit of measure of one subject."""
    if len(changed) != 1 or not changed[0].startswith("q:"):
        return False
    unit = changed[0].removeprefix("q:")
    if unit in _MEASURE_UNITS:
        # ("kept at -5 °C" / "held at minus two degrees": a unit of measure pins it said either way); one subject
        # said whole by the other text ("the ice" / "the ice surface"; not "the main pool" / "the kids' pool")
        return bool(n.subject and n.subject <= o.stems or o.subject and o.subject <= n.stems)
    return unit not in _LOOSE_UNITS and stem(unit) in n.stems and stem(unit) in o.stems



#: A change verb that brings something to a value: "raise the membership to £75", "moved us to 97.8 FM".
_CHANGED_TO = re.compile(
    r"(?i)\b(?:rais|lower|increas|decreas|reduc|cut|mov|chang|switch|bump|put|push|extend|shorten|lengthen|"
    r"drop|hik|up)(?:e|es|ed|ing|s|ped|ping|ting)?\s+(?:[\w'’]+\s+){0,5}?to\s+(?:the\s+)?(?:[£$€¥]\s?)?\d"
)


#: Stems of words that say a quantity is measured, not what is measured: "costs £30", "comes to 288 pages", "is 320
#: pages long", "weighs 2 tonnes", "lasts 90 minutes", "reaches 32 metres", "runs to 400 pages", "totals £1,200",
#: "must be at least 16" / "the minimum age is 18" (a bare number bounding a person is an age); "members pay £12.80
#: a month" / "subs are £14.20 a month" (a price said by who pays it, held-out pairs 19).
_MEASURE = frozenset(stem(w) for w in (
    "cost costs come comes came total totals weigh weighs measure measures last lasts reach reaches run runs ran "
    "take takes took amount amounts long tall wide deep heavy hold holds held keep keeps kept age aged pay pays "
    # a height said by standing ("stands 14 inches at the shoulder", held-out pairs 21), a price paid
    "stand stands stood high paid"
).split())
#: "The set point is 18 °C": the value a controller holds, said as a noun ("is held at 22 °C").
_SET_POINT = frozenset({"set", "point"})
#: Stems of the words that say a price, beside "free" ("cards are free" / "cards cost £2").
_PRICE_WORDS = frozenset(stem(w) for w in "free cost costs charge charged price priced pay pays fee".split())
_FREE = re.compile(
    r"(?i)\b(?:(?:is|are|was|were|'s|’s|'re|’re|be|go|goes|ski|skis|ride|rides|travel|travels|park|parks|enter|"
    r"enters|stay|stays|eat|eats|play|plays)\s+free|for\s+free|free\s+of\s+charge|at\s+no\s+(?:extra\s+)?cost|"
    r"no\s+charge|costs?\s+nothing|doesn['’]t\s+cost\s+anything)\b(?![-‐])"
)
_MONEY = ("q:gbp", "q:eur", "q:usd", "q:jpy")


def _free_or_priced(n: Statement, o: Statement) -> bool:
    """Whether one says its subject is free ("Library cards are free for children", "ski free") and the other
    gives it a price ("cost £2"): a price and no price cannot both hold (held-out pairs 7). A text that says both
    ("free for members, £5 for guests") claims neither alone."""

    def priced(st: Statement) -> bool:
        return any(v > 0 for k in _MONEY for v in st.kinds.get(k, ()) if isinstance(v, float))

    a, b = found(_FREE, n.text), found(_FREE, o.text)
    return (a and not b and priced(o) and not priced(n)) or (b and not a and priced(n) and not priced(o))


def _aligned_less(c: Comparison, words: frozenset[str]) -> bool:
    """Whether the frames still differ once `words` are set aside."""
    return bool((c.only_new - words) or (c.only_old - words))


_NEGATED_PARTICIPLE = re.compile(r"(?i)\bun([a-z]{4,}ed)\b")


def _negated_participle(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether one says "un-X-ed" of what the other says "X-ed" ("must be escorted" / "can go in unescorted",
    "is locked" / "is left unlocked", "supervised" / "unsupervised"): a participle and its negation, the one
    antonym English forms by rule (held-out pairs 7). Not when one text says both, nor when another value word
    differs too ("the front door is locked" / "the back door is unlocked": two doors)."""
    for a, b in ((n, o), (o, n)):
        if not found(_NEGATED_PARTICIPLE, a.text):
            continue
        for m in _NEGATED_PARTICIPLE.finditer(a.text):
            word = m.group(1).lower()
            if word in b.tokens and "un" + word not in b.tokens and word not in a.tokens:
                pair = {stem(word), stem("un" + word)}
                if ((c.only_new & n.value_words()) | (c.only_old & o.value_words())) - pair:
                    return False
                return not any(w in _OPPOSITES for w in n.tokens ^ o.tokens)  # (stop words: "front" / "back")
    return False


def _kind_on_one_side(n: Statement, o: Statement) -> bool:
    """Whether a quantity counted in a unit noun is said by one statement only: it names a scope of the other
    ("Half loaves are £2.50" after "A sourdough loaf is £4.50"). Money, time and how often are loose ("School ends
    at 3:05 every day" / "The school day finishes at 3:30")."""

    def counted(kinds: dict[str, frozenset[object]]) -> set[str]:
        return {k for k in kinds if k.startswith("q:") and k.removeprefix("q:") not in _LOOSE_UNITS}

    # (a bare number takes the other's unit when its text says the unit's word: "seats six" / "four seats"; a measure
    # said in another system is said in the other's unit: "40 metres" / "about 60 feet", `comparison._measures_met`)
    kn, ko = _unit_said(n, o.kinds, n.kinds), _unit_said(o, n.kinds, o.kinds)
    return counted(_measures_met(kn, ko)) != counted(ko)


#: A change verb that takes something to a named place: "We switched the practice server over to Amsterdam", "I
#: transferred to the Bristol base", "The team relocated to Leeds".
_MOVED_TO = re.compile(
    r"(?i:\b(?:mov|switch|transferr|relocat|migrat|shift|chang)(?:e|es|ed|ing)?\s+(?P<thing>(?:[\w'’]+\s+){0,5}?)"
    r"(?:over\s+|back\s+)?to\s+(?:the\s+)?)(?P<place>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)"
)
_CLAUSE_START = re.compile(r"[.;:!?]\s+")
_POSSESSIVE = {"i": "my", "we": "our", "you": "your", "he": "his", "she": "her", "they": "their"}


#: A change told with its agent as the subject: "The hospital has preponed the 20 week scan to Monday", "The league
#: has shifted our netball games to court 7", "the physio has cut the heel slides to once a day". The thing changed
#: is the verb's object (up to five words after a determiner, which chat and notes leave out: "school moved parents'
#: evening to the 19th"; then the word that brings it somewhere).
_AGENT_CHANGE = re.compile(
    r"(?i)\b(?:(?:prepone|postpone|reschedule|move|shift|push|drop|raise|lower|increase|decrease|reduce|change|"
    r"switch|bump|extend|shorten|scrap|cancel)(?:d|s|ed|ped|led|ing)?|brought|cut|put)\s+"
    r"(?P<thing>(?:(?:the|our|my|his|her|their|its|your)\s+)?(?:[\w'’-]+\s+){0,5}?)"
    r"(?:to|from|forward|back|up|down|until|till)\b"
)


def changed_thing(text: str) -> frozenset[str]:
    """The stems of what a change told with its agent as the subject acts on (`_AGENT_CHANGE`), or none: the subject
    of such a sentence is who changed it ("the hospital", "the league"), which the old statement seldom names, and
    the thing changed is what it is about (held-out pairs 15 and 16)."""
    m = _AGENT_CHANGE.search(text)
    if m is None:
        return frozenset()
    stops = stop_words()
    return frozenset(stem(w) for w in re.findall(r"[\w'’-]+", m.group("thing").lower()) if w not in stops)


def _moved_to(n: Statement, o: Statement) -> bool:
    """A change told as an event that takes the old statement's subject to another named place: "We switched the
    practice server over to Amsterdam" after "Our practice server is in Frankfurt"; "I transferred to the Bristol
    base" after "My home base is Manchester" (held-out pairs 7: the event's words are most of the text, and the
    reason said with it, "for lower ping", is more than a swap of two words). What moved (the verb's object, or
    its subject when it has none) is the old subject, with no word it lacks ("Lena's friend moved to Lisbon" moves
    no "Lena"; a pronoun stands for its possessive: "I" is "my home base"); the new place is named and not in the
    old statement; the old statement names one place or name (its value) that the new text does not say."""
    m = _MOVED_TO.search(n.text)
    if m is None or not o.subject:
        return False
    place = {stem(w) for w in re.findall(r"[\w'’-]+", m.group("place").lower())}
    if place & o.stems or len(o.entity_words - n.stems - o.subject) != 1:
        return False
    thing = m.group("thing")
    if not thing.strip():
        thing = _CLAUSE_START.split(n.text[: m.start()])[-1]
    words = [w for w in re.findall(r"[\w'’]+", thing.lower())]
    stops = stop_words()
    content = {stem(w) for w in words if w not in stops and w not in _POSSESSIVE}
    if content:
        return content <= o.subject
    # a pronoun alone: "I transferred …" moves what the old statement calls "my …"
    first = o.text.split(maxsplit=1)[0].lower() if o.text.strip() else ""
    return any(_POSSESSIVE.get(w) == first for w in words)


def _count_and_members(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether the one changed value is a count on one side ("I have two sons": a number before its noun) and, on
    the other, a bare number said of that noun as the subject ("My sons are five and eight."): what the members
    are (their ages), not how many there are. `comparison._unit_said` gives the bare number the noun's unit."""
    if len(c.changed) != 1 or not c.changed[0].startswith("q:") or c.changed[0] == "q:":
        return False
    unit = stem(c.changed[0].removeprefix("q:"))
    return any(
        c.changed[0] in a.kinds and c.changed[0] not in b.kinds and "q:" in b.kinds and unit in b.subject
        for a, b in ((n, o), (o, n))
    )


def _another_value(n: Statement, o: Statement, c: Comparison, *, cue: bool) -> bool:
    """Whether a swapped word is another slot's value (`predicates.another_slot`: another subject or verb, "I live
    in Virginia" / "I used to live in Pennsylvania") or a second value of a predicate that holds many
    (`predicates.accumulates`: "I speak English" / "I speak French", "I am vegan" / "I am Catholic"); never an
    opposite swapped for its opposite ("left-handed" / "right-handed") nor an identity ("Lena is my manager").
    With an update or correction cue only another slot of a copula counts: a newer value replaces the old one."""
    if c.identity or _opposite_swapped(n, o):
        return False
    if cue:
        return predicates.another_slot(n.text, o.text, update=True)
    return predicates.another_slot(n.text, o.text) or predicates.accumulates(n.text, o.text)


def _denies_a_part(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether the negated statement names a narrower object of a predicate that holds many ("I like music." / "I
    don't like country music.", "I love yoga." / "I do not love hot yoga."): one value denied, not the other."""
    extra = c.only_new if n.negated else c.only_old
    return bool(extra) and predicates.accumulates(n.text, o.text)


def _opposite_swapped(n: Statement, o: Statement) -> bool:
    """Whether one says a word and the other its opposite ("left" / "right"); "single" beside "a waiter" is none."""
    return any(t in _OPPOSITES and _OPPOSITES[t] in o.tokens and _OPPOSITES[t] not in n.tokens for t in n.tokens)


def _negates(c: Comparison, *, cue: bool) -> bool:
    """Flipped polarity over the same values and frame (a word or so more on one side)."""
    if not (c.polarity and c.same_values and c.shared):
        return False
    extra_new, extra_old = len(c.only_new), len(c.only_old)
    return (extra_old == 0 and (cue or extra_new <= 1)) or (extra_new == 0 and extra_old <= 1)


def _scoped(changed: tuple[str, ...]) -> bool:
    """Whether a changed value comes with a changed day or date it holds for: "closes at 22:00 on weekdays" / "at
    18:00 at weekends", "leaves at 7:40 on Tuesday" / "at 18:20 on Friday" are two slots, not one value changed.
    (Changed days alone, or days with parts of the day, are one "when": "Saturday mornings" / "Wednesday
    evenings".)"""
    return any(k in _WHEN for k in changed) and any(k not in _WHEN for k in changed)


#: Stems of words that name one end of an interval: a start and a finish are two values of two slots ("The SATs
#: start on 12 May." / "The SATs finish on 15 May."), a start and a beginning are one.
_INTERVAL_ENDS = {
    **dict.fromkeys(("start", "begin", "open", "commenc", "kick"), "start"),
    **dict.fromkeys(("finish", "end", "close", "stop", "shut", "conclud", "expir"), "end"),
    **dict.fromkeys(("arriv", "land"), "arrive"),
    **dict.fromkeys(("leav", "depart"), "leave"),
}
#: Ordinals that pick one of several when said alone ("the second note"); "first", "next" and "last" said on one
#: side only are mostly redundant ("the van's next MOT" / "the van's MOT", "our first gig of the tour is in Leeds" /
#: "the tour opens in Leeds").
_DEICTIC_ORDINALS = frozenset({"first", "next", "last"})


def _ordinals_differ(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two statements name different ones of several: both name ordinals and they differ, or one names
    an ordinal that picks one ("second", "3rd") and the other none."""
    if a == b:
        return False
    if a and b:
        return True
    return not (a or b) <= _DEICTIC_ORDINALS


#: A rule that grants: "may" / "can" before a verb (not "may be", a guess), "is allowed", "are permitted", "are
#: welcome" (the deontic modals and their adjectives: a closed class).
_GRANTS = re.compile(
    r"(?i)\b(?:may|can)\s+(?!be\b|have\b|not\b|never\b)[a-z]|\b(?:allowed|permitted|welcome)\b"
)
#: A rule that forbids: a grant denied ("aren't allowed", "may not", "can't", "no … are permitted", "must never"),
#: or a word that forbids by itself.
_FORBIDS = re.compile(
    r"(?i)(?:\bnot|n['’]t|\bnever|\bno)\b[^.;!?]{0,40}?\b(?:allowed|permitted|welcome)\b"
    r"|\b(?:may\s+not|can\s*not|can['’]t|must\s+not|mustn['’]t|must\s+never)\b|\b(?:banned|prohibited|forbidden)\b"
    # an obligation to keep away from it: "has to avoid sesame", "must avoid the A34" (held-out pairs 16)
    r"|\b(?:must|has\s+to|have\s+to|needs?\s+to|should)\s+(?:always\s+)?(?:avoid|stay\s+away\s+from|keep\s+away\s+from)\b"
)
#: Words that widen a rule to every case ("anywhere on the site", "at any time", "even on blue lights", "apart
#: from assistance dogs": an exception says the rule is general), so a grant's narrower scope falls inside it.
_EVERY_CASE = re.compile(
    r"(?i)\b(?:any|anywhere|everywhere|anyone|anybody|anything|anytime|ever|whatever|whenever|wherever|at\s+all|even|"
    r"apart\s+from|except|other\s+than|under\s+any)\b"
)
#: Stems a grant or a ban says with: no part of what is granted.
_RULE_WORDS = frozenset(stem(w) for w in (
    "may can cannot can't allowed allow permitted permit welcome not no never must mustn't banned prohibited forbidden "
    "aren't isn't even apart except any anywhere anyone anything ever whatever avoid"
).split())


def _allowed_and_forbidden(n: Statement, o: Statement, c: Comparison, most: int, place_cosine: float) -> bool:
    """Whether one statement grants what the other forbids: "Visitors may feed the goats" / "Feeding the goats is
    not allowed", "Agency nurses can't be the nurse in charge" / "are allowed to take charge of the ward", "Campfires
    are allowed in the fire pit on each pitch" / "Open fires aren't allowed anywhere on the site" (held-out pairs 5,
    6, 11: the frames differ by the modal and the scope, which the flipped-polarity rule does not allow). What is
    granted must be said by both beyond a shared subject (a word, or a compound's head: "campfires" / "fires"); the
    rest of each side differs by at most `most` words, unless the ban covers every case ("anywhere", "at any time",
    "even …", "apart from …"), inside which the grant's narrower scope falls. Never a person's own abilities ("I
    can swim" / "I can't drive"): a rule is about others. A place both say is no thing granted ("Players may eat
    inside the rooms" / "No phones are allowed inside the rooms"): when the place is all they share and the ban is
    not on every case, the pair must reach `place_cosine` ("may take photos" / "no phones or cameras" inside the
    rooms)."""
    banned = found(_FORBIDS, n.text)
    if banned == found(_FORBIDS, o.text) or c.entities_differ:
        return False
    grant, ban = (o, n) if banned else (n, o)
    if grant.negated or not found(_GRANTS, grant.text):
        return False
    if _FIRST_PERSON.match(n.text) or _FIRST_PERSON.match(o.text):
        return False
    thing = (n.stems & o.stems) - (n.subject & o.subject) - _RULE_WORDS
    head = _compound_head(grant.tokens, ban.tokens)
    if not thing and not head:
        return False
    if found(_EVERY_CASE, ban.text):
        return True  # (a place shared with a ban on every case is kept: "picnics into the walled garden" / "food
        # and drink aren't allowed anywhere in the gardens", cosine 0.35; a closed set of words cannot tell it from
        # "No dogs are allowed anywhere on the balcony" / "Guests may smoke on the balcony")
    if not head and thing <= _place_words(n.text) | _place_words(o.text) and c.cosine < place_cosine:
        return False
    # each names its own place or time, none the other's: "Guests can park on the drive" / "Guests must not park on
    # the verge" (two places, two rules); not when one side says every word of the other's place, without its
    # preposition ("Dogs aren't allowed at Bushy parkrun." / "You can do Bushy parkrun with your dog on a short
    # lead.": "on a short lead" is a condition, the place is the grant's object; held-out pairs 17), but "the farm
    # shop" / "the farm shop café" are two places
    granted, banned_at = _place_words(grant.text) - _PREPOSITIONS, _place_words(ban.text) - _PREPOSITIONS
    in_grant, in_ban = (frozenset(stem(t) for t in st.tokens) for st in (grant, ban))  # (a weekday's too)
    if granted and banned_at and not (granted <= in_ban or banned_at <= in_grant):
        return False
    return len(c.only_new - _RULE_WORDS) <= most and len(c.only_old - _RULE_WORDS) <= most


#: A place said after its preposition ("inside the rooms", "on the balcony", "in the Castle Street pedestrian zone"):
#: the preposition and up to three words after it, a determiner skipped.
_PLACE = re.compile(
    r"(?i)\b(?P<prep>in|inside|into|on|onto|at|within|throughout|around|outside|near|through|across|along)\s+"
    r"(?:(?:the|a|an|our|your|their|his|her|its|this|that|these|those|each|every|any)\s+)?"
    r"(?P<words>[\w'’-]+(?:\s+[\w'’-]+){0,2})"
)


_PREPOSITIONS = frozenset(
    stem(w) for w in "in inside into on onto at within throughout around outside near through across along".split()
)


def _place_words(text: str) -> frozenset[str]:
    """Stems of the places `text` names after a preposition, and of the prepositions, up to a stop word."""
    stops = stop_words()
    out: set[str] = set()
    for m in _PLACE.finditer(text):
        out.add(stem(m.group("prep").lower()))
        for w in m.group("words").lower().split():
            if w in stops:
                break
            out.add(stem(w.replace("-", "")))
    return frozenset(out)


#: A statement about its speaker ("I can swim", "I'm not allowed sugar"): an ability or a personal rule, no house rule.
_FIRST_PERSON = re.compile(r"(?i)\s*(?:i|i['’]m|i['’]ve|i['’]d)\b")


def _compound_head(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether a content word of one ends with a content word of the other of four letters or more: the head of a
    compound ("campfires" / "fires", "lifejacket" / "jacket")."""
    stops = stop_words()
    wa = {w for w in a if len(w) >= 4 and w not in stops}
    wb = {w for w in b if len(w) >= 4 and w not in stops}
    return any(x != y and (x.endswith(y) or y.endswith(x)) for x in wa for y in wb)


#: A lower or an upper bound on a value, each in its closed set of English forms.
_LOWER_BOUND = re.compile(
    r"(?i)\b(?:minimum|min|at\s+least|or\s+(?:more|over|above|older)|and\s+(?:over|up|upwards|above|older)|"
    r"no\s+(?:fewer|less|younger)\s+than|not\s+(?:less|fewer)\s+than)\b"
)
_UPPER_BOUND = re.compile(
    r"(?i)\b(?:maximum|max|at\s+most|up\s+to|capped\s+at|or\s+(?:less|fewer|under|below|younger)|and\s+(?:under|below)|"
    r"no\s+(?:more|older)\s+than|not\s+more\s+than)\b"
)
#: Stems of the bound words a frame may hold ("the minimum weight"); "least", "most", "up to" are stop words.
_BOUND_WORDS = frozenset(stem(w) for w in "minimum min maximum max cap capped".split())


def _same_bound(n: Statement, o: Statement) -> frozenset[str]:
    """The bound words either frame may hold when both statements bound their value the same way, said in other
    words ("Coxes must weigh at least 55 kg." / "The minimum weight for coxes is 50 kg."; "up to 6 players" /
    "a maximum of eight people"); empty otherwise: a bound against a plain value ("weighs 55 kg" / "the minimum
    weight is 50 kg") is another attribute."""
    lower = (bool(_LOWER_BOUND.search(n.text)), bool(_LOWER_BOUND.search(o.text)))
    upper = (bool(_UPPER_BOUND.search(n.text)), bool(_UPPER_BOUND.search(o.text)))
    if lower[0] != lower[1] or upper[0] != upper[1] or not (lower[0] or upper[0]):
        return frozenset()
    return _BOUND_WORDS


_PARTICLES = ("through", "back", "away", "down", "over", "out", "off", "up", "in", "on")


def _other_particle(c: Comparison) -> bool:
    """Whether a frame word of one side is the other's phrasal noun with another particle ("checkin" / "checkout",
    `statement._PHRASAL_NOUN`): two slots (check-in and check-out times), not a synonym reworded."""
    def split(w: str) -> tuple[str, str] | None:
        p = next((p for p in _PARTICLES if w.endswith(p) and len(w) > len(p) + 2), None)
        return (w[: -len(p)], p) if p else None

    new = [x for x in map(split, c.only_new) if x]
    old = [y for y in map(split, c.only_old) if y]
    return any(a[0] == b[0] and a[1] != b[1] for a in new for b in old)


#: An identifier-like code: a letter first, then letters, digits and hyphens or dots, with a digit in it (region codes
#: "eu-west-1", versions "v2.3.1", plan and part codes "Pro-200", "FX-220", model numbers "M404dn", "TC52s").
_CODE = re.compile(r"(?<![\w.-])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?![\w-])")
_DIGITS = re.compile(r"\d")


@lru_cache(maxsize=4096)
def _codes(text: str) -> tuple[tuple[str, str, str], ...]:
    """The codes of `text`, lower-cased, each with the words right before and after it ("" at an end)."""
    out = []
    for m in _CODE.finditer(text):
        code = m.group(0)
        if not _DIGITS.search(code):
            continue
        before = re.findall(r"[\w'’]+", text[max(0, m.start() - 30) : m.start()].lower())
        after = re.findall(r"[\w'’]+", text[m.end() : m.end() + 30].lower())
        out.append((code.lower(), before[-1] if before else "", after[0] if after else ""))
    return tuple(out)


def _code_words(code: str) -> frozenset[str]:
    return frozenset(stem(w) for w in re.split(r"[-.]", code) if w and not w.isdigit())


def _codes_differ(n: Statement, o: Statement) -> bool:
    """Whether both statements give codes and they are not the same ones ("eu-west-1" / "us-east-2")."""
    if not (found(_DIGITS, n.text) and found(_DIGITS, o.text)):
        return False  # (a code has a digit)
    a, b = {x[0] for x in _codes(n.text)}, {x[0] for x in _codes(o.text)}
    return bool(a and b and a != b)


#: Stems of verbs whose object is one of many things the subject offers ("The shop stocks the R7000 groupset" /
#: "… the R7100 groupset": two products, not a model changed).
_HOLDS_MANY = frozenset(stem(w) for w in "stock stocks sell sells carry carries offer offers supply supplies "
                        "support supports serve serves list lists".split())


def _changed_code(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether an identifier-like code (`_CODE`) after the subject changed in the same slot, as a number would:
    "Heron runs on Kubernetes in the eu-west-1 cluster." / "Heron runs in the us-east-2 cluster."; "The filter is
    part FX-220." / "… part FX-310." The slot is a word beside the code said by both ("in", "cluster", "part");
    the codes of one side are none of the other's ("runs in eu-west-1 and us-east-2" holds both); the same subject,
    a code in it naming the thing ("Flight BA117" / "Flight BA119": two flights). Besides the codes, one side may
    name up to `most` more things (names: "on Kubernetes"), the other says nothing more."""
    if c.polarity or not (found(_DIGITS, n.text) and found(_DIGITS, o.text)):
        return False  # (a code has a digit)
    if not _same_subject(n, o) or c.subject_changed or c.shared & _HOLDS_MANY:
        return False
    if predicates.accumulates(n.text, o.text):
        return False  # "We have an R7000 and an R7100": two held, as "I speak English" / "I speak French"
    mine = [x for x in _codes(n.text) if not _code_words(x[0]) & n.subject]
    theirs = [x for x in _codes(o.text) if not _code_words(x[0]) & o.subject]
    if not mine or not theirs or {x[0] for x in mine} & {x[0] for x in theirs}:
        return False
    if not any((a[1] and a[1] == b[1]) or (a[2] and a[2] == b[2]) for a in mine for b in theirs):
        return False
    said = frozenset().union(*(_code_words(x[0]) for x in mine + theirs))
    extra_new, extra_old = c.only_new - said, c.only_old - said
    if extra_new and extra_old:
        return False
    extra, side = (extra_new, n) if extra_new else (extra_old, o)
    return len(extra) <= most and extra <= side.entity_words


#: An exclusive "only" beside what it restricts: "X only", "only X" ("is English only", "sells sourdough only",
#: "only takes card"); not "not only", "the only", "if only", nor "only" before a condition or a time ("only if",
#: "only after", "only just", "only ever").
_ONLY = re.compile(
    r"(?i)(?<!\bnot\s)(?<!\bthe\s)(?<!\ban\s)(?<!\bif\s)\b(?:only|exclusively|solely)\b"
    r"(?!\s+(?:if|when|once|after|before|until|till|just|ever|because|since|one|two|three|a|an)\b)"
)
#: Words that join the members of a list: "English and French", "cash or card", "tea, coffee".
_JOINED = (
    r"\s*(?:,|&|\band\b|\bor\b|\bplus\b|\bas\s+well\s+as\b)\s*"
    r"(?:(?:both|also|the|a|an|my|our|your|his|her|their)\s+)?"
)


def _only_against_list(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether one statement restricts with "only" what the other gives as a list with more members: "Hollowmere's
    voice acting is English only." / "… will ship with English and French voice acting."; "The clinic only takes
    card." / "The clinic takes cash and card." (held-out pairs 11). The side with "only" says nothing the list side
    does not (no scope of its own: "sells rye only on Saturdays"), the word beside "only" is a member of the list,
    and a word joined to it there is one the "only" side leaves out; or a number beside "only" is one the list gives
    among more of its kind ("claim 4 only" / "claims 1 and 4", held-out pairs 19). The same subject and polarity."""
    a, b = found(_ONLY, n.text), found(_ONLY, o.text)
    if a == b or c.polarity or not _same_subject(n, o):
        return False
    only, listed = (n, o) if a else (o, n)
    extra_only, extra_list = (c.only_new, c.only_old) if a else (c.only_old, c.only_new)
    if extra_only or not only.flat_values <= listed.flat_values:
        return False
    if not extra_list:  # "runs only on Sundays" / "runs on Saturdays and Sundays": fewer values of one frame
        return c.same_frame and only.flat_values < listed.flat_values
    near = set()
    for m in _ONLY.finditer(only.text):
        around = re.findall(r"[\w'’-]+", only.text[max(0, m.start() - 30) : m.start()].lower())[-1:]
        around += re.findall(r"[\w'’-]+", only.text[m.end() : m.end() + 40].lower())[:3]
        near |= {stem(w) for w in around}
    if any(w.isdigit() for w in near) and only.flat_values < listed.flat_values and any(
        len(listed.kinds.get(k, ())) > len(v) for k, v in only.kinds.items()
    ):
        return True  # a number beside "only" that the list gives among more: "claim 4 only" / "claims 1 and 4"
    low = listed.text.lower()
    for x in near & listed.stems:
        for y in extra_list:
            joined = rf"\b{re.escape(x)}\w*{_JOINED}{re.escape(y)}\w*|\b{re.escape(y)}\w*{_JOINED}{re.escape(x)}\w*"
            if re.search(joined, low):
                return True
    return False


def _code_replaced(n: Statement, o: Statement) -> bool:
    """Whether an update names the old statement's code-valued attribute again with another code: "The members'
    Wi-Fi password is cedarfloor22." / "We've rotated the members' Wi-Fi password: it's birchloft23 from today."
    (held-out pairs 11: the change verb and the colon leave no slot word beside both codes). One code on each side,
    not in a subject, not the same; every word of the old subject said by the new text."""
    mine = {x[0] for x in _codes(n.text) if not _code_words(x[0]) & n.subject}
    theirs = {x[0] for x in _codes(o.text) if not _code_words(x[0]) & o.subject}
    if len(mine) != 1 or len(theirs) != 1 or mine == theirs or n.negated or o.negated:
        return False
    return bool(o.subject) and o.subject <= n.stems


#: "single track" / "double track", "double-deckers" / "single-deck buses", "a twin room" / "a double room": how many
#: of a thing make it, said before the thing. A run of them is one word of one noun ("twin single beds": two single
#: beds, against "a double bed"; read word by word, "twin" took "single" for its noun: held-out pairs 17).
_MULTIPLE = re.compile(
    r"(?i)\b((?:single|double|twin|triple)(?:[\s-]+(?:single|double|twin|triple))*)[\s-]+([a-z]{3,})"
)


def _multiple_swapped(n: Statement, o: Statement) -> bool:
    """Whether one says "single" and the other "double" (or "twin", "triple") of the same thing: "The branch line is
    single track." / "… is double track all the way to the terminus."; "Route 7 is operated with double-deckers." /
    "… with single-deck buses." (held-out pairs 11, 12: no value and no frame to compare, the words are adjectives).
    One such word a side, of one noun (or a compound of it: "deck" / "deckers"), the same subject; a text that says
    two of them ("a single and a double room") claims neither alone."""
    if not (found(_MULTIPLE, n.text) and found(_MULTIPLE, o.text)):
        return False
    mine, theirs = _MULTIPLE.findall(n.text), _MULTIPLE.findall(o.text)
    if len(mine) != 1 or len(theirs) != 1 or not _same_subject(n, o):
        return False
    (a, x), (b, y) = mine[0], theirs[0]
    x, y = stem(x.lower()), stem(y.lower())
    a, b = (re.sub(r"[\s-]+", " ", w.lower()) for w in (a, b))
    return a != b and (x.startswith(y) or y.startswith(x))


#: "my favourite season", "our favorite animals", "Ben's all-time favourite film" (not "least favourite", "second
#: favourite", "one of my favourite …": one of several).
_FAVOURITE = re.compile(
    r"(?i)(?<!\bof\s)\b(?:my|our|his|her|their|your|[a-z]+['’]s)\s+(?:all-time\s+|very\s+)?favou?rite\s+"
    r"(?P<noun>[a-z]{3,}(?:\s+[a-z]+){0,2}?)(?=\s+(?:is|are|was|were)\b|\s*[.!?,;]|\s*$)"
)


def _favourites_differ(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether both name the same person's favourite of one kind and give it different values: "My favorite animals
    are dogs." / "Cats are my favorite animal."; "My favorite season is summer." / "My favorite seasons are fall and
    winter." (neighbours part: a favourite is one slot, said before or after its value, which the subject rule reads
    as two subjects). Each side names one favourite, of the same noun and owner, says at most `most` words the other
    does not (the values), and none of the other's; neither negates."""
    if not (found(_FAVOURITE, n.text) and found(_FAVOURITE, o.text)):
        return False
    a, b = _FAVOURITE.findall(n.text), _FAVOURITE.findall(o.text)
    if len(a) != 1 or len(b) != 1 or n.negated or o.negated:
        return False
    if [stem(w) for w in a[0].lower().split()] != [stem(w) for w in b[0].lower().split()]:
        return False  # "favorite baseball player" / "favorite baseball team": two kinds
    if "least" in n.tokens | o.tokens:
        return False
    owner = [m.group(0).split()[0].lower() for m in (_FAVOURITE.search(n.text), _FAVOURITE.search(o.text)) if m]
    if len(set(owner)) != 1:
        return False
    return bool(c.only_new and c.only_old) and len(c.only_new) <= most and len(c.only_old) <= most


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_FREE, _FORBIDS, _ONLY, _FAVOURITE, _MULTIPLE, _NEGATED_PARTICIPLE, _DIGITS)
