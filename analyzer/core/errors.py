"""The error types the Python API raises."""


class T400Error(ValueError):
    """Bad input, with a message a player understands (the CLI prints it as ``Error: ...``).

    ``key`` and ``params``: the message's entry in the catalogue (:mod:`analyzer.core.messages`),
    when it has one, so that the page can say it in the reader's language; see :func:`keyed`."""

    exit_code = 2

    def __init__(self, *args, key: str | None = None, params: dict | None = None):
        super().__init__(*args)
        self.key = key
        self.params = dict(params or {})


def keyed(key: str, **params) -> T400Error:
    """A :class:`T400Error` whose English text is the catalogue's ``key`` (one home per message).

    >>> str(keyed("err.bid_range", seat=1, bid=14))
    'seat 1 bid 14: a bid is a number of tricks from 2 to 13'
    """
    from analyzer.core.messages import text

    return T400Error(text(key, **params), key=key, params=params)


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
