"""pytest plugin: one test item per callgrade case.

    pytest --callgrade-suite suite.yaml --callgrade-responses responses.jsonl

adds to the session one item per line of callgrade's results, named by the
case's id under the (first) suite file: suite.yaml::weather-berlin (with
samples, suite.yaml::weather-berlin[2]). The binary runs once, when the
items are collected. An item passes when its case passed; a failing one
shows its diffs as a table, and every item records its score as the JUnit
property callgrade_score (--junitxml). A suite or responses file that
cannot be read is a collection error with callgrade's message.
"""

import json
import os
from pathlib import Path

import pytest

import callgrade

# The flags of callgrade score the plugin passes on: option name -> score's
# keyword.
_PASSED_ON = (("format", "format"), ("samples", "samples"), ("workers", "workers"))


def pytest_addoption(parser):
    group = parser.getgroup("callgrade", "callgrade: score an LLM's tool calls, one test per case")
    group.addoption(
        "--callgrade-suite", action="append", default=[], metavar="SUITE",
        help="callgrade suite file (repeat to layer files, as callgrade score's --suite)",
    )
    group.addoption(
        "--callgrade-responses", metavar="RESPONSES",
        help="responses file (JSON Lines) scored against --callgrade-suite",
    )
    group.addoption("--callgrade-format", metavar="F", help="response format (callgrade score --format)")
    group.addoption("--callgrade-samples", type=int, metavar="N", help="response lines per case (callgrade score --samples)")
    group.addoption("--callgrade-workers", type=int, metavar="N", help="goroutines that score (callgrade score --workers)")


def pytest_configure(config):
    suites = config.getoption("callgrade_suite")
    responses = config.getoption("callgrade_responses")
    if bool(suites) != bool(responses):
        raise pytest.UsageError("--callgrade-suite and --callgrade-responses go together")


class CaseFailed(Exception):
    """A case's result did not pass."""

    def __init__(self, result):
        super().__init__(result.get("id"))
        self.result = result


class CallgradeSuite(pytest.File):
    """The suite files: runs callgrade once and yields a CallgradeCase per
    result line."""

    def __init__(self, *, suites, responses, options, **kw):
        super().__init__(**kw)
        self.suites = suites
        self.responses = responses
        self.options = options

    def collect(self):
        results = callgrade.score(self.suites, self.responses, **self.options)
        seen = {}
        for r in results:
            name = str(r.get("id"))
            if "sample" in r:
                name += "[%s]" % r["sample"]
            if name in seen:  # a second line for one name: keep both items
                seen[name] += 1
                name += "[%d]" % seen[name]
            else:
                seen[name] = 0
            yield CallgradeCase.from_parent(self, name=name, result=r)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, callgrade.CallgradeError):
            e = excinfo.value
            return "callgrade could not score (exit status %d):\n%s" % (e.returncode, e.stderr.rstrip())
        return super().repr_failure(excinfo)


class CallgradeCase(pytest.Item):
    """One result line of callgrade score."""

    def __init__(self, *, result, **kw):
        super().__init__(**kw)
        self.result = result
        self.user_properties.append(("callgrade_score", result.get("score")))

    def runtest(self):
        if not self.result.get("pass"):
            raise CaseFailed(self.result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return format_failure(excinfo.value.result)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, "callgrade case %s" % self.result.get("id")


def _cell(v, limit=40):
    s = json.dumps(v, ensure_ascii=False)
    if len(s) > limit:
        s = s[: limit - 1] + "\u2026"
    return s


def format_failure(result):
    """The failure text of a failed case: its score and its diffs as a table."""
    diffs = result.get("diffs") or []
    head = "callgrade case %s failed: score %s, %d diff%s" % (
        result.get("id"), result.get("score"), len(diffs), "" if len(diffs) == 1 else "s")
    if "sample" in result:
        head += " (sample %s)" % result["sample"]
    if not diffs:
        return head
    has_step = any("step" in d for d in diffs)
    cols = ["kind", "call"] + (["step"] if has_step else []) + ["path", "expected", "actual", "rule", "message"]
    rows = []
    for d in diffs:
        call = d.get("call")
        row = [d.get("kind", ""), "-" if call is None else str(call)]
        if has_step:
            step = d.get("step")
            row.append("-" if step is None else str(step))
        row += [
            d.get("path", ""),
            _cell(d["expected"]) if "expected" in d else "",
            _cell(d["actual"]) if "actual" in d else "",
            d.get("rule", ""),
            d.get("message", ""),
        ]
        rows.append(row)
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    lines = [head, ""]
    for r in [cols] + rows:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    return "\n".join(lines)


def _nodeid(path, rootpath):
    """The suite's node id: its path from the rootdir, as pytest names a
    test file, even when it lies outside the rootdir (../suite.yaml)."""
    return os.path.relpath(str(path), str(rootpath)).replace(os.sep, "/")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    # First among the hooks, so that -k, -m and --deselect see the cases.
    suites = config.getoption("callgrade_suite")
    if not suites:
        return
    base = config.invocation_params.dir
    suites = [str(Path(base, s)) for s in suites]
    responses = str(Path(base, config.getoption("callgrade_responses")))
    options = {}
    for opt, key in _PASSED_ON:
        v = config.getoption("callgrade_" + opt)
        if v is not None:
            options[key] = v
    path = Path(suites[0])
    node = CallgradeSuite.from_parent(
        session, path=path, nodeid=_nodeid(path, config.rootpath),
        suites=suites, responses=responses, options=options,
    )
    session.ihook.pytest_collectstart(collector=node)
    rep = session.ihook.pytest_make_collect_report(collector=node)
    session.ihook.pytest_collectreport(report=rep)
    if rep.passed:
        for item in rep.result:
            session.ihook.pytest_itemcollected(item=item)
            items.append(item)
