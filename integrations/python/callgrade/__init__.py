"""callgrade: score an LLM's tool calls against expected calls by their structure.

The scoring is done by the callgrade binary shipped in this package
(callgrade/bin/). This module runs it:

    import callgrade
    results = callgrade.score("suite.yaml", "responses.jsonl")
    results = callgrade.score(["base.yaml", "more.yaml"], [{"id": "c1", "response": r}], format="openai")

Each result is the dict of one line of the results file (docs/scoring.md).
"""

import json
import os
import subprocess
import sys
import tempfile

try:
    from ._version import __version__
except ImportError:  # running from the source tree, not an installed wheel
    __version__ = "0.0.0"

__all__ = ["score", "CallgradeError", "find_callgrade_bin", "main", "__version__"]


class CallgradeError(Exception):
    """The binary could not score: the suite or the responses could not be
    read (exit status 2), or it was stopped. returncode and stderr are the
    binary's; the message is its stderr."""

    def __init__(self, returncode, stderr, args=None):
        self.returncode = returncode
        self.stderr = stderr
        self.cmd = args
        msg = stderr.strip() or "callgrade exited with status %d" % returncode
        super().__init__(msg)


def find_callgrade_bin():
    """Returns the path of the callgrade binary this package ships."""
    exe = "callgrade.exe" if sys.platform == "win32" else "callgrade"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", exe)
    if not os.path.isfile(path):
        raise FileNotFoundError("the callgrade binary is missing from the package: %s" % path)
    return path


def main():
    """The callgrade command: runs the binary with this process's arguments
    and exits with its status."""
    binary = find_callgrade_bin()
    args = [binary] + sys.argv[1:]
    if sys.platform == "win32":
        # Windows has no exec that keeps the process: wait for the child.
        try:
            sys.exit(subprocess.call(args))
        except KeyboardInterrupt:
            sys.exit(130)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(binary, args)


def _is_path(x):
    return isinstance(x, (str, bytes, os.PathLike))


def _flags(options):
    """Maps score's keyword options to the flags of callgrade score:
    workers=4 is --workers 4, fail_under=0.9 is --fail-under 0.9, a True
    value is the flag alone, False and None leave it out, a list repeats a
    flag (pass_k=[1, 3] is --pass-k 1 --pass-k 3)."""
    out = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                out += [flag, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
        else:
            out += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return out


def score(suite, responses, **options):
    """Scores responses against suite with one run of the callgrade binary
    and returns the results, one dict per line of the results file.

    suite is a path or a list of paths (--suite repeated: later files
    layer over earlier ones). responses is the path of a JSON Lines file,
    or an iterable of dicts ({"id": ..., "response": ...}), which are
    written to the binary's standard input as JSON Lines. Keyword options
    are callgrade score's flags with _ for -: format="openai",
    workers=4, samples=5, pass_k=[1, 3], junit="junit.xml",
    html="report.html", out="results.jsonl" (the results are also read
    back from there). --fail-under's exit status 1 is not an error here:
    the results are returned.

    Raises CallgradeError (with the binary's stderr and exit status) when
    the binary cannot score, for example when a file cannot be read.
    """
    suites = [suite] if _is_path(suite) else list(suite)
    if not suites:
        raise ValueError("callgrade.score: no suite given")
    options = dict(options)
    out_path = options.pop("out", None)
    options.setdefault("quiet", True)
    args = [find_callgrade_bin(), "score"]
    for s in suites:
        args += ["--suite", os.fspath(s)]
    stdin_data = None
    if _is_path(responses):
        args += ["--responses", os.fspath(responses)]
    else:
        args += ["--responses", "-"]
        stdin_data = responses
    if out_path is not None:
        args += ["--out", os.fspath(out_path)]
    args += _flags(options)

    # stdout and stderr go to files, so that writing the responses to a
    # pipe while the binary writes cannot block both.
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(
            args, stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
            stdout=stdout, stderr=stderr,
        )
        try:
            if stdin_data is not None:
                try:
                    for item in stdin_data:
                        line = json.dumps(item, ensure_ascii=False, separators=(",", ":"))
                        proc.stdin.write(line.encode("utf-8") + b"\n")
                    proc.stdin.close()
                except BrokenPipeError:
                    pass  # the binary stopped reading; its status says why
            returncode = proc.wait()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            if proc.stdin:
                try:
                    proc.stdin.close()
                except BrokenPipeError:
                    pass
        stderr.seek(0)
        err = stderr.read().decode("utf-8", "replace")
        # 1 is --fail-under's verdict; without the flag it would be a
        # failure to score, which the binary reports as 2.
        if returncode != 0 and not (returncode == 1 and "--fail-under" in args):
            raise CallgradeError(returncode, err, args)
        if out_path is not None:
            with open(out_path, "rb") as f:
                data = f.read()
        else:
            stdout.seek(0)
            data = stdout.read()
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
