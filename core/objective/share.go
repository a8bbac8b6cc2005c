package objective

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
)

// Reads is what a problem's Build reads of its Env beyond the number of
// agents. Two builds of one kind with equal params, equal agent counts and
// equal inputs named here give the same instance, bit for bit; a sweep
// builds it once and shares it among its runs and workers.
//
// A shared instance is read by many goroutines at once, so every Problem
// (and its optional interfaces) must be read-only after Build: Value,
// Grad, GradAll, Objective, Respond, Measure … keep no scratch state in
// the problem, and slices they return are copies or documented as not to
// be modified.
type Reads struct {
	// DataSeed: Build draws from Env.Seeds.Data (random data, not pinned).
	DataSeed bool
	// Graph: Build reads the graph's links or positions (a problem that
	// places data on particular agents), not only its number of nodes.
	Graph bool
}

// Key returns the key under which an instance built by f from params on
// env may be shared: the kind, the params as JSON (struct fields in their
// fixed order, map keys sorted, numbers in their shortest exact form), the
// number of agents and, as f.Reads declares, the data seed and the
// graph's links and positions — hashed together with SHA-256, so pinned
// data of any size gives a short key. ok is false when the params cannot
// be encoded (then the instance is not shared).
func (f *Factory) Key(params any, env *Env) (key string, ok bool) {
	js, err := json.Marshal(params)
	if err != nil {
		return "", false
	}
	reads := Reads{DataSeed: true, Graph: true}
	if f.Reads != nil {
		reads = f.Reads(params)
	}
	h := sha256.New()
	var buf [8]byte
	word := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	// Lengths before variable-length parts keep the encoding unambiguous.
	word(uint64(len(f.Name)))
	h.Write([]byte(f.Name))
	word(uint64(len(js)))
	h.Write(js)
	g := env.Graph
	word(uint64(g.N))
	if reads.DataSeed {
		word(1)
		word(env.Seeds.Data)
	} else {
		word(0)
	}
	if reads.Graph {
		word(1)
		if g.Directed {
			word(1)
		} else {
			word(0)
		}
		word(uint64(len(g.Edges)))
		for _, e := range g.Edges {
			word(uint64(e.From))
			word(uint64(e.To))
		}
		word(uint64(len(g.Pos)))
		for _, p := range g.Pos {
			word(math.Float64bits(p[0]))
			word(math.Float64bits(p[1]))
		}
	} else {
		word(0)
	}
	return fmt.Sprintf("%s/%s", f.Name, hex.EncodeToString(h.Sum(nil))), true
}
