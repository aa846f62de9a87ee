"""docs/python.md's commands and Python examples, run as written.

Its sh blocks run in one shell from the root of the checkout, in order, so
that `. activate` and `cd examples` hold for the lines after them; a
comment `# exits N` on a line is the status it must have, otherwise 0.
Its python blocks run in the venv those commands make, from the root, and
each `# text` comment after a print must appear in what they print.

The cross builds (`--platform all` and named platforms, and the install
from their folder) take minutes and run only with
CALLGRADE_TEST_ALL_PLATFORMS=1; the line that runs these tests is not run
again from inside them.
"""

import os
import re
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DOC = os.path.join(REPO, "docs", "python.md")
VENV = "/tmp/callgrade-venv"  # where the doc makes it

CROSS = ("--platform all", "--platform windows", "/tmp/callgrade-all")
SELF = "integrations/python/tests"


def blocks(lang):
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```" + lang + r"\n(.*?)^```", text, re.S | re.M)


def sh_lines():
    all_platforms = os.environ.get("CALLGRADE_TEST_ALL_PLATFORMS") == "1"
    out = []
    for b in blocks("sh"):
        for line in b.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if SELF in line or (not all_platforms and any(c in line for c in CROSS)):
                continue
            out.append(line)
    return out


def test_doc_has_commands():
    lines = sh_lines()
    assert any("build_wheel.py" in l for l in lines)
    assert any("pip install" in l for l in lines)
    assert any("--callgrade-suite" in l for l in lines)


@pytest.fixture(scope="module")
def ran_commands():
    # Each line is followed by a check of its status, so that one failing
    # command is named rather than the script stopping at it.
    script = ["cd " + _q(REPO)]
    for line in sh_lines():
        m = re.search(r"#.*\bexits (\d+)", line)
        want = int(m.group(1)) if m else 0
        script.append(line)
        script.append(
            'rc=$?; if [ "$rc" -ne %d ]; then echo "FAILED (exit $rc, want %d): %s" >&2; exit 1; fi'
            % (want, want, line.replace('"', '\\"').replace("$", "\\$"))
        )
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("VIRTUAL_ENV", None)
    r = subprocess.run(["bash", "-c", "\n".join(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    return r


def _q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def test_sh_blocks_run_as_written(ran_commands):
    r = ran_commands
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def test_python_blocks_print_what_they_say(ran_commands):
    assert ran_commands.returncode == 0, "the sh blocks, which make the venv, failed"
    py = os.path.join(VENV, "bin", "python")
    found = 0
    for code in blocks("python"):
        r = subprocess.run([py, "-c", code], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        assert r.returncode == 0, code + "\n" + r.stderr
        for line in code.splitlines():
            m = re.match(r"\s*print\(.*\)\s+# (.+)$", line)
            if m:
                found += 1
                assert m.group(1).strip() in r.stdout, "%r does not print %r:\n%s" % (line, m.group(1), r.stdout)
    assert found > 0, "no python example with its output in the doc"
