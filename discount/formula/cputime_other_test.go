//go:build !unix

package formula

import "time"

// cpuTime is not measured here: benchmarks report 0 CPU.
func cpuTime() time.Duration { return 0 }
