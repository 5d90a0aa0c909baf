package specdoc

import (
	"errors"
	"fmt"
)

// ErrInvalidConfig is wrapped by every error about the value given for a
// document (no value, a value of an unsupported type, an empty path), as
// opposed to a problem with a document (a *transcode.Error). It is the root
// package's ErrInvalidConfig, which every error about a Config field wraps.
var ErrInvalidConfig = errors.New("viewer: invalid config")

// configErrorf returns an error wrapping ErrInvalidConfig: its text is
// "viewer: invalid config: " and the message.
func configErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
}

// UnreadFile returns the name of the file that err, from [Load], says could
// not be read, so that a watcher can watch for it to appear.
func UnreadFile(err error) (string, bool) {
	var unread *unreadFileError
	if errors.As(err, &unread) {
		return unread.name, true
	}
	return "", false
}
