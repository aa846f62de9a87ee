package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/testenv"
)

// serveProc is a running callgrade serve process.
type serveProc struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:PORT
	mu   sync.Mutex
	log  strings.Builder
	done chan error
}

var servingAddr = regexp.MustCompile(`msg=serving addr=(https?://127\.0\.0\.1:[0-9]+)`)

// startServe starts the built binary with args (which listen on
// 127.0.0.1:0) from the repository root, and waits, for a bounded time, for
// the address it serves and for /healthz.
func startServe(t *testing.T, env []string, args ...string) *serveProc {
	t.Helper()
	return startServeWith(t, http.DefaultClient, env, args...)
}

// startServeWith is startServe asking /healthz with client.
func startServeWith(t *testing.T, client *http.Client, env []string, args ...string) *serveProc {
	t.Helper()
	s := &serveProc{cmd: exec.Command(bin, append([]string{"serve"}, args...)...), done: make(chan error, 1)}
	s.cmd.Dir = "../.."
	s.cmd.Env = append(os.Environ(), env...)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.mu.Lock()
			s.log.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
		s.done <- s.cmd.Wait()
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			<-s.done
		}
	})
	select {
	case s.base = <-addr:
	case <-time.After(20 * time.Second):
		t.Fatalf("callgrade serve announced no address:\n%s", s.stderr())
	}
	for i := 0; ; i++ {
		resp, err := client.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if i == 100 {
			t.Fatalf("/healthz never answered 200: %v\n%s", err, s.stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return s
}

func (s *serveProc) stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// waitLog waits, for a bounded time, until stderr holds want.
func (s *serveProc) waitLog(t *testing.T, want string) {
	t.Helper()
	for range 200 {
		if strings.Contains(s.stderr(), want) {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("stderr never said %q:\n%s", want, s.stderr())
}

// stop sends sig and returns the exit status, waiting a bounded time.
func (s *serveProc) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	s.cmd.Process.Signal(sig)
	select {
	case err := <-s.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		t.Fatalf("callgrade serve did not exit on %v:\n%s", sig, s.stderr())
		return -1
	}
}

func get(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServe runs callgrade serve as users do: a token from the
// environment, a request, a bad suite on SIGHUP (the old one is served on),
// a good one on SIGHUP, then SIGTERM and a clean exit.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n")
	s := startServe(t, []string{"CALLGRADE_TOKEN=tok"}, "--suite", file, "--addr", "127.0.0.1:0")

	if code, body := get(t, "POST", s.base+"/v1/score", "", `{"id": "a", "response": []}`); code != 401 {
		t.Errorf("without the token: %d %s", code, body)
	}
	code, body := get(t, "POST", s.base+"/v1/score", "tok", `{"id": "a", "response": []}`)
	if code != 200 || body != `{"id":"a","pass":true,"score":1,"calls":[],"diffs":[]}`+"\n" {
		t.Errorf("score: %d %s", code, body)
	}

	writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: {name: f, rules: {x: {regex: \"(\"}}}}\n")
	s.cmd.Process.Signal(syscall.SIGHUP)
	s.waitLog(t, "reload failed; serving the previous suite")
	if code, body := get(t, "GET", s.base+"/healthz", "", ""); code != 200 || body != `{"status":"ok","cases":1}`+"\n" {
		t.Errorf("after a bad reload: %d %s", code, body)
	}

	writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n")
	s.cmd.Process.Signal(syscall.SIGHUP)
	s.waitLog(t, "suite reloaded")
	if code, body := get(t, "POST", s.base+"/v1/score", "tok", `{"id": "b", "response": []}`); code != 200 || !strings.Contains(body, `"pass":true`) {
		t.Errorf("after a reload: %d %s", code, body)
	}

	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM:\n%s", code, s.stderr())
	}
	if !strings.Contains(s.stderr(), "msg=stopped") {
		t.Errorf("no clean stop logged:\n%s", s.stderr())
	}
}

func TestServeBadSuite(t *testing.T) {
	r := runCLI(t, "serve", "--suite", "no/such/suite.yaml", "--addr", "127.0.0.1:0")
	if r.code != 2 || !strings.Contains(r.stderr, "no/such/suite.yaml") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}

// TestServiceDocs starts the server docs/service.md starts, on a free port
// instead of 8080, and runs every curl command of the page against it.
func TestServiceDocs(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		testenv.Skipf(t, "curl is absent (apt-get install curl): the curl commands of docs/service.md are not run")
	}
	data, err := os.ReadFile("../../docs/service.md")
	if err != nil {
		t.Fatal(err)
	}
	const docAddr = "127.0.0.1:8080"
	var serve []string
	var curls []string
	for _, cmd := range shCommands(string(data)) {
		if args, ok := strings.CutPrefix(cmd, "callgrade serve "); ok {
			serve = strings.Fields(strings.ReplaceAll(args, docAddr, "127.0.0.1:0"))
			continue
		}
		if strings.HasPrefix(cmd, "curl ") {
			curls = append(curls, cmd)
		}
	}
	if serve == nil || len(curls) < 5 {
		t.Fatalf("docs/service.md has no serve command or too few curl commands (%d)", len(curls))
	}
	s := startServe(t, []string{"CALLGRADE_TOKEN="}, serve...)
	host := strings.TrimPrefix(s.base, "http://")
	for _, c := range curls {
		sh := exec.Command("sh", "-c", strings.ReplaceAll(c, docAddr, host))
		sh.Dir = "../.."
		out, err := sh.CombinedOutput()
		if err != nil || len(out) == 0 {
			t.Errorf("%s: %v\n%s", c, err, out)
		}
	}
	if code := s.stop(t, syscall.SIGINT); code != 0 {
		t.Errorf("exit %d after SIGINT:\n%s", code, s.stderr())
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key into dir, and
// returns the certificate.
func selfSigned(t *testing.T, dir string, serial int64) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: "callgrade test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "cert.pem", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	writeFile(t, dir, "key.pem", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})))
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// With --tls-cert and --tls-key the service speaks HTTPS only, and SIGHUP
// puts a renewed certificate in service without a restart.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	first := selfSigned(t, dir, 1)
	pool := x509.NewCertPool()
	pool.AddCert(first)
	client := func(pool *x509.CertPool) *http.Client {
		return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}}
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	s := startServeWith(t, client(pool), nil, "--suite", "examples/weather/suite.yaml", "--addr", "127.0.0.1:0",
		"--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(s.base, "https://") {
		t.Fatalf("serving %s", s.base)
	}
	resp, err := client(pool).Post(s.base+"/v1/score", "application/json", strings.NewReader(`{"id": "no-tool-needed", "response": []}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"id":"no-tool-needed","pass":true`) {
		t.Errorf("over HTTPS: %d %s", resp.StatusCode, body)
	}
	plain := "http://" + strings.TrimPrefix(s.base, "https://")
	if resp, err := http.Get(plain + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Error("plain HTTP was answered 200")
		}
	}

	// A renewed certificate, then SIGHUP: new connections get it.
	second := selfSigned(t, dir, 2)
	s.cmd.Process.Signal(syscall.SIGHUP)
	pool.AddCert(second)
	for i := 0; ; i++ {
		resp, err := client(pool).Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.TLS.PeerCertificates[0].SerialNumber.Int64() == 2 {
				break
			}
		}
		if i == 100 {
			t.Fatalf("the renewed certificate was never served: %v\n%s", err, s.stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A broken one is refused, and the renewed one stays.
	writeFile(t, dir, "cert.pem", "not a certificate")
	s.cmd.Process.Signal(syscall.SIGHUP)
	for i := 0; !strings.Contains(s.stderr(), "certificate not reloaded"); i++ {
		if i == 100 {
			t.Fatalf("no message about the broken certificate:\n%s", s.stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
	resp, err = client(pool).Get(s.base + "/healthz")
	if err != nil {
		t.Fatalf("after a broken certificate: %v", err)
	}
	resp.Body.Close()
	if n := resp.TLS.PeerCertificates[0].SerialNumber.Int64(); n != 2 {
		t.Errorf("serving certificate %d, want the renewed one (2)", n)
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM:\n%s", code, s.stderr())
	}
}

func TestServeTLSFlags(t *testing.T) {
	if r := runCLI(t, "serve", "--suite", "examples/weather/suite.yaml", "--tls-cert", "cert.pem"); r.code != 2 || !strings.Contains(r.stderr, "--tls-cert and --tls-key go together") {
		t.Errorf("--tls-cert alone: exit %d: %s", r.code, r.stderr)
	}
	dir := t.TempDir()
	bad := writeFile(t, dir, "cert.pem", "not a certificate")
	if r := runCLI(t, "serve", "--suite", "examples/weather/suite.yaml", "--addr", "127.0.0.1:0", "--tls-cert", bad, "--tls-key", bad); r.code != 2 || !strings.Contains(r.stderr, bad) {
		t.Errorf("a file that is no certificate: exit %d: %s", r.code, r.stderr)
	}
}

// serve --watch reloads the suite when its file changes, without a signal.
func TestServeWatch(t *testing.T) {
	dir := t.TempDir()
	s := writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n")
	p := startServe(t, nil, "--suite", s, "--addr", "127.0.0.1:0", "--watch", "20ms")
	writeFile(t, dir, "suite.yaml", "version: 1\ncases:\n  - {id: a, expected: []}\n  - {id: b, expected: []}\n")
	for i := 0; ; i++ {
		resp, err := http.Get(p.base + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), `"cases":2`) {
				break
			}
		}
		if i == 200 {
			t.Fatalf("the edited suite was never served:\n%s", p.stderr())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(p.stderr(), "suite files changed; reloading") {
		t.Errorf("no message about the reload:\n%s", p.stderr())
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM:\n%s", code, p.stderr())
	}
}
