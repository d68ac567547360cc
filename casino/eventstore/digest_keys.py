"""The Ed25519 key that signs digests of the event log (DESIGN §3, "digests kept outside
the database").

A digest is only worth something if whoever can rewrite the database cannot also sign a
new digest, so the private key belongs on a host the database owner cannot read
(``DIGEST_SIGNING_KEY_FILE``). A machine that only verifies needs the public key alone
(``DIGEST_PUBLIC_KEY_FILE``). Without a configured key one is generated once under
``VAR_DIR``, as ``var/secret_key`` is, so that a fresh checkout works; with a
``DATABASE_URL`` a warning says that production must not rely on it.

Settings are read at call time, so that tests can point them elsewhere.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings

log = logging.getLogger(__name__)
DEFAULT_KEY_NAME = "digest_signing_key.pem"
_warned: set[Path] = set()


class DigestKeyError(Exception):
    """The signing or verifying key is missing, unreadable or not an Ed25519 key."""


def _configured(name: str) -> Path | None:
    value = getattr(settings, name, None)
    return Path(value) if value else None


def signing_key_path() -> Path:
    """``DIGEST_SIGNING_KEY_FILE``, or the generated default under ``VAR_DIR``."""
    return _configured("DIGEST_SIGNING_KEY_FILE") or Path(settings.VAR_DIR) / DEFAULT_KEY_NAME


def _generate(path: Path) -> None:
    """Write a new PKCS8 key readable by its owner only. It is written to a private
    temporary file and hard-linked into place, so that two processes starting at once
    never see half a key and the loser keeps the winner's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink()
    path.chmod(0o600)


def _warn_default(path: Path) -> None:
    if getattr(settings, "EMBEDDED", True) or path in _warned:
        return
    _warned.add(path)
    log.warning("digests are signed with %s, a key generated on this host: set "
                "DIGEST_SIGNING_KEY_FILE to a key the database host does not hold, or "
                "whoever can rewrite the database can also re-sign its digests", path)


def signing_key() -> Ed25519PrivateKey:
    """The private key; generated on first use when none is configured."""
    path = signing_key_path()
    if _configured("DIGEST_SIGNING_KEY_FILE") is None:
        if not path.exists():
            _generate(path)
        _warn_default(path)
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise DigestKeyError(f"cannot load the digest signing key {path}: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise DigestKeyError(f"{path} is not an Ed25519 private key")
    return key


def public_key() -> Ed25519PublicKey:
    """``DIGEST_PUBLIC_KEY_FILE`` if set (a verifying machine need not hold the private
    key), else the signing key's own public half."""
    path = _configured("DIGEST_PUBLIC_KEY_FILE")
    if path is None:
        return signing_key().public_key()
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except (OSError, ValueError, TypeError) as exc:
        raise DigestKeyError(f"cannot load the digest public key {path}: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise DigestKeyError(f"{path} is not an Ed25519 public key")
    return key


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """The fingerprint printed on reports: the first 16 hex digits of SHA-256 over the
    32 raw bytes of the public key."""
    return hashlib.sha256(raw_public(key)).hexdigest()[:16]


def public_key_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.PEM,
                            serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")


def checked_signing_key() -> Ed25519PrivateKey:
    """The signing key, refused when a configured public key is not its pair: every
    digest it signed would then fail verification."""
    private = signing_key()
    if _configured("DIGEST_PUBLIC_KEY_FILE") is not None:
        if raw_public(private.public_key()) != raw_public(public_key()):
            raise DigestKeyError("DIGEST_PUBLIC_KEY_FILE is not the public half of "
                                 "DIGEST_SIGNING_KEY_FILE")
    return private


def signature_valid(key: Ed25519PublicKey, signature: bytes, message: bytes) -> bool:
    try:
        key.verify(signature, message)
    except InvalidSignature:
        return False
    return True
