"""The grader's worker process: ``python -m prayatul_edu.grading.worker``.

It grades notebooks one after another, as the batch sends them: a JSON line
(``name``, ``folder``, ``options``, ``size``) then ``size`` bytes of notebook on
stdin; the report as one JSON line on stdout. It stays alive between notebooks
(starting Python with Jupyter's libraries takes seconds); the batch kills it when a
notebook overruns its time and starts a new one, so whatever happens to a worker
(stopped, killed, stuck), only that notebook's row is affected.
"""
from __future__ import annotations

import json
import sys

from .notebook import Options, grade_source


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout
    while True:
        line = stdin.readline()
        if not line:
            return
        header = json.loads(line)
        size = header.get("size")
        data = stdin.read(size) if size is not None else None
        report = grade_source(header["name"], data, Options.from_json(header["options"]),
                              folder=header.get("folder", ""))
        stdout.write(json.dumps(report.to_dict()) + "\n")
        stdout.flush()


if __name__ == "__main__":
    main()
