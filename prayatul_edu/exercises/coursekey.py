"""Course keys: variants no student can compute for another.

Without a key a student's variant is seeded by the student id, which is public:
anyone can compute anyone's data and answers (fine for self-study). With a
course key, a secret the instructor keeps in a file and never ships, the
variant of student ``s`` is seeded by :func:`variant_token` (an HMAC of the id
under the key). An assigned notebook carries its student's own token (the
instructor's ``assign`` step writes ``ex.setup(student_id=..., variant=TOKEN)``),
never the key; the grader, given the key file (``prayatul-edu grade --course-key
FILE``), derives the same token from the student id and grades that variant.

>>> key = bytes(range(32))
>>> variant_token(key, "s1234")
'v54c5006e66a04512779720463b4e120b'
>>> variant_token(key, "s1234") != variant_token(key, "s1235")
True
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

__all__ = ["variant_token", "make_key", "write_key", "read_key", "KEY_BYTES"]

#: Bytes of a course key (256 bits).
KEY_BYTES = 32
_HEADER = "prayatul-edu course key"


def variant_token(key: bytes, student_id: str) -> str:
    """The variant seed of ``student_id`` under the course ``key``: ``"v"`` and 32 hex
    digits of HMAC-SHA256(key, "prayatul-edu variant|" + student_id)."""
    if not isinstance(key, bytes) or len(key) < 16:
        raise ValueError(f"key: expected at least 16 bytes, got {type(key).__name__} "
                         f"of length {len(key) if isinstance(key, bytes) else '?'}")
    if not isinstance(student_id, str) or not student_id:
        raise ValueError(f"student_id: expected a non-empty string, got {student_id!r}")
    mac = hmac.new(key, f"prayatul-edu variant|{student_id}".encode("utf-8"),
                   hashlib.sha256)
    return "v" + mac.hexdigest()[:32]


def make_key() -> bytes:
    """A new random course key."""
    return secrets.token_bytes(KEY_BYTES)


def write_key(path) -> Path:
    """Write a new course key to ``path`` (readable by its owner only; an existing file is
    never overwritten: every token depends on it)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ValueError(f"course key: {path} exists already; it is kept (every student's "
                         "variant depends on it)") from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(f"# {_HEADER}: keep it secret, never give it to students\n"
                 f"{make_key().hex()}\n")
    return path


def read_key(path) -> bytes:
    """The course key in the file ``path`` (as written by :func:`write_key`)."""
    try:
        text = Path(path).read_text(encoding="ascii", errors="replace")
    except OSError as exc:
        raise ValueError(f"course key: cannot read {path} ({exc.strerror})") from None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    try:
        key = bytes.fromhex(lines[0]) if len(lines) == 1 else b""
    except ValueError:
        key = b""
    if len(key) < 16:
        raise ValueError(f"course key: {path} does not hold a course key (one line of at "
                         "least 32 hex digits; make one with prayatul-edu grade --make-key "
                         "FILE)")
    return key
