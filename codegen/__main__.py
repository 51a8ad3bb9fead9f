"""``python -m encspec``: the ``encspec`` command, for when its script is not on PATH."""
from .cli.main import entry

if __name__ == "__main__":
    entry()
