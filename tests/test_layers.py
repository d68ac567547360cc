"""The import contracts of ``.importlinter`` hold: apps import only downward (finance >
jackpots > poker_room > tables > casino) and every ``domain/`` is free of Django, Celery
and the database (DESIGN §2, "Apps and folders")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    if not lint_imports.exists():
        lint_imports = ROOT / ".venv" / "bin" / "lint-imports"
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, f"lint-imports failed:\n{done.stdout}\n{done.stderr}"
