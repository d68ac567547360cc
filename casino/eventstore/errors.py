"""Event-store refusals. Each has a stable ``code`` (see casino.domain.errors)."""

from casino.domain.errors import ConflictError, DomainError


class EventStoreError(DomainError):
    code = "event_store_error"


class UnknownStreamType(EventStoreError):
    code = "unknown_stream_type"


class PayloadTooLarge(EventStoreError):
    code = "payload_too_large"


class PayloadNotJSON(EventStoreError):
    code = "payload_not_json"


class InvalidExpectedVersion(EventStoreError):
    code = "invalid_expected_version"


class MetadataActorMissing(EventStoreError):
    code = "metadata_actor_missing"


class InvalidEvent(EventStoreError):
    code = "invalid_event"


class ConcurrencyError(ConflictError):
    """The stream moved on since the caller read it (stale expected version)."""

    code = "stream_version_conflict"

    def __init__(self, stream_id: str, expected: int, actual: int | None):
        if actual is None:  # lost a lock race to another append (deadlock victim)
            message = f"another append to stream {stream_id} interfered; reload and retry"
        else:
            message = (f"stream {stream_id} is at version {actual}, "
                       f"not the expected {expected}; reload and retry")
        super().__init__(message)
        self.stream_id, self.expected, self.actual = stream_id, expected, actual


class IdempotencyKeyReused(ConflictError):
    code = "idempotency_key_reused"
