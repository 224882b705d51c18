"""Helpers the test files share."""

from click.testing import CliRunner

from cli import cli


def run(*args, input=None):
    """``t400 ARGS`` as a user types it, in this process (click's runner): the result holds the
    exit code, stdout and stderr apart. Arguments may be numbers or paths."""
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def page_app(**options):
    """The app of ``t400 serve`` over this CLI's commands (``options`` as :func:`web.app.create_app`)."""
    from commands.base import error_line, run_json
    from web.app import Api, create_app

    return create_app(Api(cli.commands, run_json, error_line), **options)
