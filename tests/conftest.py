"""Settings for the whole suite."""

from __future__ import annotations

from hypothesis import settings

# The suite runs on shared, busy machines: a property test is judged by what it finds, never
# by how long one example takes (speed is measured in bench/, not in tests).
settings.register_profile("henderson", deadline=None)
settings.load_profile("henderson")
