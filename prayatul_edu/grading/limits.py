"""Resource limits of a student's kernel, and the launcher that applies them.

Inside the sandbox the kernel is started as
``python -I .../limits.py MEMORY NPROC FSIZE CPU -- python -m ipykernel_launcher ...``:
this module sets the limits with ``setrlimit`` and replaces itself with the kernel,
which inherits them (so do the kernel's children).

Run as ``python -I .../limits.py --own-mounts -- COMMAND...`` (the grader's worker,
as root) it gives COMMAND a mount namespace of its own first, while it is still a
process of one thread (a Python that has loaded NumPy is not), and adds
``--own-mounts`` to COMMAND's arguments when that worked.

Run as ``python -I .../limits.py --as UID STAGE -- COMMAND...`` (root starting a sandbox) it
becomes the unprivileged user and group ``UID`` (no supplementary groups) and runs
COMMAND: bubblewrap started so maps the kernel to ``UID`` outside its namespace, not to
root. Every launch also gives COMMAND a session keyring of its own (empty): the
grader's keys are never in reach of a kernel.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import asdict, dataclass

__all__ = ["Limits", "parse_size", "format_size", "own_mount_namespace", "isolated",
           "as_user", "new_session_keyring", "die_with_parent"]

_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}


def parse_size(text, name: str) -> int:
    """``"2G"``, ``"500M"``, ``"64K"`` or a number of bytes -> bytes (``name`` for errors).

    Examples
    --------
    >>> from prayatul_edu.grading import parse_size
    >>> parse_size("2G", "memory"), parse_size("64K", "output")
    (2147483648, 65536)
    """
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

    Attributes
    ----------
    memory : int
        bytes of address space of every process of the kernel (RLIMIT_AS)
    processes : int
        processes and threads the kernel may start, beyond those its user already
        runs (RLIMIT_NPROC counts per user)
    file_size : int
        bytes of the largest file it may write (RLIMIT_FSIZE)
    disk : int
        bytes it may write in each of its writable folders (/tmp, and the work folder
        when the grader is root): in-memory folders of this size
    cpu : int
        seconds of CPU time per process (RLIMIT_CPU)
    output : int
        characters of output kept per notebook (the rest is cut)
    notebook : int
        bytes of the submitted file, checked before it is read
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


def as_user(uid: int, stage, command: list[str]) -> list[str]:
    """``command`` (bubblewrap) run as the unprivileged user and group ``uid`` by root,
    its read-only folders staged in the empty folder ``stage`` (:func:`_stage_sources`)."""
    return [sys.executable, "-I", os.path.abspath(__file__), "--as", str(uid), str(stage),
            "--"] + command


def user_tasks(uid: int | None = None) -> int:
    """Processes and threads of user ``uid`` (default: the current user; what
    RLIMIT_NPROC counts)."""
    uid, count = os.getuid() if uid is None else uid, 0
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


_MS_BIND, _MS_REC, _MS_PRIVATE, _CLONE_NEWNS = 4096, 16384, 1 << 18, 0x00020000


def own_mount_namespace() -> bool:
    """Put this process (of one thread) in a mount namespace of its own, private: what it
    mounts is seen by nobody else and vanishes with it. False where it cannot (not root)."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    return (libc.unshare(_CLONE_NEWNS) == 0 and
            libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) == 0)


_PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int = 9, parent: int | None = None) -> bool:
    """Have Linux send ``signum`` to this process when its parent ends (``prctl``
    ``PR_SET_PDEATHSIG``; it holds across ``exec``). ``parent``: the pid the parent had;
    when it has ended already (before the call), ``signum`` is sent now. False where this
    cannot be done (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0) != 0:
        return False
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signum)
    return True


#: keyctl's system call number, per machine; KEYCTL_JOIN_SESSION_KEYRING
_KEYCTL, _KEYCTL_JOIN_SESSION_KEYRING = {"x86_64": 250, "aarch64": 219}, 1


def new_session_keyring() -> bool:
    """Replace this process's session keyring by a new, empty one (inherited by what it
    starts): keys of the grader's session (a login's, a tool's) are then not possessed
    by a kernel. False where that cannot be done (no keyrings, another machine type)."""
    number = _KEYCTL.get(os.uname().machine) if sys.platform.startswith("linux") else None
    if number is None:
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall(number, _KEYCTL_JOIN_SESSION_KEYRING, None) >= 0


def _stage_sources(cmd: list[str], stage: str) -> None:
    """Root's part of starting bubblewrap as an unprivileged user: in a mount namespace
    of this process's own, each folder ``cmd`` binds read-only is bound first below
    ``stage`` (a folder that user may pass through), and ``cmd`` binds it from there: so
    that user's bubblewrap reaches what root reaches (a Python installed in root's home,
    say), and nothing else. Nothing is staged where this process cannot mount."""
    if not own_mount_namespace():
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for k, arg in enumerate(cmd[:-2]):
        if arg != "--ro-bind" or not os.path.isdir(cmd[k + 1]):
            continue
        folder = os.path.join(stage, str(k))
        os.makedirs(folder, exist_ok=True)
        os.chmod(stage, 0o755)
        os.chmod(folder, 0o755)
        if libc.mount(os.fsencode(cmd[k + 1]), os.fsencode(folder), None,
                      _MS_BIND | _MS_REC, None) == 0:
            cmd[k + 1] = folder


def _main(argv: list[str]) -> None:
    import resource

    new_session_keyring()
    if argv[0] == "--own-mounts":
        cmd = argv[2:] + (["--own-mounts"] if own_mount_namespace() else [])
        os.execv(cmd[0], cmd)
    if argv[0] == "--as":
        uid, stage, cmd = int(argv[1]), argv[2], argv[4:]
        _stage_sources(cmd, stage)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        die_with_parent()   # (a change of user clears it) bubblewrap ends with the worker
        os.execvp(cmd[0], cmd)
    die_with_parent()   # a kernel (sandbox none) ends with the worker that runs it
    memory, nproc, fsize, cpu = (int(a) for a in argv[:4])
    for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_NPROC, nproc),
                         (resource.RLIMIT_FSIZE, fsize), (resource.RLIMIT_CPU, cpu),
                         (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))
    cmd = argv[5:]
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    _main(sys.argv[1:])
