"""The packed statement cache (ingest/statement.py): a statement read back from it is the statement parsed, so
the write-path decisions are the same whether a stored neighbour's text was parsed now or long ago."""

from __future__ import annotations

from memgraph.ingest import statement as st

TEXTS = [
    "Actually, the standup moved to 9:30 on Tuesdays, not 10:00.",
    "I prefer tea over coffee in the morning.",
    "My sister Lena lives in Porto and works as a nurse.",
    "Lena is my manager.",
    "Is the gym open on Sunday?",
    "I also like hiking in the Alps, 3 times a year, €1,450 each trip on 14 June 2024.",
    "We no longer use Jenkins; we switched from Jenkins to GitHub Actions.",
    "The first note",
    "I don't like cold weather.",
    "Caroline: I went to the LGBTQ support group yesterday!",
    "ok",
]


def test_a_packed_statement_unpacks_to_the_parsed_one() -> None:
    for text in TEXTS:
        parsed = st._parse(text)
        assert st._unpack(text, st._pack(parsed)) == parsed, text
        assert st._unpack(text, st._pack(parsed)).kinds == parsed.kinds


def test_a_text_evicted_from_the_whole_statements_is_read_back_packed() -> None:
    text = TEXTS[0]
    st._WHOLE.clear()
    st._PACKED.clear()
    first = st.statement(text)
    assert len(st._PACKED) == 1
    st._WHOLE.clear()  # as if 16,384 other texts had been read since
    st._PACKED.put(text, st._pack(st._parse("I don't like cold weather.")))  # a marker: proves the packed copy is used
    assert first.correction and not st.statement(text).correction
    assert len(st._WHOLE) == 0  # an unpacked statement is not kept whole: it dies with the comparison that read it
    st._PACKED.clear()
    st._WHOLE.clear()
    assert st.statement(text) == first


def test_the_packed_cache_is_bounded() -> None:
    cache: st._Lru[tuple[int]] = st._Lru(3)
    for i in range(5):
        cache.put(f"t{i}", (i,))
    assert len(cache) == 3 and cache.get("t0") is None and cache.get("t4") == (4,)
    cache.get("t2")  # read: now the most recent
    cache.put("t5", (5,))
    assert cache.get("t2") == (2,) and cache.get("t3") is None


def _tracked(obj: object) -> int:
    """Objects the garbage collector tracks inside `obj` (itself included), each counted once."""
    import gc

    seen: set[int] = set()
    todo = [obj]
    while todo:
        o = todo.pop()
        if id(o) in seen or not gc.is_tracked(o) or isinstance(o, type):
            continue
        seen.add(id(o))
        todo.extend(gc.get_referents(o))
    return len(seen)


def test_statements_share_one_empty_set_and_keep_few_tracked_objects() -> None:
    # every full collection scans every cached statement: a new empty set per empty field, and a dict per
    # statement and per typed values, made ~20 tracked objects of each (bench/RESULTS.md, ninth round)
    from memgraph.ingest.values import EMPTY, NO_VALUES

    plain = st._parse("I like hiking in the mountains.")
    assert plain.values is NO_VALUES and plain.replaced is EMPTY and plain.ordinals is EMPTY
    unpacked = st._unpack(plain.text, st._pack(plain))
    assert unpacked.values is NO_VALUES and unpacked.complement is EMPTY and unpacked == plain
    total = 0
    for text in TEXTS:
        parsed = st._parse(text)
        for s in (parsed, st._unpack(text, st._pack(parsed))):
            _ = s.kinds, s.flat_values, s.value_words()
            assert not hasattr(s, "__dict__")
            if s.values is NO_VALUES:
                assert _tracked(s) <= 10, (text, _tracked(s))  # 21 with a set per empty field
        total += _tracked(parsed)
    assert total <= 160  # 269 with a set per empty field and a dict per statement and per values
