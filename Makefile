# Two entry points for a fresh machine: `make demo` and `make test`.
# Both create and use the virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow lint bench templates clean messages pictures catalogs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -c 'from adjudicator.i18n.catalogs import main; main()'
	touch $(STAMP)

# The compiled message catalogs (.mo beside each .po), read at start-up instead of parsing the .po files.
catalogs: $(STAMP)
	$(BIN)/python -c 'from adjudicator.i18n.catalogs import main; main()'

demo: $(STAMP) catalogs
	$(BIN)/adjudicator demo --out demo-output

# The tests on both cores; the slow ones (hostile corpus, kill tests, property tests) apart, in test-slow,
# which CI runs after them.
test: $(STAMP) catalogs
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not slow"

test-slow: $(STAMP) catalogs
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m slow

lint: $(STAMP)
	$(BIN)/ruff check adjudicator tests benchmarks

# Every benchmark runs, each printing its verdicts; the command fails at the end if any target was missed.
bench: $(STAMP) catalogs
	status=0; \
	for b in bench odds_speed galactic_war_odds dice_proofs; do \
	  $(BIN)/python benchmarks/$$b.py || status=1; \
	done; \
	exit $$status

templates: $(STAMP)
	$(BIN)/python -m adjudicator.outputs.blank_templates workbook_templates

# Pictures of every ruleset's workbooks, maps, Changes tabs and charts for the docs (needs LibreOffice and pdftoppm).
pictures: $(STAMP)
	$(BIN)/python -m adjudicator.outputs.pictures docs/images
	$(BIN)/python -m adjudicator.outputs.maps.pictures docs/images

map-pictures: $(STAMP)
	$(BIN)/python -m adjudicator.outputs.maps.pictures docs/images

clean:
	rm -rf $(VENV) demo-output

# Extract every translatable string into the core template and each ruleset's own, and merge them into the
# Spanish and Russian catalogs (then translate what is new: a test fails while anything is untranslated).
KEYWORDS := -k msg -k msg_n:1,2 -k N_
RULESETS := $(notdir $(patsubst %/,%,$(dir $(wildcard adjudicator/rulesets/*/__init__.py))))
messages: $(STAMP)
	$(BIN)/pybabel extract --no-location --sort-output -F babel.cfg $(KEYWORDS) \
	  --project adjudicator --version 0.1 -o adjudicator/locale/adjudicator.pot .
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -i adjudicator/locale/adjudicator.pot -d adjudicator/locale -D adjudicator
	$(BIN)/pybabel extract --no-location --sort-output -k _ -k ngettext:1,2 --project click \
	  -o adjudicator/locale/click.pot $$($(BIN)/python -c 'import click, os; print(os.path.dirname(click.__file__))')
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -i adjudicator/locale/click.pot -d adjudicator/locale -D click
	for r in $(RULESETS); do \
	  d=adjudicator/rulesets/$$r; \
	  $(BIN)/pybabel extract --no-location --sort-output -F babel-ruleset.cfg $(KEYWORDS) \
	    --project $$r --version 0.1 -o $$d/locale/$$r.pot $$d || exit 1; \
	  for l in es ru; do \
	    if [ -f $$d/locale/$$l/LC_MESSAGES/$$r.po ]; then \
	      $(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -i $$d/locale/$$r.pot -d $$d/locale -D $$r -l $$l || exit 1; \
	    else \
	      $(BIN)/pybabel init -i $$d/locale/$$r.pot -d $$d/locale -D $$r -l $$l || exit 1; \
	    fi; \
	  done; \
	done
	$(BIN)/python -c 'from adjudicator.i18n.catalogs import main; main()'
