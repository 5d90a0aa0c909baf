package exporttasktest

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
)

// newSimulator returns the simulated exporter of a test server.
func newSimulator(cfg config) (exporttask.Exporter, error) {
	sim, err := exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: cfg.taskDuration})
	if err != nil {
		return nil, fmt.Errorf("creating the simulator: %w", err)
	}
	return sim, nil
}
