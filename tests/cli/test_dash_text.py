"""Free text that starts with a dash (a pasted bullet list) is the text, not an unknown option
(memgraph.cli.text_last): `memgraph remember "- gym: Mon 7am" --user u` stores it, as the same text after `--`
does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memgraph.cli import text_last

LIST = "- gym: Mon/Wed/Fri 7am\n- swim: Sat 9am"


@pytest.mark.parametrize(
    ("args", "moved"),
    [
        (["remember", LIST, "--user", "u"], ["remember", "--user", "u", "--", LIST]),
        (["remember", "--user", "u", LIST], ["remember", "--user", "u", "--", LIST]),
        (["recall", "- which day is swim", "-k", "3"], ["recall", "-k", "3", "--", "- which day is swim"]),
        (["search", "--json", "- a b"], ["search", "--json", "--", "- a b"]),
    ],
)
def test_a_dash_led_text_goes_after_double_dash(args: list[str], moved: list[str]) -> None:
    assert text_last(args) == moved


@pytest.mark.parametrize(
    "args",
    [
        ["remember", "plain text", "--user", "u"],  # no dash
        ["remember", "-", "--user", "u"],  # standard input
        ["remember", "--", LIST, "--user", "u"],  # the user said it already
        ["remember", "text", "--user", "- odd user"],  # an option's value, however odd
        ["stats", "--user", "- x y"],  # not a text command
        ["remember", "--no-such-option"],  # an unknown option stays an error
    ],
)
def test_anything_else_is_left_alone(args: list[str]) -> None:
    assert text_last(args) == args


def test_remember_a_pasted_bullet_list(tmp_path: Path) -> None:
    store = str(tmp_path)
    run = [sys.executable, "-m", "memgraph"]
    done = subprocess.run([*run, "remember", LIST, "--user", "u", "--store", store],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    listed = subprocess.run([*run, "list", "--user", "u", "--store", store, "--json"],
                            capture_output=True, text=True, check=False)
    assert [m["content"] for m in json.loads(listed.stdout)] == [LIST]
