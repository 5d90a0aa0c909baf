//go:build unix

package sourcefs

import (
	"os"
	"syscall"
)

// openFlags open a file for reading without blocking on a FIFO (the
// descriptor's fstat then refuses it).
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
