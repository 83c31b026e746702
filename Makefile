# Two entry points for a fresh machine: `make demo` and `make test`.
# Both create and use the virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench templates clean messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/adjudicator demo --out demo-output

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check adjudicator tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

templates: $(STAMP)
	$(BIN)/python -m adjudicator.blank_templates workbook_templates

clean:
	rm -rf $(VENV) demo-output

# Extract every translatable string into the template and merge it into the Spanish and Russian catalogs.
messages: $(STAMP)
	$(BIN)/pybabel extract --no-location --sort-output -F babel.cfg -k msg -k msg_n:1,2 -k N_ \
	  --project adjudicator --version 0.1 -o adjudicator/locale/adjudicator.pot .
	$(BIN)/pybabel update --no-fuzzy-matching -i adjudicator/locale/adjudicator.pot -d adjudicator/locale -D adjudicator
