"""All the chance in a game: the deals, the cuts, the reshuffles and the first dealer.

Every engine draws through one *dealer*, ``Game.rng``, made by ``dealer_for(format, seed)``
from the game's integer seed and the record's ``format`` (docs/dealing.md):

- **format 2** (``Pcg32Dealer``, what ``new_game`` deals): a generator written out here, so a
  stored record replays the same on every Python and can be checked by hand or with another
  language. It is O'Neill's **PCG32** (PCG-XSH-RR, 64-bit state, 32-bit output), exactly as
  the reference ``pcg_basic.c`` (``pcg32_srandom_r``, ``pcg32_random_r``,
  ``pcg32_boundedrand_r``): small (two 64-bit words, a multiply, a shift-xor and a rotation,
  easy to rewrite in C for the compiled cores and in any language for a check), statistically
  sound for card games (it passes TestU01's BigCrush), and with published test vectors (the
  authors' ``pcg32-demo``; ``tests/test_dealing.py`` checks them). It is not a cryptographic
  generator, and need not be: the seed is secret until the game ends (``server.fair``).
- **format 1** (``LegacyDealer``): the records written before format 2 existed, dealt by
  CPython's ``random.Random`` (whose ``shuffle``, ``sample`` and ``randrange`` are not promised
  stable across Python versions). It is kept only so that those records replay as they were.

Format 2 in full (``n``, ``k`` and the seed are integers; arithmetic on the state is mod 2**64):

- *seeding*: ``pcg32_srandom_r(initstate = seed mod 2**64, initseq = seed >> 64)``; the room's
  seeds are below 2**53, so their stream is 0 and ``inc`` is 1.
- ``below(n)``: a uniform integer in ``[0, n)`` without modulo bias: draw 32-bit outputs until
  one is at least ``2**32 mod n``, and answer it ``mod n`` (``pcg32_boundedrand_r``).
- ``shuffle(items)``: Fisher–Yates from the end, as the PCG demo deals its cards: for ``i`` from
  ``len(items)`` down to 2, ``j = below(i)``, swap ``items[j]`` and ``items[i - 1]``.
- ``sample(population, k)`` (the cut, a partial deal): the first ``k`` steps of that shuffle
  on a copy, the chosen items in the order chosen: ``sample(p, k)`` is ``shuffled(p)[::-1][:k]``
  from the same state, and costs ``k`` draws instead of ``len(p) - 1``.
- ``top(pack, k)``: the top ``k`` cards of a shuffled pack; in format 2 the same as ``sample``.

The engines consume their dealer in a fixed order (the rules module says which call deals
what); the compiled cores (``feltroom._fastcore``) run the same generator in C on the same
state (``state`` and ``inc``), so a core and its reference deal the same cards. When
``_fastcore`` is built (and ``FELTROOM_PURE`` is not set), ``shuffle`` and ``sample`` of a list
run there too: a 52-card shuffle costs about 290,000 instructions in Python, 2.5 times
``random.shuffle``, and a deal is most of a pure-Python game's set-up. The Python loops below
stay the definition (``tests/test_dealing.py`` checks the two agree).
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import random
from collections.abc import MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["CURRENT_FORMAT", "FORMATS", "Dealer", "LegacyDealer", "Pcg32Dealer", "dealer_for"]

T = TypeVar("T")

#: the dealing ``new_game`` uses, and the record ``format`` it writes
CURRENT_FORMAT = 2
#: every record format ``replay`` accepts
FORMATS = (1, 2)
#: seeds above this have no PCG32 stream (``initseq`` has 63 bits)
MAX_PCG_SEED = 2**127

#: the compiled ``shuffle`` and ``sample`` (``feltroom._fastcore``), if built and not FELTROOM_PURE
_compiled: Any = None
if not os.environ.get("FELTROOM_PURE"):
    with contextlib.suppress(ImportError):  # no C compiler at install: the Python loops deal
        _compiled = importlib.import_module("feltroom._fastcore")

_MULTIPLIER = 6364136223846793005
_MASK64 = 2**64 - 1
_MASK32 = 2**32 - 1


class Dealer(Protocol):
    """What the engines draw from (``Game.rng``); see the module docstring for each call."""

    format: int

    def below(self, n: int) -> int: ...

    def shuffle(self, items: MutableSequence[T]) -> None: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...

    def top(self, pack: Sequence[T], k: int) -> list[T]: ...

    def copy(self) -> Dealer: ...


def dealer_for(format: int, seed: int) -> Dealer:
    """The dealer of a game of record ``format`` dealt from ``seed``.

    >>> dealer_for(2, 7).below(52), dealer_for(1, 7).below(52)
    (25, 20)
    """
    if format == 2:
        return Pcg32Dealer(seed)
    if format == 1:
        return LegacyDealer(seed)
    raise ValueError(f"unknown record format {format!r}: the formats are {', '.join(map(str, FORMATS))}")


class Pcg32Dealer:
    """Format 2: PCG32 (``pcg_basic.c``) and the dealing built on it (module docstring).

    ``state`` and ``inc`` are the generator's two 64-bit words, read and written by the
    compiled cores too.

    >>> d = Pcg32Dealer.from_pcg(42, 54)
    >>> hex(d.next32()), hex(d.next32())
    ('0xa15c02b7', '0x7b47f409')
    """

    format = 2
    __slots__ = ("inc", "state")

    def __init__(self, seed: int) -> None:
        if type(seed) is not int or not 0 <= seed < MAX_PCG_SEED:
            raise ValueError(f"a format 2 seed is an integer 0 ≤ seed < 2**127, not {seed!r}")
        self._seed_pcg(seed & _MASK64, seed >> 64)

    @classmethod
    def from_pcg(cls, initstate: int, initseq: int) -> Pcg32Dealer:
        """The generator ``pcg32_srandom_r(initstate, initseq)`` gives (for checks against the reference)."""
        dealer = cls.__new__(cls)
        dealer._seed_pcg(initstate, initseq)
        return dealer

    def _seed_pcg(self, initstate: int, initseq: int) -> None:
        self.state = 0
        self.inc = ((initseq << 1) | 1) & _MASK64
        self.next32()
        self.state = (self.state + initstate) & _MASK64
        self.next32()

    def next32(self) -> int:
        """The next 32-bit output (``pcg32_random_r``)."""
        old = self.state
        self.state = (old * _MULTIPLIER + self.inc) & _MASK64
        mixed = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((mixed >> rot) | (mixed << (32 - rot))) & _MASK32

    def below(self, n: int) -> int:
        """A uniform integer ``0 ≤ r < n`` (``pcg32_boundedrand_r``; ``1 ≤ n ≤ 2**32``)."""
        if not 1 <= n <= 2**32:
            raise ValueError(f"below(n) needs 1 ≤ n ≤ 2**32, not {n}")
        threshold = 2**32 % n
        r = self.next32()
        while r < threshold:
            r = self.next32()
        return r % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates from the end, in place."""
        if _compiled is not None and type(items) is list:
            _compiled.pcg32_shuffle(self, items)
        else:
            self.py_shuffle(items)

    def py_shuffle(self, items: MutableSequence[T]) -> None:
        """``shuffle`` in Python (the generator inlined: a deal is the hot part of a set-up)."""
        state, inc = self.state, self.inc
        for i in range(len(items), 1, -1):
            threshold = 2**32 % i
            while True:
                old = state
                state = (old * _MULTIPLIER + inc) & _MASK64
                mixed = (((old >> 18) ^ old) >> 27) & _MASK32
                rot = old >> 59
                r = ((mixed >> rot) | (mixed << (32 - rot))) & _MASK32
                if r >= threshold:
                    break
            j = r % i
            items[j], items[i - 1] = items[i - 1], items[j]
        self.state = state

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items: the first ``k`` steps of ``shuffle`` on a copy, in the order chosen."""
        if not 0 <= k <= len(population):
            raise ValueError(f"a sample of {k} from {len(population)} items")
        if _compiled is not None:
            result: list[T] = _compiled.pcg32_sample(self, population, k)
            return result
        return self.py_sample(population, k)

    def py_sample(self, population: Sequence[T], k: int) -> list[T]:
        """``sample`` in Python."""
        pool = list(population)
        n = len(pool)
        out: list[T] = []
        for i in range(n, n - k, -1):
            j = self.below(i)
            out.append(pool[j])
            pool[j] = pool[i - 1]
        return out

    def top(self, pack: Sequence[T], k: int) -> list[T]:
        """The top ``k`` cards of ``pack`` shuffled: ``sample(pack, k)``."""
        return self.sample(pack, k)

    def copy(self) -> Pcg32Dealer:
        new = Pcg32Dealer.__new__(Pcg32Dealer)
        new.state, new.inc = self.state, self.inc
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Pcg32Dealer:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pcg32Dealer) and (self.state, self.inc) == (other.state, other.inc)

    def __repr__(self) -> str:
        return f"Pcg32Dealer(state={self.state:#018x}, inc={self.inc:#x})"


class LegacyDealer:
    """Format 1: the dealing of the first records, on CPython's ``random.Random(seed)``.

    Frozen: every call is what the engines called before format 2, so a format 1 record
    deals the cards it was played with (on the Python versions whose ``random`` agrees).
    """

    format = 1
    __slots__ = ("random",)

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def below(self, n: int) -> int:
        return self.random.randrange(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.random.shuffle(items)

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        return self.random.sample(population, k)

    def top(self, pack: Sequence[T], k: int) -> list[T]:
        """Cribbage's format 1 deal: one ``getrandbits`` number below ``n·(n-1)…(n-k+1)``, read
        in mixed radix (52, 51, …), each digit picking a card of those not yet drawn."""
        n = len(pack)
        bound = math.perm(n, k)
        getrandbits = self.random.getrandbits
        bits = bound.bit_length()
        r = getrandbits(bits)
        while r >= bound:
            r = getrandbits(bits)
        deck = list(pack)
        out: list[T] = []
        for size in range(n, n - k, -1):
            r, j = divmod(r, size)
            out.append(deck[j])
            deck[j] = deck[size - 1]
        return out

    def copy(self) -> LegacyDealer:
        new = LegacyDealer.__new__(LegacyDealer)
        new.random = random.Random.__new__(random.Random)  # no reseeding from the OS: the state is set next
        new.random.setstate(self.random.getstate())
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> LegacyDealer:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LegacyDealer) and self.random.getstate() == other.random.getstate()

    def __repr__(self) -> str:
        return "LegacyDealer(random.Random)"
