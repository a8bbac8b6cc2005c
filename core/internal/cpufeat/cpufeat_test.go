package cpufeat

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestAVX2AgreesWithTheKernel: on Linux/amd64, the answers match the
// avx2, avx512f and bmi2 flags the kernel reports in /proc/cpuinfo (which also
// require the OS to save the YMM and ZMM state).
func TestAVX2AgreesWithTheKernel(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("needs /proc/cpuinfo on amd64")
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	var flags string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "flags") {
			flags = " " + l[strings.Index(l, ":")+1:] + " "
			break
		}
	}
	if want := strings.Contains(flags, " avx2 "); AVX2 != want && !testingPurego() {
		t.Errorf("AVX2 = %v, /proc/cpuinfo says %v", AVX2, want)
	}
	if want := strings.Contains(flags, " avx512f "); AVX512 != want && !testingPurego() {
		t.Errorf("AVX512 = %v, /proc/cpuinfo says %v", AVX512, want)
	}
	if want := strings.Contains(flags, " bmi2 "); BMI2 != want && !testingPurego() {
		t.Errorf("BMI2 = %v, /proc/cpuinfo says %v", BMI2, want)
	}
}
