"""The deal algorithm's randomness: versioned, documented and independent of Python's ``random``.

Version 1 (``DEAL_VERSION``), fixed forever for deals made under it:

1. The generator is SplitMix64. Its 64-bit state starts as ``seed XOR salt(slug)``, where
   ``salt(slug)`` is the first 8 bytes (big-endian) of ``SHA-256("patience-deal-v1:" + slug)``,
   so the same seed gives unrelated deals in different games.
2. ``below(n)`` draws 64-bit outputs and rejects those at or above the largest multiple of ``n``
   (no modulo bias), returning ``output % n``.
3. The deck starts in ``cards.new_deck`` order and is shuffled by Fisher-Yates from the last
   position down: for ``i`` from ``len - 1`` to ``1``, swap positions ``i`` and ``below(i + 1)``.
4. Each game's module deals from the front of the shuffled list (index 0 first); the undealt
   rest becomes the stock in list order, so the shuffled list's last card is the stock's top.

A change to any step is a new version; deals stored under an old version keep being dealt by it.
"""

from __future__ import annotations

import hashlib

DEAL_VERSION = 1
#: Every version this engine can still deal: a stored deal names the version it was made under.
DEAL_VERSIONS = frozenset({1})
MAX_SEED = 2**53 - 1  # safe as a JavaScript number

_MASK = 2**64 - 1


def _salt(slug: str) -> int:
    return int.from_bytes(hashlib.sha256(f"patience-deal-v1:{slug}".encode()).digest()[:8], "big")


class SplitMix64:
    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (2**64 // n) * n
        while True:
            value = self.next()
            if value < limit:
                return value % n


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is an integer from 0 to {MAX_SEED}")
    return seed


def check_deal_version(version: object) -> int:
    if isinstance(version, bool) or not isinstance(version, int) or version not in DEAL_VERSIONS:
        raise ValueError(f"unknown deal algorithm version {version!r}")
    return version


def shuffled(cards: list[int], slug: str, seed: int, version: int = DEAL_VERSION) -> list[int]:
    """A new list: ``cards`` shuffled for ``slug`` and ``seed`` by deal algorithm ``version``
    (only version 1 so far)."""
    check_deal_version(version)
    rng = SplitMix64(check_seed(seed) ^ _salt(slug))
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
