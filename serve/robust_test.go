package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Row 14 of the robustness issue: a named pipe in the served folder blocked
// every request for it (a thread each) for ever. Now anything but a regular
// file or folder is a 404, answered at once.
func TestSpecialFilesAreNotServed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes or unix sockets in a folder")
	}
	dir := setup(t)
	for _, name := range []string{"pipe", "pipe.js", "app2.wasm", "app2.wasm.br"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skip(err)
		}
	}
	// A real .wasm whose sidecar is a pipe: the pipe is ignored.
	if err := os.WriteFile(filepath.Join(dir, "app3.wasm"), []byte("\x00asm 3"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "app3.wasm.br"), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	if ln, err := net.Listen("unix", sock); err == nil {
		defer ln.Close()
	}
	if err := os.Symlink("pipe", filepath.Join(dir, "to-pipe")); err != nil {
		t.Fatal(err)
	}
	h := newHandler(t, dir)
	for _, c := range []struct {
		path, accept string
		code         int
		body         string
	}{
		{"/pipe", "", 404, ""},
		{"/pipe.js", "", 404, ""},
		{"/to-pipe", "", 404, ""},
		{"/app2.wasm", "br", 404, ""},
		{"/app3.wasm", "br", 200, "\x00asm 3"},
		{"/sock", "", 404, ""},
		{"/index.html", "", 200, "INDEX"},
	} {
		done := make(chan *struct {
			code int
			body string
		}, 1)
		go func() {
			w := get(h, c.path, c.accept)
			done <- &struct {
				code int
				body string
			}{w.Code, w.Body.String()}
		}()
		select {
		case got := <-done:
			if got.code != c.code || c.body != "" && !strings.Contains(got.body, c.body) {
				t.Errorf("%s: status %d body %q, want %d %q", c.path, got.code, got.body, c.code, c.body)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no answer after 5 s", c.path)
		}
	}
}

// Row 14: idle keep-alive connections, and connections that never send a
// request, are closed by the server's timeouts.
func TestIdleConnectionsAreClosed(t *testing.T) {
	srv := newServer(newHandler(t, setup(t)))
	if srv.IdleTimeout <= 0 || srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 {
		t.Fatalf("timeouts not all set: %+v", srv)
	}
	// The same server with short timeouts, so the test is quick.
	srv.IdleTimeout, srv.ReadHeaderTimeout = 300*time.Millisecond, 300*time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()

	const idle, silent = 200, 100
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range idle + silent {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
		if i >= idle {
			continue // says nothing at all
		}
		fmt.Fprintf(c, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Close {
			t.Fatalf("connection %d: status %d, close %v; want a kept-alive 200", i, resp.StatusCode, resp.Close)
		}
	}
	// Every connection must be closed by the server: a read ends (EOF or
	// reset) well before the 10 s deadline.
	deadline := time.Now().Add(10 * time.Second)
	open := 0
	for _, c := range conns {
		c.SetReadDeadline(deadline)
		if _, err := c.Read(make([]byte, 1)); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				open++
			}
		} else {
			open++
		}
	}
	if open > 0 {
		t.Errorf("%d of %d connections still open after the idle timeout", open, len(conns))
	}
}
