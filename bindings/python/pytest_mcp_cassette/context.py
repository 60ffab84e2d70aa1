"""``use_cassette`` and ``use_cassette_async``: one cassette around a block of code, outside pytest."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from .cassette import Cassette
from .config import testing_defaults
from .options import check_keywords, resolve_mode


def open_cassette(path: str | os.PathLike[str], mode: str | None, options: dict[str, Any]) -> Cassette:
    """A cassette with ``[testing]`` of mcp-cassette.toml under what was passed; a relative path is
    taken from ``[testing] cassette-dir``, else from the working folder."""
    check_keywords({"mode": mode, **options}, "use_cassette")
    defaults = testing_defaults(Path.cwd())
    folder = Path(defaults.pop("cassette_dir", Path.cwd()))
    chosen = resolve_mode((mode, "use_cassette(mode=...)"), (defaults.pop("mode", None), "mcp-cassette.toml [testing] mode"))
    return Cassette(folder / path, chosen, {**defaults, **options}, Path.cwd(), "use_cassette")


@contextlib.contextmanager
def use_cassette(path: str | os.PathLike[str], mode: str | None = None, **options: Any) -> Iterator[Cassette]:
    """Records or replays ``path`` around the block; raises ``CassetteFailure`` on a miss at the end.

    >>> with use_cassette("tools.cassette.jsonl") as cassette:   # doctest: +SKIP
    ...     command = cassette.server_command(["python", "server.py"])
    """
    cassette = open_cassette(path, mode, options)
    try:
        yield cassette
    except BaseException:
        cassette.finish(failed=True)
        raise
    cassette.finish()


@contextlib.asynccontextmanager
async def use_cassette_async(path: str | os.PathLike[str], mode: str | None = None, **options: Any) -> AsyncIterator[Cassette]:
    """``use_cassette`` for ``async with``: the wait at the end does not block the event loop."""
    cassette = await asyncio.to_thread(open_cassette, path, mode, options)
    try:
        yield cassette
    except BaseException:
        await asyncio.to_thread(cassette.finish, True)
        raise
    await asyncio.to_thread(cassette.finish)
