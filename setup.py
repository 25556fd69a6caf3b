"""Declares the Cython engine; everything else is in pyproject.toml.

Set OPENHAND_PUREPYTHON=1 to install without it (the pure-Python fallback).
"""

import os
import platform

from setuptools import Extension, setup


def cpu_flags() -> list[str]:
    """The hardware popcount where the building CPU has it (bit counts are the search's
    commonest operation; without it GCC calls a library routine). Linux only, as it reads
    /proc/cpuinfo; elsewhere the portable build."""
    try:
        with open("/proc/cpuinfo") as f:
            has = " popcnt" in f.read()
    except OSError:
        return []
    return ["-mpopcnt"] if has and platform.machine() in ("x86_64", "AMD64") else []


ext_modules = []
if not os.environ.get("OPENHAND_PUREPYTHON"):
    from Cython.Build import cythonize

    ext_modules = cythonize(
        [Extension("solver._engine", ["cext/_engine.pyx"], include_dirs=["cext"],
                   depends=["cext/bits.h", "cext/table_memory.h"],
                   extra_compile_args=["-O3", *cpu_flags()])],
        compiler_directives={"language_level": "3"},
    )

setup(ext_modules=ext_modules)
