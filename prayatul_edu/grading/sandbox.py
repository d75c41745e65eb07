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

As root, bubblewrap itself is started by an unprivileged user no account has
(:func:`host_uid`; root first binds the read-only folders where that user may pass,
:func:`.limits._stage_sources`), so outside its namespace the kernel is that user,
not root: root-only files, the machine's settings in /proc/sys and root's keys
stay out of its reach even without a capability. /proc/sys is read-only inside
in any case, and every kernel gets an empty session keyring of its own.

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
from ..exercises.authoring import EXERCISE_ENV
from .cgroup import CPU_CORES, cgroup_problem, cpu_controller
from .limits import Limits, as_user, format_size, user_tasks

__all__ = ["sandbox_problem", "kernel_command", "enforced_limits", "work_folder", "may_mount",
           "host_uid", "SANDBOX_MODES", "SANDBOX_UID", "SHM_SIZE", "HOST_UIDS"]

#: The user and group the kernel runs as, inside its user namespace ("nobody").
SANDBOX_UID = 65534
#: When root grades, the user the kernel is outside its namespace: one of these unprivileged
#: uids, which no account has (one per grading process), never root.
HOST_UIDS = range(1_900_000_000, 1_901_000_000)
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
            "--die-with-parent", "--new-session", "--proc", "/proc",
            # the kernel's settings of the whole machine stay read-only whoever its user is
            # (bubblewrap leaves /proc/sys writable where the sandbox's user is root outside)
            "--ro-bind", "/proc/sys", "/proc/sys",
            "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger", "--dev", "/dev",
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


def _free_uid() -> int | None:
    """A uid of :data:`HOST_UIDS` no account has, chosen by this process's id."""
    import pwd

    for k in range(64):
        uid = HOST_UIDS[(os.getpid() + k * 7919) % len(HOST_UIDS)]
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid
    return None


_HOST: dict = {}


def host_uid() -> int | None:
    """The unprivileged uid this process's kernels are outside their namespace when the
    grader is root (bubblewrap started by that user, so it maps the kernel to it); None
    when the grader is not root, or when bubblewrap cannot run as that user here (no
    unprivileged user namespaces, or the Python installation not readable by others):
    the kernel is then the grader's user outside (root: see the documentation)."""
    if "uid" not in _HOST:
        _HOST["uid"] = None
        uid = _free_uid() if os.geteuid() == 0 and shutil.which("bwrap") else None
        if uid is not None:
            import tempfile

            folder = Path(tempfile.mkdtemp(prefix="prayatul-probe-"))
            work = folder / "work"
            try:
                work.mkdir()
                os.chmod(folder, 0o711)
                os.chown(work, uid, uid)
                probe = as_user(uid, folder / "roots", _bwrap_args(work, Limits()) + [
                    sys.executable, "-I", "-c", "import prayatul_edu, ipykernel"])
                res = subprocess.run(probe, capture_output=True, timeout=60)
                _HOST["uid"] = uid if res.returncode == 0 else None
            except (OSError, subprocess.SubprocessError):
                pass
            finally:
                shutil.rmtree(folder, ignore_errors=True)
    return _HOST["uid"]


def kernel_command(mode: str, work: Path, connection_file: Path, limits: Limits,
                   channel_env: dict, group: list[str] = ()) -> tuple[list[str], dict | None]:
    """(argv, env) that start a kernel for ``connection_file`` in sandbox ``mode``;
    ``group``: the command prefix that puts it in its control group (see :mod:`.cgroup`).
    As root, bubblewrap is started by the unprivileged :func:`host_uid` where it can be."""
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", str(connection_file)]
    uid = host_uid() if mode != "none" else None
    launch = limits.launcher(user_tasks(uid)) + kernel
    if mode == "none":
        env = dict(os.environ, **{k: v for k, v in _ENV.items()
                                  if k not in ("HOME", "PATH", "MPLCONFIGDIR")}, **channel_env)
        return list(group) + launch, env
    args = _bwrap_args(work, limits)
    folder = str(Path(connection_file).parent)
    if Path(folder) != Path(work):   # the grader's, read-only inside
        args[-1:-1] = ["--ro-bind", folder, folder]
    if channel_env.get(EXERCISE_ENV):   # an instructor's questions, staged: read-only
        staged = str(Path(channel_env[EXERCISE_ENV]).parent)
        args[-1:-1] = ["--ro-bind", staged, staged]
    for key, value in channel_env.items():
        args[-1:-1] = ["--setenv", key, value]
    if uid is not None:   # work's parent: the notebook's own temporary folder
        args = as_user(uid, work.parent / "roots", args)
    return list(group) + args + launch, None


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


_MS_NOSUID, _MS_NODEV, _MNT_DETACH = 2, 4, 2


class work_folder:
    """``with work_folder(path, size) as capped:`` makes ``path`` an in-memory folder of
    at most ``size`` bytes when this process may mount (a worker of root's, started with
    a mount namespace of its own: :func:`.limits.isolated`); ``capped`` says whether it
    did. ``owner``: the uid the kernel is outside its namespace (:func:`host_uid`), whose
    folder it becomes (its parent may then be passed through, not listed)."""

    def __init__(self, path: Path, size: int, owner: int | None = None):
        self.path, self.size, self.capped, self.owner = Path(path), size, False, owner

    def __enter__(self) -> bool:
        uid = self.owner
        if _PRIVATE.get("mounts"):
            owner = "" if uid is None else f",uid={uid},gid={uid}"
            opts = f"size={self.size},mode=0700{owner}".encode()
            self.capped = _libc().mount(b"tmpfs", os.fsencode(self.path), b"tmpfs",
                                        _MS_NOSUID | _MS_NODEV, opts) == 0
        if uid is not None:
            os.chmod(self.path.parent, 0o711)
            if not self.capped:
                os.chown(self.path, uid, uid)
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
    """None when ``mode`` can run here, else a sentence saying why not and what to do.

    Examples
    --------
    >>> from prayatul_edu.grading import sandbox_problem
    >>> sandbox_problem("none") is None          # no sandbox: runs anywhere
    True
    >>> sandbox_problem("docker")
    "sandbox: expected one of bwrap, none, got 'docker'"
    """
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
        outside = host_uid()
        lines.append(f"sandbox: bubblewrap; the kernel runs as uid {SANDBOX_UID} with no "
                     "capability, no network, no nested user namespace"
                     + ("" if not root else " (the grader is root; outside, the kernel is "
                        f"an unprivileged uid of {HOST_UIDS.start} and above, not root)"
                        if outside is not None else
                        " (the grader is root, and so is the kernel outside: bubblewrap "
                        "cannot run as an unprivileged user here)"))
    if why is None:
        lines.append(f"whole notebook (control group): memory {size(limits.memory)}, "
                     f"{limits.processes} processes and threads, "
                     + (f"an equal share of the processors, at most {CPU_CORES} of them"
                        if cpu_controller() else "no share of the processors (no cpu "
                        "controller in reach: a notebook of many processes can slow the "
                        "others)"))
    else:
        lines.append(f"no control group ({why}): memory {size(limits.memory)} per process, "
                     f"{limits.processes} processes per user"
                     + (" (threads and root's processes are not counted)"
                        if root and host_uid() is None else ""))
    lines.append(f"per process: memory {size(limits.memory)}, files up to "
                 f"{size(limits.file_size)}, CPU {limits.cpu} s")
    if mode != "none":
        lines.append(f"in memory: /tmp {size(limits.disk)}, /dev/shm "
                     f"{size(min(SHM_SIZE, limits.disk))}")
    lines.append(f"work folder: in memory, {size(limits.disk)}" if root else
                 "work folder: on disk, not capped in total (needs root)")
    return lines
