"""Reading ``spec/``: the game as data, validated and cross-checked.

:mod:`palast.spec.load` reads every spec file (:mod:`palast.spec.yamlio`), validates it
against its JSON Schema (:mod:`palast.spec.schemas`) and checks the references between the
files, giving the :class:`~palast.spec.load.Spec` that the engine, the proofs and the book
read; the other modules here hold the parts of that check and of that value: the discrepancy
register's rules (:mod:`palast.spec.register`), the turn and round flow
(:mod:`palast.spec.flow`), the named house rulesets (:mod:`palast.spec.house_rulesets`), who
sees what (:mod:`palast.spec.visibility`), the rule sources (:mod:`palast.spec.sources`), card
numbering (:mod:`palast.spec.cards`), the cache of a validated spec
(:mod:`palast.spec.stamp`), and the caches of compiled code that shorten a start: the code
generated from the spec (:mod:`palast.spec.code_cache`) and the methods of palast's own
dataclasses (:mod:`palast.spec.class_code`, installed by ``palast/__init__.py``). This is
the lowest layer with :mod:`palast.lang`: it imports no other part of palast
(``tests/test_layering.py``).
"""
