"""README stays true: its Python examples run, and CI runs README's test command."""

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks, "README has Python examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for n, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {n}", "README.md", 0)
        runner.run(test)
    assert runner.failures == 0


def test_ci_runs_the_readme_install_and_test_commands():
    commands = re.findall(r"```sh\n(.*?)\n```", README, flags=re.S)
    test_command = next(c for c in commands if "pytest" in c)
    ci = (ROOT / ".ci" / "run").read_text()
    install = re.search(r"pip install '([^']+)'", test_command).group(1)
    assert f"pip install --quiet '{install}'" in ci
    steps = test_command.split(" && ")
    after_install = steps[[n for n, step in enumerate(steps) if step.startswith("pip install")][0] + 1 :]
    assert after_install and all(f"\n{step}\n" in ci + "\n" for step in after_install), after_install
