"""Gap detection, records: one field of a served memory that answers the question by itself.

Notes kept as records ("Thesis: 'Microbial carbon cycling in upland peat'; supervisor Prof. Alun Rees, second
supervisor Dr Kemi Ade", "dry weight 68.5 kg | fluid limit 750 ml/day") are read by the sentence model as a whole:
the title and the other fields pull the vector away from any one question (the thesis record is at cosine -0.00 to
"who's my second supervisor?", its last field alone at 0.67), so every reading that starts from the cosine passes
it by (held-out 19). What answers is a field that says the words of what is asked, by the word, beside a value of
the kind asked: read per field, by word only (no embedding: cheap, and blind to the dilution).
"""

from __future__ import annotations

import re

from memgraph.ingest.records import parts
from memgraph.ingest.statement import stem
from memgraph.retrieve.gap_focus import focus_words, stem_in
from memgraph.retrieve.gap_question import asked
from memgraph.retrieve.gap_values import expected_answer, holds_answer, tense_clash
from memgraph.text import tokenize

#: Where a field's items part inside a record's part (`records.parts`: a bar, a semicolon, a line, a bullet): a comma
#: before a space, a dash between spaces ("supervisor Prof. Alun Rees, second supervisor Dr Kemi Ade").
_ITEM_END = re.compile(r"\s*(?:,\s|,$|\s[-\u2013\u2014]\s)\s*")


def fields(content: str) -> list[str]:
    """The fields of `content`, in order: its record's parts ("H1 14.5 | H2 9"), each cut at its items; a sentence
    without separators is one field."""
    return [f for part in parts(content) for f in _ITEM_END.split(part) if f.strip()]


def field_answer(query: str, content: str) -> bool:
    """One field of `content` says every focus word of the question (by the word, its stem or a prefix) and holds a
    value of the kind asked, of the time asked: "who's my second supervisor?" / "...; supervisor Prof. Alun Rees,
    *second supervisor Dr Kemi Ade*". A question that asks no kind of value, or names no focus word, has no field
    answer (a field saying its words is only a topic then). Whose value it is, is read apart (`gap_structure`)."""
    question = asked(query)
    return answering_field(content, query, question, expected_answer(question), focus_words(question))


def answering_field(content: str, query: str, question: str, expects: str | None, words: list[str]) -> bool:
    """`field_answer` with what it reads of the question given (`asked`, the kind of value, the focus words): read
    once per recall, not once per served memory."""
    if expects is None or not words:
        return False
    for field in fields(content):
        have = {stem(w) for w in tokenize(field)}
        if (all(stem_in(stem(w), have) for w in words) and holds_answer(field, expects, query)
                and not tense_clash(field, question)):
            return True
    return False
