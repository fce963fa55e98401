"""Chat's voice, read as what it says: how the write-path rules see a memory typed as a message.

People type memories the way they type messages: "season tkt expires 14/3", "hi all - quick one: the office wifi
password changes to Falcon22 from Monday. thanks, M". The rules compare the words of two statements (their frames,
subjects and values), so an abbreviation ("tkt" for "ticket") or a greeting and a sign-off around the fact made a
restatement read as another statement, and a correction cue after a greeting ("hey, actually ...") went unseen.
Two readings, for the rules' parse only (`statement.py`): the stored text, the full-text terms and the vectors are
unchanged.
- `WORDS`: chat abbreviations that are no other English word, read as the word they stand for ("tkt" -> "ticket");
  `INTERJECTIONS` ("lol", "ngl", "smh"): no content of a statement.
  Forms that are also words or common names ("min", "doc", "apt", "sat", "bc") are left out: a wrong expansion
  would make two statements about different things share a word.
- `strip_chatter`: the envelope of a pasted message, its greeting ("hi all -", "Hey team,", "@here fyi") and its
  sign-off ("thanks, M", "Cheers, Sam", "Kind regards,\nJane"), and dictation's fillers ("um", "uh"), cut when a
  statement of three words or more is left between them. The envelope's patterns are this module's; gap detection
  reads a request out of the same envelope (`retrieve/gap_question.py`).
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
    # text-speak: pronouns and function words said short are the stop words they stand for (`statement.py`
    # leaves them out of a frame as it does the written words), and a few family and thing words
    "u": "you", "ur": "your", "ya": "you", "wat": "what", "bc": "because", "cos": "because",
    "gonna": "going", "wanna": "want", "bro": "brother", "sis": "sister", "txt": "text", "pic": "picture",
    "rly": "really", "prolly": "probably",
}
#: Chat's interjections: they say how the writer feels about a fact, never the fact ("the sync is on wed now lol"),
#: so a frame leaves them out as it does stop words.
INTERJECTIONS = frozenset("lol lmao rofl smh omg ngl tbh btw imo imho haha hahaha hehe ugh meh yay".split())

#: Whom a greeting greets: a name (a capital), a mention, or the group ("all", "team").
ADDRESSED = r"(?:@[\w.-]+|(?-i:[A-Z])[\w.'’-]*|all|everyone|everybody|team|folks|guys|there|both|mate)"
GREETING_WORD = (
    r"(?:hi|hello|hey|hiya|heya|yo|dear|greetings|morning|afternoon|evening|good\s+(?:morning|afternoon|evening|day))"
)
#: A message's greeting: "Hi Sam,", "Dear Mr Patel,", "Morning all,", "Hey @tom -", "hi sam" or "hello team" on a line
#: of its own, "hey jo,", "@channel", "quick one -". Then a comma, colon, dash, "!" or the line's end. Not a word
#: of the day opening a statement: "Morning run done, 5k", "Evening walk with Biscuit, 3 miles", "Dear diary, ...".
GREETING = re.compile(
    r"(?i)^\W*(?:" + GREETING_WORD + r"(?:\s+" + ADDRESSED + r"){0,3}\s*(?:[,:!–—-]+|\n)|"
    r"" + GREETING_WORD + r"(?:\s+[a-z][\w.'’-]*){0,3}[ \t]*\n|"
    r"@[\w.-]+\s*[,:–—-]?|quick\s+(?:one|q|question)\s*(?:[,:!–—-]+|\n))\s*"
)
#: A chat message's markup: a mention ("<@U024BE7LH>", "<!here>") and an emoji code (":pray:", ":+1:").
MARKUP = re.compile(r"<[@!#][\w|.-]+>|(?<![\w:]):[a-z0-9_+-]+:(?![\w:])")
#: What a mail program adds below a message: "Sent from my iPhone".
SENT_FROM = re.compile(r"(?i)\n\s*sent\s+from\s+my\s+[\w ]+\s*$")
#: A pleasantry of a letter, a sentence of its own: "I hope you are well.", "Hope all's good!", "Sorry to bother you."
PLEASANTRY = re.compile(
    r"(?i)^\W*(?:i\s+)?hope\s+(?:you|all|this|everything)\b[^.!?\n]*\b(?:well|good|ok|okay|fine)\b[^.!?\n]*[.!]?\s*$|"
    r"^\W*sorry\s+to\s+(?:bother|trouble|chase)\b[^.!?\n]*[.!,]?\s*$"
)
#: A sign-off closing a message, with the sender's name or not: "Thanks,\nNoor", "Kind regards,\nJane Smith",
#: "Cheers, Hana", "? ta", "thanks\nnoor". Only after a sentence end, a comma or a line break.
SIGN_OFF = re.compile(
    r"(?i)(?:(?<=[.!?])|[,;]|\n|\s[–—-])\s*(?:many\s+thanks|thanks(?:\s+(?:so\s+much|a\s+lot|in\s+advance|again))?|"
    r"thank\s+you(?:\s+(?:so\s+much|in\s+advance))?|cheers|ta|thx|tia|(?:kind\s+|best\s+|warm\s+)?regards|"
    r"best(?:\s+wishes)?|all\s+the\s+best|speak\s+soon|talk\s+soon|yours\s+(?:sincerely|faithfully|truly)|ty|x+)"
    r"(?P<mark>[\s,!.]*)"
    r"(?:(?-i:[A-Z][\w.'’-]*)(?:[ \t]+(?-i:[A-Z])[\w.'’-]*){0,2}|[a-z]+)?[ \t.!]*"
    # a signature below the name: a few short lines (a role, a company, a number)
    r"(?:\n[^\n?]{0,60}){0,3}\s*$"
)
#: A dictated filler, said while thinking and typed by speech-to-text: "um so the boiler man comes on the 23rd", "uh
#: what time is the midwife". Not "er" (the ER) nor "ah" (a name's part); "like" and "so" are words of their own.
FILLER = re.compile(r"(?i)(?<![\w'’-])(?:u+m+|u+h+m*|e+r+m+|hm+)(?![\w'’-])[,.…]*\s*")
#: A notice's label opening a message, after its greeting or alone: "fyi", "FYI:", "PSA -", "quick note:".
FYI = re.compile(r"(?i)^\W*(?:fyi|psa|quick\s+(?:note|update))\b\s*[-–—,:!]*\s*")


def opened(text: str) -> str:
    """`text` with its markup, "Sent from my ...", dictation's fillers and up to two greetings ("hi all - quick one:")
    cut: how a pasted message opens, for the rules' parse (`strip_chatter`) and for gap detection's request
    (`retrieve.gap_question.unwrap`) alike."""
    body = FILLER.sub("", SENT_FROM.sub("", MARKUP.sub(" ", text))).strip()
    return GREETING.sub("", GREETING.sub("", body, count=1), count=1)


#: A list whose first line is an item: "- car: Mazda 3\n- insurance: NRMA" (its first dash is the list's, not a cut).
_BULLETED = re.compile(r"\s*([-–—*•])[ \t]+\S[^\n]*\n(?:[^\n]*\n)*?[ \t]*\1[ \t]+\S")


def strip_chatter(text: str) -> str:
    """`text` without a pasted message's envelope (its markup, greeting, notice label, sign-off and "Sent from my
    ..."), when three words or more are left; `retrieve.gap_question.unwrap` reads a request out of the same
    envelope."""
    body = FYI.sub("", opened(text), count=1)
    # a dash the envelope's cut leaves first ("hi Sam - quick one: ...") goes; a list's first bullet stays
    listed = _BULLETED.match(body) is not None
    m = SIGN_OFF.search(body)
    if m and body[: m.start()].strip():
        body = body[: m.start()]
    body = body.rstrip(" \t\n,;-–—").lstrip(" \t\n,;" if listed else " \t\n,;-–—")
    if body == text or len(body.split()) < 3:
        return text
    return body
