"""hegemon: rules engines, bots, a web table and a variant lab for Polis and S.P.Q.RisiKo!."""

__version__ = "0.1.0"
