"""The built-in rulesets. Each registers through the ``adjudicator.rulesets`` entry-point group."""
