"""Regenerate the configuration table in README.md from memgraph/config.py (the one source of defaults).

    python tools/gen_config_table.py          # rewrite README.md in place
    python tools/gen_config_table.py --check  # exit 1 if README.md is stale (run by the tests)
"""

from __future__ import annotations

import sys
from pathlib import Path

from memgraph.config import Settings

README = Path(__file__).resolve().parents[1] / "README.md"
BEGIN, END = "<!-- config-table:begin -->", "<!-- config-table:end -->"


def table() -> str:
    rows = ["| setting | environment variable | default | what it does |", "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        default = field.default
        shown = "" if default is None else f"`{default}`"
        desc = (field.description or "").replace("|", "\\|")
        rows.append(f"| `{name}` | `MEMGRAPH_{name.upper()}` | {shown} | {desc} |")
    return "\n".join(rows)


def render(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        print(f"README.md lacks the {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    new = render(text)
    if "--check" in sys.argv:
        if new != text:
            print("README.md configuration table is stale: run python tools/gen_config_table.py", file=sys.stderr)
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
