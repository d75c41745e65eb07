"""A batch of submissions: graded in parallel, always complete, written safely.

Each notebook is graded by its own worker process (:mod:`.worker`), ``jobs`` at a
time, or as a task on a Dask cluster (``dask=SCHEDULER``): the same function
runs there, so the output is the same. A worker that overruns its time is
killed and only that student's row says so. Rows are appended to
``grades.partial.csv`` as students finish (a crash mid-batch keeps them); the
final files are written atomically at the end.

The submission set (:func:`collect`) is every ``*.ipynb`` in the folders given, at
any depth. Each entry is checked before anything reads it: a symbolic link, a
named pipe, a folder named ``*.ipynb`` or anything else that is not a regular file
costs its own row and is never opened; a regular file is opened without following
links and checked again on the open file. One student handing in twice is graded
once: the newest file (its modification time; a tie: the first path in order) is
graded, the others are listed in its problems. Without ``--exercise``, files whose
names name different exercises are refused, not mixed.

Who handed in each file comes from where it was collected (:mod:`.uploader`): a file
nobody is named for is listed (``unmatched``), a file that names another student than
its uploader is a ``conflict``; neither is graded nor exported, and "the newest file"
is chosen among one student's own files only. Before anything is written, each
notebook ``assign`` handed out is checked to carry the variant it would be graded
against (:func:`check_variants`), the instructor's corrections against the exercise's
questions and the roster (``overrides.check_overrides``), and ``out`` is refused if it
holds an earlier run (``grading.output``).
"""
from __future__ import annotations

import json
import os
import selectors
import signal
import stat
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace as replace_fields
from pathlib import Path

from ..exercises import QUESTIONS, TOPICS
from .export import write_exports
from .handout import handed_out_variant, student_variant
from .identity import (display_name, exercise_from_name, exercise_name, exercise_names,
                       exercise_questions, identify, roster_key)
from .limits import Limits, isolated
from .sandbox import enforced_limits
from .notebook import Options, failed_report as _failed
from .output import grader_files, prepare, swap_in
from .overrides import check_overrides
from .published import published_cells
from .report import StudentReport, csv_text, feedback_markdown, json_text, write_atomic
from .uploader import conflict_lines, resolve

__all__ = ["grade_batch", "grade_isolated", "Worker", "default_jobs", "WORKER_MARGIN",
           "STOP_GRACE", "Stopped",
           "collect", "Entry", "feedback_name", "Batch", "check_variants", "VariantMismatch"]

#: Seconds a worker gets beyond the notebook's time limit (kernel start, grading).
WORKER_MARGIN = 90
#: Seconds a worker has to end its kernel and sandbox when the batch is stopped
#: (SIGTERM or SIGINT of ``grade``) before its process group is killed.
STOP_GRACE = 4


def default_jobs() -> int:
    """How many notebooks ``prayatul-edu grade`` grades at once unless ``--jobs`` says:
    one per core this process may run on.

    Examples
    --------
    >>> from prayatul_edu.grading import default_jobs
    >>> default_jobs() >= 1
    True
    """
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
        self.proc, self.stopped = None, False
        self._lock = threading.Lock()

    def _start(self) -> None:
        # -I: nothing of the current folder, HOME or PYTHON* variables on its path
        self.proc = subprocess.Popen(isolated([sys.executable, "-I", "-m",
                                               "prayatul_edu.grading.worker",
                                               f"--parent={os.getpid()}"]),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)

    def grade(self, name: str, data: bytes | None, options: dict, folder: str = "") -> dict:
        opts = Options.from_json(options)
        limit = opts.notebook_timeout + self.margin
        with self._lock:   # never a new worker once the batch is stopping
            if self.stopped:
                return _failed(name, opts, "grading was stopped").to_dict()
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

    def stop(self, grace: float = STOP_GRACE) -> None:
        """End the worker for good (the batch was stopped): SIGTERM, so that it ends its
        kernel and sandbox, then after ``grace`` seconds its whole process group."""
        with self._lock:
            self.stopped = True
            proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                proc.terminate()
                proc.wait(grace)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.close()

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
    a dict. (The unit of work of a Dask task.)

    Examples
    --------
    >>> from prayatul_edu.grading import Options, grade_isolated
    >>> options = Options(exercise="01_matching", sandbox="none").to_json()
    >>> report = grade_isolated("s1001_01_matching.ipynb", b"not a notebook", options)
    >>> report["student"], report["total"]
    ('s1001', 0.0)
    """
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


@dataclass
class Entry:
    """One entry of the submission set: ``path`` as found, ``name`` its path relative to
    the folder graded (``folder``; a file given by itself: its base name), ``odd`` why it
    is not read (None: a regular file) and its modification time (not followed)."""

    path: Path
    name: str
    folder: str
    odd: str | None = None
    mtime: float = 0.0


def _kind(mode: int) -> str | None:
    """None for a regular file, else what it is."""
    if stat.S_ISREG(mode):
        return None
    return ("a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a named pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "not a regular file")


def _entry(path: Path, name: str, folder: str) -> Entry:
    st = os.lstat(path)
    return Entry(path, name, folder, _kind(st.st_mode), st.st_mtime)


def collect(items) -> list[Entry]:
    """The submission set of ``items`` (notebooks and folders): every ``*.ipynb`` in a
    folder at any depth (not following links; ``.ipynb_checkpoints`` skipped), in path
    order. Entries are looked at (``lstat``), never read. ValueError naming the items
    that do not exist."""
    entries, missing = [], []
    for item in items:
        top = Path(item)
        if not os.path.lexists(top):
            missing.append(str(item))
        elif top.is_dir() and not top.name.endswith(".ipynb"):  # a folder the instructor named
            for here, dirs, files in os.walk(top):
                dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
                for d in [d for d in dirs if d.endswith(".ipynb")]:
                    dirs.remove(d)  # a folder named like a notebook: an entry, not searched
                    files.append(d)
                for f in sorted(files):
                    if f.endswith(".ipynb"):
                        path = Path(here) / f
                        entries.append(_entry(path, path.relative_to(top).as_posix(),
                                              str(top)))
        else:
            entries.append(_entry(top, top.name, str(top.parent)))
    if missing:
        raise ValueError(f"submissions: not found: {', '.join(missing)}")
    return entries


def _read(entry: Entry, limits: Limits) -> tuple[bytes | None, str | None]:
    """(the file's bytes, None); (None, None) when it is larger than the limit; (None,
    why) when it is not read at all. Opened without following a link and checked on the
    open file (it may have changed since it was listed)."""
    if entry.odd:
        return None, entry.odd
    try:
        fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return None, ("a symbolic link" if os.path.islink(entry.path)
                      else f"it could not be opened ({type(exc).__name__})")
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        odd = _kind(st.st_mode)
        if odd:
            return None, odd
        if st.st_size > limits.notebook:
            return None, None
        return fh.read(limits.notebook + 1), None


def feedback_name(r: StudentReport) -> str:
    """``STUDENT_EXERCISE.md``: one file per student and exercise."""
    return f"{r.student}_{r.exercise or 'no-exercise'}.md"


def _resolve_duplicates(entries, options: Options):
    """(entries to grade, {index graded: [names not graded]}): one entry per student and
    exercise; a regular file before an odd entry, then the newest, then path order."""
    groups: dict[tuple, list[int]] = {}
    for k, e in enumerate(entries):
        ident = identify(e.name, exercise=options.exercise, roster=options.roster,
                         folder=e.folder, variant=options.variant)
        groups.setdefault((ident.student, ident.exercise), []).append(k)
    keep, dropped = [], {}
    for ks in groups.values():
        ks = sorted(ks, key=lambda k: (entries[k].odd is not None, -entries[k].mtime, k))
        keep.append(ks[0])
        if len(ks) > 1:
            dropped[ks[0]] = [entries[k].name for k in ks[1:]]
    return sorted(keep), dropped


def _exercises_named(entries) -> dict[str, int]:
    named: dict[str, int] = {}
    for e in entries:
        ex = exercise_from_name(Path(e.folder) / e.name)
        if ex:
            named[ex] = named.get(ex, 0) + 1
    return named


def _check_exercise(named: dict[str, int], given: str | None, recorded) -> None:
    """ValueError when the files name exercises but none the exercise ``given``, or the
    exercise graded is not the one ``assign`` recorded (``(name, where)``): the folder
    of another assignment, graded 0 for every student."""
    def files() -> str:
        return ", ".join(f"{ex} ({n} file(s))" for ex, n in sorted(named.items()))
    try:
        given = exercise_name(given) if given else None     # "03" -> "03_pair_counting"
    except ValueError:
        pass
    if given and named and given not in named:
        raise ValueError(f"exercise: the files name {files()}, none {given} (--exercise): "
                         "the folder of another exercise? nothing was graded; grade that "
                         "exercise's folder, or give its --exercise")
    graded = given or (next(iter(named)) if len(named) == 1 else None)
    if recorded and recorded[0] and graded and graded != recorded[0]:
        what = f"--exercise is {given}" if given else f"the files are {files()}"
        raise ValueError(f"exercise: the roster's assignment is {recorded[0]} (recorded in "
                         f"{recorded[1]}), but {what}; nothing was graded: grade that "
                         "assignment's folder with its own roster")


class VariantMismatch(ValueError):
    """Notebooks ``assign`` handed out with another variant than the one they would be
    graded against (a forgotten or wrong course key, a token pasted from another
    notebook); nothing was graded."""


def check_variants(entries, options: Options, limits: Limits) -> list[dict]:
    """(file, student, handed out, graded against) of every entry whose notebook carries a
    handed-out variant (:func:`~.handout.handed_out_variant`) other than the one it
    would be graded against; a notebook without one (not from ``assign``, unreadable) is
    not compared. Graded on the course's data (``variant="course"``), every handed-out
    notebook differs: ``assign`` hands out each student's own variant."""
    key = bytes.fromhex(options.course_key) if options.course_key else None
    found = []
    for e in entries:
        data, odd = _read(e, limits)
        if data is None or odd:
            continue
        try:
            handed = handed_out_variant(json.loads(data.decode("utf-8", errors="replace")))
        except Exception:   # any unreadable file is the grader's to report, not this check's
            continue
        ident = identify(e.name, exercise=options.exercise, roster=options.roster,
                         folder=e.folder, variant=options.variant)
        if handed is None or not ident.ok:
            continue
        graded = ("course" if options.variant == "course"
                  else student_variant(key, ident.student))
        if handed != graded:
            found.append({"file": display_name(e.name), "student": ident.student,
                          "handed_out": display_name(handed, 20), "graded": graded})
    return found


def _mismatch_message(found: list[dict], total: int, options: Options,
                      fingerprint: str | None) -> str:
    course = options.variant == "course"
    shown = "; ".join(f"{m['student']} ({m['file']}): handed out with variant "
                      f"{m['handed_out'][:8]}..., graded against "
                      + ("the course's data" if course else f"{m['graded'][:8]}...")
                      for m in found[:3]) + ("; ..." if len(found) > 3 else "")
    recorded = (f"the course key of SHA-256 fingerprint {fingerprint} (what assign "
                "recorded in the assignment's README.md)" if fingerprint else
                "the course key assign used (its fingerprint is in the assignment's "
                "README.md)")
    if course:
        how = (f"{len(found)} of {total}: --variant course grades against the course's "
               "data, but assign handed out each student's own variant; grade without "
               "--variant course")
    elif len(found) == total:
        why = ("no --course-key was given" if options.course_key is None
               else "the --course-key given is not the one assign used")
        how = f"every one: {why}; grade with --course-key FILE, {recorded}"
    else:
        how = (f"{len(found)} of {total}: the others match, so the key is right; these "
               "notebooks carry a variant that is not their student's (a token pasted from "
               "another notebook, or a file handed in under another name)")
    return (f"course-key: {len(found)} notebook(s) were handed out with another variant "
            f"than the one they would be graded against ({shown}). That is {how}. Nothing "
            "was graded. To grade them anyway, against the variant of the student each "
            "file belongs to, pass --grade-mismatched-variants")


class Batch(list):
    """The reports of a batch (a list), with what needs the instructor's look:
    ``unmatched`` (files nobody was named for), ``conflicts`` (see
    :mod:`.uploader`), ``mismatched`` (variants graded with
    ``grade_mismatched_variants``) and ``files`` (every file written, relative to
    ``out``)."""

    def __init__(self, reports=(), *, unmatched=(), conflicts=(), mismatched=(), files=()):
        super().__init__(reports)
        self.unmatched, self.conflicts = list(unmatched), list(conflicts)
        self.mismatched, self.files = list(mismatched), list(files)

    @property
    def needs_a_look(self) -> bool:
        return bool(self.unmatched or self.conflicts)


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


def _options(entries, options: Options, folder) -> Options:
    """``options`` with the published cells of every exercise in the batch."""
    exercises = {exercise_name(options.exercise)} if options.exercise else set(
        _exercises_named(entries))
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
                published_folder=None, people: dict | None = None, by_folder: bool = False,
                replace: bool = False, grade_mismatched_variants: bool = False,
                key_fingerprint: str | None = None, recorded_exercise: tuple | None = None,
                overrides: list | None = None, **kw) -> Batch:
    """Grade every notebook in ``paths`` (notebooks and folders, see :func:`collect`); write
    grades.csv, grades.json, feedback/ and the exports in ``out``. ``kw`` set fields of
    :class:`~.notebook.Options`; ``published_folder``: where the published exercises are
    (default: ``exercises/``); ``people``: student -> ``uploader.Person`` (who is
    who, for the uploaders and the exports); ``by_folder``: the first folder of each path
    names its uploader; ``replace``: an ``out`` holding an earlier run has that run's
    files replaced, the instructor's kept (``grading.output``);
    ``grade_mismatched_variants``: grade notebooks handed out with another variant
    anyway; ``key_fingerprint``: what ``assign`` recorded of the course
    key (for the message); ``recorded_exercise``: the exercise ``assign`` recorded
    (``(name, where)``); ``overrides``: the instructor's corrections
    (``overrides.read_overrides``), checked here and applied afterwards by ``finish``.
    ValueError (nothing graded, nothing written) when a path does not exist, when a
    correction names a question the exercise does not have, a student not on the roster
    (without one: not in the batch) or more points than the question's, when, without
    an exercise given, the files name different exercises, when they name none of the
    exercise given or another than the one recorded, when ``out`` holds grades (without
    ``replace``), other files only, or a file of the instructor's inside the grader's
    folders, or (``VariantMismatch``) when a handed-out notebook carries another variant
    than the one it would be graded against.

    Examples
    --------
    One file that is not a notebook, graded without a sandbox (a real batch runs the
    notebooks in ``bwrap``, the default):

    >>> import pathlib, tempfile
    >>> from prayatul_edu.grading import grade_batch
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "s1001_01_matching.ipynb").write_text("not a notebook")
    >>> batch = grade_batch([folder / "s1001_01_matching.ipynb"], folder / "out",
    ...                     exercise="01_matching", sandbox="none", jobs=1, progress=False)
    >>> [(r.student, r.total) for r in batch]
    [('s1001', 0.0)]
    >>> for name in sorted(pathlib.PurePath(f).as_posix() for f in batch.files):
    ...     print(name)
    canvas.csv
    feedback/s1001_01_matching.md
    grades.csv
    grades.json
    gradescope/s1001/results.json
    gradescope_scores.csv
    """
    options = options or Options(**kw)
    found = collect(paths)
    named = _exercises_named(found)
    if not options.exercise and len(named) > 1:
        raise ValueError("submissions: the files name different exercises ("
                         + ", ".join(f"{ex}: {n} file(s)" for ex, n in sorted(named.items()))
                         + "); grade one exercise at a time (--exercise, or one folder each)")
    _check_exercise(named, options.exercise, recorded_exercise)
    if not options.exercise:   # one exercise per batch: a file not naming it answers it too
        recorded = (recorded_exercise or (None,))[0]
        one = next(iter(named)) if len(named) == 1 else (
            recorded if recorded in exercise_names() else None)
        if one is None:
            raise ValueError("exercise: no file's name says which exercise it answers (e.g. "
                             "s1234_03_pair_counting.ipynb); give --exercise")
        options = replace_fields(options, exercise=one)
    options = _options(found, options, published_folder)
    roster_given = options.roster is not None
    who = resolve([e.name for e in found], roster=options.roster, people=people,
                  exercise=options.exercise, by_folder=by_folder)
    if overrides:   # the corrections fit this exercise and class, or nothing is graded
        known = (set(options.roster.values()) | set(people or ()) if roster_given
                 else set(who.student.values()))
        check_overrides(overrides, {q: QUESTIONS[q].points for q in
                                    exercise_questions(options.exercise) if q in QUESTIONS},
                        known)
    options = replace_fields(options, roster={roster_key(found[k].name): s
                                              for k, s in who.student.items()})
    found = [found[k] for k in sorted(who.student)]
    keep, dropped = _resolve_duplicates(found, options)
    entries = [found[k] for k in keep]
    dropped = {keep.index(k): names for k, names in dropped.items()}
    limits = Limits(**options.limits)
    mismatched = {m["file"]: m for m in check_variants(entries, options, limits)}
    if mismatched and not grade_mismatched_variants:
        raise VariantMismatch(_mismatch_message(list(mismatched.values()), len(entries),
                                                options, key_fingerprint))
    target, out = prepare(out, replace)
    jobs = jobs or default_jobs()
    stream = sys.stderr if progress is True else (progress or None)
    if stream:                           # what holds for every notebook of this batch
        for line in enforced_limits(options.sandbox, limits):
            print(f"limits: {line}", file=stream, flush=True)
    matches = who.counts()
    if stream and (roster_given or matches["name"] != len(who.student)
                   or who.unmatched or who.conflicts):
        print(f"who handed in what: {matches['folder']} file(s) by their folder, "
              f"{matches['canvas']} by their Canvas name, {matches['path']} by the roster's "
              f"path, {matches['name']} by their name; {matches['unmatched']} unmatched, "
              f"{matches['conflicts']} conflict(s)", file=stream, flush=True)
        for line in conflict_lines(who):
            print(line, file=stream, flush=True)
    if stream and dropped:
        print(f"duplicates: {sum(map(len, dropped.values()))} older submission(s) not graded "
              "(the newest file of each student is graded; see their problems)", file=stream,
              flush=True)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    partial = out / "grades.partial.csv"
    partial.write_text(csv_text([]), encoding="utf-8")
    meter = _Progress(stream, len(entries))
    reports: dict[int, StudentReport] = {}
    lock = threading.Lock()

    def finish(k: int, result: dict) -> None:
        r = StudentReport.from_dict(result)
        r.problems += [f"also handed in: {display_name(n)} (older, or not a regular file; "
                       "not graded: the newest file counts)" for n in dropped.get(k, [])]
        m = mismatched.get(display_name(entries[k].name))
        if m:
            r.problems.append(f"handed out with variant {m['handed_out']}, graded against "
                              f"{m['graded']} (--grade-mismatched-variants)")
        with lock:
            reports[k] = r
            write_atomic(out / "feedback" / feedback_name(r), feedback_markdown(r))
            with open(partial, "a", encoding="utf-8", newline="") as fh:
                fh.write(csv_text([r]).split("\n", 1)[1])
                fh.flush()
        meter.line(r)

    def unread(e: Entry, why: str) -> dict:
        return _failed(e.name, options, f"the entry is {why}; it was not read",
                       e.folder).to_dict()

    def grade_one(e: Entry, worker: "Worker") -> dict:
        data, odd = _read(e, limits)
        if odd:
            return unread(e, odd)
        return worker.grade(e.name, data, options.to_json(), e.folder)

    if dask:
        todo = []
        for k, e in enumerate(entries):
            data, odd = _read(e, limits)
            if odd:
                finish(k, unread(e, odd))
            else:
                todo.append((k, (e.name, data, options.to_json(), e.folder)))
        _run_dask(dask, todo, finish)
    else:
        try:
            with _stopped_by_signals():
                _run_local(entries, jobs, grade_one, finish, options)
        except Stopped as stop:
            if stream:
                print(f"grading stopped ({signal.Signals(stop.signum).name}): {meter.done} of "
                      f"{len(entries)} notebook(s) graded, listed in {partial}; every "
                      "worker and sandbox was ended", file=stream, flush=True)
            stop.deliver()
    ordered = [reports[k] for k in sorted(reports)]
    write_atomic(out / "grades.csv", csv_text(ordered))
    settings = {"sandbox": options.sandbox, "course_key": options.course_key is not None,
                "solution_shown": options.solution_shown,
                "variant": options.variant, "cell_timeout": options.cell_timeout,
                "notebook_timeout": options.notebook_timeout, "limits": options.limits,
                "exercise": options.exercise, "roster_matched": matches,
                "questions": options.authored,   # an instructor's module: review reads it
                "not_graded": {entries[k].name: names for k, names in sorted(dropped.items())},
                "unmatched": who.unmatched, "conflicts": who.conflicts,
                "mismatched_variants": list(mismatched.values()),
                "enforced": enforced_limits(options.sandbox, limits),
                # the roster's names (every student's: `export` fills the same columns,
                # and lists the students of the roster who handed in nothing as missing)
                "people": {sid: asdict(p) for sid, p in (people or {}).items()},
                "roster": list(people or ())}
    write_exports(ordered, out, formats, assignment=assignment,
                  canvas_questions=canvas_questions, people=people)
    partial.unlink(missing_ok=True)
    settings["files"] = sorted(grader_files(out) + ["grades.json"])
    write_atomic(out / "grades.json", json_text(ordered, options.tolerance(), settings))
    swap_in(out, target)
    return Batch(ordered, unmatched=who.unmatched, conflicts=who.conflicts,
                 mismatched=mismatched.values(), files=settings["files"])


class Stopped(BaseException):
    """The batch was stopped by signal ``signum`` (SIGTERM or SIGINT)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    def deliver(self) -> None:
        """End as the signal would have without the grader's handler: SIGINT raises
        KeyboardInterrupt; SIGTERM ends the process (exit status 143)."""
        if self.signum == signal.SIGINT:
            raise KeyboardInterrupt
        signal.signal(self.signum, signal.SIG_DFL)
        os.kill(os.getpid(), self.signum)
        raise SystemExit(128 + self.signum)


class _stopped_by_signals:
    """SIGTERM and SIGINT raise :class:`Stopped` in the main thread while grading (where
    the batch runs in the main thread; elsewhere nothing changes)."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __enter__(self):
        self.before = {}
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                self.before[signum] = signal.signal(signum, self._raise)
        return self

    @staticmethod
    def _raise(signum, frame):
        for s in _stopped_by_signals.SIGNALS:   # one stop; the next signal waits for it
            signal.signal(s, signal.SIG_IGN)
        raise Stopped(signum)

    def __exit__(self, *exc):
        for signum, handler in self.before.items():
            signal.signal(signum, handler)


def _run_local(entries, jobs: int, grade_one, finish, options: Options) -> None:
    """Grade ``entries`` with ``jobs`` workers (:class:`Worker`, one per thread). Whatever
    stops the batch (:class:`Stopped`, an error), no new worker starts and every worker
    is ended, with its kernel and sandbox, within :data:`STOP_GRACE` seconds."""
    local, workers, started = threading.local(), [], threading.Lock()
    stopping = threading.Event()

    def grade(e: Entry) -> dict:
        if not hasattr(local, "worker"):
            with started:
                local.worker = Worker()
                local.worker.stopped = stopping.is_set()
                workers.append(local.worker)
        return grade_one(e, local.worker)

    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(grade, e): k for k, e in enumerate(entries)}
        for fut in as_completed(futures):
            k = futures[fut]
            try:
                result = fut.result()
            except Exception as exc:  # the batch goes on whatever happens to one
                result = _failed(entries[k].name, options,
                                 f"grading failed ({type(exc).__name__})",
                                 entries[k].folder).to_dict()
            finish(k, result)
    except BaseException:
        with started:
            stopping.set()
            running = list(workers)
        pool.shutdown(wait=False, cancel_futures=True)
        enders = [threading.Thread(target=w.stop) for w in running]
        for t in enders:
            t.start()
        for t in enders:
            t.join()
        raise
    finally:
        pool.shutdown(wait=True)
        for worker in workers:
            worker.close()


def _run_dask(scheduler: str, todo, finish) -> None:
    """Grade ``todo`` ((index, grade_isolated's arguments) pairs) on the cluster."""
    from distributed import Client, as_completed as dask_completed

    if not todo:
        return
    args = dict(todo)
    with Client(scheduler) as client:
        futures = {}
        for k, a in todo:
            fut = client.submit(grade_isolated, *a, pure=False)
            futures[fut] = k
        for fut in dask_completed(futures):
            k = futures[fut]
            try:
                result = fut.result()
            except Exception as exc:  # a lost worker loses one row, not the batch
                result = _failed(args[k][0], Options.from_json(args[k][2]),
                                 f"grading failed on the cluster ({type(exc).__name__})",
                                 args[k][3]).to_dict()
            finish(k, result)

