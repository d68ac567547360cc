"""Domain errors: every refusal carries a stable ``code`` that the API and commands report.

The API layer maps :class:`DomainError` to ``application/problem+json`` with HTTP 400
(``ConflictError`` to 409); management commands print ``code: message`` and exit non-zero.
"""


class DomainError(ValueError):
    """A command or input the rules refuse. ``code`` is stable; the message is for people."""

    code = "invalid"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.field = field

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.code


class ConflictError(DomainError):
    """The command is well formed but the current state refuses it (HTTP 409)."""

    code = "conflict"
    status = 409


class NotFoundError(DomainError):
    """No such row for this caller — including one of another property (HTTP 404)."""

    code = "not_found"
    status = 404
