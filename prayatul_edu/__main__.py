"""``python -m prayatul_edu``: the same as the ``prayatul-edu`` command."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
