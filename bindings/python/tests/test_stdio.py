"""Record on the first run, replay on the next, fail on a miss: over stdio."""

from pathlib import Path

from conftest import calls

FIRST = '''
from mcp_client import ask

def test_forecast(mcp_cassette):
    command = mcp_cassette.server_command(["{python}", "weather_server.py"])
    assert ask(command, city="{city}") == "{answer}"
    assert mcp_cassette.path.name == "test_forecast.cassette.jsonl"
'''


def write(suite, city="Paris", answer="sunny"):
    import sys

    suite.makepyfile(test_weather=FIRST.format(python=sys.executable, city=city, answer=answer))


def test_records_then_replays(suite, tmp_path: Path):
    write(suite)
    suite.runpytest_subprocess().assert_outcomes(passed=1)
    cassette = suite.path / "tests" / "cassettes" / "test_weather" / "test_forecast.cassette.jsonl"
    assert cassette.is_file()
    assert calls(tmp_path) == 1
    suite.runpytest_subprocess().assert_outcomes(passed=1)
    assert calls(tmp_path) == 1, "the second run reached the live server"


def test_a_miss_fails_at_teardown_with_replays_message(suite, tmp_path: Path):
    write(suite)
    suite.runpytest_subprocess().assert_outcomes(passed=1)
    # An agent that turns a tool error into an answer of its own: the test passes, the miss fails it.
    suite.makepyfile(test_weather='''
import sys
from mcp_client import ask

def test_forecast(mcp_cassette):
    try:
        ask(mcp_cassette.server_command([sys.executable, "weather_server.py"]), city="Oslo")
    except BaseException:
        pass
''')
    result = suite.runpytest_subprocess("--mcp-cassette-mode=none")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*mcp-cassette: Replay of *test_forecast.cassette.jsonl missed 1 request(s)*"])
    assert "params.arguments.city" in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_results_and_the_whole_report(suite):
    suite.makepyfile(test_report='''
import sys
from mcp_client import ask

def test_one(mcp_cassette):
    ask(mcp_cassette.server_command([sys.executable, "weather_server.py"]))

def test_two(mcp_cassette):
    ask(mcp_cassette.server_command([sys.executable, "weather_server.py"]))
    result = mcp_cassette.finish()
    assert (result.misses, result.inexact, result.out_of_order, result.unplayed) == ([], [], [], [])
    print("ACTION", mcp_cassette.action, [launch["action"] for launch in result.launches])
    if result.report is not None:
        assert result.report["recorded"], result.report
        print("REPORT-KEYS", sorted(result.report))
''')
    suite.runpytest_subprocess().assert_outcomes(passed=2)
    # What the first run left: the two cassettes, and no claim (a claim left would make a recording).
    left = sorted(path.name for path in (suite.path / "tests" / "cassettes").rglob("*.*"))
    assert left == ["test_one.cassette.jsonl", "test_two.cassette.jsonl"], left
    replay = suite.runpytest_subprocess("-s")
    replay.assert_outcomes(passed=2)
    replay.stdout.fnmatch_lines(["*REPORT-KEYS*journal*misses*outOfOrder*unplayed*"])


def test_the_journal_of_every_launch(suite):
    """``result.journal``: each replayed launch's requests in order, named by launch."""
    suite.makepyfile(test_journal='''
import sys
from mcp_client import ask

def test_calls(mcp_cassette):
    command = mcp_cassette.server_command([sys.executable, "weather_server.py"])
    assert ask(command, city="Paris") == "sunny"
    assert ask(command, city="Oslo") == "snow"
    result = mcp_cassette.finish()
    if mcp_cassette.action != "replay":
        return
    calls = [
        (entry["session"], entry["tool"], entry["arguments"], type(entry["line"]))
        for entry in result.journal["requests"]
        if entry["method"] == "tools/call"
    ]
    assert calls == [("1", "forecast", {"city": "Paris"}, int), ("2", "forecast", {"city": "Oslo"}, int)]
    # Both answered from the recording (the second launch's in another causal order).
    outcomes = {entry["outcome"] for entry in result.journal["requests"]}
    assert outcomes <= {"exact", "out-of-order"}, result.journal
    assert result.journal["requests"][0]["method"] in ("server/discover", "initialize")
    assert result.journal["dropped"] == 0
    print("JOURNAL-CHECKED", len(result.journal["requests"]))
''')
    suite.runpytest_subprocess().assert_outcomes(passed=1)
    replay = suite.runpytest_subprocess("-s", "--mcp-cassette-mode=none")
    replay.assert_outcomes(passed=1)
    replay.stdout.fnmatch_lines(["*JOURNAL-CHECKED*"])


def test_lenient_and_match_ignore_map_to_replay(suite, tmp_path: Path):
    suite.makepyfile(test_stamp='''
import sys, uuid
import pytest
from mcp_client import ask

@pytest.mark.mcp_cassette(cassette="stamp.cassette.jsonl", match_ignore=["params.arguments.request_id"])
def test_ignored(mcp_cassette):
    assert ask(mcp_cassette.server_command([sys.executable, "weather_server.py"]), tool="stamp",
               request_id=uuid.uuid4().hex) == "Paris: sunny"

@pytest.mark.mcp_cassette(cassette="stamp.cassette.jsonl", lenient=True)
def test_lenient(mcp_cassette):
    ask(mcp_cassette.server_command([sys.executable, "weather_server.py"]), tool="stamp",
        request_id=uuid.uuid4().hex)
    assert len(mcp_cassette.finish().inexact) == 1
''')
    suite.runpytest_subprocess("-p", "no:randomly", "-k", "ignored").assert_outcomes(passed=1)
    suite.runpytest_subprocess().assert_outcomes(passed=2)
    assert calls(tmp_path) == 1


def test_a_failed_recording_leaves_no_cassette(suite):
    suite.makepyfile(test_broken='''
import pytest
from mcp_client import ask

def test_broken(mcp_cassette):
    with pytest.raises(Exception):
        ask(mcp_cassette.server_command(["false"]))
''')
    result = suite.runpytest_subprocess()
    assert result.ret != 0
    assert not list((suite.path / "tests" / "cassettes").rglob("*.jsonl"))
