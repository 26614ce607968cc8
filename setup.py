# cffi's setuptools hook has no pyproject.toml form; everything else lives there.
from setuptools import setup

setup(cffi_modules=["gota_arena/_build_native.py:ffibuilder"])
