from django.apps import AppConfig


class FaultlabConfig(AppConfig):
    """The fault harness: no models, only its management commands (``bench_faults``,
    ``faults_seed``)."""

    name = "faultlab"
    verbose_name = "Fault harness"
