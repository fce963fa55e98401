"""The secret filter: detection and false-positive rates on the corpus, redact/reject policies, nested values."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from memgraph.errors import SecretDetectedError
from memgraph.ingest.secrets import SecretFilter, only_redactions
from memgraph.secrets import SecretScanner, redact, shannon_entropy

CORPUS = json.loads((Path(__file__).parents[1] / "data" / "secrets_corpus.json").read_text())


def test_corpus_is_big_enough() -> None:
    assert len(CORPUS["secrets"]) >= 170
    assert len(CORPUS["near_misses"]) >= 145
    # the unlabelled layouts (a secret after its id, a secret-named column) of the vendors' documented formats
    types = {e["type"] for e in CORPUS["secrets"]}
    assert {"gcp_private_key_id", "twilio_auth_token", "twilio_api_secret", "aws_secret_key"} <= types
    assert sum("Secret access key" in e["text"] and "=" not in e["text"] for e in CORPUS["secrets"]) >= 5
    assert len({e["type"] for e in CORPUS["secrets"]}) >= 25


def test_detection_and_false_positive_rates() -> None:
    scanner = SecretScanner()
    missed: list[str] = []
    by_type: Counter[str] = Counter()
    for entry in CORPUS["secrets"]:
        findings = scanner.scan(entry["text"])
        redacted = redact(entry["text"], findings)
        if not findings or entry["secret"] in redacted:
            missed.append(entry["type"])
        by_type[entry["type"]] += 1
    flagged = [e["text"] for e in CORPUS["near_misses"] if scanner.scan(e["text"])]
    detection = 1 - len(missed) / len(CORPUS["secrets"])
    false_positive = len(flagged) / len(CORPUS["near_misses"])
    print(
        f"\nsecret filter: detection {detection:.3f} ({len(CORPUS['secrets']) - len(missed)}/{len(CORPUS['secrets'])}"
        f", {len(by_type)} types), false positives {false_positive:.3f} ({len(flagged)}/{len(CORPUS['near_misses'])})"
    )
    assert detection == 1.0, f"missed: {Counter(missed)}"
    assert false_positive == 0.0, f"flagged: {flagged}"


def test_redaction_keeps_context_and_names_the_type() -> None:
    f = SecretFilter("redact")
    res = f.text("DATABASE_URL=postgres://app:Sup3rS3cretPw@db.internal:5432/app and ghp_" + "a1B2" * 9)
    assert "Sup3rS3cretPw" not in res.text and "a1B2a1B2" not in res.text
    assert "postgres://app:[REDACTED:connection_string]@db.internal:5432/app" in res.text
    assert "[REDACTED:github_token]" in res.text
    assert res.counts == Counter({"connection_string": 1, "github_token": 1})


def test_multiline_private_key_block_is_redacted_whole() -> None:
    entry = next(e for e in CORPUS["secrets"] if e["type"] == "private_key" and "\n" in e["secret"])
    res = SecretFilter("redact").text(entry["text"])
    for line in entry["secret"].splitlines()[1:-1]:
        assert line not in res.text
    assert "[REDACTED:private_key]" in res.text


def test_reject_names_the_type_never_the_value() -> None:
    secret = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    with pytest.raises(SecretDetectedError) as info:
        SecretFilter("reject").text(f"our stripe key is {secret}")
    assert "stripe_key" in str(info.value)
    assert secret not in str(info.value) and secret not in repr(info.value.args)


def test_nested_values_and_keys_are_filtered() -> None:
    f = SecretFilter("redact")
    counts: Counter[str] = Counter()
    out = f.value(
        {
            "auth": {"header": "Authorization: Bearer abcDEF123456ghiJKL789"},
            "list": ["fine", "AKIAIOSFODNN7EXAMPL3"],
        },
        counts,
        what="metadata",
    )
    assert json.dumps(out).count("REDACTED") == 2
    assert counts == Counter({"bearer_token": 1, "aws_access_key": 1})


def test_only_redactions() -> None:
    assert only_redactions("AWS_SECRET_ACCESS_KEY=[REDACTED:env_secret]")
    assert only_redactions("password: [REDACTED:password]\n[REDACTED:jwt]")
    assert not only_redactions("The staging database password is [REDACTED:password], ask Ada to rotate it")


def test_entropy() -> None:
    assert shannon_entropy("aaaaaaaa") == 0
    assert shannon_entropy("Zx8#pQ2!mN4&vB6^") > 3.9


@pytest.mark.parametrize(
    "text",
    ["wifi pw: heron-77 (router in hall cupboard)", "the wifi pw is Kestrel-2024", "PW=xk2-llo9"],
)
def test_pw_is_a_password_key(text: str) -> None:
    """A newcomer's jotted "wifi pw: heron-77" was stored as written: "pw" is how notes write "password"."""
    findings = SecretScanner().scan(text)
    assert [f.type for f in findings] == ["password"]
    assert "[REDACTED:password]" in redact(text, findings)


@pytest.mark.parametrize("text", ["wifi pw: tulip", "the new kpw: 12", "I use a 3pw setup", "upw: fine"])
def test_pw_alone_is_no_secret(text: str) -> None:
    assert SecretScanner().scan(text) == []


def test_opaque_ids_hold_no_card_number() -> None:
    """A memory id is 32 hex characters: one in a few hundred holds 13+ decimal digits in a row, and a card rule
    without word boundaries refused such an id as a payment card (the decisions bench met one)."""
    import random

    rng = random.Random(7)
    scanner = SecretScanner()
    ids = [f"m_{rng.getrandbits(128):032x}" for _ in range(20000)]
    digits = [i for i in ids if any(len(run) >= 13 for run in "".join(c if c.isdigit() else " " for c in i).split())]
    assert digits, "the sample holds ids with long digit runs"
    assert not [i for i in ids if scanner.scan(i)]
    assert scanner.scan("card 4111111111111111") and scanner.scan("4111-1111-1111-1111")
