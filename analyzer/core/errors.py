"""The error types the Python API raises."""


class T400Error(ValueError):
    """Bad input, with a message a player understands (the CLI prints it as ``Error: ...``)."""

    exit_code = 2


class ClusterError(T400Error):
    """A Dask scheduler that cannot be reached or started: not bad input (exit status 1)."""

    exit_code = 1


class WriteError(T400Error):
    """A file that cannot be written (a full disk, no permission): not bad input (exit status 1).
    Whatever was half-written is removed before it is raised."""

    exit_code = 1


class Interrupted(Exception):
    """A run stopped by Ctrl-C; the message says what finished work was kept."""

    exit_code = 130
