package filestore_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
)

func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "artifacts")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	store, err := filestore.Open(ctx, dir)
	if err != nil {
		log.Fatal(err)
	}
	w, err := store.Create(ctx, "42/hello.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer w.Abort() // does nothing once committed
	if _, err := io.WriteString(w, "hello, artifact\n"); err != nil {
		log.Fatal(err)
	}
	info, err := w.Commit()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Key, info.Size, info.SHA256[:12])

	o, err := store.Open(ctx, "42/hello.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer o.Close()
	b, err := io.ReadAll(o)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(b))
	// Output:
	// 42/hello.txt 16 9273c6d42c82
	// hello, artifact
}
