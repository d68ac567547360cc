"""``manage.py bench_faults``: the fault harness (issue 26). Builds its own cluster (a
PostgreSQL primary and synchronous standby, Redis, two application hosts, beat) in
network namespaces, injects each fault kind while eight terminals deal through HTTP with
idempotency keys, and prints one JSON object: per fault kind the acknowledged commands
lost and duplicated (both must be 0), the longest unavailability, how soon service was
back, the p99 during the faults and outside them. Needs root (CI is). About ten minutes
with the default ten injections of each kind; ``--ci`` is one of each (≤ 6 minutes)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from faultlab.faults import catalogue
from faultlab.netns import NetworkError
from faultlab.cluster import ClusterError


def _exit_on_sigterm(signum, frame):
    raise SystemExit(f"bench_faults: stopped by signal {signum}")


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]

    def add_arguments(self, parser):
        parser.add_argument("--kinds", default="",
                            help="comma-separated fault kinds (default: every kind): "
                                 + ", ".join(catalogue()))
        parser.add_argument("--injections", type=int, default=10,
                            help="injections of each kind (default 10)")
        parser.add_argument("--ci", action="store_true",
                            help="the CI size: one injection of each kind")
        parser.add_argument("--broker-seconds", type=float, default=60.0)
        parser.add_argument("--partition-seconds", type=float, default=30.0)
        parser.add_argument("--latency-seconds", type=float, default=20.0)
        parser.add_argument("--out", default="",
                            help="a directory for the history (JSON lines) and every "
                                 "server's log")

    def handle(self, *args, **opts):
        from faultlab.run import run

        if os.geteuid() != 0:
            raise CommandError("needs_root: the harness makes network namespaces "
                               "(ip netns, veth, nft): run it as root")
        kinds = [k.strip() for k in opts["kinds"].split(",") if k.strip()] or list(catalogue())
        unknown = [k for k in kinds if k not in catalogue()]
        if unknown:
            raise CommandError(f"unknown_fault_kind: {', '.join(unknown)} (known: "
                               f"{', '.join(catalogue())})")
        injections = 1 if opts["ci"] else opts["injections"]
        if not 1 <= injections <= 50:
            raise CommandError("invalid_injections: --injections must be 1 to 50")
        for name in ("broker_seconds", "partition_seconds", "latency_seconds"):
            if not 1 <= opts[name] <= 600:
                raise CommandError(f"invalid_duration: --{name.replace('_', '-')} must be "
                                   "1 to 600 seconds")
        durations = {k: opts[k] for k in ("broker_seconds", "partition_seconds",
                                          "latency_seconds")}
        started = time.monotonic()
        # a SIGTERM (a CI timeout, a supervisor) unwinds like Ctrl-C: the cluster's
        # namespaces, servers and files are removed on the way out
        signal.signal(signal.SIGTERM, _exit_on_sigterm)

        def progress(message: str) -> None:
            print(f"[{time.monotonic() - started:6.1f} s] {message}", file=sys.stderr,
                  flush=True)

        try:
            result = run(kinds, injections, progress=progress,
                         out_dir=Path(opts["out"]) if opts["out"] else None,
                         durations=durations)
        except (ClusterError, NetworkError) as exc:
            raise CommandError(f"cluster_failed: {exc}") from None
        self.stdout.write(json.dumps(result, indent=2, default=str))
        if not result["ok"]:
            raise CommandError("faults_not_survived: see the JSON above (lost, duplicated, "
                               "back_after_s_max, verify_events, caught_up)")
