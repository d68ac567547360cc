"""The API reference: what /api/schema/ and the Swagger UI (/api/docs/) say of each
operation beyond its shapes and statuses — the tag of its app and area
(:mod:`.tags`), a one-sentence summary a floorperson understands (:mod:`.summaries`),
and an example request for every command (:mod:`.examples`). :mod:`.auto_schema` puts
them on each operation as drf-spectacular builds it, so the views carry none of it; the
rule citations stay in each operation's description (the view's docstring).

tests/casino/test_api_reference.py holds every operation to it: a new view without a
tag, a whole-sentence summary or an example request fails there.
"""
