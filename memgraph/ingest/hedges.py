"""Hedged statements and their confirmations: "I think the threshold is £27,295?", "not sure but I think we went with
the sage doors", "the test is on Thursday, I think" say a value the speaker is unsure of; "Checked the order: the
doors are navy", "confirmed: 3 retries", "turns out it's the 10th" say it firmly. The hedge is no part of what is
said (its words are no frame word, its question mark asks nothing), and a firm statement after a hedged one of the
same subject settles it: a repeat when the value agrees, a correction when it changed (`reconcile.decide`).
"""

from __future__ import annotations

import re
from functools import lru_cache

#: How sure the speaker is not, said before the statement: "I think", "I'm fairly sure", "pretty sure", "not sure but
#: I think", "if I remember rightly", "IIRC" (after a filler: "um I think"). Not "I think of", "I think about" (a verb
#: with its object), nor "do you think" (a question).
_OPENER = re.compile(
    r"(?i)^\s*(?:(?:um+|uh+|er+m?|so|ok(?:ay)?|hmm+)\b[,.]?\s+)?"
    r"(?:(?:i['’]?m\s+)?not\s+(?:totally\s+|entirely\s+|completely\s+|quite\s+|100%\s+)?sure\s*(?:,\s*|\s+)(?:but\s+)?)?"
    r"(?:i\s+(?:think|believe|reckon|guess|suppose)(?!\s+(?:of|about|so)\b)"
    r"|(?:i['’]?m\s+|i\s+am\s+)?(?:fairly|pretty|quite|almost|reasonably)\s+(?:sure|certain)"
    r"|if\s+i\s+remember\s+(?:rightly|right|correctly)|iirc|afaik|as\s+far\s+as\s+i\s+know)"
    r"(?:\s+that)?\s*[,:-]?\s+"
)
#: The same said after it: "…, not totally sure though", "…? not sure", "… the 3rd, I think", "…, I believe".
_TRAILER = re.compile(
    r"(?i)(?:\s*[,;?-]\s*|\s+)(?:(?:but\s+)?(?:i['’]?m\s+)?not\s+(?:totally\s+|entirely\s+|completely\s+|quite\s+|100%\s+)?"
    r"sure(?:\s+though)?|i\s+(?:think|believe|reckon)|iirc)\s*[.?!]*\s*$"
)
#: A firm statement's opener: a confirmation ("Confirmed:", "Definitely", "Turns out", "It turns out that") or a
#: source checked, said before a colon ("Checked the order:", "Found the passenger manifest:", "checked on gov.uk:",
#: "Looked it up:"): a past verb of checking and up to five words.
_FIRM = re.compile(
    r"(?i)^\s*(?:(?:confirmed|confirmation|definitely|certainly|for\s+sure|(?:it\s+)?turns\s+out(?:\s+that)?|"
    r"turned\s+out(?:\s+that)?)\b\s*[,:-]?\s*"
    r"|(?:just\s+)?(?:checked|found|looked|rang|called|asked|double-checked|verified)\b[^:.!?;,]{0,40}:\s*)"
)
#: A verb of doubt that keeps a statement hedged wherever it stands ("… is the Irene, not totally sure though").
_DOUBT = re.compile(r"(?i)\bnot\s+(?:totally\s+|entirely\s+|completely\s+|quite\s+|100%\s+)?sure\b")


#: Doubt said in so many words: "not sure", "IIRC", "pretty sure", "probably", "maybe", a closing question mark. A bare
#: "I think" / "I believe" says an opinion as often as a guess ("I think food trucks are awesome."): Multi-Session
#: Chat's personas open a third of their opinions so, and read as guesses, every later statement of the same subject
#: corrected them (28 false supersedes in 6,000 personas).
_UNSURE = re.compile(
    r"(?i)\b(?:not\s+(?:totally\s+|entirely\s+|completely\s+|quite\s+|100%\s+)?sure|unsure|iirc|afaik|"
    r"if\s+i\s+remember(?:\s+\w+)?|as\s+far\s+as\s+i\s+know|i\s+reckon|(?:fairly|pretty|quite|almost|reasonably)\s+"
    r"(?:sure|certain)|probably|maybe|perhaps|might\s+be|i\s+guess)\b|\?\s*$"
)


def doubtful(text: str) -> bool:
    """Whether `text` says its doubt in words of doubt (`_UNSURE`), not only with an "I think" an opinion shares."""
    return _UNSURE.search(text) is not None


@lru_cache(maxsize=16384)
def hedged(text: str) -> bool:
    """Whether `text` says its statement unsurely: a hedge before it or after it (`_OPENER`, `_TRAILER`), or "not
    sure" anywhere in it. Cached: the write path asks of both texts of every pair."""
    return bool(_OPENER.match(text) or _TRAILER.search(text) or _DOUBT.search(text))


def firm(text: str) -> bool:
    """Whether `text` opens as a confirmation or a source checked ("Confirmed: …", "Checked the order: …")."""
    return _FIRM.match(text) is not None


@lru_cache(maxsize=16384)
def unhedged(text: str) -> str:
    """`text` as the statement it makes: without a hedge before or after it, nor a confirmation's opener ("I think
    my tiles come out on Thursday?" -> "my tiles come out on Thursday"; "Checked the order: the doors are navy" ->
    "the doors are navy"). A hedged statement's question mark goes with its hedge; a text that is all hedge is kept."""
    out = text
    m = _OPENER.match(out) or _FIRM.match(out)
    if m is not None and m.end() < len(out):
        out = out[m.end():]
    t = _TRAILER.search(out)
    if t is not None and t.start() > 0:
        out = out[: t.start()]
    if out is not text and (m is not None and _OPENER.match(text) or t is not None):
        out = out.rstrip().rstrip("?").rstrip()
    return out if out.strip() else text
