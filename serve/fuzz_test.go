package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzServePath: no request path, however spelled, reaches a dotfile or a
// file outside the served folder, and none panics.
func FuzzServePath(f *testing.F) {
	dir := setup(f)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("SECRET-GIT"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET-ENV"), 0o644)
	h, err := NewHandler(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { h.Close() })
	for _, s := range []string{"/.env", "/.git/config", "//.env", "/./.env", "/sub/../.env", "/up/secret.txt", "/link.txt", "/sub", "/a?b", "/%2e%2e/secret.txt", "/.git/", "/sub/./../.git/config"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.URL.Path = p
		r.URL.RawPath = ""
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if body := w.Body.String(); strings.Contains(body, "SECRET") || strings.Contains(body, secret) {
			t.Fatalf("%q: served %q", p, body)
		}
	})
}
