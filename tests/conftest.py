"""Shared test helpers: where the source documents are, and spec loading."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def shared_dir() -> Path:
    """../shared beside the checkout (CI clones main with shared/ beside it)."""
    env = os.environ.get("ENCSPEC_SHARED")
    for candidate in ([Path(env)] if env else []) + [ROOT.parent / "shared", ROOT / "shared"]:
        if (candidate / "seeds").is_dir():
            return candidate
    raise FileNotFoundError("the source documents (shared/seeds) are not beside the checkout; "
                            "set ENCSPEC_SHARED to the shared/ folder")


@pytest.fixture(scope="session")
def seeds() -> Path:
    return shared_dir() / "seeds"


@pytest.fixture(scope="session")
def corpora() -> Path:
    return shared_dir() / "corpora"
