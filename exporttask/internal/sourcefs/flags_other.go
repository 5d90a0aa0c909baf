//go:build !unix

package sourcefs

import "os"

// openFlags open a file for reading.
const openFlags = os.O_RDONLY
