#!/usr/bin/env bash
# Builds a callgrade release into OUTDIR (docs/release.md):
#
#   bash scripts/release.sh VERSION OUTDIR
#
# - callgrade_VERSION_GOOS_GOARCH[.exe], the binary of each platform:
#   CGO_ENABLED=0 go build -trimpath -buildvcs=false
#   -ldflags "-s -w -X main.version=VERSION", so that `callgrade version`
#   and `callgrade --version` print VERSION;
# - the Python wheels (integrations/python/build_wheel.py) and the npm
#   packages (integrations/npm/build.mjs) of those platforms, of VERSION;
# - suite.schema.json, the JSON Schema of a suite file (docs/suite.md);
# - SHA256SUMS, the SHA-256 of every other file, as sha256sum -c reads it.
#
# VERSION is X.Y.Z, or X.Y.Z-rc.N (-alpha.N, -beta.N): the wheels spell a
# pre-release as PEP 440 does (X.Y.ZrcN). OUTDIR must be new or empty, so
# that SHA256SUMS covers only this release.
#
# PLATFORMS (environment) limits the platforms, comma-separated GOOS_GOARCH
# names among the default, linux_amd64,linux_arm64,darwin_amd64,
# darwin_arm64,windows_amd64,windows_arm64; "host" is the machine's own.
# GO, PYTHON and NODE name the commands (default go, python3, node).
set -euo pipefail
export LC_ALL=C

usage() {
	echo "usage: bash scripts/release.sh VERSION OUTDIR   (PLATFORMS=linux_amd64,... to build fewer)" >&2
	exit 2
}
[ $# -eq 2 ] || usage
version=$1
out=$2
GO=${GO:-go}
PYTHON=${PYTHON:-python3}
NODE=${NODE:-node}
root=$(cd "$(dirname "$0")/.." && pwd)

# The wheels' spelling of the version (PEP 440) and npm's (semver).
if [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
	pyversion=$version
elif [[ $version =~ ^([0-9]+\.[0-9]+\.[0-9]+)-(alpha|beta|rc)\.([0-9]+)$ ]]; then
	pre=${BASH_REMATCH[2]}
	pre=${pre/alpha/a}
	pre=${pre/beta/b}
	pyversion=${BASH_REMATCH[1]}$pre${BASH_REMATCH[3]}
else
	echo "release.sh: version $version: want X.Y.Z or X.Y.Z-rc.N (-alpha.N, -beta.N)" >&2
	exit 2
fi

all=linux_amd64,linux_arm64,darwin_amd64,darwin_arm64,windows_amd64,windows_arm64
platforms=${PLATFORMS:-$all}
if [ "$platforms" = host ]; then
	platforms=$("$GO" env GOHOSTOS)_$("$GO" env GOHOSTARCH)
fi

# Each platform's wheels and npm package, by the names build_wheel.py and
# build.mjs give them. A static Linux binary serves glibc and musl alike.
wheels=()
npms=()
IFS=, read -r -a plats <<<"$platforms"
for p in "${plats[@]}"; do
	case $p in
	linux_amd64) wheels+=(manylinux_x86_64 musllinux_x86_64) npms+=(linux-x64) ;;
	linux_arm64) wheels+=(manylinux_aarch64 musllinux_aarch64) npms+=(linux-arm64) ;;
	darwin_amd64) wheels+=(macos_x86_64) npms+=(darwin-x64) ;;
	darwin_arm64) wheels+=(macos_arm64) npms+=(darwin-arm64) ;;
	windows_amd64) wheels+=(windows_amd64) npms+=(win32-x64) ;;
	windows_arm64) npms+=(win32-arm64) ;; # no wheel: build_wheel.py has no such platform
	*)
		echo "release.sh: unknown platform $p; want host or among $all" >&2
		exit 2
		;;
	esac
done

mkdir -p "$out"
if [ -n "$(ls -A "$out")" ]; then
	echo "release.sh: $out is not empty; SHA256SUMS would cover what is in it" >&2
	exit 1
fi
out=$(cd "$out" && pwd)

# The binaries, built as build_wheel.py builds the wheels' (only what is
# set here decides them), so that each is the same bytes as its wheel's.
for p in "${plats[@]}"; do
	goos=${p%_*}
	goarch=${p#*_}
	exe=callgrade_${version}_$p
	[ "$goos" = windows ] && exe=$exe.exe
	echo "release.sh: go build $goos/$goarch" >&2
	(
		cd "$root"
		unset GOFLAGS GOAMD64 GOARM64 GOEXPERIMENT GO386 GOARM
		CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOFLAGS=-mod=readonly \
			"$GO" build -trimpath -buildvcs=false -ldflags "-s -w -X main.version=$version" \
			-o "$out/$exe" ./cmd/callgrade
	)
done

if [ ${#wheels[@]} -gt 0 ]; then
	wheelset=$(
		IFS=,
		echo "${wheels[*]}"
	)
	GO=$GO "$PYTHON" "$root/integrations/python/build_wheel.py" --out "$out" --platform "$wheelset" --version "$pyversion" >/dev/null
fi
npmset=$(
	IFS=,
	echo "${npms[*]}"
)
"$NODE" "$root/integrations/npm/build.mjs" --out "$out" --platform "$npmset" --version "$version" >/dev/null

cp "$root/docs/suite.schema.json" "$out/suite.schema.json"

cd "$out"
files=()
for f in *; do # sorted, as LC_ALL=C sorts
	[ -f "$f" ] && files+=("$f")
done
if command -v sha256sum >/dev/null; then
	sha256sum "${files[@]}" >SHA256SUMS
else
	shasum -a 256 "${files[@]}" >SHA256SUMS
fi
cat SHA256SUMS
