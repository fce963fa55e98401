"""Step 7: reconcile a new memory with the nearest existing ones of the same user.

No LLM. Both texts are read as statements (`statement.py`: frame words, typed values, subject, complement,
polarity, cues) and compared. For each neighbour, most similar first, the first rule that applies decides:

1. **duplicate** -> reinforce the existing memory (strength+1, last_accessed, a breadcrumb), unless one text has a
   sentence or a joined clause the other does not say, or restricts it with "only" (`repeats.one_says_more`: the
   sentence or the limit would be lost): every value is the
   same (numbers, times, dates, names, the copula's complement, opposites like left/right), the same polarity,
   no correction or update cue, not an additive "also …", and the texts are close: cosine >= `dedup_cosine`,
   token Jaccard >= `dedup_jaccard`, or a paraphrase at cosine >= `dedup_paraphrase_cosine` (+
   `dedup_swap_margin` when a word was replaced by another: "staging" vs "production" database, "went hiking" vs
   "went camping"); or, when both give the same typed values about the same subject with a word or two reworded,
   at cosine >= `dedup_values_cosine` ("rent is £850" / "let at 850 pounds"), or with up to
   `dedup_measured_max_changed_terms` words reworded from `dedup_measured_cosine` when the values measure something
   (a price, a length, a time; not a bare number, often part of a name). Not between two turns of a
   conversation: a turn said again in other words is another turn. Both texts are read in plain words first: a
   figure of speech as the state it says ("has given up the ghost" / "is broken": `idioms.py`).
2. Statements of two different speakers never repeat, supersede or contradict each other ("Caroline: I love
   pizza" and "Mel: I love pizza" are two facts), but two senders' messages of a group chat about a thing ("Dev:
   Kira's list is A and B" / "Lou: like Dev said, it's B and A") are read as two notes, without the names
   (`speakers.py`). Questions and greetings assert nothing, but a tag question, a negative question and a question
   relaying what was heard are read as the statement they carry (`questions.py`); an additive statement
   ("I also like tea") adds, it never replaces.
3. **supersede** when the new text is a correction ("actually", "no, …", "…, not X") or an update ("now",
   "moved to", "was raised to", "switched from X to Y") of the same subject: the same frame with a changed value,
   a swapped value word, or flipped polarity; or it names the old value as replaced ("from Jenkins to …",
   "no longer use Nationwide", a holder or a thing that ended: "Rob stood down and Claire Dunn was voted in",
   "Ficam was withdrawn, so …", "St George's Hall flooded, so …", "Swapped the gas griddle for …", "so no more
   cash on the day"); or a value of the same kind changed (cosine >= `reconcile_update_cosine`); or
   it moves the same holder's home or job ("Lena moved to Lisbon" after "My sister Lena lives in Porto and works
   as a nurse": `slots.py`, where the frames share too little to compare); or it replaces one part of a compound
   old statement (a list's item, a jotted line, a sentence: `old_part`; `remainders.remainder` keeps the other parts).
   A firm statement after a hedged one ("I think the threshold is £27,295?" / "checked on gov.uk: the threshold is
   £28,470 now": `hedges.py`) is read as a correction of it; a value changed by an amount or a factor ("membership
   goes up by a tenner", "twice as often as before": `deltas.py`) or an update relayed from a source ("SLC
   statement says the balance is now £51,200": `voice.relayed`) supersedes from `reconcile_changed_to_cosine`, the
   old subject said again. The new statement's subject, when
   found, must be one the old statement names ("Correction: the choir's concert starts at 19:30." corrects no
   night shift that starts at 19:30).
4. **contradict** (both kept, flagged) without such a cue, only when the frames are the same word for word
   (values aside), both are statements (a verb or a subject pronoun, not a label), and a value of the same kind
   changed ("closes at 22:00" / "at 20:00"), a value word was
   swapped outside the subject ("is in Porto" / "is in Valencia"; in the subject only for identities: "Lena is my
   manager" / "Oskar is my manager"), or the polarity flipped ("I like coffee" / "I don't like coffee"; a clause
   that negates is read alone). One value changed in a frame reworded by a synonym on each side contradicts too
   ("starts on 17 February" / "begins on 24 February", cosine >= `contradict_reworded_cosine`); a value changed
   with the day it holds for is another slot ("22:00 on weekdays" / "18:00 at weekends"). Forms said in other
   words contradict too (forms.py, denials.py, hours.py): a place's opening hours ("open until 8 pm" / "we close at
   5"), a denial that says nothing more than the statement it denies ("We don't reimburse expenses" / "Expenses are
   reimbursed up to £20"), a value denied after the one given in its place ("sprats only, never herring"), "single" /
   "double" of one thing, one favourite of a kind.
   Past episodes ("went hiking", "went swimming"), conversation turns of kind `event` and summaries accumulate:
   they never contradict, and only an explicit correction supersedes one.
5. otherwise, where no neighbour got a decision, a learned duplicate gate (`pair_model.py`, `dedup_model`, off by
   default: it merges non-repeats in real text) may
   **reinforce** the first neighbour (cosine >= `dedup_model_min_cosine`) it finds a repeat of at probability >=
   `dedup_model_min_probability` ("My favourite colour is green." / "Green is the colour I like best."): never a
   turn, another speaker's statement, an episode, a question or a correction, another subject, nor a pair where
   one text says more, names another person or another time (`repeats.py`; `gate_veto`);
6. otherwise -> **create**.

Measured on hand-labelled pairs from many domains (tests/data/decisions/, bench/decisions.py, bench/RESULTS.md):
cosine alone cannot tell "closes at 22:00" / "closes at 20:00" (0.98, a conflict) from a paraphrase (0.86), and a
shared word is not a shared subject ("The Atlas launch deadline is Wednesday 12 March." / "Never deploy Atlas on
Fridays.": no conflict). Every decision carries its reason and scores.

The conflict chain (whether two statements cannot both hold: rule 3's changed value and rule 4's test) is in
conflicts.py, which `RuleReconciler` inherits; the pair forms it tests (a verb of measure, "free" against a price, a
thing moved to a named place, ...) are in forms.py; the learned gate's vetoes in repeats.py.

A `Reconciler` is pluggable (`MemoryEngine(..., reconciler=...)`), e.g. an LLM judge: it returns a
`ReconcileDecision` per new memory; `RuleReconciler` is the deterministic default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol, runtime_checkable

from memgraph._deprecated import deprecated_alias
from memgraph.config import Settings
from memgraph.ingest import (
    abbreviations,
    acronyms,
    compounds,
    ellipsis,
    fields,
    followups,
    hedges,
    idioms,
    intentions,
    pair_model,
    pairing,
    questions,
    reasons,
    remainders,
    repeats,
    reschedules,
    slots,
    speakers,
    thing_labels,
    titles,
    tolerance,
    voice,
)
from memgraph.ingest import (
    pair_reads as reads,
)

# `compare` is re-exported: callers and the benches of older checkouts read reconcile.compare
from memgraph.ingest.comparison import (  # noqa: F401
    _WHEN,
    Comparison,
    _compare,
    _names_denied,
    _same_subject,
    _shares,
    _unit_said,
    compare,
    owned_things_differ,
    owner_word_only,
)
from memgraph.ingest.conflicts import (
    ConflictRules,
    _changed,
)
from memgraph.ingest.denials import (
    never_done,
)
from memgraph.ingest.duplicates import _NOTED, DuplicateRules
from memgraph.ingest.forms import (
    _CHANGED_TO,
    _code_replaced,
    _free_or_priced,
    _moved_to,
    changed_thing,
)
from memgraph.ingest.pairing import gate_veto as gate_veto  # (read from here by bench and tests)
from memgraph.ingest.pairing import neighbour_floor as neighbour_floor
from memgraph.ingest.statement import (
    Statement,
    correction_parts,
    denied_values,
    statement,
    stem,
)
from memgraph.models import Memory, MemoryKind
from memgraph.text import surface


class ReconcileAction(StrEnum):
    """What a new memory does to its nearest neighbour."""

    CREATE = "create"
    REINFORCE = "reinforce"
    SUPERSEDE = "supersede"
    CONTRADICT = "contradict"


#: The reason of a duplicate that says one item of a compound note again (`compounds.repeated`).
_PART = "one item of a compound note said again"


@dataclass(frozen=True)
class Neighbour:
    """An existing (or earlier-in-this-batch) memory near the new one."""

    memory: Memory
    similarity: float
    in_batch: bool = False
    #: one of the latest memories before a follow-up (`followups.py`), compared whatever its cosine
    recent: bool = False


@dataclass(frozen=True)
class ReconcileDecision:
    """A reconciler's verdict on one new memory: the action, the neighbour it targets (None for create), why,
    and the scores that decided it."""

    action: ReconcileAction
    target_id: str | None
    reason: str
    scores: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class Reconciler(Protocol):
    """Decides what a new memory does to its neighbours. Neighbours come most similar first."""

    def decide(self, new: Memory, neighbours: Sequence[Neighbour]) -> ReconcileDecision: ...


class RuleReconciler(DuplicateRules, ConflictRules):
    """The deterministic default (see the module docstring); thresholds come from `Settings`."""

    def __init__(self, settings: Settings) -> None:
        self.s = settings

    def update(self, n: Statement, o: Statement, c: Comparison, *, correction: bool = False) -> str | None:
        """How a correction or an update `n` replaces `o` beyond a plain conflict, or None. `correction`: `n` is
        a clause of a correction (`corrected_part`), which its own words need not say."""
        s = self.s
        correction = correction or n.correction
        if c.cosine >= s.reconcile_update_cosine and _code_replaced(n, o):
            # (before the subject test: "Heads up, we've rotated the members' Wi-Fi password: it's …" has its
            # heading for a subject; every word of the old subject is said again)
            return "changed code (told as an event)"
        if c.cosine >= s.reconcile_changed_to_cosine and reads.relative_change(n, o, c):
            # (before the subject test: "The midwife has upped Ivy's feeds by 30 ml" has the midwife for a subject)
            return "changed by a relative amount"
        # the old value named as replaced, with the slot it filled said again ("We went with walnut worktops instead
        # of oak." after "Worktops: we picked oak, 40 mm, …"), needs no subject test: the parse's subject there is
        # the new value
        named = c.replaced and bool(c.shared - n.replaced)
        # (or the thing a change told with its agent as the subject acts on: "The hospital has preponed the 20 week
        # scan to Monday" is about the scan)
        if not c.shared or (n.subject and not c.identity and not named and not _shares(n.subject, o.stems)
                            and not _shares(changed_thing(n.text), o.stems)):
            # "Correction: the choir's concert starts at 19:30." beside "Night shifts on Ward 9 start at 19:30.": a
            # correction of something the old statement does not name, though the verb and the time are the
            # same (an identity's subject is its value: "Dana is on call" corrects "Omar is the on-call engineer")
            return None
        # a replacement that shares nothing but the replaced name must be as close as a change told as an event:
        # "Anna stood down as club captain" replaces nothing in "Anna Pryce coaches the juniors" (0.45); "Tom Gethin
        # has retired, so Lewis Carne shoes our horses" does replace "Our farrier is Tom Gethin" (0.55)
        if c.replaced and (c.shared - n.replaced or c.cosine >= s.reconcile_changed_to_cosine):
            return "names the old value as replaced"
        # an explicit correction ("Actually, … 28 November, not 14 November") needs less similarity than an update
        bar = s.reconcile_slot_cosine if correction else s.reconcile_update_cosine
        if c.changed and c.cosine >= bar:
            return _changed(c.changed)
        if c.changed and c.cosine >= s.reconcile_changed_to_cosine and voice.relayed(n.text) and o.subject and _shares(
            o.subject, n.stems
        ):
            # "SLC statement says the balance is now £51,200" after "My student loan balance is about £48,000." (0.56):
            # the source's words weigh in the cosine, not in what is said; the old subject is said again
            return _changed(c.changed) + " (relayed)"
        restated = reads.bare_for_named(n, o) if not c.changed and c.cosine >= bar else None
        if restated is not None:
            return _changed((restated,)) + " (said as a bare number, the old value named)"
        if c.changed and c.cosine >= s.reconcile_changed_to_cosine and self._changed_to(n, o, c):
            return _changed(c.changed) + " (told as an event)"
        if c.cosine >= s.reconcile_changed_to_cosine and _moved_to(n, o):
            return "moved to another named place (told as an event)"
        if titles.retitled(n, o):  # (from the neighbour floor: the two titles are most of the words that differ)
            return "another title in quotes (told as an event)"
        if c.cosine >= s.reconcile_update_cosine and _free_or_priced(n, o) and _same_subject(n, o):
            return "free / priced"
        most = s.reconcile_max_changed_terms
        swapped = bool(c.only_new and c.only_old) and not c.subject_changed
        few = s.reconcile_update_max_changed_terms
        if swapped and len(c.only_new) <= few and len(c.only_old) <= few and c.cosine >= s.reconcile_update_cosine:
            return f"replaced {', '.join(surface(c.only_old, o.text))} -> {', '.join(surface(c.only_new, n.text))}"
        if correction:
            if c.preference_swapped or (c.same_frame and c.cosine >= s.reconcile_subject_cosine):
                return "corrected"
            # what the correction drops is a value of the old statement (a name, a complement) or one word for one
            # ("I prefer tabs" / "Actually, I prefer spaces"): "We clean curtains." / "Actually, curtains need their
            # hooks taken out before …" drops its verb for three words of a condition, which replaces nothing
            # (held-out pairs 12), as "We had another look round the flat on Saturday." replaces no bedroom count
            one_for_one = len(c.only_new) == 1 and len(c.only_old) == 1
            if swapped and len(c.only_new) <= most and len(c.only_old) <= most and (
                one_for_one or c.only_old & o.value_words()
            ):
                return f"corrected {', '.join(surface(c.only_old, o.text))} -> {', '.join(surface(c.only_new, n.text))}"
        return None

    @staticmethod
    def _changed_to(n: Statement, o: Statement, c: Comparison) -> bool:
        """A change told as an event that names the new value of the old statement's attribute: "The AGM voted to
        raise the annual membership to £75." after "Membership costs £60 a year."; "Ofcom moved us to 97.8 FM." after
        "The station broadcasts on 104.3 FM." (held-out pairs 6, cosine 0.57 and 0.51: under the update bar, the
        event's words being most of the text). Only a change verb that brings something *to* a value, one kind of
        value changed and given with its unit (not a bare number), the old statement giving one value of it, and the
        same attribute: the old subject said again, or the unit's word said by both ("FM")."""
        if c.changed == ("date",):
            # "ugh smile studio moved isla's tightening to the 21st, same time" after "isla's next brace tightening
            # is thurs 14 march 4.10pm": a day brought to another, the old statement giving one date of it
            return (len(o.kinds.get("date", ())) == 1 and _CHANGED_TO.search(n.text) is not None
                    and _shares(o.subject, n.stems))
        if len(c.changed) != 1 or not c.changed[0].startswith("q:") or c.changed[0] == "q:":
            return False
        kind = c.changed[0]
        if len(o.kinds.get(kind, ())) != 1 or not _CHANGED_TO.search(n.text):
            return False
        unit = stem(kind.removeprefix("q:"))
        return _shares(o.subject, n.stems) or (unit in n.stems and unit in o.stems)

    def corrected_part(self, n: Statement, o: Statement, c: Comparison) -> str | None:
        """How one clause of a correction `n` replaces `o`: a correction often says more than the fixed value ("I
        got my wires crossed: the A2 group's teacher is Señor Ruiz, and Señora Ibáñez has B1."; "To set the record
        straight: the head lifeguard is Sade Bello, and Owen Tranter is her deputy."), and the whole text, read as
        one frame, shares too little with the old statement (held-out pairs 6). Each clause is read alone, at the
        pair's cosine."""
        for part in correction_parts(n.text):
            p = statement(part)
            cc = _compare(p, o, c.cosine, c.tolerance)
            why = self.conflict(p, o, cc, cue=True) or self.update(p, o, cc, correction=True)
            if why is not None:
                return why + " in a clause"
        return None

    def changed_part(self, n: Statement, o: Statement, c: Comparison) -> str | None:
        """How one part of an update `n` told with its reason replaces `o` (`reasons.py`: "Biscuit has been moved to
        the lower paddock since his laminitis flare-up."): the text without its reason first (a condition kept with
        its clause), then each part read alone, at the pair's cosine, as a correction's parts are; not a part that
        denies what the old statement says or the other way round (a flipped polarity read in a part is most often
        another thing said, not the change)."""
        kept = reasons.without_reason(n.text)
        for part in (kept, *reasons.change_parts(n.text)) if kept else reasons.change_parts(n.text):
            p = statement(part)
            cc = _compare(p, o, c.cosine, c.tolerance)
            if cc.polarity:
                continue  # "My home state is Alabama, but …" read against "I don't like the state of Alabama."
            why = self.conflict(p, o, cc, cue=True) or self.update(p, o, cc)
            if why is not None:
                return why + " in the clause of the change"
        return None

    def old_part(self, n: Statement, o: Statement, c: Comparison) -> str | None:
        """How an update or a correction `n` replaces one part of a compound `o` (a list's item, a jotted line, a
        sentence): "insurance switched to AAMI, renews 2 Sept now" after "- car: Mazda 3, rego XPT-442 / -
        insurance: NRMA, renews 14 Aug / - service due: 60,000 km" (a newcomer's notes). Read whole, the old
        text's other parts hide the one that changed; each is read alone, at the pair's cosine, as a correction's
        parts are, and `remainders.remainder` then keeps the parts `n` does not touch as a memory of their own. Not a
        part that `n` denies or the other way round (a flipped polarity read in a part is most often another
        thing said)."""
        parts = remainders.compound_parts(o.text)
        if len(parts) < 2:
            return None
        # the pair's cosine is the whole old text's, which the other parts dilute; a part whose words `n` says but
        # one (the value it replaces) is read at the bar an update needs (the gates below read no cosine)
        cosine = max(c.cosine, self.s.reconcile_update_cosine)
        for part in parts:
            p = statement(part)
            cc = _compare(n, p, cosine, c.tolerance)
            if cc.polarity or (len(p.stems) < 2 and not p.kinds) or len(cc.only_old) > 1 or not cc.shared:
                continue
            why = self.conflict(n, p, cc, cue=True) or self.update(n, p, cc)
            if why is not None:
                return why + " in one part of the old statement"
        return None

    def decide(self, new: Memory, neighbours: Sequence[Neighbour]) -> ReconcileDecision:
        said = questions.restated(new, [nb.memory for nb in neighbours])
        if said is not None:
            # "The final's on the 20th, isn't it?", "Didn't they say it starts at 2?": the statement asked about, not
            # a question (which asserts nothing) nor a negation (`questions.py`)
            return self.decide(said[0], [replace(nb, memory=m) for nb, m in zip(neighbours, said[1], strict=True)])
        # "The mower has given up the ghost." is read as "The mower is broken." (`idioms.py`), each neighbour too
        n = idioms.plain(statement(new.content))
        correction = new.kind is MemoryKind.CORRECTION or n.correction
        denied = denied_values(new.content)
        cue = correction or n.update
        # the cues slots.py reads on the text itself: the statement's, read with code blanked, when it has no code
        # fence (two regular-expression searches per new text fewer: ~0.3 s of CPU in a batch of 5,000)
        fenced = "```" in new.content or "~~~" in new.content
        cues = None if fenced else (n.update, n.correction)
        who = pairing.speaker(new)
        # what the learned gate reads of each neighbour, kept from the rules' pass (compared once); only when on
        compared: list[tuple[Neighbour, Statement, Comparison]] | None = [] if self.s.dedup_model else None
        read = n
        for nb in neighbours:
            old = nb.memory
            other = pairing.speaker(old)
            if other and not who and thing_labels.names_thing(old.content, new.content):
                other = None  # "Sweep: HETAS-registered, …" beside "Our sweep isn't …": a note, no turn of "Sweep"
            if nb.recent and nb.similarity < pairing.neighbour_floor(new, self.s):
                # a latest memory under every floor, given because `new` names no subject of its own: only the
                # follow-up's value can tie the two
                why = followups.changes(new, read, old, correction)
                if why is not None:
                    kind = "correction" if correction else "newer statement"
                    return ReconcileDecision(
                        ReconcileAction.SUPERSEDE, old.id, f"{kind} of the same subject ({why})",
                        {"cosine": round(nb.similarity, 4)},
                    )
                continue
            if who and other and who != other:
                # one person's statement neither repeats, corrects nor contradicts another's, but in a group chat's
                # messages about a thing ("Dev: Kira's list is A and B" / "Lou: like Dev said, it's B and A") one
                # person repeats or corrects another: read as two notes, without the names (`speakers.py`)
                told = speakers.one_fact(new, old)
                if told is not None:
                    d = self.decide(
                        new.model_copy(update={"content": told[0]}),
                        [Neighbour(old.model_copy(update={"content": told[1]}), nb.similarity, nb.in_batch)],
                    )
                    if d.action is not ReconcileAction.CREATE:
                        return d
                continue
            # "BSL interpreters …" / "… British Sign Language booking": read with the words the other spells out, the
            # common abbreviations written out ("£14k inc. VAT"), a label the other names as a thing ("Sweep: …"),
            # a figure of speech in plain words (`idioms.plain`)
            n, o = thing_labels.as_things(
                *acronyms.spelled_out(*abbreviations.read_out(read, idioms.plain(statement(old.content))))
            )
            figured = idioms.figured(new.content) or idioms.figured(old.content)
            c = _compare(n, o, nb.similarity, self.s.duration_calendar_tolerance)
            if compared is not None and nb.similarity >= self.s.dedup_model_min_cosine:
                compared.append((nb, o, c))
            # "Pickup is at 3:25, not 3:15." beside "Pickup time is 3:15.": naming the stored value as not so
            # is a correction of it, whatever words open the sentence
            # a firm statement after a hedged one settles the guess ("I think the threshold is £27,295?" /
            # "checked on gov.uk: the threshold is £28,470 now"): a changed value corrects it, as a cue would say
            # (a guess: a firm statement's opener after it, or a value said with doubt in words; "I think food trucks
            # are awesome." is an opinion, which "I love food truck burgers." does not correct, and "I am not sure I
            # will learn that language." guesses no value: `hedges.doubtful`)
            guessed = (
                hedges.hedged(old.content) and not hedges.hedged(new.content)
                and (hedges.firm(new.content) or (hedges.doubtful(old.content) and bool(o.kinds)))
            )
            fixes = correction or guessed or _names_denied(denied, o)
            # "rye flour ordered" after "remind me to order 20kg of rye flour": the reminder is spent, and
            # "the gate is fixed" after "todo: fix the gate" is no repeat of it (intentions.py)
            if not (who and other) and intentions.fulfilled(new.content, old.content):
                return ReconcileDecision(
                    ReconcileAction.SUPERSEDE, old.id, "newer statement of the same subject (an intention done)",
                    c.scores(),
                )
            # "Plumber call moved to Thursday" after "Remind me to ring the plumber on Monday"; "Dryer 3 has been
            # repaired" after "Dryer 3 is out of action" (reschedules.py)
            turned = None if (who and other) else reschedules.turned(n, o, c)
            if turned is not None:
                return ReconcileDecision(
                    ReconcileAction.SUPERSEDE, old.id, f"newer statement of the same subject ({turned})", c.scores()
                )
            dup = self.duplicate(n, o, c, turns=bool(who and other), figured=figured)  # (turns: of one speaker)
            # "I enjoy driving." after "I enjoy driving. I'm a woman." (cosine 0.84): a repeat of one sentence of
            # two, or one with a sentence more, which a reinforcement would lose
            # (neither a hedge nor a message's greeting or sign-off on one side is a sentence more: "I think it's
            # £45? not sure" / "Confirmed: it's £45"; "hi all, shifts are 9:30 to 12:30 - thanks! Priya" / "Shifts
            # run …"; `_said`)
            # (a note of a notification says nothing the notification does not print: `notices.noted`; the stored
            # notification may say more, and it is the one kept)
            # (abbreviations written out: the full stop of "inc." ends no sentence)
            if dup is None and not (who and other or cue or fixes) and nb.similarity >= self.s.compound_item_cosine:
                dup = _PART if compounds.repeated(n, o.text) else None  # one item of a compound note said again
            if dup is not None and (dup in (_NOTED, _PART) or not repeats.one_says_more(
                *reads.said(abbreviations.written_out(new.content), abbreviations.written_out(old.content)),
                self.s.dedup_sentence_max_covered,
            )):
                return ReconcileDecision(ReconcileAction.REINFORCE, old.id, dup, c.scores())
            # ("Trains make me sick too." after "… bus rides, trains are fine.": "too" adds to the bus rides, and
            # says the opposite of the trains)
            if n.question or o.question or (
                n.additive and not o.additive and not tolerance.opposed(new.content, old.content)
            ):
                continue
            # "Lena moved to Lisbon" after "Lena lives in Porto"; not between two turns of a conversation, where
            # "I moved to Paris" is a story told, and the turn it would replace may be what a question needs
            # a neighbour under the floor (read because the new text says a change: `neighbour_floor`) shares so
            # little that a home, a job or a swapped word read from the whole text is no evidence ("I'm from Memphis,
            # Tennessee." / "I moved to Chicago.", 0.38): only a change the text names in a part decides there
            under = bool(cue) and nb.similarity < self.s.reconcile_slot_cosine
            moved = None if (who and other) or under else slots.verdict(new.content, old.content, cues)
            if moved is not None and not moved[0]:
                # someone else's move, or a move within the same place: not a change of `old`; but a thing (not a
                # person's home) taken to another named place is read below ("We switched the practice server over
                # to Amsterdam" states no home of "our practice server"), and so is a switch from a word of `old`
                # where `old` states no home or job (`slots.switched_from`)
                if not (cue and (_moved_to(n, o) or slots.switched_from(n, o, c.replaced, moved[1]))):
                    continue
            elif moved is not None:
                kind = "correction" if fixes else "newer statement"
                return ReconcileDecision(
                    ReconcileAction.SUPERSEDE, old.id, f"{kind} of the same subject ({moved[1]})", c.scores()
                )
            episodic = (
                pairing.episodic(new, n, turn=bool(who)) or pairing.episodic(old, o, turn=bool(other))
                or (n.episode and o.episode)
            )
            if episodic and not fixes and not never_done(n, o):
                # episodes accumulate: "went hiking" and "went swimming" both happened (but not beside "never")
                continue
            why = None if under else self.conflict_in_any_voice(n, o, c, cue=cue or fixes)
            if cue or fixes:
                # (a value named as not so, "coming at 11 now not 9", is a correction as a cue is: `_names_denied`)
                why = why or self.update(n, o, c, correction=fixes)
                if why is None and fixes:
                    why = self.corrected_part(n, o, c) or ellipsis.corrected_value(new.content, o)
                if why is None and n.update:
                    why = self.changed_part(n, o, c)
                if why is None and n.update and reasons.withdrawn(n.text, o):
                    why = "a plan withdrawn"
                if why is None and n.update and fields.changed(new.content, old.content):
                    why = "a record's field given another value"
                if why is None and abbreviations.unsettled(n, o):
                    why = "a value now to be confirmed or not applicable"  # "venue now TBC", "n/a from now on"
                if why is None:
                    why = self.old_part(n, o, c)
                if why is None and nb.recent:
                    why = followups.changes(new, n, old, fixes)
                if why is not None:
                    kind = "correction" if fixes else "newer statement"
                    return ReconcileDecision(
                        ReconcileAction.SUPERSEDE, old.id, f"{kind} of the same subject ({why})", c.scores()
                    )
                continue
            if why is not None:
                return ReconcileDecision(
                    ReconcileAction.CONTRADICT,
                    old.id,
                    f"conflicting statement, not clearly newer ({why})",
                    c.scores(),
                )
        n = read
        learned = self._learned_duplicate(new, n, compared) if compared and not who else None
        if learned is not None:
            return learned
        best = neighbours[0] if neighbours else None
        scores = {"cosine": round(best.similarity, 4)} if best else {}
        reason = "new" if best is None else "no duplicate or conflict"
        return ReconcileDecision(ReconcileAction.CREATE, None, reason, scores)

    def _learned_duplicate(
        self, new: Memory, n: Statement, compared: Sequence[tuple[Neighbour, Statement, Comparison]]
    ) -> ReconcileDecision | None:
        """Where no rule decided: reinforce the first neighbour the learned gate (`pair_model.py`) finds a repeat
        of at `dedup_model_min_probability`, among those at `dedup_model_min_cosine` or closer (`compared`: each
        with its statement and comparison from the rules' pass) that no veto (`gate_veto`) rules out."""
        if pairing.new_side_veto(new, n) is not None:
            return None
        for nb, o, c in compared:
            old = nb.memory
            if pairing.old_side_veto(new, n, old, o, c, self.s) is not None:
                continue
            p = pair_model.duplicate_probability(n, o, c, nb.similarity)
            if p >= self.s.dedup_model_min_probability:
                scores = {**c.scores(), "p_duplicate": round(p, 4)}
                return ReconcileDecision(ReconcileAction.REINFORCE, old.id, f"learned duplicate (p={p:.2f})", scores)
        return None


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Action": ReconcileAction, "Decision": ReconcileDecision})
