"""Questions put to the engine, answered for a person or as data: what happens in a position
(``palast ask``: :mod:`palast.query.ask` and the ``ask_*`` modules), whether a record is a
legal game (``palast replay``: :mod:`palast.query.replay`), whether the rulings hold
(``palast rulings``: :mod:`palast.query.rulings`), one variation point explained
(``palast explain``: :mod:`palast.query.explain`), and the words for events and views that
they share (:mod:`palast.query.describe`, :mod:`palast.query.view_render`).
"""
