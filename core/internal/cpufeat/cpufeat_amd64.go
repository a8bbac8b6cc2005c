//go:build amd64 && !purego

package cpufeat

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// AVX2 reports whether the processor has AVX2 and the operating system
// saves the YMM registers (CPUID.1:ECX OSXSAVE and AVX, XCR0's SSE and
// AVX state bits, CPUID.7:EBX AVX2), decided as internal/cpu does.
var AVX2 = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

// AVX512 reports whether the processor has AVX-512 Foundation and the
// operating system saves the opmask and ZMM registers (AVX2 as above,
// CPUID.7:EBX AVX512F, XCR0's opmask, ZMM_Hi256 and Hi16_ZMM state bits),
// decided as internal/cpu does.
var AVX512 = func() bool {
	if !AVX2 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&0xe6 != 0xe6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<16) != 0
}()

// BMI2 reports whether the processor has BMI2 (CPUID.7:EBX bit 8: PEXT,
// PDEP and the flagless shifts; general-purpose registers, no OS state).
var BMI2 = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<8) != 0
}()
