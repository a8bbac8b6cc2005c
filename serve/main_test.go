package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const secret = "TOP-SECRET-OUTSIDE"

// setup builds   base/secret.txt   and   base/pub/{index.html, app.wasm, ...}
// and returns the served directory base/pub.
func setup(t testing.TB) string {
	t.Helper()
	base := t.TempDir()
	pub := filepath.Join(base, "pub")
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secret.txt", secret)
	write("pub/index.html", "<!doctype html><title>x</title>INDEX")
	write("pub/style.css", "body{}")
	write("pub/page.js", "let x = 1;")
	write("pub/app.wasm", "\x00asm RAW")
	write("pub/app.wasm.br", "BROTLI")
	write("pub/app.wasm.gz", "GZIP")
	write("pub/sub/index.html", "SUBINDEX")
	write("pub/only.wasm", "\x00asm ONLY")
	write("pub/data/set-train.gz", "\x1f\x8bDATA")
	// Sidecars at least as new as the .wasm.
	t0 := time.Now().Add(-time.Hour)
	for _, n := range []string{"app.wasm", "app.wasm.br", "app.wasm.gz", "only.wasm"} {
		if err := os.Chtimes(filepath.Join(pub, n), t0, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(pub, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(pub, "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("index.html", filepath.Join(pub, "inside.html")); err != nil {
		t.Fatal(err)
	}
	return pub
}

func newHandler(t *testing.T, dir string) *Handler {
	t.Helper()
	h, err := NewHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// get calls the handler directly with an exact, uncleaned URL path.
func get(h http.Handler, urlPath, acceptEncoding string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.URL.Path = urlPath
	r.URL.RawPath = ""
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestIndexAndTypes(t *testing.T) {
	h := newHandler(t, setup(t))
	cases := []struct{ path, ctype, body string }{
		{"/", "text/html; charset=utf-8", "INDEX"},
		{"/index.html", "text/html; charset=utf-8", "INDEX"},
		{"/style.css", "text/css; charset=utf-8", "body{}"},
		{"/page.js", "text/javascript; charset=utf-8", "let x = 1;"},
		{"/sub/", "text/html; charset=utf-8", "SUBINDEX"},
		{"/inside.html", "text/html; charset=utf-8", "INDEX"},
		{"/data/set-train.gz", "application/octet-stream", "\x1f\x8bDATA"},
	}
	for _, c := range cases {
		w := get(h, c.path, "")
		if w.Code != 200 {
			t.Errorf("%s: status %d", c.path, w.Code)
			continue
		}
		if got := w.Header().Get("Content-Type"); got != c.ctype {
			t.Errorf("%s: Content-Type %q, want %q", c.path, got, c.ctype)
		}
		if got := w.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q", c.path, got)
		}
		if !strings.Contains(w.Body.String(), c.body) {
			t.Errorf("%s: body %q, want %q", c.path, w.Body.String(), c.body)
		}
	}
	// A dataset is opaque bytes even to a browser that accepts gzip: with
	// Content-Encoding it would arrive decompressed and fail its sha256.
	if w := get(h, "/data/set-train.gz", "gzip, br"); w.Header().Get("Content-Encoding") != "" || w.Body.String() != "\x1f\x8bDATA" {
		t.Errorf("/data/set-train.gz: Content-Encoding %q, body %q", w.Header().Get("Content-Encoding"), w.Body.String())
	}
	if w := get(h, "/sub", ""); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/sub/" {
		t.Errorf("/sub: status %d Location %q, want 301 to /sub/", w.Code, w.Header().Get("Location"))
	}
	if w := get(h, "/missing.js", ""); w.Code != 404 {
		t.Errorf("/missing.js: status %d", w.Code)
	}
}

func TestWasmSidecars(t *testing.T) {
	h := newHandler(t, setup(t))
	cases := []struct {
		path, accept, enc, body string
	}{
		{"/app.wasm", "", "", "\x00asm RAW"},
		{"/app.wasm", "identity", "", "\x00asm RAW"},
		{"/app.wasm", "gzip, deflate", "gzip", "GZIP"},
		{"/app.wasm", "gzip, deflate, br, zstd", "br", "BROTLI"},
		{"/app.wasm", "br;q=0, gzip", "gzip", "GZIP"},
		{"/app.wasm", "BR", "br", "BROTLI"},
		{"/app.wasm", "*", "br", "BROTLI"},
		{"/app.wasm", "br;q=0, gzip;q=0", "", "\x00asm RAW"},
		{"/only.wasm", "gzip, br", "", "\x00asm ONLY"},
	}
	for _, c := range cases {
		w := get(h, c.path, c.accept)
		if w.Code != 200 {
			t.Errorf("%s [%s]: status %d", c.path, c.accept, w.Code)
			continue
		}
		if got := w.Header().Get("Content-Type"); got != "application/wasm" {
			t.Errorf("%s [%s]: Content-Type %q", c.path, c.accept, got)
		}
		if got := w.Header().Get("Content-Encoding"); got != c.enc {
			t.Errorf("%s [%s]: Content-Encoding %q, want %q", c.path, c.accept, got, c.enc)
		}
		if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s [%s]: Vary %q", c.path, c.accept, got)
		}
		if got := w.Body.String(); got != c.body {
			t.Errorf("%s [%s]: body %q, want %q", c.path, c.accept, got, c.body)
		}
	}
	// The sidecars themselves are plain files if asked for by name.
	if w := get(h, "/app.wasm.br", "br"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("/app.wasm.br: status %d, Content-Encoding %q", w.Code, w.Header().Get("Content-Encoding"))
	}
}

func TestStaleSidecarIgnored(t *testing.T) {
	dir := setup(t)
	// Rebuild the .wasm after the sidecars were written: both are stale now.
	now := time.Now()
	if err := os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm NEW"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(dir, "app.wasm"), now, now); err != nil {
		t.Fatal(err)
	}
	h := newHandler(t, dir)
	w := get(h, "/app.wasm", "gzip, deflate, br")
	if w.Header().Get("Content-Encoding") != "" || w.Body.String() != "\x00asm NEW" {
		t.Fatalf("stale sidecar served: encoding %q body %q", w.Header().Get("Content-Encoding"), w.Body.String())
	}
	// A fresh gzip but a stale br: gzip wins.
	if err := os.Chtimes(filepath.Join(dir, "app.wasm.gz"), now, now); err != nil {
		t.Fatal(err)
	}
	w = get(h, "/app.wasm", "gzip, deflate, br")
	if w.Header().Get("Content-Encoding") != "gzip" || w.Body.String() != "GZIP" {
		t.Fatalf("want fresh gzip sidecar, got encoding %q body %q", w.Header().Get("Content-Encoding"), w.Body.String())
	}
}

func TestTraversalRefused(t *testing.T) {
	dir := setup(t)
	h := newHandler(t, dir)
	paths := []string{
		"/../secret.txt",
		"/../../secret.txt",
		"/sub/../../secret.txt",
		"/./../secret.txt",
		"..",
		"../secret.txt",
		"/..",
		"/..\\secret.txt",
		"/\\..\\secret.txt",
		"/link.txt", // symlink to a file outside
		"/up/secret.txt",
		"/up/pub/index.html",
		filepath.Join(filepath.Dir(dir), "secret.txt"), // absolute host path
		"//" + filepath.Join(filepath.Dir(dir), "secret.txt"),
		"/index.html\x00.png",
	}
	for _, p := range paths {
		w := get(h, p, "")
		if w.Code != http.StatusBadRequest && w.Code != http.StatusNotFound {
			t.Errorf("%q: status %d, want 400 or 404", p, w.Code)
		}
		if strings.Contains(w.Body.String(), secret) || strings.Contains(w.Body.String(), "INDEX") {
			t.Errorf("%q: leaked file contents: %q", p, w.Body.String())
		}
	}
}

// TestTraversalOverTCP sends raw request lines, so neither a client nor a mux
// cleans the path first; it covers percent-encoded dots as well.
func TestTraversalOverTCP(t *testing.T) {
	dir := setup(t)
	srv := httptest.NewServer(newHandler(t, dir))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	targets := []string{
		"/../secret.txt",
		"/%2e%2e/secret.txt",
		"/%2E%2E/secret.txt",
		"/.%2e/secret.txt",
		"/sub/%2e%2e/%2e%2e/secret.txt",
		"/%2e%2e%2fsecret.txt",
		"/sub%2f..%2f..%2fsecret.txt",
		"/..%5csecret.txt",
		"/link.txt",
		"/up/secret.txt",
	}
	for _, target := range targets {
		status, body := rawGet(t, addr, target)
		if status != 400 && status != 404 {
			t.Errorf("%s: status %d, want 400 or 404", target, status)
		}
		if strings.Contains(body, secret) {
			t.Errorf("%s: leaked %q", target, body)
		}
	}
	if status, body := rawGet(t, addr, "/"); status != 200 || !strings.Contains(body, "INDEX") {
		t.Errorf("/: status %d body %q", status, body)
	}
}

func rawGet(t *testing.T, addr, target string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", target)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestMethods(t *testing.T) {
	h := newHandler(t, setup(t))
	r := httptest.NewRequest(http.MethodPost, "/index.html", strings.NewReader("x"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d", w.Code)
	}
	r = httptest.NewRequest(http.MethodHead, "/app.wasm", nil)
	r.Header.Set("Accept-Encoding", "br")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "br" || w.Body.Len() != 0 {
		t.Errorf("HEAD: status %d encoding %q body %d bytes", w.Code, w.Header().Get("Content-Encoding"), w.Body.Len())
	}
}

func TestParseAcceptEncoding(t *testing.T) {
	got := parseAcceptEncoding("gzip;q=0.5, br ; q=0 , *;q=0.1, x-gzip")
	if !got["gzip"] || got["br"] {
		t.Errorf("got %v", got)
	}
	if got := parseAcceptEncoding(""); len(got) != 0 {
		t.Errorf("empty: got %v", got)
	}
}

// TestTextGzip: text is gzipped for a client that accepts it and decodes to
// the file's bytes; a client that does not gets the bytes as they are.
func TestTextGzip(t *testing.T) {
	h := newHandler(t, setup(t))
	cases := []struct {
		path, accept, enc, body string
	}{
		{"/page.js", "gzip, br", "gzip", "let x = 1;"},
		{"/style.css", "gzip", "gzip", "body{}"},
		{"/index.html", "gzip", "gzip", "INDEX"},
		{"/page.js", "", "", "let x = 1;"},
		{"/page.js", "br", "", "let x = 1;"},
		{"/page.js", "gzip;q=0", "", "let x = 1;"},
	}
	for _, c := range cases {
		w := get(h, c.path, c.accept)
		if w.Code != 200 {
			t.Errorf("%s [%s]: status %d", c.path, c.accept, w.Code)
			continue
		}
		if got := w.Header().Get("Content-Encoding"); got != c.enc {
			t.Errorf("%s [%s]: Content-Encoding %q, want %q", c.path, c.accept, got, c.enc)
			continue
		}
		if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s [%s]: Vary %q, want Accept-Encoding", c.path, c.accept, got)
		}
		body := w.Body.Bytes()
		if c.enc == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Errorf("%s [%s]: not gzip: %v", c.path, c.accept, err)
				continue
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Errorf("%s [%s]: gzip: %v", c.path, c.accept, err)
				continue
			}
		}
		if string(body) != c.body && !strings.Contains(string(body), c.body) {
			t.Errorf("%s [%s]: body %q, want %q", c.path, c.accept, body, c.body)
		}
	}
}
