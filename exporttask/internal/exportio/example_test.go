package exportio_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "exportio-")
	defer os.RemoveAll(dir)
	out := testout.New(dir)
	a, err := exportio.Write(context.Background(), out, "hello.txt", exporttask.ArtifactMetadata, func(w io.Writer) error {
		_, err := io.WriteString(w, "hello\n")
		return err
	})
	fmt.Println(a.Name, a.Size, a.SHA256[:12], err)
	_, err = exportio.Write(context.Background(), out, "broken.txt", exporttask.ArtifactMetadata, func(w io.Writer) error {
		io.WriteString(w, "half a fi")
		return fmt.Errorf("disk on fire")
	})
	entries, _ := os.ReadDir(dir)
	fmt.Println(err, len(entries))
	// Output:
	// hello.txt 6 5891b5b522d5 <nil>
	// disk on fire 1
}
