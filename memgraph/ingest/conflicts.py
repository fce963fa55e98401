"""The conflict chain of the rule reconciler (`reconcile.py`, rules 3 and 4): whether a new statement and a stored
one cannot both hold, read from their statements and their comparison (frames, typed values, polarity, the forms of
forms.py, denials.py, hours.py and the voices of voice.py). `RuleReconciler` inherits it and decides what the
conflict means (a supersede with a cue, a contradiction without); `conflict` is rule 4's test and the one a
correction or an update reuses on each clause.

Retractions and hedges, by held-out pairs 18's labels: a statement that takes back or settles an earlier one ("scratch
that, the tiles won't be out till Monday", "checked the order: the doors are navy, not sage", "definitely not the
3rd, the surgery rang: …") supersedes it, hedged or not (7 of 7 such pairs): the retraction's cue makes the conflict
found here a supersede. A hedged statement against a firm one without such a cue ("It's my left hip being done." /
"pretty sure it's the right hip they're doing") contradicts it (2 of 2): a hedge is no newer knowledge.

A changed value with no word of change, by the labels of the read parts (held-out pairs 19's round): of the 186 read
pairs whose typed values changed with no update or correction cue, 110 are labelled contradicts and 8 supersedes (50
compatible); of the 131 about the same subject with no other name, 89 contradicts and 6 supersedes. A bare changed
value is so a contradiction here, never a supersede: only a cue makes it newer knowledge. Part 19 wrote such values in
voices the chain read as labels (a table's row, "Remind me to …", "The boat's 62 feet long."): the second, bare reading
(`_bare`) says them as statements."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memgraph.config import Settings
from memgraph.ingest import (
    compounds,
    groups,
    intentions,
    jotted,
    names,
    notices,
    pictographs,
    predicates,
    referents,
    relative,
    states,
    surcharges,
    thresholds,
    tolerance,
    voice,
)
from memgraph.ingest.charges import free_and_charged
from memgraph.ingest.comparison import (
    Comparison,
    _compare,
    _same_subject,
    _shares,
)
from memgraph.ingest.denials import (
    _denies_old_value,
    _negates_what_it_names,
    _unscoped_denial,
    avoidance_for_denial,
    denied_activity,
    denied_then_said,
    never_done,
    universal_denied,
)
from memgraph.ingest.diets import diet_and_excluded_food
from memgraph.ingest.forms import (
    _HOLDS_MANY,
    _INTERVAL_ENDS,
    _LOOSE_UNITS,
    _MEASURE,
    _PRICE_WORDS,
    _SET_POINT,
    _aligned_less,
    _allowed_and_forbidden,
    _another_value,
    _changed_code,
    _count_and_members,
    _denies_a_part,
    _favourites_differ,
    _free_or_priced,
    _kind_on_one_side,
    _multiple_swapped,
    _negated_participle,
    _negates,
    _only_against_list,
    _other_particle,
    _same_bound,
    _scoped,
    _unit_noun,
)
from memgraph.ingest.hours import hours_conflict, span_against_length
from memgraph.ingest.marks import found
from memgraph.ingest.obligations import obliged_and_not
from memgraph.ingest.restrictions import only_kind_against_grant, only_value_against_other, only_word_swapped
from memgraph.ingest.statement import (
    NEGATION_SAID,
    ON_PARSE,
    Statement,
    clauses,
    frame_bound,
    statement,
    stem,
)
from memgraph.ingest.statement_words import _OPPOSITES
from memgraph.text import surface


class ConflictRules:
    """`conflict` and its readings; `s` is the reconciler's settings."""

    s: Settings

    def conflict(self, n: Statement, o: Statement, c: Comparison, *, cue: bool) -> str | None:
        """How `n` and `o` say different things about one subject, or None."""
        if tolerance.opposed(n.text, o.text):
            # "trains are fine" / "Trains make me sick too.": read clause by clause, before the label test (the
            # parse finds no verb in "Trains make")
            return "suits / troubles the person"
        if notices.other_time(n, o):
            # (before the label test: a notice's record of fields has no verb, yet says when its booking is)
            return "a booking's notice / a note of it at another time"
        if notices.other_place(n, o):
            return "a booking's notice / a note of it at another place"
        if notices.act_denied(n, o):
            return "a notification of an act / a note that denies it"
        if not (n.clause and o.clause):
            return None  # a label ("tagged one" / "tagged two") asserts nothing to conflict with
        # two denials hold together ("I've never been to Paris." / "I've never been to Milan.", "We don't deliver on
        # Sundays." / "We don't deliver on Mondays."): without a correction cue, another value denied is no conflict
        denials = n.negated and o.negated and not cue
        # a value said relative to another's, or a change by an amount: its numbers are not the subject's value
        # ("two years younger than his cousin Zara, who's 10"; "upped her feeds by 30 ml"), so no changed value is
        # read from them; a comparison gives the subject's value itself (`relative.disagrees`)
        moved = relative.relative_or_change(n.text, o.text)
        if moved and c.cosine >= self.s.contradict_relative_cosine and _same_subject(n, o) and (
            relative.disagrees(n.text, o.text)
        ):
            return "a value said relative to another's"
        if c.changed and not moved and c.same_frame and not c.entities_differ and not _scoped(c.changed) and not (
            _kind_on_one_side(n, o) or _count_and_members(n, o, c) or denials
            or predicates.other_members(n.text, o.text) or _numbered_other(n, o, c)
        ):
            return _changed(c.changed)
        if c.same_frame and not (c.entities_differ or denials) and _date_against_month(n, o) and _same_subject(n, o):
            return "changed month (a date / a month)"
        if c.changed and not moved and (self._reworded(n, o, c) or self._measured(n, o, c)) and not (
            _count_and_members(n, o, c)
        ):
            return _changed(c.changed[:1])
        if c.changed and not moved and self._one_measure(n, o, c):
            return _changed(c.changed)
        if _changed_code(n, o, c, self.s.contradict_code_max_extra_terms):
            return "changed code"
        hours = hours_conflict(n, o, c)
        if hours is not None:
            return "opening hours: " + hours
        # a span by its ends against its start and a length that ends elsewhere ("is 7 to 9 pm" / "starts at 7 and
        # runs for three hours"): the one start, on the same days
        if c.cosine >= self.s.contradict_relative_cosine and n.values.weekdays == o.values.weekdays and (
            _same_subject(n, o) and span_against_length(n, o)
        ):
            return "a span's end / its start and length"
        if _free_or_priced(n, o) and not c.entities_differ and _same_subject(n, o) and not (
            _aligned_less(c, _PRICE_WORDS)
        ):
            return "free / priced"
        if free_and_charged(n, o, c, self.s.contradict_price_max_extra_terms):
            return "free or included / charged"
        if surcharges.two_totals(n, o, c) and _same_subject(n, o):
            return "one price, an extra included / added on top"  # "£450 including VAT" / "£450 plus VAT"
        if surcharges.payers_differ(n, o):
            return "paid for by another / paid privately"
        if _negated_participle(n, o, c) and not c.entities_differ and _same_subject(n, o):
            return "changed state (un-)"
        if states.contrary(n.text, o.text) and not c.entities_differ and _same_subject(n, o):
            return "changed state"
        if states.exclusive(n.text, o.text) and not c.entities_differ and (
            _same_subject(n, o) or (not (n.subject or o.subject) and c.cosine >= self.s.reconcile_subject_cosine)
        ):
            return "another category"  # (no subject found on either side: "Members pay their subs in cash.")
        # (not with a verb that offers many: "The shop stocks the R7000 groupset" / "… the R7100 groupset")
        # (an opposite that qualifies a noun, swapped beside other names, is another thing: "a male cat called Sparky"
        # / "my female cats are called Ester, Toaster, …", MSC; not one the copula gives: "is O negative" / "is A
        # positive")
        named = c.entities_differ and bool(
            (c.only_old & o.opposites - o.complement) or (c.only_new & n.opposites - n.complement)
        )
        # (an identity's subject is its value, "Lena is my manager" / "Oskar is my manager", while what it is said to
        # be stays: "Pepper is the oldest cat" / "Biscuit is the youngest cat" name two cats of two slots)
        identity = c.identity and not ((c.only_old - o.subject) or (c.only_new - n.subject))
        if c.value_swap and not c.polarity and not moved and (not c.subject_changed or identity) and not (
            denials or named or _another_value(n, o, c, cue=cue) or (not cue and (c.shared - n.subject) & _HOLDS_MANY)
        ):
            return f"swapped {', '.join(surface(c.only_old, o.text))} -> {', '.join(surface(c.only_new, n.text))}"
        if c.cosine >= self.s.reconcile_subject_cosine and _opposite_for_opposite(n, o, c):
            return f"swapped {', '.join(surface(c.only_old & o.opposites, o.text))} -> " + ", ".join(
                surface(c.only_new & n.opposites, n.text)
            )
        if names.another_name(n, o, c, self.s.contradict_reworded_max_terms):
            return "another name in the same slot"
        if names.named_in_one_slot(n, o, c, self.s.contradict_reworded_max_terms):
            return "another name of one subject"
        # an age or a wait one text sets before a thing is allowed, and the other's grant of it: below the threshold
        # the two cannot both hold; at or past it they agree, though one is negated ("can't swim for four weeks
        # after" / "can swim four weeks after")
        below = thresholds.granted_below(n.text, o.text)
        if below is not None and c.cosine >= self.s.contradict_threshold_cosine and _shares(n.stems, o.stems):
            return "allowed below the threshold" if below else None
        # "i went to church as a kid." after "I dont go to church now.": a past episode told after a denial of now is
        # no conflict with it (MSC, once chat's "dont" reads as a negation)
        then_and_now = not cue and n.episode and not n.negated and o.negated and o.update
        if avoidance_for_denial(n, o):
            # a denial against an avoidance ("must never be walked with other dogs" / "keep … away from other dogs"):
            # both deny, so no rule below that reads the polarity flipped applies
            return None
        if _negates(c, cue=cue) and not (
            then_and_now or predicates.another_slot(n.text, o.text) or (not cue and _denies_a_part(n, o, c))
        ):
            return "negation"
        if _unscoped_denial(n, o, c, self.s.contradict_denial_max_extra_terms):
            return "negation of every case"
        if universal_denied(n, o, c, self.s.contradict_denial_max_extra_terms):
            return "denied of some of all"
        if denied_activity(n, o, c, self.s.contradict_denial_max_extra_terms):
            return "an activity denied / said to be ours"
        if _denies_old_value(n, o, c):
            return "denies the old value"
        if names.name_denied(n, o):
            return "another name given, the old one denied"
        if denied_then_said(n, o, c):
            return "says what the other names as not so"
        if never_done(n, o):
            return "never done / done"
        if _multiple_swapped(n, o) and not c.polarity:
            return "single / double"
        if _favourites_differ(n, o, c, self.s.contradict_favourite_max_values):
            return "another favourite"
        if _only_against_list(n, o, c):
            return "only one of a list"
        if only_kind_against_grant(n, o):
            return "only one kind / another kind granted"
        if c.cosine >= self.s.contradict_threshold_cosine and groups.kept_and_granted(n.text, o.text):
            return "kept for one group / granted to another"
        if only_value_against_other(n, o, c, self.s.contradict_denial_max_extra_terms):
            return "only one value / another value"
        if only_word_swapped(n, o, c):
            return "only one thing / another in its place"
        if obliged_and_not(n, o, c, self.s.contradict_denial_max_extra_terms):
            return "required / not required"
        if diet_and_excluded_food(n, o, c):
            return "a diet / a food it excludes"
        if _allowed_and_forbidden(
            n, o, c, self.s.contradict_permission_max_changed_terms, self.s.contradict_permission_place_cosine
        ):
            return "allowed / forbidden"
        # "I've never been on the flat rate VAT scheme; I use standard accounting.": the clause that negates the
        # old statement, read alone (the clause added after it is another statement)
        for part in _clause_parts(n.text):
            if not o.negated and not found(NEGATION_SAID, part):
                continue  # (both rules below want the polarity flipped: the clause negated)
            if not o.frame & frame_bound(part):
                continue  # (and a frame word shared: unparsed, most clauses share none)
            p = statement(part)
            cc = _compare(p, o, c.cosine, c.tolerance)
            if _negates(cc, cue=cue) and not predicates.another_slot(part, o.text):
                return "negation in a clause"
            if _negates_what_it_names(n, p, cc, cue=cue):
                return "negation in a clause (of what the text names)"
            if _unscoped_denial(p, o, cc, self.s.contradict_denial_max_extra_terms):
                # "The cottage isn't listed, so no consent is needed …" / "Our cottage is Grade II listed.": the
                # clause denies every case, the grade said on the other side only
                return "negation of every case in a clause"
        # and the old statement's clause that the new one negates ("The Street Triple has a quickshifter fitted,
        # which is why I don't touch the clutch …" / "my street triple doesnt have a quickshifter": the negation in
        # the old reason made both texts negated, which two denials are; held-out pairs 16). The clause must say
        # who or what it is about (not "Don't ever quit on what you love." against "I love to read.": chat's advice,
        # whose cue words leave one frame word) and share two frame words; no cue makes the bar lower.
        for part in _clause_parts(o.text):
            if (not n.negated and not found(NEGATION_SAID, part)) or len(n.frame & frame_bound(part)) < 2:
                continue
            q = statement(part)
            if not (q.subject or _OPENS_WITH_PRONOUN.match(part)):
                continue
            cc = _compare(n, q, c.cosine, c.tolerance)
            if len(cc.shared) > 1 and _negates(cc, cue=False) and not predicates.another_slot(n.text, part):
                return "negation of a clause"
        return None

    def conflict_in_any_voice(self, n: Statement, o: Statement, c: Comparison, *, cue: bool) -> str | None:
        """`conflict`, and where it finds none, `conflict` again on the statements the two texts carry without their
        greetings, reporting frames and sign-offs (`voice.bare`: "Customer note: Mrs Ito's boots are brown suede." /
        "Mrs Ito's boots are black patent leather."; a note about the user in the third person read as their own words:
        `voice.first_person`): a frame's words on one side are words the other does not say, which most forms count
        against a conflict. The new text also without a retraction's opener ("scratch that, the boiler was never
        booked": `_unretracted`; the caller's cue still makes it a correction). Then each clause of a text joined by a
        semicolon, read alone against the other ("My ACL was reconstructed on the right knee; the left knee has never
        been operated on." / "… was on my left knee.": the clause added is another statement, whose words count against
        the swap; held-out pairs 12, 15), unless the whole text gives the changed kind's old value too. The pair's
        cosine is kept. Not two notices under one label without a cue ("Court booking confirmed: …" twice: two
        bookings, `notices.same_kind`). Both texts with their pictographs read as words, when either has one
        (`pictographs.said`)."""
        if not cue and notices.same_kind(n.text, o.text):
            return None
        sn, so = pictographs.said(n.text), pictographs.said(o.text)
        if sn is not n.text or so is not o.text:
            # a pictograph read as the words it stands for, in place of the texts ("🚫 plastic bags" is "no plastic
            # bags", "🚫🐕" is "no dog": `pictographs.py`), for every reading below
            n, o = statement(sn), statement(so)
            c = _compare(n, o, c.cosine, c.tolerance)
        why = self.conflict(n, o, c, cue=cue)
        if why is not None:
            return why
        bn, bo = _bare(_unretracted(n.text)), _bare(o.text)
        p, q = statement(bn), statement(bo)
        if bn != n.text or bo != o.text:
            why = self.conflict(p, q, _compare(p, q, c.cosine, c.tolerance), cue=cue)
            if why is not None:
                return why
        for a, b in referents.subject_given(n, o):
            why = self.conflict(a, b, _compare(a, b, c.cosine, c.tolerance), cue=cue)
            if why is not None:
                return why
        for a, b in [(statement(x), q) for x in referents.completed(referents.resolved(_joined(bn), q), q)] + [
            (p, statement(x)) for x in referents.completed(referents.resolved(_joined(bo), p), p)
        ]:
            cc = _compare(a, b, c.cosine, c.tolerance)
            why = self.conflict(a, b, cc, cue=cue)
            if why is not None and not _say_both(p, q, cc):
                return why
        return self._in_an_item(n, o, c, cue=cue) if c.cosine >= self.s.compound_item_cosine else None

    def _in_an_item(self, n: Statement, o: Statement, c: Comparison, *, cue: bool) -> str | None:
        """How `n` changes one item of a compound note `o` (`compounds.py`): another value or name of the one item
        it is about, or a conflict with an item that shares a word with it, read alone under the note's label (a
        business's hours too: "Clock shop hours: … Sat 9-1, …" / "The clock shop is shut on Saturdays.")."""
        why = compounds.changed(n, o.text, self.s.compound_item_max_new_terms)
        if why is not None:
            return why
        for item in compounds.sharing(n, o.text):
            q = statement(item)
            cc = _compare(n, q, c.cosine, c.tolerance)
            # (an item of hours is a note's line, no clause, which the chain reads as a label: "Sat 9-1")
            hours = hours_conflict(n, q, cc)
            why = self.conflict_in_any_voice(n, q, cc, cue=cue) or (hours and "opening hours: " + hours)
            if why is not None:
                return why + " (one item of a compound note)"
        return None

    def _reworded(self, n: Statement, o: Statement, c: Comparison) -> bool:
        """One typed value changed in a frame reworded by a synonym on each side ("Half term starts on 17
        February." / "Half term begins on 24 February.", 0.92; "The school day finishes at 3:30." / "School ends at
        3:05 every day."): the frame rule wants the frames word for word. Only one kind of value changed (a
        changed scope as well, "at 22:00 on weekdays" / "at 18:00 at weekends", is another slot), the same
        subject, a word or two swapped on *each* side (one side adding a word adds a scope: "front tyres" / "rear
        tyres"), no value word among them, and not one end of an interval for the other ("start" / "finish")."""
        s = self.s
        # a value given with the same unit noun on both sides ("14 rooms a shift" / "16 rooms per shift", "a 40 hp
        # outboard" / "a 60 hp engine"): the unit pins the attribute, so the frame may be reworded more
        bar = s.contradict_unit_cosine if _unit_noun(c.changed, n, o) else s.contradict_reworded_cosine
        if len(c.changed) != 1 or c.entities_differ or c.polarity or c.cosine < bar:
            return False
        few = s.contradict_reworded_max_terms
        if not (c.only_new and c.only_old) or len(c.only_new) > few or len(c.only_old) > few:
            return False
        if c.only_new & n.value_words() or c.only_old & o.value_words() or _kind_on_one_side(n, o):
            return False
        ends = {_INTERVAL_ENDS.get(w) for w in c.only_new | c.only_old} - {None}
        return len(ends) <= 1 and not _other_particle(c) and _same_subject(n, o)

    def _measured(self, n: Statement, o: Statement, c: Comparison) -> bool:
        """One quantity changed where the frames differ only by a verb or adjective of measure: "Membership is
        £25 a year." / "Membership costs £30 a year."; "The novel is 320 pages long." / "The novel comes to 288
        pages."; "The cold room is held at 5 °C." / "The cold room's set point is 3 °C." (held-out pairs 7). A
        quantity's unit says what is measured, so "costs", "comes to", "weighs", "lasts", "reaches", "is held at"
        add nothing the copula does not say; they are no other frame. Only one kind of value
        changed, and it is a quantity, the same subject, no value kind said on one side only (a scope: "Half loaves
        are £2.50" after "A loaf is £4.50"), and the cosine bar of `_reworded`, or its unit bar when the unit pins
        the attribute (kilometres, pages; not money, time or a bare number). A bound said in other words on each
        side is no other frame either ("must weigh at least 55 kg" / "the minimum weight is 50 kg": `_same_bound`),
        nor a capacity both say in other words ("my loft holds 40 birds" / "loft only got room for 28 birds max",
        held-out pairs 19: `_CAPACITY`)."""
        if len(c.changed) != 1 or not c.changed[0].startswith("q:") or c.entities_differ or c.polarity:
            return False
        differ = c.only_new | c.only_old
        # (a capacity said by both in other words: "my loft holds 40 birds" / "room for 28 birds max")
        capacity = _CAPACITY if n.stems & _CAPACITY and o.stems & _CAPACITY else frozenset()
        if not differ or differ - _MEASURE - (_SET_POINT if _SET_POINT <= differ else set()) - _same_bound(n, o) - (
            capacity
        ):
            return False
        pinned = c.changed[0].removeprefix("q:") not in _LOOSE_UNITS
        bar = self.s.contradict_unit_cosine if pinned else self.s.contradict_reworded_cosine
        return c.cosine >= bar and not _kind_on_one_side(n, o) and _same_subject(n, o)

    def _one_measure(self, n: Statement, o: Statement, c: Comparison) -> bool:
        """One quantity changed in a unit that says what is measured, in any wording of the frame ("the quarry's water
        was 14 degrees at 10m" / "it was 9 degrees at 10m in the quarry, my computer logged it"): the unit pins the
        attribute, so the frame's words matter less than `_measured` and `_reworded` ask. Read parts: of the pairs
        with one such quantity changed, one value on each side, the same subject and no other kind, in any wording,
        4 contradict (held-out pairs 5, 6, 7, 20) and 1 is compatible, a scope added on one side only ("The Golf's
        front tyres go to 2.3 bar." / "The Golf's rear tyres go to 2.1 bar.": "front" is a stop word). So words of
        its own on each side (a frame reworded, not scoped), and one side's subject said whole by the other ("the
        reef tank" / "the quarantine tank" are two tanks), which leave 2 of the 4 as they were ("Our turntable
        ladder has a reach of 28 metres.", "The main pool is heated to 27°C."). Not money, time, how often or a bare
        number (`_LOOSE_UNITS`: "£250 excess" / "£75 excess" on windscreen claims is a scope); one value of the kind
        on each side; no value kind said on one side only, nor another name; no word swapped for its opposite; from
        `contradict_measure_cosine`."""
        if len(c.changed) != 1 or c.entities_differ or c.polarity or c.cosine < self.s.contradict_measure_cosine:
            return False
        kind = c.changed[0]
        if not kind.startswith("q:") or kind.removeprefix("q:") in _LOOSE_UNITS:
            return False
        if len(n.kinds.get(kind, ())) != 1 or len(o.kinds.get(kind, ())) != 1 or set(n.kinds) != set(o.kinds):
            return False
        if not (c.only_new and c.only_old) or (c.only_new & n.opposites and c.only_old & o.opposites):
            return False
        whole = referents.subject_said(n, o) or referents.subject_said(o, n)
        return whole and not _kind_on_one_side(n, o) and _same_subject(n, o)


#: A clause that opens with its subject pronoun ("I dont like music too much").
_OPENS_WITH_PRONOUN = re.compile(r"(?i)\s*(?:i|we|you|he|she|they|it)\b(?!['’]s\b)")
#: A clause that gives what follows from the one before it: "…, which is why …", "…, which means …", "…, that's why …";
#: or a clause of its own after a comma, opened by its subject pronoun and a verb ("We didn't get any grant for the
#: charger, we paid full whack.", "Wool flares my eczema, I can't wear it."): speech and chat join clauses so (a
#: comma splice), which the parse reads as one (held-out pairs 17).
_FOLLOWS = re.compile(
    r"(?i)\s*,\s+(?:(?:which|that)(?:['’]s|\s+is)\s+why|which\s+means(?:\s+that)?)\s+"
    r"|\s*,\s+(?=(?:i|we|they|he|she|it)(?:['’](?:s|re|m|ve|ll|d))?\s+(?!and\b|or\b)[a-z])"
)
@lru_cache(maxsize=voice.BARE_TEXTS)
def _clause_parts(text: str) -> tuple[str, ...]:
    """The clauses of `text` (`statement.clauses`), also cut where a clause says what follows from the one before it
    (`_FOLLOWS`); empty when it is one clause. Cached: asked of both texts of every pair the conflict chain reaches,
    and of its bare readings (as many texts as `voice.BARE_TEXTS`)."""
    parts: list[str] = []
    for p in clauses(text) or (text,):
        pieces = [q for q in _FOLLOWS.split(p) if q.strip()]
        for i, q in enumerate(pieces):
            # a subordinate clause stays with the clause it qualifies ("If it rains, we stay in.")
            if i and _SUBORDINATE.match(pieces[i - 1]):
                parts[-1] = f"{parts[-1]}, {q}"
            else:
                parts.append(q)
    return tuple(parts) if len(parts) > 1 else ()
#: A clause that qualifies the next one: "If it rains, …", "When I was young, …".
_SUBORDINATE = re.compile(
    r"(?i)\s*(?:if|unless|when|whenever|while|because|since|as|although|though|once|before|after|until)\b"
)
@lru_cache(maxsize=voice.BARE_TEXTS)
def _joined(text: str) -> tuple[str, ...]:
    """The clauses of `text` joined by a semicolon, when it has two or more (cached as `_clause_parts` is)."""
    parts = tuple(p.strip() for p in text.split(";") if len(p.split()) > 2)
    return parts if len(parts) > 1 else ()


#: A retraction's opener: "scratch that,", "ignore what I said,", "no wait,", "forget that PAC -". What follows is the
#: statement; the opener's words are none of it, and the forms that read a statement from its start (`never_done`)
#: met the opener instead.
_RETRACTION = re.compile(
    r"(?i)^\s*(?:(?:scratch|strike|disregard|scrap|forget|ignore)\s+(?:that|this|what\s+(?:i|we)\s+(?:said|wrote|told"
    r"\s+you))|no,?\s+wait|wait,?\s+no)\b[^,;:.!?—-]{0,30}?\s*[,;:.!—-]+\s*(?=\S)"
)


def _bare(text: str) -> str:
    """`text` as the bare statement the conflict chain reads it as a second time: without a reporting frame
    (`voice.bare`), a reminder's opener (`intentions.plain`), and a jotted line or a table's row said as a sentence
    (`jotted.sentence`)."""
    return jotted.sentence(voice.bare(intentions.plain(text)))


def _unretracted(text: str) -> str:
    """`text` without a retraction's opener (`_RETRACTION`)."""
    return _RETRACTION.sub("", text, count=1)


def _date_against_month(n: Statement, o: Statement) -> bool:
    """Whether one statement gives a date and the other only a month, another one ("due on 31 March" / "due in
    April", "per Dan, due end of March" / "Dan reckons it's due in April"), and no other value differs: a date and
    a month are two kinds of value, which the frame rule never compares. A date in the month agrees with it."""
    for a, b in ((n, o), (o, n)):
        dates, months = a.values.dates, b.values.months
        if len(dates) != 1 or a.values.months or len(months) != 1 or b.values.dates:
            continue
        rest = {v for v in a.flat_values if v[0] not in ("date", "month")}
        if rest != {v for v in b.flat_values if v[0] not in ("date", "month")}:
            return False
        return next(iter(dates))[0] != next(iter(months))
    return False


#: Stems of the words that say how many a thing has room for: "holds 40", "room for 28", "seats 120", "sleeps six",
#: "takes 12", "fits 30", "a capacity of 600", "max 8".
_CAPACITY = frozenset(stem(w) for w in (
    "hold holds room space capacity max maximum seat seats sleep sleeps fit fits take takes"
).split())
#: `statement_words._OPPOSITES` by stem, as a statement's opposites are stemmed.
_OPPOSITE_STEMS = {stem(a): stem(b) for a, b in _OPPOSITES.items()}


def _opposite_for_opposite(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether one word is swapped for its own opposite beside at most one other word said on one side ("Dad's
    fistula is in his left arm." / "The fistula Dad dialyses through is in his right arm.", held-out pairs 19): the
    swap rule wants every differing word a value word, and a word more in a relative clause made it none. By the read
    parts' labels an opposite for an opposite of one subject with at most one word more is a contradiction when no
    cue says a change (10 of 10; the 2 with a cue, "switched the cat to wet food", supersede). No value changed, the
    same polarity, no other name, the same subject."""
    if c.polarity or c.changed or c.entities_differ:
        return False
    olds, news = c.only_old & o.opposites, c.only_new & n.opposites
    if len(olds) != 1 or len(news) != 1 or _OPPOSITE_STEMS.get(next(iter(olds))) != next(iter(news)):
        return False
    return len(c.only_new) + len(c.only_old) <= 3 and _same_subject(n, o)


#: A word of a name and the number after it: "Flat 2", "store 3", "Hive no. 4", "Pen #6".
_NUMBERED = re.compile(r"(?i)\b([a-z][a-z'’-]*)\s+(?:no\.?\s*|#\s*)?(\d+)\b(?![.,:/]\d)")


def _numbered_other(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether a bare number that changed names another thing of a numbered kind, a word of both subjects said before
    it: "Flat 2's rent is £850." / "Flat 3's rent is £900.", "Cold store 3 | temp (°C): 4" / "Cold store 5 | …: 7" are
    two flats and two stores, each with its own value, not one value changed (a false contradiction on main: the bare
    number read as one more value of the frame, or as a count of the word after it, "3 temp"). Only with another kind
    changed beside it."""
    if len(c.changed) < 2 or not any(k.startswith("q:") for k in c.changed):
        return False
    both = n.subject & o.subject

    def numbered(st: Statement) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for word, number in _NUMBERED.findall(st.text):
            out.setdefault(stem(word.lower()), set()).add(number)
        return out

    a, b = numbered(n), numbered(o)
    return any(w in both and a[w] != b[w] for w in a.keys() & b.keys())


def _say_both(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether the two whole texts share a value of a kind that a clause changed ("That £12 a foot was the summer
    rate; storage ashore over the winter is £14 a foot." after "… is £12 per foot."): the text that gives both
    values tells them apart, which no contradiction does."""
    return any(o.kinds.get(k, frozenset()) & n.kinds.get(k, frozenset()) for k in c.changed)


def _changed(kinds: Sequence[str]) -> str:
    """A decision's reason for changed values: their kinds, a unit's name for a quantity ("changed gbp"), "number"
    for a bare one."""
    return "changed " + ", ".join(k.removeprefix("q:") or "number" for k in kinds)


def _read_once(text: str) -> None:
    """The readings the conflict chain takes of each text of a pair (its clauses, its bare reading and that
    reading's joined clauses), taken once as the text is parsed (`statement.ON_PARSE`) and kept as long as its
    packed statement (`voice.BARE_TEXTS`). A stored text comes back as a neighbour of later writes from anywhere in
    the store: read only when first asked and kept for the last 16,384 texts, about two thirds of a real batch's
    asks past 60k memories missed (~10k of each reading, ~10% of `decide`: bench/RESULTS.md, "Bulk writes,
    twentieth round"). Only speed: each reading is a function of the text."""
    _clause_parts(text)
    _joined(_bare(text))


ON_PARSE.append(_read_once)
