"""Declares the Cython engine; everything else is in pyproject.toml.

Set OPENHAND_PUREPYTHON=1 to install without it (the pure-Python fallback).
"""

import os

from setuptools import Extension, setup

ext_modules = []
if not os.environ.get("OPENHAND_PUREPYTHON"):
    from Cython.Build import cythonize

    ext_modules = cythonize(
        [Extension("solver._engine", ["cext/_engine.pyx"], include_dirs=["cext"], extra_compile_args=["-O3"])],
        compiler_directives={"language_level": "3"},
    )

setup(ext_modules=ext_modules)
