#!/usr/bin/env python3
"""Build callgrade's Python wheels around its Go binary.

    python3 integrations/python/build_wheel.py --out DIR [--platform host|all|NAME,...]

Each wheel is callgrade-VERSION-py3-none-PLATFORM.whl: the Python package
(the API, `python -m callgrade`, the pytest plugin) and, in callgrade/bin/,
the binary that `CGO_ENABLED=0 go build -trimpath -buildvcs=false` makes for
that platform. Standard library only. The Go binary is built in a temporary
directory and nothing is written into the checkout; the wheel's bytes depend
only on the sources, the Go toolchain, VERSION and SOURCE_DATE_EPOCH, so two
builds give the same bytes.
"""

import argparse
import base64
import hashlib
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PACKAGE = "callgrade"

# name: (GOOS, GOARCH, wheel platform tags). A CGO_ENABLED=0 Go binary is
# static: it needs no libc, so the one Linux binary of an architecture
# serves glibc (manylinux2014 is the oldest tag pip still installs
# everywhere; Go needs kernel 3.2) and musl alike. Go 1.25 and later need
# macOS 12: the linker writes minos 12.0 into the binary, so a lower tag
# would install a binary that does not start.
PLATFORMS = {
    "manylinux_x86_64": ("linux", "amd64", ["manylinux_2_17_x86_64", "manylinux2014_x86_64"]),
    "manylinux_aarch64": ("linux", "arm64", ["manylinux_2_17_aarch64", "manylinux2014_aarch64"]),
    "musllinux_x86_64": ("linux", "amd64", ["musllinux_1_1_x86_64"]),
    "musllinux_aarch64": ("linux", "arm64", ["musllinux_1_1_aarch64"]),
    "macos_arm64": ("darwin", "arm64", ["macosx_12_0_arm64"]),
    "macos_x86_64": ("darwin", "amd64", ["macosx_12_0_x86_64"]),
    "windows_amd64": ("windows", "amd64", ["win_amd64"]),
}

SUMMARY = "Score an LLM's tool calls against expected calls by their parsed structure"

# The zip's timestamp when SOURCE_DATE_EPOCH is unset: 2020-01-01 00:00 UTC.
# (A zip cannot say anything before 1980.)
DEFAULT_EPOCH = 1577836800


def host_platform():
    """Returns the name in PLATFORMS of the machine this runs on."""
    machine = platform.machine().lower()
    arch = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(machine)
    if arch is None:
        raise SystemExit("build_wheel.py: no wheel for this machine (%s); use --platform" % machine)
    if sys.platform.startswith("linux"):
        libc, _ = platform.libc_ver()
        return ("manylinux_" if libc == "glibc" else "musllinux_") + arch
    if sys.platform == "darwin":
        return "macos_arm64" if arch == "aarch64" else "macos_x86_64"
    if sys.platform == "win32" and arch == "x86_64":
        return "windows_amd64"
    raise SystemExit("build_wheel.py: no wheel for %s on %s; use --platform" % (sys.platform, machine))


def read_version():
    with open(os.path.join(HERE, "VERSION"), encoding="utf-8") as f:
        return f.read().strip()


def find_go():
    go = os.environ.get("GO") or shutil.which("go")
    if not go and os.path.exists("/usr/local/go/bin/go"):
        go = "/usr/local/go/bin/go"
    if not go:
        raise SystemExit("build_wheel.py: go is not on PATH (set GO to the go command)")
    return go


def build_binary(go, goos, goarch, version, dest):
    """Builds cmd/callgrade for goos/goarch into the file dest."""
    env = dict(os.environ)
    # Only what is set here decides the binary: a user's GOFLAGS (-race,
    # -tags) or a CPU level would make other bytes.
    for k in ("GOFLAGS", "GOAMD64", "GOARM64", "GOEXPERIMENT", "GO386", "GOARM"):
        env.pop(k, None)
    env.update(CGO_ENABLED="0", GOOS=goos, GOARCH=goarch, GOFLAGS="-mod=readonly")
    cmd = [
        go, "build", "-trimpath", "-buildvcs=false",
        "-ldflags", "-s -w -X main.version=" + version,
        "-o", dest, "./cmd/callgrade",
    ]
    subprocess.run(cmd, cwd=REPO, env=env, check=True)


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def metadata(version):
    readme = (
        "callgrade scores an LLM's tool calls against expected calls by their\n"
        "parsed structure, not their text. This package holds the callgrade\n"
        "command (a Go binary), a Python API, `callgrade.score(suite, responses)`,\n"
        "and a pytest plugin, `pytest --callgrade-suite S --callgrade-responses R`.\n"
        "See docs/python.md in callgrade's repository.\n"
    )
    return (
        "Metadata-Version: 2.1\n"
        "Name: callgrade\n"
        "Version: %s\n"
        "Summary: %s\n"
        "Requires-Python: >=3.8\n"
        "Classifier: Framework :: Pytest\n"
        "Classifier: Programming Language :: Go\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Description-Content-Type: text/markdown\n"
        "\n%s" % (version, SUMMARY, readme)
    )


def wheel_file(tags):
    lines = ["Wheel-Version: 1.0", "Generator: callgrade build_wheel.py", "Root-Is-Purelib: false"]
    lines += ["Tag: py3-none-" + t for t in tags]
    return "\n".join(lines) + "\n"


ENTRY_POINTS = (
    "[console_scripts]\n"
    "callgrade = callgrade:main\n"
    "\n"
    "[pytest11]\n"
    "callgrade = callgrade.pytest_plugin\n"
)


def package_files(version, exe_name, binary):
    """Returns [(path in the wheel, bytes, mode)], the package's files sorted."""
    files = []
    src = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(src)):
        if name.endswith(".py"):
            with open(os.path.join(src, name), "rb") as f:
                files.append((PACKAGE + "/" + name, f.read(), 0o644))
    files.append((PACKAGE + "/_version.py", ('__version__ = "%s"\n' % version).encode(), 0o644))
    with open(binary, "rb") as f:
        files.append((PACKAGE + "/bin/" + exe_name, f.read(), 0o755))
    files.sort(key=lambda e: e[0])
    return files


def write_wheel(out_dir, version, tags, exe_name, binary, epoch):
    name = "%s-%s-py3-none-%s.whl" % (PACKAGE, version, ".".join(tags))
    dist_info = "%s-%s.dist-info" % (PACKAGE, version)
    entries = package_files(version, exe_name, binary)
    entries += [
        (dist_info + "/METADATA", metadata(version).encode("utf-8"), 0o644),
        (dist_info + "/WHEEL", wheel_file(tags).encode("utf-8"), 0o644),
        (dist_info + "/entry_points.txt", ENTRY_POINTS.encode("utf-8"), 0o644),
    ]
    record = "".join("%s,%s,%d\n" % (p, record_hash(d), len(d)) for p, d, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode("utf-8"), 0o644))

    date_time = time.gmtime(max(epoch, 315532800))[:6]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path, data, mode in entries:
            info = zipfile.ZipInfo(path, date_time=date_time)
            info.create_system = 3  # Unix, so that the mode below is read
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=9)
    os.makedirs(out_dir, exist_ok=True)
    dest = os.path.join(out_dir, name)
    tmp = dest + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf.getvalue())
    os.replace(tmp, dest)
    return dest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="directory the wheels are written to")
    ap.add_argument(
        "--platform", default="host",
        help="host (the default), all, or names among: " + ", ".join(PLATFORMS) + ", comma-separated",
    )
    ap.add_argument("--version", help="the wheel's and the binary's version (default: integrations/python/VERSION)")
    args = ap.parse_args(argv)

    version = args.version or read_version()
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?", version):
        raise SystemExit("build_wheel.py: version %r is not a PEP 440 public version" % version)
    if args.platform == "all":
        names = list(PLATFORMS)
    elif args.platform == "host":
        names = [host_platform()]
    else:
        names = [n.strip() for n in args.platform.split(",") if n.strip()]
        unknown = [n for n in names if n not in PLATFORMS]
        if unknown:
            ap.error("unknown platform %s; want host, all or among %s" % (", ".join(unknown), ", ".join(PLATFORMS)))
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", DEFAULT_EPOCH))
    go = find_go()

    with tempfile.TemporaryDirectory(prefix="callgrade-wheel-") as tmp:
        built = {}  # (goos, goarch) -> binary path: a Linux binary serves both libcs
        for n in names:
            goos, goarch, tags = PLATFORMS[n]
            exe = "callgrade.exe" if goos == "windows" else "callgrade"
            key = (goos, goarch)
            if key not in built:
                path = os.path.join(tmp, "%s_%s" % key, exe)
                print("build_wheel.py: go build %s/%s" % key, file=sys.stderr)
                build_binary(go, goos, goarch, version, path)
                built[key] = path
            print(write_wheel(args.out, version, tags, exe, built[key], epoch))


if __name__ == "__main__":
    main()
