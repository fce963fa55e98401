"""The conflict chain's per-text readings are taken once, as a text is parsed (`conflicts._read_once`), and kept as
long as its packed statement: a stored text read back as a neighbour is not read again (bulk writes)."""

from __future__ import annotations

import uuid

from memgraph.ingest import conflicts, jotted, voice
from memgraph.ingest import statement as st


def _misses() -> list[int]:
    return [f.cache_info().misses for f in (voice.bare, conflicts._clause_parts, jotted.sentence, conflicts._joined)]


def test_a_parsed_text_is_read_for_the_conflict_chain_once() -> None:
    tag = uuid.uuid4().hex[:8]
    for text in (
        f"User says the {tag} hall closes at 22:00; the bar shuts at 23:00.",
        f"Hi all, the {tag} van is booked for Friday. Thanks, Ana",
        f"- {tag} car: Mazda 3\n- insurance: NRMA, renews 14 Aug",
        f"The {tag} gym opens at 6am.",
    ):
        st.statement(text)  # the parse, as a new text or a warm-up reads it
        before = _misses()
        reading = jotted.sentence(voice.bare(text))
        conflicts._clause_parts(text)
        conflicts._joined(reading)
        assert _misses() == before, text  # every reading was kept at the parse


def test_the_readings_are_kept_as_long_as_the_packed_statements() -> None:
    assert voice.BARE_TEXTS == st.PACKED_STATEMENTS
    for f in (voice.bare, conflicts._clause_parts, jotted.sentence, conflicts._joined):
        assert f.cache_parameters()["maxsize"] == st.PACKED_STATEMENTS
