"""The compiled part of the project, beside pyproject.toml (which holds everything else): the
solver's search core, games/solver/_core.c, built from source by ``pip install -e .`` (and by
``bin/_venv.sh`` whenever the C source changes; ``python setup.py build_ext --inplace`` by hand).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.solver._core",
            sources=["games/solver/_core.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ]
)
