"""A generated multi-topic corpus: real English sentences (templates x varied entities) with planted topics.

Each topic has its own templates and entity lists, so a sentence is about exactly one topic; the real model
embeds them and the cluster job must find the topics again (adjusted Rand index).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

TOPICS: dict[str, dict[str, list[str]]] = {
    "coffee": {
        "templates": [
            "I brew {bean} coffee with my {gear} every morning before work.",
            "The {bean} beans taste best when I grind them fresh for the {gear}.",
            "My favourite espresso uses {bean} roasted by {roaster}.",
            "I bought a new {gear} because the old one made bitter coffee.",
            "{roaster} sells a {bean} blend that makes a great cappuccino.",
            "Dialing in the {gear} took me a week of espresso shots with {bean} beans.",
        ],
        "bean": [
            "Ethiopian Yirgacheffe",
            "Colombian Supremo",
            "Kenyan AA",
            "Sumatra Mandheling",
            "Guatemalan",
        ],
        "gear": ["espresso machine", "burr grinder", "French press", "pour-over kettle", "moka pot"],
        "roaster": ["Blue Bottle", "Stumptown", "a local roastery", "Counter Culture", "Intelligentsia"],
    },
    "hiking": {
        "templates": [
            "We hiked the {trail} trail up to {peak} last weekend.",
            "The climb to {peak} took six hours and my {gearitem} held up well.",
            "I always pack a {gearitem} when hiking the {trail} route.",
            "Next summer I want to trek across {trail} and camp below {peak}.",
            "The view from the summit of {peak} after the steep {trail} switchbacks was stunning.",
            "My {gearitem} got soaked during the storm on the {trail} hike.",
        ],
        "trail": ["Pacific Crest", "Appalachian", "John Muir", "Tour du Mont Blanc", "West Highland Way"],
        "peak": ["Mount Whitney", "Half Dome", "Mont Blanc", "Ben Nevis", "Mount Rainier"],
        "gearitem": ["hiking boots", "rain jacket", "trekking poles", "backpack", "tent"],
    },
    "python": {
        "templates": [
            "Our {project} service is written in Python and uses {lib} for the API.",
            "I fixed a bug in the {project} code where {lib} raised a TypeError.",
            "The {project} test suite runs with pytest and mocks {lib} calls.",
            "We upgraded {project} to Python 3.12 and {lib} needed a new version.",
            "Profiling showed that {lib} serialization was the slowest part of {project}.",
            "I refactored the {project} module to use type hints and {lib} models.",
        ],
        "project": ["billing", "ingestion", "search backend", "scheduler", "analytics pipeline"],
        "lib": ["FastAPI", "pydantic", "SQLAlchemy", "requests", "asyncio"],
    },
    "gardening": {
        "templates": [
            "I planted {plant} in the {bed} this spring and watered them daily.",
            "The {plant} in my {bed} need more compost and sunlight.",
            "Aphids attacked the {plant} so I sprayed neem oil on the {bed}.",
            "We harvested a basket of {plant} from the {bed} in August.",
            "Pruning the {plant} early helps them grow bushier in the {bed}.",
            "I mulched the {bed} to keep the soil moist for the {plant}.",
        ],
        "plant": ["tomatoes", "roses", "zucchini", "lavender", "strawberries"],
        "bed": ["raised bed", "greenhouse", "backyard garden", "balcony planters", "vegetable patch"],
    },
    "finance": {
        "templates": [
            "I invest a fixed amount in {fund} every month through my {account}.",
            "My {account} returned seven percent last year thanks to {fund}.",
            "I moved my savings from the {account} into {fund} to lower fees.",
            "The financial advisor suggested rebalancing {fund} inside the {account}.",
            "Dividends from {fund} are reinvested automatically in my {account}.",
            "I track the expense ratio of {fund} before adding money to the {account}.",
        ],
        "fund": ["an S&P 500 index fund", "a bond ETF", "a total market fund", "dividend stocks", "a REIT"],
        "account": ["Roth IRA", "401k", "brokerage account", "pension plan", "ISA"],
    },
    "astronomy": {
        "templates": [
            "Last night I observed {object} through my {scope}.",
            "The rings of Saturn and {object} were visible in the {scope} at midnight.",
            "I photographed {object} with a {scope} and a long exposure.",
            "Light pollution made it hard to find {object} even with the {scope}.",
            "The astronomy club aligned the {scope} to track {object} across the sky.",
            "I need a better eyepiece for my {scope} to see {object} clearly.",
        ],
        "object": [
            "the Andromeda galaxy",
            "Jupiter's moons",
            "the Orion nebula",
            "a meteor shower",
            "the Moon",
        ],
        "scope": [
            "Dobsonian telescope",
            "refractor telescope",
            "star tracker",
            "binoculars",
            "Celestron scope",
        ],
    },
    "cooking": {
        "templates": [
            "I cooked {dish} with fresh {ingredient} for dinner tonight.",
            "My grandmother's recipe for {dish} uses a lot of {ingredient}.",
            "The secret to a good {dish} is to add the {ingredient} at the end.",
            "I burned the {ingredient} while making {dish} and had to start over.",
            "We hosted friends and served homemade {dish} with {ingredient}.",
            "Making {dish} from scratch takes an hour but the {ingredient} makes it worth it.",
        ],
        "dish": ["spaghetti carbonara", "lasagna", "risotto", "pesto pasta", "minestrone soup"],
        "ingredient": ["parmesan", "basil", "garlic", "olive oil", "pancetta"],
    },
    "music": {
        "templates": [
            "I practice {piece} on the {instrument} for an hour every evening.",
            "My {instrument} teacher says my timing in {piece} has improved.",
            "We performed {piece} at the recital and my {instrument} was out of tune.",
            "I recorded myself playing {piece} on the {instrument} to hear my mistakes.",
            "Learning {piece} on the {instrument} requires slow practice with a metronome.",
            "I bought new strings for the {instrument} before rehearsing {piece}.",
        ],
        "piece": [
            "Bach's cello suite",
            "Clair de Lune",
            "a Chopin nocturne",
            "Canon in D",
            "a jazz standard",
        ],
        "instrument": ["piano", "violin", "cello", "classical guitar", "viola"],
    },
}


@dataclass(frozen=True)
class Item:
    topic: str
    content: str


def generate(topics: list[str], per_topic: int = 30, seed: int = 7) -> list[Item]:
    """`per_topic` distinct sentences per topic, deterministic for a seed."""
    rng = random.Random(seed)
    out: list[Item] = []
    for topic in topics:
        spec = TOPICS[topic]
        slots = {k: v for k, v in spec.items() if k != "templates"}
        seen: set[str] = set()
        tries = 0
        while len(seen) < per_topic and tries < per_topic * 50:
            tries += 1
            template = rng.choice(spec["templates"])
            text = template.format(**{k: rng.choice(v) for k, v in slots.items()})
            if text not in seen:
                seen.add(text)
                out.append(Item(topic, text))
    return out
