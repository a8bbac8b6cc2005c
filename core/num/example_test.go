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
