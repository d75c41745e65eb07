"""Run one notebook in a fresh kernel, in its sandbox, and read what it reported.

The grader's side of the conversation (nbclient) runs in the grader's worker
process, outside the sandbox: the kernel cannot reach it, stop it or change
its limits. Each cell has a time limit and the notebook one in total; output
beyond ``Limits.output`` characters is dropped as it arrives, and a single
message larger than that is refused by ZeroMQ before it is read into memory.
"""
from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import threading
import time
from pathlib import Path

from ..exercises.assignment import CHANNEL_ENV, POLICY_ENV
from .cgroup import NotebookGroup, cgroup_problem
from .limits import Limits
from .sandbox import host_uid, kernel_command

__all__ = ["run_notebook", "read_channel", "CHANNEL_CAP", "CHANNEL_LINE", "CHANNEL_DEPTH",
           "MAX_RESTARTS"]

#: At most this many bytes of the answer channel are read (its end: the last answers).
CHANNEL_CAP = 2_000_000
#: A line of the channel longer than this many bytes is skipped unread (an answer is a
#: few numbers; the largest, a 5 x 5 matrix, is a few hundred bytes).
CHANNEL_LINE = 100_000
#: A record nested deeper than this is skipped (an answer is a list of lists at most).
CHANNEL_DEPTH = 8
#: Characters kept of an error's name, message and each traceback line.
ERROR_FIELD = 2000


def _capped_client_class():
    from nbclient import NotebookClient

    class CappedClient(NotebookClient):
        """Keeps at most ``output_cap`` characters of output per notebook, and as many of
        errors (shortened); past that only a cell's first error. Nothing else
        a kernel sends is kept in the grader's memory: widgets' messages (their state) are
        dropped, and displays are not kept up to date (an update could refill every output
        kept with a message of the largest size)."""

        output_cap = 100_000
        kept = errors_kept = 0
        cut = False

        def output(self, outs, msg, display_id, cell_index):
            out = super().output(outs, msg, None, cell_index)
            if out is None or not outs or outs[-1] is not out:
                return out
            if out.get("output_type") == "error":
                out["ename"] = str(out.get("ename", ""))[:ERROR_FIELD]
                out["evalue"] = str(out.get("evalue", ""))[:ERROR_FIELD]
                out["traceback"] = [str(t)[:ERROR_FIELD] for t in out.get("traceback", [])[-5:]]
                size = len(json.dumps(out))
                if self.errors_kept + size > self.output_cap and any(
                        o.get("output_type") == "error" for o in outs[:-1]):
                    outs.pop()
                    return None
                self.errors_kept += size
                return out
            size = len(json.dumps(out))
            if self.kept + size > self.output_cap:
                outs.pop()
                if not self.cut:
                    self.cut = True
                    outs.append({"output_type": "stream", "name": "stderr",
                                 "text": f"[grader: output cut after {self.output_cap} "
                                         "characters]\n"})
                return None
            self.kept += size
            return out

        def handle_comm_msg(self, outs, msg, cell_index):
            return None

        def _update_display_id(self, display_id, msg):
            return None

    return CappedClient


def _manager_class(mode: str, work: Path, limits: Limits, channel_env: dict,
                   group: list[str] = ()):
    import zmq
    from jupyter_client import AsyncKernelManager

    # outside the kernel's folder, bound read-only: written (again after a cut cell) where
    # no process of the kernel can have left a link in its place
    connection_file = work.parent / "connection" / "kernel.json"
    # room for one capped output plus the message's envelope
    max_message = max(4 * limits.output + 65536, 2 ** 20)

    class SandboxKernelManager(AsyncKernelManager):
        def __init__(self, **kw):
            kw.pop("kernel_name", None)
            super().__init__(transport="ipc", ip=str(work / "k"),
                             connection_file=str(connection_file), **kw)

        def format_kernel_cmd(self, extra_arguments=None):
            return self._argv

        async def _async_pre_start_kernel(self, **kw):
            connection_file.parent.mkdir(mode=0o711, exist_ok=True)
            self._argv, env = kernel_command(mode, work, connection_file, limits, channel_env,
                                             group)
            if env is not None:
                kw["env"] = env
            started = await super()._async_pre_start_kernel(**kw)
            uid = host_uid() if mode != "none" else None
            if uid is not None:   # the kernel, an unprivileged user outside, reads it
                os.chown(connection_file, uid, uid)
            return started

        def client(self, **kw):
            c = super().client(**kw)
            c.context.setsockopt(zmq.MAXMSGSIZE, max_message)
            return c

    return SandboxKernelManager


class ProcessWatch:
    """Counts the processes under the sandbox ``root`` every few milliseconds and kills
    them all when there are more than ``limit`` (RLIMIT_NPROC does not hold for root)."""

    interval = 0.1

    def __init__(self, root: int, limit: int):
        self.root, self.limit, self.stopped = root, limit, False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()

    def message(self, cell: str) -> str:
        return (f"{cell} started more than {self.limit} processes (the process limit); "
                "the notebook was stopped and the cells after it were not run")

    def _descendants(self) -> list[int]:
        """The processes under ``root``: a process is younger than its parent, so only
        the processes numbered above ``root`` are read (until the numbers wrap)."""
        children: dict[int, list[int]] = {}
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) <= self.root:
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    stat_line = fh.read()
            except OSError:
                continue
            ppid = int(stat_line[stat_line.rfind(b")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(name))
        found, todo = [], [self.root]
        while todo:
            for child in children.get(todo.pop(), ()):
                found.append(child)
                todo.append(child)
        return found

    def check(self) -> bool:
        """Count now; over the limit, kill them all. Also called when a cell ends, so that
        a cell which leaves too many processes behind is the one named, however fast it
        ended (on a busy machine the next count could fall in a later cell)."""
        if self.stopped:
            return True
        try:
            tree = self._descendants()
        except OSError:
            return False
        if len(tree) <= self.limit:
            return False
        self.stopped = True
        for pid in [self.root] + tree:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return True

    def _run(self) -> None:
        while not self._done.wait(self.interval):
            if self.check():
                return


def _reconnect_iopub(kc) -> None:
    """A new output connection (ZeroMQ closed the one an oversized message came on)."""
    kc.iopub_channel.stop()
    kc._iopub_channel = None  # the property makes a fresh channel
    kc.start_channels(shell=False, iopub=True, stdin=False, hb=False, control=False)


#: At most this many fresh kernels after a cell hung or killed its kernel (each costs a
#: kernel start; the notebook's time limit holds over all of them).
MAX_RESTARTS = 5


def _is_setup(cell) -> bool:
    """A cell that prepares the session (``ex.setup(...)``, or an assignment's first cell):
    re-run in a fresh kernel before the cells after a cut one."""
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else str(source)
    return str(cell.get("id")) in ("setup", "assignment") or "ex.setup(" in source


#: Characters of a heading kept in a cell's name.
HEADING_CHARS = 40


def cell_names(nb) -> dict[int, str]:
    """Cell index -> the code cell as its author finds it in Jupyter: ``code cell 2 under
    "03.2 Counting the pairs"`` (the nearest heading above it, the code cells under it
    counted from 1; before any heading: ``code cell 2 of the notebook``), and its
    execution count as saved, ``(In [7])``, where it has one. (Not "cell 9": Markdown
    cells are not counted by anyone reading the notebook.)"""
    names, heading, k = {}, None, 0
    for index, cell in enumerate(nb.cells):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "markdown":
            for line in source.splitlines():
                m = re.match(r" {0,3}#{1,6}\s+(.*?)[\s#]*$", line)
                if m and m.group(1):
                    heading, k = m.group(1), 0
        elif cell.get("cell_type") == "code":
            k += 1
            where = "of the notebook" if heading is None else (
                f'under "{heading[:HEADING_CHARS]}'
                f'{"…" if len(heading) > HEADING_CHARS else ""}"')
            count = cell.get("execution_count")
            names[index] = f"code cell {k} {where}" + (
                f" (In [{count}])" if isinstance(count, int) and not isinstance(count, bool)
                else "")
    return names


def run_notebook(nb, work: Path, channel: Path, *, mode: str, limits: Limits,
                 cell_timeout: float, notebook_timeout: float, policy: str,
                 cut: list | None = None, env: dict | None = None,
                 epilogue: tuple = ()) -> list[str]:
    """Execute ``nb`` cell by cell in a fresh sandboxed kernel, in a control group of its
    own where the machine offers one; return the problems met.

    A cell that does not finish in time, or whose kernel dies, is cut: the kernel is
    replaced by a fresh one (in the same control group), the setup cells
    (:func:`_is_setup`) are run again in it, and the cells after the cut one run there
    (at most :data:`MAX_RESTARTS` times), so one hung cell does not cost the questions
    after it. ``cut``: a list that gets the index of every cell cut, or not run.
    ``env``: more environment variables for the kernel (an instructor's questions,
    :func:`.authored.stage`). ``epilogue``: code the grader runs in the kernel after the
    notebook's last cell (the hidden cases of the function questions: never present
    while the notebook's own cells run); not run when the notebook was stopped."""
    group = NotebookGroup.create(limits) if cgroup_problem() is None else None
    try:
        return _run(nb, work, channel, mode=mode, limits=limits, cell_timeout=cell_timeout,
                    notebook_timeout=notebook_timeout, policy=policy,
                    group=group.prefix() if group else (),
                    cut=[] if cut is None else cut, env=env or {}, epilogue=epilogue)
    finally:
        if group:
            group.remove()


def _run(nb, work: Path, channel: Path, *, mode, limits, cell_timeout, notebook_timeout, policy,
         group, cut, env, epilogue=()) -> list[str]:
    import copy

    names = cell_names(nb)   # before the run sets the execution counts

    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    problems = []
    client_class = _capped_client_class()
    client = client_class(nb, timeout=int(cell_timeout), allow_errors=True,
                          record_timing=False, shutdown_kernel="immediate",
                          startup_timeout=60, iopub_timeout=2, raise_on_iopub_timeout=True,
                          resources={"metadata": {"path": str(work)}})
    client.kernel_manager_class = _manager_class(mode, work, limits, {
        CHANNEL_ENV: str(channel), POLICY_ENV: policy, **env}, group)
    client.output_cap = limits.output
    deadline = time.monotonic() + notebook_timeout
    client.reset_execution_trackers()
    code = [(index, cell) for index, cell in enumerate(nb.cells)
            if cell.get("cell_type") == "code"]
    setup = [(index, cell) for index, cell in code if _is_setup(cell)]
    pos, restarts, stop = 0, 0, False
    while pos < len(code) and not stop:
        fresh = pos > 0
        # the kernel's own chatter (e.g. ipykernel's warnings) would drown the progress lines
        with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), \
                ProcessWatch(client.km.provisioner.process.pid, limits.processes) as watch:
            if fresh:  # after a cut cell: the session again, its outputs not kept
                for index, cell in setup:
                    if index < code[pos][0]:
                        client.timeout = max(1, int(min(cell_timeout,
                                                        deadline - time.monotonic())))
                        try:
                            client.execute_cell(copy.deepcopy(cell), index)
                        except (CellTimeoutError, DeadKernelError):
                            break
            while pos < len(code):
                index, cell = code[pos]
                pos += 1
                remaining = deadline - time.monotonic()
                if remaining < 1:
                    problems.append(f"the notebook did not finish within {notebook_timeout:g} "
                                    f"s; the cells from {names[index]} on were not run")
                    cut.append(index)
                    stop = True
                    break
                client.timeout = max(1, int(min(cell_timeout, remaining)))
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError as exc:
                    if "IOPub" in str(exc) and not watch.stopped:
                        # a message over the size limit was dropped, and the connection with it
                        client.cut = True
                        _reconnect_iopub(client.kc)
                        continue
                    cut.append(index)
                    if watch.stopped:
                        problems.append(watch.message(names[index]))
                        stop = True
                        break
                    limit = ("notebook" if client.timeout < cell_timeout else "cell")
                    restarts += 1
                    stop = restarts > MAX_RESTARTS or limit == "notebook"
                    problems.append(f"{names[index]} did not finish within "
                                    f"{client.timeout} s (the {limit} time limit: an endless "
                                    f"loop?) and was cut; {_after_cut(pos, code, stop)}")
                    break
                except DeadKernelError:
                    cut.append(index)
                    if watch.stopped:
                        problems.append(watch.message(names[index]))
                        stop = True
                        break
                    restarts += 1
                    stop = restarts > MAX_RESTARTS
                    problems.append(f"the kernel died in {names[index]} (a resource "
                                    f"limit?) and the cell was cut; "
                                    f"{_after_cut(pos, code, stop)}")
                    break
                if watch.check():           # the processes this cell left behind
                    cut.append(index)
                    problems.append(watch.message(names[index]))
                    stop = True
                    break
                for out in cell.get("outputs", []):
                    if out.get("output_type") == "error":
                        problems.append(f"{names[index]} raised {str(out.get('ename'))[:60]}: "
                                        f"{str(out.get('evalue'))[:200]}")
            else:   # every cell ran: the grader's own cells last, in the same kernel
                _run_epilogue(client, nb, epilogue, cell_timeout, deadline, watch, problems)
    if stop:   # the cells never run
        cut.extend(i for i, _ in code[pos:])
    if client.cut:
        problems.append(f"the output was cut after {limits.output} characters")
    return problems


def _run_epilogue(client, nb, epilogue, cell_timeout, deadline, watch, problems) -> None:
    """The grader's cells (``epilogue``), run after the notebook's in its last kernel; they
    are not kept in the notebook."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    for source in epilogue:
        remaining = deadline - time.monotonic()
        if remaining < 1:
            problems.append("no time was left for the hidden cases of the function questions")
            return
        cell = nbformat.v4.new_code_cell(source)
        nb.cells.append(cell)
        client.timeout = max(1, int(min(cell_timeout, remaining)))
        try:
            client.execute_cell(cell, len(nb.cells) - 1)
        except (CellTimeoutError, DeadKernelError):
            problems.append("the hidden cases of the function questions did not finish "
                            f"within {client.timeout} s (or the kernel died) and were cut")
            return
        finally:
            nb.cells.remove(cell)
        if watch.check():
            problems.append(watch.message("the run of the hidden cases"))
            return


def _after_cut(pos: int, code, stop: bool) -> str:
    """What happened to the cells after a cut one."""
    if pos >= len(code):
        return "it was the last cell"
    if stop:
        return (f"the cells after it were not run (no time left, or {MAX_RESTARTS} fresh "
                "kernels already used)")
    return ("the cells after it ran in a fresh kernel, after the setup cell (what the "
            "cells before it defined was lost)")


def _depth(value) -> int:
    """How deeply ``value`` nests lists and dicts (iteratively: no recursion to exhaust)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            if d > CHANNEL_DEPTH:
                return d
            todo += [(x, d + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return deepest


def _record(line: bytes) -> dict | None:
    """One line of the channel as a record, or None: too long, too deep, not JSON, not
    an object. Nothing a line holds can raise (a 200,000-deep line is refused unread)."""
    if len(line) > CHANNEL_LINE:
        return None
    try:
        rec = json.loads(line.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError, MemoryError):
        return None
    return rec if isinstance(rec, dict) and _depth(rec) <= CHANNEL_DEPTH else None


def read_channel(channel: Path) -> list[dict]:
    """The records the kernel wrote (the last :data:`CHANNEL_CAP` bytes), oldest first;
    lines longer than :data:`CHANNEL_LINE` or deeper than :data:`CHANNEL_DEPTH` skipped."""
    records = []
    try:  # the kernel could have made it a link to another file, or a pipe
        fd = os.open(channel, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return records
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return records
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - CHANNEL_CAP))
        data = fh.read(CHANNEL_CAP)
    for line in data.split(b"\n"):
        rec = _record(line)
        if rec is not None:
            records.append(rec)
    return records
