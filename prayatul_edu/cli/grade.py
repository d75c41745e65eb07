"""Grade students' exercise notebooks, each in a sandbox: grades, feedback and exports.

The command line of :mod:`prayatul_edu.grading`.
"""
from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

from ..exercises.assignment import Policy
from ..exercises.coursekey import read_key, write_key
from ..grading import (CELL_TIMEOUT, FORMATS, NOTEBOOK_TIMEOUT, SANDBOX_MODES, SOLUTION_SHOWN,
                       Limits, Options, default_jobs, grade_batch, parse_size, read_roster,
                       sandbox_problem)
from ..grading.authored import grading_options, is_path
from ..grading.batch import collect
from ..grading.finish import finish
from ..grading.handout import (QUESTIONS_RECORD, describe_changes, key_record_problem,
                               questions_changed, recorded_exercise)
from ..grading.identity import display_name, exercise_name
from ..grading.late import parse_policy, read_due, read_submissions
from ..grading.limits import format_size
from ..grading.overrides import read_overrides
from ..grading.uploader import read_people
from .export import add_late_arguments, print_not_applied

__all__ = ["add_arguments", "run", "EXIT_CODES"]

#: What ``grade``'s exit status says (also in ``grade --help`` and the instructor guide).
EXIT_CODES = """exit status:
  0  every file was graded as the student who handed it in; nothing needs a look
  2  nothing was graded and nothing written: a bad argument (a correction or a
     submission time that does not fit the exercise or the roster too), an --out
     that already holds grades (see --replace), notebooks handed out with another
     variant than the one they would be graded against (a forgotten or wrong
     --course-key; see --grade-mismatched-variants), or questions changed since
     assign handed them out (see --grade-changed-questions)
  3  graded and written, but something needs a look: files nobody was named for
     (unmatched) or conflicts (a file naming another student than its uploader), listed
     on stderr and in grades.json; they are not graded and not exported
  1  the grader itself failed (its traceback says where)"""

_DEFAULT = Limits()


def add_arguments(parser) -> None:
    parser.epilog = EXIT_CODES
    parser.add_argument("submissions", nargs="*", metavar="SUBMISSION",
                        help="students' notebooks (.ipynb) or folders of them (searched at "
                             "any depth)")
    parser.add_argument("--out", metavar="DIR",
                        help="a new or empty folder for grades.csv, grades.json, feedback/ "
                             "and the exports (one holding grades is refused; see --replace)")
    parser.add_argument("--replace", action="store_true",
                        help="--out holds an earlier run: write this run into a fresh folder "
                             "and put it in place of the earlier run's files (none "
                             "survives; files the grader did not write are kept)")
    parser.add_argument("--exercise", metavar="NN_topic",
                        help="the exercise graded (default: from each file's or folder's "
                             "name, e.g. s1234_03_pair_counting.ipynb), or the folder of "
                             "your own (questions.py and solutions.ipynb)")
    who = parser.add_argument_group("identity (set by the instructor, never by the notebook)")
    who.add_argument("--id-from", choices=("filename", "folder"), default="filename",
                     help="filename (default): the uploader is a per-student folder on the "
                          "roster or a Canvas download's name, else the file's name says "
                          "whose it is (s1234_03_pair_counting.ipynb, 'Copy of ... (1)' "
                          "too); folder: the first folder of every path is its uploader")
    who.add_argument("--roster", metavar="FILE",
                     help="CSV with columns file,student (assign's roster.csv): who "
                          "submitted which file (file: a path relative to the folder "
                          "graded, or a base name); its name, email, sis_id, section and "
                          "canvas_id columns fill the exports and match Canvas's names")
    who.add_argument("--variant", choices=("student", "course"), default="student",
                     help="grade each student's own variant (default) or everyone against "
                          "the course's own data")
    who.add_argument("--course-key", metavar="FILE",
                     help="the course key: each student's variant comes from the key and "
                          "the id, so no student can compute another's (see --make-key)")
    who.add_argument("--grade-mismatched-variants", action="store_true",
                     help="grade notebooks that assign handed out with another variant "
                          "than the one they would be graded against (refused without it: "
                          "a forgotten or wrong --course-key grades every student wrong)")
    who.add_argument("--grade-changed-questions", action="store_true",
                     help="grade although questions changed since assign handed them out "
                          "(its questions.json): each changed question is named, with what "
                          "changed and the students it changes (refused without it)")
    who.add_argument("--make-key", metavar="FILE",
                     help="write a new course key to FILE and stop (keep it secret)")
    sand = parser.add_argument_group("sandbox and limits")
    sand.add_argument("--sandbox", choices=SANDBOX_MODES, default="bwrap",
                      help="bwrap (default; Linux with bubblewrap) or none (students' code "
                           "runs with your rights)")
    sand.add_argument("--memory", default=format_size(_DEFAULT.memory), metavar="SIZE",
                      help="memory of a notebook: all its processes together where a "
                           "control group is available (as root), else each process "
                           "(default %(default)s)")
    sand.add_argument("--processes", type=int, default=_DEFAULT.processes, metavar="N",
                      help="processes and threads a notebook may start (default %(default)s)")
    sand.add_argument("--file-size", default=format_size(_DEFAULT.file_size), metavar="SIZE",
                      help="largest file a notebook may write (default %(default)s)")
    sand.add_argument("--disk", default=format_size(_DEFAULT.disk), metavar="SIZE",
                      help="bytes a notebook may write to /tmp, and to its work folder when "
                           "grading as root (default %(default)s)")
    sand.add_argument("--cpu", type=int, default=_DEFAULT.cpu, metavar="S",
                      help="CPU seconds per kernel process (default %(default)s)")
    sand.add_argument("--output-cap", type=int, default=_DEFAULT.output, metavar="CHARS",
                      help="characters of output kept per notebook (default %(default)s)")
    sand.add_argument("--max-notebook", default=format_size(_DEFAULT.notebook), metavar="SIZE",
                      help="largest submission read (default %(default)s)")
    sand.add_argument("--cell-timeout", type=float, default=CELL_TIMEOUT, metavar="S",
                      help="seconds a cell may run (default %(default)s)")
    sand.add_argument("--notebook-timeout", type=float, default=NOTEBOOK_TIMEOUT, metavar="S",
                      help="seconds a notebook may run (default %(default)s)")
    pol = parser.add_argument_group("assignment mode")
    pol.add_argument("--solution-shown", choices=SOLUTION_SHOWN, default="zero",
                     help="a question whose solution or key was shown in the graded run "
                          "gets zero points (default) or keeps them with a flag")
    pol.add_argument("--released", action="store_true",
                     help="the solutions are released (solution() and key() work)")
    pol.add_argument("--attempts-per-hint", type=int, default=Policy().attempts_per_hint,
                     metavar="N", help="checks before each next hint (default %(default)s)")
    run_ = parser.add_argument_group("running and output")
    run_.add_argument("--jobs", type=int, default=None, metavar="N",
                      help=f"notebooks graded at once (default: the cores, {default_jobs()})")
    run_.add_argument("--dask", metavar="SCHEDULER",
                      help="grade on a Dask cluster (address such as tcp://host:8786; "
                           "needs prayatul-edu[dask])")
    run_.add_argument("--format", action="append", choices=FORMATS, dest="formats",
                      help="also write canvas.csv and/or gradescope_scores.csv with "
                           "gradescope/STUDENT/results.json "
                           "(repeatable; grades.csv and grades.json are always written)")
    run_.add_argument("--assignment", metavar="NAME",
                      help="the assignment's column name in canvas.csv (default: the exercise)")
    run_.add_argument("--canvas-questions", action="store_true",
                      help="also canvas_questions.csv: a column per question and no "
                           "total (import it instead of canvas.csv, not beside it)")
    run_.add_argument("--published", metavar="DIR",
                      help="folder of the published exercises (default: exercises/)")
    add_late_arguments(parser)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def run(args) -> int:
    if args.make_key:
        try:
            write_key(args.make_key)
        except (ValueError, OSError) as exc:
            return _fail(str(exc))
        print(f"course key written to {args.make_key}: keep it secret; grade with "
              f"--course-key {args.make_key}", file=sys.stderr)
        return 0
    if not args.submissions:
        return _fail("submissions: give at least one notebook or folder")
    if not args.out:
        return _fail("out: give the folder for the grades (--out DIR)")
    try:
        entries = collect(args.submissions)
    except ValueError as exc:
        return _fail(str(exc))
    if not entries:
        return _fail("submissions: no notebook (*.ipynb) found, at any depth")
    authored = args.exercise if args.exercise and is_path(args.exercise) else None
    if args.exercise and not authored:
        try:
            args.exercise = exercise_name(args.exercise)
        except ValueError as exc:
            return _fail(str(exc))
    for name, value in (("cell-timeout", args.cell_timeout),
                        ("notebook-timeout", args.notebook_timeout),
                        ("output-cap", args.output_cap), ("processes", args.processes),
                        ("cpu", args.cpu), ("jobs", 1 if args.jobs is None else args.jobs),
                        ("attempts-per-hint", args.attempts_per_hint + 1)):
        if value <= 0:
            return _fail(f"{name}: must be positive, got {value}")
    try:
        limits = Limits(memory=parse_size(args.memory, "memory"), processes=args.processes,
                        file_size=parse_size(args.file_size, "file-size"), cpu=args.cpu,
                        disk=parse_size(args.disk, "disk"),
                        output=args.output_cap,
                        notebook=parse_size(args.max_notebook, "max-notebook"))
        roster = read_roster(args.roster) if args.roster else None
        people = read_people(args.roster) if args.roster else None
        key = read_key(args.course_key).hex() if args.course_key else None
    except (ValueError, TypeError) as exc:
        return _fail(str(exc))
    fingerprint = None
    if args.roster and args.variant == "student":   # the key assign recorded (README.md)
        problem, fingerprint = key_record_problem(Path(args.roster).parent,
                                                  bytes.fromhex(key) if key else None)
        if problem and not args.grade_mismatched_variants:
            return _fail(problem + "; nothing was graded (or pass "
                                   "--grade-mismatched-variants)")
    problem = sandbox_problem(args.sandbox)
    if problem:
        return _fail(f"sandbox: {problem}")
    if args.dask:
        try:
            import distributed  # noqa: F401
        except ImportError:
            return _fail("dask: grading on a cluster needs the dask extra: "
                         "pip install 'prayatul-edu[dask]'")
    policy = Policy(released=args.released, attempts_per_hint=args.attempts_per_hint)
    options = Options(exercise=args.exercise, roster=roster, variant=args.variant,
                      cell_timeout=args.cell_timeout, notebook_timeout=args.notebook_timeout,
                      limits=asdict(limits), sandbox=args.sandbox,
                      solution_shown=args.solution_shown, policy=policy.to_json(),
                      course_key=key)
    try:
        if authored:   # the questions from the instructor's copy, never from a notebook
            args.exercise = grading_options(authored, options)
        if args.roster and args.exercise and args.variant == "student":
            changed = questions_changed(Path(args.roster).parent, args.exercise,
                                        bytes.fromhex(key) if key else None)
            if changed and not args.grade_changed_questions:
                return _fail("questions: changed since they were handed out (assign's "
                             f"{QUESTIONS_RECORD}): " + "; ".join(describe_changes(changed))
                             + "; nothing was graded (restore them, or pass "
                               "--grade-changed-questions to grade by the current version)")
            for line in describe_changes(changed or {}):
                print(f"changed since hand-out, graded by the current version: {line}",
                      file=sys.stderr)
        parse_policy(args.late)   # the corrections and late work read before grading
        overrides = read_overrides(args.overrides) if args.overrides else None
        if args.submission_times:   # every time is a student's of the roster, or refused
            read_submissions(args.submission_times, set(roster.values()) | set(people)
                             if roster is not None else None)
        read_due(args.due)
    except (ValueError, OSError) as exc:
        return _fail(str(exc))
    try:
        reports = grade_batch(args.submissions, args.out, options=options, jobs=args.jobs,
                              dask=args.dask, formats=tuple(args.formats or ()),
                              assignment=args.assignment,
                              canvas_questions=args.canvas_questions,
                              published_folder=args.published, people=people,
                              by_folder=args.id_from == "folder", replace=args.replace,
                              grade_mismatched_variants=args.grade_mismatched_variants,
                              key_fingerprint=fingerprint, overrides=overrides,
                              recorded_exercise=(recorded_exercise(Path(args.roster).parent),
                                                 display_name(Path(args.roster).parent
                                                              / "README.md"))
                              if args.roster else None)
        data = finish(args.out, overrides=args.overrides, late=args.late, due=args.due,
               submissions=args.submission_times, formats=tuple(args.formats or ()),
               assignment=args.assignment, canvas_questions=args.canvas_questions,
               missing=args.missing)
    except ValueError as exc:  # e.g. files naming different exercises: nothing graded
        return _fail(str(exc))
    print_not_applied(data)
    bad = sum(1 for r in reports if r.problems)
    print(f"graded {len(reports)} notebook(s), {bad} with problems: {args.out}/grades.csv, "
          "grades.json, feedback/, report.html", file=sys.stderr)
    if args.overrides or args.late:
        print("the totals above are the grader's; grades.csv, grades.json, the feedback and "
              "the exports have the corrections and the late policy applied", file=sys.stderr)
    if reports.needs_a_look:
        print(f"needs a look: {len(reports.unmatched)} unmatched file(s), "
              f"{len(reports.conflicts)} conflict(s), not graded and not exported (listed "
              "above and in grades.json: settings.unmatched, settings.conflicts); exit "
              "status 3", file=sys.stderr)
        return 3
    return 0
