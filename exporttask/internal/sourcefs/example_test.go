package sourcefs_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

func ExampleRoot_ReadFile() {
	dir, _ := os.MkdirTemp("", "sourcefs-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "0.png"), []byte("tile"), 0o644)
	os.Symlink("0.png", filepath.Join(dir, "1.png"))       // inside: followed
	os.Symlink("/etc/passwd", filepath.Join(dir, "2.png")) // outside: refused

	r, _ := sourcefs.OpenRoot(dir)
	defer r.Close()
	for _, name := range []string{"0.png", "1.png", "2.png"} {
		b, err := r.ReadFile(name, 1<<20)
		fmt.Printf("%s %q %v %v\n", name, b, err, errors.Is(err, sourcefs.ErrOutside))
	}
	_, err := r.ReadFile("0.png", 3)
	fmt.Println(err)
	// Output:
	// 0.png "tile" <nil> false
	// 1.png "tile" <nil> false
	// 2.png "" 2.png leads outside the source true
	// 0.png is larger than allowed (4 bytes, the limit is 3)
}
