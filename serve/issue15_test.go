package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Issue 15, class 10: files and folders whose name starts with a dot are
// not served, however the path is spelled.
func TestDotfilesRefused(t *testing.T) {
	dir := setup(t)
	for rel, content := range map[string]string{
		".git/config":    "[core] SECRET-GIT",
		".env":           "TOKEN=SECRET-ENV",
		"sub/.hidden":    "SECRET-HIDDEN",
		".well/index.js": "SECRET-INDEX",
	} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := newHandler(t, dir)
	for _, target := range []string{"/.git/config", "/.env", "/sub/.hidden", "/.well/", "/.well/index.js", "/.git", "/%2egit/config", "/sub/%2Ehidden", "/./.env"} {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code < 400 || strings.Contains(w.Body.String(), "SECRET") {
			t.Errorf("%s: status %d, body %q; want a refusal", target, w.Code, w.Body.String())
		}
	}
	// Ordinary files beside them are still served.
	if w := get(h, "/sub/", ""); w.Code != 200 {
		t.Errorf("/sub/: status %d", w.Code)
	}
}

// Issue 15, class 10: the redirect that adds a folder's trailing slash
// escapes the folder's name, so "?", "#" and "%" stay part of the path.
func TestFolderRedirectEscapes(t *testing.T) {
	dir := setup(t)
	for _, name := range []string{"a?b", "c#d", "50%", "e f"} {
		if runtime.GOOS == "windows" && strings.ContainsAny(name, "?") {
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "index.html"), []byte("IN "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := newHandler(t, dir)
	for _, c := range []struct{ name, target, location string }{
		{"a?b", "/a%3Fb", "/a%3Fb/"},
		{"c#d", "/c%23d", "/c%23d/"},
		{"50%", "/50%25", "/50%25/"},
		{"e f", "/e%20f", "/e%20f/"},
	} {
		r := httptest.NewRequest(http.MethodGet, c.target, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != c.location {
			t.Errorf("%s: status %d, Location %q; want 301 to %q", c.target, w.Code, w.Header().Get("Location"), c.location)
			continue
		}
		// Following the redirect reaches the folder's index.
		r = httptest.NewRequest(http.MethodGet, w.Header().Get("Location"), nil)
		w = httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 || w.Body.String() != "IN "+c.name {
			t.Errorf("%s: following the redirect gave %d %q", c.target, w.Code, w.Body.String())
		}
	}
}

// Issue 15, class 10: an address without a host binds loopback and says
// so; a host that is not loopback is honoured with a warning.
func TestListenAddr(t *testing.T) {
	for _, c := range []struct {
		addr, bind string
		note       string // a substring of the one note; "" for none
	}{
		{":8080", "127.0.0.1:8080", "names no host: listening on 127.0.0.1:8080 (loopback only)"},
		{":0", "127.0.0.1:0", "loopback only"},
		{"127.0.0.1:8080", "127.0.0.1:8080", ""},
		{"localhost:8080", "localhost:8080", ""},
		{"[::1]:8080", "[::1]:8080", ""},
		{"127.0.0.2:1", "127.0.0.2:1", ""},
		{"0.0.0.0:8080", "0.0.0.0:8080", "warning: listening on 0.0.0.0:8080, which is not loopback"},
		{"[::]:8080", "[::]:8080", "warning"},
		{"192.168.1.5:80", "192.168.1.5:80", "warning"},
		{"example.org:80", "example.org:80", "warning"},
	} {
		bind, notes, err := listenAddr(c.addr)
		if err != nil || bind != c.bind {
			t.Errorf("%s: bind %q, error %v; want %q", c.addr, bind, err, c.bind)
			continue
		}
		if c.note == "" && len(notes) != 0 || c.note != "" && (len(notes) != 1 || !strings.Contains(notes[0], c.note)) {
			t.Errorf("%s: notes %q; want one containing %q", c.addr, notes, c.note)
		}
	}
	for _, bad := range []string{"8080", "", "1.2.3.4"} {
		if _, _, err := listenAddr(bad); err == nil || !strings.Contains(err.Error(), "write host:port") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

// Issue 15, class 3: -dir must be a folder (see also the named pipe in
// issue15_unix_test.go).
func TestDirMustBeAFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if h, err := NewHandler(file); err == nil || !strings.Contains(err.Error(), "is not a folder") {
		if h != nil {
			h.Close()
		}
		t.Errorf("-dir %s: error %v", file, err)
	}
}
