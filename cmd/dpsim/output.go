package main

import (
	"io"

	"dpsim/cmd/internal/outfile"
)

// output is a file a command writes and the flag that names it.
type output struct{ flag, path string }

// checkFiles checks every output before any work (outfile.Check).
func checkFiles(inputs []string, outs []output) error {
	os := make([]outfile.Output, len(outs))
	for i, o := range outs {
		os[i] = outfile.Output{Flag: o.flag, Path: o.path}
	}
	return outfile.Check(inputs, os)
}

// writeFile writes path atomically (outfile.Write).
func writeFile(flag, path string, write func(io.Writer) error) error {
	return outfile.Write(flag, path, write)
}

// writeBytes writes data to path atomically (outfile.WriteBytes).
func writeBytes(flag, path string, data []byte) error { return outfile.WriteBytes(flag, path, data) }
