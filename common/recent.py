"""A thread's most recently used objects by key, at most ``size`` of them (the least
recently used dropped first): the campaign and play replays' checkpoints
(``rules.campaign.Checkpoints``, ``rules.play.Checkpoints``), which are not shared between
threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerThread(Generic[T]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._local = threading.local()

    def get(self, key: Hashable, fits: Callable[[T], bool], make: Callable[[], T]) -> T:
        """The thread's object for ``key`` when ``fits`` it, else a new one from ``make``."""
        held: OrderedDict[Hashable, T] | None = getattr(self._local, "held", None)
        if held is None:
            held = self._local.held = OrderedDict()
        found = held.pop(key, None)
        if found is None or not fits(found):
            found = make()
        held[key] = found
        while len(held) > self.size:
            held.popitem(last=False)
        return found
