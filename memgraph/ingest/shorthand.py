"""Notes' shorthand written out in the words `values.py` reads: a rate after its amount ("£1.3k/mo", "£18/hr", "£900
pcm", "£30k p.a.") as "a month", "an hour", "a year"; a unit of time written short after a number ("every 2 yrs",
"3 wks", "6 mos") as the word.

Why: how often ("every 2 years", "1,300 a month") and how long are read from words; written short they were values
of other kinds, or none, so a note and the sentence it restates never met ("rent 1.3k/mo" / "Rent is 1,300 a
month."). Like `spoken.digitise`, a rewrite of the text `values` and `masked` read (spans refer to it).
"""

from __future__ import annotations

import re

#: A unit of time as notes write it after a number ("every 2 yrs", "3 wks", "6 mos"): the word, so that how often
#: ("every 2 years") and how long read it as they read the word.
_UNIT_SHORT = re.compile(r"(?i)(?<=\d)\s*(yrs?|wks?|mos|mths?|hrs?)\b")
_UNIT_LONG = {"yr": "year", "yrs": "years", "wk": "week", "wks": "weeks", "mos": "months", "mth": "month",
              "mths": "months", "hr": "hour", "hrs": "hours"}


#: A rate as notes write it, after its amount: "£1.3k/mo", "£18/hr", "$40/wk", "£900 pcm", "£30k p.a.": read as
#: "a month", "an hour" ... (how often, in words, is what the frequency pattern reads: "rent 1.3k/mo" and "rent is
#: 1,300 a month" were two values of other kinds).
_RATE_WRITTEN = re.compile(
    r"(?i)(?<=[\dk])\s*(?:/\s*|\s+per\s+)?(?P<per>(?<=/)(?:hr|h|hour|day|d|wk|week|mo|mth|month|yr|year|annum)\b|"
    r"(?<=\s)(?:pcm|p/m|p\.a\.?|per\s+annum)(?![\w/]))"
)
_RATE_WORDS = {"hr": " an hour", "h": " an hour", "hour": " an hour", "day": " a day", "d": " a day", "wk": " a week",
               "week": " a week", "mo": " a month", "mth": " a month", "month": " a month", "pcm": " a month",
               "p/m": " a month", "yr": " a year", "year": " a year", "annum": " a year", "p.a": " a year",
               "per annum": " a year"}


def written_out(text: str) -> str:
    """`text` with notes' shorthand for rates and units of time written out; `text` itself when it has none."""
    if "/" in text or "pcm" in text or "p.a" in text or "annum" in text:
        text = _RATE_WRITTEN.sub(lambda m: _RATE_WORDS[m.group("per").lower().strip(". ")], text)
    if any(w in text for w in ("yr", "wk", "mo", "mth", "hr")):
        text = _UNIT_SHORT.sub(lambda m: " " + _UNIT_LONG[m.group(1).lower()], text)
    return text
