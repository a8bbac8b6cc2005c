package data

import (
	"os"
	"path/filepath"
	"testing"
)

// benchDecode times checking and decoding one committed file, as Load
// does on first use (sha256, gunzip, parse, validate).
func benchDecode(b *testing.B, name, split string) {
	d, err := Info(name)
	if err != nil {
		b.Fatal(err)
	}
	f := &d.Splits[0]
	if split == "test" {
		f = &d.Splits[1]
	}
	raw, err := os.ReadFile(filepath.Join("files", f.File))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(f.RawBytes))
	for b.Loop() {
		if _, err := Decode(d, f, raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeMNISTTrain(b *testing.B)   { benchDecode(b, "mnist", "train") }
func BenchmarkDecodeMNIST01Train(b *testing.B) { benchDecode(b, "mnist-01", "train") }
func BenchmarkDecodeIJCNN1Test(b *testing.B)   { benchDecode(b, "ijcnn1", "test") }
