package jsonstrict

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDecode decodes documents of growing size; MB/s stays flat
// because the pass is linear.
func BenchmarkDecode(b *testing.B) {
	for _, rows := range []int{100, 10_000, 100_000} {
		var sb strings.Builder
		sb.WriteString(`{"name": "x", "in": {"kind": "k"}, "rows": [`)
		for i := range rows {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "[%d.5, -%d, 1e-3]", i, i)
		}
		sb.WriteString(`], "raw": {"a": [1, {"b": null}]}}`)
		data := []byte(sb.String())
		b.Run(fmt.Sprintf("bytes=%d", len(data)), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var d doc
				if err := Decode(data, &d, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
