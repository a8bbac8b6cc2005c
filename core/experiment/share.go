package experiment

import (
	"container/list"
	"sync"
	"sync/atomic"

	"dpsim/core/check"
	"dpsim/core/objective"
)

// Bounds of a plan's shared problem instances. RunMajor hands out the
// tasks of one run together, and the seed rule gives every series and
// point of a run the same data seed, so a few entries per worker hold
// every instance in use; problems whose data do not depend on the run
// (pinned or deterministic data) are one entry for the whole sweep.
const (
	// shareEntries bounds the number of instances kept.
	shareEntries = 64
	// shareBytes bounds the data they hold (their Size estimates): an
	// eighth of the page's budget, since instances no run holds any more
	// are only dropped beyond it.
	shareBytes = 64 << 20
)

// problemShare keeps the problem instances of a plan's runs, one per
// objective.Factory.Key, so that runs with the same problem data share
// one read-only instance instead of each building its own. It is safe for
// concurrent use: a key is built once even when several workers ask for
// it together, the others waiting for that build. Least recently used
// entries are dropped beyond shareEntries or shareBytes; a dropped
// instance stays valid for the runs that hold it.
type problemShare struct {
	mu      sync.Mutex
	entries map[string]*list.Element // of *shared
	lru     list.List                // most recently used first
	bytes   int64
	builds  atomic.Int64 // calls of a build function (for tests)
}

type shared struct {
	key   string
	bytes int64
	once  sync.Once
	prob  objective.Problem
	warns []check.Warning
	err   error
}

func newProblemShare() *problemShare {
	return &problemShare{entries: map[string]*list.Element{}}
}

// provide implements scenario.ProblemProvider.
func (s *problemShare) provide(key string, dataBytes int64, build func() (objective.Problem, []check.Warning, error)) (objective.Problem, []check.Warning, error) {
	s.mu.Lock()
	el, ok := s.entries[key]
	if ok {
		s.lru.MoveToFront(el)
	} else {
		el = s.lru.PushFront(&shared{key: key, bytes: max(dataBytes, 0)})
		s.entries[key] = el
		s.bytes += max(dataBytes, 0)
		s.evict()
	}
	e := el.Value.(*shared)
	s.mu.Unlock()
	e.once.Do(func() {
		s.builds.Add(1)
		e.prob, e.warns, e.err = build()
	})
	return e.prob, e.warns, e.err
}

// evict drops the least recently used entries beyond the bounds, never
// the newest. s.mu is held.
func (s *problemShare) evict() {
	for s.lru.Len() > 1 && (s.lru.Len() > shareEntries || s.bytes > shareBytes) {
		e := s.lru.Remove(s.lru.Back()).(*shared)
		delete(s.entries, e.key)
		s.bytes -= e.bytes
	}
}

// reset drops every entry (the end of a sweep).
func (s *problemShare) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.entries)
	s.lru.Init()
	s.bytes = 0
}
