from rest_framework import serializers


class EventSerializer(serializers.Serializer):
    """An event as stored (payload upcast to its newest schema)."""

    position = serializers.IntegerField()
    event_id = serializers.UUIDField()
    stream_type = serializers.CharField()
    stream_id = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    data = serializers.JSONField()
    metadata = serializers.JSONField()
    recorded_at = serializers.DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()


class EventPageSerializer(serializers.Serializer):
    next = serializers.URLField(allow_null=True)
    count = serializers.IntegerField()
    results = EventSerializer(many=True)


class ChainReportSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    count = serializers.IntegerField(help_text="events of the scope walked")
    head_hash = serializers.CharField(help_text="the newest seal's hash")
    first_bad_position = serializers.IntegerField(allow_null=True)
    first_bad_seal = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    streams = serializers.IntegerField(help_text="streams walked (every property's)")
    seals = serializers.IntegerField()
    unsealed = serializers.IntegerField(help_text="events after the newest seal")
    scope = serializers.CharField(help_text="the licence number whose events were counted, "
                                            "or \"all\" for a group-wide officer")


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
    credential_number = serializers.CharField(allow_null=True)
    property = serializers.CharField(allow_null=True)
    licence_number = serializers.CharField(allow_null=True)
    group_wide = serializers.BooleanField(help_text="reads every property's event log")


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    database = serializers.DictField(required=False,
                                     help_text="only to HEALTH_DETAIL_ADDRESSES")
    broker = serializers.DictField(required=False,
                                   help_text="only to HEALTH_DETAIL_ADDRESSES")


class HealthLiveSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok"])


class HealthReadySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded", "unavailable"])
    components = serializers.DictField(
        required=False,
        help_text="database, broker, worker, beat, projections, seals, digests (and the "
                  "outbox), each with its own status; only to HEALTH_DETAIL_ADDRESSES "
                  "(the loopback by default), anyone else gets the status alone")
