"""The grader's worker process: ``python -m prayatul_edu.grading.worker``.

It grades notebooks one after another, as the batch sends them: a JSON line
(``name``, ``folder``, ``options``, ``size``) then ``size`` bytes of notebook on
stdin; the report as one JSON line on stdout. It stays alive between notebooks
(starting Python with Jupyter's libraries takes seconds); the batch kills it when a
notebook overruns its time and starts a new one, so whatever happens to a worker
(stopped, killed, stuck), only that notebook's row is affected. It ends with the grader: the parent-death signal (SIGTERM,
then :data:`STOP_GRACE` seconds to end its kernel and sandbox) when the grader's
process ends, whatever ended it.

Nothing a student sends can end it: whatever grading one notebook raises becomes
that notebook's row. It is started isolated (``python -I``: no current folder, no
user site, no ``PYTHON*`` variables on its path), and as root in a mount namespace
of its own (:func:`.limits.isolated`; ``--own-mounts``) where it mounts the
notebooks' in-memory work folders.
"""
from __future__ import annotations

import json
import signal
import sys

from .limits import die_with_parent
from .notebook import Options, failed_report, grade_source
from .sandbox import may_mount


def _grade(header: dict, data: bytes | None) -> dict:
    options = Options.from_json(header["options"])
    try:
        report = grade_source(header["name"], data, options, folder=header.get("folder", ""))
    except (Exception, RecursionError, MemoryError) as exc:  # one row, never the worker
        report = failed_report(header["name"], options,
                               f"grading failed ({type(exc).__name__})")
    return report.to_dict()


#: Left out of the worker: jsonschema (imported by nbformat) loads every format checker
#: it finds, and rfc3987_syntax builds 39 Earley parsers when imported (known upstream:
#: jsonschema issue 1428) for the "iri" formats, which nbformat's schemas never use and
#: nbformat never checks (it validates without a format checker). Measured here:
#: importing nbformat and nbclient takes 2.3 s of CPU with it, 0.4 s without; a worker
#: is started per batch job, again after every notebook that overran, and per notebook
#: on a Dask cluster.
UNUSED = ("rfc3987_syntax",)


#: Seconds a worker told to stop (SIGTERM) has to end its kernel and remove its work
#: folder and control group; then it is ended (SIGALRM).
STOP_GRACE = 3


def _stop(signum, frame) -> None:
    """SIGTERM (from the batch, or because the batch ended: the parent-death signal):
    unwind, so that the kernel, its sandbox and its control group are ended on the way
    out; :data:`STOP_GRACE` seconds at most."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.alarm(STOP_GRACE)
    raise SystemExit(128 + signum)


def main() -> None:
    for name in UNUSED:              # an import of it now fails, as if not installed
        sys.modules.setdefault(name, None)
    signal.signal(signal.SIGTERM, _stop)
    parent = next((int(a.split("=", 1)[1]) for a in sys.argv[1:]
                   if a.startswith("--parent=")), None)
    die_with_parent(signal.SIGTERM, parent)   # the worker ends with the grader
    may_mount("--own-mounts" in sys.argv[1:])
    stdin, stdout = sys.stdin.buffer, sys.stdout
    while True:
        line = stdin.readline()
        if not line:
            return
        header = json.loads(line)   # from the grader's batch process, not from a student
        size = header.get("size")
        data = stdin.read(size) if size is not None else None
        stdout.write(json.dumps(_grade(header, data)) + "\n")
        stdout.flush()


if __name__ == "__main__":
    main()
