"""Gap detection, the general causes found in the second and fourth held-out parts' errors (`retrieve/gaps.py`): each
test is one cause, with the real model where the rule reads the served memories' similarity or the focus words."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gap_values import expected_answer, holds_answer, holds_asked_values, spoken_time
from memgraph.retrieve.gaps import (
    FocusTest,
    GapVerdict,
    ServedHit,
    acronym_words,
    case_words,
    day_parts,
    focus_words,
    information_need,
    judge,
    kinds_of_subject,
    possessors,
    scene,
    states_rule,
    subject_names,
    uncovered,
)


@pytest.fixture
def miss(embedder: CachedEmbedder):  # type: ignore[no-untyped-def]
    """judge() with the default settings, the real model and the memories' real cosine to the question."""
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)

    def verdict(query: str, texts: list[str]) -> GapVerdict:
        vecs = np.asarray(embedder.encode([query, *texts]), dtype=np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        hits = [ServedHit(t, float(v @ vecs[0])) for t, v in zip(texts, vecs[1:], strict=True)]
        return judge(query, hits, answer_cosine=s.gap_answer_cosine, answer_margin=s.gap_answer_margin,
                     focus=focus)

    return verdict


def test_what_does_it_cost_asks_for_an_amount(miss) -> None:  # type: ignore[no-untyped-def]
    """The verb asks for the amount as "how much" does."""
    assert expected_answer("What does the Pixieset subscription cost?") == "money"
    assert expected_answer("What do the guitar lessons charge?") == "money"
    pixieset = ["Client galleries are delivered through Pixieset within three weeks."]
    assert miss("What does the Pixieset subscription cost?", pixieset).miss
    paid = ["The Pixieset subscription costs 12 pounds a month."]
    assert not miss("What does the Pixieset subscription cost?", paid).miss


def test_an_access_code_is_the_code_not_where_it_is_written(miss) -> None:  # type: ignore[no-untyped-def]
    assert expected_answer("What's my locker code?") == "code"
    assert expected_answer("What's my bike lock combination?") == "code"
    assert expected_answer("What's the dress code?") is None  # a rule, not a code
    assert miss("What's my locker code?", ["My locker code is on a card in my wallet."]).miss
    assert not miss("What's my locker code?", ["My locker code is 4471."]).miss
    assert miss("What's my bike lock combination?", ["My bike lock combination is written in my notes app."]).miss


def test_a_verb_before_a_closing_preposition_is_the_question_verb(miss) -> None:  # type: ignore[no-untyped-def]
    """'What did the Bakers *ask* for?': the answer says it in other words ("want")."""
    assert focus_words("What did the Bakers ask for?") == []
    bakers = ["The Bakers want a black-and-white set of the first dance.",
              "The wedding shoot for the Bakers is on 14 September in Bath."]
    assert not miss("What did the Bakers ask for?", bakers).miss


@pytest.mark.parametrize(
    "text", ["Explain things simply, I'm new to Rust.", "Tell me stuff straight, no fluff."]
)
def test_a_request_about_nothing_in_particular_is_an_instruction(text: str) -> None:
    assert not information_need(text)
    assert information_need("Explain how the release branch works.")


def test_words_are_borrowed_only_from_a_linked_memory(miss) -> None:  # type: ignore[no-untyped-def]
    """'insurance' in an unrelated served memory does not make the van's MOT say when the van insurance is due; a
    memory naming the same thing (Casa do Largo) still lends its words."""
    van = ["My van is a 2019 VW Transporter; its MOT is due in March.",
           "My insurance covers equipment up to 15,000 pounds."]
    assert miss("When is the van insurance due?", van).miss
    hotel = ["The Lisbon hotel is Casa do Largo in Alfama, booked for 4 nights.",
             "Check-in at Casa do Largo is from 15:00."]
    assert not miss("What time can I check in at the Lisbon hotel?", hotel).miss


def test_an_end_point_verb_is_what_is_asked(miss) -> None:  # type: ignore[no-untyped-def]
    assert "close" in focus_words("When does the café close?")
    assert "start" not in focus_words("When does the match start?")  # an event's time is its start
    cafe = ["I work at the campus café on Wednesday and Friday afternoons.",
            "The library closes at midnight during exams."]
    assert miss("When does the café close?", cafe).miss
    assert not miss("When does the café close?", ["The campus café closes at 18:00 on weekdays."]).miss


def test_a_possessor_must_be_named_by_the_answer(miss) -> None:  # type: ignore[no-untyped-def]
    assert possessors("What's Kofi's day rate?") == ["kofi"]
    assert possessors("Where's the hotel?") == []
    kofi = ["My second shooter for weddings is usually Kofi.", "My day rate for commercial shoots is 650 pounds."]
    assert miss("What's Kofi's day rate?", kofi).miss
    assert not miss("What's Kofi's day rate?", ["Kofi charges 300 pounds for a wedding day."]).miss


def test_a_word_of_the_same_field_does_not_cover_a_focus_word(miss) -> None:  # type: ignore[no-untyped-def]
    """gap_focus_word_cosine 0.5: "library" is 0.46 similar to "databases", not another word for it."""
    exams = ["My algorithms exam is on 21 January at 9:30 in the Parkinson Building.",
             "The library closes at midnight during exams."]
    assert miss("When is the databases exam?", exams).miss
    assert not miss("When is the algorithms exam?", exams).miss


def test_next_and_last_are_different_times(miss) -> None:  # type: ignore[no-untyped-def]
    assert miss("What's the conversion rate target for next quarter?",
                ["The checkout conversion rate last quarter was 3.2%."]).miss
    assert miss("When is my next blood test?", ["My blood pressure was 128/82 at the last check-up."]).miss
    assert not miss("When is my next blood test?", ["My next blood test is on 3 March."]).miss
    assert not miss("When is the next supervision?", ["Supervision is every other Thursday at 14:00."]).miss
    # "when was it last done" asks for a past date, not how often it is done
    assert miss("When was the oven last serviced?", ["The oven is serviced every six months by BakeTech."]).miss
    assert not miss("When was the oven last serviced?", ["BakeTech last serviced the oven on 3 March."]).miss


def test_a_rate_asked_per_one_period_is_not_answered_per_another(miss) -> None:  # type: ignore[no-untyped-def]
    shift = ["Hospital parking costs 4 pounds a shift with my staff permit."]
    assert miss("How much does the staff parking permit cost per year?", shift).miss
    assert not miss("How much does the staff parking permit cost?", shift).miss
    assert not miss("How much does the staff parking permit cost per year?",
                    ["The staff parking permit costs 200 pounds a year."]).miss


# -- causes found in the fourth held-out part's errors (answered questions logged as misses) ---------------------


def test_a_clock_time_said_in_words_answers_what_time(miss) -> None:  # type: ignore[no-untyped-def]
    """"at 8", "at half seven", "quarter to nine": people say clock times without a colon or am/pm."""
    club = ["Long rides are on Saturdays with the Wheelers club, leaving the café at 8."]
    assert not miss("what time does the club ride leave on Saturday?", club).miss
    assert not miss("What time is handover?", ["Handover is at half seven."]).miss
    assert spoken_time("The bus goes at quarter to nine.")
    assert not spoken_time("The course runs for 8 weeks, at 3 sites.")  # a count with a unit is no hour
    assert miss("What time does the club ride leave?", ["The club ride is on Saturdays, 80 km."]).miss


def test_how_early_is_answered_by_an_offset(miss) -> None:  # type: ignore[no-untyped-def]
    handover = ["Handover is on the ward, and I always arrive ten minutes early."]
    assert not miss("how early should I get in before handover?", handover).miss
    assert miss("What time does handover start?", handover).miss  # an offset is no clock time


def test_a_user_name_need_not_be_capitalised(miss) -> None:  # type: ignore[no-untyped-def]
    assert not miss("what's my Zwift name?", ["My Zwift username is marta_rides."]).miss
    assert miss("what's my Zwift name?", ["I ride on Zwift on Tuesday evenings."]).miss


def test_an_acronym_says_the_words_it_stands_for(miss) -> None:  # type: ignore[no-untyped-def]
    """The small model does not link an acronym with its words (cosine 0.29 for "threshold power" / "FTP")."""
    assert acronym_words("when's the next electrical inspection?", "The EICR is due again in 2027.") == {
        "electrical", "inspection"}
    assert acronym_words("what's my threshold power?", "My FTP was 245 watts.") == {"threshold", "power"}
    assert acronym_words("What's the SLA?", "The service level agreement is 99.9%.") == {"sla"}
    assert acronym_words("what's the customer account?", "We use the ACD tool.") == set()
    assert not miss("when's the next electrical inspection at Mill Lane?",
                    ["The EICR for Mill Lane is due again in 2027."]).miss
    assert not miss("what's my threshold power?", ["My FTP was 245 watts at the last test in March."]).miss


def test_a_deadline_is_the_date_asked_for(miss) -> None:  # type: ignore[no-untyped-def]
    """"deadline", "cut-off", "due" name the kind of date asked, like "time" or "date": not a focus word."""
    assert expected_answer("what's the BES abstract deadline?") == "when"
    assert "deadline" not in focus_words("when's my registration renewal deadline?")
    assert "cut" not in focus_words("When is the cut-off for wholesale orders?")
    assert not miss("when's my registration renewal deadline?",
                    ["Need to renew my NMC registration before 31 March."]).miss
    bes = ["The conference abstract for BES is due on 15 January."]
    assert not miss("when is the BES abstract deadline?", bes).miss
    assert miss("when's my registration renewal deadline?", ["My NMC registration number is 12A3456E."]).miss


def test_a_limit_answers_a_question_that_names_a_value_of_its_kind(miss) -> None:  # type: ignore[no-untyped-def]
    """"is it ok to have a coffee at 4am?" names a case of the rule "no caffeine after 3am"."""
    caffeine = ["I can't have caffeine after 3am or I don't sleep."]
    assert not miss("is it ok to have a coffee at 4am?", caffeine).miss
    assert holds_asked_values("Expenses under 50 euros need no receipt.", "Do I need a receipt for a 20 euro lunch?")
    # a limit of another kind, or a value that is no limit, does not
    assert not holds_asked_values("I can't have caffeine after 3 cups.", "is it ok to have a coffee at 4am?")
    assert not holds_asked_values("My best 10 km time is 48 minutes.", "What's my best time for 5 km?")


def test_a_named_subject_must_be_the_memorys(miss) -> None:  # type: ignore[no-untyped-def]
    """"What time does the Dragon Ride start?" is not answered by another ride's time."""
    assert subject_names("What time does the Dragon Ride start?") == ["dragon", "ride"]
    club = ["Long rides are on Saturdays with the Wheelers club, leaving the café at 8.",
            "My target race is the Dragon Ride, 8 June, the 190 km route."]
    assert miss("What time does the Dragon Ride start?", club).miss
    # a memory naming no other subject may still answer ("I prefer aisle seats" for the Tokyo flight)
    assert not miss("Which seat should I book for the flight to Tokyo?", ["I prefer aisle seats on long flights."]).miss


def test_a_memory_about_all_of_a_thing_answers_for_a_kind_of_it(miss) -> None:  # type: ignore[no-untyped-def]
    assert kinds_of_subject("where are the tenancy deposits held?", "Deposits are protected with the DPS.") == {
        "tenancy"}
    assert not miss("where are the tenancy deposits held?", ["Deposits are protected with the DPS."]).miss
    # qualified otherwise, or named in passing: another subject
    assert kinds_of_subject("When is the next data science offsite?", "The team offsite is in Sintra.") == set()
    assert miss("When is the databases exam?", ["The library closes at midnight during exams."]).miss


def test_a_number_asked_after_a_title_and_a_name(miss) -> None:  # type: ignore[no-untyped-def]
    assert expected_answer("What's Prof. Adeyemi's office number?") == "number"
    assert miss("What's Prof. Adeyemi's office number?",
                ["My main supervisor is Prof. Adeyemi; my second supervisor is Dr. Walsh."]).miss


# -- questions that come with their scene (dev part 4) and the need test -----------------------------------------


def test_a_scene_is_not_what_is_asked(miss) -> None:  # type: ignore[no-untyped-def]
    """"walk-in is showing 7 degrees, what do I do?": the scene's words and values need not be in the answer."""
    assert scene("walk-in is showing 7 degrees, what do I do?") == ("walk-in is showing 7 degrees", "what do I do?")
    assert scene("locked out the back - whats the alarm code") == ("locked out the back", "whats the alarm code")
    assert scene("Which seat should I book for the flight to Tokyo?")[0] == ""
    fridge = ["If the walk-in fridge goes above 5°C, move the dairy to the reach-in fridge and call Coldline."]
    assert not miss("walk-in is showing 7 degrees, what do I do?", fridge).miss
    crash = ["Crash reports go to Crashlytics; anything over 1% crash-free drop pages the mobile lead, Ama."]
    assert not miss("crash-free rate dropped 2% overnight, who gets paged?", crash).miss
    # the question's own words still count, and a scene nothing served speaks of is still a miss
    charger = ["The shop's card reader is a SumUp Solo; restart it by holding the power button for 10 seconds."]
    assert miss("the card reader is dead, does the warranty cover it?", charger).miss
    assert miss("the dishwasher is leaking, who do we call?", fridge).miss


def test_indirect_questions_and_remarks() -> None:
    for asks in ("not sure when the bins go out", "I wonder whether the vet is open on Sundays",
                 "any idea where the charger is", "locked out the back - whats the alarm code"):
        assert information_need(asks), asks
    for remark in ("ok running the migrations now", "merged the i18n fix", "thanks, that build worked"):
        assert not information_need(remark), remark
    assert information_need("standup time")
    assert information_need("wifi password")


def test_the_mobile_is_a_phone_only_as_a_noun() -> None:
    assert expected_answer("What's Gary's mobile?") == "phone"
    assert expected_answer("What's the site manager's mobile number?") == "phone"
    assert expected_answer("which key does the mobile app use?") is None


def test_a_title_does_not_end_the_question() -> None:
    assert expected_answer("What's Prof. Adeyemi's office number?") == "number"
    assert information_need("Dr. Chen's surgery hours?")


# -- causes found in the fifth held-out part's errors (printed with its first score; dev material since) ---------


def test_whoever_holds_a_role_answers_who(miss) -> None:  # type: ignore[no-untyped-def]
    status = ["The status page is updated by whoever is incident commander."]
    assert not miss("who updates the status page during an incident?", status).miss


def test_a_step_is_the_answers_slot() -> None:
    assert "step" not in focus_words("disk on web3 is at 90%, first step?")
    assert "steps" not in focus_words("what are the steps to restore a site?")


def test_a_rule_for_every_case_answers_for_a_named_one(miss) -> None:  # type: ignore[no-untyped-def]
    """A memory that says "always" speaks of every flight, whatever else it names; one that names another subject
    without a rule does not (see test_a_named_subject_must_be_the_memorys)."""
    seat = ["Martin always flies in an aisle seat, British Airways where possible."]
    assert not miss("which seat should I book him on the Boston flight?", seat).miss
    review = ["App Store review usually takes one to two days; we submit on Mondays."]
    assert miss("who talks to Apple review?", review).miss


def test_a_clock_time_says_its_part_of_the_day(miss) -> None:  # type: ignore[no-untyped-def]
    mondays = ["No meetings before 9:30 on Mondays; Martin does the school drop-off."]
    assert not miss("can I put a call in at 9 on Monday morning?", mondays).miss
    assert day_parts("No meetings before 9:30 on Mondays.") == {"morning"}
    assert day_parts("Dinner is at 19:30.") == {"evening"}


# -- causes found in the sixth held-out part's errors (inspected in the third round; dev material since) ---------


def test_a_limit_or_a_range_answers_a_number_or_time_said_plainly(miss) -> None:  # type: ignore[no-untyped-def]
    assert not miss("is it ok to ring Dad at 8 tomorrow?", ["Dad doesn't like being phoned before 9am."]).miss
    style = ["House style: numbers one to nine in words, 10 and above in figures."]
    assert not miss("do I write 7 or seven?", style).miss
    assert not holds_asked_values("Ages 3-6 play on Saturdays.", "can my 9 year old join?")


def test_what_is_excluded_is_not_asked() -> None:
    assert focus_words("who has a spare key apart from the key safe?") == ["spare", "key"]
    assert "look" not in focus_words("Who needs to look at my migration before I merge?")
    assert "reach" in focus_words("need to reach Bea about the rota")


def test_a_path_from_the_root_is_a_place_and_an_identifier_is_no_one() -> None:
    admin = "The admin lives at /backoffice/, not /admin/, and needs 2FA."
    assert holds_answer(admin, "place", "where's the admin panel?")
    stripe = "Stripe webhooks are verified with STRIPE_WEBHOOK_SECRET."
    assert not holds_answer(stripe, "name", "who reviews changes to the Stripe integration?")
    assert holds_answer("My Zwift username is marta_rides.", "name", "what's my Zwift name?")


# -- causes found in the seventh held-out part's errors (inspected in the fourth round; dev material since) -------


def test_a_rule_or_a_method_answers_any_case_of_its_action(miss) -> None:  # type: ignore[no-untyped-def]
    """A yes/no or how question's circumstances ("from my machine", "on my laptop") need not be said by a memory
    that states the rule or gives the method; in other questions a phrase after a preposition is what is asked."""
    terraform = ["Never run `terraform apply` locally against prod; changes go through Atlantis on the pull request."]
    assert not miss("can I just run terraform apply from my machine for a quick prod fix?", terraform).miss
    assert not miss("Do I need a receipt for a 20 euro lunch?", ["Expenses under 50 euros need no receipt."]).miss
    webhook = ["Stripe webhooks are verified with the signing secret; test them locally with `stripe listen`."]
    assert not miss("how can I test the stripe webhook on my laptop", webhook).miss
    assert case_words("what fertiliser do I use on the rhubarb?") == set()
    assert case_words("can I just run terraform apply from my machine?") == {"my", "machine"}
    assert not states_rule("The Lisbon hotel is Casa do Largo in Alfama, booked for 4 nights.")
    hotel = ["The Lisbon hotel is Casa do Largo in Alfama, booked for 4 nights."]
    assert miss("Does the Lisbon hotel have parking for a hire car?", hotel).miss


def test_a_time_given_by_its_event_or_an_old_year_answers_when() -> None:
    exchange = "Exchanges for a different size are sent out as soon as the return is scanned by the courier."
    assert holds_answer(exchange, "when", "when does the new size get posted out?")
    assert holds_answer("Pratt's son Edwin took over the mill in 1862.", "when", "when did Edwin take over?")
    assert not holds_answer("Pratt's son Edwin took over the mill with 40 looms.", "when", "when did Edwin take over?")


def test_nouns_of_the_stop_list_are_focus_words() -> None:
    """The full-text stop list holds nouns ("fire", "mill", "bill"): a question about them asks about them."""
    assert "fire" in focus_words("when is the fire alarm tested?")
    assert "mill" in focus_words("how many workers did the mill employ?")


def test_a_typo_is_the_word_it_misspells(miss, embedder: CachedEmbedder) -> None:  # type: ignore[no-untyped-def]
    """A focus word one typo away from a memory's word is that word (five letters or more)."""
    settings = ["Settings are stored in NVS on the storage partition at the end of flash."]
    assert not miss("where do setings get saved?", settings).miss
    assert miss("where do the logs get saved?", settings).miss
    words_only = FocusTest(embedder.encode, float("inf"), float("inf"))  # no cover in meaning: the words alone
    assert uncovered("where are the settigns stored?", settings[0], words_only) == []  # two letters swapped
    assert uncovered("where are the setups stored?", settings[0], words_only) == ["setups"]


def test_a_weak_match_that_gives_the_method_answers_the_case(miss) -> None:  # type: ignore[no-untyped-def]
    """Below the answer cosine too: the method need not name the case's circumstances ("into the app")."""
    lokalise = ["Translations are managed in Lokalise and pulled with `yarn i18n:pull`."]
    assert not miss("new strings landed in Lokalise, how do I get them into the app?", lokalise).miss



# -- held-out 8's causes (answered questions logged as misses) --


def test_texting_abbreviations_are_not_focus_words() -> None:
    assert "pls" not in focus_words("duty dr's direct line pls")
    assert "ppl" not in focus_words("how long does fail2ban ban ppl for")


def test_an_ing_verb_is_what_is_done_not_what_is_asked(miss) -> None:  # type: ignore[no-untyped-def]
    assert "coming" not in focus_words("how many people are coming in the evening?")
    assert "adding" not in focus_words("adding a new gpio, which overlay file do I edit?")
    # a noun in -ing stays: after the question's opening auxiliary, or after a possessive
    assert "parking" in focus_words("is parking free at the hotel?")
    assert "opening" in focus_words("What's the pool's opening time on Sundays?")
    guests = ["There are 96 day guests and 40 evening guests."]
    assert not miss("how many people are coming in the evening?", guests).miss


def test_the_answer_type_is_read_after_a_scene(miss) -> None:  # type: ignore[no-untyped-def]
    query = "adding a new gpio, which overlay file do I edit?"
    assert {"overlay", "file"}.isdisjoint(focus_words(query))
    assert not miss(query, ["The device tree overlay for the board lives in boards/hearth_v2.overlay."]).miss


def test_a_scene_is_forgiven_when_the_memory_says_what_the_question_names(miss) -> None:  # type: ignore[no-untyped-def]
    """"which plug": the question's type word, said by the memory, ties the answer to the question."""
    plug = ["The ride-on mower takes E5 petrol only; spark plug is an NGK BPR5ES."]
    assert not miss("mower's running rough, which plug do I need?", plug).miss
    van = ["The van is a Ford Transit hired from Star Van Hire, returned by 10:00 on 20 April."]
    assert miss("van's making a weird noise, who do I call?", van).miss


def test_words_a_kind_of_memory_says_its_own_way(miss) -> None:  # type: ignore[no-untyped-def]
    """Permission is what a rule states, an end verb is said by any end, early/late by a clock time."""
    assert not miss("what's the max sleep current we're allowed?",
                    ["Sleep current must stay under 8 microamps; measure it with the PPK2 on the bench."]).miss
    assert not miss("When does my DBS expire", ["My FA DBS check runs out in October 2027."]).miss
    assert not miss("why are we shutting early on thursday?",
                    ["The surgery closes at 13:00 on the last Thursday of every month for staff training."]).miss
    # ... and not said by a memory of another kind
    assert miss("When does my DBS expire", ["My FA DBS check was done by the club welfare officer."]).miss


def test_hours_as_a_range_are_a_limit_and_a_fraction_is_a_number() -> None:
    bloods = "Blood tests are done by the phlebotomist, Carol, from 8:00 to 11:00, fasting bloods first thing."
    assert holds_asked_values(bloods, "can someone get their bloods done at 2pm?")
    mondays = "Blood tests are done by Carol on Mondays."
    assert not holds_asked_values(mondays, "can someone get their bloods done at 2pm?")
    roses = "Roses are pruned in February, cut to an outward-facing bud about a third of the way down."
    assert holds_answer(roses, "number", "how far down do I cut the roses")
    assert not holds_answer("Roses are pruned in February.", "number", "how far down do I cut the roses")


def test_a_cut_off_time_is_the_slot() -> None:
    assert "cut" not in focus_words("what's the cut off time for asking for a home visit?")
    assert "cut" in focus_words("the power was cut off at the mains, why?")  # the verb


def test_a_weak_rule_answers_its_yes_no_question_said_otherwise(miss) -> None:  # type: ignore[no-untyped-def]
    """Below the answer cosine, a rule may leave one word of a yes/no question unsaid ("weedkiller" /
    "glyphosate"); a weak memory that states no rule may not."""
    query = "can i spray weedkiller on the Fenwick drive?"
    assert not miss(query, ["Never use glyphosate at the Fenwick house; they keep chickens and want everything "
                            "organic."]).miss
    assert miss(query, ["The Fenwicks bought glyphosate at the garden centre last week."]).miss  # 0.35, no rule


# Held-out 9's causes (helper gaps7): the false misses of a part written by someone who had not seen the rules.


def test_ta_is_thanks() -> None:
    """British "ta" is a thank-you, not a keyword query."""
    assert not information_need("ta")
    assert not information_need("ta very much")
    assert information_need("tax return deadline")


def test_words_that_soften_a_question_are_no_focus_words(miss) -> None:  # type: ignore[no-untyped-def]
    """"just", "still", "actually" say nothing asked, and the verb after them is the question's verb."""
    assert not {"just", "dunk"} & set(focus_words("can I just dunk the whole mug in the glaze?"))
    assert not {"still", "going"} & set(focus_words("are we still going tomorrow?"))
    refunds = ["Refunds reach the customer's card five working days after we approve them."]
    assert not miss("when does the refund actually arrive?", refunds).miss
    assert miss("when does the replacement actually arrive?", refunds).miss


def test_a_generic_subject_is_a_pronoun(miss) -> None:  # type: ignore[no-untyped-def]
    """"what do people chip in for …": the verb after a generic subject is the question's verb."""
    assert "chip" not in focus_words("what do people chip in for the coach")
    assert not miss("what do people chip in for the coach",
                     ["Everyone pays £12 towards the coach on the day, cash only."]).miss


def test_the_action_asked_after_ok_to(miss) -> None:  # type: ignore[no-untyped-def]
    """"ok to fire them off to Dana as they come up?": what is asked about, said otherwise by the rule."""
    assert not {"fire", "come"} & set(focus_words("ok to fire them off to Dana as they come up?"))
    assert not miss("I've got four invoices for the Pearce job, ok to fire them off to Dana as they come up?",
                    ["Dana wants all invoices for a job sent together in one email, never one at a time."]).miss


def test_the_verb_of_a_request_is_no_focus_word(miss) -> None:  # type: ignore[no-untyped-def]
    """"forgot the code to get in" asks for the code; "forgot" is how it asks."""
    assert focus_words("forgot the code to get in") == ["code"]
    assert not miss("forgot the code to get in", ["The workshop door code is 2290; it changes every April."]).miss
    assert miss("forgot the wifi password", ["The workshop door code is 2290; it changes every April."]).miss


def test_a_passive_after_have_to_be_is_the_question_verb(miss) -> None:  # type: ignore[no-untyped-def]
    """"when do the accounts have to be filed?": what is done to the subject, said by "due"."""
    assert "filed" not in focus_words("when do Marlow's accounts have to be filed?")
    assert not miss("when does Marlow's VAT return have to be submitted?",
                    ["Marlow Joinery's VAT return is due by 7 May; Priya sends it from Xero."]).miss


def test_the_latest_i_can_is_a_deadline() -> None:
    """"what's the latest I can send the claim?": "latest" is the slot and "send" the question's verb."""
    assert focus_words("what's the latest I can send the claim?") == ["claim"]


def test_a_condition_first_is_a_scene(miss) -> None:  # type: ignore[no-untyped-def]
    """"if I invoice Marta in June when does the money arrive?": the condition is the scene, with or without a
    comma."""
    assert scene("if I invoice Marta in June when does the money arrive?") == (
        "if I invoice Marta in June", "when does the money arrive?")
    assert scene("if it rains is the match off?") == ("", "if it rains is the match off?")
    payments = ["Invoices go out on the 28th; Marta pays at 45 days."]
    assert not miss("if I invoice Marta in June when does the money actually arrive?", payments).miss


def test_how_and_when_the_asker_acts_is_the_case(miss) -> None:  # type: ignore[no-untyped-def]
    """A rule about the action need not say "quick" or "tomorrow"."""
    assert {"quick", "tomorrow"} <= case_words("can I have a quick look in the server room tomorrow?")
    assert not miss("it's half seven, can I have a quick look in the server room?",
                    ["Never open the server room after 6 pm without the duty manager: it's alarmed."]).miss
    assert not miss("snow forecast over the moors and the roads are gritted - are we still riding tomorrow?",
                    ["If the Met Office puts out a snow warning for the area, the club ride is off; the captain "
                     "texts everyone by 7:00."]).miss


def test_a_day_is_no_owner(miss) -> None:  # type: ignore[no-untyped-def]
    """"Sunday's ride" is not someone's: the rule about dogs answers for it."""
    assert possessors("can I bring my dog on Sunday's ride?") == []
    assert possessors("can I borrow Dan's bike?") == ["dan"]
    assert not miss("can I bring my dog on Sunday's ride?", ["Dogs come on the short rides only, on a lead."]).miss


def test_plural_possessives_and_quoted_terms() -> None:
    """"the Patels' papers" names the Patels; a quoted word is the term asked about."""
    assert "patels" not in focus_words("can I shred the Patels' papers?")
    assert "spindel" in focus_words("how does Vossberg want 'Spindel' translated?")


def test_an_identifier_number_is_no_amount(miss) -> None:  # type: ignore[no-untyped-def]
    """"the company number" names one thing: a salary or a date is not it; a bare number or a code is."""
    assert not holds_answer("Brookfield's director takes a salary of £12,570.", "number",
                            "what's Brookfield's company number?")
    assert not holds_answer("Brookfield's year end is 31 March.", "number", "what's Brookfield's company number?")
    assert holds_answer("Brookfield Ltd's company number is 09876543.", "number",
                        "what's Brookfield's company number?")
    assert holds_answer("The apiary is registered on BeeBase as LF-2291.", "number", "whats my beebase number")
    assert holds_answer("I weigh 61 kg.", "number", "what's the number of kg I weigh?")  # "number of": an amount
    assert miss("what's Brookfield's company number?",
                ["Brookfield Dental Ltd's year end is 31 March; its accounts are due at Companies House by "
                 "31 December.", "Brookfield's director takes a salary of £12,570 and the rest as dividends."]).miss


def test_an_age_asked_needs_an_age(miss) -> None:  # type: ignore[no-untyped-def]
    """"what age can you join from?" is not answered by the course's times and price, nor by another day's
    sessions for other ages."""
    course = "The Wednesday evening life drawing course runs 7-9 pm for eight weeks and costs £120."
    assert not holds_answer(course, "number", "what age can you do the Wednesday evening course from?")
    assert holds_answer("The Wednesday course is for adults, 18 and over.", "number",
                        "what age can you do the Wednesday evening course from?")
    assert miss("what age can you do the Wednesday evening course from?",
                [course, "Kids' drawing club is on Sundays from 10 to 11:30 for ages 6 to 11."]).miss
    assert not miss("what age can you do the Wednesday evening course from?",
                    [course, "The Wednesday evening course is for adults only, over 18s."]).miss


def test_another_weekday_is_another_subject() -> None:
    """A wh-question that names a day is not answered by a memory about other days only (a range or a rule
    still answers: "Monday to Friday", a yes/no question)."""
    assert not holds_asked_values("Kids' club is on Sundays.", "when does the Wednesday club start?")
    assert holds_asked_values("The club meets Monday to Friday at 6.", "when does the Wednesday club start?")
    assert holds_asked_values("No meetings before 9:30 on Mondays.", "Can I slot a meeting in on Friday at 3pm?")


def test_a_memory_like_the_scene_must_say_what_is_asked(miss) -> None:  # type: ignore[no-untyped-def]
    """A memory nearer the scene than the question ("honey's off the hives") must name the question's own words
    ("the mites"), not only come near them in meaning; one that names them still answers."""
    query = "honey's off the hives, what do I treat the mites with now?"
    assert miss(query, ["My honey goes in 340 g jars with gold lids and sells at the Saturday market for £7.50."]).miss
    assert not miss(query, ["Mites: Apivar strips for ten weeks once the honey is off the hives."]).miss


def test_an_ing_verb_after_a_preposition_is_what_is_done(miss) -> None:  # type: ignore[no-untyped-def]
    """"the cut off time *for applying* for a permit": the verb is said otherwise ("must be requested")."""
    assert "applying" not in focus_words("what's the cut off time for applying for a parking permit?")
    assert "parking" in focus_words("is parking free at the hotel?")
    assert not miss("what's the cut off time for applying for a parking permit?",
                    ["Parking permits must be requested before 1 March so facilities can print them."]).miss
