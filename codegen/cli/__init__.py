"""The command line: ``encspec`` and its commands."""
from .main import entry, main  # noqa: F401
