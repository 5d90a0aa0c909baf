package viewer_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"testing/fstest"

	viewer "github.com/openapi-viewer/viewer"
)

// A spec split over files is bundled into one document at Setup: the
// referenced schema becomes a components entry named after its file, and
// the path item is copied in place.
func ExampleConfig_multiFile() {
	files := fstest.MapFS{
		"api/openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: Split, version: '1'}\npaths:\n  /pets:\n    $ref: paths/pets.yaml\n")},
		"api/paths/pets.yaml": {Data: []byte("get:\n  responses:\n    '200':\n      description: The pets.\n" +
			"      content:\n        application/json:\n          schema: {$ref: ../schemas/Pet.yaml}\n")},
		"api/schemas/Pet.yaml": {Data: []byte("type: object\nproperties:\n  name: {type: string}\n")},
	}
	docs, err := viewer.NewHandler(viewer.Config{
		FilePathOrSpec: viewer.File("api/openapi.yaml"),
		FS:             files,
		UIPath:         "/docs",
		RawPath:        "/openapi",
	})
	if err != nil {
		log.Fatal(err)
	}
	rec := httptest.NewRecorder()
	docs.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.yaml", nil))
	fmt.Print(rec.Body.String())
	// Output:
	// openapi: 3.0.3
	// info:
	//   title: Split
	//   version: "1"
	// paths:
	//   /pets:
	//     get:
	//       responses:
	//         "200":
	//           description: The pets.
	//           content:
	//             application/json:
	//               schema:
	//                 $ref: "#/components/schemas/Pet"
	// components:
	//   schemas:
	//     Pet:
	//       type: object
	//       properties:
	//         name:
	//           type: string
}

// Reload reads the documents again; a failed reload keeps the old ones.
func ExampleOpenapiViewerRouter_Reload() {
	docs := viewer.New(viewer.Config{FilePathOrSpec: "testdata/tiny.yaml", UIPath: "/docs"})
	if err := docs.Setup(); err != nil {
		log.Fatal(err)
	}
	// ... the file is edited ...
	if err := docs.Reload(); err != nil {
		log.Print(err) // still serving the previous version
	}
	fmt.Println("serving")
	// Output: serving
}
