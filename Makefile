.PHONY: test slow test-all lint format bench report

test:
	python -m pytest -n 2

slow:
	python -m pytest -n 2 -m slow

test-all:
	python -m pytest -n 2 -m "slow or not slow"

lint:
	ruff check .
	ruff format --check .

format:
	ruff format .
	ruff check --fix .

bench:
	t400 bench

report:
	t400 report --html
