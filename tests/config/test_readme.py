"""The README's claims a new user acts on: the files it names are in the repository, and every
variable of its Configuration table is one the service reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
# Inline code and links, outside the fenced examples.
TEXT = re.sub(r"```.*?```", "", README, flags=re.S)

# Made by a run (the virtualenv, the screenshots), or not a path (the export's format name).
NOT_KEPT = ("artifacts/", ".venv/", "patience-export/")
PATH = re.compile(r"[\w.-]+(?:/[\w.-]*)+")


def test_every_file_the_readme_names_is_in_the_repository() -> None:
    named = set()
    for code in re.findall(r"`([^`]+)`", TEXT) + re.findall(r"\]\(([^)#]+)", TEXT):
        for word in code.split():
            word = word.split("=")[-1]
            if PATH.fullmatch(word) and not word.startswith(NOT_KEPT):
                named.add(word)
    assert {"games/rules/", "bin/run", "bench/README.md"} <= named
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert missing == [], f"the README names files the repository lacks: {missing}"


def test_every_variable_of_the_configuration_table_is_read() -> None:
    table = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    names = {
        name
        for row in table.splitlines()
        if row.startswith("| `")
        for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split(" | ")[0])
    }
    assert {"SECRET_KEY", "CSRF_TRUSTED_ORIGINS", "PORT"} <= names
    readers = ["config/settings.py", "bin/run", "bin/_local_services.py", "tests/conftest.py"]
    code = "\n".join((ROOT / path).read_text() for path in readers)
    unread = sorted(name for name in names if not re.search(rf"[\"'{{$]{name}\b", code))
    assert unread == [], f"the README configures what nothing reads: {unread}"
