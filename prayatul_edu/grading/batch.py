"""A batch of submissions: graded in parallel, always complete, written safely.

Each notebook is graded by its own worker process (:mod:`.worker`), ``jobs`` at a
time, or as a task on a Dask cluster (``dask=SCHEDULER``): the same function
runs there, so the output is the same. A worker that overruns its time is
killed and only that student's row says so. Rows are appended to
``grades.partial.csv`` as students finish (a crash mid-batch keeps them); the
final files are written atomically at the end.
"""
from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from ..exercises import TOPICS
from .export import write_exports
from .identity import exercise_from_name, exercise_name
from .limits import Limits, isolated
from .sandbox import enforced_limits
from .notebook import Options, failed_report as _failed
from .published import published_cells
from .report import StudentReport, csv_text, feedback_markdown, json_text, write_atomic

__all__ = ["grade_batch", "grade_isolated", "Worker", "default_jobs", "WORKER_MARGIN"]

#: Seconds a worker gets beyond the notebook's time limit (kernel start, grading).
WORKER_MARGIN = 90


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class Worker:
    """A worker process (:mod:`.worker`) that grades notebooks one after another; killed
    and replaced when a notebook overruns its time."""

    #: seconds a notebook may take beyond its time limit (kernel start, grading)
    margin = WORKER_MARGIN

    def __init__(self):
        self.proc = None

    def _start(self) -> None:
        # -I: nothing of the current folder, HOME or PYTHON* variables on its path
        self.proc = subprocess.Popen(isolated([sys.executable, "-I", "-m",
                                               "prayatul_edu.grading.worker"]),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)

    def grade(self, name: str, data: bytes | None, options: dict, folder: str = "") -> dict:
        opts = Options.from_json(options)
        limit = opts.notebook_timeout + self.margin
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        header = json.dumps({"name": name, "folder": folder, "options": options,
                             "size": None if data is None else len(data)}).encode() + b"\n"
        try:
            self.proc.stdin.write(header + (data or b""))
            self.proc.stdin.flush()
            line = self._readline(limit)
        except OSError:
            line = None
        if line is None:
            self.close()
            return _failed(name, opts, f"grading did not finish within {limit:g} s, or the "
                                       "grader's worker was stopped; it was ended").to_dict()
        try:
            return json.loads(line)
        except ValueError:
            self.close()
            return _failed(name, opts, "grading failed (the grader's worker ended)").to_dict()

    def _readline(self, limit: float) -> bytes | None:
        """One line from the worker within ``limit`` seconds, else None."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + limit
        chunks = []
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    return b"".join(chunks)

    def close(self) -> None:
        if self.proc is not None:
            _kill(self.proc)
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.proc = None


def grade_isolated(name: str, data: bytes | None, options: dict, folder: str = "") -> dict:
    """Grade one notebook in a fresh worker process, killed if it overruns; the report as
    a dict. (The unit of work of a Dask task.)"""
    worker = Worker()
    try:
        return worker.grade(name, data, options, folder)
    finally:
        worker.close()


def _kill(proc) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.wait()


def _read(path: Path, limits: Limits) -> bytes | None:
    """The file's bytes, or None when it is larger than the limit (not read)."""
    try:
        if path.stat().st_size > limits.notebook:
            return None
        with open(path, "rb") as fh:
            return fh.read(limits.notebook + 1)
    except OSError:
        return b""


class _Progress:
    def __init__(self, stream, total: int):
        self.stream, self.total, self.done = stream, total, 0
        self.start = time.monotonic()
        self.lock = threading.Lock()

    def line(self, r: StudentReport) -> None:
        with self.lock:
            self.done += 1
            if not self.stream:
                return
            elapsed = time.monotonic() - self.start
            left = elapsed / self.done * (self.total - self.done)
            flag = f", {len(r.problems)} problem(s)" if r.problems else ""
            eta = f"ETA {int(left) // 60}:{int(left) % 60:02d}" if self.done < self.total \
                else f"done in {elapsed:.0f} s"
            print(f"[{self.done}/{self.total}] {r.file}: {r.student} {r.total:g}/"
                  f"{r.max_total:g}{flag} ({r.seconds:.1f} s) {eta}", file=self.stream,
                  flush=True)


def _options(paths, options: Options, folder) -> Options:
    """``options`` with the published cells of every exercise in the batch."""
    exercises = {exercise_name(options.exercise)} if options.exercise else {
        exercise_from_name(p) for p in paths} - {None}
    published = dict(options.published)
    for ex in exercises:
        if ex not in published and ex in {f"{k}_{v}" for k, v in TOPICS.items()}:
            published[ex] = {k: list(v) for k, v in
                             published_cells(ex, folder).items()}
    options.published = published
    return options


def grade_batch(paths, out, *, options: Options | None = None, jobs: int | None = None,
                dask: str | None = None, progress=True, formats=("canvas", "gradescope"),
                assignment: str | None = None, canvas_questions: bool = False,
                published_folder=None, **kw) -> list[StudentReport]:
    """Grade every notebook in ``paths``; write grades.csv, grades.json, feedback/ and the
    exports in ``out``. ``kw`` set fields of :class:`~.notebook.Options`;
    ``published_folder``: where the published exercises are (default: ``exercises/``)."""
    paths = [Path(p) for p in paths]
    options = _options(paths, options or Options(**kw), published_folder)
    limits = Limits(**options.limits)
    jobs = jobs or default_jobs()
    stream = sys.stderr if progress is True else (progress or None)
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    partial = out / "grades.partial.csv"
    partial.write_text(csv_text([]), encoding="utf-8")
    meter = _Progress(stream, len(paths))
    reports: dict[int, StudentReport] = {}
    used: set[str] = set()
    lock = threading.Lock()

    def finish(k: int, result: dict) -> None:
        r = StudentReport.from_dict(result)
        with lock:
            reports[k] = r
            name = r.student
            while name in used:
                name += "_"
            used.add(name)
            write_atomic(out / "feedback" / f"{name}.md", feedback_markdown(r))
            with open(partial, "a", encoding="utf-8", newline="") as fh:
                fh.write(csv_text([r]).split("\n", 1)[1])
                fh.flush()
        meter.line(r)

    jobs_args = [(p.name, _read(p, limits), options.to_json(), str(p.parent)) for p in paths] \
        if dask else None
    if dask:
        _run_dask(dask, jobs_args, finish)
    else:
        local, workers = threading.local(), []

        def grade(p: Path) -> dict:
            if not hasattr(local, "worker"):
                local.worker = Worker()
                workers.append(local.worker)
            return local.worker.grade(p.name, _read(p, limits), options.to_json(),
                                      str(p.parent))

        try:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(grade, p): k for k, p in enumerate(paths)}
                for fut in as_completed(futures):
                    k = futures[fut]
                    try:
                        result = fut.result()
                    except Exception as exc:  # the batch goes on whatever happens to one
                        result = _failed(paths[k].name, options,
                                         f"grading failed ({type(exc).__name__})").to_dict()
                    finish(k, result)
        finally:
            for worker in workers:
                worker.close()
    ordered = [reports[k] for k in sorted(reports)]
    write_atomic(out / "grades.csv", csv_text(ordered))
    settings = {"sandbox": options.sandbox, "course_key": options.course_key is not None,
                "solution_shown": options.solution_shown,
                "variant": options.variant, "cell_timeout": options.cell_timeout,
                "notebook_timeout": options.notebook_timeout, "limits": options.limits,
                "exercise": options.exercise,
                "enforced": enforced_limits(options.sandbox, limits)}
    write_atomic(out / "grades.json", json_text(ordered, options.tolerance(), settings))
    write_exports(ordered, out, formats, assignment=assignment,
                  canvas_questions=canvas_questions)
    partial.unlink(missing_ok=True)
    return ordered


def _run_dask(scheduler: str, args, finish) -> None:
    from distributed import Client, as_completed as dask_completed

    with Client(scheduler) as client:
        futures = {}
        for k, a in enumerate(args):
            fut = client.submit(grade_isolated, *a, pure=False)
            futures[fut] = k
        for fut in dask_completed(futures):
            k = futures[fut]
            try:
                result = fut.result()
            except Exception as exc:  # a lost worker loses one row, not the batch
                result = _failed(args[k][0], Options.from_json(args[k][2]),
                                 f"grading failed on the cluster ({type(exc).__name__})"
                                 ).to_dict()
            finish(k, result)

