"""The ``prayatul-edu`` command and its subcommands.

One module per subcommand in this package; the library modules contain no
argument parsing. This file only wires them up (and imports them lazily, so
``--help`` is quick):

* ``examples`` - the seed documents' worked examples, step by step
  (:mod:`prayatul_edu.cli.examples`, printing :mod:`prayatul_edu.tutorial`);
* ``compare``  - the Prayatul comparison of clusterings (:mod:`prayatul_edu.cli.compare`,
  on :mod:`prayatul_edu.compare`);
* ``grade``    - grade students' exercise notebooks (:mod:`prayatul_edu.cli.grade`, on
  :mod:`prayatul_edu.grading`);
* ``assign``   - hand out an exercise, one notebook per student, and ``release`` its
  solutions (:mod:`prayatul_edu.cli.assign`, :mod:`prayatul_edu.cli.release`, on
  :mod:`prayatul_edu.grading.handout`);
* ``export``   - a grades folder's files again from grades.json, with corrections and
  late work (:mod:`prayatul_edu.cli.export`), and ``gradebook``, the term's grades in
  one table (:mod:`prayatul_edu.cli.gradebook`);
* ``review``   - the free-text answers on one page, graded into an overrides file
  (:mod:`prayatul_edu.cli.review`), and ``feedback``, each student's feedback delivered
  (:mod:`prayatul_edu.cli.feedback`).

A subcommand module provides ``add_arguments(parser)`` and ``run(args) -> int``.
"""
from __future__ import annotations

import argparse
import importlib
import re
import sys

__all__ = ["main", "SUBCOMMANDS", "DEFAULT", "plain"]

#: name -> (module, one-line help).
SUBCOMMANDS = {
    "examples": ("prayatul_edu.cli.examples",
                 "print the tutorial's and the lecture's worked examples, step by step"),
    "compare": ("prayatul_edu.cli.compare",
                "compare clusterings pair by pair with the Prayatul matrix"),
    "grade": ("prayatul_edu.cli.grade", "grade students' exercise notebooks"),
    "assign": ("prayatul_edu.cli.assign", "hand out an exercise: one notebook per student"),
    "release": ("prayatul_edu.cli.release", "hand out an exercise's solutions"),
    "export": ("prayatul_edu.cli.export", "write a grades folder's files again, with "
               "corrections and late work, from its grades.json"),
    "gradebook": ("prayatul_edu.cli.gradebook", "gather grades folders into one gradebook"),
    "review": ("prayatul_edu.cli.review", "read and grade the free-text answers on one page"),
    "feedback": ("prayatul_edu.cli.feedback", "deliver the feedback: a folder per student "
                 "(and Canvas's re-upload zip)"),
}
#: What runs when no subcommand is given.
DEFAULT = "compare"


def _available():
    out = {}
    for name, (module, help_) in SUBCOMMANDS.items():
        out[name] = (importlib.import_module(module), help_)
    return out


def plain(text: str) -> str:
    """A docstring's reST as ``--help`` prints it: roles and literals as their text
    (``:mod:`~a.b``` -> ``b``, ````x```` -> ``x``)."""
    text = re.sub(r":\w+:`~([^`]*\.)?([^`.]+)`", r"\2", text)
    text = re.sub(r":\w+:`([^`]+)`", r"\1", text)
    return text.replace("``", "")


def _parser(commands) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="prayatul-edu",
        description="Evaluating clustering algorithms, step by step. Without a command, "
                    f"runs '{DEFAULT}'.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, (mod, help_) in commands.items():
        sp = sub.add_parser(name, help=help_, description=plain((mod.__doc__ or help_).strip().split("\n\n")[0]),
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(sp)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    commands = _available()
    parser = _parser(commands)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = [DEFAULT, *argv]
    args = parser.parse_args(argv)
    mod, _ = commands[args.command]
    try:
        return int(mod.run(args) or 0)
    except BrokenPipeError:  # e.g. `prayatul-edu | head`: the reader left, not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
