#!/usr/bin/python3
"""Score a responses file with callgrade over a Dask cluster.

    score_dask.py --suite S [--suite S2 ...] --responses R --out F
                  [--workers N] [--blocksize 16MB] [--scheduler ADDR]
                  [--samples N] [--fail-under X] [--junit F] [--html F] [--quiet]

Dask reads the responses as a bag of lines, cut into blocks of --blocksize
bytes at line ends; each block is piped through `callgrade score --partial`
on a worker, and `callgrade merge` puts the blocks' lines back together on
this machine: F is byte for byte the results file of one `callgrade score
--out F` over R, whatever the block size, and the summary and the exit
status are score's too (docs/scale.md).

Without --scheduler, a distributed.LocalCluster of N worker processes on
127.0.0.1 runs the blocks (its working files in a temporary directory that
is removed at the end); with it, the cluster at ADDR does, and its workers
need the callgrade binary, the suite files and R at the paths given here.
The binary is $CALLGRADE, else callgrade on PATH.
"""
import argparse
import logging
import os
import shutil
import subprocess
import sys
import tempfile


def score_block(lines, binary, score_args):
    """Pipes one block's lines through callgrade score --partial and returns
    its output, one partial line per line, as the block's only element."""
    # The lines were decoded with surrogateescape: encoding them back gives
    # the file's bytes, also where they are not UTF-8.
    data = b"".join(
        (l if l.endswith("\n") else l + "\n").encode("utf-8", "surrogateescape") for l in lines
    )
    p = subprocess.run(
        [binary, "score", "--partial", "--responses", "-", "--workers", "1"] + score_args,
        input=data,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if p.returncode != 0:
        raise RuntimeError(
            "callgrade score --partial exited %d: %s" % (p.returncode, p.stderr.decode("utf-8", "replace").strip())
        )
    return [p.stdout]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", action="append", required=True, help="suite file (repeat to layer files)")
    ap.add_argument("--responses", required=True, help="responses file, JSON Lines (any path or URL Dask reads)")
    ap.add_argument("--out", required=True, help="results file")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes of the local cluster")
    ap.add_argument("--blocksize", default="16MB", help="bytes of responses per block (default 16MB)")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler, instead of a local cluster")
    ap.add_argument("--samples", type=int, help="response lines per case (default: the suite's samples:)")
    ap.add_argument("--format", help="response format, as callgrade score --format")
    ap.add_argument("--fail-under", help="exit 1 when the pass rate is below this")
    ap.add_argument("--junit", help="also write JUnit XML")
    ap.add_argument("--html", help="also write the HTML report")
    ap.add_argument("--quiet", "-q", action="store_true", help="print no summary")
    args = ap.parse_args(argv)

    binary = os.environ.get("CALLGRADE") or shutil.which("callgrade")
    if not binary:
        print("score_dask.py: no callgrade binary: set $CALLGRADE or put callgrade on PATH", file=sys.stderr)
        return 2
    binary = os.path.abspath(binary)
    suites = []
    for s in args.suite:
        suites += ["--suite", os.path.abspath(s)]
    common = list(suites)
    if args.samples is not None:
        common += ["--samples", str(args.samples)]
    score_args = common + (["--format", args.format] if args.format else [])

    # Dask's own chatter (a closing connection's timeout, say) would mix
    # with the summary on stderr: only its errors are said.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    logging.getLogger("distributed").setLevel(logging.ERROR)
    import dask.bag as db
    from distributed import Client, LocalCluster

    blocksize = args.blocksize
    if args.responses.endswith(".gz"):
        blocksize = None  # gzip cannot be cut: one block
    tmp = tempfile.mkdtemp(prefix="callgrade-dask-")
    cluster = client = None
    try:
        if args.scheduler:
            client = Client(args.scheduler)
        else:
            cluster = LocalCluster(
                n_workers=args.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                # The scheduler serves HTTP whatever the dashboard: on a free
                # port of 127.0.0.1, not on 8787, which another may hold.
                dashboard_address="127.0.0.1:0",
                local_directory=os.path.join(tmp, "dask"),
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
        # Lines are cut at "\n" only, and decoded so that encoding them
        # gives their bytes back: the blocks put together are the file.
        bag = db.read_text(
            args.responses,
            blocksize=blocksize,
            linedelimiter="\n",
            encoding="utf-8",
            errors="surrogateescape",
        )
        blocks = bag.map_partitions(score_block, binary, score_args).to_delayed()
        futures = client.compute(blocks)
        shards = []
        # In the order of the file, each block's lines to a file of its own
        # as soon as it is scored: the driver holds one block at a time.
        for i, fut in enumerate(futures):
            try:
                (data,) = fut.result()
            except RuntimeError as e:
                print("score_dask.py: block %d: %s" % (i, e), file=sys.stderr)
                return 2
            path = os.path.join(tmp, "block-%06d.partial.jsonl" % i)
            with open(path, "wb") as f:
                f.write(data)
            fut.release()
            shards.append(path)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    try:
        merge = [binary, "merge"] + common + ["--out", args.out]
        for flag in ("fail_under", "junit", "html"):
            v = getattr(args, flag)
            if v is not None:
                merge += ["--" + flag.replace("_", "-"), v]
        if args.quiet:
            merge.append("--quiet")
        return subprocess.run(merge + shards).returncode
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
