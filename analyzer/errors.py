"""The one error type the Python API raises for bad input."""


class T400Error(ValueError):
    """Bad input, with a message a player understands (the CLI prints it as ``Error: ...``)."""
