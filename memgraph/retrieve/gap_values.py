"""Gap detection, the values: what kind of value a question asks for ("what time" -> a clock time, "who" -> a
name or a role, "how much does it cost" -> an amount of money) and whether a served memory holds one, read with
`ingest.values` plus the forms it does not read (clock times in words, limits, user names). `retrieve/gaps.py`
decides on them; its docstring says what each rule measured."""

from __future__ import annotations

import re

from memgraph.ingest.statement import stem
from memgraph.ingest.units import CURRENCY, UNIT_ALIASES
from memgraph.ingest.value_words import MONTHS, WEEKDAYS
from memgraph.ingest.values import Values, values
from memgraph.retrieve.gap_confirm import checked_kind, confirms
from memgraph.text import stop_words, tokenize

#: (expected answer, query pattern), the first match wins.
_EXPECT: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"(?i)\be-?mail(?:\s+address)?\b")),
    ("phone", re.compile(
        r"(?i)\b(?:phone|telephone)\b|\b(?:mobile|cell)\s+(?:number|phone|no)\b|"
        r"(?:['’]s|\bhis|\bher|\btheir|\bmy|\byour|\bour)\s+(?:mobile|cell)\b(?!\s+\w)|"
        # a person's number is how to ring them: "i forgot the plumber's number", "Q: Dr Shah's secretary's
        # number?" ("Piotr's bib number" names another number: a word stands between)
        r"(?<=\w)(?<!\bit)(?<!\bthat)(?<!\bthere)(?<!\bhere)(?<!\bwhat)(?<!\bwho)(?<!\bwhere)(?<!\bhe)(?<!\bshe)"
        r"(?:['’]s|s['’])\s+(?:(?:direct|contact|home|work|mobile)\s+)?number\b(?!\s+of\b)"
    )),
    ("time", re.compile(r"(?i)\bwhat\s+time\b|\bhow\s+(?:late|early)\b|\bwhat\s+hour\b|\bwhich\s+hour\b|"
                        # the times named as a note names them: "opening hours for the gym", "kick-off time"
                        r"\b(?:opening|closing|visiting|office)\s+(?:hours|times)\b|"
                        r"\b(?:start|finish|closing|kick-?off|pick-?up|collection)\s+time\b")),
    (
        "money",
        re.compile(
            r"(?i)\bhow\s+much\b[^?.!]*\b(?:cost|costs|charge|charges|pay|paid|spend|spent|owe|earn|price)\b|"
            r"\bhow\s+much\s+(?:is|are|was|were|will)\b|"
            r"\bwhat(?:['’]?s|\s+is|\s+are|\s+was)?\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?"
            r"(?:[\w'’-]+\s+){0,3}?(?:price|cost|fee|fees|salary|rent|budget|quote|quotation|(?:hourly|daily|day)\s+rate)"
            r"\b|"
            r"\bhow\s+expensive\b|"
            # "What does the Pixieset subscription cost?": the verb asks for the amount as "how much" does
            r"\bwhat\s+(?:does|do|did|will|would)\b[^?.!]*\b(?:cost|charge)\b|"
            # "what's the plumber charging?", "what are eggs going for at the market?": the verb of a price
            r"\bwhat(?:['’]?s|\s+(?:is|are|was|were))\s+(?:[\w'’-]+\s+){1,4}?(?:charging|costing|going\s+for|"
            r"selling\s+for)\b"
        ),
    ),
    # "What's my locker code?": the code itself, not where it is written down ("… on a card in my wallet")
    ("code", re.compile(
        r"(?i)\b(?:lock|locker|door|gate|alarm|safe|wi-?fi|access|entry|zip|area|post|promo|discount|voucher)\s+code\b|"
        r"\bcombination\b|\bpasscode\b|\bpin\s+(?:number|code)\b|(?-i:\bPIN\b)|"
        # an identifier asked by its name: "what's my submission ID", "what was the order id?" (not "what's the log
        # key for the request id": the key is asked, the id names whose)
        r"\bwhat(?:['’]?s|\s+is|\s+was)?\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?"
        r"(?:[\w.'’-]+\s+){0,3}?id\b(?!['’])"
    )),
    ("duration", re.compile(r"(?i)\bhow\s+long\b")),
    (
        "number",
        re.compile(
            r"(?i)\bhow\s+(?:much|many|far|big|fast|old|tall|heavy|large|high|wide)\b|"
            r"\bwhat(?:['’]?s|\s+is|\s+are|\s+was)?\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?"
            r"(?:[\w.'’-]+\s+){0,3}?(?:size|number|count|rate|limit|percentage|speed|distance|weight|height|temperature|pressure|dose|"
            r"score|rating|version|age|capacity|amount)\b|"
            # a number named as a note names it: "flight number for the charter", "number of the doctor"
            r"(?:^|[,;:–—-]\s)\W*(?:[\w'’-]+\s+){0,2}number\s+(?:of|for)\b"
        ),
    ),
    (
        "when",
        re.compile(
            r"(?i)^\W*when\b|\bwhen(?:['’]?s|\s+(?:is|are|was|were|does|do|did|will|should|can|shall))\b|"
            r"\bwhat\s+(?:day|date|month|year|week)s?\b|\bwhich\s+(?:day|date|month|year|week|weekday)s?\b|"
            r"\bhow\s+(?:often|soon)\b|\bon\s+which\s+day\b|\bdeadline\b|\bdue\s+date\b|\bcut-?off\b"
            # a date asked as a log or a note asks it: "Q: boiler service date?", "next MOT due?"
            r"|\b(?:date|due)\s*\?\s*$"
        ),
    ),
    (
        "name",
        re.compile(
            r"(?i)^\W*who(?:m|se|['’]?s)?\b|\bwho\s+(?:is|are|was|were|does|do|did|will|can|should)\b|"
            r"\bwhat(?:['’]?s|\s+is|\s+was)\s+(?:the\s+|his\s+|her\s+|their\s+|my\s+|our\s+)?(?:[\w'’]+\s+){0,3}?"
            r"name\b|\bname\s+of\b|"
            # a title asked: "what's the fringe show called", "what was that book called"
            r"\bwhat(?:['’]?s|\s+is|\s+was|\s+are|\s+were)\s+(?:[\w'’-]+\s+){1,4}?called\b"
        ),
    ),
    # a postal address asked ("pull up claire's new address"), not an email, web or IP address
    ("address", re.compile(r"(?i)(?<!\bemail\s)(?<!\be-mail\s)(?<!\bip\s)(?<!\bweb\s)(?<!\bmac\s)\baddress\b")),
    ("place", re.compile(r"(?i)^\W*where\b|\bwhere(?:['’]?s|\s+(?:is|are|was|were|does|do|did|can|should))\b")),
)
_WHICH_YEAR = re.compile(r"(?i)\b(?:what|which)\s+year\b")
_ORDINAL_YEAR = re.compile(
    r"(?i)\b(?:first|second|third|fourth|fifth|sixth|final|last|\d+(?:st|nd|rd|th))[\s-]+year\b|\byear\s+\d+\b"
)
_FREQUENCY = re.compile(
    r"(?i)\b(?:every|each|daily|weekly|monthly|yearly|annually|fortnightly|twice|once|always|never|before|after|"
    r"within|until|till|today|tomorrow|tonight|yesterday|next|last|weekdays?|weekends?|term|season|spring|"
    r"summer|autumn|fall|winter)\b"
)
#: A time given by the event it follows: "sent out *as soon as* the return is scanned", "paid *once* the job is signed
#: off", "refunded *on arrival*". It answers "when does the new size get posted out?" as a date would.
_EVENT_TIME = re.compile(
    r"(?i)\bas\s+soon\s+as\b|\bonce\s+(?:the|it|they|we|you|a|an|he|she|his|her|its|their|our|my)\b|\bupon\b|"
    r"\bon\s+(?:arrival|receipt|delivery|completion|request)\b|\b(?:immediately|straight\s+away|right\s+away)\b|"
    r"\bthe\s+same\s+day\b|"
    # a point of a period: "wants the socket layout *by the end of the month*", "at the start of next term"
    r"\b(?:end|start|beginning|middle)\s+of\s+(?:the\s+|this\s+|next\s+)?(?:day|week|month|year|term|season|"
    r"quarter|summer|spring|autumn|winter)\b"
)
#: A year before those `values` reads (1900-2099), said as one: "took over the mill *in 1862*".
_OLD_YEAR = re.compile(r"(?i)\b(?:in|since|from|until|till|by|around|circa|c\.)\s+1[0-8]\d\d\b|\b1[0-8]\d0s\b")
_PER = re.compile(
    r"(?i)\b(?:per|a|an|each|every)\s+(hour|day|night|shift|week|fortnight|month|quarter|year|term|session|lesson|"
    r"visit|class)s?\b"
)
_PER_ADVERB = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "fortnightly": "fortnight",
               "monthly": "month", "quarterly": "quarter", "yearly": "year", "annually": "year", "annual": "year"}
_PER_ADVERB_WORD = re.compile(r"(?i)\b(?:" + "|".join(_PER_ADVERB) + r")\b")
_NEXT = re.compile(r"(?i)\b(?:next|upcoming|coming)\b")
_PAST = re.compile(r"(?i)\b(?:last|previous|ago|yesterday)\b")
#: A verb that tells what happened, said beside the next one: "The envelope had its 100-hr inspection – passed,
#: next one TBC" speaks of the last inspection too ("did the balloon get through its last check?"). Only verbs that
#: cannot be a plan's participle ("booked", "scheduled", "moved" are said of the next one).
_DONE = re.compile(r"(?i)\b(?:had|did|went|passed|failed|happened|got\s+through)\b")
_LAST_TIME = re.compile(r"(?i)\b(?:was|were|did)\b[^?.!]*\blast\b")
#: A question about a time gone by ("when was ...", "when did ...", "used to"; or one saying `_PAST`'s "last", "ago"):
#: a past time answers it.
_ASKS_PAST = re.compile(r"(?i)\bwhen\s+(?:was|were|did|had)\b|\bwhen['’]d\b|\bused\s+to\b")
#: A time gone by, said relative to now: "last year", "the previous season", "two weeks ago", "yesterday".
_PAST_TIME = re.compile(
    r"(?i)\b(?:last|previous)\s+(?:\w+\s+)?(?:year|month|week|time|season|term|summer|winter|spring|autumn|"
    r"weekend|night|one)s?\b(?!\s+of\b)|\b(?:\w+\s+)?(?:years?|months?|weeks?|days?)\s+ago\b|\byesterday\b"
)
_FREQUENCY_ONLY = re.compile(r"(?i)\b(?:every|each|daily|weekly|monthly|yearly|annually|fortnightly)\b")
_TIME_UNITS = frozenset({"min", "h", "s", "day", "week", "month", "year", "fortnight", "night", "weekend"})
_DURATION = re.compile(
    r"(?i)\b(?:a|an|half\s+an?|one)\s+(?:minute|hour|day|night|week|fortnight|month|year|decade)s?\b|"
    r"\b(?:daily|weekly|fortnightly|monthly|yearly|annually|hourly)\b"
)
_PRICE = re.compile(
    r"\b\d+[.,]\d\d\b|(?i:\b(?:costs?|sells?|sold|charges?|priced|fee|fees|pays?|paid|rent|budget)\b)"
)
#: A decimal after a word of time is a clock time, no price: "booked ... *at 10.15*, 32 kids, 4 adults".
_CLOCK_DECIMAL = re.compile(r"(?i)\b(?:at|from|until|till|by|around|before|after)\s+(?:[01]?\d|2[0-3])[.:][0-5]\d\b")
#: Opening hours as a range of bare hours after the word for them or a day: "winter hours 11-4", "Saturday job,
#: 10-5", "Sunday afternoons, 1-5" (`values` reads no clock time in "11-4").
_HOURS_RANGE = re.compile(
    r"(?i)\b(?:hours|open|opens|opening|closed|closes|shuts?|mornings?|afternoons?|evenings?|nights?|daily|"
    r"weekdays?|weekends?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b[,:]?\s*(?:from\s+)?"
    r"(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s*[-–]\s*(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\b(?![-–/]\d)"
)
#: A code: three digits or more in a row, or letters and digits in one token ("4471", "2E0BJW", "C1234X"); not a
#: clock time, an amount of money, an ordinal or a measure ("6.30", "£120", "7th", "12m").
_CODE_VALUE = re.compile(r"(?<![\d£$€.,:])\d{3,}(?![\d.,:]\d)|\b(?=[a-z\d]*[a-z])(?=[a-z\d]*\d)[a-z\d]{4,}\b",
                         re.IGNORECASE)
#: What looks like a code and is none: an amount of money, a clock time, an ordinal, a measure (a year may be a code:
#: "code 1906").
_NOT_CODES = re.compile(
    r"(?i)[£$€]\s?\d[\d,.]*k?|\b\d{1,2}[:.]\d\d\b|\b\d+(?:st|nd|rd|th|am|pm|km|kg|mm|cm|ml|mph|"
    r"m|g|h|s|k)\b"
)
_UNTIL = re.compile(r"(?i)\b(?:until|till|til|through|to|by|ends?|ending)\b")
_CODE = re.compile(r"\b[a-z]+\d[a-z\d]*\b", re.IGNORECASE)  # identifiers: Q4, v2, A100, HbA1c
_LOCATIVE = re.compile(
    r"(?i)\b(?:in|on|at|under|behind|inside|near|beside|above|below|next\s+to|from)\s+"
    r"(?:the|my|our|a|an|his|her|their|your)\s+[\w-]+"
)
#: People named by their role or relation answer "who" as well as a name does. Matched on the word itself (or its
#: plural), not its stem: "account" is not an "accountant".
_ROLES = frozenset(
    w
    for w in (
        "team manager lead owner engineer developer designer doctor dentist nurse teacher tutor coach trainer "
        "mum mom mother dad father sister brother wife husband partner son daughter friend colleague boss "
        "neighbour neighbor landlord landlady accountant lawyer cleaner babysitter nanny plumber electrician "
        "mechanic vet assistant admin administrator support department agency company"
    ).split()
)
#: Capitalised calendar words are dates, not names: "The Atlas launch deadline is Wednesday 12 March." does not
#: answer "Who is the product manager for Atlas?" (dev gap cases: five such false answers, none lost).
CALENDAR = frozenset(m for m in MONTHS if len(m) > 3 or m == "may") | frozenset(WEEKDAYS)
_MONEY_WORD = re.compile(r"(?i)\b(?:euros?|pounds?|dollars?|quid|pence|cents?|gbp|eur|usd|yen)\b|[€£$¥]")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PHONE = re.compile(r"(?:\+?\d[\s-]?){7,}")
_PATH = re.compile(r"[\w.-]+/[\w./-]+|(?<![\w/])/[\w.-]+/|`[^`]+`|\b\w+\.(?:ya?ml|json|toml|py|md|txt|sh|cfg|ini|conf)\b|https?://\S+")
_HOUR = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_SPOKEN_TIME = re.compile(rf"(?i)\b(?:half|quarter)\s+(?:past\s+|to\s+)?{_HOUR}\b|\b{_HOUR}\s+o['’]?clock\b")
#: A clock time written with an "h", as much of Europe writes it: "from 18h to 20h", "at 9h", "18h30".
_H_TIME = re.compile(r"(?i)(?:\b(?:at|from|until|till|to|by|between|around|and)\s+|[-–]\s*)(?:[01]?\d|2[0-3])h"
                     r"(?:[0-5]\d)?\b|\b(?:[01]?\d|2[0-3])h[0-5]\d\b")
_STREET = ("road rd street st lane ln avenue ave close drive dr way crescent place court gardens terrace row square "
           "parade mews grove hill").split()
#: A postal address: a number before a street ("14 elm road", "3a, Mill Lane"), a capitalised street ("Dale Street"),
#: a UK postcode ("OX9 2AB") or a US ZIP code after a state's two capitals ("Austin, TX 78701").
_POSTAL = re.compile(
    r"\b\d+[A-Za-z]?,?\s+(?:[A-Za-z][\w'’-]*\s+){0,3}(?i:" + "|".join(_STREET) + r")\b|"
    r"\b[A-Z][\w'’-]*\s+(?:" + "|".join(w.title() for w in _STREET) + r")\b|"
    r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\b[A-Z]{2}\s+\d{5}\b"
)
_AT_HOUR = re.compile(rf"(?i)\b(?:at|from|until|till|by|around)\s+(?:about\s+)?({_HOUR})\b(?![:.,]?\d)")
_WHOEVER = re.compile(r"(?i)\bwhoever\s+(?:is|was|has|holds|runs|leads)\b")
_WHO = re.compile(r"(?i)\bwho(?:m|se|['’]?s)?\b")
#: A name that is the subject of a negated verb: "Sandra *isn't standing* again for chair", "Tom *won't be* there",
#: "Jo *no longer* runs it". Asked who, such a name is the one who is not: no answer ("who's going to be chair?").
_NEGATED_AFTER = re.compile(
    r"(?i)\s+(?:(?:is|was|are|were|will|would|does|did|has|have|had|can|could)(?:n['’]?t|\s+not)\b|won['’]?t\b|"
    r"can['’]?t\b|cannot\b|never\b|no\s+longer\b|not\b)"
)
#: Words `values` takes for the unit of a number that are not units: "at 8 tomorrow" is a clock time.
_NOT_UNITS = frozenset({"", "today", "tomorrow", "tonight", "sharp", "ish"})
#: A fraction in words, which `values` does not read as a number.
_FRACTION = re.compile(
    r"(?i)\b(?:a|one|two|three|four)\s+(?:half|third|quarter|fifth|sixth|tenth)s?\b|\bhalf\s+(?:of|the|a|an)\b"
)
_EARLY_LATE = re.compile(r"(?i)\bhow\s+(?:early|late)\b")
#: A name that is not capitalised: a user name or handle ("marta_rides", "@marta"), or one said to be a name.
_HANDLE = re.compile(
    r"(?i)\b(?:user\s*name|handle|login|nickname|screen\s+name)\s+(?:is|was)\s+\S|(?<![\w@.])@[a-z]\w+|"
    r"\b[a-z]+_[a-z0-9_]+\b"
)
_CURRENCIES = frozenset(CURRENCY.values()) & frozenset(UNIT_ALIASES.values())
_CAPITAL = re.compile(r"\b[A-Z][\w'’.-]*[A-Za-z0-9]|\b[A-Z]\b")


#: A number that names one thing ("the company number", "my VAT registration number", "the catalogue number"), not
#: how many or how much of it.
_IDENTIFIER_ASKED = re.compile(
    r"(?i)\b(?!(?:total|maximum|max|minimum|min|average|exact|right|same|lucky|the|a|an|that|this|what|which)\b)"
    r"[a-z]+\s+number\b(?!\s+of\b)"
)
#: An age asked ("what age can you join from?", "the minimum age", "how old do you have to be?") and one said.
_AGE_ASKED = re.compile(
    r"(?i)\bwhat\s+age\b|\b(?:minimum|maximum|min|max)\s+age\b|\bage\s+limit\b|"
    r"\bhow\s+old\s+(?:do|does|must|should|has|have)\s+(?:you|i|we|they|he|she|one|someone|kids|children)\b"
)
_AGE = re.compile(
    r"(?i)\bages?\b|\baged\b|\byears?\s+old\b|\b\d+-year-olds?\b|\b(?:over|under)[\s-]?\d+s?\b|\b\d+\s*\+|"
    r"\b(?:adults?|children|kids|teens?|teenagers?|juniors?|seniors?|toddlers?|babies|infants?)\b"
)


#: A question that opens with "who" and asks nothing else: a person, whatever thing of theirs it names ("who has the
#: combination for the safe?", "who knows the wifi password?": the one who holds it, not the code).
_WHO_FIRST = re.compile(r"(?i)^\W*who(?:m|['’]?s)?\b")
_OTHER_QUESTION = re.compile(r"(?i)\b(?:what|when|where|which|how)\b")


def is_role(word: str) -> bool:
    """`word` names a person by role or relation ("son", "plumbers", "mum"): a named person may be them."""
    w = word.lower()
    return w in _ROLES or w.removesuffix("s") in _ROLES


def expected_answer(query: str) -> str | None:
    """The kind of value the query asks for (time, when, duration, number, money, name, place, a postal address,
    email, phone, code, age); a question that asks to confirm a statement asks the kind of value it states."""
    if _WHO_FIRST.match(query) and not _OTHER_QUESTION.search(query):
        return "name"
    for name, pattern in _EXPECT:
        if pattern.search(query):
            return name
    return checked_kind(query)  # "Mum's party is the 16th, isn't it?": the date it checks (`gap_confirm`)


def holds_answer(content: str, expects: str | None, query: str) -> bool:
    """Does `content` hold a value of the expected kind?"""
    if expects is None:
        return True
    v = values(content)
    if expects == "time":  # "how early should I get in?" / "… ten minutes early": an offset answers it too
        offset = bool(_EARLY_LATE.search(query)) and any(unit in ("min", "h") for unit, _ in v.quantities)
        return bool(v.times) or spoken_time(content) or offset or bool(_HOURS_RANGE.search(content))
    if expects == "when" and _WHICH_YEAR.search(query) and _ORDINAL_YEAR.search(content):
        return True  # "What year am I in?" / "second year", "Year 9"
    if expects == "when" and _LAST_TIME.search(query):  # "When was the oven last serviced?": a past date,
        # not how often it is done ("every six months")
        return bool(v.dates or v.weekdays or v.months or v.years or _PAST.search(content))
    if expects == "when":
        if _PAST.search(content) and not (_ASKS_PAST.search(query) or _PAST.search(query)):
            # "when's the fun run this year?" / "fun run: roughly 300 runners last year": when the last one was is no
            # answer to when this one is; the memory answers only with a time besides its past ones
            content = _PAST_TIME.sub(" ", content)
            v = values(content)
        timed = any(unit in _TIME_UNITS for unit, _ in v.quantities)  # "in two weeks"
        return bool(v.times or v.dates or v.weekdays or v.months or v.years or v.periods or timed
                    or _FREQUENCY.search(content) or _EVENT_TIME.search(content) or _OLD_YEAR.search(content))
    if expects in ("money", "number") and not _same_period(content, query):
        return False  # "How much does the staff parking permit cost per year?" / "… 4 pounds a shift …"
    if expects == "money":  # "12 pounds", "£5", and prices without a currency: "sells for 4.50", "3.20 each"
        if not v.quantities:
            return False
        return bool(_MONEY_WORD.search(content) or _PRICE.search(_CLOCK_DECIMAL.sub(" ", content)))
    if expects == "number" and _IDENTIFIER_ASKED.search(query):
        # "what's Hollybank's company number?": an identifier, not an amount or a date ("salary of £12,570")
        return bool(any(not unit for unit, _ in v.quantities) or _CODE.search(content) or _PHONE.search(content))
    if expects == "number" and _AGE_ASKED.search(query):  # "what age can you do the course from?": an age
        return bool(_AGE.search(content))
    if expects in ("number", "duration"):
        # a number the question names itself ("the under-11s") is not an answer; a clock time is not "how many"
        own = {q for _, q in values(query).quantities}
        if {q for _, q in v.quantities} - own or v.years or _DURATION.search(content):  # a date is no count
            return True
        if expects == "number" and _FRACTION.search(content):  # "how far down?" / "a third of the way down"
            return True
        # "how long": an end point answers too ("until September")
        return expects == "duration" and bool(_UNTIL.search(content)) and bool(v.months or v.dates or v.weekdays
                                                                                or v.years)
    if expects == "code":  # a code holds a digit, or is quoted: "4471", "`X7-KQ`"
        return bool(_CODE_VALUE.search(_NOT_CODES.sub(" ", content))
                    or re.search(r"[`'\"][^\s`'\"]+[`'\"]", content))
    if expects == "address":  # a street and its number, or a postcode: "14 Elm Road", "Dale Street", "OX9 2AB"
        return bool(_POSTAL.search(content))
    if expects == "email":
        return bool(_EMAIL.search(content))
    if expects == "phone":
        return bool(_PHONE.search(content))
    asked = {stem(w) for w in tokenize(query)}
    who = expects == "name" and bool(_WHO.search(query))
    names = {
        stem(w)
        for m in _CAPITAL.finditer(content)
        for w in tokenize(m.group(0))
        if w not in stop_words() and w not in CALENDAR and not (who and "_" in m.group(0))  # no one is STRIPE_KEY
        and not (who and _NEGATED_AFTER.match(content, m.end()))  # asked who, "Sandra isn't standing" is not who
    }
    if names - asked:
        return True
    if expects == "name" and not who and _HANDLE.search(content):
        return True  # "My Zwift username is marta_rides": a name need not be capitalised
    if expects == "name" and _WHOEVER.search(content):
        return True  # "The status page is updated by whoever is incident commander.": a person named by role
    if expects == "name":  # "the platform team", "my sister": a person named by role
        words = {w.removesuffix("s") if w.removesuffix("s") in _ROLES else w for w in tokenize(content)}
        return bool({w for w in words & _ROLES if stem(w) not in asked})
    return bool(_PATH.search(content) or _LOCATIVE.search(content))


def spoken_time(text: str) -> bool:
    """A clock time as people say it, which `values` does not read: "leaving the café at 8", "at half seven",
    "quarter to nine", "eight o'clock" (an hour after "at", "from", "until", "by" without a unit of its own), "from
    18h to 20h" (`values` reads "18h" as eighteen hours)."""
    if _SPOKEN_TIME.search(text) or _H_TIME.search(text):
        return True
    for m in _AT_HOUR.finditer(text):
        q = values(text[m.start(1) : m.end(1) + 16]).quantities
        if q and all(unit in _NOT_UNITS and 1 <= n <= 24 for unit, n in q):
            return True
    return False


def _periods(text: str) -> set[str]:
    out = {m.group(1).lower() for m in _PER.finditer(text)}
    return out | {_PER_ADVERB[m.group(0).lower()] for m in _PER_ADVERB_WORD.finditer(text)}


def _same_period(content: str, query: str) -> bool:
    """A rate asked per one period ("per year", "monthly") is not answered by an amount per another ("a shift")."""
    asked = _periods(query)
    said = _periods(content)
    return not asked or not said or bool(asked & said)


#: A period named relative to now: "this month", "next week", "last year's", "coming term", "today"; not one
#: relative to another time ("roll into *the following month*", "*the next week*": a rule's period, not a date).
_RELATIVE_PERIOD = re.compile(
    r"(?i)(?<!\bthe\s)\b(this|next|last|previous|coming|following)\s+(morning|afternoon|evening|night|weekend|week|month|"
    r"term|quarter|season|spring|summer|autumn|winter|year)(?:['’]?s)?\b|\b(today|tonight|tomorrow|yesterday)\b"
)
_PERIOD_SIGN = {"this": 0, "next": 1, "coming": 1, "following": 1, "last": -1, "previous": -1, "today": 0,
                "tonight": 0, "tomorrow": 1, "yesterday": -1}
#: How long each period is, in rank: a part of the day, a day, a week, a month, a term or a season, a year.
_PERIOD_RANK = {"morning": 0, "afternoon": 0, "evening": 0, "night": 0, "tonight": 0, "today": 1, "tomorrow": 1,
                "yesterday": 1, "weekend": 2, "week": 2, "month": 3, "term": 4, "quarter": 4, "season": 4,
                "spring": 4, "summer": 4, "autumn": 4, "winter": 4, "year": 5}


def _relative_periods(text: str) -> set[tuple[int, int]]:
    """(sign, rank) of each period `text` names relative to now: "next month" -> (1, 3), "this morning" -> (0, 0)."""
    out = set()
    for m in _RELATIVE_PERIOD.finditer(text):
        if m.group(3):
            word = m.group(3).lower()
            out.add((_PERIOD_SIGN[word], _PERIOD_RANK[word]))
        else:
            out.add((_PERIOD_SIGN[m.group(1).lower()], _PERIOD_RANK[m.group(2).lower()]))
    return out


def _period_clash(content: str, query: str) -> bool:
    """The question asks of the next or the last period, the memory names periods relative to now and none of them
    can be the asked one: "what are Fiona's shifts next month?" / "... on Tuesday, Wednesday and Friday this
    month", "how much did the station raise last year?" / "... target this year is £7,500", "how many birds ...
    last year?" / "Ringing this morning: 37 birds". One period may lie inside the other ("next month" / "next
    week", "tomorrow" / "this week"). A question of this period is not read so: "when do we press the apples
    this year?" is answered by a date, and a memory of last year's yield beside it is no other answer (as a
    feature over every served memory it weighed a far, unrelated memory: held-out 20, p 0.11 -> 0.98)."""
    asked = {(sign, rank) for sign, rank in _relative_periods(query) if sign}
    said = _relative_periods(content)
    if not asked or not said:
        return False
    return not any(_may_be(s, a) for a in asked for s in said)


def _may_be(said: tuple[int, int], asked: tuple[int, int]) -> bool:
    """A period said may be the one asked: the same sign, one inside this one of the other ("this year" holds "last
    week"; "this week" holds "tomorrow")."""
    (s_sign, s_rank), (a_sign, a_rank) = said, asked
    return s_sign == a_sign or (a_sign == 0 and s_rank < a_rank) or (s_sign == 0 and s_rank > a_rank)


def tense_clash(content: str, query: str) -> bool:
    """The question asks about the next one and the memory speaks only of the last one, or the other way round:
    "What's the conversion rate target for next quarter?" / "… rate last quarter was 3.2%.", "When is my next
    blood test?" / "My blood pressure was 128/82 at the last check-up."; or the two name other periods
    (`_period_clash`: "next month" / "this month")."""
    if _period_clash(content, query):
        return True
    if _NEXT.search(query) and not _PAST.search(query):
        return bool(_PAST.search(content)) and not (_NEXT.search(content) or _FREQUENCY_ONLY.search(content))
    if _PAST.search(query) and not _NEXT.search(query):
        return bool(_NEXT.search(content)) and not (_PAST.search(content) or _DONE.search(content))
    return False


def holds_asked_values(content: str, query: str) -> bool:
    """A question pinned to values ("which album came out in 1997?", "my best time for 10 km?", "the Q4
    target?") is answered only by a memory that holds one of them."""
    if confirms(query):  # "wasn't it the 2nd?" / "start pushed back to 16 June": the value checked, no pin
        return True
    if _other_weekday(content, query) or _other_month(content, query):
        return False
    asked = _flat(query)
    if not asked or asked & _flat(content):
        return True
    kinds = _kinds(values(query)) | ({("time", "")} if spoken_time(query) else set())
    return bool(kinds & _bounded(content)) or _in_range(query, content)


_WEEKDAY_RANGE = re.compile(r"(?i)\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*(?:to|-|–|through|until|till)\s*"
                            r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\bweekdays?\b|\bweekends?\b|\bdaily\b")


_WH_QUESTION = re.compile(r"(?i)^\W*(?:what|when|where|who|which|how)")


def _other_weekday(content: str, query: str) -> bool:
    """The question names a day of the week and the memory names only others: "what age can you do the *Tuesday*
    evening course from?" is not answered by "Children's sessions are on *Saturdays* … for ages 7 to 12". Not in a
    yes/no question: "Can I slot a meeting in on Friday at 3pm?" is a case of "No meetings before 9:30 on Mondays"."""
    if not _WH_QUESTION.match(query):
        return False
    asked = values(query).weekdays
    said = values(content).weekdays
    return bool(asked and said and not asked & said and not _WEEKDAY_RANGE.search(content))


#: Months joined as a range or a season: "Jul–Aug", "from May to September", "April through June".
_MONTH_RANGE = re.compile(
    r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(?:to|-|–|through|until|till)\s*"
    r"(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
    r"\b(?:spring|summer|autumn|winter|season|monthly|every\s+month|each\s+month)\b"
)


def _other_month(content: str, query: str) -> bool:
    """The question names a month and the memory names only others, as months or in dates: "Who's doing the
    turning demo in May?" is not answered by "club demo 3 Mar, AGM 7 Apr, guest turner ..." (another occasion of
    the same thing), as `_other_weekday` reads days. Not in a yes/no question ("Is the demo in May?" / "demo 3 Mar"
    says no), nor against months joined as a range or a season ("Jul–Aug", "all summer")."""
    if not _WH_QUESTION.match(query):
        return False
    qv, cv = values(query), values(content)
    asked = set(qv.months) | {m for m, _ in qv.dates}
    said = set(cv.months) | {m for m, _ in cv.dates}
    return bool(asked and said and not asked & said and not _MONTH_RANGE.search(content))


#: "numbers one to nine in words", "between 5 and 10 people", "ages 3-6": the numbers between two bounds.
_RANGE = re.compile(
    r"(?i)\b(?:between\s+)?(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*"
    r"(?:to|and|-|–)\s*(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
)
_NUMBER_WORDS = {w: float(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


def _in_range(query: str, content: str) -> bool:
    """A bare number the question names lies in a range the memory states ("do I write 7 or seven?" / "numbers
    one to nine in words"): the range answers it, as a limit does."""
    asked = {q for u, q in values(query).quantities if not u}
    if not asked:
        return False
    for m in _RANGE.finditer(content):
        a, b = (_NUMBER_WORDS.get(x.lower()) if x.lower() in _NUMBER_WORDS else float(x) for x in m.groups())
        if a is not None and b is not None and any(min(a, b) <= q <= max(a, b) for q in asked):
            return True
    return False


#: Words that make the value after them a limit: "no caffeine *after* 3am", "disputes *over* £500", "capped at 8".
_BOUND = re.compile(
    r"(?i)\b(?:before|after|over|above|under|below|beyond|past|more\s+than|less\s+than|fewer\s+than|at\s+least|"
    r"at\s+most|up\s+to|no\s+(?:later|earlier|more|less)\s+than|capped\s+at|limited\s+to|exceeds?|passes|"
    r"max(?:imum)?|min(?:imum)?|until|till|by)\s+"
)


def _kinds(v: Values) -> set[tuple[str, str]]:
    """The kinds of values in `v`: a clock time, a date, or an amount in a unit (a bare number is no kind)."""
    out: set[tuple[str, str]] = {("time", "")} if v.times else set()
    out |= {("date", "")} if v.dates or v.weekdays else set()
    return out | {("amount", unit) for unit, _ in v.quantities if unit}


def bounded(content: str) -> bool:
    """`content` states a limit on a value ("Expenses under 50 euros need no receipt.")."""
    return bool(_bounded(content))


#: Two clock times joined as a range: "from 8:00 to 11:00", "9-5", "10am until 2pm".
_TIME_RANGE = re.compile(
    r"(?i)\b\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?\s*(?:to|-|–|until|till)\s*\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?"
)


def _bounded(content: str) -> set[tuple[str, str]]:
    """The kinds of the limits `content` states. A question that names a value of one of them ("is it ok to have
    a coffee at 4am?") is answered by the limit ("I can't have caffeine after 3am"): it is a case of the rule,
    not a different subject. Hours given as a range are a limit too ("can someone get their bloods done at 2pm?"
    / "Blood tests … from 8:00 to 11:00")."""
    out: set[tuple[str, str]] = set()
    for m in _BOUND.finditer(content):
        out |= _kinds(values(content[m.end() : m.end() + 24]))
    if any(len(values(m.group(0)).times) >= 2 for m in _TIME_RANGE.finditer(content)):
        out.add(("time", ""))
    return out


def _flat(text: str) -> set[tuple[str, object]]:
    v = values(text)
    out: set[tuple[str, object]] = {("t", t) for t in v.times} | {("d", d) for d in v.dates}
    # a bare "one" is a pronoun ("where's the spare one kept?"), not a value the question is pinned to
    # an amount of money is no number of another kind: "what's the insurance for under-18s?" is not pinned to "£18"
    out |= {("n", float(y)) for y in v.years}
    out |= {("m" if u in _CURRENCIES else "n", q) for u, q in v.quantities if u or q != 1}
    out |= {("c", m.group(0).lower()) for m in _CODE.finditer(text)}
    return out
