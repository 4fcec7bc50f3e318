"""One rules module per game; importing this package registers them all."""

from . import crisp  # noqa: F401
from . import krypkasino  # noqa: F401
from . import craits  # noqa: F401
from . import cribbage  # noqa: F401
