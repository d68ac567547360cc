"""Where digests of the event log are kept: outside the database, append-only
(DESIGN §3).

The interface is three calls — list the names, read one, create one that must not exist —
so that production can keep digests on a WORM or off-host mount (``DIGEST_DIR``) or put
another implementation behind it (an object store with retention locks) without
touching the rest. Nothing here overwrites or deletes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Protocol

from django.conf import settings

#: ``<made_at>-<position>-<reason>[-<gaming day>].json``: names sort by time.
NAME = re.compile(r"^(?P<made>\d{8}T\d{12}Z)-(?P<position>\d{12,})-(?P<reason>[a-z_]+)"
                  r"(?:-(?P<day>\d{4}-\d{2}-\d{2}))?\.json$")


class DigestExists(FileExistsError):
    """A digest of that name is already stored; it is never replaced."""


class DigestStore(Protocol):
    def names(self) -> list[str]:
        """Every digest's name, oldest first."""

    def read(self, name: str) -> bytes:
        """A digest's stored bytes."""

    def create(self, name: str, content: bytes) -> None:
        """Store a new digest; raise ``DigestExists`` if the name is taken, and
        ``OSError`` if the store cannot be written."""


class DirectoryStore:
    """One read-only file per digest in a directory (``DIGEST_DIR``)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def names(self) -> list[str]:
        try:
            return sorted(n for n in os.listdir(self.path) if NAME.match(n))
        except FileNotFoundError:
            return []

    def read(self, name: str) -> bytes:
        if not NAME.match(name):
            raise FileNotFoundError(name)
        return (self.path / name).read_bytes()

    def create(self, name: str, content: bytes) -> None:
        """O_CREAT|O_EXCL, so an existing digest is never replaced; mode 0444, so it is
        not opened for writing again by accident; fsync of file and directory, so a
        digest that was reported written survives a power cut."""
        if not NAME.match(name):
            raise ValueError(f"not a digest name: {name!r}")
        self.path.mkdir(parents=True, exist_ok=True)
        target = self.path / name
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        except FileExistsError:
            raise DigestExists(f"digest {name} is already stored") from None
        try:
            os.write(fd, content)
            os.fsync(fd)
        finally:
            os.close(fd)
        target.chmod(0o444)
        _fsync_dir(self.path)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:  # some network file systems refuse fsync on a directory
        pass
    finally:
        os.close(fd)


def digest_store() -> DigestStore:
    """The configured store, read from settings at call time."""
    return DirectoryStore(Path(settings.DIGEST_DIR))
