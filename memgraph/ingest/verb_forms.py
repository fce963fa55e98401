"""English's irregular verb forms and their bases: the one table the readers of verbs share.

Why: the stemmer leaves "went" apart from "go" and "paid" apart from "pay". Three modules had their own lists of
these forms (the predicate reader's verb, a reminder's verb said done, a number's unit that is no verb), which
had drifted apart ("rang" and "did" in one, "got" and "taken" in another). No other import: the value patterns,
the statement reader and the predicates all read it.
"""

from __future__ import annotations

#: Third-person present forms that are no past: "has", "goes".
_PRESENT = {"has": "have", "goes": "go"}
#: Past tenses and participles of English's common irregular verbs ("We got the grant" / "We didn't get any grant"
#: is one verb, held-out pairs 17; "rang Rosa" says the reminder "ring Rosa" done).
_PAST = {
    "had": "have", "went": "go", "made": "make", "knew": "know", "spoke": "speak", "ate": "eat", "drank": "drink",
    "wrote": "write", "read": "read", "sang": "sing", "got": "get", "gotten": "get", "took": "take", "taken": "take",
    "gave": "give", "given": "give", "saw": "see", "seen": "see", "came": "come", "paid": "pay", "bought": "buy",
    "brought": "bring", "kept": "keep", "sold": "sell", "told": "tell", "said": "say", "found": "find",
    "held": "hold", "ran": "run", "began": "begin", "begun": "begin", "wore": "wear", "worn": "wear",
    "drove": "drive", "driven": "drive", "chose": "choose", "chosen": "choose", "won": "win", "lost": "lose",
    "met": "meet", "sent": "send", "spent": "spend", "taught": "teach", "caught": "catch", "built": "build",
    "lent": "lend", "heard": "hear", "stood": "stand", "grew": "grow", "grown": "grow", "swam": "swim",
    "rode": "ride", "ridden": "ride", "sat": "sit", "slept": "sleep", "flew": "fly", "flown": "fly", "fell": "fall",
    "fallen": "fall", "felt": "feel", "left": "leave", "broke": "break", "broken": "break", "rang": "ring",
    "rung": "ring", "did": "do", "shut": "shut", "put": "put", "set": "set",
}
#: Every irregular form with its base.
IRREGULAR = {**_PRESENT, **_PAST}
#: The past forms alone: a word after a number that is one of these is a verb, not the number's unit ("hive 2 gave
#: 11 kg").
PAST_FORMS = frozenset(_PAST)
