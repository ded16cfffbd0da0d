"""The invariants of ``spec/invariants.yaml``: :mod:`palast.invariants.declared` reads their
rule-language expressions and compiles them to Python checks, :mod:`palast.invariants.check`
evaluates them on positions and actions. The engine's check mode runs them after every
action, so they belong to the engine's layer (``tests/test_layering.py``).
"""
