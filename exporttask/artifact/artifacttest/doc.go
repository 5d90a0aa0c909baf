// Package artifacttest is the conformance suite of
// [artifact.Store]: every implementation runs it from its own
// tests, so they all keep the same contract.
//
//	func TestConformance(t *testing.T) {
//		artifacttest.Run(t, func(t *testing.T) artifact.Store {
//			s, err := filestore.Open(t.Context(), t.TempDir())
//			require.NoError(t, err)
//			return s
//		})
//	}
//
// [Run] covers writing (visible only after Commit, nothing left by Abort,
// replacing), reading (Read, Seek, ranges through http.ServeContent),
// List, DeletePrefix, not-found errors, refused keys, sizes and SHA-256
// digests, and concurrent writers.
package artifacttest
