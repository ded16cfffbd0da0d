"""The rule language: expressions over zones, cards, players and numbers.

spec/ declares each rule's logic as expressions of this language (strings in YAML, parsed
by :mod:`palast.lang.syntax`); :mod:`palast.lang.primitives` lists every primitive with its
meaning; :mod:`palast.lang.compiler` turns a checked expression into a Python function the
engine calls; :mod:`palast.lang.logic` reads the ``logic:`` blocks of the spec's rules. The
book renders the same expressions (``docs/rule-language.md``).
"""
