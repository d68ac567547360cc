"""Several hosts on one machine: a network namespace each, joined by a bridge, and the
network faults between them.

Each host is a namespace ``fl-<name>`` with one veth into the bridge ``flbr0`` (the root
namespace holds the bridge's address, ``<subnet>.1``, so the harness and the terminals
reach every host). A fault is a set of nftables rules in the namespace of the host that
suffers it: a partition drops every packet to and from the addresses named; a lossy link
drops a share of the packets it sends (``numgen random``). Both are the kernel's, so
what the application sees is a real network fault: retransmissions, stalled sockets,
connect timeouts. This kernel is built without ``sch_netem`` (``CONFIG_NET_SCH_NETEM``
is not set), so delay is added by :mod:`faultlab.link`, the relay each application host
reaches the database through.

Needs root (``ip netns``, veth, nft), which CI is. :meth:`Network.remove` deletes every
namespace and the bridge it made, and any left by an earlier run that was killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass

PREFIX = "fl-"
BRIDGE = "flbr0"
_TABLE = "faultlab"


class NetworkError(RuntimeError):
    """A step of building the network or a fault failed (the command and its output)."""


def sh(*argv: str, input: str | None = None, check: bool = True) -> str:
    done = subprocess.run(argv, input=input, capture_output=True, text=True, timeout=60)
    if check and done.returncode != 0:
        raise NetworkError(f"{' '.join(argv)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


@dataclass(frozen=True)
class Host:
    """One machine of the cluster: its name (``db1``) and address on the bridge."""

    name: str
    ip: str

    @property
    def ns(self) -> str:
        return PREFIX + self.name

    def argv(self, *argv: str) -> list[str]:
        """``argv`` run inside this host's namespace."""
        return ["ip", "netns", "exec", self.ns, *argv]


class Network:
    """The bridge and one namespace per host."""

    def __init__(self, subnet: str, hosts: dict[str, int]):
        self.subnet = subnet
        self.gateway = f"{subnet}.1"
        self.hosts = {name: Host(name, f"{subnet}.{last}") for name, last in hosts.items()}

    def __getitem__(self, name: str) -> Host:
        return self.hosts[name]

    def up(self) -> None:
        self.remove()  # whatever a killed run left behind
        sh("ip", "link", "add", BRIDGE, "type", "bridge")
        sh("ip", "addr", "add", f"{self.gateway}/24", "dev", BRIDGE)
        sh("ip", "link", "set", BRIDGE, "up")
        for host in self.hosts.values():
            outside, inside = f"fl-{host.name}", f"flp-{host.name}"
            sh("ip", "netns", "add", host.ns)
            sh("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
            sh("ip", "link", "set", inside, "netns", host.ns)
            sh("ip", "link", "set", outside, "master", BRIDGE)
            sh("ip", "link", "set", outside, "up")
            sh(*host.argv("ip", "link", "set", "lo", "up"))
            sh(*host.argv("ip", "link", "set", inside, "name", "eth0"))
            sh(*host.argv("ip", "addr", "add", f"{host.ip}/24", "dev", "eth0"))
            sh(*host.argv("ip", "link", "set", "eth0", "up"))

    def pids(self, host: Host) -> list[int]:
        out = sh("ip", "netns", "pids", host.ns, check=False)
        return [int(p) for p in out.split()]

    def kill_all(self, host: Host) -> None:
        """SIGKILL every process of the host: the machine lost its power."""
        for pid in self.pids(host):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def remove(self) -> None:
        """Every namespace of ours (its processes killed first) and the bridge."""
        for line in sh("ip", "netns", "list", check=False).splitlines():
            ns = line.split()[0] if line.split() else ""
            if not ns.startswith(PREFIX):
                continue
            for pid in sh("ip", "netns", "pids", ns, check=False).split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            sh("ip", "netns", "del", ns, check=False)
        # a namespace whose last process is still dying outlives its name, and its veth
        # with it: deleting our end deletes the pair
        for host in self.hosts.values():
            sh("ip", "link", "del", f"fl-{host.name}", check=False)
        sh("ip", "link", "del", BRIDGE, check=False)

    # --- faults ------------------------------------------------------------------------

    def partition(self, host: Host, peers: list[Host]) -> None:
        """Every packet between ``host`` and ``peers`` dropped, both ways."""
        addrs = ", ".join(p.ip for p in peers)
        self._rules(host, f"ip daddr {{ {addrs} }} drop", f"ip saddr {{ {addrs} }} drop")

    def lossy(self, host: Host, peers: list[Host], percent: int) -> None:
        """``percent`` % of the packets ``host`` sends to ``peers`` dropped at random."""
        addrs = ", ".join(p.ip for p in peers)
        self._rules(host, f"ip daddr {{ {addrs} }} numgen random mod 100 < {percent} drop")

    def heal(self, host: Host) -> None:
        sh(*host.argv("nft", "delete", "table", "inet", _TABLE), check=False)

    def _rules(self, host: Host, out_rule: str, in_rule: str = "") -> None:
        self.heal(host)
        script = (f"table inet {_TABLE} {{\n"
                  f" chain out {{ type filter hook output priority 0; policy accept; {out_rule}; }}\n"
                  f" chain in {{ type filter hook input priority 0; policy accept; {in_rule}; }}\n"
                  "}\n")
        sh(*host.argv("nft", "-f", "-"), input=script.replace("; ; }", "; }"))
