package exporttask_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// BenchmarkDecodeCreateRequestManyProblems decodes a body of MaxBodyBytes
// with a problem in every element: the error path (every value replaced,
// every problem placed in body order) must stay as cheap as the valid one.
func BenchmarkDecodeCreateRequestManyProblems(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"webhook": [`)
	for sb.Len() < exporttask.MaxBodyBytes-100 {
		sb.WriteString(`1,`)
	}
	sb.WriteString(`1]}`)
	body := sb.String()
	_, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
	require.Len(b, problemsOf(&testing.T{}, err), exporttask.MaxProblems+1)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exporttask.DecodeCreateRequest(strings.NewReader(body)); err == nil {
			b.Fatal("no error")
		}
	}
}
