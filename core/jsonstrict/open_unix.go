//go:build unix

package jsonstrict

import "syscall"

// openNonblock opens without waiting for a named pipe's writer.
const openNonblock = syscall.O_NONBLOCK
