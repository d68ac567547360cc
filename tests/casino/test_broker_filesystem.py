"""The embedded default's broker (kombu's filesystem transport) hands a worker a message
whole or not at all: a message file half written when the worker polled killed the
worker's consumer in the walk-through test in CI (issue 27; casino.broker_patches)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection

import casino.celery  # noqa: F401  (the app applies the mends, as a worker does)


@pytest.fixture
def channel(tmp_path: Path) -> Iterator[Any]:
    folder = tmp_path / "queue"
    folder.mkdir()
    with Connection("filesystem://", transport_options={
            "data_folder_in": str(folder), "data_folder_out": str(folder),
            "store_processed": False}) as conn:
        yield conn.default_channel


def test_a_message_is_not_seen_until_it_is_written_whole(channel: Any, monkeypatch) -> None:
    """While the message is being put, a worker polling the folder finds nothing (Empty);
    what it then gets is the whole message."""
    from queue import Empty

    seen_while_writing: list[str] = []
    rename = os.replace

    def renaming(src: str, dst: str) -> None:
        # the moment before the message becomes visible: it is complete on disk, and a
        # worker polling now must not see it
        assert Path(src).read_bytes().startswith(b"{") and Path(src).read_bytes().endswith(b"}")
        try:
            channel._get("celery")
        except Empty:
            seen_while_writing.append("nothing")
        else:
            seen_while_writing.append("a message")
        rename(src, dst)

    monkeypatch.setattr(os, "replace", renaming)
    channel._put("celery", {"body": "x" * 100_000, "n": 1})
    assert seen_while_writing == ["nothing"]
    assert channel._get("celery") == {"body": "x" * 100_000, "n": 1}
    with pytest.raises(Empty):
        channel._get("celery")
