"""The repository explains itself: no tracked file points at a document or a path outside it,
and every citation of a section of the rulings (``games/rules/RULINGS.md``, the section sign,
the section's name) names a section the document has."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULINGS = ROOT / "games" / "rules" / "RULINGS.md"

#: The rulings used to live in a file of this name beside the repository, not in it. Spelled
#: in two parts so that this file does not match itself.
OLD_RULES = re.compile(r"\bRULES" + r"\.md\b")
#: Absolute paths into the machine the project was developed on, or into someone's home.
ABSOLUTE = re.compile(r"(?<![\w.:/~-])/(?:work|home|Users)/[\w.-]")
#: A relative path that climbs, such as ``../seeds/`` (fine from a folder one level down).
CLIMBING = re.compile(r"(?<![\w.])((?:\.\./)+)([\w.-]+)")
#: Put before the name of a section of the rulings it cites.
SECTION_MARK = "\u00a7"


def tracked_text_files() -> Iterator[tuple[str, str]]:
    """(path, text) of every file git tracks that is text and present in the work tree."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    for name in listing.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            yield name, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # an image, a font


def lines_matching(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{name}:{number}: {line.strip()}"
        for name, text in tracked_text_files()
        for number, line in enumerate(text.splitlines(), start=1)
        if pattern.search(line)
    ]


def test_no_tracked_file_cites_the_rules_file_that_was_kept_outside_the_repository():
    found = lines_matching(OLD_RULES)
    assert not found, f"cite games/rules/RULINGS.md {SECTION_MARK}Section instead:\n" + "\n".join(
        found
    )


def test_no_tracked_file_names_an_absolute_path_on_a_developers_machine():
    found = lines_matching(ABSOLUTE)
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_no_relative_path_in_a_tracked_file_climbs_out_of_the_repository():
    outside = []
    for name, text in tracked_text_files():
        folder = (ROOT / name).parent
        for number, line in enumerate(text.splitlines(), start=1):
            for climb, first in CLIMBING.findall(line):
                target = (folder / climb / first).resolve()
                if not target.is_relative_to(ROOT):
                    outside.append(f"{name}:{number}: {climb}{first} is {target}")
    assert not outside, "relative paths that leave the repository:\n" + "\n".join(outside)


def test_every_citation_of_the_rulings_names_one_of_its_sections():
    headings = [
        line.lstrip("#").strip()
        for line in RULINGS.read_text(encoding="utf-8").splitlines()
        if line.startswith("## ")
    ]
    assert "Notation" in headings and "Every game" in headings
    unknown = []
    for name, text in tracked_text_files():
        if "RULINGS.md" not in text:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for cited in line.split(SECTION_MARK)[1:]:
                if not any(cited.startswith(heading) for heading in headings):
                    unknown.append(f"{name}:{number}: {SECTION_MARK}{cited.strip()}")
    assert not unknown, (
        "cited sections the rulings do not have (keep a section's name on one line):\n"
        + "\n".join(unknown)
        + "\nits sections: "
        + ", ".join(headings)
    )
