"""When a new statement repeats a stored one: the duplicate rules of the reconciler (`reconcile.py`).

Apart from `reconcile.py` as `conflicts.py` is: that module walks a new memory's neighbours and decides; this one
says whether one pair repeats itself (every value the same and the texts close, a paraphrase anchored on its
subject, a measured value reworded), and `conflicts.py` whether it says different things of one subject.
"""

from __future__ import annotations

from memgraph.config import Settings
from memgraph.ingest import idioms, notices, states, surcharges, thresholds
from memgraph.ingest import pair_reads as reads
from memgraph.ingest.comparison import Comparison, _same_subject, owned_things_differ, owner_word_only
from memgraph.ingest.forms import _codes_differ, _ordinals_differ
from memgraph.ingest.restrictions import only_kind_against_grant
from memgraph.ingest.statement import Statement

#: The reason of a duplicate that is a person's note of a stored notification (`notices.noted`).
_NOTED = "a person's note of a notification"


class DuplicateRules:
    """`duplicate` and its paraphrase readings; `s` is the reconciler's settings."""

    s: Settings

    def duplicate(
        self, n: Statement, o: Statement, c: Comparison, *, turns: bool = False, figured: bool = False
    ) -> str | None:
        """Why `n` repeats `o`, or None: every value the same and the texts close. `turns`: both are conversation
        turns of one speaker, which only a near-identical text repeats (see the paraphrase rule below); `figured`:
        one of them said a figure of speech, which `n` and `o` read in plain words (`idioms.plain`)."""
        s = self.s
        if (n.correction or n.update) and not (o.correction or o.update):
            return None
        if notices.noted(n, o):
            # "I've got two tanks being filled at Deep Blue on Saturday 21 June at 9am" after "Booking confirmed: 2 x
            # 12L fills, Deep Blue Dive Centre, Sat 21 Jun 09:00": the booking's values, in a person's words
            return _NOTED
        if c.polarity or not c.same_values or c.entities_differ or c.preference_swapped:
            return None
        if reads.another_person(n, o):
            return None  # "My sister's van is …" / "My brother's van is …": one fact each
        if states.opposed(n.text, o.text) or states.exclusive(n.text, o.text):
            return None  # "is out of order" / "is back in service", "by post" / "by email": the same values, not so
        if surcharges.included_and_added(n.text, o.text):
            return None  # "£450 including VAT" / "£450 plus VAT": the same amount, two totals
        if _ordinals_differ(n.ordinals, o.ordinals):
            return None  # "the first note" / "the second note": two of several
        if _codes_differ(n, o):
            return None  # "deployed in eu-west-1" / "deployed in ap-south-1": another region, not a repeat
        if only_kind_against_grant(n, o):
            return None  # "Dogs are allowed in all our cars." / "Only assistance dogs are allowed …" (cosine 0.83)
        if thresholds.granted_below(n.text, o.text):
            return None  # "Kayakers must be 12 or over." / "under 12s can kayak …": one number, a grant below it
        if n.additive and not o.additive:
            return None
        if c.only_new & n.value_words() and c.only_old & o.value_words():
            return None  # a complement, a name or an opposite was swapped: "is main" / "is master"
        if c.cosine >= s.dedup_cosine:
            return "near-duplicate (cosine)"
        if c.jaccard >= s.dedup_jaccard:
            return "near-duplicate (token Jaccard)"
        if turns:
            # Saying something again in other words is another turn, not the same fact: on LoCoMo dev the
            # paraphrase rule merged 31 of 2760 turns ("Thanks, Maria! I appreciate your support" after "Thanks
            # for being a part of this with me, Maria"), evidence turns among them, and cost cascade R@5.
            return None
        # a word replaced by another ("hiking" / "camping", "staging" / "production") is a paraphrase only when
        # the texts stay very close ("learning" / "studying", "grandpa" / "my grandfather")
        swapped = bool(c.only_new and c.only_old)
        need = s.dedup_paraphrase_cosine + (s.dedup_swap_margin if swapped else 0.0)
        if c.cosine >= need:
            return "paraphrase with the same values"
        if self._anchored(n, o, c):
            return "paraphrase with the same values and subject"
        if figured and idioms.paraphrase(n, o, c, self.s):
            return "paraphrase with the same values and subject (a figure of speech said plainly)"
        return None

    def _anchored(self, n: Statement, o: Statement, c: Comparison) -> bool:
        """A paraphrase anchored by its values: both give typed values and they are the same, both are about
        the same subject, and few words differ ("The rent for Flat 2 is £850 a month." / "Flat 2 is let at 850
        pounds per month.", 0.74; "Files ... are kept for 90 days." / "The raw-events bucket has a ninety-day
        retention.", 0.76). Such a pair reworded its verb or noun ("rent" / "let"), which the paraphrase bar reads
        as a swapped word; with the values and the subject fixed a synonym cannot be another value. The same
        values on another subject are a trap ("The gym closes at 22:00." / "The pharmacy closes at 22:00."); more
        words on one side add detail ("Mr. Patel at 14 Elm Road has a cat, which the lease allows.", 0.77)."""
        s = self.s
        if not n.flat_values or c.cosine < min(s.dedup_values_cosine, s.dedup_measured_cosine):
            return False
        few = s.dedup_values_max_changed_terms
        close = c.cosine >= s.dedup_values_cosine and len(c.only_new) <= few and len(c.only_old) <= few
        if not close and not self._measured_paraphrase(n, o, c):
            return False
        # (a relative called by another kinship word: not where each counts another thing; a hurried note with no
        # subject found on either side: anchored by `dedup_unparsed_min_values` values)
        unparsed = not (n.subject or o.subject) and len(n.flat_values) >= s.dedup_unparsed_min_values
        # (not a word of two owners only: "the lifeboat station's open day" / "the lifeboat crew's exercise" are two
        # events on one date)
        subject = _same_subject(n, o) and not (owned_things_differ(n, o) or owner_word_only(n, o))
        return subject or unparsed or (reads.same_holder(n, o) and not reads.counted_word_swapped(n, o, c))

    def _measured_paraphrase(self, n: Statement, o: Statement, c: Comparison) -> bool:
        """The values-anchored paraphrase reworded more widely ("Wedding flowers need a £100 deposit to book the
        date." / "To hold a wedding date we take a one-hundred-pound deposit.", 0.68, three words on one side;
        "Vehicles over 2.5 metres tall have to book in advance." / "Advance booking is required for any vehicle
        taller than 2.5 m.", 0.69): at `dedup_measured_cosine` with `dedup_measured_max_changed_terms` words on each
        side, when both give a measured value (a price, a length, a time, a date, a duration:
        `pair_reads.measured_kinds`).
        A bare number or one counted by a name is no measure but often part of a name ("Screen 3", "14 Elm Road"):
        "Screen 3 is on the ground floor and step-free." / "Screen 3 can only be reached by the stairs." (0.73)
        and "The tenant at 14 Elm Road is Mr. Patel." / "Mr. Patel at 14 Elm Road has a cat, …" (0.77) share it
        and say other things."""
        s = self.s
        few = s.dedup_measured_max_changed_terms
        if c.cosine < s.dedup_measured_cosine or len(c.only_new) > few or len(c.only_old) > few:
            return False
        names = n.entity_words | o.entity_words
        return bool(reads.measured_kinds(n, names)) and bool(reads.measured_kinds(o, names))

