"""The two ways a cassette can go wrong: how it was asked for, or what the replay saw."""

from __future__ import annotations


class CassetteUsageError(Exception):
    """Bad input (an unknown option or mode, no engine, a version mismatch): one line saying what to do."""


class CassetteFailure(AssertionError):
    """The session went wrong: a replay miss, an inexact answer, a recording that was not kept."""
