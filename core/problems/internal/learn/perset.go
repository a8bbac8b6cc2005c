package learn

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"dpsim/core/data"
)

// perSet keeps one value per data set (a sparse form, a split of its
// columns), built from the set on the first lookup through any view of it
// and shared by all of them in the process. Keys are weak, and an entry
// is removed once its set is collected, so synthetic sets drawn per run
// leave nothing behind.
type perSet[T any] struct {
	build func(*data.Set) *T // must not keep the set
	mu    sync.Mutex
	m     map[weak.Pointer[data.Set]]*lazyValue[T]
	// last remembers the set of the last lookup and its entry, so that
	// the full passes (a call per block of rows) find it with one atomic
	// load: the lock and the weak pointer cost more than a small block's
	// work. It keeps that one set alive until another is looked up. (A
	// field in Rows would be cheaper still natively, but a fifth word in
	// Rows made js/wasm's full gradient half as slow again.)
	last atomic.Pointer[perSetHit[T]]
}

// lazyValue is one set's value, built once.
type lazyValue[T any] struct {
	once sync.Once
	v    *T
}

type perSetHit[T any] struct {
	set *data.Set
	l   *lazyValue[T]
}

// newPerSet returns an empty cache whose values build makes.
func newPerSet[T any](build func(*data.Set) *T) *perSet[T] {
	return &perSet[T]{build: build, m: map[weak.Pointer[data.Set]]*lazyValue[T]{}}
}

// entry returns set's (lazy) entry, adding it if there is none.
func (c *perSet[T]) entry(set *data.Set) *lazyValue[T] {
	k := weak.Make(set)
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.m[k]; ok {
		return l
	}
	l := &lazyValue[T]{}
	c.m[k] = l
	runtime.AddCleanup(set, func(k weak.Pointer[data.Set]) {
		c.mu.Lock()
		delete(c.m, k)
		c.mu.Unlock()
	}, k)
	return l
}

// get returns set's value (nil where build says so), building it once.
func (c *perSet[T]) get(set *data.Set) *T {
	if h := c.last.Load(); h != nil && h.set == set {
		return h.l.get(c, set)
	}
	l := c.entry(set)
	c.last.Store(&perSetHit[T]{set: set, l: l})
	return l.get(c, set)
}

// cached reports whether set has an entry (tests: the cache forgets).
func (c *perSet[T]) cached(k weak.Pointer[data.Set]) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.m[k]
	return ok
}

// force makes v set's value unless one was built already (tests and
// benchmarks: a form whatever the density).
func (c *perSet[T]) force(set *data.Set, v *T) {
	l := c.entry(set)
	l.once.Do(func() { l.v = v })
}

// pin makes v the value of set's lookups until unpin or another set's
// lookup, whatever the cache holds (tests and benchmarks: a split at a
// chosen threshold).
func (c *perSet[T]) pin(set *data.Set, v *T) {
	l := &lazyValue[T]{}
	l.once.Do(func() { l.v = v })
	c.last.Store(&perSetHit[T]{set: set, l: l})
}

// unpin forgets the last lookup.
func (c *perSet[T]) unpin() { c.last.Store(nil) }

func (l *lazyValue[T]) get(c *perSet[T], set *data.Set) *T {
	l.once.Do(func() { l.v = c.build(set) })
	return l.v
}
