package specdoc

import (
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/internal/transcode"
)

// Error is a problem with a document: where it is and what it is. The root
// package turns it into its SpecError, field for field.
type Error = transcode.Error

// ConfigError is a problem with the value given for a document (no value,
// a value of an unsupported type, an empty path), not with a document. The
// root package turns it into an error that wraps its ErrInvalidConfig,
// with the same text.
type ConfigError struct {
	// Msg says what is wrong, naming the config field.
	Msg string
}

// Error returns "viewer: invalid config: " and Msg.
func (e *ConfigError) Error() string { return "viewer: invalid config: " + e.Msg }

func configErrorf(format string, args ...any) error {
	return &ConfigError{Msg: fmt.Sprintf(format, args...)}
}

// UnreadFile returns the name of the file that err says could not be read,
// so that a watcher can watch for it to appear.
func (Loader) UnreadFile(err error) (string, bool) {
	var unread *unreadFileError
	if errors.As(err, &unread) {
		return unread.name, true
	}
	return "", false
}
