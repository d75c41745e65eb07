"""Limits for a whole notebook: one control group (cgroup) per notebook.

``setrlimit`` limits each process on its own (three children of 800 MB each get
past a 1 GB limit) and does not count threads; a control group counts every
process and thread of the notebook together. Where the grader may make control
groups (as root, cgroup v2 with the memory and pids controllers in reach, or the
memory and pids hierarchies of cgroup v1) each notebook gets its own, below the
grader's: ``memory`` (the memory of all its processes, /dev/shm and its tmpfs
files included, no swap) and ``pids`` (processes and threads), and where the ``cpu``
controller is in reach too, a fair share of the processors: every notebook's group
weighs the same (v2 ``cpu.weight``, v1 ``cpu.shares``), however many processes it
starts, and gets at most :data:`CPU_CORES` of them (v2 ``cpu.max``, v1
``cpu.cfs_quota_us``): a notebook forking 240 spinning processes slows itself, not the
notebooks graded beside it (without it, they had 1/241 of the machine each, and their
kernels did not answer in 60 s). The kernel is
started inside it (:meth:`NotebookGroup.prefix`); afterwards every process left
in it is killed and the group removed. Elsewhere :func:`cgroup_problem` says why
not, and the per-process limits of :mod:`.limits` are all there is.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from .limits import Limits

__all__ = ["NotebookGroup", "cgroup_problem", "cpu_controller", "KERNEL_TASKS", "CPU_CORES"]

#: Threads of the kernel itself and its sandbox (ipykernel's heartbeat, output, control
#: threads, bubblewrap): the pids limit is the notebook's processes plus these.
KERNEL_TASKS = 32
#: Processors a notebook may use at most (its group's CPU quota), beside its fair share.
CPU_CORES = 1
#: The scheduler's period of a CPU quota (microseconds; the kernel's default).
CPU_PERIOD = 100_000

_MOUNTINFO = "/proc/self/mountinfo"


def _mounts() -> dict:
    """'v2' -> mount point of cgroup2; 'memory' / 'pids' / 'cpu' -> mount point of a v1
    hierarchy."""
    found = {}
    try:
        lines = Path(_MOUNTINFO).read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, extra = left.split(), right.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        if extra[0] == "cgroup2":
            found.setdefault("v2", fields[4])
        elif extra[0] == "cgroup":
            for opt in extra[2].split(","):
                if opt in ("memory", "pids", "cpu"):
                    found.setdefault(opt, fields[4])
    return found


def _own() -> dict:
    """Controller ('' for v2) -> this process's cgroup path."""
    own = {}
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for c in controllers.split(",") if controllers else [""]:
                own[c] = path
    except (OSError, ValueError):
        pass
    return own


def _write(path: Path, value) -> None:
    with open(path, "w") as fh:
        fh.write(str(value))


#: The leaf group the grader moves itself into on cgroup v2, so that its own group may
#: hand the memory and pids controllers to the notebooks' groups (a group with
#: processes of its own cannot: cgroup v2's "no internal processes" rule).
GRADER_LEAF = "prayatul-grader"
_V2 = {"memory", "pids"}


def _v2_base(base: Path) -> Path | None:
    """The v2 group under which notebooks' groups get the memory and pids controllers
    (this process's group, or its parent when this process is in :data:`GRADER_LEAF`),
    enabling them if needed; None where that is not possible."""
    if base.name == GRADER_LEAF:
        base = base.parent

    def enabled(name: str) -> set:
        try:
            return set((base / name).read_text().split())
        except OSError:
            return set()

    if _V2 <= enabled("cgroup.subtree_control"):
        return base
    if not _V2 <= enabled("cgroup.controllers") or not os.access(base, os.W_OK):
        return None
    for attempt in range(2):
        try:
            _write(base / "cgroup.subtree_control", "+memory +pids")
            try:   # a fair share of the processors too, where the cpu controller is free
                _write(base / "cgroup.subtree_control", "+cpu")
            except OSError:
                pass
            break
        except OSError:
            if attempt:
                return None
            try:   # this process out of the way, into a leaf of its own; then once more
                (base / GRADER_LEAF).mkdir(exist_ok=True)
                _write(base / GRADER_LEAF / "cgroup.procs", os.getpid())
            except OSError:
                return None
    return base if _V2 <= enabled("cgroup.subtree_control") else None


def _base_folders() -> tuple[str, dict] | tuple[None, str]:
    """('v1' or 'v2', controller -> folder under which a notebook's group is made), or
    (None, why not)."""
    if os.geteuid() != 0:
        return None, "the grader is not root"
    mounts, own = _mounts(), _own()
    if "memory" in mounts and "pids" in mounts and "memory" in own and "pids" in own:
        folders = {c: Path(mounts[c]) / own[c].lstrip("/") for c in ("memory", "pids")}
        if all(os.access(f, os.W_OK) for f in folders.values()):
            if "cpu" in mounts and "cpu" in own:   # the fair share: where it can be had
                cpu = Path(mounts["cpu"]) / own["cpu"].lstrip("/")
                if os.access(cpu, os.W_OK) and (cpu / "cpu.shares").exists():
                    folders["cpu"] = cpu
            return "v1", folders
    if "v2" in mounts and "" in own:
        base = _v2_base(Path(mounts["v2"]) / own[""].lstrip("/"))
        if base is not None:
            return "v2", {"": base}
        return None, ("cgroup v2 is mounted but its memory and pids controllers cannot be "
                      "given to the grader's notebooks (delegate them, e.g. run the grader "
                      "in a systemd scope with Delegate=yes)")
    return None, "no cgroup with the memory and pids controllers is mounted writable"


_PROBLEM: dict = {}


def cgroup_problem() -> str | None:
    """None when each notebook can get its own control group here, else why not."""
    if "problem" not in _PROBLEM:
        version, why = _base_folders()
        problem, cpu = (why if version is None else None), False
        if version is not None:
            try:
                group = NotebookGroup.create(Limits())
                cpu = group.has_cpu()
                group.remove()
            except OSError as exc:
                problem = f"a control group could not be made ({exc.strerror})"
        _PROBLEM["problem"], _PROBLEM["cpu"] = problem, cpu
    return _PROBLEM["problem"]


def cpu_controller() -> bool:
    """Whether each notebook's group also holds it to a fair share of the processors."""
    return cgroup_problem() is None and _PROBLEM["cpu"]


class NotebookGroup:
    """The control group(s) of one notebook (``folders``: one per hierarchy)."""

    def __init__(self, version: str, folders: list[Path]):
        self.version, self.folders = version, folders

    @classmethod
    def create(cls, limits: Limits) -> "NotebookGroup | None":
        """A new group limited by ``limits`` (memory, processes), or None where the machine
        offers none (see :func:`cgroup_problem`)."""
        version, bases = _base_folders()
        if version is None:
            return None
        name = f"prayatul-grade-{os.getpid()}-{time.monotonic_ns()}"
        folders = []
        group = cls(version, folders)
        try:
            for controller, base in bases.items():
                folder = base / name
                folder.mkdir()
                folders.append(folder)
                if controller in ("", "memory"):
                    cls._limit_memory(folder, version, limits.memory)
                if controller in ("", "pids"):
                    _write(folder / "pids.max", limits.processes + KERNEL_TASKS)
                if controller in ("", "cpu"):
                    cls._limit_cpu(folder, version)
        except OSError:
            group.remove()
            raise
        return group

    @staticmethod
    def _limit_memory(folder: Path, version: str, memory: int) -> None:
        if version == "v2":
            _write(folder / "memory.max", memory)
            if (folder / "memory.swap.max").exists():
                _write(folder / "memory.swap.max", 0)
        else:
            _write(folder / "memory.limit_in_bytes", memory)
            if (folder / "memory.memsw.limit_in_bytes").exists():
                _write(folder / "memory.memsw.limit_in_bytes", memory)

    @staticmethod
    def _limit_cpu(folder: Path, version: str) -> None:
        """Every notebook's group weighs the same; at most :data:`CPU_CORES` processors.
        (v2: only where the cpu controller was given to the group.)"""
        quota = CPU_CORES * CPU_PERIOD
        if version == "v2":
            if (folder / "cpu.max").exists():
                _write(folder / "cpu.weight", 100)
                _write(folder / "cpu.max", f"{quota} {CPU_PERIOD}")
        else:
            _write(folder / "cpu.shares", 1024)
            _write(folder / "cpu.cfs_period_us", CPU_PERIOD)
            _write(folder / "cpu.cfs_quota_us", quota)

    def has_cpu(self) -> bool:
        """Whether the group holds the notebook to a fair share of the processors."""
        if self.version == "v1":
            return any((f / "cpu.shares").exists() for f in self.folders)
        return any((f / "cpu.max").exists() for f in self.folders)

    def prefix(self) -> list[str]:
        """The command prefix that moves itself into the group, then runs the rest (so
        every process the command starts is counted from its first instruction)."""
        script = ('n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 126; '
                  'shift; n=$((n - 1)); done; exec "$@"')
        return ["/bin/sh", "-c", script, "sh", str(len(self.folders))] + [
            str(f / "cgroup.procs") for f in self.folders]

    def pids(self) -> set[int]:
        found = set()
        for folder in self.folders:
            try:
                found |= {int(p) for p in (folder / "cgroup.procs").read_text().split()}
            except (OSError, ValueError):
                pass
        return found

    def remove(self, wait: float = 5.0) -> None:
        """Kill every process left in the group, then remove it."""
        deadline = time.monotonic() + wait
        for folder in self.folders:
            if (folder / "cgroup.kill").exists():
                try:
                    _write(folder / "cgroup.kill", 1)
                except OSError:
                    pass
        while True:
            for pid in self.pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            left = [f for f in self.folders if f.exists()]
            for folder in left:
                try:
                    folder.rmdir()
                except OSError:
                    pass
            if not any(f.exists() for f in self.folders) or time.monotonic() > deadline:
                return
            time.sleep(0.01)
