"""One measure said in two systems: "110 metres" / "about 360 ft", "5 ft 10" / "178 cm", "1 mile" / "1.6 km",
"21 °C" / "70 °F", "11 st 4" / "72 kg", "a pint" / "568 ml".

Why: `values.py` reads the metric system in its smaller units ("1.2 km" = "1,200 metres") and units of time in
minutes, but a length in feet and one in metres were two kinds of value that never met: neither the same value (a
duplicate restated for another reader) nor a changed one ("1 mile" -> "1 km", a supersede; "40 metres" / "about 60
feet", a contradiction) (held-out pairs 21).

A converted value is never exact as said: 360 ft is 109.7 m, said "110 metres". Two values in two units are one
when each, converted into the other's unit, rounds to the other at the precision the other is said in (its last
significant digit: "110" to the ten, "1.6" to the tenth, "178" to the unit): "1 mile" = "1.6 km" (1.61 km to the
tenth, 0.99 miles to the mile) but "1 mile" / "1 km" are two (1.61 km is no 1 km): the numbers say how exact they
are; and, as a rounded number may carry more digits than the other side ("11 st 4" is 158 lb, 71.7 kg, said "72
kg", 158.7 lb), any two within a small share (Settings.measure_conversion_tolerance). Within one system the factors
are exact ("6 ft" = "72 inches").

Tables, not `pint`: its parser reads side-by-side tokens as a product ("1 kg" is 1 * kg, pint_eval's implicit op), so
"5 ft 10" is 50 ft to it; the words around a number are ours to read anyway, and thirteen factors need no dependency.
"""

from __future__ import annotations

import math
import re

#: Each unit values.py reads a measure in (`units.UNIT_ALIASES`, `units.METRIC`'s smaller units), by what it
#: measures, with its size in that measure's metric unit. Pints and gallons are imperial (British: 568 ml, not the
#: American 473); a "degree" said without its scale is Celsius, as in British speech.
MEASURES: dict[str, tuple[str, float]] = {
    "m": ("length", 1.0), "ft": ("length", 0.3048), "inch": ("length", 0.0254), "yd": ("length", 0.9144),
    "mile": ("length", 1609.344),
    "g": ("mass", 1.0), "lb": ("mass", 453.59237), "oz": ("mass", 28.349523125), "stone": ("mass", 6350.29318),
    "ml": ("volume", 1.0), "pint": ("volume", 568.26125), "gallon": ("volume", 4546.09),
    "degree": ("temperature", 1.0), "fahrenheit": ("temperature", 1.0),
}
#: The units of the metric system among them (the others are imperial): a value is read with a tolerance only
#: between the two systems.
_METRIC = frozenset({"m", "g", "ml", "degree"})


def measure(unit: str) -> str | None:
    """What `unit` measures ("length", "mass", "volume", "temperature"), or None."""
    got = MEASURES.get(unit)
    return got[0] if got else None


def convert(value: float, unit: str, into: str) -> float:
    """`value` in `unit` said in `into`, a unit of the same measure."""
    if unit == into:
        return value
    if measure(unit) == "temperature":
        celsius = (value - 32) * 5 / 9 if unit == "fahrenheit" else value
        return celsius * 9 / 5 + 32 if into == "fahrenheit" else celsius
    return value * MEASURES[unit][1] / MEASURES[into][1]


def precision(value: float) -> float:
    """The step of the last significant digit `value` is said to: 110 -> 10, 1.6 -> 0.1, 178 -> 1, 5000 -> 1000."""
    text = f"{abs(value):.10g}"
    if "e" in text:
        return 1.0
    if "." in text:
        return 10.0 ** -len(text.split(".")[1])
    digits = text.lstrip("0")
    return 10.0 ** (len(digits) - len(digits.rstrip("0"))) if digits else 1.0


def same_measure(a: float, unit_a: str, b: float, unit_b: str, tolerance: float) -> bool:
    """Whether `a` in `unit_a` and `b` in `unit_b` (one measure) say one value: in one system, equal; in two, each
    converted into the other's unit rounds to it at its precision, or (not a temperature) they are within
    `tolerance`, a share of the larger (Settings.measure_conversion_tolerance)."""
    there, back = convert(a, unit_a, unit_b), convert(b, unit_b, unit_a)
    if (unit_a in _METRIC) == (unit_b in _METRIC):
        return math.isclose(there, b, rel_tol=1e-9) or math.isclose(back, a, rel_tol=1e-9)
    if abs(there - b) <= precision(b) / 2 and abs(back - a) <= precision(a) / 2:
        return True
    return measure(unit_a) != "temperature" and abs(there - b) <= tolerance * max(abs(there), abs(b))


#: A height or a weight in two units of one system, the smaller one's number after the larger: "5 ft 10", "5 foot
#: 10 inches", "6 feet 2", "11 st 4", "11 stone 4 lb". Read as one value in the smaller unit ("70 inch"), written over
#: the span in as many characters so the spans of the text stay.
_COMPOUND = re.compile(
    r"(?i)\b(?P<big>\d{1,2})(?:\s*(?P<u>ft|feet|foot)|\s+(?:st|stone))\s+(?P<small>\d{1,2})"
    r"(?:\s*(?:in|ins|inch|inches|lb|lbs|pounds?)\b)?(?![\d,:/%]|\.\d)"
)


def compounds_written(text: str) -> str:
    """`text` with each `_COMPOUND` written as one value in the smaller unit ("5 ft 10" -> "70 inch"), where the
    written value fits in the span; "ft 10" read as ten of the next word's unit no more."""
    if not any(ch.isdigit() for ch in text):
        return text
    return _COMPOUND.sub(_compound, text)


def _compound(m: re.Match[str]) -> str:
    big, small = int(m.group("big")), int(m.group("small"))
    feet = m.group("u") is not None
    if small >= (12 if feet else 14):
        return m.group(0)  # "6 ft 14" is no height in feet and inches: leave it
    said = f"{big * 12 + small} inch" if feet else f"{big * 14 + small} lb"
    span = len(m.group(0))
    return said + " " * (span - len(said)) if len(said) <= span else m.group(0)
