//go:build !unix

package jsonstrict

// openNonblock is 0 where the system has no non-blocking open (there are
// no named pipes to wait on in the file system there, or no way to say so).
const openNonblock = 0
