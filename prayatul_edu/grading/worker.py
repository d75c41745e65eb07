"""One notebook graded in its own process: ``python -m prayatul_edu.grading.worker``.

Reads a JSON line (``name``, ``folder``, ``options``, ``size``) then the notebook's
bytes on stdin, and writes the report as JSON on stdout. The batch starts one per
notebook and kills it when it overruns: whatever happens to this process (stopped,
killed, stuck), only that notebook's row is affected.
"""
from __future__ import annotations

import json
import sys

from .notebook import Options, grade_source


def main() -> None:
    header = json.loads(sys.stdin.buffer.readline())
    data = sys.stdin.buffer.read() if header.get("size") is not None else None
    report = grade_source(header["name"], data, Options.from_json(header["options"]),
                          folder=header.get("folder", ""))
    sys.stdout.write(json.dumps(report.to_dict()))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
