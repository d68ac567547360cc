"""A value the database cannot store reaching a console page (a NUL character in a
path's text: PostgreSQL's text holds none) is a 400 page in words, as the API answers it
(400 ``invalid_data``), never a 500 (console.middleware)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.mark.parametrize("url", [
    "/console/print/jackpots/bad%00beat/counts/c%00/",
    "/console/print/jackpots/high%00hand/high-hands/p%00/",
])
def test_a_nul_in_a_pages_text_is_refused_in_words(console_client, url) -> None:  # noqa: ANN001
    response = console_client("compliance").get(url)
    assert response.status_code == 400
    page = response.content.decode()
    assert "cannot be stored" in page and "Nothing was recorded." in page
