"""hegemon: rules engines, bots, a web table and a variant lab for Polis and S.P.Q.RisiKo!."""

from hegemon import _native

__version__ = "0.2.0"

# The engine may be compiled with mypyc (setup.py); use the compiled modules only while they match their
# sources, and never with HEGEMON_PURE=1 (see hegemon/_native.py).
_native.install(__path__[0])
