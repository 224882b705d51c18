"""The Starlette app of ``t400 serve``: the page, its static files and the JSON API.

``POST /api/bid``, ``/api/review``, ``/api/score``, ``/api/rules``: the body is a JSON object whose keys are the
command's option names with dashes as underscores (``{"hand": "AKQ5.KJ4.T93.862", "seat": 2,
"scores": [0, 5, 0, 0], "bids": [3], "seed": 7}``; lists for comma lists, ``true``/``false`` for
switches), and the answer is exactly ``t400 COMMAND ... --json``'s object for the same arguments.
Bad input: HTTP 400 ``{"error": "Error: ..."}`` with the line the CLI prints; a full queue: 503;
an unknown path or method: 404 or 405, also as one JSON error line. What reaches the endpoints at
all (this server's Host and Origin, JSON bodies of a bounded size) is :mod:`web.guard`'s to say.
``POST /api/hand`` reads a hand in any notation the CLI accepts (for the card picker);
``GET /api/status`` tells what the kernel worker is doing (the page's progress bar);
``GET /api/messages`` is the message catalogue the page speaks from (English and Arabic). An
error whose message is in the catalogue also carries its ``key`` and ``params``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import click
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from analyzer.core import jsonfile
from analyzer.core.errors import T400Error
from analyzer.core.messages import messages
from analyzer.core.notation import parse_hand
from analyzer.games import registry
from analyzer.version import __version__
from web.guard import MAX_BODY, TOO_LARGE, Guard
from web.worker import Busy, Job, KernelWorker, Stopped

STATIC = Path(__file__).with_name("static")

#: Options a request may not set: they write or read files on the server, or shape terminal output.
REFUSED = {"json", "plot", "progress", "no_progress", "equity_table", "bidder_model", "help", "path", "record_path"}


def request_args(command: click.Command, body) -> list[str]:
    """The command line (without the command's name) that a JSON request body stands for.

    >>> from commands import cli
    >>> request_args(cli.commands["bid"], {"hand": "AKQ5.KJ4.T93.862", "scores": [0, 5, 0, 0],
    ...                                        "infer": False, "seed": 7})
    ['--scores', '0,5,0,0', '--no-infer', '--seed', '7', '--', 'AKQ5.KJ4.T93.862']
    """
    if not isinstance(body, dict):
        raise T400Error("the request body must be a JSON object of option names and values")
    options, arguments = {}, {}
    for param in command.params:
        if isinstance(param, click.Argument):
            arguments[param.name] = param
            continue
        for opt in param.opts:
            options[_key(opt)] = (param, opt, False)
        for opt in param.secondary_opts:
            options[_key(opt)] = (param, opt, True)
    args, positional = [], []
    for key, value in body.items():
        if key in REFUSED:
            raise T400Error(f"{key!r} is not available through the API")
        if value is None:
            continue
        if key in arguments:
            positional.append(_text(key, value))
            continue
        if key not in options:
            known = sorted({*arguments, *(k for k, (p, _, second) in options.items() if k not in REFUSED)})
            raise T400Error(f"unknown field {key!r}; t400 {command.name} takes: {', '.join(known)}")
        param, opt, secondary = options[key]
        if param.is_flag:
            if not isinstance(value, bool):
                raise T400Error(f"{key}: expected true or false, got {json.dumps(value)}")
            if param.secondary_opts and not secondary:
                args.append(opt if value else param.secondary_opts[0])
            elif value:
                args.append(opt)
            continue
        args += [opt, _text(key, value)]
    return args + (["--", *positional] if positional else [])


def _key(opt: str) -> str:
    return opt.lstrip("-").replace("-", "_")


def _text(key: str, value) -> str:
    if isinstance(value, bool) or isinstance(value, dict):
        raise T400Error(f"{key}: {json.dumps(value)} is not a value for this option")
    if isinstance(value, list):
        if any(isinstance(v, (bool, dict, list)) for v in value):
            raise T400Error(f"{key}: {json.dumps(value)} is not a list of numbers")
        return ",".join(str(v) for v in value)
    return str(value)


def error(message: str, status: int = 400, exc: BaseException | None = None) -> JSONResponse:
    """``{"error": "Error: ..."}``, plus the message's catalogue ``key`` and ``params`` when the
    error has them (so the page can say it in the reader's language)."""
    body = {"error": f"Error: {message}"}
    if getattr(exc, "key", None):
        body.update(key=exc.key, params=exc.params)
    return JSONResponse(body, status_code=status)


class BodyTooLarge(T400Error):
    """The body is longer than :data:`web.guard.MAX_BODY` (HTTP 413)."""


async def read_body(request) -> dict:
    """The request's JSON body, read only up to :data:`web.guard.MAX_BODY` bytes."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge(TOO_LARGE)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    return jsonfile.loads(raw, "the request body", max_bytes=MAX_BODY)


async def wait_for(job: Job, request):
    """The job's answer; cancels the job when the client goes away (or the request is
    cancelled, as when the server stops)."""
    future = asyncio.wrap_future(job.future)
    try:
        while True:
            done, _ = await asyncio.wait({future}, timeout=0.25)
            if done:
                return future.result()
            if await request.is_disconnected():
                job.cancel()
                raise Stopped("the client went away")
    except asyncio.CancelledError:
        job.cancel()
        raise


@dataclass(frozen=True)
class Api:
    """What the page needs of the command line, passed in by ``t400 serve`` (the web layer sits
    below it and never imports it): the commands by name (their options are the API's keys),
    ``run_json(name, args, progress) -> dict`` that runs one with ``--json``, and
    ``error_line(exc) -> str``, the one line the CLI prints for an error."""

    commands: Mapping[str, click.Command]
    run_json: Callable[..., dict]
    error_line: Callable[[BaseException], str]


def create_app(api: Api, queue_size: int = 4, max_seconds: float = 120.0, host: str = "127.0.0.1",
               allowed_hosts: tuple[str, ...] = ()) -> Guard:  # fmt: skip
    """The app, behind :class:`web.guard.Guard` for a server bound to ``host`` (and answering the
    names ``allowed_hosts`` too); its kernel worker runs one request at a time with
    ``queue_size`` waiting."""
    worker = KernelWorker(api.run_json, queue_size=queue_size, max_seconds=max_seconds)

    def command_endpoint(name: str, kernels: bool):
        command = api.commands[name]

        async def endpoint(request):
            try:
                args = request_args(command, await read_body(request))
                if kernels:
                    data = await wait_for(worker.submit(name, args), request)
                else:
                    data = await run_in_threadpool(api.run_json, name, args)
            except (Busy, Stopped) as exc:
                return error(str(exc), 503)
            except BodyTooLarge as exc:
                return error(str(exc), 413)
            except (click.ClickException, T400Error) as exc:
                return error(api.error_line(exc), exc=exc)
            return JSONResponse(data)

        return endpoint

    async def hand(request):
        try:
            body = await read_body(request)
            text = body.get("hand") if isinstance(body, dict) else None
            if not isinstance(text, str):
                raise T400Error("hand: expected a hand as text, e.g. AKQ5.KJ4.T93.862")
            parsed = parse_hand(text, size=None)
        except BodyTooLarge as exc:
            return error(str(exc), 413)
        except T400Error as exc:
            return error(api.error_line(exc), exc=exc)
        cards = [str(c) for c in parsed]
        return JSONResponse({"cards": cards, "dot": parsed.to_dot(), "symbols": parsed.to_symbols(),
                             "count": len(cards)})  # fmt: skip

    async def status(request):
        return JSONResponse(worker.status())

    async def meta(request):
        return JSONResponse({
            "version": __version__,
            "games": {game.name: game.page() for game in registry.games()},
        })  # fmt: skip

    async def messages_endpoint(request):
        return JSONResponse(messages())

    async def index(request):
        return FileResponse(STATIC / "index.html")

    routes = [
        Route("/", index),
        Route("/api/bid", command_endpoint("bid", kernels=True), methods=["POST"]),
        Route("/api/review", command_endpoint("review", kernels=True), methods=["POST"]),
        Route("/api/card", command_endpoint("card", kernels=True), methods=["POST"]),
        Route("/api/score", command_endpoint("score", kernels=False), methods=["POST"]),
        Route("/api/rules", command_endpoint("rules", kernels=False), methods=["POST"]),
        Route("/api/hand", hand, methods=["POST"]),
        Route("/api/status", status),
        Route("/api/meta", meta),
        Route("/api/messages", messages_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        worker.close()

    async def http_error(request, exc: HTTPException):
        text = {404: f"no such page: {request.url.path[:80]}",
                405: f"{request.method[:10]} is not allowed for {request.url.path[:80]}"}  # fmt: skip
        return error(text.get(exc.status_code, str(exc.detail)), exc.status_code)

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error})
    app.state.worker = worker
    guarded = Guard(app, host, allowed_hosts)
    guarded.state = app.state
    return guarded


def bind(host: str, port: int) -> socket.socket:
    """A listening socket's address, bound before the server starts (port 0: any free port), so
    that a port in use is one ``Error:`` line and the URL is known before the first request."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise T400Error(f"--host {host}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise T400Error(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    # listening at once: a client that reads the printed URL before the server has started is
    # queued, not refused (seen on a loaded machine)
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def server(app, sock: socket.socket):
    """A uvicorn server for ``app`` on ``sock``: ``server.run(sockets=[sock])`` serves until
    Ctrl-C or SIGTERM (or ``server.should_exit = True`` from another thread). On the signal the
    running analysis stops at its next batch and its client gets a 503 at once, so the server
    does not wait for the work to end."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            app.state.worker.stop()
            super().handle_exit(sig, frame)

    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
    return Server(config)


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"
