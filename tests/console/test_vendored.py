"""The vendored front-end files are the pinned ones: each file's sha384 is the
``integrity`` hash the pages carry (console/vendored.py), recomputed from the file."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from console.vendored import VENDORED

STATIC = Path(__file__).resolve().parents[2] / "console" / "static"


@pytest.mark.parametrize("name", sorted(VENDORED))
def test_vendored_hash_matches_the_file(name: str) -> None:
    path, integrity = VENDORED[name]
    digest = hashlib.sha384((STATIC / path).read_bytes()).digest()
    assert integrity == "sha384-" + base64.b64encode(digest).decode()
