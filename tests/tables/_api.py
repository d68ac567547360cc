"""Assertions on API answers shared by the tables API tests."""

from __future__ import annotations

from typing import Any


def ok(response: Any, status: int = 200) -> Any:
    """The JSON body of a response that has ``status``."""
    assert response.status_code == status, response.content
    return response.json()


def problem(response: Any, status: int, code: str) -> dict:
    """The body of an ``application/problem+json`` refusal with ``status`` and ``code``."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code, body
    return body
