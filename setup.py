"""Declares the Cython engine; everything else is in pyproject.toml.

Set OPENHAND_PUREPYTHON=1 to install without it (the pure-Python fallback). The engine
is built for the building CPU's bit instructions (``cpu_flags``); set OPENHAND_PORTABLE=1
for a build that runs on any CPU of its architecture (a wheel to copy elsewhere).
"""

import os
import platform
import subprocess
import sysconfig

from setuptools import Extension, setup


#: /proc/cpuinfo flag -> GCC option: the bit instructions the search leans on
CPU_FLAGS = {"popcnt": "-mpopcnt", "bmi1": "-mbmi", "bmi2": "-mbmi2", "abm": "-mlzcnt"}


def cpu_flags() -> list[str]:
    """The building CPU's bit instructions: hardware popcount (bit counts are the search's
    commonest operation; without it GCC calls a library routine), BMI1/LZCNT (lowest bit
    cleared, leading zeros in one instruction) and BMI2 (PEXT and PDEP inline, where they
    were calls: Minimo full deals 3.2% and bridge cut to 9 cards 3.5% fewer instructions,
    whole process). Linux only, as it reads /proc/cpuinfo; elsewhere the portable build."""
    if os.environ.get("OPENHAND_PORTABLE") or platform.machine() not in ("x86_64", "AMD64"):
        return []
    try:
        with open("/proc/cpuinfo") as f:
            have = set(next((line for line in f if line.startswith("flags")), "").split())
    except OSError:
        return []
    return [option for flag, option in CPU_FLAGS.items() if flag in have]


def gcc_flags() -> list[str]:
    """GCC only: a larger inlining budget. At GCC 12's default the search calls helpers it
    could inline (which ones shifts whenever the search grows); with 400 the Moon, Minimo,
    Minimisere and bridge sets ran 3-7% faster and took 4% fewer instructions (800: 2%
    more). The search is compiled once per shape of game, so the module outgrew the growth
    GCC allows a unit for inlining (40%): at 120, engine instructions Minimo 2.1% fewer
    (`points` 3.6%), Moon 4p 1.4%, bridge 1.1%, Minimisere 0.7%, Jass 0.5% (200: the same;
    80 and 60 spared less). Other compilers keep their defaults."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        banner = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    if "Free Software Foundation" not in banner:
        return []
    return ["--param=max-inline-insns-single=400", "--param=inline-unit-growth=120"]


ext_modules = []
if not os.environ.get("OPENHAND_PUREPYTHON"):
    from Cython.Build import cythonize

    ext_modules = cythonize(
        [Extension("solver._engine", ["cext/_engine.pyx"], include_dirs=["cext"],
                   depends=["cext/bits.h", "cext/table_memory.h"],
                   extra_compile_args=["-O3", *cpu_flags(), *gcc_flags()])],
        compiler_directives={"language_level": "3"},
    )

setup(ext_modules=ext_modules)
