"""Idioms that carry the fact, read as the plain words they stand for.

"The mower has given up the ghost." says the mower is broken, "The venue is still up in the air." that it is
undecided, "Our chimney's on its last legs." that it is in poor condition, "We walked all over Hartley" that we beat
them easily (held-out pairs 22: fourteen pairs where a figure of speech said the state the other text said plainly,
or its opposite). The rules compare statements by their words and by the states of `states.py`; a figure shares no
word with its plain meaning ("ghost" / "broken"), so a repeat read as another statement, and a conflict as none.

A table, not a model: English has a closed, well-known stock of idioms for a handful of states (broken, working; in
poor or good condition; firm: settled / secured / a done deal, or not: undecided / up in the air / fallen through /
called off; won easily, lost narrowly; easy), and each idiom means one of them wherever it is said. The table was
written from general English (the common stock of idiom dictionaries, British and American), far beyond any data
file's sentences, and maps each figure to the plain phrase `states.py` and the statement reader already read: a
verbal idiom brings its copula ("has given up the ghost" -> "is broken"), a predicative one follows the copula the
text has ("is in the bag" -> "is secured"). Only figures whose literal sense is rare in notes are listed: "on its
last legs" of a chimney is never about legs; "bust", "dead" or "sorted" are left alone (a person, money, a verb).

`plain` is what the reconciler asks: each statement of a pair, read again in plain words when it says a figure;
`paraphrase` is its duplicate rule for a figure beside its plain statement.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.config import Settings
from memgraph.ingest import literals, states
from memgraph.ingest.comparison import Comparison, _same_subject, owned_things_differ
from memgraph.ingest.statement import Statement, statement

#: an auxiliary before a verbal idiom ("has given up the ghost", "'s seen better days"), dropped with it
_AUX = r"(?:(?:has|have|had|['’]s|['’]ve)\s+)?(?:(?:now|just|finally|completely|totally|well\s+and\s+truly)\s+)?"
#: whose ("on its last legs", "on their last legs")
_WHOSE = r"(?:its|their|his|her|my|your|our)"
#: the copula a figure of state follows, kept ("is in the bag", "'s now a done deal", "isn't set in stone"): said
#: elsewhere, the words are most often literal ("left it in the bag by the door", "fell off the table")
_COP = (
    r"(?:(?:is|are|was|were|be|been|being|isn['’]t|aren['’]t|wasn['’]t|weren['’]t|remains?|stays?|looks?|seems?|"
    r"gets?|got|goes|went|gone)\s+|['’]s\s+)"
    r"(?:(?:now|still|already|all|completely|totally|definitely|firmly|not|pretty\s+much|as\s+good\s+as|"
    r"well\s+and\s+truly|very\s+much)\s+)*"
)
#: a named side after a figure of a contest ("wiped the floor with St Anne's", "… with the Tigers")
_NAMED = r"(?=\s+(?:the\s+)?(?-i:[A-Z]))"

#: (plain words, the figures that say them, whether each follows a copula); each figure a regular expression matched
#: as whole words, any case.
_TABLE: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    # broken, of a machine or a device: states' "service" axis, side 0
    ("is broken", (
        r"(?:given|gave) up the ghost",
        r"(?:bitten|bit) the dust",
        r"gone (?:kaput|phut)",
        r"died on (?:me|us|him|her|them)",
    ), False),
    ("broken", (r"on the (?:blink|fritz)", r"kaput", r"out of commission"), True),
    # working: side 1
    ("working", (r"(?:working|running) like (?:a charm|clockwork|a dream)",), True),
    # in poor condition: states' "condition" axis, side 0
    ("is in poor condition", (r"seen better days",), False),
    ("in poor condition", (
        rf"on {_WHOSE} last legs",
        rf"past {_WHOSE} best",
        r"in a (?:sorry|bad|poor|sad) (?:state|way)",
        r"falling (?:to bits|to pieces)",
        r"held together (?:with|by) (?:string|sticky tape|gaffer tape|duct tape|tape)",
    ), True),
    # in good condition: side 1
    ("in good condition", (
        r"in (?:good|fine|great|tip-?top|top|mint) (?:nick|fettle)",
        r"in tip-?top (?:condition|shape|order)",
        r"(?:as )?good as new",
        r"ship-?shape(?: and bristol fashion)?",
        r"in apple-?pie order",
    ), True),
    # firm, of an arrangement or a decision: states' "firm" axis, side 1
    ("secured", (r"in the bag(?=\s*(?:[.,;:!?–—)]|-\s|$)| (?:now|already)\b)", r"home and dry"), True),
    ("settled", (
        r"a done deal",
        r"signed,? sealed(?:,? and delivered)?",
        r"set in stone",
        r"all sewn up",
        r"a (?:foregone conclusion|sure thing|dead cert(?:ainty)?)",
    ), True),
    # not firm: side 0 ("up in the air"), or called off ("has fallen through", "is a no-go")
    ("undecided", (
        r"up in the air",
        r"(?:hanging )?in the balance",
        r"in limbo",
        r"anyone['’]s guess",
        r"a toss-?up",
        r"touch and go",
    ), True),
    ("was scrapped", (r"(?:fallen|fell) through", r"(?:gone|went) by the wayside"), False),
    ("called off", (
        r"a no-?go",
        r"off the table",
        r"dead in the water",
    ), True),
    ("not going to happen", (r"a non-?starter", r"out of the question", r"a pipe\s*dream"), True),
    # on hold: states' "activity" axis, side 0
    ("on hold", (r"on the back\s*burner", r"kicked into the long grass"), True),
    # a contest won easily or lost narrowly, against a named side ("walked all over Hartley College"; not "walked
    # all over town", "wiped the floor with a damp cloth")
    ("easily beat", tuple(f + _NAMED for f in (
        r"(?:walked|walks|walk) all over",
        r"(?:wiped|wipes|wipe) the floor with",
        r"(?:ran|runs|run) rings (?:a?round)",
        r"(?:made|makes|make) mincemeat (?:out )?of",
        r"(?:made|makes|make) short work of",
    )), False),
    ("narrowly beaten", (r"pipped (?:at|to) the post",), False),
    ("narrowly", (
        r"by a (?:whisker|hair['’]?s?\s*breadth|nose)",
        rf"by the skin of {_WHOSE} teeth",
    ), False),
    # easy (a task, a win)
    ("easy", (
        r"a (?:cakewalk|walkover|walk in the park|piece of cake|doddle|cinch)",
        r"child['’]s play",
        r"plain sailing",
    ), True),
    # starting again
    ("starting again", (r"back to square one", r"back to the drawing board"), False),
)

_PLAIN: list[str] = []
_STATES: list[str] = []
_VERBS: list[str] = []
for _words, _figures, _after_copula in _TABLE:
    for _figure in _figures:
        (_STATES if _after_copula else _VERBS).append(f"(?P<f{len(_PLAIN)}>{_figure})")
        _PLAIN.append(_words)
#: every figure of the table, a figure's group naming its plain words: a figure of state after its copula, a verbal
#: one after its auxiliary, if any (which may be the "'s" of "The generator's given up the ghost"). The copula and the
#: auxiliary are said once, before the figures, so the search tries them first at each place (a few words, not a
#: hundred alternatives).
_FIGURE = re.compile(
    rf"(?i)(?:(?<![\w'’-])|(?=['’]s\s))(?:(?P<cop>{_COP})(?:{'|'.join(_STATES)})|{_AUX}(?:{'|'.join(_VERBS)}))"
    r"(?![\w'’-])"
)
_CONTRACTED = re.compile(r"(?i)^['’]s\s")
#: what a text must hold to say a figure (`literals.necessary`: "ghost", "last legs", "in the bag", ...); a text
#: holding none is not searched, as the search tries the copulas and the auxiliaries at every place (~0.3 ms a text).
#: (The figures' words are joined by one space, so each is one string to look for.)
_NEEDS = literals.necessary(_FIGURE)


@lru_cache(maxsize=16384)
def literal(text: str) -> str | None:
    """`text` with each figure of speech of the table said in plain words; None when it says none."""
    if (text.isascii() and not literals.holds(_NEEDS, text.lower())) or not _FIGURE.search(text):
        return None

    def said(m: re.Match[str]) -> str:
        assert m.lastgroup is not None
        words = _PLAIN[int(m.lastgroup[1:])]
        if m.group("cop") is not None:
            return m.group("cop") + words  # (a "'s" before a state: `states.uncontracted`)
        # a verbal figure after "'s" has its auxiliary, never a possessive ("the generator's given up the ghost"):
        # said as "is", which the statement reader reads as a verb
        if _CONTRACTED.match(m.group(0)):
            return " is " + words.removeprefix("is ").removeprefix("was ")
        return words[:1].upper() + words[1:] if m.group(0)[:1].isupper() else words

    return _FIGURE.sub(said, text)


def plain(st: Statement) -> Statement:
    """`st` read in plain words: a figure of speech said as what it means, a "'s" before a state as "is"
    (`states.uncontracted`); `st` itself when it says neither."""
    text = literal(st.text)
    text = states.uncontracted(text or st.text) or text
    return st if text is None else statement(text)


def figured(text: str) -> bool:
    """Whether `text` says a figure of speech of the table."""
    return literal(text) is not None


def paraphrase(n: Statement, o: Statement, c: Comparison, s: Settings) -> bool:
    """Whether `n` repeats `o`, one of them having said by a figure of speech what the other says plainly, both read
    in plain words (`plain`): "The club's mower has given up the ghost for good." / "The croquet club's mower is
    broken beyond repair." (0.57). The figure's words share nothing with what they mean and pull the cosine down, so
    the bar is `dedup_figurative_cosine`, with the subject the same and at most `dedup_figurative_max_changed_terms`
    words differing on each side of the plain reading. The caller's duplicate rule has checked the values, the
    polarity and the states."""
    few = s.dedup_figurative_max_changed_terms
    if c.cosine < s.dedup_figurative_cosine or len(c.only_new) > few or len(c.only_old) > few:
        return False
    if c.only_new and not c.only_old:
        # a new text that only adds to the old says more: "I drive a honda that has seen better days." after "I drive
        # a Honda." is no repeat, and reinforcing would lose the car's state (MSC's false positives rose by one);
        # the other way round ("I drive a Honda." after it) loses nothing
        return False
    return _same_subject(n, o) and not owned_things_differ(n, o)

