"""Grade students' exercise notebooks: ``prayatul-edu grade SUBMISSIONS... --out DIR``.

Each notebook runs top to bottom in a fresh kernel inside a sandbox
(:mod:`.sandbox`: bubblewrap, resource limits, no network, nothing of the grader
visible), driven from a worker process outside it (:mod:`.runner`,
:mod:`.worker`), ``jobs`` notebooks at a time or on a Dask cluster
(:mod:`.batch`). The grader re-checks every answer in its own process against
the variant the instructor assigned (:mod:`.notebook`, :mod:`.identity`); the
exercise comes from the instructor, and the cells are compared with the
published exercise (:mod:`.published`). Who handed in each file comes from where it
was collected (:mod:`.uploader`). It writes grades.csv, grades.json,
feedback/STUDENT.md (:mod:`.report`) and Canvas / Gradescope files
(:mod:`.export`), into a new folder or one replaced whole (:mod:`.output`).
"""
from .batch import VariantMismatch, Worker, default_jobs, grade_batch, grade_isolated
from .export import FORMATS, canvas_csv, gradescope_results
from .identity import read_roster
from .limits import Limits, parse_size
from .notebook import CELL_TIMEOUT, NOTEBOOK_TIMEOUT, SOLUTION_SHOWN, Options, grade_source
from .report import CSV_COLUMNS, NOTEBOOK_ERROR, StudentReport
from .sandbox import SANDBOX_MODES, sandbox_problem

__all__ = ["grade_batch", "grade_isolated", "Worker", "grade_source", "Options", "Limits",
           "StudentReport",
           "NOTEBOOK_ERROR", "CSV_COLUMNS", "CELL_TIMEOUT", "NOTEBOOK_TIMEOUT", "SOLUTION_SHOWN",
           "SANDBOX_MODES", "FORMATS", "sandbox_problem", "default_jobs", "read_roster",
           "parse_size", "canvas_csv", "gradescope_results", "VariantMismatch"]
