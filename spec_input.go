package viewer

// File is a FilePathOrSpec value that is always a file path (read from
// Config.FS when it is set), whatever its text: viewer.File("openapi.yaml").
type File string

// Bytes is a FilePathOrSpec value that is always a YAML or JSON document:
// viewer.Bytes(doc). A plain []byte means the same.
type Bytes []byte
