"""The ``t400`` command line (the console script and ``python -m cli``): a thin click layer over
the ``analyzer`` API, whose commands live in the :mod:`commands` package.

Every command reports bad input as one line ``Error: ...`` on stderr with exit status 2.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_starting(signum, frame):
    sys.stderr.write("Error: interrupted\n")
    os._exit(130)


# Ctrl-C while the libraries load (a second or so) ends the command like Ctrl-C anywhere else;
# main() then installs the full policy. Not under pytest, whose own Ctrl-C handling stays.
if "pytest" not in sys.modules:
    signal.signal(signal.SIGINT, _interrupted_while_starting)

from commands import cli, main, run_json, to_json  # noqa: E402

__all__ = ["cli", "main", "run_json", "to_json"]

if __name__ == "__main__":
    main()
