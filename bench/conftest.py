"""Benchmarks refuse a debug build: its timings would mislead."""

from __future__ import annotations

import pytest

import patience_engine


def pytest_configure(config: pytest.Config) -> None:
    if not patience_engine.OPTIMIZED:
        raise pytest.UsageError(
            f"bench/ needs an optimised build of patience_engine, this one is {patience_engine.BUILD_TYPE}"
        )
