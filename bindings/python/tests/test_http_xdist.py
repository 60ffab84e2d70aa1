"""Streamable HTTP through server_url, and xdist workers sharing one cassette on a cold cache."""

import sys
from pathlib import Path

from conftest import calls, engine_processes

HTTP = '''
from mcp_client import ask

def test_http(mcp_cassette):
    url = mcp_cassette.server_url("{url}")
    assert url.startswith("http://127.0.0.1:")
    assert ask(url) == "sunny"
'''


def test_http_records_then_replays_without_the_server(suite, http_server, tmp_path: Path):
    suite.makepyfile(test_web=HTTP.format(url=http_server))
    suite.runpytest_subprocess().assert_outcomes(passed=1)
    assert calls(tmp_path) == 1
    # The live URL no longer answers (nothing listens there): the replay does.
    suite.makepyfile(test_web=HTTP.format(url="http://127.0.0.1:9/mcp"))
    suite.runpytest_subprocess().assert_outcomes(passed=1)
    assert calls(tmp_path) == 1


def test_xdist_cold_cache_records_once(suite, tmp_path: Path):
    suite.makepyfile(test_shared=f'''
import pytest
from mcp_client import ask

@pytest.mark.mcp_cassette(cassette="shared.cassette.jsonl")
@pytest.mark.parametrize("n", range(6))
def test_shared(mcp_cassette, n):
    # mode="legacy": the SDK gives its server/discover probe 10 s, less than a loaded machine may
    # take to finish the other worker's recording while this one waits for it.
    command = mcp_cassette.server_command([{sys.executable!r}, "weather_server.py"])
    assert ask(command, mode="legacy") == "sunny"
    print("ACTION", mcp_cassette.action)
''')
    result = suite.runpytest_subprocess("-n", "3")
    result.assert_outcomes(passed=6)
    assert calls(tmp_path) == 1, "more than one worker recorded the shared cassette"
    assert (suite.path / "tests" / "cassettes" / "shared.cassette.jsonl").is_file()


def test_a_crash_mid_session_leaves_no_engine_running(suite, http_server):
    suite.makepyfile(test_crash=f'''
import os, sys
from mcp_client import ask

def test_crash(mcp_cassette):
    mcp_cassette.server_url("{http_server}")
    raise RuntimeError("the agent crashed")
''')
    result = suite.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    assert engine_processes(str(suite.path)) == []
