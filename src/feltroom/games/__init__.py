"""One rules module per game; importing this package registers them all.

Each ``<game>_knowledge`` module (a seat's knowledge and states sampled from it,
``feltroom.knowledge``) is imported too, found by its name, so a game gains sampling — and
with it the ``search`` bot level — by adding that one file.
"""

import importlib
import pkgutil

from . import craits, cribbage, crisp, krypkasino  # noqa: F401

for _module in pkgutil.iter_modules(__path__):
    if _module.name.endswith("_knowledge"):
        importlib.import_module(f"{__name__}.{_module.name}")
