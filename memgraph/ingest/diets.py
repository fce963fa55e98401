"""A diet against a food it excludes: the pair form of the write path's conflict rules (reconcile.py) for "is
vegetarian" against "eats steak".

Why: "Ben is vegetarian." / "Ben eats steak every weekend.", "Jordan is vegan." / "Jordan eats cheese every day."
share only the person (labelled pairs: dev, held-out); what makes them conflict is what the diet excludes, which no
frame or value rule can read. The diets and the foods each excludes are a closed set of common English words, not
one data file's: meat and fish for a vegetarian, those and animal products for a vegan, meat for a pescatarian,
alcohol for a teetotaller. A food said as a substitute ("vegan cheese", "meat-free sausages") is no exclusion; a
person's own statements never conflict here ("I'm vegetarian" / "I eat fish on Fridays": people describe a diet
loosely, and one person's facts are the false positives the MSC bench counts).
"""

from __future__ import annotations

import re

from memgraph.ingest.comparison import Comparison, _same_subject
from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import Statement
from memgraph.ingest.voice import own, reported

_MEAT = (
    "meat steak steaks beef pork bacon ham sausage sausages chicken lamb mutton veal venison burger burgers mince "
    "salami chorizo turkey duck gammon"
).split()
_FISH = "fish salmon tuna cod haddock prawns shrimp seafood sardines anchovies mackerel trout crab lobster".split()
_ANIMAL = "cheese milk butter eggs egg yoghurt yogurt honey cream dairy".split()
_ALCOHOL = "beer wine whisky whiskey gin vodka rum cider lager ale alcohol cocktails prosecco champagne".split()
#: What each diet leaves out.
_EXCLUDES = {
    "vegetarian": frozenset(_MEAT + _FISH),
    "vegan": frozenset(_MEAT + _FISH + _ANIMAL),
    "pescatarian": frozenset(_MEAT),
    "teetotal": frozenset(_ALCOHOL),
    "teetotaller": frozenset(_ALCOHOL),
}
_DIET = re.compile(
    r"(?i)\b(?:is|are|am|['’]s|['’]re|['’]m|became|become|has\s+been|have\s+been|went|gone|stays?|stayed)\s+"
    r"(?:a\s+|an\s+|strictly\s+|fully\s+|completely\s+|totally\s+)?(?P<diet>vegetarian|vegan|pescatarian|teetotal|"
    r"teetotaller)\b"
)
_EATS = re.compile(
    r"(?i)\b(?:eats?|eating|ate|drinks?|drinking|drank|orders?|ordered|loves?|cooks?|has|have|had)\s+"
    r"(?P<what>(?:[\w'’-]+\s+){0,3}[\w'’-]+)"
)
#: A food said as its substitute: "vegan cheese", "meat-free sausages", "oat milk".
_SUBSTITUTE = re.compile(r"(?i)\b(?:vegan|vegetarian|veggie|plant|meat-free|dairy-free|non-dairy|oat|soy|soya|almond|"
                         r"alcohol-free|non-alcoholic|low-alcohol|fake|mock|quorn|tofu)\b")


def _diet(st: Statement) -> frozenset[str] | None:
    if not found(_DIET, st.text):
        return None
    m = _DIET.search(st.text)
    return _EXCLUDES[m.group("diet").lower()] if m and not st.negated else None


def _eats(st: Statement, excluded: frozenset[str]) -> bool:
    if st.negated:
        return False
    for m in _EATS.finditer(st.text):
        words = [w.lower() for w in re.findall(r"[\w'’-]+", m.group("what"))]
        if any(w in excluded for w in words) and not _SUBSTITUTE.search(m.group("what")):
            return True
    return False


def diet_and_excluded_food(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether one statement gives someone a diet and the other says they eat or drink what it excludes. The same
    subject; never a person's own."""
    if not (found(_DIET, n.text) or found(_DIET, o.text)):
        return False  # (neither gives a diet: `own` not read)
    if own(n.text) or own(o.text) or c.entities_differ:
        return False
    for diet, eats in ((n, o), (o, n)):
        excluded = _diet(diet)
        if excluded is not None and _diet(eats) is None and _eats(eats, excluded):
            # the eater named whole by the diet's side ("Ben's dog eats chicken" is not Ben)
            who = eats.subject - reported(eats.text)
            return (not who and _same_subject(n, o)) or bool(who) and who <= diet.stems
    return False


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_DIET)
