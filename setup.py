"""Builds the compiled cores (Cython); the rest of the metadata is in pyproject.toml.

Each extension is optional: without a C compiler the install still succeeds and every game
runs on its pure-Python engine (``feltroom.fastgame``).
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}

extensions = [
    Extension(
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        optional=True,
        extra_compile_args=["-O2"],
    )
    for path in sorted(Path("src/feltroom").rglob("*.pyx"))
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, include_path=["src"], quiet=True))
