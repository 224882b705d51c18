"""README and docs stay true: their Python examples run, their command examples print what the
commands print, their links lead somewhere, README stays a guide, and CI runs README's test
command."""

import doctest
import re
from pathlib import Path

import pytest
from doc_examples import compared, examples, normalized, pages, run

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))
#: Wording of a working diary, which belongs in commit messages and the changelog.
DIARY = re.compile(
    r"this stop|the stop before|last stop|stops ago|previous stop|/tmp/|scratch script|\btoday\b|\byesterday\b"
    r"|the day before",
    re.I,
)


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_python_examples_run(page):
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for n, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"{page.name} block {n}", str(page), 0))
    assert runner.failures == 0


def test_readme_is_a_guide_with_its_first_answer_up_front():
    lines = README.splitlines()
    assert len(lines) < 350
    first_output = next(n for n, line in enumerate(lines) if line.startswith("$ t400 bid"))
    assert first_output < 60 and lines[first_output + 1].startswith("Hand ")


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_no_working_diary_and_no_dead_links(page):
    text = page.read_text(encoding="utf-8")
    assert not DIARY.findall(text)
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if not target.startswith(("http://", "https://")):
            assert (page.parent / target).exists(), f"{page.name} links to {target}, which does not exist"


def test_readme_links_every_docs_page():
    for page in DOCS:
        assert f"](docs/{page.name})" in README, f"README does not link docs/{page.name}"


#: Every compared command example of README and docs, one test each (so that the slow ones
#: spread over the test workers).
EXAMPLES = [
    pytest.param(command, output, id=f"{page.name}:{n}")
    for page in pages()
    for n, (command, output) in enumerate(examples(page))
    if compared(command)
]


@pytest.mark.parametrize("command, output", EXAMPLES)
def test_command_examples_print_what_the_commands_print(request, command, output):
    page = request.node.callspec.id.split(":")[0]
    assert normalized(run(command)) == normalized(output), (
        f"{page}: the example `{command}` is stale: `python tests/doc_examples.py --write {page}`"
    )


def test_readme_shows_the_main_commands_with_their_outputs():
    assert sum(1 for command, _ in examples(ROOT / "README.md") if compared(command)) >= 5


def test_ci_runs_the_readme_install_and_test_commands():
    commands = re.findall(r"```sh\n(.*?)\n```", README, flags=re.S)
    test_command = next(c for c in commands if "pytest" in c)
    ci = (ROOT / ".ci" / "run").read_text()
    install = re.search(r"pip install '([^']+)'", test_command).group(1)
    assert f"pip install --quiet '{install}'" in ci
    steps = test_command.split(" && ")
    after_install = steps[[n for n, step in enumerate(steps) if step.startswith("pip install")][0] + 1 :]
    assert after_install and all(f"\n{step}\n" in ci + "\n" for step in after_install), after_install


def test_no_working_diary_in_help_texts_comments_or_messages():
    """Help texts, docstrings, comments and the page's messages say what is, not when it was said:
    a "today" there goes stale the next day (dates belong beside measurements)."""
    import io
    import json
    import tokenize

    found = []
    sources = [ROOT / "cli.py", *(p for d in ("analyzer", "commands", "web", "kernels", "benchmarks")
                                  for p in sorted((ROOT / d).rglob("*.py")))]  # fmt: skip
    for path in sources:
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING) and DIARY.search(tok.string):
                found.append(f"{path.relative_to(ROOT)}:{tok.start[0]}")
    for lang, texts in json.loads((ROOT / "analyzer" / "data" / "messages.json").read_text(encoding="utf-8")).items():
        found += [f"messages.json {lang} {key}" for key, value in texts.items() if DIARY.search(value)]
    assert not found, found
