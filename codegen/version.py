"""The version every generated file is stamped with."""
__version__ = "0.1.0"
