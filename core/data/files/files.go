// Package files embeds the committed dataset files of core/data and, when
// imported, registers them as data's source. Only the CLI and tests import
// it: the page's WebAssembly must not carry the data (it fetches the same
// files from public/data on demand).
package files

import (
	"embed"

	"dpsim/core/data"
)

// FS holds every committed dataset file, by its manifest name.
//
//go:embed *.gz
var FS embed.FS

func init() { data.Use(FS) }
