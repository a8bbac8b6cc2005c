package num_test

import (
	"fmt"

	"dpsim/core/num"
)

func ExamplePow() {
	// The decaying noise factor β_k = 1/(m+k)^q of GT-DP at m = 1, k = 3, q = 0.5.
	fmt.Printf("%.6f\n", num.Pow(1+3, -0.5))
	// Output: 0.500000
}

func ExampleLog1p() {
	// log(1 + x) for a tiny x keeps its digits, where log of the rounded
	// sum 1 + x would lose most of them.
	x := 1e-10
	fmt.Printf("%.10e %.10e\n", num.Log1p(x), num.Log(1+x))
	// Output: 9.9999999995e-11 1.0000000827e-10
}
