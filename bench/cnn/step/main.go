// Command step times dpsim's CNN (core/nn) one training step at a time
// — forward, backward and an SGD update on a batch of random images, as
// the reference scripts beside it do — and prints JSON lines in their
// format (median wall and CPU milliseconds per step). It builds natively
// and for js/wasm; bench/cnn/run.sh runs both.
//
//	go run ./bench/cnn/step [-shape mnist|cifar|both] [-steps 40] [-warmup 10] [-batch 32]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"dpsim/core/nn"
	"dpsim/core/rng"
)

func main() {
	shape := flag.String("shape", "both", "mnist, cifar or both")
	steps := flag.Int("steps", 40, "timed steps")
	warmup := flag.Int("warmup", 10, "untimed steps first")
	batch := flag.Int("batch", 32, "images per step")
	flag.Parse()
	info, _ := json.Marshal(map[string]any{"go": runtime.Version(), "goos": runtime.GOOS, "goarch": runtime.GOARCH})
	fmt.Println(string(info))
	if *shape == "mnist" || *shape == "both" {
		run("mnist", 1, 28, *batch, *steps, *warmup)
	}
	if *shape == "cifar" || *shape == "both" {
		run("cifar", 3, 32, *batch, *steps, *warmup)
	}
}

func run(name string, c, h, batch, steps, warmup int) {
	// Ten classes on both shapes, as the references.
	net, err := nn.New(c, h, h, 10)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := rng.NewStream(1, "bench/cnn")
	params, grad := make([]float32, net.Size()), make([]float32, net.Size())
	net.Init(params, s)
	x := make([]float32, batch*net.Input())
	for i := range x {
		x[i] = float32(s.Float64())
	}
	y := make([]uint8, batch)
	for i := range y {
		y[i] = uint8(s.Uint64() % 10)
	}
	ws := net.NewWorkspace(batch)
	step := func() float64 {
		l := ws.Gradient(params, x, y, grad)
		for k, g := range grad {
			params[k] -= float32(0.01 * g)
		}
		return l
	}
	var l0, l float64
	for range warmup {
		l0 = step()
	}
	cpu := cpuClock()
	wall, used := make([]float64, steps), make([]float64, steps)
	for i := range steps {
		c0, t0 := cpu(), time.Now()
		l = step()
		wall[i], used[i] = float64(time.Since(t0).Nanoseconds())/1e6, (cpu()-c0)/1e6
	}
	med := median(wall)
	out, _ := json.Marshal(map[string]any{"engine": "dpsim-" + map[bool]string{true: "wasm", false: "native"}[runtime.GOARCH == "wasm"],
		"shape": name, "batch": batch, "steps": steps, "median_ms": round(med), "min_ms": round(slices.Min(wall)),
		"cpu_median_ms": round(median(used)), "images_per_s": round(float64(batch) * 1000 / med),
		"cpu_gflops": round(float64(batch*net.FLOPs()) / max(median(used), 1e-9) / 1e6),
		"gflops":     round(float64(batch*net.FLOPs()) / med / 1e6), "loss_first": round(l0), "loss_last": round(l)})
	fmt.Println(string(out))
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func round(v float64) float64 { return float64(int64(float64(v*1000)+0.5)) / 1000 }
