// Package cnn holds the convolutional image classifier of the LDP online
// paper's MNIST and CIFAR-10 experiments (Chen & Wang, Sec. VI-B and
// VI-C; spec §7.5) and its factory. The paper gives no architecture; the
// one here is issue 19's choice, core/nn's
//
//	conv 5×5×8 → ReLU → max-pool 2 → conv 5×5×16 → ReLU → max-pool 2 → dense → softmax cross-entropy.
//
// Agent i holds a shard of m_i images (a_ij, y_ij) and
//
//	f_i(x) = (1/m_i)·Σ_j ℓ(θ⁰ + x; a_ij, y_ij) + (λ/2)‖θ⁰ + x‖²,
//
// ℓ the network's cross-entropy with parameters θ = θ⁰ + x. The
// decision variable x is the offset from a seeded initialisation θ⁰
// (He-uniform, one for all agents; or the weights given, as a replay
// export writes them), so every algorithm's default start
// x = 0 is the usual random initialisation: at θ = 0 a ReLU network is a
// saddle whose convolution gradients are all zero. θ⁰ is public; a
// perturbation of x is the same perturbation of θ.
//
// The loss is nonconvex: no x*. The cheap metrics recorded at every
// point are the consensus alone (metrics.Generic); the training loss,
// the training accuracy and the test accuracy at the agents' mean x̄
// are expensive metrics (metrics.Evaluated, every record.eval_every
// iterations) over at most eval_rows images of each split.
package cnn

import (
	"fmt"
	"math"

	"dpsim/core/data"
	"dpsim/core/metrics"
	"dpsim/core/nn"
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/sim"
)

// chunk is the number of images one pass of the network takes; longer
// lists of samples are done in chunks of this size (the result does not
// depend on it: core/nn keeps every sum's order).
const chunk = 32

// Model is the problem. It is read-only after New and safe for
// concurrent use: every call takes a workspace from a free list.
type Model struct {
	net      *nn.Net
	shards   []learn.Rows
	train    learn.Rows // the evaluation's training images
	test     *learn.Rows
	theta0   []float32
	lambda   float64
	free     chan *scratch
	seedUsed uint64
	userData *data.UserData // the user's data with its files' sha256, for Pinned (nil: none)
}

// scratch is one goroutine's buffers: the network's workspace, the
// parameters θ and gradient in float32, and one chunk of images.
type scratch struct {
	ws     *nn.Workspace
	theta  []float32
	grad   []float32
	x      []float32
	labels []uint8
}

// Shape returns the channels, height and width of a dataset's images:
// 784 grey values are 1×28×28 (MNIST and its subsets), 3072 are 3×32×32
// colour planes (CIFAR-10).
func Shape(cols int) (c, h, w int, err error) {
	switch cols {
	case 28 * 28:
		return 1, 28, 28, nil
	case 3 * 32 * 32:
		return 3, 32, 32, nil
	}
	return 0, 0, 0, fmt.Errorf("has %d features per row; the CNN takes 28×28 grey (784) or 32×32 colour (3072) images", cols)
}

// New builds the model on shards of one image set, with the evaluation
// views train and test (nil: no test accuracy), the initialisation
// theta0 (len the network's Size) and the ℓ2 weight λ ≥ 0.
func New(net *nn.Net, shards []learn.Rows, train learn.Rows, test *learn.Rows, theta0 []float32, lambda float64) (*Model, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("no shards")
	}
	if len(theta0) != net.Size() {
		return nil, fmt.Errorf("%d initial parameters for a network of %d", len(theta0), net.Size())
	}
	for _, s := range append(append([]learn.Rows{}, shards...), train) {
		if !images(s.Set, net) {
			return nil, fmt.Errorf("%q is not a set of %d-pixel images", s.Set.Name, net.Input())
		}
	}
	if test != nil && !images(test.Set, net) {
		return nil, fmt.Errorf("test split of %q is not a set of %d-pixel images", test.Set.Name, net.Input())
	}
	return &Model{net: net, shards: shards, train: train, test: test, theta0: theta0, lambda: lambda,
		free: make(chan *scratch, 64)}, nil
}

func (m *Model) get() *scratch {
	select {
	case s := <-m.free:
		return s
	default:
		n := m.net
		return &scratch{ws: n.NewWorkspace(chunk), theta: make([]float32, n.Size()), grad: make([]float32, n.Size()),
			x: make([]float32, chunk*n.Input()), labels: make([]uint8, chunk)}
	}
}

func (m *Model) put(s *scratch) {
	select {
	case m.free <- s:
	default:
	}
}

// params writes θ = θ⁰ + x into s.theta, rounded to float32.
func (m *Model) params(s *scratch, x []float64) {
	for k, v := range m.theta0 {
		s.theta[k] = float32(float64(v) + x[k])
	}
}

// load writes the images rows[lo:hi] of view v into s.x (pixel/255)
// and their labels into s.labels, and returns the count.
func (m *Model) load(s *scratch, v learn.Rows, idx []int, lo, hi int) int {
	in := m.net.Input()
	set := v.Set
	for r := lo; r < hi; r++ {
		k := r
		if idx != nil {
			k = idx[r]
		}
		row := v.Row(k)
		dst := s.x[(r-lo)*in : (r-lo+1)*in]
		if set.Pixels == nil { // a user's images as numbers
			copy(dst, set.Features[row*in:(row+1)*in])
			s.labels[r-lo] = set.Y[row]
			continue
		}
		for j, p := range set.Pixels[row*in : (row+1)*in] {
			dst[j] = float32(p) / 255
		}
		s.labels[r-lo] = set.Y[row]
	}
	return hi - lo
}

// Kind implements objective.Problem.
func (m *Model) Kind() string { return "cnn" }

// Agents implements objective.Problem.
func (m *Model) Agents() int { return len(m.shards) }

// Dim implements objective.Problem: the network's parameter count.
func (m *Model) Dim() int { return m.net.Size() }

// Net returns the network's shape.
func (m *Model) Net() *nn.Net { return m.net }

// Init returns θ⁰, the initialisation x is an offset from (seeded, or
// given as initial_weights).
func (m *Model) Init() []float32 { return append([]float32(nil), m.theta0...) }

// Samples implements objective.Stochastic: m_i.
func (m *Model) Samples(i int) int { return m.shards[i].Len() }

// reg returns (λ/2)‖θ‖² for the θ in s.
func (m *Model) reg(s *scratch) float64 {
	if m.lambda == 0 {
		return 0
	}
	q := 0.0
	for _, v := range s.theta {
		q += float64(float64(v) * float64(v))
	}
	return m.lambda / 2 * q
}

// loss returns the mean loss and accuracy of θ (in s) over the rows idx
// of v (all when idx is nil).
func (m *Model) loss(s *scratch, v learn.Rows, idx []int) (loss, acc float64) {
	cnt := v.Len()
	if idx != nil {
		cnt = len(idx)
	}
	ok := 0
	for lo := 0; lo < cnt; lo += chunk {
		b := m.load(s, v, idx, lo, min(lo+chunk, cnt))
		l, c := s.ws.Forward(s.theta, s.x[:b*m.net.Input()], s.labels[:b])
		loss += float64(l * float64(b))
		ok += c
	}
	return loss / float64(cnt), float64(ok) / float64(cnt)
}

// Value implements objective.Problem: f_i(x), a forward pass over agent
// i's whole shard.
func (m *Model) Value(i int, x []float64) float64 {
	s := m.get()
	defer m.put(s)
	m.params(s, x)
	l, _ := m.loss(s, m.shards[i], nil)
	return l + m.reg(s)
}

// Grad implements objective.Problem: ∇f_i(x) over agent i's whole shard.
func (m *Model) Grad(i int, x, out []float64) { m.grad(m.shards[i], nil, x, out) }

// GradBatch implements objective.Stochastic: the gradient of the
// average loss over the images idx of agent i's shard, each carrying the
// ℓ2 term.
func (m *Model) GradBatch(i int, x []float64, idx []int, out []float64) {
	m.grad(m.shards[i], idx, x, out)
}

func (m *Model) grad(v learn.Rows, idx []int, x, out []float64) {
	s := m.get()
	defer m.put(s)
	m.params(s, x)
	cnt := v.Len()
	if idx != nil {
		cnt = len(idx)
	}
	clear(s.grad)
	in := m.net.Input()
	for lo := 0; lo < cnt; lo += chunk {
		b := m.load(s, v, idx, lo, min(lo+chunk, cnt))
		s.ws.AddGradient(s.theta, s.x[:b*in], s.labels[:b], 1/float64(cnt), s.grad)
	}
	for k, g := range s.grad {
		out[k] = float64(g) + float64(m.lambda*float64(s.theta[k]))
	}
}

// Objective implements objective.Problem: (1/n)·Σ_i f_i(x), a forward
// pass over every training image (the recorder never calls it: the
// problem is metrics.Generic).
func (m *Model) Objective(x []float64) float64 {
	t := 0.0
	for i := range m.shards {
		t += m.Value(i, x)
	}
	return t / float64(len(m.shards))
}

// Optimum implements objective.Problem: none, the loss is nonconvex.
func (m *Model) Optimum() []float64 { return nil }

// GenericMetrics implements metrics.Generic: no optimality (no x*), the
// consensus (1/n)·Σ_i ‖x_i − x̄‖², and no objective at every point — it
// is a pass over every training image, so it is recorded as the
// expensive metric training_loss instead. (Without Generic the recorder
// would also compute the stationarity, n full-shard gradients, at every
// recorded point and on every frame of the page.)
func (m *Model) GenericMetrics(s *sim.Step) (optimality, consensus, objective float64) {
	n, d := s.Agents(), s.Dim
	if n == 0 || len(s.Estimates) < n*d {
		return math.NaN(), math.NaN(), math.NaN()
	}
	c := 0.0
	for k := range d {
		mean := 0.0
		for i := range n {
			mean += s.Estimates[i*d+k]
		}
		mean /= float64(n)
		for i := range n {
			e := s.Estimates[i*d+k] - mean
			c += float64(e * e)
		}
	}
	return math.NaN(), c / float64(n), math.NaN()
}

// MetricLabels implements metrics.Generic.
func (m *Model) MetricLabels() (optimality, consensus string) {
	return "none: the CNN's loss is nonconvex, no x* (see training_loss, training_accuracy and test_accuracy)", metrics.ConsensusLabel
}

// Metric names of the expensive metrics.
const (
	MetricTrainLoss = "training_loss"
	MetricTrainAcc  = "training_accuracy"
	MetricTestAcc   = "test_accuracy"
)

// EvaluatedNames implements metrics.Evaluated.
func (m *Model) EvaluatedNames() []string {
	if m.test == nil {
		return []string{MetricTrainLoss, MetricTrainAcc}
	}
	return []string{MetricTrainLoss, MetricTrainAcc, MetricTestAcc}
}

// Evaluate implements metrics.Evaluated: at the agents' mean estimate x̄
// (or the shared Output), the mean cross-entropy (with the ℓ2 term) and
// the accuracy over the evaluation's training images, and the accuracy
// over its test images.
func (m *Model) Evaluate(st *sim.Step, out []float64) {
	x := learn.Point(st.Output, st.Estimates, m.Dim())
	s := m.get()
	defer m.put(s)
	m.params(s, x)
	l, a := m.loss(s, m.train, nil)
	out[0], out[1] = l+m.reg(s), a
	if m.test != nil {
		_, out[2] = m.loss(s, *m.test, nil)
	}
}

var (
	_ objective.Stochastic = (*Model)(nil)
	_ metrics.Generic      = (*Model)(nil)
	_ metrics.Evaluated    = (*Model)(nil)
)

// images reports whether set holds images the network takes: a row of
// its input's size, as bytes (pixel/255) or as numbers (a user's).
func images(set *data.Set, net *nn.Net) bool {
	return (set.Pixels != nil || set.Features != nil) && set.Cols == net.Input()
}
