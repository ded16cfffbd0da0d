"""Hypothesis profiles for palast's tests: ``dev`` (the default), ``ci`` and ``nightly``.

The profile named by ``HYPOTHESIS_PROFILE`` is loaded; without it, ``ci`` when ``CI`` is set
(as ``.ci/run`` does) and ``dev`` otherwise. ``ci`` extends Hypothesis's built-in ``ci``
profile (derandomised, so every CI run checks the same examples; no example database;
failures printed with a reproduction blob) and only sets how much is generated.

``max_examples`` is the budget of a plain property test; the state-machine tests take a
share of it per configuration (:func:`stateful_examples`), because one state-machine
example plays whole games.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: The profiles; ``ci`` keeps the stateful suite well under two minutes on two cores.
settings.register_profile(
    "dev", max_examples=100, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci", settings.get_profile("ci"), max_examples=200, stateful_step_count=50,
)
settings.register_profile(
    "nightly", max_examples=5000, stateful_step_count=200, deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)

#: The loaded profile's name.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def stateful_examples(share: float) -> int:
    """Examples for one state-machine configuration: ``share`` of the profile's
    ``max_examples``, at least one."""
    return max(1, round(settings().max_examples * share))
