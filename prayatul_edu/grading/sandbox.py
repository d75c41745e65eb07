"""The sandbox of a student's kernel: bubblewrap (``bwrap``) plus resource limits.

The kernel sees a private empty HOME and /tmp, the system and Python folders
read-only, the ``prayatul_edu`` package read-only, and one writable folder: its
own work folder with its own copy of the submission. It runs with a cleared
environment, in its own user, PID, network, IPC, UTS and cgroup namespaces
(``--unshare-all``), and dies with the grader (``--die-with-parent``): when the
kernel is stopped, its PID namespace ends and with it every process it started.

Whoever runs the grader (root in a container or CI job, or a user), the kernel
holds no capability at all (``--cap-drop ALL``), runs as user and group
:data:`SANDBOX_UID` inside its user namespace, and cannot make another user
namespace (``--disable-userns``): it cannot mount, remount its read-only folders
writable, or rearrange what it sees. Its private /tmp and /dev/shm are in-memory
folders of capped size; as root the work folder is one too (:func:`work_folder`),
in the grader's worker's own mount namespace, so it vanishes with the worker.

There is no network inside, so grader and kernel talk over ZeroMQ's ``ipc://``
transport: Unix-domain sockets in the work folder, which is bound at the same
path inside and outside.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .. import __file__ as _package_init
from .cgroup import cgroup_problem
from .limits import Limits, format_size, user_tasks

__all__ = ["sandbox_problem", "kernel_command", "enforced_limits", "work_folder", "may_mount",
           "SANDBOX_MODES", "SANDBOX_UID", "SHM_SIZE"]

#: The user and group the kernel runs as, inside its user namespace ("nobody").
SANDBOX_UID = 65534
#: Bytes of /dev/shm inside (at most; never more than ``Limits.disk``).
SHM_SIZE = 16 * 1024 ** 2

#: ``--sandbox``: ``bwrap`` (the default) or ``none`` (run with the grader's rights).
SANDBOX_MODES = ("bwrap", "none")

#: The few files of /etc a Python kernel needs (not /etc as a whole: no secrets).
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "fonts", "localtime",
        "passwd", "group", "nsswitch.conf", "mime.types")

#: The environment inside (everything else is cleared).
_ENV = {"HOME": "/tmp/home", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
        "MPLBACKEND": "Agg", "MPLCONFIGDIR": "/tmp/home/.matplotlib", "PYTHONHASHSEED": "0",
        "PYTHONNOUSERSITE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}

_INSTALL = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) on a Linux machine "
            "that allows user namespaces (see 'Grading safely' in the documentation), "
            "or pass --sandbox none to run students' code with your own rights")


def _readonly_roots() -> list[str]:
    """Folders the kernel needs to read: the system, Python and the installed packages."""
    roots = ["/usr", sys.prefix, sys.base_prefix, sys.exec_prefix,
             str(Path(_package_init).resolve().parent)]
    for p in sys.path:  # site-packages outside the prefixes (e.g. a user or conda install)
        if p and "site-packages" in p and Path(p).is_dir():
            roots.append(p)
    real = sorted({str(Path(r).resolve()) for r in roots} | {str(Path(r)) for r in roots})
    keep = []
    for r in real:  # drop folders inside another one already bound
        if Path(r).exists() and not any(r != k and r.startswith(k.rstrip("/") + "/")
                                        for k in real):
            keep.append(r)
    return keep


def _bwrap_args(work: Path, limits: Limits) -> list[str]:
    args = ["bwrap", "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID),
            "--gid", str(SANDBOX_UID), "--disable-userns", "--cap-drop", "ALL",
            "--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev",
            "--size", str(min(SHM_SIZE, limits.disk)), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev",
            # the private /tmp and HOME live in memory: capped
            "--size", str(limits.disk), "--tmpfs", "/tmp", "--dir", "/tmp/home"]
    for link in ("bin", "lib", "lib32", "lib64", "sbin"):
        p = Path("/") / link
        if p.is_symlink():
            args += ["--symlink", os.readlink(p), str(p)]
        elif p.is_dir():
            args += ["--ro-bind", str(p), str(p)]
    for name in _ETC:
        if (Path("/etc") / name).exists():
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    for root in _readonly_roots():
        args += ["--ro-bind", root, root]
    args += ["--bind", str(work), str(work), "--chdir", str(work), "--clearenv"]
    for key, value in _ENV.items():
        args += ["--setenv", key, value]
    return args + ["--"]


def kernel_command(mode: str, work: Path, connection_file: Path, limits: Limits,
                   channel_env: dict, group: list[str] = ()) -> tuple[list[str], dict | None]:
    """(argv, env) that start a kernel for ``connection_file`` in sandbox ``mode``;
    ``group``: the command prefix that puts it in its control group (see :mod:`.cgroup`)."""
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", str(connection_file)]
    launch = limits.launcher(user_tasks()) + kernel
    if mode == "none":
        env = dict(os.environ, **{k: v for k, v in _ENV.items()
                                  if k not in ("HOME", "PATH", "MPLCONFIGDIR")}, **channel_env)
        return list(group) + launch, env
    args = _bwrap_args(work, limits)
    for key, value in channel_env.items():
        args[-1:-1] = ["--setenv", key, value]
    return list(group) + args + launch, None


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


_MS_NOSUID, _MS_NODEV, _MNT_DETACH = 2, 4, 2


class work_folder:
    """``with work_folder(path, size) as capped:`` makes ``path`` an in-memory folder of
    at most ``size`` bytes when this process may mount (a worker of root's, started with
    a mount namespace of its own: :func:`.limits.isolated`); ``capped`` says whether it
    did."""

    def __init__(self, path: Path, size: int):
        self.path, self.size, self.capped = Path(path), size, False

    def __enter__(self) -> bool:
        if _PRIVATE.get("mounts"):
            opts = f"size={self.size},mode=0700".encode()
            self.capped = _libc().mount(b"tmpfs", os.fsencode(self.path), b"tmpfs",
                                        _MS_NOSUID | _MS_NODEV, opts) == 0
        return self.capped

    def __exit__(self, *exc):
        if self.capped:
            _libc().umount2(os.fsencode(self.path), _MNT_DETACH)


#: {"mounts": True} in a worker with a mount namespace of its own (:func:`may_mount`).
_PRIVATE: dict = {}


def may_mount(own_namespace: bool) -> None:
    """Tell :class:`work_folder` whether this process has a mount namespace of its own
    (the grader's worker, started by :func:`.limits.isolated` as root)."""
    _PRIVATE["mounts"] = bool(own_namespace)


_CHECKED: dict = {}


def sandbox_problem(mode: str = "bwrap") -> str | None:
    """None when ``mode`` can run here, else a sentence saying why not and what to do."""
    if mode not in SANDBOX_MODES:
        return f"sandbox: expected one of {', '.join(SANDBOX_MODES)}, got {mode!r}"
    if mode == "none":
        return None
    if mode in _CHECKED:
        return _CHECKED[mode]
    problem = None
    if not sys.platform.startswith("linux"):
        problem = f"the sandbox needs Linux (this is {sys.platform}): {_INSTALL}"
    elif shutil.which("bwrap") is None:
        problem = f"the sandbox needs bubblewrap, and 'bwrap' was not found: {_INSTALL}"
    else:
        try:
            res = subprocess.run(["bwrap", "--unshare-all", "--unshare-user",
                                  "--disable-userns", "--cap-drop", "ALL", "--die-with-parent",
                                  "--ro-bind", "/", "/", "true"], capture_output=True,
                                 text=True, timeout=20)
            if res.returncode != 0:
                problem = (f"bubblewrap cannot create a sandbox here "
                           f"({res.stderr.strip()[:200]}): {_INSTALL}")
        except (OSError, subprocess.SubprocessError) as exc:
            problem = f"bubblewrap could not be started ({exc}): {_INSTALL}"
    _CHECKED[mode] = problem
    return problem


def enforced_limits(mode: str, limits: Limits) -> list[str]:
    """What holds for each notebook here, one sentence a line (``grade`` prints them)."""
    root, why = os.geteuid() == 0, cgroup_problem()
    size = format_size
    lines = []
    if mode == "none":
        lines.append("sandbox: none; students' code runs with the grader's rights")
    else:
        lines.append(f"sandbox: bubblewrap; the kernel runs as uid {SANDBOX_UID} with no "
                     "capability, no network, no nested user namespace"
                     + (" (the grader is root)" if root else ""))
    if why is None:
        lines.append(f"whole notebook (control group): memory {size(limits.memory)}, "
                     f"{limits.processes} processes and threads")
    else:
        lines.append(f"no control group ({why}): memory {size(limits.memory)} per process, "
                     f"{limits.processes} processes per user"
                     + (" (threads and root's processes are not counted)" if root else ""))
    lines.append(f"per process: memory {size(limits.memory)}, files up to "
                 f"{size(limits.file_size)}, CPU {limits.cpu} s")
    if mode != "none":
        lines.append(f"in memory: /tmp {size(limits.disk)}, /dev/shm "
                     f"{size(min(SHM_SIZE, limits.disk))}")
    lines.append(f"work folder: in memory, {size(limits.disk)}" if root else
                 "work folder: on disk, not capped in total (needs root)")
    return lines
