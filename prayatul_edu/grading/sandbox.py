"""The sandbox of a student's kernel: bubblewrap (``bwrap``) plus resource limits.

The kernel sees a private empty HOME and /tmp, the system and Python folders
read-only, the ``prayatul_edu`` package read-only, and one writable folder: its
own work folder with its own copy of the submission. It runs with a cleared
environment, in its own user, PID, network, IPC, UTS and cgroup namespaces
(``--unshare-all``), and dies with the grader (``--die-with-parent``): when the
kernel is stopped, its PID namespace ends and with it every process it started.

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
from .limits import Limits, user_tasks

__all__ = ["sandbox_problem", "kernel_command", "SANDBOX_MODES"]

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
            "that allows user namespaces (see the README's 'Setting up a grading machine'), "
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


def _tmpfs_size_supported() -> bool:
    """Whether this bubblewrap can cap a tmpfs (``--size``, bubblewrap 0.8 and later)."""
    if "size" not in _CHECKED:
        try:
            res = subprocess.run(["bwrap", "--help"], capture_output=True, text=True,
                                 timeout=20)
            _CHECKED["size"] = "--size" in res.stdout + res.stderr
        except (OSError, subprocess.SubprocessError):
            _CHECKED["size"] = False
    return bool(_CHECKED["size"])


def _bwrap_args(work: Path, limits: Limits) -> list[str]:
    args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session",
            "--proc", "/proc", "--dev", "/dev"]
    if _tmpfs_size_supported():  # the private /tmp and HOME live in memory: capped
        args += ["--size", str(4 * limits.file_size)]
    args += ["--tmpfs", "/tmp", "--dir", "/tmp/home"]
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
                   channel_env: dict) -> tuple[list[str], dict | None]:
    """(argv, env) that start a kernel for ``connection_file`` in sandbox ``mode``."""
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", str(connection_file)]
    launch = limits.launcher(user_tasks()) + kernel
    if mode == "none":
        env = dict(os.environ, **{k: v for k, v in _ENV.items()
                                  if k not in ("HOME", "PATH", "MPLCONFIGDIR")}, **channel_env)
        return launch, env
    args = _bwrap_args(work, limits)
    for key, value in channel_env.items():
        args[-1:-1] = ["--setenv", key, value]
    return args + launch, None


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
            res = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent",
                                  "--ro-bind", "/", "/", "true"], capture_output=True,
                                 text=True, timeout=20)
            if res.returncode != 0:
                problem = (f"bubblewrap cannot create a sandbox here "
                           f"({res.stderr.strip()[:200]}): {_INSTALL}")
        except (OSError, subprocess.SubprocessError) as exc:
            problem = f"bubblewrap could not be started ({exc}): {_INSTALL}"
    _CHECKED[mode] = problem
    return problem
