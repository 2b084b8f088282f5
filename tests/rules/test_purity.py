"""The rules engine is pure Python: importing and playing it loads nothing of Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
from games.rules import VARIANTS
from games.rules.cli import main
for variant in VARIANTS.values():
    state = variant.deal(1)
    variant.hint(state, {state})
    variant.apply(state, variant.legal_moves(state)[0])
service = ("django", "rest_framework", "channels")
loaded = sorted(name for name in sys.modules if name.split(".")[0] in service)
print(",".join(loaded))
"""


def test_the_engine_and_its_cli_import_nothing_of_django():
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"the engine loaded {result.stdout.strip()}"
