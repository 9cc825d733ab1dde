package httpadapter_test

import (
	"time"

	"github.com/promoengine/promo/internal/cputime"
)

// cpuTime is the CPU (user + system) the test process has used so far:
// benchmarks divide it by their operations, a figure other processes
// loading the machine distort far less than wall time.
func cpuTime() time.Duration { return cputime.Used() }
