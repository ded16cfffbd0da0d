"""The text forms people write and palast reads back: actions (:mod:`palast.formats.notation`),
positions in one line (:mod:`palast.formats.position`), scenario files
(:mod:`palast.formats.scenario`), game records (:mod:`palast.formats.record`, and the example
records in :mod:`palast.formats.record_examples`) and house rules given on the command line or
in a ruleset file (:mod:`palast.formats.house`).
"""
