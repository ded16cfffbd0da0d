"""Seeded games played by policies: :mod:`palast.sim.play` plays one game
(``palast play``), :mod:`palast.sim.policies` chooses a player's actions,
:mod:`palast.sim.simulate` plays many and tallies them (``palast simulate``), with its
figures in :mod:`palast.sim.report` and plots in :mod:`palast.sim.plots`. Built on the
engine alone.
"""
