package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/internal/testenv"
)

// releaseScript runs scripts/release.sh from the repository root with
// PLATFORMS=host, returning its exit status and what it wrote to stderr.
func releaseScript(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"scripts/release.sh"}, args...)...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "PLATFORMS=host")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// TestReleaseScriptRefuses: a version neither semver nor PEP 440 can
// spell alike, and an output folder with something in it, are refused
// before anything is built.
func TestReleaseScriptRefuses(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Skipf(t, "scripts/release.sh needs bash: %v", err)
	}
	if code, stderr := releaseScript(t, "v1.2", t.TempDir()); code != 2 || !strings.Contains(stderr, "want X.Y.Z") {
		t.Errorf("version v1.2: exit %d, want 2 saying what a version is:\n%s", code, stderr)
	}
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "old.whl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := releaseScript(t, "1.2.3", full); code != 1 || !strings.Contains(stderr, "not empty") {
		t.Errorf("a folder with a file in it: exit %d, want 1 saying it is not empty:\n%s", code, stderr)
	}
}

// TestReleaseScript builds a release for this machine only: its binary
// prints the version with `version` and with `--version`, the wheels'
// binaries print the wheels' spelling of it, SHA256SUMS covers every file
// and sha256sum -c agrees with it, and the suite schema is docs'.
func TestReleaseScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds callgrade three times (binary, wheel, npm package)")
	}
	for _, c := range []string{"bash", "python3", "node", "npm"} {
		if _, err := exec.LookPath(c); err != nil {
			testenv.Skipf(t, "scripts/release.sh builds the Python wheels and npm packages too, which need %s: %v", c, err)
		}
	}
	const version, pyVersion = "1.2.3-rc.4", "1.2.3rc4"
	out := t.TempDir()
	if code, stderr := releaseScript(t, version, out); code != 0 {
		t.Fatalf("release.sh exited %d:\n%s", code, stderr)
	}

	exe := "callgrade_" + version + "_" + runtime.GOOS + "_" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	for _, arg := range []string{"version", "--version"} {
		got, err := exec.Command(filepath.Join(out, exe), arg).Output()
		if want := "callgrade " + version + "\n"; err != nil || string(got) != want {
			t.Errorf("%s %s: %q (%v), want %q", exe, arg, got, err, want)
		}
	}

	files := checkSums(t, out)

	schema, err := os.ReadFile(filepath.Join(out, "suite.schema.json"))
	want, _ := os.ReadFile("../../docs/suite.schema.json")
	if err != nil || !bytes.Equal(schema, want) {
		t.Errorf("suite.schema.json is not docs/suite.schema.json (%v)", err)
	}

	var wheels, tgzs int
	for _, name := range files {
		switch {
		case strings.HasSuffix(name, ".whl"):
			wheels++
			if !strings.HasPrefix(name, "callgrade-"+pyVersion+"-") {
				t.Errorf("wheel %s, want version %s", name, pyVersion)
			}
			if runtime.GOOS == "linux" {
				bin := fromWheel(t, filepath.Join(out, name), "callgrade/bin/callgrade")
				if got, err := exec.Command(bin, "--version").Output(); string(got) != "callgrade "+pyVersion+"\n" {
					t.Errorf("the binary of %s prints %q (%v), want callgrade %s", name, got, err, pyVersion)
				}
			}
		case strings.HasSuffix(name, ".tgz"):
			tgzs++
			if !strings.HasSuffix(name, "-"+version+".tgz") {
				t.Errorf("npm package %s, want version %s", name, version)
			}
		}
	}
	if wheels == 0 || tgzs < 2 {
		t.Errorf("%d wheels and %d npm packages, want the host's wheels, @callgrade/promptfoo and the host's package", wheels, tgzs)
	}

	t.Run("npm binary", func(t *testing.T) {
		npm := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		goos := map[string]string{"windows": "win32"}[runtime.GOOS]
		if goos == "" {
			goos = runtime.GOOS
		}
		if runtime.GOOS == "windows" {
			t.Skip("reads the Unix binary's name")
		}
		bin := fromTgz(t, filepath.Join(out, "callgrade-"+goos+"-"+npm+"-"+version+".tgz"), "package/bin/callgrade")
		got, err := exec.Command(bin, "version").Output()
		if string(got) != "callgrade "+version+"\n" {
			t.Errorf("the npm package's binary prints %q (%v), want callgrade %s", got, err, version)
		}
	})
}

// fromWheel extracts the file name from a wheel into a temporary file,
// executable, and returns its path.
func fromWheel(t *testing.T, wheel, name string) string {
	t.Helper()
	z, err := zip.OpenReader(wheel)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name == name {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			return writeExe(t, r)
		}
	}
	t.Fatalf("%s holds no %s", wheel, name)
	return ""
}

// fromTgz extracts the file name from an npm package.
func fromTgz(t *testing.T, tgz, name string) string {
	t.Helper()
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s holds no %s: %v", tgz, name, err)
		}
		if h.Name == name {
			return writeExe(t, tr)
		}
	}
}

func writeExe(t *testing.T, r io.Reader) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "callgrade")
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkSums checks that SHA256SUMS in the release folder out names every
// other file, each with its digest, and returns their names, sorted.
func checkSums(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var files, summed []string
	for _, e := range entries {
		if e.Name() != "SHA256SUMS" {
			files = append(files, e.Name())
		}
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: line %q is not DIGEST  NAME", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("SHA256SUMS names %s: %v", name, err)
		}
		if d := sha256.Sum256(b); hex.EncodeToString(d[:]) != sum {
			t.Errorf("SHA256SUMS: %s has another digest", name)
		}
		summed = append(summed, name)
	}
	if !slices.Equal(files, summed) {
		t.Errorf("SHA256SUMS names %v, want every file, sorted: %v", summed, files)
	}
	if _, err := exec.LookPath("sha256sum"); err == nil {
		check := exec.Command("sha256sum", "-c", "SHA256SUMS")
		check.Dir = out
		if b, err := check.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c SHA256SUMS: %v\n%s", err, b)
		}
	}
	return files
}
