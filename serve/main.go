// Command serve is the development web server for the dpsim page.
//
// It serves one directory (public/ by default) on the loopback interface:
//
//	go run ./serve                    # http://127.0.0.1:8080/
//	go run ./serve -addr 127.0.0.1:0  # any free port; the URL is printed
//	go run ./serve -addr :9000        # still loopback: 127.0.0.1:9000
//	go run ./serve -addr 0.0.0.0:8080 # every interface, with a warning
//
// An address without a host binds loopback (and says so); another machine
// can reach the server only when a host is named explicitly. Files and
// folders whose name starts with a dot (.git, .env) are never served.
//
// Only regular files are served (a named pipe, a device or a socket in the
// directory is a 404, answered at once), and the server closes connections
// that stall or idle (see the timeouts below).
//
// Every response carries Cache-Control: no-store. A request for a .wasm file is
// answered with Content-Type application/wasm and, when the client accepts it,
// with a precompressed sidecar (name.wasm.br, then name.wasm.gz) that is at
// least as new as the .wasm itself; a stale sidecar is ignored. Text (HTML,
// CSS, JavaScript, JSON, SVG) is gzipped on the fly for a client that
// accepts it, as any static host does: uncompressed, the page's scripts and
// poster were a tenth of the bytes fetched before the simulator's first
// frame. All files are
// opened through an os.Root, so no request can reach outside the directory,
// whether by "..", an encoded "%2e%2e", an absolute path or a symlink.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one; without a host, loopback)")
	dir := flag.String("dir", "public", "directory to serve")
	flag.Parse()

	bind, notes, err := listenAddr(*addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	for _, n := range notes {
		log.Printf("serve: %s", n)
	}
	h, err := NewHandler(*dir)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	defer h.Close()
	if _, err := h.root.Stat("index.html"); err != nil {
		log.Printf("serve: warning: %s has no index.html", *dir)
	}
	if _, err := h.root.Stat("dpsim.wasm"); err != nil {
		log.Printf("serve: warning: %s/dpsim.wasm is missing; run ./build.sh first", *dir)
	}

	ln, err := net.Listen("tcp", bind)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	srv := newServer(logRequests(h))
	abs, _ := filepath.Abs(*dir)
	// The e2e harness reads this line to learn the port; keep its shape.
	fmt.Printf("serving %s at http://%s/\n", abs, ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("serve: %v", err)
	}
}

// listenAddr returns the address to listen on for the -addr flag and the
// notes to print. A missing host (":8080") means loopback, as the docs
// promise, not every interface as net.Listen would take it; a host that is
// not loopback is honoured, with a warning that other machines can reach
// the server.
func listenAddr(addr string) (bind string, notes []string, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", nil, fmt.Errorf("-addr %q: write host:port, e.g. 127.0.0.1:8080 or :8080 (%v)", addr, err)
	}
	if host == "" {
		bind = net.JoinHostPort("127.0.0.1", port)
		return bind, []string{fmt.Sprintf("-addr %s names no host: listening on %s (loopback only); give 0.0.0.0:%s to listen on every interface", addr, bind, port)}, nil
	}
	if !isLoopback(host) {
		notes = append(notes, fmt.Sprintf("warning: listening on %s, which is not loopback: other machines can reach this server", addr))
	}
	return addr, notes, nil
}

// isLoopback reports whether host names only the loopback interface.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Timeouts of the server. Without them a client that connects and says
// nothing, or keeps an idle keep-alive connection, holds a goroutine and a
// file descriptor for ever. The write timeout leaves a slow link time to
// fetch the multi-megabyte .wasm.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 2 * time.Minute
	idleTimeout       = 30 * time.Second
)

// newServer returns the HTTP server for h, with every timeout set.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// logRequests logs failed requests only, so a normal page load stays quiet.
func logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		if sw.status >= 400 {
			log.Printf("%d %s %s", sw.status, r.Method, r.URL.RequestURI())
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// contentTypes pins the types the page needs, independent of the host's
// mime.types.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".png":  "image/png",
	".svg":  "image/svg+xml",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".csv":  "text/csv; charset=utf-8",
	// The page's datasets (data/*.gz) are gzip members that core/data
	// decodes itself: opaque bytes, never Content-Encoding: gzip, or the
	// browser would decompress them and their sha256 would not match.
	".gz": "application/octet-stream",
}

func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Handler serves the files under one directory. Create it with NewHandler.
type Handler struct {
	root *os.Root

	mu     sync.Mutex
	warned map[string]bool
}

// warnStale logs, once per file, that a sidecar is ignored.
func (h *Handler) warnStale(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.warned[name] {
		return
	}
	if h.warned == nil {
		h.warned = map[string]bool{}
	}
	h.warned[name] = true
	log.Printf("serve: ignoring %s: older than the .wasm beside it (rerun ./build.sh)", name)
}

// NewHandler opens dir as an os.Root and returns a handler serving it.
// dir must be a folder: os.OpenRoot on a named pipe blocks until a writer
// appears, so the kind is checked first.
func NewHandler(dir string) (*Handler, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("-dir %s: is not a folder", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Handler{root: root}, nil
}

// Close releases the directory handle.
func (h *Handler) Close() error { return h.root.Close() }

// cleanName turns a URL path into a name relative to the root. It refuses
// (ok=false) any path with a ".." segment, a backslash or a NUL byte, before
// or after cleaning; os.Root additionally refuses symlinks that lead outside.
// A dot segment is refused by hidden, not here.
func cleanName(urlPath string) (name string, ok bool) {
	if urlPath == "" {
		urlPath = "/"
	}
	if !strings.HasPrefix(urlPath, "/") {
		return "", false
	}
	if strings.ContainsAny(urlPath, "\\\x00") {
		return "", false
	}
	for _, seg := range strings.Split(urlPath, "/") {
		if seg == ".." {
			return "", false
		}
	}
	name = strings.TrimPrefix(path.Clean(urlPath), "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}

// hidden reports whether a URL path has a segment starting with a dot
// ("/.git/config", "/a/.env"; "." and ".." included).
func hidden(urlPath string) bool {
	for _, seg := range strings.Split(urlPath, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	// r.URL.Path is already percent-decoded, so "%2e%2e" arrives as "..".
	name, ok := cleanName(r.URL.Path)
	if !ok || strings.Contains(strings.ToLower(r.URL.RawPath), "%2f") {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	if hidden(r.URL.Path) {
		// .git/config, .env, an editor's .swp: never meant for the page.
		http.NotFound(w, r)
		return
	}

	f, fi, err := h.open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()

	if fi.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Relative links in index.html need the trailing slash. The
			// path is escaped: a folder named "a?b" or "50%" must not turn
			// into a query, a fragment or a broken escape.
			http.Redirect(w, r, (&url.URL{Path: r.URL.Path + "/"}).EscapedPath(), http.StatusMovedPermanently)
			return
		}
		f.Close()
		name = path.Join(name, "index.html")
		f, fi, err = h.open(name)
		if err != nil || fi.IsDir() {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
	}
	if !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}

	w.Header().Set("Content-Type", contentType(name))
	var content io.ReadSeeker = f
	modTime := fi.ModTime()
	if strings.HasSuffix(name, ".wasm") {
		w.Header().Add("Vary", "Accept-Encoding")
		if sf, enc := h.sidecar(name, fi, r.Header.Get("Accept-Encoding")); sf != nil {
			defer sf.Close()
			w.Header().Set("Content-Encoding", enc)
			content = sf
		}
	} else if compressible(name) {
		w.Header().Add("Vary", "Accept-Encoding")
		if parseAcceptEncoding(r.Header.Get("Accept-Encoding"))["gzip"] && fi.Size() <= maxOnTheFly {
			if z, err := gzipAll(f); err == nil {
				w.Header().Set("Content-Encoding", "gzip")
				content = z
			}
		}
	}
	// ServeContent keeps the Content-Type set above and handles HEAD and
	// Range; with Content-Encoding set, ranges apply to the encoded bytes,
	// as they should.
	http.ServeContent(w, r, name, modTime, content)
}

// maxOnTheFly bounds the size of a file gzipped in memory per request; a
// larger one is sent as it is.
const maxOnTheFly = 4 << 20

// compressible reports whether name is text worth gzipping on the fly.
// Data files (.gz) and images other than SVG are compressed already.
func compressible(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".csv", ".md":
		return true
	}
	return false
}

// gzipAll reads r to its end and returns its gzip encoding. Ranges then
// apply to the encoded bytes, as they do for a .wasm sidecar.
func gzipAll(r io.Reader) (*bytes.Reader, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(zw, io.LimitReader(r, maxOnTheFly+1)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return bytes.NewReader(buf.Bytes()), nil
}

// errNotServed refuses what is neither a regular file nor a folder.
var errNotServed = errors.New("not a regular file or folder")

// open opens name under the root and stats it. Only regular files and
// folders are opened: opening a named pipe blocks until a writer appears
// (each such request held a thread for ever), and a device such as
// /dev/zero never ends. The kind is checked before opening, the file is
// opened non-blocking in case it was swapped meanwhile, and checked again.
func (h *Handler) open(name string) (*os.File, fs.FileInfo, error) {
	fi, err := h.root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, nil, errNotServed
	}
	f, err := h.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err = f.Stat()
	if err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		err = errNotServed
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// sidecar returns an open precompressed variant of the .wasm file name and its
// encoding token, or nil. A sidecar is used only if the client accepts its
// encoding and it is a regular file no older than the .wasm.
func (h *Handler) sidecar(name string, wasm fs.FileInfo, acceptEncoding string) (*os.File, string) {
	accepted := parseAcceptEncoding(acceptEncoding)
	for _, c := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !accepted[c.enc] {
			continue
		}
		f, fi, err := h.open(name + c.ext)
		if err != nil {
			continue
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			continue
		}
		if fi.ModTime().Before(wasm.ModTime()) {
			f.Close()
			h.warnStale(name + c.ext)
			continue
		}
		return f, c.enc
	}
	return nil, ""
}

// parseAcceptEncoding returns the codings the client accepts (q > 0).
// "*" is taken to mean br and gzip.
func parseAcceptEncoding(s string) map[string]bool {
	out := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		fields := strings.Split(part, ";")
		coding := strings.ToLower(strings.TrimSpace(fields[0]))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, p := range fields[1:] {
			p = strings.TrimSpace(p)
			if v, ok := strings.CutPrefix(strings.ToLower(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if coding == "x-gzip" {
			coding = "gzip"
		}
		if coding == "*" {
			for _, c := range []string{"br", "gzip"} {
				if _, set := out[c]; !set {
					out[c] = q > 0
				}
			}
			continue
		}
		out[coding] = q > 0
	}
	return out
}
