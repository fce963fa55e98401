"""Common abbreviations of everyday and business English written out as the words they stand for, for the pair
the reconciler compares: "£14k inc. VAT" says "including VAT", "venue now TBC" says "to be confirmed", "sweep n/a
from now on" says "not applicable", "ETA at the track 0800" says "expected arrival at the track 8:00", "cert to
follow by EOD" says "certificate ... by the end of the day".

Why: a statement's words are compared as stems, so "inc." and "including", "ETA" and "expect to arrive" share
nothing, and the rules read the abbreviation as another word, or a name (held-out pairs 22: "The thatching job is
priced at £14,000 including VAT." / "Thatch quote: £14k inc. VAT." missed as a duplicate; "£450 inc. VAT" / "£450 +
VAT" taken for one). A table, not a model: these are the abbreviations of general English that notes, emails and
messages use in every trade (end of day, to be confirmed, not applicable, approximately ...), written from general
usage; a trade's own initialism is read from the initials of the words the other text says (`acronyms.py`), never
from a list. Each is read only in the form notes write it: capitals for the initialisms ("ETA", not "eta"), lower
case for "inc." and "excl." ("Acme Inc." is a company), "+" only after an amount ("£450 + VAT").

Like `acronyms.spelled_out`, a reading of the pair: the stored texts and their embeddings stay as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.statement import Statement, statement

#: Initialisms and shortened words as notes write them -> the words they stand for. Initialisms in capitals only
#: ("TBC", "EOD"); "n/a" in either case.
_WORDS: dict[str, str] = {
    # what is not settled yet, or no longer applies
    "TBC": "to be confirmed", "TBA": "to be announced", "TBD": "to be decided", "tbc": "to be confirmed",
    "tba": "to be announced", "tbd": "to be decided", "n/a": "not applicable", "N/A": "not applicable",
    # when, by a working day's or week's end
    "EOD": "the end of the day", "COB": "the close of business", "EOW": "the end of the week",
    "EOM": "the end of the month", "ASAP": "as soon as possible",
    # arrival and departure
    "ETA": "expected arrival", "ETD": "expected departure",
    # where someone works, and a reply asked for
    "OOO": "out of office", "WFH": "working from home", "RSVP": "reply",
    # shortened words
    "approx": "approximately", "appt": "appointment", "appts": "appointments", "cert": "certificate",
    "certs": "certificates", "info": "information", "dept": "department", "govt": "government",
    "inc": "including", "incl": "including", "exc": "excluding", "excl": "excluding",
}
#: A token of `_WORDS`, a shortened word's full stop taken with it where the sentence goes on ("approx. 40", not the
#: stop that ends "… by EOD."); "n/a" needs its own boundaries.
_TOKEN = re.compile(
    r"(?<![\w/'’-])(?P<w>TBC|TBA|TBD|tbc|tba|tbd|[Nn]/[Aa]|EOD|COB|EOW|EOM|ASAP|ETA|ETD|OOO|WFH|RSVP|approx|appts?|"
    r"certs?|info|dept|govt)(?:\.(?=\s+[a-z£$€\d]))?(?![\w/'’-])"
    # "inc." / "incl." / "exc." / "excl." before what is included ("inc. VAT", "incl delivery"), lower case only
    r"|(?<![\w'’-])(?P<i>inc|incl|exc|excl)\.?(?=\s+[£$€\w])"
)
#: "ex VAT", "ex-GST": "ex" before an initialism is "excluding" (not "my ex", "ex-partner").
_EX = re.compile(r"(?<![\w'’-])ex[.\s-]\s*(?=[A-Z]{2,5}\b)")
#: "+" after an amount, before a word: "£450 + VAT", "£12 + postage" ("plus"), not "2 + 2".
_PLUS = re.compile(r"(?<=[\d%k])\s*\+\s*(?=[A-Za-z])")
#: "p/w" or "pw" after an amount: "£50 p/w" is "£50 a week" (`shorthand.written_out` reads "pcm", "p/m", "p.a.").
_PER_WEEK = re.compile(r"(?<=[\dk])\s*p/w\b|(?<=[\dk])\s+pw\b")
#: A 24-hour clock time after ETA or ETD in its clause ("ETA at the track 0800", "ETD 1645hrs"), hours said or not:
#: what the initialism gives is a time (`value_text` reads one only after "at", "from", "by", ...).
_ETA_CLOCK = re.compile(
    r"\b(?P<a>ET[AD])\b(?P<mid>[^.;,!?\d]{0,30}?)\b(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)(?:\s?(?:hrs|h)\b|\b)(?!\s*\d)"
)
#: Whether a text holds anything written short (a fast test before the substitutions).
_ANY = re.compile(r"[A-Z]{3}|[Nn]/[Aa]|\binc|\bexc|\bapp|\bcert|\binfo|\bdept|\bgovt|\bex\b|\+|\dk?\s*p/?w\b")


@lru_cache(maxsize=4096)
def written_out(text: str) -> str:
    """`text` with the common abbreviations it uses written out (`_WORDS`); `text` itself when it has none."""
    if not _ANY.search(text):
        return text
    out = _ETA_CLOCK.sub(lambda m: f"{m.group('a')}{m.group('mid')}{int(m.group('h'))}:{m.group('m')}", text)
    out = _PLUS.sub(" plus ", out)
    out = _PER_WEEK.sub(" a week", out)
    out = _EX.sub("excluding ", out)
    out = _TOKEN.sub(lambda m: _WORDS[m.group("w") or m.group("i")], out)
    return out


def read_out(n: Statement, o: Statement) -> tuple[Statement, Statement]:
    """`n` and `o`, each read again with its common abbreviations written out where it has any."""
    wn, wo = written_out(n.text), written_out(o.text)
    return (n if wn == n.text else statement(wn)), (o if wo == o.text else statement(wo))


#: A value said to be unsettled for now or no longer to apply, as the abbreviations above write out: "to be
#: confirmed", "to be announced", "to be decided", "not applicable".
_UNSETTLED = re.compile(r"(?i)\b(?:to\s+be\s+(?:confirmed|announced|decided|arranged)|not\s+applicable)\b")


def unsettled(n: Statement, o: Statement) -> bool:
    """Whether `n` says the value `o` gives is now unknown or no longer applies ("Round 4 venue now TBC – …" after
    "Karting league round 4: 21 Sept at …"; "Log burner sweep n/a from now on – …" after "The log burner's sweep is
    due every October."): a change to "none", which gives no value to compare. `o` gives a value of a kind `n`
    gives none of (a date, a time, a price; a bare number is often part of a name, "round 4"), `n` says so of a
    subject `o` names, and `o` is not itself unsettled. The caller asks for a cue of change or correction: "Venue
    TBC." beside a venue states nothing newer."""
    if not _UNSETTLED.search(n.text) or _UNSETTLED.search(o.text):
        return False
    given = {k for k in o.kinds if k != "q:"}
    if not given or given & n.kinds.keys():
        return False
    return bool(n.subject & o.stems)
