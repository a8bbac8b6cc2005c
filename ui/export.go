//go:build js && wasm

package ui

import (
	"bytes"
	"errors"
	"io"
	"syscall/js"
	"time"

	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// ExportChunk is the size of the chunks a streamed export hands to the
// page: writing one takes a few milliseconds, so the page stays
// responsive between them (docs/exports.md).
const ExportChunk = 128 << 10

// errExportCancelled stops the writer of an abandoned export.
var errExportCancelled = errors.New("export cancelled")

// exportJob is a streamed export: a goroutine writes it into chunks that
// the page pulls one per call of dpsim.exportNext, across tasks.
type exportJob struct {
	name, mime string
	chunks     chan []byte
	stop       chan struct{}
	err        error // set before chunks is closed
	// done and total are the export's progress (runner.Progress units);
	// total is 0 when unknown (the CSV: its bytes are counted instead).
	done, total int64
	bytes       int64
}

// chunkWriter collects writes into ExportChunk-sized chunks and hands
// each to the page, waiting until it is pulled.
type chunkWriter struct {
	job *exportJob
	buf []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	if len(c.buf) >= ExportChunk {
		if err := c.flush(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	select {
	case c.job.chunks <- c.buf:
		c.job.bytes += int64(len(c.buf))
		c.buf = make([]byte, 0, ExportChunk+4096)
		return nil
	case <-c.job.stop:
		return errExportCancelled
	}
}

// exportFile returns the download name and type of an export kind and
// the function writing its bytes: the run as it stands, a snapshot that
// the run going on does not change (runner.Snapshot, CSVWriter).
func (a *App) exportFile(kind string, progress runner.Progress) (name, mime string, write func(io.Writer) error, err error) {
	return exportOf(a.built, a.run, kind, progress)
}

// exportOf is exportFile for run, a run of b (the page's, or a Worker's:
// ui/worker.go).
func exportOf(b *scenario.Built, run *runner.Runner, kind string, progress runner.Progress) (name, mime string, write func(io.Writer) error, err error) {
	if run == nil {
		return "", "", nil, errors.New("export: no scenario is loaded")
	}
	base := b.Scenario.Name
	switch kind {
	case "json":
		e := run.Snapshot()
		return base + "-run.json", "application/json", func(w io.Writer) error { return e.Write(w, progress) }, nil
	case "csv":
		write, err := run.CSVWriter(runner.CSVMeta{Date: time.Now()})
		return base + "-metrics.csv", "text/csv", write, err
	}
	return "", "", nil, errors.New(`export: the kind must be "json" or "csv" (got "` + kind + `")`)
}

// registerExport adds the exports to window.dpsim (docs/bridge.md,
// docs/exports.md):
//
//	exportJSON()        downloads the run export at once (the bytes of dpsim run --out)
//	exportCSV()         downloads the metrics CSV at once (the bytes of dpsim run --csv but the date line)
//	exportStart(kind)   starts a streamed export, "json" or "csv": {ok, name, mime, error}
//	exportNext()        the next chunk: {bytes: Uint8Array, done: false, progress, written} or {done: true, error}
//	exportCancel()      abandons the streamed export
//
// A streamed export is written by a goroutine ExportChunk bytes at a
// time, each pulled by one exportNext call, so the page can yield between
// chunks (public/export.js): a long run's export never freezes the page.
func (a *App) registerExport(fn func(string, func([]js.Value) any)) {
	var job *exportJob
	cancel := func() {
		if job != nil {
			close(job.stop)
			job = nil
		}
	}
	var far *remoteExport // a remote run's export, streamed as it comes
	at := func(kind string) any {
		if a.rem != nil {
			if _, err := a.rem.export(kind, false); err != nil {
				a.lastErr = err.Error()
			}
			return nil
		}
		name, mime, write, err := a.exportFile(kind, nil)
		if err != nil {
			a.lastErr = err.Error()
			return nil
		}
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			a.lastErr = "export: " + err.Error()
			return nil
		}
		download(name, mime, buf.Bytes())
		return nil
	}
	fn("exportJSON", func([]js.Value) any { return at("json") })
	fn("exportCSV", func([]js.Value) any { return at("csv") })
	fn("exportStart", func(args []js.Value) any {
		cancel()
		o := js.Global().Get("Object").New()
		kind := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			kind = args[0].String()
		}
		far = nil
		if a.rem != nil {
			x, err := a.rem.export(kind, true)
			if err != nil {
				o.Set("ok", false)
				o.Set("error", err.Error())
				return o
			}
			far = x
			o.Set("ok", true)
			o.Set("name", x.name)
			o.Set("mime", x.mime)
			return o
		}
		j := &exportJob{chunks: make(chan []byte), stop: make(chan struct{})}
		name, mime, write, err := a.exportFile(kind, func(done, total int64) { j.done, j.total = done, total })
		if err != nil {
			o.Set("ok", false)
			o.Set("error", err.Error())
			return o
		}
		j.name, j.mime = name, mime
		job = j
		go func() {
			w := &chunkWriter{job: j, buf: make([]byte, 0, ExportChunk+4096)}
			err := write(w)
			if err == nil {
				err = w.flush()
			}
			if errors.Is(err, errExportCancelled) {
				return // nobody pulls any more
			}
			j.err = err
			close(j.chunks)
		}()
		o.Set("ok", true)
		o.Set("name", name)
		o.Set("mime", mime)
		return o
	})
	fn("exportNext", func([]js.Value) any {
		o := js.Global().Get("Object").New()
		if far != nil {
			return far.next(o, func() { far = nil })
		}
		if job == nil {
			o.Set("done", true)
			o.Set("error", "export: none is under way (exportStart first)")
			return o
		}
		j := job
		chunk, ok := <-j.chunks // the writer goroutine runs until it hands a chunk
		if !ok {
			job = nil
			o.Set("done", true)
			if j.err != nil {
				o.Set("error", "export: "+j.err.Error())
			}
			return o
		}
		u8 := js.Global().Get("Uint8Array").New(len(chunk))
		js.CopyBytesToJS(u8, chunk)
		o.Set("bytes", u8)
		o.Set("done", false)
		o.Set("written", float64(j.bytes))
		p := -1.0 // unknown
		if j.total > 0 {
			p = float64(j.done) / float64(j.total)
		}
		o.Set("progress", p)
		return o
	})
	fn("exportCancel", func([]js.Value) any { cancel(); far = nil; return nil })
}
