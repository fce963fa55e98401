"""The words and patterns the value parse reads (`values.py`): month and weekday names (English and the languages
mixed into it most), number words, and the regular expressions of times, dates, ranges, periods and quantities.
Tables only, no parse: `values.py` reads them."""

from __future__ import annotations

import re

MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ]
    )
    for m in names
}
WEEKDAYS = {d: i for i, d in enumerate("monday tuesday wednesday thursday friday saturday sunday".split())}
_WEEKDAY_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
                  "sun": 6}
#: The weekdays of the languages people mix into English most here (Spanish, Tagalog, German, French: "my abuela's
#: cita is el martes", "the Kita is closed on Freitag"); not "linggo" (also "week" in Tagalog). A day that is also a
#: name (`_WEEKDAY_ABROAD_NAME`: "Domingo") is read only in lower case, or after "el".
_WEEKDAY_ABROAD = {
    "lunes": 0, "martes": 1, "miercoles": 2, "miércoles": 2, "miyerkules": 2, "jueves": 3, "huwebes": 3,
    "viernes": 4, "biyernes": 4, "sabado": 5, "sábado": 5, "montag": 0, "dienstag": 1, "mittwoch": 2,
    "donnerstag": 3, "freitag": 4, "samstag": 5, "sonntag": 6, "lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3,
    "vendredi": 4, "samedi": 5, "dimanche": 6, "domingo": 6,
}
_WEEKDAY_ABROAD_NAME = frozenset({"domingo"})
#: The short weekdays that are no other English word, read in lower case too (chat: "swimming is tues 5pm").
_CHAT_WEEKDAYS = frozenset({"tue", "tues", "thu", "thur", "thurs", "fri"})
#: Where a lower-case short weekday that is also a word ("mon", "wed", "sat", "sun") can only be the day: after a
#: word that names a day ("every mon", "on sat", "from wed"), not "I sat down", "the sun".
_DAY_BEFORE = re.compile(r"(?i)\b(?:every|each|on|next|this|last|from|till|until|by|before|after)\s+$")
NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
     "hundred": 100, "thousand": 1000, "twice": 2, "once": 1, "half": 0.5, "dozen": 12}
_TIMES_WORDS = {"once": 1, "twice": 2, "thrice": 3, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_FREQUENCY = re.compile(
    # "twice a year", "three times a week": the period divided ("twice a year" = "every six months")
    # ("two times daily", "once nightly": the count before the adverb divides it as it does "a day")
    r"(?i)\b(?:(?P<k>once|twice|thrice)|(?P<kn>\d+|two|three|four|five|six)\s+times)\s+(?:(?:a|an|per|each|every)\s+"
    r"(?P<per>hour|day|night|week|fortnight|month|quarter|year)\b|"
    r"(?P<kadv>hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually)\b)"
    # "two-hourly", "3-monthly": the period multiplied
    r"|\b(?P<mn>\d+|two|three|four|five|six)[\s-](?P<madv>hourly|daily|weekly|monthly|yearly)\b"
    r"|\b(?P<adv>hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually)\b"
    # ("once every four weeks" is every four weeks, as "once a week" is weekly; "every couple of months": two)
    # "every other Saturday", "every alternate Saturday", "alternate Saturdays": fortnightly, on that weekday (read
    # apart from the weekday, which `_WEEKDAY` reads; held-out pairs 16: "every alternate saturday" beside "meets
    # fortnightly on Saturdays")
    # (the weekday whole, so that every match holds the gate's "day": test_parse_gates)
    r"|\b(?P<alt>every\s+(?:other|alternate|second)|alternate)\s+(?P<altday>(?:mon|tues|wednes|thurs|fri|satur|sun)"
    r"days?)\b"
    r"|\b(?:every|each|per|once\s+(?:an?|every|each)|an?)\s+"
    r"(?:(?P<other>other|alternate|second)\s+|(?P<n>\d+|two|three|four|five|six|couple\s+of)\s+)?"
    # ("a week in advance", "a day ahead", "a week's notice": how long before, not how often; held-out pairs 13)
    r"(?P<unit>hour|day|night|week|fortnight|month|quarter|year)s?\b(?!\s+(?:ago|later|earlier|old|or\s+two|"
    r"in\s+advance|ahead|beforehand)\b)(?!['’]s?\s+notice\b)"
)
#: What may stand between times and the part of the day that marks them pm: "7:30 till 9:30 in the evening".
_MARKING = re.compile(r"(?i)\s*(?:pm\b)?\s*(?:in\s+the|at|this|tomorrow|every|each|on\s+\w+)?\s*")
_RANGE_GAP = re.compile(r"(?i)\s*(?:-|–|to|till|until|and)\s*")
_PERIOD_HOURS = {
    "morning": lambda h: 5 <= h < 12, "afternoon": lambda h: 12 <= h < 18, "evening": lambda h: 17 <= h < 24,
    "night": lambda h: h >= 19 or h < 6,
}
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"
_TIME = re.compile(
    r"(?i)\b(?P<h>[01]?\d|2[0-3])[:.](?P<m>[0-5]\d)(?:\s*(?P<ap>a\.?m\.?|p\.?m\.?))?(?!\d|[.:]\d)"
    r"|\b(?P<h2>1[0-2]|0?[1-9])\s*(?P<ap2>a\.?m\.?|p\.?m\.?)(?![a-z])"
    r"|\b(?P<word>noon|midday|midnight)\b"
)
#: The words that end a range of clock hours (not "to" or "-", which end ranges of counts too: "2 to 4 people").
_CLOCK_GAP = re.compile(r"(?i)\s*(?:till|til|until)\s*")
#: What follows the first end of a range of hours said in words: "from two till four".
_WORD_RANGE = re.compile(r"(?i)\s*(?:till|til|until)\s+(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                         r"twelve)\b")
#: The last bare hour of a range read as afternoon or evening ("from 2 till 4"): from eight a bare hour is as often
#: morning ("from 8 till 10").
_AFTERNOON_END = 7
_AT_TIME = re.compile(r"(?i)\b(?:at|from|until|till|by|before|after|around|about)\s*$")
_TIME_RANGE = re.compile(
    r"(?i)\b(?P<h1>1[0-2]|0?[1-9])(?::(?P<m1>[0-5]\d))?\s*(?:-|–|to|until|till)\s*"
    r"(?P<h2>1[0-2]|0?[1-9])(?::(?P<m2>[0-5]\d))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])"
)
#: Opening hours said as bare hours that wrap past noon: "open 10 till 4" = "10:00-16:00", "I work 9 to 5" (the
#: second end below the first is afternoon). A range of counts ("5 to 10 minutes") does not wrap, a score ("won 3-1")
#: starts before six, a count has its noun after it ("10 to 4 days"); "to" and "-" need a word of hours before them
#: (open, from, work, shift, hours), "and" a "between" ("deliveries go out between 9 and 1").
_WRAP_RANGE = re.compile(
    r"(?i)\b(?P<h1>1[0-2]|0?[6-9])(?::(?P<m1>[0-5]\d))?\s*(?P<gap>-|–|to|until|till|and)\s*"
    r"(?P<h2>[1-9])(?::(?P<m2>[0-5]\d))?\b(?![:.]?\d|\s*(?:%|[ap]\.?m\b|o['’]?\s?clock))"
)
_HOURS_BEFORE = re.compile(
    r"(?i)\b(?:open(?:s|ed)?|from|hours|shifts?|works?|working|staffed|[a-z]*days?)\b[^.;\d]{0,16}$"
)
_DATE = re.compile(
    rf"(?i)\b(?P<d1>[0-3]?\d){_ORD}(?:\s*[-–]\s*(?P<d1b>[0-3]?\d){_ORD})?\s+(?:of\s+)?(?P<m1>{_MONTH_RE})\b\.?"
    rf"|\b(?P<m2>{_MONTH_RE})\.?\s+(?:the\s+)?(?P<d2>[0-3]?\d){_ORD}\b(?!\s*(?:[:.]\d|%))"
    r"|\b(?P<y>(?:19|20)\d\d)-(?P<mo>[01]\d)-(?P<d3>[0-3]\d)\b"
)
#: "30/06/2028": day first unless that cannot be ("06/30/2028"); "03/04/2028" could be either, so it gives both
#: (then it is the same date as neither alone, and no other date is a change of it).
_SLASH_DATE = re.compile(r"\b(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)/(?P<y>(?:19|20)\d\d)\b")
#: A slashed date without its year ("expires 14/3", "due by 3/4"), read only after a word that introduces a date:
#: bare "3/4" is as often a fraction ("3/4 of the budget") or a score.
_SHORT_SLASH_DATE = re.compile(
    r"(?i)\b(?:on|by|until|till|til|from|before|after|since|due|expires?|expiring|ends?|starts?|thru)\s+"
    r"(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)(?![/\d])"
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_NUMBER = re.compile(
    r"(?P<cur>[€£$¥₹])?\s?(?P<neg>(?:(?<=\s)|^|(?<=\())[-−])?(?P<n>(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?)"
    r"(?P<ord>st|nd|rd|th)?(?P<pct>\s?%)?"
    r"|\b(?P<w>" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")(?:(?P<hy>-)|\b)",
    re.IGNORECASE,
)
#: `_NUMBER` without its number words (the same groups): the same matches in a text that holds none of the words.
_NUMBER_DIGITS = re.compile(_NUMBER.pattern.split(r"|\b(?P<w>")[0] + r"|(?P<w>(?!))(?P<hy>(?!))", re.IGNORECASE)
_WORD = re.compile(r"[a-z%][a-z0-9%]*|\S", re.IGNORECASE)
#: A degree sign and its scale after a number: the unit of a temperature ("°C" = "degrees", the Celsius the
#: texts here use; "°F" another unit).
_DEGREES = re.compile(r"\s?°\s?([CF])\b", re.IGNORECASE)
#: A temperature's scale written without its sign, in a note's or chat's shorthand: "drop temp 205 C", "held at
#: 54 F" (a capital letter alone after the number, not a word: "3 Cs", "12 C.V.").
_BARE_DEGREES = re.compile(r" ([CF])(?![\w'’&.-]|\.\w)")
#: What follows a number with a decimal point that makes it a share, never a clock time: "at 4.19 per cent".
_PERCENT_AFTER = re.compile(r"(?i)\s*(?:%|per\s*cent\b|percent\b)")
_WEEKDAY = re.compile(
    r"(?i)\b(?P<d>monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|"
    r"lunes|martes|mi[eé]rcoles|miyerkules|jueves|huwebes|viernes|biyernes|s[aá]bado|domingo|montag|dienstag|"
    r"mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)"
    r"s?\b"
)
_WEEK_PART = re.compile(r"(?i)\b(?:weekdays?|weekends?)\b")
#: What joins the two ends of a range of days: "Tuesday to Thursday", "Mon-Fri", "Monday through Friday".
_DAY_RANGE_GAP = re.compile(r"(?i)\s*(?:-|–|to|till|until|through|thru)\s*")
_PERIOD = re.compile(r"(?i)\b(?P<p>morning|afternoon|evening|night|arvo|nite|morn)s?\b")
#: A part of the day as chat and Australian English say it: "tues arvo", "thurs nite", "sat morn".
_PERIOD_SAID = {"arvo": "afternoon", "nite": "night", "morn": "morning"}
_RATE_BEFORE = re.compile(r"(?i)(?:\d[\d.,]*\s*[a-z%]{0,6}|pounds|dollars|euros|quid|pence)\s+$")
#: "for" right before "a week" / "an hour": how long it lasts, not how often.
_FOR_BEFORE = re.compile(r"(?i)\bfor\s+$")
_NOUN_NEXT = re.compile(r"(?:['’]s\b|\s+([a-z]+)\b)", re.I)
_WEEKDAY_BEFORE = re.compile(r"(?i)(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|tues?|weds?|thurs?|fri)\s+$")
_DETERMINERS = frozenset("the a an this that which any every no each another other one".split())
_REDACTED = re.compile(r"\[REDACTED:[a-z0-9_]+\]")
_MONTH = re.compile(rf"(?i)\b(?P<m>{_MONTH_RE})\b")
_DIGIT = re.compile(r"\d")
#: Substrings of the lower-cased text without which a word pattern cannot match (`_values` skips it then).
#: Each with the set of its words' first three letters: a text holds one of the words only if it holds one of
#: those (one set test against the text's three-letter runs instead of a substring search per word, ~0.3 us each).
_TIME_WORDS = ("noon", "midday", "midnight")
_WEEKDAY_STEMS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun", "lun", "mar", "mie", "mié", "miy", "jue", "huw",
                  "vie", "biy", "sab", "sáb", "dom", "die", "mit", "don", "fre", "sam", "son", "mer", "jeu", "ven",
                  "dim")
_MONTH_STEMS = tuple(sorted({m[:3] for m in MONTHS}))
_PERIOD_WORDS = ("morning", "afternoon", "evening", "night", "arvo", "nite", "morn")
_NUMBER_WORDS = tuple(NUMBER_WORDS)
_FREQUENCY_WORDS = ("hour", "dai", "day", "night", "week", "fortnight", "month", "quarter", "year", "annual")
