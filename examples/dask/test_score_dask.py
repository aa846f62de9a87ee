#!/usr/bin/python3
"""Holds score_dask.py to its promise: its results file is byte for byte
that of one `callgrade score` over the whole responses file, and its
summary and exit status are score's, whatever the block size.

    CALLGRADE=bin/callgrade /usr/bin/python3 examples/dask/test_score_dask.py

The corpora are made here: a plain one and one with samples, shuffled,
with dropped cases and samples, ids that name no case, blank lines, a line
without "response", a line that is not JSON and one with bytes that are
not UTF-8. Prints one line per check and "N passed, N failed" last; exits
1 when a check failed.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "score_dask.py")


def corpus(dirname, name, cases, samples, seed):
    rnd = random.Random(seed)
    cities = ["Berlin", "Paris", "Lisbon", "Osaka"]
    suite = {"version": 1, "cases": []}
    if samples:
        suite["samples"] = samples
    lines = []
    for i in range(cases):
        city = rnd.choice(cities)
        cid = "%s-%d" % (name, i)
        suite["cases"].append({"id": cid, "expected": {"name": "get_weather", "arguments": {"city": city, "days": i % 7}}})
        for k in range(max(samples, 1)):
            if rnd.random() < 0.05:
                continue  # dropped: missing_response
            got = city if rnd.random() < 0.8 else rnd.choice(cities)
            line = {"id": cid, "response": [{"name": "get_weather", "arguments": {"days": float(i % 7), "city": got}}]}
            if samples:
                line["sample"] = k
            lines.append(json.dumps(line).encode())
    for j in range(cases // 20):
        line = {"id": "stranger-%d" % (j % 3), "response": []}
        if samples:
            line["sample"] = 0
        lines.append(json.dumps(line).encode())
    rnd.shuffle(lines)
    s = ', "sample": 0' if samples else ""
    extra = [
        b"",
        b"   ",
        ('{"id": "%s-1"%s}' % (name, s)).encode(),  # no "response": the message names the line
        ('{"id": "%s-2"%s, "response": [{"name": "get_weather", "arguments": {"city": "x",}}]}' % (name, s)).encode(),
        ('{"id": "%s-3"%s, "response": [{"name": "get_weather", "arguments": {"city": "' % (name, s)).encode() + b"\xff\xfe" + b'"}}]}',
    ]
    # Those three cases have these lines instead of their own.
    special = [("\"id\": \"%s-%d\"" % (name, c)).encode() for c in (1, 2, 3)]
    lines = [l for l in lines if not any(sp in l for sp in special)]
    for e in extra:
        lines.insert(rnd.randrange(len(lines) + 1), e)
    out = lines
    suite_path = os.path.join(dirname, name + ".suite.json")
    with open(suite_path, "w") as f:
        json.dump(suite, f)
    resp_path = os.path.join(dirname, name + ".jsonl")
    with open(resp_path, "wb") as f:
        f.write(b"\n".join(out) + b"\n")
    return suite_path, resp_path


def main():
    binary = os.environ.get("CALLGRADE") or shutil.which("callgrade")
    if not binary:
        print("no callgrade binary: set $CALLGRADE", file=sys.stderr)
        return 2
    binary = os.path.abspath(binary)
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="callgrade-dask-test-")
    from distributed import LocalCluster
    import logging

    cluster = None
    try:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address="127.0.0.1:0", local_directory=os.path.join(tmp, "dask"),
                               silence_logs=logging.ERROR)
        env = dict(os.environ, CALLGRADE=binary)
        runs = [
            ("plain", 400, 0, ["2000", "64", "7KB", "16MB"]),
            ("samples", 150, 3, ["3000", "16MB"]),
        ]
        first = True
        for name, cases, samples, blocksizes in runs:
            suite, responses = corpus(tmp, name, cases, samples, seed=30 + cases)
            want_out = os.path.join(tmp, name + ".one.jsonl")
            one = subprocess.run([binary, "score", "--suite", suite, "--responses", responses, "--out", want_out, "--fail-under", "0.9"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            with open(want_out, "rb") as f:
                want = f.read()
            for bs in blocksizes:
                got_out = os.path.join(tmp, "%s.%s.jsonl" % (name, bs))
                cmd = [sys.executable, SCRIPT, "--suite", suite, "--responses", responses, "--out", got_out,
                       "--blocksize", bs, "--fail-under", "0.9"]
                how = "a local cluster of 2 workers"
                if first:
                    cmd += ["--workers", "2"]  # the script's own LocalCluster, once
                    first = False
                else:
                    cmd += ["--scheduler", cluster.scheduler_address]
                    how = "--scheduler"
                got = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                with open(got_out, "rb") if os.path.exists(got_out) else open(os.devnull, "rb") as f:
                    data = f.read()
                problems = []
                if got.returncode != one.returncode:
                    problems.append("exit %d, one run %d" % (got.returncode, one.returncode))
                if data != want:
                    problems.append("results differ from one run's (%d bytes, want %d)" % (len(data), len(want)))
                if got.stderr != one.stderr:
                    problems.append("summary differs:\n%s\nwant\n%s" % (got.stderr.decode("utf-8", "replace"), one.stderr.decode("utf-8", "replace")))
                what = "%s corpus (%d lines), blocksize %s, %s" % (name, want.count(b"\n"), bs, how)
                if problems:
                    failed += 1
                    print("FAIL %s: %s" % (what, "; ".join(problems)))
                else:
                    passed += 1
                    print("ok   %s: byte for byte one run's, exit %d" % (what, one.returncode))
        left = [d for d in os.listdir(tempfile.gettempdir()) if d.startswith("callgrade-dask-") and not d.startswith("callgrade-dask-test-")]
        if left:
            failed += 1
            print("FAIL score_dask.py left temporary directories: %s" % left)
        else:
            passed += 1
            print("ok   score_dask.py removed its temporary directories")
    finally:
        if cluster is not None:
            cluster.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
