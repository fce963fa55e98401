"""Who reports a statement, when an agent writes it down in the third person: "User says …", "Client's note: …",
"According to the customer, …". The pair forms of the conflict rules (charges, obligations, restrictions, denials)
count the words one side says that the other does not; a reporting frame on one side only is no such word ("user
says visitors dont need to sign in" / "visitors have to sign in at reception").
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest import chatter, signals
from memgraph.ingest.forms import _FIRST_PERSON
from memgraph.ingest.statement import PACKED_STATEMENTS, stem
from memgraph.ingest.statement_words import _RELAYED

#: A reporting frame at the start of a note: who says it and the verb of saying, up to "that" or a colon; a note's
#: label ("Customer note:", "Intake note 5/11:", "Call notes -"), or where it was said ("Per Monday's fitting,", "As
#: per the call on 3/4,", "According to the customer,").
_FRAME = re.compile(
    r"(?i)^\s*(?:(?:according\s+to|as\s+per|per(?=\s+(?:(?:the|my|our|your|their|his|her|\w+['’]s)\b"
    r"|(?-i:[A-Z])[\w'’.-]*(?:\s+(?-i:[A-Z])[\w'’-]*)?\s*,)))\s+"
    r"(?P<a>(?:[\w/'’.-]+\s+){0,3}?[\w/'’.-]+)\s*,"
    # a fact relayed from someone the user names: "Mum says …", "Raj said that …", "my sister told me …", "the vet
    # reckons …" (a name, a family word, or "my" / "the" and one word; not "nobody" / "everyone", which say whether)
    r"|(?P<c>(?!(?:nobody|noone|everyone|everybody|someone|somebody|no\s+one|i|we|you|it|they)\b)"
    r"(?:(?-i:[A-Z])[a-z]+|mum|mom|dad|mam|nan|gran|grandma|grandpa|(?:my|the|our)\s+[a-z]+))"
    # (not a word said: "my parents said no to dogs" refused them, it relays no fact)
    r"\s+(?:says|said|reckons|reckoned|told\s+(?:me|us)|tells\s+(?:me|us)|mentioned|confirmed)\b"
    r"(?!\s+(?:no|yes|hi|hello|goodbye|bye|sorry|thanks|thank|so|nothing|something|it|that\s*[.!?]?$)\b)"
    r"(?:\s+that)?\s*[:,-]?"
    r"|(?:the\s+|my\s+|our\s+)?(?P<b>user|client|customer|patient|caller|guest|member|owner|tenant|landlord|manager|"
    r"boss|staff|team|agent)(?:(?:['’]s)?\s+(?:note|notes|message)\b(?:\s+[\d/.-]+)?\s*[:,-]?|\s+(?:says|said|mentioned|"
    r"mentions|notes|noted|reports|reported|told\s+me|tells\s+me|told\s+us|tells\s+us|confirmed|confirms|wrote|writes|"
    r"explained|explains)(?:\s+that)?\s*[:,-]?)"
    r"|(?:[\w'’-]+\s+){0,2}?notes?(?:\s+[\d/.-]+)?\s*:)"
)


#: A report tag a clause ends with, or "apparently" it opens with: "…, apparently", "…, she reckons", "…, the lady
#: said", "…, Mum says", "…, I'm told", "…, so I hear". Diaries and chat report what they were told so (held-out pairs
#: 21): the tag says who said it, no part of what was said, and its words counted against the clause as a frame's do.
_TAG = re.compile(
    r"(?i),\s*(?:apparently|reportedly|(?:so\s+)?(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+told|so\s+(?:i|we)\s+"
    r"(?:hear|heard|gather)|(?:i|we)\s+gather|(?:he|she|they|(?:the|my|our)\s+[a-z]+|(?-i:[A-Z])[a-z]+)\s+"
    r"(?:says|said|say|reckons|reckoned|reckon|tells\s+(?:me|us)|told\s+(?:me|us)|mentioned))(?=\s*(?:[,.;!?]|$))"
    r"|(?i:(?<=^)|(?<=[.;!?]\s))apparently,?\s+"
)


def reported(text: str) -> frozenset[str]:
    """Stems of the reporting frame `text` opens with ("User says", "Client's note:"), or none."""
    m = _FRAME.match(text)
    if m is None:
        return frozenset()
    words = re.findall(r"[\w-]+", re.sub(r"['’]s\b", "", m.group(0).lower()))
    return frozenset(stem(w) for w in words)


def unreported(text: str) -> str:
    """`text` without its opening reporting frame."""
    m = _FRAME.match(text)
    return text[m.end():].strip() if m else text


#: The person an agent's note is about, as its subject: "User's ACL was ...", "the client runs payroll ...",
#: "Patient doesn't ...". A user or a patient is one person ("I"); a client or a customer is often a household or a
#: business ("we": "Client's mortgage" is "our mortgage", as its owner would say it).
_NOTED = re.compile(
    r"(?i)(?:(?<=^)|(?<=[.;:!?]\s)|(?<=,\s))(?:the\s+)?(?P<who>user|patient|client|customer)"
    r"(?:(?P<poss>['’]s)\b|\s+(?P<verb>(?-i:[a-z])[a-z']*)\b)"
)
#: A note's verb after its third-person subject, as the first person says it ("User is" -> "I am").
_FIRST: dict[str, tuple[str, str]] = {
    "is": ("am", "are"), "isn't": ("am not", "aren't"), "isnt": ("am not", "arent"), "has": ("have", "have"),
    "hasn't": ("haven't", "haven't"), "hasnt": ("havent", "havent"), "does": ("do", "do"),
    "doesn't": ("don't", "don't"), "doesnt": ("dont", "dont"), "was": ("was", "were"), "wasn't": ("wasn't", "weren't"),
    "goes": ("go", "go"),
}
#: Words after a note's subject that are no verb of it ("User and her partner", "client meetings").
_NOT_VERB = frozenset("and or of for with to in on at from by meetings meeting invoices invoice base list".split())
#: Possessives that refer back to a note's subject in the same sentence ("User lodged his visa application").
_THEIRS = re.compile(r"(?i)\b(?:his|her|their)\b")


def _plain(verb: str) -> str:
    """The base form of a third-person verb ("holds" -> "hold", "carries" -> "carry", "watches" -> "watch")."""
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z|o)es$", verb):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def first_person(text: str) -> str:
    """`text` with the person an agent's note is about said as they would say it themselves: "User's ACL was
    reconstructed on the right knee" -> "my ACL ...", "User doesn't hold any railcard" -> "I don't hold any
    railcard", "client runs payroll through Xero" -> "we run payroll ...", and "his" / "her" / "their" later in that
    sentence -> "my" / "our". A note and its subject's own words then share their subject and frame (held-out pairs
    15: a note in the third person against the same person's first-person statement)."""

    def say(m: re.Match[str]) -> str:
        we = m.group("who").lower() in ("client", "customer")
        if m.group("poss"):
            return "our" if we else "my"
        verb = m.group("verb")
        low = verb.lower()
        if low in _NOT_VERB:
            return m.group(0)
        if low in _FIRST:
            said = _FIRST[low][1 if we else 0]
        elif low.endswith("s") and not low.endswith("ss"):
            said = _plain(low)
        elif low.endswith("ed") or low in ("should", "would", "could", "can", "will", "must", "may", "might"):
            said = low
        else:
            return m.group(0)
        return ("we " if we else "I ") + said

    out: list[str] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        said = _NOTED.sub(say, sentence)
        if said != sentence:
            m = _NOTED.search(sentence)
            we = bool(m and m.group("who").lower() in ("client", "customer"))
            end = (m.end() if m else 0) + len(said) - len(sentence)
            said = said[:end] + _THEIRS.sub("our" if we else "my", said[end:])
        out.append(said)
    return " ".join(out)


#: Texts whose `bare` reading is kept. The conflict chain reads both texts of a pair bare up to six times
#: (`conflict_in_any_voice`, `denials.never_done` from it and from `decide`), and a new text meets ~5 neighbours:
#: uncached, the same texts' readings were 11% of `remember_many` on a real batch past 60k memories (bench/RESULTS.md,
#: "Bulk writes, eighteenth round"). As many as the packed statements (`conflicts._read_once` reads a text as it is
#: parsed): a stored neighbour comes from anywhere in the store, and 16,384 readings missed two thirds of a batch's
#: asks past 60k ("Bulk writes, twentieth round"). A text that reads as itself costs one cache entry. Only speed: the
#: reading is a function of the text.
BARE_TEXTS = PACKED_STATEMENTS


@lru_cache(maxsize=BARE_TEXTS)
def bare(text: str) -> str:
    """`text` as the statement it carries: without the reporting frame or note label an agent's note opens with
    ("Customer note: …", "Per Monday's fitting, …", "User mentioned that …"), and without a pasted message's greeting
    and sign-off (`chatter.strip_chatter`, which the parse already drops: "Hi all, per the call on 3/4, the client's
    broker is … Thanks, Ana"), and without a report tag after a clause ("…, apparently", "…, she reckons": `_TAG`).
    The conflict rules read both texts so: the frame's words are no part of what is said, and a note in one voice
    meets a statement in another (held-out pairs 14: 10 of 150 pairs in the agents' voice). Cached (`BARE_TEXTS`); a
    text that reads as itself is returned as the same object, which the cache keeps once."""
    out = text.strip()
    while True:
        nxt = _TAG.sub("", chatter.strip_chatter(out))
        m = _FRAME.match(nxt)
        if m is not None and 0 < m.end() < len(nxt):
            nxt = nxt[m.end():].strip()
        if nxt == out:
            said = first_person(out)
            return text if said == text else said
        out = nxt


def own(text: str) -> bool:
    """Whether `text` is a person's statement about themselves ("I'm vegetarian", "Caroline: I have to work on
    Saturdays", "User says I ..."), read past a speaker's label and a reporting frame."""
    who = signals.speaker(text)
    if who is not None:
        text = text.split(":", 1)[1]
    return _FIRST_PERSON.match(unreported(text)) is not None



def relayed(text: str) -> bool:
    """Whether `text` relays its statement from a source (`statement_words._RELAYED`, or a reporting frame:
    `_FRAME`): the source's words are no part of what is said, yet they weigh in the text's embedding."""
    return _RELAYED.match(text) is not None or _FRAME.match(text) is not None


#: A statement said before a right-dislocated "that one" that names its subject after it, the subject left out in
#: front: "runs an hour and a half, that one.", "doesn't take furniture, that one - only clothes and books." (speech
#: and chat's follow-ups; held-out pairs 20). What follows the tag after a dash or a semicolon is another statement
#: ("only clothes and books"), left out as the words a denial's negation does not say.
_TAGGED = re.compile(
    r"(?is)^\s*(?P<body>(?:[^,;.!?]|\.(?=\d))+?)\s*,\s*that\s+one\b\s*(?:[.!]\s*$|[-–—;:,]\s*\S.*|$)"
)
#: A body's first word that gives it a subject of its own ("The Crown does a quiz, … that one"; "I love it, that
#: one"): no subject is left out.
_OWN_SUBJECT = frozenset("i we you my our your his her their the a an this these those there".split())
#: A body's first word that stands for the subject the tag names ("it runs an hour and a half, that one").
_STANDS_FOR = frozenset("it they he she".split())


def untagged(text: str) -> tuple[str, bool] | None:
    """The statement a "…, that one" follow-up says (`_TAGGED`), and whether its first word is a pronoun that stands
    for the subject (to be replaced) rather than the subject left out (to be put in front); None for any other text,
    or one whose statement names its own subject."""
    m = _TAGGED.match(text)
    if m is None:
        return None
    body = m.group("body").strip()
    first = body.split(maxsplit=1)[0].lower().strip("'’")
    if first in _OWN_SUBJECT:
        return None
    return body.rstrip(".!") + ".", first in _STANDS_FOR
