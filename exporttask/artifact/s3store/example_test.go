package s3store_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
)

// Example writes and reads an artifact in the bucket named by an s3:// URL,
// with the endpoint and credentials from the AWS environment variables.
func Example() {
	ctx := context.Background()
	cfg, err := s3store.ConfigFromEnv("s3://exports/prod", os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	store, err := s3store.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	w, err := store.Create(ctx, "42/METADATA.json")
	if err != nil {
		log.Fatal(err)
	}
	defer w.Abort() // aborts the multipart upload unless committed
	if _, err := io.WriteString(w, `{"id":42}`); err != nil {
		log.Fatal(err)
	}
	info, err := w.Commit()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Key, info.Size)
}
