"""How many examples a property test tries (Hypothesis).

``.ci/test`` (the README's test command, and CI) sets ``HYPOTHESIS_PROFILE=ci``: each
property test tries a quarter of its examples (at least 20), so the suite stays quick.
Without it, or with ``HYPOTHESIS_PROFILE=full`` (a manual or scheduled run:
``HYPOTHESIS_PROFILE=full bash .ci/test tests/rules``), each tries its full count.
"""

from __future__ import annotations

import os


def full() -> bool:
    return os.environ.get("HYPOTHESIS_PROFILE", "full") != "ci"


def examples(count: int) -> int:
    """A property test's number of examples: ``count`` in a full run, else a quarter."""
    return count if full() else max(20, count // 4)
