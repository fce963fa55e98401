"""Gap detection, reading the query: is it a question or a request, what does it ask, and which part of it is
the scene ("walk-in is showing 7 degrees, what do I do?"). `memgraph.retrieve.gaps` says why each rule is there."""

from __future__ import annotations

import re

from memgraph.ingest import chatter
from memgraph.retrieve.gap_confirm import tag_clause, tagged
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


#: Chat's spellings of the words a question is read by (question words, the auxiliary and the pronoun beside them):
#: "wats the gate code again", "where r the spare keys", "hw much was the plumber", "can u send me ...". Only these:
#: the readings below and the kinds of value asked (`gap_values`) are written for the plain words.
_CHAT_SPELLING = {"wat": "what", "wot": "what", "wut": "what", "wats": "what's", "wots": "what's", "wuts": "what's",
                  "whts": "what's", "wen": "when", "wens": "when's", "wher": "where", "whr": "where",
                  "wich": "which", "whch": "which"}
_CHAT_WORD = re.compile(r"(?i)(?<![\w'’])(?:" + "|".join(_CHAT_SPELLING) + r")(?![\w'’])")
#: "r" and "u" are "are" and "you" only beside a question word or an auxiliary: "where r the keys", "can u send",
#: "r u free" (never "plan B", "option u").
_CHAT_ARE = re.compile(r"(?i)\b(what|when|where|who|which|how|why)\s+r\b|^(\W*)r(?=\s+(?:u|you|we|they)\b)")
#: "hw" is "how" only before what "how" asks with ("hw much", "hw do i"): alone it is also homework ("hw due fri").
_CHAT_HOW = re.compile(r"(?i)\bhw(?=\s+(?:much|many|long|often|far|old|do|does|did|can|could|should|is|are|was|were|"
                       r"to)\b)")
_CHAT_YOU = re.compile(r"(?i)\b(can|could|would|will|do|did|are|have)\s+u\b")


def plain_spelling(text: str) -> str:
    """`text` with chat's spellings of question words, "r" and "u" written out (`_CHAT_SPELLING`), so that
    "wats the gate code again" is read as "what's the gate code again" is: a question asking for a code."""
    text = _CHAT_WORD.sub(lambda m: _cased(m.group(0), _CHAT_SPELLING[m.group(0).lower()]), text)
    text = _CHAT_HOW.sub(lambda m: _cased(m.group(0), "how"), text)
    text = _CHAT_ARE.sub(lambda m: f"{m.group(1)} are" if m.group(1) else f"{m.group(2)}are", text)
    return _CHAT_YOU.sub(lambda m: f"{m.group(1)} you", text)


def _cased(said: str, word: str) -> str:
    return word[:1].upper() + word[1:] if said[:1].isupper() else word


#: A question word left where its answer goes, as non-native and spoken English ask ("december meeting is at whose
#: house", "my english class is which days", "indiranagar deliveries who is doing", "total how many customers we
#: have", "UPI payment till which date customers must do", "Sunday also delivery is happening or not", "Mrs Rao of
#: HSR any food restrictions are there"). A relative or embedded clause goes on after its question word ("the
#: dog which is fine", "the place where we met", "i know how much it was", "pupils use edu-pupils which blocks
#: youtube") and is read as none.
_IN_SITU = re.compile(
    rf"(?i)(?<!\bknow\s)(?<!\bknew\s)(?<!\bmatter\s)(?<!\bsure\s)(?<!\bsee\s)(?<!\btell\s)(?<!\bidea\s)(?:"
    rf"(?<!\bme\s)(?<!\bus\s)(?<!\bhim\s)(?<!\bher\s)(?<!\bthem\s)(?<!\byou\s)"
    rf"\b(?:which|whose|what)(?:\s+(?!{_AUX}\b|{_SUBJECT}\b|it\b|\w+n['’]?t\b)[\w'’-]+)?(?:\s+(?:is|are|was|were))?\W*$|"
    rf"\bwho\s+(?:is|are|was|will\s+be)\s+[a-z]+ing\W*$|"
    rf"\bhow\s+(?:many|much|long|often|far|old|soon)\b|"
    rf"\b(?:till|until|since|from|by)\s+(?:which|what|when)\b|"
    rf"\b{_AUX}\b.*\bor\s+not\W*$|"
    rf"\bany\b.*\b(?:are|is)\s+there\W*$)"
)


_WH_AUX = re.compile(r"(?i)(?:what|when|where|who|which|how)\s+(?:is|are|was|were|do|does|did)\s+"
                     r"(?:the|my|our|his|her|their|your|[\w'’-]+['’]s)\b")


def inner_question(clause: str) -> int | None:
    """Where a question begins inside `clause` after a scene of two words or more, said with no mark between
    (`_INNER_QUESTION`); None when it holds none."""
    for m in _INNER_QUESTION.finditer(clause):
        before = clause[: m.start()].split()
        if len(before) >= 2 or (len(before) == 1 and _WH_AUX.match(clause[m.start():])):
            return m.start()  # one word before a question word and its verb: "oye when is mummy's flight"
    return None


#: A thing named after "wants to know": "Dana wants to know the LaunchDarkly flag for the search page", "my mum wants
#: to know Amy's surname" (a relayed request for a value, as "tell me the ..." is one).
_THING = r"(?:the|my|our|his|her|their|your|(?!it['’]s\b|that['’]s\b|what['’]s\b)[\w'’-]+['’]s)\s+\w"


#: Someone else's question reported ("a mum asked if she can drop her 9 year old", "builders merchant wants to know
#: what size the RSJ is", "someone at the stall asked about my hygiene score"): the agent is asked to answer it.
_REPORTED = re.compile(
    r"(?i)(?<!\bi\s)(?<!\bwe\s)(?<!\bi'll\s)(?<!\bwe'll\s)(?<!\bwill\s)(?<!\bto\s)\b(?:ask(?:s|ed|ing)?|wants?\s+to\s+know|wanting\s+to\s+know|"
    r"wonder(?:s|ed|ing)?)\s+(?:me\s+|us\s+)?(?:if|whether|what|when|where|who|which|how|why|about)\b|"
    # a value asked for by name: "Dana wants to know the LaunchDarkly flag for the new search page"
    r"(?<!\bi\s)(?<!\bwe\s)(?<!\bto\s)\b(?:wants?|wanting|would\s+like)\s+to\s+know\s+" + _THING
)
#: Words that make a few words a report of the day ("first solo done today", "my knee feels better today"), not a
#: keyword query: without a final period the two read alike.
_REPORT_TIME = re.compile(r"(?i)\b(?:today|yesterday|tonight|this\s+(?:morning|afternoon|evening)|again|later)\b")
#: A verb that opens a standing instruction on style: "keep answers terse", "use simple language please".
_INSTRUCTION = re.compile(
    r"(?i)^\W*(?:(?:please|pls|kindly)\s+)?(?:keep|use|remember|stop|avoid|write|make|be|always|never|remind\s+me\s+to)\b"
)
#: A request about how the assistant itself talks or shows things is an instruction, not a question, whatever its
#: form: "can you make the writing bigger and not talk so fast", "could you keep your answers shorter".
_CONDUCT = re.compile(
    r"(?i)^\W*(?:(?:please|pls|kindly)\s+)?(?:can|could|would|will)\s+(?:you|u)\s+(?:(?:please|pls|kindly|also|just)\s+)?"
    r"(?:make|keep|stop|talk|speak|slow|avoid|use|be|answer|reply|write|always|never)\b"
)
#: A polite word closing a keyword query ("Mr Joyce's phone number please").
_POLITE_END = re.compile(r"(?i)[\s,]+(?:please|pls|plz|thanks|thx|ta)\W*$")
_REQUEST = re.compile(
    r"(?i)^\W*(?:(?:please|pls|kindly|can\s+you|could\s+you|can\s+u|could\s+u|would\s+you|will\s+you|ok(?:ay)?|"
    r"hey|i\s+would\s+be\s+grateful\s+if\s+you\s+(?:could|would)|i(?:'d|\s+would)\s+appreciate\s+it\s+if\s+you\s+"
    r"(?:could|would))[,:]?\s+)*"
    r"(?:tell\s+me|remind\s+me\s+(?:what|when|where|who|which|how|why|of|about|if|whether)|show\s+me|"
    # "remind me the gate code", "remind me am i meant to ...": what is stored, where "remind me to ring mum" sets
    # a reminder
    r"remind\s+me\s+(?:the|my|our|his|her|their|your|[\w'’-]+['’]s|am|is|are|was|were|do|does|did|have|has|can|"
    r"should|must)\b|"
    # formal: "Could you confirm the venue", "Kindly advise the account number", "please check when the MOT is due"
    r"(?:confirm|advise(?:\s+(?:me|us))?(?:\s+(?:of|on))?)\s+(?:the|my|our|his|her|their|your|[\w'’-]+['’]s|what|"
    r"when|where|who|which|how|whether|if)\b|check\s+(?:what|when|where|who|which|how|whether|if)\b|"
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
        if tagged(s):
            return True  # "practice is monday nights isnt it": a statement with its tag asks (`gap_confirm`)
        # "locked out the back - whats the alarm code": a question may follow its scene; without its mark it is the
        # last clause or a question word with its verb ("when you draft emails, keep them short" is no question)
        parts = [c for c in _CLAUSE.split(s) if c.strip()]
        for i, c in enumerate(parts):
            if _QUESTION_START.match(c) and not _NEGATED.match(c) and (i == len(parts) - 1 or _WH_VERB.match(c)):
                return True
        if inner_question(parts[-1]) is not None or _PROPOSAL_CHECK.search(parts[-1]):
            return True  # "build 3.4.0 is uploaded can we push it out today": no mark between scene and question
        if len(parts[-1].split()) >= 2 and _IN_SITU.search(parts[-1]):
            return True  # "december meeting is at whose house": the question word where its answer goes
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
#: A note's label before a question, as a log or a to-do list writes one: "Q: plumber's number?", "Question - when
#: is the MOT due?" (read only before a need: "Q: done" stays as it is). Its letter is no word of what is asked.
_LABEL = re.compile(r"(?i)^\W*(?:q|qn|qu|question|query)\s*(?::|\s[-–—])\s*")
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
    for opener in (_CHAT_GREETING, _BARE_GREETING, _ADDRESSEE, _LABEL):
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
    read (`unwrap`), and chat's spellings of question words are read as the words (`plain_spelling`)."""
    text = plain_spelling(unwrap(query))
    if not text or not tokenize(chatter.FILLER.sub("", text)):
        return False  # nothing, or only "um ... uh"
    if _CONDUCT.match(text):
        return False
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
    if _keywords(text) or _attribute_of(text):
        return True
    # a scene, then the thing asked for as a jotted note names it: "saoirse has high fever, number of the doctor"
    parts = clauses(text)
    return len(parts) > 1 and not text.endswith((".", "!")) and _attribute_of(parts[-1], head_words=2)


def _keywords(text: str) -> bool:
    """A few words in one phrase with no verb or pronoun and no closing punctuation: "standup time"."""
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


#: The thing asked for, named as a note names it, then whose it is: "opening hours for the gym in perth i use",
#: "flight number for the charter back home", "number of the doctor of the family".
_ATTRIBUTE_OF = re.compile(
    r"(?i)^\W*(?!(?:in|on|at|by|to|for|of|from|until|till|with|after|before|during|within|under|over|about)\b)"
    r"(?P<head>(?:[\w'’-]+\s+){1,3}?)(?:for|of)\s+\S"
)


#: The auxiliaries and forms of "be" that make a phrase a statement ("match fees for the under-11s are 3 pounds");
#: a subject pronoun may follow the attribute ("opening hours for the gym i use").
_VERB = re.compile(
    r"(?i)\b(?:is|are|was|were|am|be|been|being|do|does|did|have|has|had|will|would|can|could|should|must|may|might|"
    r"shall|it's|i'm|i've|i'd|i'll|we're|we've|they're|let's|please|isn't|aren't|don't|doesn't|didn't|won't|can't)\b"
)


def _attribute_of(text: str, head_words: int = 3) -> bool:
    """A longer keyword query: an attribute and what it belongs to (`_ATTRIBUTE_OF`), with no verb or pronoun in
    the attribute and no number anywhere, where a note would give one ("interest on the FNB account 6.2%",
    "cover for the 3rd", "live locusts for year 8 come from ..."); up to 14 words, or `head_words` words before
    "for" / "of"."""
    m = _ATTRIBUTE_OF.match(text)
    words = tokenize(text)
    return bool(
        m and 3 <= len(words) <= 14
        and len(m.group("head").split()) <= head_words
        and not text.endswith((".", "!"))
        and "," not in text
        and not any(ch.isdigit() for ch in text)
        and _keywords(m.group("head"))
        and not any(w in _SOCIAL for w in tokenize(m.group("head")))  # "martin says thanks for sorting the flights"
        and not _VERB.search(text)
        and not _PAST_VERB.search(text)
        and not _REPORT_TIME.search(text)
    )


#: A question relayed from someone else, before its question word: "my wife asks when the car is due for its MOT",
#: "Sam wants to know what time the match starts", "mum asked me where we parked". Who relays it is no part of
#: what is asked: its words are no focus words a memory must say, and the kind asked is the embedded question's.
_RELAY = re.compile(
    r"(?i)^\W*(?!(?:what|when|where|who|whom|whose|which|why|how|do|does|did|can|could)\b)"
    r"(?:[\w'’-]+\s+){0,3}?(?:asks|asked(?:\s+(?:me|us))?|(?:is|was|are|were)\s+(?:asking|wondering)|"
    r"(?<=['’]s\s)(?:asking|wondering)|"  # "Huw's asking what days the speech lady comes"
    r"wants?\s+to\s+know|would\s+like\s+to\s+know|wonders|needs?\s+to\s+know)\s+"
    r"(?=(?:what|when|where|who|whom|whose|which|why|how|if|whether)\b|(?<=know\s)" + _THING + r")"
)


def unrelayed(question: str) -> str:
    """`question` without the frame that relays it ("my wife asks when the car is due" -> "when the car is due");
    the question itself when it is asked outright."""
    m = _RELAY.match(question)
    return question[m.end():] if m and len(tokenize(question[m.end():])) >= 2 else question


def asked(query: str) -> str:
    """What a query asks: its question and request sentences ("I prefer short answers. How do I deploy?" ->
    "How do I deploy?"), or the whole query when no sentence is one (a keyword query); chat's spellings of question
    words written out (`plain_spelling`); a relayed question without who relays it (`unrelayed`)."""
    query = plain_spelling(unwrap(query))
    said = [s.strip() for s in sentences(query)]
    parts = []
    for i, s in enumerate(said):
        if not (is_question(s) or _REQUEST.match(s)):
            continue
        if i and not _own_words(s) and not (is_question(said[i - 1]) or _REQUEST.match(said[i - 1])):
            # "The printer on floor 3 is jammed again. Who do I call?": a question of function words alone is
            # about the sentence before it, its scene (`scene` reads "..., who do I call?" so)
            s = f"{said[i - 1].rstrip('.!')}, {s[:1].lower()}{s[1:]}"
        parts.append(unrelayed(s))
    return " ".join(parts) if parts else unrelayed(query.strip())


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
        return (text[:at].strip(), text[at:].strip()) if at and not _BARE_WH.match(text[at:]) else ("", text)
    last = parts[-1]
    if tag_clause(last):
        return "", text  # "The hut's got electricity, hasn't it?": the statement is asked, no scene (`gap_confirm`)
    asks = is_question(last) or _REQUEST.match(last) or _attribute_of(last, head_words=2)
    if not asks or any(is_question(p) for p in parts[:-1]):
        return "", text
    if _BARE_WH.match(last):
        return "", text  # "the dentist of the kids, which one is": what is asked about was said first
    return ", ".join(parts[:-1]), last


#: A question of a question word alone, with at most one word and its verb ("which one is", "whose turn", "who is
#: it"): what it asks about was said before it ("and january, whose turn", "the dentist of the kids, which one is"),
#: so that is no scene but the question's subject.
_BARE_WH = re.compile(r"(?i)^\W*(?:(?:and|so|but)\s+)?(?:what|which|who|whose|where|when)(?:\s+(?!(?:do|does|did|can|"
                      r"could|should|will|would)\b)[\w'’-]+)?(?:\s+(?:is|are|was|were|it))?\W*$")



#: Sentence ends, not after a title ("What's Prof. Adeyemi's office number?" is one question) nor inside "no. 10".
_SPLIT = re.compile(r"(?i)(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bProf\.)(?<!\bSt\.)"
                    r"(?:(?<!\bno\.)\s+|\s+(?!\d))|\n+")  # "the people at no. 10": a number's "no." too


def sentences(text: str) -> list[str]:
    """A text's sentences (a title's period is no sentence end)."""
    return [s for s in _SPLIT.split(text) if s.strip()]
