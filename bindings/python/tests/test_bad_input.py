"""Bad input: one line naming what was wrong and what to do, never a traceback from the plugin."""

import os
import re
import sys
from pathlib import Path

import pytest

SIMPLE = '''
import pytest

@pytest.mark.mcp_cassette({marker})
def test_it(mcp_cassette):
    pass
'''


def no_traceback(result) -> None:
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output, output
    assert not re.search(r"pytest_mcp_cassette/\w+\.py", output), output


def test_unknown_marker_keyword(pytester: pytest.Pytester):
    pytester.makepyfile(SIMPLE.format(marker='cassete="x.jsonl"'))
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *test_it: @pytest.mark.mcp_cassette: unknown option 'cassete'*"])
    no_traceback(result)


def test_unknown_mode(pytester: pytest.Pytester):
    pytester.makepyfile(SIMPLE.format(marker='mode="sometimes"'))
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *unknown record mode 'sometimes'*expected one of once, none, all, new_episodes*"])
    no_traceback(result)


def test_unknown_mode_from_the_environment(pytester: pytest.Pytester, monkeypatch):
    pytester.makepyfile(SIMPLE.format(marker=""))
    monkeypatch.setenv("MCP_CASSETTE_MODE", "never")
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: pytest-mcp-cassette: unknown record mode 'never' from the MCP_CASSETTE_MODE*"])


def test_missing_engine(pytester: pytest.Pytester, monkeypatch):
    pytester.makepyfile(SIMPLE.format(marker=""))
    monkeypatch.setenv("MCP_CASSETTE_BIN", str(pytester.path / "no-such-engine"))
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*pytest-mcp-cassette: the mcp-cassette engine *no-such-engine (from MCP_CASSETTE_BIN) does not start*"])
    no_traceback(result)


def test_engine_of_another_version(pytester: pytest.Pytester, monkeypatch):
    pytester.makepyfile(SIMPLE.format(marker=""))
    fake = pytester.path / "old-engine"
    fake.write_text(f"#!{sys.executable}\nprint('mcp-cassette 0.0.1')\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MCP_CASSETTE_BIN", str(fake))
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*pytest-mcp-cassette 0.1.0 needs mcp-cassette 0.1.0, but the engine *old-engine (from MCP_CASSETTE_BIN) is 0.0.1*"])
    no_traceback(result)


def test_every_marker_flag_is_an_engine_flag():
    """The marker's keywords map to the engine's own options: checked against its --help."""
    import subprocess

    from pytest_mcp_cassette import find_engine
    from pytest_mcp_cassette.options import FLAGS

    engine = list(find_engine().argv)
    helps = {cmd: subprocess.run([*engine, cmd, "--help"], capture_output=True, text=True).stdout for cmd in ("record", "replay")}
    for keyword, spec in FLAGS.items():
        assert keyword == spec.flag[2:].replace("-", "_"), keyword
        for command in spec.commands:
            assert f"{spec.flag} " in helps[command], f"{keyword}: mcp-cassette {command} has no {spec.flag}"


def test_use_cassette_outside_pytest(tmp_path: Path):
    """use_cassette in a plain script: record, then replay, then a miss raises CassetteFailure."""
    import subprocess

    server = Path(__file__).parent / "servers" / "weather.py"
    script = tmp_path / "agent.py"
    script.write_text(f'''
import os, sys, anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from pytest_mcp_cassette import use_cassette, use_cassette_async, CassetteFailure

async def ask(command, city):
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with Client(params, cache=None) as client:
        return (await client.call_tool("forecast", {{"city": city}})).content[0].text

with use_cassette("agent.cassette.jsonl") as cassette:
    print(cassette.action, anyio.run(ask, cassette.server_command([sys.executable, {str(server)!r}]), "Paris"))

async def replay():
    async with use_cassette_async("agent.cassette.jsonl", mode="none") as cassette:
        print(cassette.action, await ask(cassette.server_command([]), "Paris"))
anyio.run(replay)

try:
    with use_cassette("agent.cassette.jsonl", mode="none") as cassette:
        try:
            anyio.run(ask, cassette.server_command([]), "Oslo")
        except BaseException:
            pass
except CassetteFailure as failure:
    print("FAILED", failure)
''')
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "record sunny"
    assert lines[1] == "replay sunny"
    assert lines[2].startswith("FAILED Replay of ") and "params.arguments.city" in lines[2]


def test_mcp_cassette_toml_applies(pytester: pytest.Pytester, monkeypatch):
    """[testing] of mcp-cassette.toml: its mode and cassette-dir apply; the ini option beats it."""
    monkeypatch.delenv("MCP_CASSETTE_MODE", raising=False)
    pytester.makefile(".toml", **{"mcp-cassette": '[testing]\nmode = "none"\ncassette-dir = "recorded"\n'})
    pytester.makepyfile(SIMPLE.format(marker=""))
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(['*the cassette *recorded/test_mcp_cassette_toml_applies/test_it.cassette.jsonl does not exist and record mode "none" forbids*'])
    no_traceback(result)
    pytester.makeini("[pytest]\nmcp_cassette_mode = once\n")
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
