package s3store_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/artifacttest"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
)

func TestConformance(t *testing.T) {
	srv := s3test.Start(t)
	artifacttest.Run(t, func(t *testing.T) artifact.Store {
		s, err := s3store.New(srv.Config(t))
		require.NoError(t, err)
		return s
	})
}
