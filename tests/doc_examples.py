"""The command examples of README.md and docs/*.md: each fenced block that starts with
``$ t400 ...`` holds that command's output (stdout) for its seed.

``python tests/doc_examples.py --write [FILE...]`` runs every example again and writes its
output into the block (after a change of play, bidders or rules, as the other generated data);
tests/test_readme.py checks that they are in step. Seconds and the compile clause differ from
run to run and are not compared; ``t400 bench`` measures the machine and is never compared.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"```\n(\$ t400 .*?)```", flags=re.S)
COMMAND = re.compile(r"^\$ (t400 [^\n]*)\n", flags=re.M)
#: Commands whose output measures the machine, not the game.
UNCOMPARED = ("t400 bench",)
_SECONDS = re.compile(r"\d[\d,]*(\.\d+)? s\b")
_COMPILED = re.compile(r" \(and [^()]*compiling[^()]*\)")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _pairs(block: str) -> list[tuple[str, str]]:
    parts = COMMAND.split(block)  # ["", command, output, command, output, ...]
    return list(zip(parts[1::2], parts[2::2]))


def examples(path: Path) -> list[tuple[str, str]]:
    """(command, output) of each example in ``path`` (a block may hold several)."""
    return [pair for m in BLOCK.finditer(path.read_text(encoding="utf-8")) for pair in _pairs(m.group(1))]


def run(command: str) -> str:
    """The stdout of ``command`` (``t400 ...``) run in this process (and the ``Error:`` line of bad
    input)."""
    from cli import cli

    args = shlex.split(command)[1:]
    result = CliRunner().invoke(cli, args)
    if result.exit_code == 2 and result.stderr.startswith("Error: "):
        return result.stdout + result.stderr  # an example of bad input shows its one line
    if result.exit_code != 0:
        raise RuntimeError(f"{command}: exit {result.exit_code}: {result.stderr or result.output}")
    return result.stdout


def normalized(text: str) -> str:
    text = _COMPILED.sub("", text)
    text = _SECONDS.sub("N s", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def compared(command: str) -> bool:
    return not command.startswith(UNCOMPARED)


def write(path: Path) -> int:
    """Run every example of ``path`` again and write the outputs that changed; how many did."""
    text = path.read_text(encoding="utf-8")
    count = 0

    def fresh(m):
        nonlocal count
        out = []
        for command, output in _pairs(m.group(1)):
            if compared(command):
                fresh_output = _COMPILED.sub("", run(command)).rstrip() + "\n"
                if normalized(fresh_output) != normalized(output):  # seconds alone are not a change
                    count += 1
                    output = fresh_output
            out.append(f"$ {command}\n{output}")
        return "```\n" + "".join(out) + "```"

    path.write_text(BLOCK.sub(fresh, text), encoding="utf-8")
    return count


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"]:
        sys.exit(__doc__)
    sys.path.insert(0, str(ROOT))
    for page in [Path(p) for p in sys.argv[2:]] or pages():
        print(f"{page}: {write(page)} examples written", file=sys.stderr)
