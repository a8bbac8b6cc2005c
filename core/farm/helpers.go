package farm

import (
	"fmt"
	"math"
	"time"
)

// MinWait is the least a caller waits for a helper's reply (Wait).
const MinWait = 10 * time.Second

// MaxWait is the most a caller waits for a helper's reply (Wait),
// however slow its own share was: past it a run would sit still for
// minutes on a helper that is gone, where computing alone costs at most
// the helpers' speed-up.
const MaxWait = 60 * time.Second

// waitFactor times the caller's own share: a helper's share is at most
// one task larger, so a helper this many times slower is stuck, not slow.
const waitFactor = 100

// Wait is how long a caller that computed its own share in own waits
// for the helpers' replies before it gives them up: waitFactor times
// own, within MinWait … MaxWait. Giving up a helper that was only slow
// costs speed, never bits: the caller computes the gradients.
func Wait(own time.Duration) time.Duration {
	return min(MaxWait, max(MinWait, waitFactor*own))
}

// Reply is a helper's answer to request Seq: its bytes, or why it failed
// (a helper that crashed or threw).
type Reply struct {
	Helper, Seq int
	Bytes       []byte
	Err         error
}

// failed is the line saying that r's helper failed.
func (r Reply) failed() error {
	return fmt.Errorf("helper %d failed (%v)", r.Helper+1, r.Err)
}

// Helpers is the caller's side of a farm whose other workers answer
// asynchronously — the page's helper Web Workers (ui/farm.go): Grads
// posts helper k (worker k+1) its share, computes the caller's share
// meanwhile, and waits for every reply on Replies. A reply that does not
// fit its request (DecodeReply), an error, or silence past Wait makes
// Grads return an error naming the helper: the pool then drops the farm
// and the caller computes every gradient of the call itself, so the run
// keeps the bits of one worker.
type Helpers struct {
	// Workers is the farm's size, the caller's among them.
	Workers int
	// Own is the caller's problem.
	Own Grader
	// Post sends helper k request seq; its answer comes on Replies.
	Post func(helper, seq int, req []byte)
	// Replies carries the helpers' answers (a stale one, of an earlier
	// request, is skipped).
	Replies chan Reply
	// Wait bounds the wait for the replies once the caller's share is
	// done (nil: the package's Wait).
	Wait func(own time.Duration) time.Duration

	seq int
	tmp []float64
}

// ownNotFinite computes tasks' gradients on the caller's problem and
// says whether one is not finite: then a helper's non-finite reply was
// the run's own (it diverges), not a broken helper's, and the caller's
// gradients, the same bits, stand in its place.
func (h *Helpers) ownNotFinite(tasks []Task) bool {
	h.runOwn(tasks)
	for _, t := range tasks {
		for _, v := range t.Out {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return true
			}
		}
	}
	return false
}

// runOwn computes tasks' gradients on the caller's problem.
func (h *Helpers) runOwn(tasks []Task) {
	for k := range tasks {
		if len(h.tmp) < len(tasks[k].Out) {
			h.tmp = make([]float64, len(tasks[k].Out))
		}
		Run(h.Own, &tasks[k], h.tmp[:len(tasks[k].Out)])
	}
}

// Size implements Farm.
func (h *Helpers) Size() int { return h.Workers }

// Grads implements Farm.
func (h *Helpers) Grads(tasks []Task) error {
	for drained := false; !drained; { // answers of a call given up
		select {
		case r := <-h.Replies:
			if r.Err != nil { // a helper that failed between calls
				return r.failed()
			}
		default:
			drained = true
		}
	}
	h.seq++
	type span struct{ lo, hi int }
	pending := map[int]span{}
	for w := 1; w < h.Workers; w++ {
		lo, hi := Share(len(tasks), h.Workers, w)
		if lo < hi {
			h.Post(w-1, h.seq, Encode(nil, tasks[lo:hi]))
			pending[w-1] = span{lo, hi}
		}
	}
	t0 := time.Now()
	lo, hi := Share(len(tasks), h.Workers, 0)
	h.runOwn(tasks[lo:hi])
	wait := Wait
	if h.Wait != nil {
		wait = h.Wait
	}
	patience := wait(time.Since(t0))
	timer := time.NewTimer(patience)
	defer timer.Stop()
	for len(pending) > 0 {
		select {
		case r := <-h.Replies:
			if r.Err != nil {
				return r.failed()
			}
			s, ok := pending[r.Helper]
			if r.Seq != h.seq || !ok {
				continue
			}
			delete(pending, r.Helper)
			if err := DecodeReply(r.Bytes, tasks[s.lo:s.hi]); err != nil {
				if _, nf := err.(notFinite); !nf || !h.ownNotFinite(tasks[s.lo:s.hi]) {
					return fmt.Errorf("helper %d sent a wrong answer (%v)", r.Helper+1, err)
				}
			}
		case <-timer.C:
			first := h.Workers
			for k := range pending {
				first = min(first, k)
			}
			return fmt.Errorf("helper %d did not answer within %v", first+1, patience)
		}
	}
	return nil
}
