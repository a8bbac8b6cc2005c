//go:build !amd64 || purego

package cpufeat

// AVX2 is false off amd64 (and under purego, where no kernel is assembly).
var AVX2 = false

// AVX512 is false off amd64 (and under purego).
var AVX512 = false

// BMI2 is false off amd64 (and under purego).
var BMI2 = false
