"""Request parsers: DRF's, made safe against input built to crash them."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    """JSON whose nesting is too deep for the parser is bad input (400 ``parse_error``),
    not a server error: the standard library raises RecursionError, which DRF does not
    catch."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict | None = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply") from None
