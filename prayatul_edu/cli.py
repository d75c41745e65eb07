"""The ``prayatul-edu`` command.

``prayatul-edu`` (or ``prayatul-edu examples``) prints the seed documents'
worked examples, each computed step by step by the library.
"""
from __future__ import annotations

import argparse
import sys

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="prayatul-edu",
        description="Evaluating clustering algorithms, step by step. "
                    "Run without a command to see the course's worked examples.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("examples", help="print the tutorial's and the lecture's worked "
                                    "examples, computed step by step (the default)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "examples"
    if command == "examples":
        from .tutorial import print_worked_examples

        print_worked_examples()
        return 0
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
