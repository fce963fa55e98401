"""Gap detection, reading the query: is it a question or a request, what does it ask, and which part of it is
the scene ("walk-in is showing 7 degrees, what do I do?"). `memgraph.retrieve.gaps` says why each rule is there."""

from __future__ import annotations

import re

from memgraph.ingest import chatter
from memgraph.text import stop_words, tokenize

_QUESTION_START = re.compile(
    r"(?i)^\W*(?:(?:and|so|ok(?:ay)?|also|hey|hi|please|quick\s+question)[,:]?\s+)*"
    r"(?:what|when|where|who|whom|whose|which|why|how|is|are|was|were|do|does|did|can|could|should|shall|will|"
    r"would|may|might|have|has|had|am|isn't|aren't|don't|doesn't|didn't|won't|wouldn't|can't|couldn't|"
    r"shouldn't|what's|where's|who's|when's|how's|whats|wheres|whos|whens|hows|"
    # chat spellings of the question words ("wat time do we start", "wich night do the bins go out")
    r"wat|wot|wen|wich|wher|whch|"
    # a preposition before the question word: "till what time are the cleaners in", "on which day is it taken"
    r"(?:till|until|by|from|on|at|in|for|to|about|roughly|exactly)\s+(?:what|which|whose|whom|when|where|how))\b"
)
#: Without a question mark a negated auxiliary opens an instruction ("don't book anything before 10am"), not a
#: question ("Don't we have a spare key?" keeps its mark).
_NEGATED = re.compile(
    r"(?i)^\W*(?:please\s+)?(?:isn't|aren't|don't|doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't)\b"
)
#: A question word with its verb (one word may sit between: "what time is"): a question wherever it stands, where a
#: bare "when you draft emails for me, keep them short" opens a condition.
_WH_VERB = re.compile(
    r"(?i)^\W*(?:(?:till|until|by|from|on|at|in|for|to)\s+)?(?:what|when|where|who|which|why|how|wat|wot|wen|wich|"
    r"wher)\s+(?:[\w'’-]+\s+)?(?:is|are|was|were|do|does|did|can|could|should|shall|will|would|has|have|r)\b|"
    r"^\W*(?:what's|where's|who's|when's|how's|whats|wheres|whos|whens|hows)\b"
)
#: A short check after a scene, its question mark dropped ("family wants to bring their spaniel, ok", "tin of ham
#: past its use by, ok to give out", "writing a migration that drops a column, anything to watch out for").
_CHECK = re.compile(
    r"(?i)^\W*(?:ok(?:ay)?|fine|allowed|normal|alright|safe|good\s+to\s+go|any|anything|anyone|anybody)\b"
)
#: "any lint step i should run before opening the pr", "anything to bring": a need after "any", where "any day but
#: friday works for me" states a preference and "any change to prod must be reviewed" a rule.
_ANY = re.compile(
    r"(?i)^\W*(?:(?:any|anything|anyone|anybody)\b(?:\s+[\w'’-]+){0,5}\s+(?:i|we|you)\s+(?:should|need|must|have\s+to|"
    r"can|could|ought)|anything\s+to)\b"
)
_SUBJECT = r"(?:i|we|you|u|he|she|they)"
_AUX = r"(?:is|are|was|were|do|does|did|can|could|should|shall|will|would|has|have|am)"
#: A question that starts inside a clause, its scene said before it with no mark between, as speech-to-text and
#: quick chat write it ("build 3.4.0 is uploaded can we push it out today", "on the plane with no wifi which
#: dictionary will still work", "locked out whats the alarm code"): the question word or the verb comes before its
#: subject. An embedded or relative clause keeps its subject first ("i know where we are", "the plan is that we
#: meet", "the man who does our boiler", "i did the dishes"), which no alternative reads; "who"/"which" open
#: relative clauses, so after them the verb must be followed by its subject ("who do i call").
_INNER_QUESTION = re.compile(
    rf"(?i)(?<=\S\s)(?<!\bthat's\s)(?<!\bhere's\s)(?<!\bis\s)(?<!\bwas\s)"
    # after a verb of knowing or telling, or its object, the clause is embedded: "i told her what time is best"
    rf"(?<!\bknow\s)(?<!\bknew\s)(?<!\bknows\s)(?<!\btold\s)(?<!\bher\s)(?<!\bhim\s)(?<!\bthem\s)(?<!\bus\s)"
    rf"(?<!\bme\s)(?<!\bsee\s)(?<!\bsaw\s)(?:"
    rf"(?:what|when|where|why|how|wat|wen|wher)(?:\s+(?!{_SUBJECT}\b|it\b)[\w'’-]+){{0,2}}?\s+{_AUX}\s+\w|"
    rf"(?:who|whom|whose|which|wich)\s+{_AUX}\s+(?:{_SUBJECT}|it)\b|"
    rf"(?:which|wich)(?:\s+(?!{_SUBJECT}\b|it\b)[\w'’-]+){{1,2}}?\s+{_AUX}\s+(?:{_SUBJECT}|it|the|my|our|his|her|"
    rf"their|your)\b|(?:which|wich)(?:\s+[\w'’-]+){{1,2}}?\s+(?:will|can|could|would|should)\s+\w|"
    rf"(?:what|where|who|when|how)['’]?s\s+(?:the|my|our|his|her|their|your|it|that|this|a|an|[\w'’-]+['’]s)\b|"
    rf"(?:can|could|should|shall|will|would|may|might|must)\s+(?:{_SUBJECT}|it|that|this|the|my|our|his|her|their|"
    rf"your)(?:\s+\w|\W*$)|"
    rf"(?:do|did|have|has|am)\s+{_SUBJECT}\s+\w|does\s+(?:{_SUBJECT}|it)\s+\w|"
    rf"(?:is|are|was|were)\s+(?:{_SUBJECT}|it)\s+\w|"
    rf"(?:is|are|was|were)\s+that\s+(?:ok(?:ay)?|alright|right|fine|allowed|enough|normal|safe|true|correct|too|"
    rf"still|early|late|good|bad|worth|possible|a|an)\b|"
    rf"(?:is|are)\s+there\s+(?:a|an|another|any|anything|anyone|anybody|some|somewhere|enough|still|room|time|"
    rf"space|no)\b|"
    # "whiteboard pen isn't doing anything any fix" (a request's noun: "covers any reviews" is no question),
    # "anything i have to do first", "ok to strim it in june"
    rf"any\s+(?:ideas?|fix(?:es)?|problems?|objections?|issues?|precautions?|tips?|advice|thoughts?|suggestions?|"
    rf"news|luck|chance|risk|reason|update)\W*$|"
    rf"(?:any|anything)\b(?:\s+[\w'’-]+){{0,5}}\s+(?:i|we|you|he|she|they)\s+(?:should|needs?|must|ha(?:ve|s)\s+to|"
    rf"can|could|ought)\b|"
    rf"(?<!\bis\s)(?<!\bwas\s)(?<!\bit's\s)(?:ok(?:ay)?|fine|alright|safe|allowed)\s+to\s+\w"
    rf")"
)
#: A proposal closed by a check, no mark between: "wants to bring their spaniel ok", "thinking of upping the
#: flashcards to 40 a day good idea", "planning to put 100 w through the tuner fine". A remark closed the same way
#: ("got home ok", "the build is fine") proposes nothing.
_PROPOSAL_CHECK = re.compile(
    r"(?i)\b(?:wants?|wanna|wanting|thinking\s+of|planning\s+(?:to|on)|going\s+to|gonna|about\s+to|keen\s+on)\b"
    r".*\s(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!'s\s)(?<!\bbe\s)(?:ok(?:ay)?|fine|alright|allowed|good\s+idea|"
    r"good\s+to\s+go)\W*$"
)


def inner_question(clause: str) -> int | None:
    """Where a question begins inside `clause` after a scene of two words or more, said with no mark between
    (`_INNER_QUESTION`); None when it holds none."""
    for m in _INNER_QUESTION.finditer(clause):
        if len(clause[: m.start()].split()) >= 2:
            return m.start()
    return None


#: Someone else's question reported ("a mum asked if she can drop her 9 year old", "builders merchant wants to know
#: what size the RSJ is", "someone at the stall asked about my hygiene score"): the agent is asked to answer it.
_REPORTED = re.compile(
    r"(?i)(?<!\bi\s)(?<!\bwe\s)(?<!\bi'll\s)(?<!\bwe'll\s)(?<!\bwill\s)(?<!\bto\s)\b(?:ask(?:s|ed|ing)?|wants?\s+to\s+know|wanting\s+to\s+know|"
    r"wonder(?:s|ed|ing)?)\s+(?:me\s+|us\s+)?(?:if|whether|what|when|where|who|which|how|why|about)\b"
)
#: Words that make a few words a report of the day ("first solo done today", "my knee feels better today"), not a
#: keyword query: without a final period the two read alike.
_REPORT_TIME = re.compile(r"(?i)\b(?:today|yesterday|tonight|this\s+(?:morning|afternoon|evening)|again|later)\b")
#: A verb that opens a standing instruction on style: "keep answers terse", "use simple language please".
_INSTRUCTION = re.compile(r"(?i)^\W*(?:keep|use|remember|stop|avoid|write|make|be|always|never)\b")
#: A polite word closing a keyword query ("Mr Joyce's phone number please").
_POLITE_END = re.compile(r"(?i)[\s,]+(?:please|pls|plz|thanks|thx|ta)\W*$")
_REQUEST = re.compile(
    r"(?i)^\W*(?:(?:please|pls|kindly|can\s+you|could\s+you|can\s+u|could\s+u|ok(?:ay)?|hey)[,:]?\s+)*"
    r"(?:tell\s+me|remind\s+me\s+(?:what|when|where|who|which|how|why|of|about|if|whether)|show\s+me|"
    r"give\s+me|list|find|look\s+up|recall|explain|describe|summari[sz]e|i\s+(?:need|want)\s+to\s+know|"
    r"i\s+(?:forgot|can't\s+remember|don't\s+remember)|do\s+you\s+(?:know|remember)|"
    # the subject dropped, as in chat: "forgot how to get into the hall", "need the ethics number for the samples"
    r"(?:forgot|can't\s+remember|cant\s+remember)\s+(?:what|when|where|who|which|how|why|if|whether)|"
    r"(?:i\s+)?can'?t\s+find|(?:i\s+|we\s+)?needs?\s+(?:the|to\s+(?:see|know|find|check|get)|[\w'’-]+['’]s)|"
    r"let\s+me\s+know|i(?:'d|\s+would)\s+like\s+to\s+know|(?:i\s+am\s+|i'm\s+)?(?:wanting|trying)\s+to\s+"
    r"(?:know|find\s+out)|"
    # a command to fetch what is stored: "pull up the booking ref", "send me the invoice number", "dig out ..."
    r"(?:pull\s+up|dig\s+out|send\s+me|get\s+me|fetch\s+me|bring\s+up|look\s+out)\s+(?:the|my|our|his|her|their|that|"
    r"those|[\w'’-]+['’]s)|"
    # a question announced: "I wanted to ask when my next appointment is", "just checking whether the hall is free"
    r"(?:i\s+)?(?:just\s+)?(?:wanted|want|wanting|meant|meaning)\s+to\s+(?:ask|check)\s+(?:you\s+)?"
    r"(?:what|when|where|who|which|how|why|if|whether|about)|"
    r"(?:i'm\s+|i\s+am\s+)?(?:just\s+)?(?:checking|asking)\s+(?:what|when|where|who|which|how|why|if|whether)|"
    # an indirect question: "not sure when the bins go out", "I wonder whether the vet is open on Sundays"
    r"(?:i\s+wonder|i'm\s+wondering|wondering|(?:i'm\s+)?not\s+sure|(?:any|no)\s+idea)\s+"
    r"(?:what|when|where|who|which|how|why|if|whether))\b"
)
#: Words that open a question or a request.
QUESTION_WORDS = frozenset(
    "what when where who whom whose which why how what's when's where's who's how's is are was were do does did "
    "can could should would will may might tell remind show whats wheres whos whens hows".split()
)
_STANDING = re.compile(
    r"(?i)\b(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|next\s+time|every\s+time|always|"
    r"whenever|by\s+default)\b"
)
#: A request about nothing in particular is an instruction about style: "Explain things simply, I'm new to Rust."
_GENERIC = re.compile(r"(?i)^\W*(?:please\s+)?[\w']+(?:\s+(?:me|us))?\s+(?:things|stuff)\b")
_SOCIAL = frozenset(
    "thanks thank thx cheers ta ok okay great cool nice bye goodbye hello hi hey sorry yes yeah yep no nope sure "
    "lol good perfect awesome brilliant lovely fine alright right morning evening night".split()
)
#: A past-tense verb makes a few words a remark ("merged the i18n fix"), not a keyword query.
_PAST_VERB = re.compile(r"(?i)\b[a-z]{3,}(?<!e)ed\b")
_PRONOUN_OR_VERB = re.compile(
    r"(?i)\b(?:i|i'm|i've|i'd|i'll|we|we're|you|he|she|they|it|it's|is|are|was|were|am|be|been|do|does|did|"
    r"have|has|had|will|would|can|could|should|must|let's|please)\b"
)


def asks_outright(text: str) -> bool:
    """A question said as one: a sentence with a question mark, or one that opens with a question word or an
    auxiliary and does not end as a statement. `is_question` also reads chat's unmarked checks ("family wants to
    bring their spaniel, ok"), which a statement can look like ("Standup moved to 9:30, okay"): the agent's write
    policy skips only these, so a guess never drops what the user said."""
    for sentence in sentences(text):
        s = sentence.strip()
        if s.endswith("?"):
            return True
        if not s.endswith((".", "!")) and _QUESTION_START.match(s) and not _NEGATED.match(s):
            return True
    return False


def is_question(text: str) -> bool:
    """A question: it has a question mark, or a sentence opens with a question word or an auxiliary and does not
    end as a statement ("How should I indent this file", not "Do the dishes.")."""
    for sentence in sentences(text):
        s = sentence.strip()
        if s.endswith("?"):
            return True
        if s.endswith((".", "!")):
            continue
        # "locked out the back - whats the alarm code": a question may follow its scene; without its mark it is the
        # last clause or a question word with its verb ("when you draft emails, keep them short" is no question)
        parts = [c for c in _CLAUSE.split(s) if c.strip()]
        for i, c in enumerate(parts):
            if _QUESTION_START.match(c) and not _NEGATED.match(c) and (i == len(parts) - 1 or _WH_VERB.match(c)):
                return True
        if inner_question(parts[-1]) is not None or _PROPOSAL_CHECK.search(parts[-1]):
            return True  # "build 3.4.0 is uploaded can we push it out today": no mark between scene and question
        if len(parts) > 1 and len(parts[0].split()) >= 3 and len(parts[-1].split()) <= 10 and _CHECK.match(parts[-1]):
            return True
        if len(parts) == 1 and _ANY.match(s):
            return True  # "any lint step i should run before opening the pr"
        m = _CONDITION_FIRST.match(s)
        if m and _WH_VERB.match(m.group("q")):
            return True  # "if i bill kessler in march when does the money arrive"
    return False


#: A name and a dash addressing a chat message: "Sam - what time is the dentist?" (read only before a question).
_ADDRESSEE = re.compile(r"^\s*(?-i:[A-Z][a-z]+)\s+[-–—]\s+")
#: A greeting word before the question itself, no mark between: "hey can u remind me ..."; or with a lower-case
#: name and a mark: "hi tom, need the gate code ..." (read only before a need: "Hey presto, the build works" is none).
_BARE_GREETING = re.compile(r"(?i)^\W*(?:hi|hey|hiya|heya|yo|hello)\s+")
#: Dictated, with no mark anywhere: a greeting and a name before a question word ("hi sam what time is ..."), and a
#: thank-you and a name after the question ("... on thursday thanks noor"). Read only around a question.
_SPOKEN_GREETING = re.compile(r"(?i)^\W*(?:hi|hey|hiya|hello|morning)(?:\s+(?!(?:what|when|where|who|which|how|why|can|"
                              r"could|is|are|do|does|did)\b)[a-z][\w'’-]*)?\s+")
_SPOKEN_SIGN_OFF = re.compile(r"(?i)\s+(?:thanks|thank\s+you|cheers|ta|thx)(?P<mark>)(?:\s+[a-z][\w'’-]*)?\W*$")
_CHAT_GREETING = re.compile(r"(?i)^\W*(?:hi|hey|hiya|heya|yo|hello)(?:\s+[a-z][\w.'’-]*)?\s*[,:!–—-]+\s*")


def unwrap(query: str) -> str:
    """The request inside a message: a pasted email or chat message wraps it in a greeting, pleasantries and a
    sign-off ("Hi Sam,\n\nCould you remind me when the flight lands?\n\nThanks,\nNoor"), which are no part of what
    is asked and must not be read as its words (its subject names, its focus) nor hide it. Read without capitals or
    any mark as well ("hi sam\ncould you remind me ...\nthanks", dictated "hi sam what time is the dentist thanks
    noor"). A body left with no final mark keeps the mark of its sign-off ("Noted, thanks." stays a statement). The
    whole message when nothing would be left. Idempotent: the envelope is peeled until nothing more comes off (a
    statement with two sign-offs, "Great, thanks! thanks noor", lost one a pass), so recall and maintenance, which
    both unwrap, read the same request."""
    text = query.strip()
    while (body := _peel(text)) != text:
        text = body
    return text


def _peel(text: str) -> str:
    """One layer of `unwrap`'s envelope off `text`."""
    # dictation's fillers and greetings first: "um what time is the dentist", "Hey! quick one - what's ..."
    body = chatter.opened(text)
    for opener in (_CHAT_GREETING, _BARE_GREETING, _ADDRESSEE):
        m = opener.match(body)
        if m and (is_question(body[m.end():]) or _REQUEST.match(body[m.end():])):
            body = body[m.end():]  # "hey can u remind me whats the reg of the van", "Sam - what time is ..."
    m = _SPOKEN_GREETING.match(body)
    if m and (_QUESTION_START.match(body[m.end():]) or _REQUEST.match(body[m.end():])):
        body = body[m.end():]  # dictated: "hi sam what time is the dentist", no mark after the name
    m = chatter.SIGN_OFF.search(body) or _SPOKEN_SIGN_OFF.search(body)
    if m and body[: m.start()].strip() and (m.re is chatter.SIGN_OFF or is_question(body[: m.start()])):
        mark = "." if "." in m.group("mark") or "!" in m.group("mark") else ""
        body = body[: m.start()].rstrip()
        if mark and not body.endswith((".", "!", "?")):
            body += mark
    kept = [s for s in sentences(body) if not chatter.PLEASANTRY.match(s)]
    body = " ".join(s.strip() for s in kept).strip()
    return body if tokenize(body) else text


def information_need(query: str) -> bool:
    """Does the query ask for information (see the module docstring)? A message's greeting and sign-off are not
    read (`unwrap`)."""
    text = unwrap(query)
    if not text or not tokenize(chatter.FILLER.sub("", text)):
        return False  # nothing, or only "um ... uh"
    if is_question(text):
        return True
    if any(_REQUEST.match(s.strip()) and not _STANDING.search(s) and not _GENERIC.match(s.strip())
           for s in sentences(text)):
        return True  # "tell me the host" asks; "give me short answers from now on" instructs
    if any(_REPORTED.search(s) for s in sentences(text)):
        return True
    if not text.endswith((".", "!")):
        text = _POLITE_END.sub("", text) or text
    # a bare keyword query: a few words in one phrase, no verb or pronoun, no closing punctuation ("standup
    # time"); one that opens on a social word ("ok running the migrations now", "thanks, that build worked") or
    # holds two phrases is a remark
    words = tokenize(text)
    content = [w for w in words if w not in stop_words()]
    return (
        0 < len(words) <= 6
        and not text.endswith((".", "!"))
        and "," not in text
        and words[0] not in _SOCIAL
        and not _PAST_VERB.search(text)
        and not _REPORT_TIME.search(text)
        and not _INSTRUCTION.match(text)
        and not _PRONOUN_OR_VERB.search(text)
        and any(w not in _SOCIAL for w in content)
    )


def asked(query: str) -> str:
    """What a query asks: its question and request sentences ("I prefer short answers. How do I deploy?" ->
    "How do I deploy?"), or the whole query when no sentence is one (a keyword query)."""
    query = unwrap(query)
    said = [s.strip() for s in sentences(query)]
    parts = []
    for i, s in enumerate(said):
        if not (is_question(s) or _REQUEST.match(s)):
            continue
        if i and not _own_words(s) and not (is_question(said[i - 1]) or _REQUEST.match(said[i - 1])):
            # "The printer on floor 3 is jammed again. Who do I call?": a question of function words alone is
            # about the sentence before it, its scene (`scene` reads "..., who do I call?" so)
            s = f"{said[i - 1].rstrip('.!')}, {s[:1].lower()}{s[1:]}"
        parts.append(s)
    return " ".join(parts) if parts else query.strip()


def _own_words(sentence: str) -> list[str]:
    """The words of a sentence that say what it is about: not a stop word, a question word or a pronoun."""
    return [w for w in tokenize(sentence) if w not in stop_words() and w not in QUESTION_WORDS and len(w) > 2]


_CLAUSE = re.compile(r",\s+|\s+[-–—]\s+|;\s+")


def clauses(text: str) -> list[str]:
    """The clauses of a query: a scene and its question are two ("adding a new gpio, which overlay file do I
    edit?")."""
    return [p.strip() for p in _CLAUSE.split(text) if p.strip()]


#: A condition before the question with no comma between them: "if I bill Kessler in March when does the money
#: arrive?". The question starts at a question word followed by its verb ("when does", "how much is", "what's").
_CONDITION_FIRST = re.compile(
    r"(?i)^\W*(?P<s>(?:if|once|after|before)\s+\S.*?)\s+"
    r"(?P<q>(?:what|when|where|who|which|why|how)(?:['’]s|\s+(?:[\w'’-]+\s+)?(?:do|does|did|is|are|was|were|can|"
    r"could|should|will|would|shall|has|have)\b).*)$"
)


def scene(query: str) -> tuple[str, str]:
    """(scene, question) of a question that comes with what is happening: "walk-in is showing 7 degrees, what do
    I do?" -> ("walk-in is showing 7 degrees", "what do I do?"). The scene says why the question is asked; the
    answer need not repeat it, and the values it names are not the ones asked for. A condition said first is a
    scene too, with or without a comma ("if I bill Kessler in March when does the money arrive?"). ("", the
    question) when the query has no scene."""
    text = asked(query)
    parts = [p.strip() for p in _CLAUSE.split(text) if p.strip()]
    if len(parts) < 2:
        m = _CONDITION_FIRST.match(text)
        if m:
            return m.group("s").strip(), m.group("q").strip()
        at = None if _QUESTION_START.match(text) or text.rstrip().endswith((".", "!")) else inner_question(text)
        return (text[:at].strip(), text[at:].strip()) if at else ("", text)
    last = parts[-1]
    if not (is_question(last) or _REQUEST.match(last)) or any(is_question(p) for p in parts[:-1]):
        return "", text
    return ", ".join(parts[:-1]), last



#: Sentence ends, not after a title ("What's Prof. Adeyemi's office number?" is one question).
_SPLIT = re.compile(r"(?i)(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bProf\.)(?<!\bSt\.)\s+|\n+")


def sentences(text: str) -> list[str]:
    """A text's sentences (a title's period is no sentence end)."""
    return [s for s in _SPLIT.split(text) if s.strip()]
