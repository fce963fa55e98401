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

from memgraph.config import Settings
from memgraph.ingest import states
from memgraph.ingest.comparison import Comparison, _same_subject, owned_things_differ
from memgraph.ingest.marks import found, register
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
_COP_SAID = re.compile(rf"(?i){_COP}")
#: a named side after a figure of a contest ("wiped the floor with St Anne's", "… with the Tigers")
_NAMED = r"(?=\s+(?:the\s+)?(?-i:[A-Z]))"

#: (plain words, the figures that say them, whether each follows a copula); each figure a regular expression matched
#: as whole words, any case.
_TABLE: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    # broken, of a machine or a device: states' "service" axis, side 0
    ("is broken", (
        rf"{_AUX}(?:given|gave)\s+up\s+the\s+ghost",
        rf"{_AUX}(?:bitten|bit)\s+the\s+dust",
        rf"{_AUX}gone\s+(?:kaput|phut)",
        rf"{_AUX}died\s+on\s+(?:me|us|him|her|them)",
    ), False),
    ("broken", (r"on\s+the\s+(?:blink|fritz)", r"kaput", r"out\s+of\s+commission"), True),
    # working: side 1
    ("working", (r"(?:working|running)\s+like\s+(?:a\s+charm|clockwork|a\s+dream)",), True),
    # in poor condition: states' "condition" axis, side 0
    ("is in poor condition", (rf"{_AUX}seen\s+better\s+days",), False),
    ("in poor condition", (
        rf"on\s+{_WHOSE}\s+last\s+legs",
        rf"past\s+{_WHOSE}\s+best",
        r"in\s+a\s+(?:sorry|bad|poor|sad)\s+(?:state|way)",
        r"falling\s+(?:to\s+bits|to\s+pieces)",
        r"held\s+together\s+(?:with|by)\s+(?:string|sticky\s+tape|gaffer\s+tape|duct\s+tape|tape)",
    ), True),
    # in good condition: side 1
    ("in good condition", (
        r"in\s+(?:good|fine|great|tip-?top|top|mint)\s+(?:nick|fettle)",
        r"in\s+tip-?top\s+(?:condition|shape|order)",
        r"(?:as\s+)?good\s+as\s+new",
        r"ship-?shape(?:\s+and\s+bristol\s+fashion)?",
        r"in\s+apple-?pie\s+order",
    ), True),
    # firm, of an arrangement or a decision: states' "firm" axis, side 1
    ("secured", (r"in\s+the\s+bag(?=\s*(?:[.,;:!?–—)]|-\s|$)|\s+(?:now|already)\b)", r"home\s+and\s+dry"), True),
    ("settled", (
        r"a\s+done\s+deal",
        r"signed,?\s+sealed(?:,?\s+and\s+delivered)?",
        r"set\s+in\s+stone",
        r"all\s+sewn\s+up",
        r"a\s+(?:foregone\s+conclusion|sure\s+thing|dead\s+cert(?:ainty)?)",
    ), True),
    # not firm: side 0 ("up in the air"), or called off ("has fallen through", "is a no-go")
    ("undecided", (
        r"up\s+in\s+the\s+air",
        r"(?:hanging\s+)?in\s+the\s+balance",
        r"in\s+limbo",
        r"anyone['’]s\s+guess",
        r"a\s+toss-?up",
        r"touch\s+and\s+go",
    ), True),
    ("was scrapped", (rf"{_AUX}(?:fallen|fell)\s+through", rf"{_AUX}(?:gone|went)\s+by\s+the\s+wayside"), False),
    ("called off", (
        r"a\s+no-?go",
        r"off\s+the\s+table",
        r"dead\s+in\s+the\s+water",
    ), True),
    ("not going to happen", (r"a\s+non-?starter", r"out\s+of\s+the\s+question", r"a\s+pipe\s*dream"), True),
    # on hold: states' "activity" axis, side 0
    ("on hold", (r"on\s+the\s+back\s*burner", r"kicked\s+into\s+the\s+long\s+grass"), True),
    # a contest won easily or lost narrowly, against a named side ("walked all over Hartley College"; not "walked
    # all over town", "wiped the floor with a damp cloth")
    ("easily beat", tuple(f + _NAMED for f in (
        r"(?:walked|walks|walk)\s+all\s+over",
        r"(?:wiped|wipes|wipe)\s+the\s+floor\s+with",
        r"(?:ran|runs|run)\s+rings\s+(?:a?round)",
        r"(?:made|makes|make)\s+mincemeat\s+(?:out\s+)?of",
        r"(?:made|makes|make)\s+short\s+work\s+of",
    )), False),
    ("narrowly beaten", (r"pipped\s+(?:at|to)\s+the\s+post",), False),
    ("narrowly", (
        r"by\s+a\s+(?:whisker|hair['’]?s?\s*breadth|nose)",
        rf"by\s+the\s+skin\s+of\s+{_WHOSE}\s+teeth",
    ), False),
    # easy (a task, a win)
    ("easy", (
        r"a\s+(?:cakewalk|walkover|walk\s+in\s+the\s+park|piece\s+of\s+cake|doddle|cinch)",
        r"child['’]s\s+play",
        r"plain\s+sailing",
    ), True),
    # starting again
    ("starting again", (r"back\s+to\s+square\s+one", r"back\s+to\s+the\s+drawing\s+board"), False),
)

_PLAIN: list[tuple[str, bool]] = []
_ALTERNATIVES: list[str] = []
for _words, _figures, _after_copula in _TABLE:
    for _figure in _figures:
        _ALTERNATIVES.append(f"(?P<f{len(_PLAIN)}>{_COP if _after_copula else ''}{_figure})")
        _PLAIN.append((_words, _after_copula))
#: every figure of the table (a figure's group names its plain words)
#: (a figure may open with the "'s" of its auxiliary: "The generator's given up the ghost")
_FIGURE = re.compile(rf"(?i)(?:(?<![\w'’-])|(?=['’]s\s))(?:{'|'.join(_ALTERNATIVES)})(?![\w'’-])")
_CONTRACTED = re.compile(r"(?i)^['’]s\s")


def literal(text: str) -> str | None:
    """`text` with each figure of speech of the table said in plain words; None when it says none."""
    if not found(_FIGURE, text):
        return None

    def said(m: re.Match[str]) -> str:
        assert m.lastgroup is not None
        words, after_copula = _PLAIN[int(m.lastgroup[1:])]
        if after_copula:
            cop = _COP_SAID.match(m.group(0))
            assert cop is not None
            return cop.group(0) + words  # (a "'s" before a state: `states.uncontracted`)
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
    return found(_FIGURE, text)


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
    return _same_subject(n, o) and not owned_things_differ(n, o)


#: searched once per text as it is parsed (marks.py)
register(_FIGURE)
