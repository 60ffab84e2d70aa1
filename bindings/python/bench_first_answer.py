"""Time from a cassette's set-up to the client's first tool answer, on replay: the engine
bundled in the wheel against the same replay started from the Deno checkout.

Usage (in a venv with the wheel and mcp installed; -P keeps the source folder off sys.path):
  python -P bindings/python/bench_first_answer.py [ROUNDS] [OTHER_ENGINE]
It first records the FastMCP server of the package's suite (tests/servers/weather.py).
OTHER_ENGINE, when given, is timed as a third way (another build of the binary, say).
The two engines alternate, round by round, so a loaded machine weighs on both alike.
Each engine is found (and its version checked) once, as in a pytest session.
"""

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

import pytest_mcp_cassette.engine as engine_module
from pytest_mcp_cassette import Cassette

ROOT = Path(__file__).resolve().parents[2]
DENO = ROOT / "node_modules" / "deno" / "deno"


async def first_answer(cassette: Cassette) -> None:
    command = cassette.server_command([sys.executable, str(Path(__file__).parent / "tests" / "servers" / "weather.py")])
    async with Client(StdioServerParameters(command=command[0], args=command[1:]), cache=None) as client:
        await client.call_tool("forecast", {"city": "Paris"})


def one(path: Path, engine: str, mode: str = "none") -> float:
    if engine:
        os.environ["MCP_CASSETTE_BIN"] = engine
    else:
        os.environ.pop("MCP_CASSETTE_BIN", None)
    engine_module.find_engine()  # found once per session, outside the timing
    start = time.perf_counter()
    cassette = Cassette(path, mode, {}, Path.cwd(), "bench")
    anyio.run(first_answer, cassette)
    elapsed = time.perf_counter() - start
    cassette.finish()
    return elapsed * 1000


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    path = Path(tempfile.mkdtemp(prefix="mcp-cassette-bench-")) / "weather.cassette.jsonl"
    one(path, "", mode="all")
    ways = {"wheel (bundled binary)": "", "Deno checkout (deno run cli.ts)": f"{DENO} run -A --no-check {ROOT / 'cli.ts'}"}
    if len(sys.argv) > 2:
        ways[f"other engine ({sys.argv[2]})"] = sys.argv[2]
    times: dict[str, list[float]] = {name: [] for name in ways}
    for name, engine in ways.items():
        one(path, engine)  # warm-up
    for _ in range(rounds):
        for name, engine in ways.items():
            times[name].append(one(path, engine))
    shutil.rmtree(path.parent)
    print(f"load average {os.getloadavg()}")
    for name, values in times.items():
        print(f"{name}: median {statistics.median(values):.0f} ms, min {min(values):.0f} ms over {rounds}")


main()
