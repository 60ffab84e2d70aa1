"""Every example of docs/python.md runs: `# test_*.py` blocks as a pytest suite (twice:
recorded, then replayed), `# agent.py` as a script."""

import re
import subprocess
import sys
from pathlib import Path

from conftest import calls

DOC = Path(__file__).resolve().parents[3] / "docs" / "python.md"


def examples() -> dict[str, str]:
    blocks = re.findall(r"```python\n# (\S+)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return dict(blocks)


def test_the_docs_examples_run(suite, http_server, tmp_path: Path, monkeypatch):
    found = examples()
    tests = {name[:-3]: code for name, code in found.items() if name.startswith("test_")}
    assert len(tests) >= 3 and "agent.py" in found, sorted(found)
    suite.makepyfile(**tests)
    monkeypatch.setenv("WEATHER_URL", http_server)
    suite.runpytest_subprocess().assert_outcomes(passed=len(tests))
    recorded = calls(tmp_path)
    monkeypatch.setenv("WEATHER_URL", "http://127.0.0.1:9/mcp")
    suite.runpytest_subprocess().assert_outcomes(passed=len(tests))
    assert calls(tmp_path) == recorded
    (suite.path / "agent.py").write_text(found["agent.py"])
    for _ in range(2):
        done = subprocess.run([sys.executable, "agent.py"], cwd=suite.path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout.strip() == "sunny", done.stderr
    assert calls(tmp_path) == recorded + 1
