package exporttask_test

import (
	"testing"

	"github.com/openapi-viewer/viewer/exporttask"
)

// storeImpls lists the stores the lifecycle tests run against.
func storeImpls() []storeImpl {
	return []storeImpl{
		{"mem", func(t *testing.T) exporttask.Store { return newMemStore() }},
	}
}
