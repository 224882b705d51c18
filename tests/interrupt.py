"""Run ``t400`` in a real process and press Ctrl-C on it (SIGINT), as a user would."""

import signal
import subprocess
import sys
import time


def interrupt_t400(args, ready, timeout: float = 240) -> tuple[int, str, str]:
    """Start ``t400 ARGS``, wait until ``ready()`` is true (or ``timeout``), send SIGINT;
    returns (exit status, stdout, stderr)."""
    command = [sys.executable, "-c", "import cli; cli.main()", *map(str, args)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    deadline = time.time() + timeout
    while time.time() < deadline and not ready():
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err
