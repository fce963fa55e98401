"""Readings of a pair of statements that the reconciler's rules ask (`reconcile.RuleReconciler`): whether both are
said of one relative, whether each counts another thing, the texts as said (no hedge, no one-sided envelope), a
change by an amount, a bare number restating a named value, the values that measure something. Each reads the two
statements (and their `Comparison`) and decides nothing itself."""

from __future__ import annotations

from memgraph.ingest import chatter, deltas, hedges, repeats
from memgraph.ingest.comparison import Comparison, _shares
from memgraph.ingest.statement import Statement, denied_values, stem

#: `repeats.PEOPLE` by stem, as a statement's subject and words are stemmed ("grandmother" is "grandmoth").
_PEOPLE_STEMS = {stem(w): group for w, group in repeats.PEOPLE.items()}


def same_holder(n: Statement, o: Statement) -> bool:
    """Whether both statements are said of one relative the subject test cannot see (`_anchored`), called by two
    words of one kinship group ("Mum takes donepezil …" / "Patient (user's mother) is prescribed donepezil …":
    `repeats.PEOPLE`). Not the speaker's "I" on both sides: in 6,000 Multi-Session Chat personas that joined "I go to
    church on Sundays." and "I watch football on Sundays." (19 reinforcements, none a repeat)."""

    def groups(words: frozenset[str]) -> set[str]:
        return {_PEOPLE_STEMS[w] for w in words if w in _PEOPLE_STEMS}

    return bool(groups(n.subject) & groups(o.stems) or groups(o.subject) & groups(n.stems))


def another_person(n: Statement, o: Statement) -> bool:
    """Whether each text names a person the other does not (`repeats.people`: "My sister's van is a blue Transit." /
    "My brother's van is a blue Transit.", cosine 0.92; "Her husband's shift starts at 6am." / "Her son's ...",
    0.89): the same words said of two people are two facts, and a reinforcement would lose one of them. One kinship
    group called two ways ("grandpa" / "my grandfather") is one person; a person on one side only may be a detail,
    but not the one a thing is of, down a chain of possessives ("My brother's shift …" / "My brother's wife's shift
    …", held-out pairs 21: `repeats.holders`)."""
    a, b = repeats.people(n.text), repeats.people(o.text)
    if a - b and b - a:
        return True
    ha, hb = repeats.holders(n.text), repeats.holders(o.text)
    return bool(ha and hb and not ha & hb)


def counted_word_swapped(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether each text counts a word the other does not say ("I've three sisters." / "I have 3 siblings.": the same
    3, of other things): the values are not the same then, whatever their numbers."""
    def counted(st: Statement) -> set[str]:
        return {stem(k[2:]) for k in st.kinds if k.startswith("q:") and len(k) > 2}

    return bool(counted(n) & c.only_new and counted(o) & c.only_old)


def said(a: str, b: str) -> tuple[str, str]:
    """Both texts without a hedge (`hedges.unhedged`), and without a message's greeting and sign-off where only one
    of them has one: two messages each with its own ("Hey Mel! Good to see you!" / "Hey Caroline! Good to see
    you!") are told to two people, which the envelopes say."""
    sa, sb = chatter.strip_chatter(a), chatter.strip_chatter(b)
    if sa != a and sb != b:
        sa, sb = a, b
    return hedges.unhedged(sa), hedges.unhedged(sb)


def relative_change(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether `n` changes the value of `o`'s frame by an amount or a factor (`deltas.py`: "membership goes up by a
    tenner a month" after "Studio membership is £65 a month."; "I feed the tetras twice as often as before" after "I
    feed the tetras once a day."): `o` gives a value, and its subject is said again in `n` (or, where `o` has none
    but "I", a frame word of it). A bare comparative ("I pay £35 more each month now") counts where `n` says a change
    (an update cue)."""
    if not o.kinds or not (deltas.changes(n.text) or (n.update and deltas.relative(n.text))):
        return False
    return _shares(o.subject, n.stems) if o.subject else bool(c.shared)


def bare_for_named(n: Statement, o: Statement) -> str | None:
    """The kind of `o`'s quantity that `n` gives again as a bare number while it names `o`'s value as the old one
    ("loft budget ~45k (was 40k)" after "The budget for the loft is £40k."; "the fee is 827 not 719" after "The visa
    fee is £719"): notes and chat leave the unit off both numbers, so the kinds differ ("" and "gbp") and no value
    reads as changed. Only one unit kind in `o` holds the named value, and `n`'s bare number is another value."""
    bare = denied_values(n.text).get("q:", frozenset())
    new = n.kinds.get("q:", frozenset())
    if not bare or not new:
        return None
    kinds = [k for k, v in o.kinds.items() if k.startswith("q:") and k != "q:" and bare & v]
    if len(kinds) != 1 or new & o.kinds[kinds[0]]:
        return None
    return kinds[0]


def measured_kinds(st: Statement, names: frozenset[str]) -> set[str]:
    """The kinds of `st`'s values that measure something: a clock time, a date or a day, or a quantity with a unit
    that is not a name's word ("14 Elm Road" reads as 14 of "elm"); a bare number is no measure."""
    out = set()
    for kind in st.kinds:
        unit = kind.removeprefix("q:")
        if not kind.startswith("q:") or (unit and stem(unit) not in names):
            out.add(kind)
    return out
