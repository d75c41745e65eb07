"""Course keys: variants no student can compute for another.

Without a key a student's variant is seeded by the student id, which is public:
anyone can compute anyone's data and answers (fine for self-study). With a
course key, a secret the instructor keeps in a file and never ships, the
variant of student ``s`` is seeded by :func:`variant_token` (an HMAC of the id
under the key). An assigned notebook carries its student's own token (the
instructor's ``assign`` step writes ``ex.setup(student_id=..., variant=TOKEN)``),
never the key; the grader, given the key file (``prayatul-edu grade --course-key
FILE``), derives the same token from the student id and grades that variant.

The key file holds one line of text (:func:`write_key`: 64 random hex digits); the
key is that line's bytes, so any secret of at least 16 characters serves, e.g. the
output of ``python -c "import secrets; print(secrets.token_hex(32))"``.

>>> key = b"0123456789abcdef0123456789abcdef"
>>> variant_token(key, "s1234")
'6f3a2032666cc367'
>>> variant_token(key, "s1234") != variant_token(key, "s1235")
True
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

__all__ = ["variant_token", "make_key", "write_key", "read_key", "KEY_BYTES",
           "MIN_KEY_BYTES"]

#: Random bytes of a new course key (written as 64 hex digits).
KEY_BYTES = 32
#: A course key shorter than this (in bytes) is refused: it could be guessed.
MIN_KEY_BYTES = 16


def variant_token(key: bytes, student_id: str) -> str:
    """The variant seed of ``student_id`` under the course ``key``: the first 16 hex
    digits of HMAC-SHA256(key, student_id)."""
    if not isinstance(key, bytes) or len(key) < MIN_KEY_BYTES:
        raise ValueError(f"key: expected at least {MIN_KEY_BYTES} bytes, got "
                         f"{type(key).__name__} of length "
                         f"{len(key) if isinstance(key, bytes) else '?'}")
    if not isinstance(student_id, str) or not student_id:
        raise ValueError(f"student_id: expected a non-empty string, got {student_id!r}")
    return hmac.new(key, student_id.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


def make_key() -> bytes:
    """A new random course key: 64 hex digits (as text, so it fits in a file's line)."""
    return secrets.token_hex(KEY_BYTES).encode("ascii")


def write_key(path) -> Path:
    """Write a new course key to ``path`` (readable by its owner only; an existing file is
    never overwritten: every token depends on it)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ValueError(f"course key: {path} exists already; it is kept (every student's "
                         "variant depends on it)") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(make_key() + b"\n")
    return path


def read_key(path) -> bytes:
    """The course key in the file ``path``: its bytes, surrounding whitespace removed."""
    try:
        key = Path(path).read_bytes().strip()
    except OSError as exc:
        raise ValueError(f"course key: cannot read {Path(path).name} ({exc.strerror})") from None
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"course key: {Path(path).name} holds {len(key)} bytes; a key needs "
                         f"at least {MIN_KEY_BYTES} (make one with prayatul-edu grade "
                         "--make-key FILE)")
    return key
