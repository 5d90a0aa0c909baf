package transcode

// Raw is a document as given, before parsing.
type Raw struct {
	Source string // for errors: file path, or the config field
	File   string // the file path, for a document read from a file
	Data   []byte
	IsJSON bool // data looks like JSON (it starts with '{' or '[')
	// StrictJSON: data must be JSON (a .json file, a marshalled object), so
	// a JSON error is not retried as YAML.
	StrictJSON bool
	// Owned: data is the package's to change (read from a file), not the
	// caller's.
	Owned bool
}

// UTF8BOM is the byte order mark some editors put at the start of a file.
const UTF8BOM = "\xEF\xBB\xBF"

// TrimBOM returns data without a leading UTF8BOM.
func TrimBOM(data []byte) []byte {
	if len(data) >= 3 && string(data[:3]) == UTF8BOM {
		return data[3:]
	}
	return data
}
