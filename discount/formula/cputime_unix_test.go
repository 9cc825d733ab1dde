//go:build unix

package formula

import (
	"syscall"
	"time"
)

// cpuTime is the CPU (user + system) the test process has used so far: a
// benchmark divides it by its operations, a figure other processes loading
// the machine distort far less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
