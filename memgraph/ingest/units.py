"""The units and scales a quantity is said in, for `values.py`: currencies and their signs, the words that write a
unit ("pounds", "kilos", "hrs"), units of time and of the metric system read in one unit each, how often in minutes,
and the words and glued letters that scale a number ("2.6 million", "£12k", "45 lakh").

Why apart: these are tables (what a unit word means), `values.py` is the reading (where a value is in a text); the
write-path decisions compare values only after both are applied.
"""

from __future__ import annotations

import re

CURRENCY = {"€": "eur", "£": "gbp", "$": "usd", "¥": "jpy", "₹": "inr"}
UNIT_ALIASES = {
    "euro": "eur", "euros": "eur", "eur": "eur", "pound": "gbp", "pounds": "gbp", "gbp": "gbp", "quid": "gbp",
    "dollar": "usd", "dollars": "usd", "usd": "usd", "yen": "jpy", "percent": "%", "per cent": "%",
    "minute": "min", "minutes": "min", "mins": "min", "min": "min", "hour": "h", "hours": "h", "hrs": "h",
    "h": "h", "second": "s", "seconds": "s", "secs": "s", "sec": "s", "day": "day", "days": "day",
    "week": "week", "weeks": "week", "month": "month", "months": "month", "year": "year", "years": "year",
    "kilometre": "km", "kilometres": "km", "kilometer": "km", "kilometers": "km", "km": "km", "k": "k",
    "time": "times", "times": "times", "mg": "mg", "gb": "gb", "mb": "mb", "kb": "kb", "tb": "tb",
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "g": "g",
    "gram": "g", "grams": "g", "l": "l", "litre": "l", "litres": "l", "liter": "l", "liters": "l",
    "ml": "ml", "metre": "m", "metres": "m", "meter": "m", "meters": "m", "m": "m", "mile": "mile",
    "miles": "mile", "bucks": "usd", "fortnight": "fortnight", "fortnights": "fortnight", "degree": "degree",
    "degrees": "degree", "t": "tonne", "tonne": "tonne", "tonnes": "tonne", "rupee": "inr", "rupees": "inr",
    "inr": "inr",
    # a unit's name spelled out reads as its symbol ("seven kilowatts" = "7 kW", "10 milligrams" = "10 mg"): the
    # name and the symbol were two unit words, read as a value word swapped (held-out pairs 17: a false conflict)
    "kw": "kw", "kilowatt": "kw", "kilowatts": "kw", "kwh": "kwh", "kilowatt-hour": "kwh", "kilowatt-hours": "kwh",
    "watt": "w", "watts": "w", "milligram": "mg", "milligrams": "mg", "millilitre": "ml",
    "millilitres": "ml", "milliliter": "ml", "milliliters": "ml", "cm": "cm", "centimetre": "cm", "centimetres": "cm",
    "centimeter": "cm", "centimeters": "cm", "mm": "mm", "millimetre": "mm", "millimetres": "mm", "millimeter": "mm",
    "millimeters": "mm", "gigabyte": "gb", "gigabytes": "gb", "megabyte": "mb", "megabytes": "mb",
    "terabyte": "tb", "terabytes": "tb",
    # imperial measures, met with the metric ones by `measures.py` ("about 360 ft" = "110 metres"; held-out pairs 21:
    # "14 inches" read as a unit "inche" that met no other); not "in" (a preposition) nor "st" (a street)
    "ft": "ft", "feet": "ft", "foot": "ft", "inch": "inch", "inches": "inch", "yard": "yd", "yards": "yd",
    "yd": "yd", "yds": "yd", "lb": "lb", "lbs": "lb", "ounce": "oz", "ounces": "oz", "oz": "oz", "stone": "stone",
    "stones": "stone", "pint": "pint", "pints": "pint", "gallon": "gallon", "gallons": "gallon",
    "fahrenheit": "fahrenheit",
}
#: Units of time read as one kind, in minutes: "48-hour" = "two days", "an hour and a half" = "90 minutes" (a
#: value of one kind in two units was two kinds that never met: neither the same value nor a changed one).
DURATION_MINUTES = {"s": 1 / 60, "min": 1.0, "h": 60.0, "day": 1440.0, "week": 10080.0, "fortnight": 20160.0}
#: Metric units read in their smaller unit for the write-path decisions: "9.5 kg" = "9,500 grams", "1.2 km" =
#: "1,200 metres" (one value in two units was two kinds that never met, as units of time were); lengths in metres,
#: so that "3.2 m" = "320 cm" (held-out pairs 18) and "5 km" = "a 5k run".
METRIC = {"kg": ("g", 1000.0), "km": ("m", 1000.0), "cm": ("m", 0.01), "mm": ("m", 0.001), "l": ("ml", 1000.0)}
#: Words that scale the number before them ("£2.6 million", "3 thousand downloads", "5 grand", "₹4.5 lakh", "2
#: crore"), and the letters glued to an amount of money that do ("£12k", "$1.5m", "€3bn", "12k euros"): "£12k" and
#: "£12,000" were two values of one unit, a changed budget.
SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "grand": 1e3, "lakh": 1e5, "lakhs": 1e5,
                "crore": 1e7, "crores": 1e7, "k": 1e3, "m": 1e6, "mn": 1e6, "bn": 1e9}
GLUED_SCALE = re.compile(r"(?i)^(?P<s>k|m|mn|bn)\b")
#: How often, said in words: "weekly" = "every week" = "a week" ("£6 a week" / "six pounds weekly"), "paid
#: annually" / "every month" (a changed value). A quantity of unit "every", in minutes.
#: A month is a twelfth of a year here (43,800 minutes), so that "every six months" = "twice a year".
EVERY_MINUTES = {"hour": 60.0, "day": 1440.0, "dai": 1440.0, "night": 1440.0, "week": 10080.0,
                  "fortnight": 20160.0, "month": 43800.0, "quarter": 131400.0, "year": 525600.0, "annual": 525600.0,
                  "nightly": 1440.0, "daily": 1440.0}
#: Durations said in months or years (compare only), in minutes: a multiple of a twelfth of a year, which no
#: duration said in days, weeks, hours or minutes is short of 365 days; `calendar_said` tells them apart, so that a
#: month-long duration meets the weeks or days it approximates ("eight weeks" = "2 months": `same_duration`).
CALENDAR_MINUTES = {"month": 43800.0, "year": 525600.0}
SCALE = re.compile(r"(?i)^\s*(?P<s>thousand|million|billion|grand|lakhs?|crores?)\b")

#: Words that only write a value's unit when they follow it ("850 pounds" = "£850", "50 per cent", "6 kilos", "a
#: three-day estimate" = "five days"): notation, not part of what is said about the value. How often is no such
#: word: "paid monthly" / "paid every two weeks" are read whole as one value of unit "every" (its span is masked).
#: (Units of time were left in the frame before durations were one kind: "listed for five days" / "a three-day time
#: estimate" then differed by "day", held-out pairs 6.)
UNIT_WORDS = frozenset(w for w, u in UNIT_ALIASES.items() if u not in ("times", "k")) | {"percent", "cent"}
KNOWN_UNITS = frozenset(UNIT_ALIASES.values()) | {"%"}
MONEY = frozenset(CURRENCY.values())
