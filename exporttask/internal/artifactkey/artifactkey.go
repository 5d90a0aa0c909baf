package artifactkey

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

// Limits of an artifact key, in bytes: the whole key (S3's limit) and one
// segment (so that every store can keep a segment as a file name, with room
// for a temporary suffix).
const (
	MaxLen        = 1024
	MaxSegmentLen = 200
)

// Check reports whether key can name a file in every
// [artifact.Store]: non-empty, at most [MaxLen] bytes of valid
// UTF-8, slash-separated segments of at most [MaxSegmentLen] bytes
// that are not empty and do not start with a dot (so neither "." nor "..",
// and dot names stay free for a store's own temporary files), no leading or
// trailing slash, no backslash and no control character. The error wraps
// [artifact.ErrKey] and says what is wrong.
func Check(key string) error {
	if problem := artifactKeyProblem(key); problem != "" {
		return fmt.Errorf("%w %q: %s", artifact.ErrKey, key, problem)
	}
	return nil
}

// CheckPrefix reports whether prefix can select files in List and
// DeletePrefix: empty (every file), or a valid key, optionally followed by
// one slash ("42/").
func CheckPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if problem := artifactKeyProblem(strings.TrimSuffix(prefix, "/")); problem != "" {
		return fmt.Errorf("%w: prefix %q: %s", artifact.ErrKey, prefix, problem)
	}
	return nil
}

func artifactKeyProblem(key string) string {
	switch {
	case key == "":
		return "empty"
	case len(key) > MaxLen:
		return fmt.Sprintf("longer than %d bytes", MaxLen)
	case !utf8.ValidString(key):
		return "not valid UTF-8"
	case strings.HasPrefix(key, "/"):
		return "absolute (starts with a slash)"
	case strings.HasSuffix(key, "/"):
		return "ends with a slash"
	case strings.ContainsRune(key, '\\'):
		return "contains a backslash"
	}
	for _, r := range key {
		if unicode.IsControl(r) {
			return "contains a control character"
		}
	}
	for seg := range strings.SplitSeq(key, "/") {
		switch {
		case seg == "":
			return "has an empty segment (//)"
		case strings.HasPrefix(seg, "."):
			return fmt.Sprintf("segment %q starts with a dot", seg)
		case len(seg) > MaxSegmentLen:
			return fmt.Sprintf("a segment is longer than %d bytes", MaxSegmentLen)
		}
	}
	return ""
}

// Key returns the key of task id's file name: "<id>/<name>".
func Key(id int64, name string) string {
	return Prefix(id) + name
}

// Prefix returns the key prefix under which task id's files live.
func Prefix(id int64) string {
	return strconv.FormatInt(id, 10) + "/"
}
