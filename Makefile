.PHONY: test test-all lint format bench

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
