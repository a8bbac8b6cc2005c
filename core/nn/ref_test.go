package nn

import "math"

// refLoss is an independent float64 forward pass of the same network:
// direct convolution loops (no im2col, no matrix products), ReLU, then
// max-pool, dense and the mean softmax cross-entropy with math.Exp and
// math.Log. The gradient check differentiates it numerically, where
// float64 allows steps small enough to miss the ReLU and pool kinks.
func refLoss(n *Net, params []float64, x []float32, labels []uint8) float64 {
	l := n.layout
	in := n.Input()
	conv := func(src []float64, c, h, w int, wt, b []float64, co int) ([]float64, int, int) {
		ho, wo := h-Kernel+1, w-Kernel+1
		out := make([]float64, co*ho*wo)
		for o := range co {
			for y := range ho {
				for xx := range wo {
					s := b[o]
					for ch := range c {
						for ky := range Kernel {
							for kx := range Kernel {
								s += float64(wt[((o*c+ch)*Kernel+ky)*Kernel+kx] * src[(ch*h+y+ky)*w+xx+kx])
							}
						}
					}
					out[(o*ho+y)*wo+xx] = s
				}
			}
		}
		return out, ho, wo
	}
	reluPool := func(a []float64, c, h, w int) ([]float64, int, int) {
		oh, ow := h/2, w/2
		out := make([]float64, c*oh*ow)
		for ch := range c {
			for y := range oh {
				for xx := range ow {
					m := 0.0
					for _, d := range [4][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
						m = math.Max(m, math.Max(0, a[(ch*h+2*y+d[0])*w+2*xx+d[1]]))
					}
					out[(ch*oh+y)*ow+xx] = m
				}
			}
		}
		return out, oh, ow
	}
	total := 0.0
	for i, lab := range labels {
		img := make([]float64, in)
		for k := range img {
			img[k] = float64(x[i*in+k])
		}
		a1, h1, w1 := conv(img, n.c, n.h, n.w, params[l.Conv1W:l.Conv1B], params[l.Conv1B:l.Conv2W], Channels1)
		q1, qh, qw := reluPool(a1, Channels1, h1, w1)
		a2, h2, w2 := conv(q1, Channels1, qh, qw, params[l.Conv2W:l.Conv2B], params[l.Conv2B:l.DenseW], Channels2)
		q2, _, _ := reluPool(a2, Channels2, h2, w2)
		z := make([]float64, n.classes)
		top := math.Inf(-1)
		for c := range z {
			s := params[l.DenseB+c]
			for f, v := range q2 {
				s += float64(params[l.DenseW+c*n.feat+f] * v)
			}
			z[c] = s
			top = math.Max(top, s)
		}
		se := 0.0
		for _, v := range z {
			se += math.Exp(v - top)
		}
		total += top + math.Log(se) - z[lab]
	}
	return total / float64(len(labels))
}
