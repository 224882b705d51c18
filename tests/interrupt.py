"""Run ``t400`` in a real process and press Ctrl-C on it (SIGINT), as a user would."""

import signal
import subprocess
import sys
import time


def interrupt_t400(args, ready, timeout: float = 240, stdout=None) -> tuple[int, str, str]:
    """Start ``t400 ARGS``, wait until ``ready()`` is true (or ``timeout``), send SIGINT;
    returns (exit status, stdout, stderr). ``stdout``: a path that takes the standard output
    instead (so that ``ready`` can read what was printed so far; the output returned is then
    that file's)."""
    command = [sys.executable, "-c", "import cli; cli.main()", *map(str, args)]
    sink = open(stdout, "w") if stdout is not None else subprocess.PIPE  # noqa: SIM115 - closed below
    try:
        proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
        deadline = time.time() + timeout
        while time.time() < deadline and not ready():
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=timeout)
    finally:
        if stdout is not None:
            sink.close()
    if stdout is not None:
        with open(stdout) as f:
            out = f.read()
    return proc.returncode, out, err
