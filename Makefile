.PHONY: test test-all lint format bench report

test:
	python -m pytest

test-all:
	python -m pytest -m "slow or not slow"

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
