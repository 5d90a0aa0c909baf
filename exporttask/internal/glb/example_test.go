package glb_test

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
)

func ExampleEncode() {
	tri := &glb.Mesh{
		Positions: []float32{0, 0, 0, 1, 0, 0, 0, 0, -1},
		Indices:   []uint32{0, 1, 2},
		Color:     [4]float32{1, 1, 1, 1},
	}
	b, err := glb.Encode(tri)
	if err != nil {
		fmt.Println(err)
		return
	}
	back, _ := glb.Decode(b)
	fmt.Println(string(b[:4]), len(b)%4, len(back.Indices))
	// Output: glTF 0 3
}
