"""palast: a formal, executable specification of the card game Palast Geflüster
(Palace Whisperings) and a verifier for it.

The game's facts live in ``spec/`` (YAML validated by JSON Schema); :func:`palast.spec.load.load_spec`
reads them, :class:`palast.engine.Game` runs them.
"""

__version__ = "0.1.0"

# before any of palast's dataclasses is defined: their generated methods' code from the cache
from palast.spec import class_code as _class_code

_class_code.install()
