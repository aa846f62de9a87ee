"""Tests of callgrade's Python wheel: built with the repository's Go by
build_wheel.py, installed with pip --no-index into a fresh venv (which sees
Debian's pytest), and used there as a command, a module, an API and a
pytest plugin on examples/weather and examples/agent.

    PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -p no:cacheprovider integrations/python/tests

CALLGRADE_TEST_ALL_PLATFORMS=1 also builds every platform's wheel and checks
its binary's format (a cross build of each: minutes).
"""

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zipfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PYDIR))
BUILD = os.path.join(PYDIR, "build_wheel.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

with open(os.path.join(PYDIR, "VERSION"), encoding="utf-8") as _f:
    VERSION = _f.read().strip()

WEATHER = (os.path.join(REPO, "examples/weather/suite.yaml"), os.path.join(REPO, "examples/weather/responses.jsonl"))
AGENT = (os.path.join(REPO, "examples/agent/suite.yaml"), os.path.join(REPO, "examples/agent/responses.jsonl"))


def run(args, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(args, universal_newlines=True, **kw)


def checkout_state():
    """Every file git sees in the checkout, ignored ones included."""
    return run(["git", "-C", REPO, "status", "--porcelain", "--ignored", "--untracked-files=all"], check=True).stdout


def build(out, *extra):
    r = run([PYTHON, BUILD, "--out", str(out)] + list(extra), cwd=REPO)
    assert r.returncode == 0, r.stderr
    return [line for line in r.stdout.splitlines() if line.endswith(".whl")]


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    """Two builds of the host's wheel, and what the checkout held before
    and after them."""
    before = checkout_state()
    a = build(tmp_path_factory.mktemp("a"))
    b = build(tmp_path_factory.mktemp("b"))
    return a, b, before, checkout_state()


@pytest.fixture(scope="module")
def venv(wheels, tmp_path_factory):
    """A fresh venv that sees Debian's pytest, with the wheel installed by
    pip --no-index. Returns its bin directory."""
    d = tmp_path_factory.mktemp("venv")
    r = run([PYTHON, "-m", "venv", "--system-site-packages", str(d)])
    assert r.returncode == 0, r.stderr
    bindir = os.path.join(str(d), "bin")
    r = run([os.path.join(bindir, "python"), "-m", "pip", "--isolated", "install", "--no-index", wheels[0][0]])
    assert r.returncode == 0, r.stdout + r.stderr
    return bindir


def test_build_is_reproducible_and_leaves_the_checkout_alone(wheels):
    a, b, before, after = wheels
    assert len(a) == 1 and len(b) == 1
    assert os.path.basename(a[0]) == os.path.basename(b[0])
    with open(a[0], "rb") as fa, open(b[0], "rb") as fb:
        assert fa.read() == fb.read(), "two builds of the wheel differ"
    assert before == after, "build_wheel.py wrote into the checkout"


def test_wheel_layout(wheels):
    path = wheels[0][0]
    name = os.path.basename(path)
    assert re.fullmatch(r"callgrade-%s-py3-none-[a-z0-9_.]+\.whl" % re.escape(VERSION), name), name
    tags = name[: -len(".whl")].split("-")[4].split(".")
    exe = "callgrade.exe" if tags == ["win_amd64"] else "callgrade"
    di = "callgrade-%s.dist-info/" % VERSION
    with zipfile.ZipFile(path) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        assert set(infos) == {
            "callgrade/__init__.py", "callgrade/__main__.py", "callgrade/_version.py",
            "callgrade/pytest_plugin.py", "callgrade/bin/" + exe,
            di + "METADATA", di + "WHEEL", di + "RECORD", di + "entry_points.txt",
        }
        assert list(infos)[-1] == di + "RECORD"
        # SOURCE_DATE_EPOCH, else 2020-01-01, in a zip's two-second steps
        t = time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", 1577836800)))
        when = tuple(t[:5]) + (t[5] // 2 * 2,)
        for n, i in infos.items():
            assert i.date_time == when, n
            mode = i.external_attr >> 16
            assert mode == (0o100755 if n.endswith("/" + exe) else 0o100644), (n, oct(mode))
        wheel = zf.read(di + "WHEEL").decode()
        assert "Root-Is-Purelib: false" in wheel
        assert [l[len("Tag: "):] for l in wheel.splitlines() if l.startswith("Tag: ")] == ["py3-none-" + t for t in tags]
        meta = zf.read(di + "METADATA").decode()
        assert "\nName: callgrade\n" in meta and "\nVersion: %s\n" % VERSION in meta
        ep = zf.read(di + "entry_points.txt").decode()
        assert "[console_scripts]\ncallgrade = callgrade:main\n" in ep
        assert "[pytest11]\ncallgrade = callgrade.pytest_plugin\n" in ep
        rows = [l.split(",") for l in zf.read(di + "RECORD").decode().splitlines()]
        assert sorted(r[0] for r in rows) == sorted(infos)
        for p, h, size in rows:
            if p == di + "RECORD":
                assert h == size == ""
                continue
            data = zf.read(p)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert h == "sha256=" + want and int(size) == len(data), p


def test_command(venv):
    cmd = os.path.join(venv, "callgrade")
    r = run([cmd, "version"])
    assert r.returncode == 0 and r.stdout == "callgrade %s\n" % VERSION, r
    r = run([cmd, "score", "--suite", WEATHER[0], "--responses", WEATHER[1]], cwd=REPO)
    assert r.returncode == 0, r.stderr
    results = [json.loads(l) for l in r.stdout.splitlines()]
    assert len(results) == 9 and sum(x["pass"] for x in results) == 7
    assert "pass rate" in r.stderr  # the summary table
    # The exit status is the binary's: 1 under --fail-under, 2 on a bad file.
    r = run([cmd, "score", "--suite", WEATHER[0], "--responses", WEATHER[1], "--fail-under", "0.9", "--quiet"])
    assert r.returncode == 1 and "below --fail-under" in r.stderr, r
    r = run([cmd, "score", "--suite", WEATHER[0], "--responses", os.path.join(REPO, "no-such-file.jsonl")])
    assert r.returncode == 2 and "no-such-file.jsonl" in r.stderr and r.stdout == "", r


def test_python_m(venv):
    py = os.path.join(venv, "python")
    r = run([py, "-m", "callgrade", "version"])
    assert r.returncode == 0 and r.stdout == "callgrade %s\n" % VERSION, r
    r = run([py, "-m", "callgrade", "score", "--suite", WEATHER[0], "--responses", WEATHER[1], "--quiet"])
    direct = run([os.path.join(venv, "callgrade"), "score", "--suite", WEATHER[0], "--responses", WEATHER[1], "--quiet"])
    assert r.returncode == 0 and r.stdout == direct.stdout and r.stdout.count("\n") == 9
    r = run([py, "-m", "callgrade", "score", "--suite", WEATHER[0]])
    assert r.returncode == 2, r


API_SCRIPT = r"""
import json, sys, os, tempfile, callgrade
weather, responses, agent, agent_responses = sys.argv[1:5]
out = {}
out["version"] = callgrade.__version__
by_path = callgrade.score(weather, responses)
out["path"] = by_path
lines = [json.loads(l) for l in open(responses)]
# an iterable of dicts, a generator so that it is read once, and a list of suites
out["iterable"] = callgrade.score([weather], (l for l in lines), workers=2)
out["agent"] = callgrade.score(agent, agent_responses)
out["fail_under"] = len(callgrade.score(weather, responses, fail_under=0.99))
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "results.jsonl")
    out["out"] = callgrade.score(weather, responses, out=p) == by_path and os.path.getsize(p) > 0
try:
    callgrade.score(weather, ["not an object"])
except callgrade.CallgradeError as e:
    out["error"] = [e.returncode, e.stderr]
try:
    callgrade.score(weather, responses, format="no-such-format")
except callgrade.CallgradeError as e:
    out["bad_option"] = e.returncode
print(json.dumps(out))
"""


def test_api(venv):
    r = run([os.path.join(venv, "python"), "-c", API_SCRIPT] + list(WEATHER + AGENT), cwd="/")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["version"] == VERSION
    cli = run([os.path.join(venv, "callgrade"), "score", "--suite", WEATHER[0], "--responses", WEATHER[1], "--quiet"])
    assert out["path"] == [json.loads(l) for l in cli.stdout.splitlines()]
    assert len(out["path"]) == 9 and sum(x["pass"] for x in out["path"]) == 7
    assert out["iterable"] == out["path"]
    assert [x["pass"] for x in out["agent"]] == [True, False, False]
    assert out["fail_under"] == 9  # exit status 1 from --fail-under is no error
    assert out["out"] is True
    assert out["error"][0] == 2 and "<stdin>:1" in out["error"][1]
    assert out["bad_option"] == 2


def pytest_run(venv, tmp_path, suite, responses, *extra):
    junit = tmp_path / "junit.xml"
    r = run(
        [os.path.join(venv, "python"), "-m", "pytest", "-p", "no:cacheprovider", "-rA",
         "--callgrade-suite", suite, "--callgrade-responses", responses,
         "--junitxml", str(junit)] + list(extra),
        cwd=str(tmp_path), env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )
    return r, junit


@pytest.mark.parametrize("example", [WEATHER, AGENT], ids=["weather", "agent"])
def test_plugin(venv, tmp_path, example):
    suite, responses = example
    cli = run([os.path.join(venv, "callgrade"), "score", "--suite", suite, "--responses", responses, "--quiet"])
    results = [json.loads(l) for l in cli.stdout.splitlines()]
    passed = [x["id"] for x in results if x["pass"]]
    failed = [x["id"] for x in results if not x["pass"]]
    assert passed and failed

    r, junit = pytest_run(venv, tmp_path, suite, responses)
    assert r.returncode == 1, r.stdout + r.stderr  # some cases fail
    summary = r.stdout.strip().splitlines()[-1]
    assert re.search(r"\b%d failed, %d passed\b" % (len(failed), len(passed)), summary), r.stdout
    got = {}
    for line in r.stdout.splitlines():
        m = re.match(r"(PASSED|FAILED) (\S+)$", line)
        if m:
            got[m.group(2).rsplit("::", 1)[1]] = m.group(1)
            assert m.group(2).endswith("suite.yaml::" + m.group(2).rsplit("::", 1)[1])
    assert got == {x["id"]: "PASSED" if x["pass"] else "FAILED" for x in results}
    # A failure's text is its diffs as a table, with the messages.
    first = next(x for x in results if not x["pass"])
    assert "callgrade case %s failed" % first["id"] in r.stdout
    assert re.search(r"^kind +call .*path +expected +actual +rule +message$", r.stdout, re.M), r.stdout
    for d in first["diffs"]:
        assert d["message"] in r.stdout

    cases = ET.parse(str(junit)).getroot().iter("testcase")
    scores = {}
    for c in cases:
        props = {p.get("name"): p.get("value") for p in c.iter("property")}
        scores[c.get("name")] = float(props["callgrade_score"])
        assert (c.find("failure") is not None) == (c.get("name") in failed)
    assert scores == {x["id"]: float(x["score"]) for x in results}


def test_plugin_selects_and_reports_errors(venv, tmp_path):
    r, _ = pytest_run(venv, tmp_path, WEATHER[0], WEATHER[1], "-k", "berlin")
    assert re.search(r"\b1 failed, 8 deselected\b", r.stdout.splitlines()[-1]), r.stdout
    # With samples, one item per case and sample.
    r, _ = pytest_run(venv, tmp_path, os.path.join(REPO, "examples/samples/suite.yaml"),
                      os.path.join(REPO, "examples/samples/responses.jsonl"), "--collect-only", "-q")
    assert re.search(r"^\S*suite\.yaml::weather-berlin\[2\]$", r.stdout, re.M), r.stdout
    r, _ = pytest_run(venv, tmp_path, WEATHER[0], WEATHER[0])  # a suite is no responses file
    assert r.returncode == 2, r.stdout
    assert "ERROR collecting" in r.stdout and "callgrade could not score (exit status 2)" in r.stdout
    assert "not a JSON response line" in r.stdout
    r = run([os.path.join(venv, "python"), "-m", "pytest", "-p", "no:cacheprovider", "--callgrade-suite", WEATHER[0]],
            cwd=str(tmp_path))
    assert r.returncode == 4 and "--callgrade-responses" in r.stderr, r


def test_plugin_is_idle_without_its_options(venv, tmp_path):
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    r = run([os.path.join(venv, "python"), "-m", "pytest", "-p", "no:cacheprovider", "-q"], cwd=str(tmp_path),
            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert r.returncode == 0 and "1 passed" in r.stdout, r.stdout
    assert "plugins: callgrade-%s" % VERSION in run(
        [os.path.join(venv, "python"), "-m", "pytest", "-p", "no:cacheprovider"], cwd=str(tmp_path)).stdout


MAGIC = {"linux": b"\x7fELF", "darwin": b"\xcf\xfa\xed\xfe", "windows": b"MZ"}


def machine(head):
    """The architecture an ELF or Mach-O header says, or None for a PE file."""
    if head.startswith(b"\x7fELF"):
        return {0x3E: "amd64", 0xB7: "arm64"}.get(int.from_bytes(head[18:20], "little"))
    if head.startswith(b"\xcf\xfa\xed\xfe"):
        return {0x01000007: "amd64", 0x0100000C: "arm64"}.get(int.from_bytes(head[4:8], "little"))
    return None


@pytest.mark.skipif(not os.environ.get("CALLGRADE_TEST_ALL_PLATFORMS"), reason="set CALLGRADE_TEST_ALL_PLATFORMS=1 to cross-build every wheel")
def test_all_platforms(tmp_path):
    paths = build(tmp_path, "--platform", "all")
    names = sorted(os.path.basename(p) for p in paths)
    v = VERSION
    assert names == sorted([
        "callgrade-%s-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl" % v,
        "callgrade-%s-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.whl" % v,
        "callgrade-%s-py3-none-musllinux_1_1_x86_64.whl" % v,
        "callgrade-%s-py3-none-musllinux_1_1_aarch64.whl" % v,
        "callgrade-%s-py3-none-macosx_12_0_arm64.whl" % v,
        "callgrade-%s-py3-none-macosx_12_0_x86_64.whl" % v,
        "callgrade-%s-py3-none-win_amd64.whl" % v,
    ])
    for p in paths:
        goos = "windows" if "win_" in p else "darwin" if "macosx" in p else "linux"
        exe = "callgrade/bin/callgrade.exe" if goos == "windows" else "callgrade/bin/callgrade"
        with zipfile.ZipFile(p) as zf:
            with zf.open(exe) as f:
                head = f.read(64)
        assert head.startswith(MAGIC[goos]), p
        if goos != "windows":
            assert machine(head) == ("arm64" if ("arm64" in p or "aarch64" in p) else "amd64"), p
