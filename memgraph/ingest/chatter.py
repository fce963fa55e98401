"""Chat's voice, read as what it says: how the write-path rules see a memory typed as a message.

People type memories the way they type messages: "season tkt expires 14/3", "hi all - quick one: the office wifi
password changes to Falcon22 from Monday. thanks, M". The rules compare the words of two statements (their frames,
subjects and values), so an abbreviation ("tkt" for "ticket") or a greeting and a sign-off around the fact made a
restatement read as another statement, and a correction cue after a greeting ("hey, actually ...") went unseen.
Two readings, for the rules' parse only (`statement.py`): the stored text, the full-text terms and the vectors are
unchanged.
- `WORDS`: chat abbreviations that are no other English word, read as the word they stand for ("tkt" -> "ticket").
  Forms that are also words or common names ("min", "doc", "apt", "sat", "bc") are left out: a wrong expansion
  would make two statements about different things share a word.
- `strip_chatter`: a greeting or an addressee that opens a pasted message ("hi all -", "Hey team,", "@here fyi")
  and a sign-off that closes it ("thanks, M", "Cheers, Sam", "thx"), cut when a statement of three words or more
  is left between them.
"""

from __future__ import annotations

import re

#: Chat abbreviation -> the word it stands for (lower case, as `text.tokenize` gives them).
WORDS: dict[str, str] = {
    "tkt": "ticket", "tkts": "tickets", "appt": "appointment", "appts": "appointments", "mtg": "meeting",
    "mtgs": "meetings", "tmrw": "tomorrow", "tmr": "tomorrow", "tmrow": "tomorrow", "2moro": "tomorrow",
    "tomoz": "tomorrow", "yday": "yesterday", "pls": "please", "plz": "please", "thx": "thanks", "yr": "year",
    "yrs": "years", "wk": "week", "wks": "weeks", "wknd": "weekend", "wkend": "weekend", "hrs": "hours",
    "bday": "birthday", "ppl": "people", "msg": "message", "msgs": "messages", "govt": "government",
    "dept": "department", "approx": "approximately", "b4": "before", "cuz": "because", "coz": "because",
    "abt": "about", "convo": "conversation", "mgr": "manager", "reqd": "required", "avail": "available",
    "acct": "account", "amt": "amount", "qty": "quantity", "uni": "university", "tonite": "tonight",
    "nite": "night", "thru": "through", "tho": "though", "sched": "schedule", "hubby": "husband", "meds":
    "medication", "pics": "pictures", "flt": "flight", "hosp": "hospital", "wkly": "weekly", "mthly": "monthly",
    "yrly": "yearly", "diff": "different", "info": "information",
}

_NAME = r"(?:[A-Z][\w'’-]*\.?(?:\s+[A-Z][\w'’-]*\.?)?|[A-Z]{1,3})"
#: A greeting, with whom it greets, and what follows it before the fact ("hi all - quick one:", "Hey team,",
#: "Hello Sam!", "@here fyi"): an opener of three short words at most, closed by a dash, comma, colon or "!".
_GREETING = re.compile(
    r"^\s*(?:(?:hi|hey|hello|hiya|heya|yo|morning|good\s+(?:morning|afternoon|evening)|dear)\b"
    r"(?:\s+[\w'’@-]+){0,3}?\s*[-–—,:!]+\s*"
    r"|@(?:here|channel|everyone|all)\b[\s,:-]*)"
    r"(?:(?:fyi|quick\s+(?:one|q|note|update)|psa|just\s+(?:a\s+)?(?:fyi|note))\b\s*[-–—,:!]*\s*)?",
    re.IGNORECASE,
)
#: "fyi" / "quick one" alone opening a message.
_FYI = re.compile(r"^\s*(?:fyi|quick\s+(?:one|note)|psa)\b\s*[-–—,:!]+\s*", re.IGNORECASE)
#: A sign-off closing a message, with its signature: ". thanks, M", ". Cheers, Sam.", ", thx!", " - Best, J". It must
#: follow a sentence's end, a comma or a dash ("This one is the best" keeps its last word).
_SIGN_OFF = re.compile(
    r"(?:[.!?,;]|\s[-–—])\s*(?i:thanks|thank\s+you|thx|ty|cheers|ta|best|regards|kind\s+regards|many\s+thanks"
    r"|tia|speak\s+soon)\b[\s,!.]*(?:[-–—]?\s*" + _NAME + r")?[\s.!]*$"
)


def strip_chatter(text: str) -> str:
    """`text` without a pasted message's greeting and sign-off, when three words or more are left."""
    out = _GREETING.sub("", text, count=1)
    out = _FYI.sub("", out, count=1)
    out = _SIGN_OFF.sub("", out, count=1).rstrip(" ,;-–—")
    if out == text or len(out.split()) < 3:
        return text
    return out if out[-1:] in ".!?" or text.rstrip()[-1:] not in ".!?" else out + text.rstrip()[-1]
