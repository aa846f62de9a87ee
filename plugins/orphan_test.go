package plugins_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
)

// hostProcess is the test binary run as a host: it opens the plugin named
// by CALLGRADE_TEST_HOST, says so, and waits to be killed.
func hostProcess() {
	h, err := plugins.Open(map[string]suite.Plugin{"p": {Command: strings.Split(os.Getenv("CALLGRADE_TEST_HOST"), " ")}}, plugins.Options{})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	_ = h
	fmt.Println("ready")
	time.Sleep(time.Minute)
	os.Exit(1)
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// gone reports whether pid has exited (a zombie counts: nobody may reap
// orphans in a container).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return runtime.GOOS == "linux"
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] == 'Z'
}

func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !gone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("plugin process %d still runs %v after its host went", pid, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestNoOrphanWhenHostIsKilled(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses Unix signals")
	}
	tp := testPlugin(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// A host killed outright cannot remove its plugin's socket directory:
	// let the test's own TMPDIR take it.
	cmd.Env = append(os.Environ(), "CALLGRADE_TEST_HOST="+tp+" -pidfile "+pidfile, "TMPDIR="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if s != "ready\n" {
			cmd.Process.Kill()
			t.Fatalf("host did not start: %s", s)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("host did not start")
	}
	pid := readPid(t, pidfile)
	if gone(pid) {
		t.Fatal("plugin not running while its host is")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	waitGone(t, pid, 5*time.Second)
}
