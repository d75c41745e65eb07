"""Resource limits of a student's kernel, and the launcher that applies them.

Inside the sandbox the kernel is started as
``python -I .../limits.py MEMORY NPROC FSIZE CPU -- python -m ipykernel_launcher ...``:
this module sets the limits with ``setrlimit`` and replaces itself with the kernel,
which inherits them (so do the kernel's children).

Run as ``python -I .../limits.py --own-mounts -- COMMAND...`` (the grader's worker,
as root) it gives COMMAND a mount namespace of its own first, while it is still a
process of one thread (a Python that has loaded NumPy is not), and adds
``--own-mounts`` to COMMAND's arguments when that worked.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import asdict, dataclass

__all__ = ["Limits", "parse_size", "format_size", "own_mount_namespace", "isolated"]

_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}


def parse_size(text, name: str) -> int:
    """``"2G"``, ``"500M"``, ``"64K"`` or a number of bytes -> bytes (``name`` for errors)."""
    if isinstance(text, bool):
        raise TypeError(f"{name}: expected a size such as 2G or 500M, got {text!r}")
    if isinstance(text, int):
        value = text
    else:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", str(text), re.IGNORECASE)
        if not m:
            raise ValueError(f"{name}: expected a size such as 2G or 500M, got {text!r}")
        value = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if value <= 0:
        raise ValueError(f"{name}: must be positive, got {text!r}")
    return value


def format_size(n: int) -> str:
    for unit in ("T", "G", "M", "K"):
        if n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return str(n)


@dataclass(frozen=True)
class Limits:
    """What one student's notebook may use.

    memory      bytes of address space of every process of the kernel (RLIMIT_AS)
    processes   processes and threads the kernel may start, beyond those its user
                already runs (RLIMIT_NPROC counts per user)
    file_size   bytes of the largest file it may write (RLIMIT_FSIZE)
    disk        bytes it may write in each of its writable folders (/tmp, and the work
                folder when the grader is root): in-memory folders of this size
    cpu         seconds of CPU time per process (RLIMIT_CPU)
    output      characters of output kept per notebook (the rest is cut)
    notebook    bytes of the submitted file, checked before it is read
    """

    memory: int = 2 * 1024 ** 3
    processes: int = 256
    file_size: int = 64 * 1024 ** 2
    disk: int = 256 * 1024 ** 2
    cpu: int = 600
    output: int = 100_000
    notebook: int = 16 * 1024 ** 2

    def __post_init__(self):
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name}: expected a positive whole number, got {value!r}")

    def launcher(self, processes_now: int) -> list[str]:
        """The command prefix that applies these limits (``processes_now``: tasks the
        grading user runs already)."""
        # run as a file, isolated: the launcher needs nothing but the standard library
        return [sys.executable, "-I", os.path.abspath(__file__),
                str(self.memory), str(processes_now + self.processes), str(self.file_size),
                str(self.cpu), "--"]


def isolated(command: list[str]) -> list[str]:
    """``command`` (a grader's worker) started in a mount namespace of its own where it
    can be (see the module doc)."""
    return [sys.executable, "-I", os.path.abspath(__file__), "--own-mounts", "--"] + command


def user_tasks() -> int:
    """Processes and threads of the current user (what RLIMIT_NPROC counts)."""
    uid, count = os.getuid(), 0
    try:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{pid}/task"))
            except OSError:
                continue
    except OSError:
        return 0
    return count


_MS_REC, _MS_PRIVATE, _CLONE_NEWNS = 16384, 1 << 18, 0x00020000


def own_mount_namespace() -> bool:
    """Put this process (of one thread) in a mount namespace of its own, private: what it
    mounts is seen by nobody else and vanishes with it. False where it cannot (not root)."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    return (libc.unshare(_CLONE_NEWNS) == 0 and
            libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) == 0)


def _main(argv: list[str]) -> None:
    import resource

    if argv[0] == "--own-mounts":
        cmd = argv[2:] + (["--own-mounts"] if own_mount_namespace() else [])
        os.execv(cmd[0], cmd)
    memory, nproc, fsize, cpu = (int(a) for a in argv[:4])
    for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_NPROC, nproc),
                         (resource.RLIMIT_FSIZE, fsize), (resource.RLIMIT_CPU, cpu),
                         (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))
    cmd = argv[5:]
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    _main(sys.argv[1:])
